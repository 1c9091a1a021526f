/* The tables of kernel eras and reclaim rule variants, and the choice of the rule variant a
 * machine runs (MM->rules). Adding an era or a rule variant: its file, one line here. */
#include "mm/era/era.h"

#include "mm/policy/policy.h"

#include <string.h>

extern const struct kernel_era kernel_era_268;
extern const struct kernel_era kernel_era_2625;
extern const struct kernel_era kernel_era_2628;

const struct kernel_era *const kernel_eras[] = {
    &kernel_era_268,
    &kernel_era_2625,
    &kernel_era_2628,
    NULL,
};

const struct reclaim_rules *const reclaim_rules_table[] = {
    &reclaim_rules_2628, /* index RECLAIM_LRU_2628 */
    &reclaim_rules_2625, /* index RECLAIM_LRU_2625 */
    &reclaim_rules_268,	 /* index RECLAIM_LRU_268 */
    NULL,
};

const char *const *reclaim_rules_names(void)
{
	static const char *names[ARRAY_SIZE(reclaim_rules_table)];
	if (!names[0])
		for (size_t i = 0; reclaim_rules_table[i]; i++)
			names[i] = reclaim_rules_table[i]->name;
	return names;
}

void vm_sysctl_common(struct vm_sysctl *s, kernel_version_t v)
{
	memset(s, 0, sizeof(*s));
	s->swappiness = 60;
	s->min_free_kbytes = 0;
	s->page_cluster = -1;
	/* vm_dirty_ratio, dirty_background_ratio: 40 and 10 until "Change default
	 * dirty-writeback limits" (07db59bd, 2.6.22-rc1) made them 10 and 5; "writeback:
	 * double the dirty thresholds" (1b5e62b42b5, 2.6.30) 20 and 10 (mm/page-writeback.c
	 * at v2.6.24, v2.6.29, v2.6.30) */
	if (v < KERNEL_VERSION(2, 6, 22)) {
		s->dirty_ratio = 40;
		s->dirty_background_ratio = 10;
	} else if (v < KERNEL_VERSION(2, 6, 30)) {
		s->dirty_ratio = 10;
		s->dirty_background_ratio = 5;
	} else {
		s->dirty_ratio = 20;
		s->dirty_background_ratio = 10;
	}
	s->dirty_expire_centisecs = 3000;
	s->dirty_writeback_centisecs = 500;
	/* kthreadd's KTHREAD_NICE_LEVEL -5, inherited by kswapd from 2.6.22 to 2.6.35 */
	s->kswapd_nice = v >= KERNEL_VERSION(2, 6, 22) && v < KERNEL_VERSION(2, 6, 36) ? -5 : 0;
	/* calculate_order (mm/slub.c at v2.6.25, v2.6.26, v2.6.29, v2.6.30): "slub: Calculate
	 * min_objects based on number of processors" and the order fallback came in 2.6.26;
	 * min_objects one at a time, capped by slub_max_order's slab, in 2.6.30 (3.0's is
	 * 2.6.30's). Kernels before 2.6.23 ran SLAB, given 2.6.25's rule (docs/model.md). */
	s->slub_order_rule = v < KERNEL_VERSION(2, 6, 26)   ? SLUB_ORDER_2625
			     : v < KERNEL_VERSION(2, 6, 30) ? SLUB_ORDER_2626
							    : SLUB_ORDER_2630;
	s->slub_max_order = -1;
	/* "mm: tracking shared dirty pages" (d08b3851da4, 2.6.19): vma_wants_writenotify,
	 * set_page_dirty_balance, page_mkclean in clear_page_dirty_for_io */
	s->mmap_writenotify = v >= KERNEL_VERSION(2, 6, 19);
	/* "mm: consider reserved pages in OVERCOMMIT_GUESS" (Hideo Aoki, 2.6.17-rc; the
	 * v2.6.24 mm/mmap.c has it, security/commoncap.c of 2.6.8 does not) */
	s->overcommit_totalreserve = v >= KERNEL_VERSION(2, 6, 17);
	s->overcommit_ratio = 50; /* sysctl_overcommit_ratio, mm/mmap.c, every era */
	s->slub_min_objects = 0;
	s->vfs_cache_pressure = 100; /* sysctl_vfs_cache_pressure, fs/dcache.c, every era */
	/* sysctl_lowmem_reserve_ratio (§1.1) */
	s->lowmem_reserve_ratio[ZONE_DMA] = 256;
	s->lowmem_reserve_ratio[ZONE_DMA32] = 256;
	s->lowmem_reserve_ratio[ZONE_NORMAL] = 32;
	s->lowmem_reserve_ratio[ZONE_HIGHMEM] = 32;
	mm_policies_defaults(s);
}

void vm_sysctl_defaults(struct vm_sysctl *s)
{
	kernel_version_t v = 0;
	kernel_version_parse(KERNEL_VERSION_DEFAULT, &v);
	kernel_version_defaults(v, s);
}

const struct reclaim_rules *reclaim_rules_at(int i)
{
	if (i < 0 || i >= (int)ARRAY_SIZE(reclaim_rules_table) - 1)
		i = RECLAIM_LRU_2628;
	return reclaim_rules_table[i];
}

void mm_sysctl_apply(void)
{
	MM->rules = reclaim_rules_at(MM->sysctl.reclaim_lru);
	mm_policies_activate();
}
