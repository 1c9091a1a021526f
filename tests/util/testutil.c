#include "util/testutil.h"

#include "mm/era/era.h"

#include "cli/scenario_file.h"
#include "hw/profile.h"
#include "mm/mm.h"

#include <stdio.h>
#include <string.h>

void test_scenario(struct scenario_config *cfg, const char *text)
{
	char err[1024];
	scenario_defaults(cfg);
	cfg->check_every = 2000;
	if (scenario_parse_text(cfg, text, strlen(text), "test", err, sizeof(err)) != 0 ||
	    scenario_validate(cfg, err, sizeof(err)) != 0) {
		print_error("scenario: %s\n", err);
		fail();
	}
}

void test_run(const struct scenario_config *cfg, uint64_t seed, struct run_result *res)
{
	int rc = scenario_run(cfg, seed, res, mm_check_invariants);
	assert_int_equal(rc, 0);
}

uint64_t test_vmstat(const struct run_result *res, const char *name)
{
	for (int i = 0; i < res->nr_vmstat; i++)
		if (!strcmp(res->vmstat[i].name, name))
			return res->vmstat[i].value;
	print_error("no vmstat counter %s\n", name);
	fail();
	return 0;
}

double test_metric(const struct run_result *res, const char *name)
{
	for (int i = 0; i < res->wl.nmetrics; i++)
		if (!strcmp(res->wl.metrics[i].name, name))
			return res->wl.metrics[i].value;
	print_error("no metric %s\n", name);
	fail();
	return 0;
}

uint64_t test_vmstat_zones(const struct run_result *res, const char *name)
{
	static const char *const zones[] = {"dma", "dma32", "normal", "high"};
	uint64_t sum = 0;
	char full[64];
	for (int z = 0; z < 4; z++) {
		snprintf(full, sizeof(full), "%s_%s", name, zones[z]);
		for (int i = 0; i < res->nr_vmstat; i++)
			if (!strcmp(res->vmstat[i].name, full))
				sum += res->vmstat[i].value;
	}
	return sum;
}

struct task_struct *test_oom_killed[8];

struct task_struct *test_charged_current(void)
{
	static struct task_struct t;
	memset(&t, 0, sizeof(t));
	set_current(&t);
	return &t;
}
int test_nr_oom_killed;

static void test_kill(struct task_struct *victim)
{
	if (test_nr_oom_killed < 8)
		test_oom_killed[test_nr_oom_killed++] = victim;
	victim->tif |= TIF_MEMDIE;
	victim->task.fatal_signal = true;
}

static const struct mm_task_ops test_ops = {.kill = test_kill};

static void boot_with(const char *profile, uint64_t ram, uint64_t swap,
		      const struct vm_sysctl *sysctl)
{
	const struct hw_profile *hw = hw_profile_find(profile);
	assert_non_null(hw);
	struct mm_config mc = {.hw = hw, .ram_bytes = ram, .swap_bytes = swap, .seed = 1};
	mc.sysctl = *sysctl;
	sched_init(1, hw->quantum_ns, hw->timeslice_ns, hw->ctxsw_ns);
	sched_set_mem_context_cost(hw->switch_mm_ns);
	sched_set_hz(hw->hz);
	assert_int_equal(mm_init(&mc, &test_ops), 0);
	test_nr_oom_killed = 0;
}

void test_machine_boot(const char *profile, uint64_t ram, uint64_t swap, long min_free_kbytes)
{
	struct vm_sysctl s;
	vm_sysctl_defaults(&s);
	s.min_free_kbytes = min_free_kbytes;
	boot_with(profile, ram, swap, &s);
}

void test_machine_boot_kernel(const char *profile, uint64_t ram, uint64_t swap, const char *version)
{
	struct vm_sysctl s;
	kernel_version_t v = 0;
	assert_int_equal(kernel_version_parse(version, &v), 0);
	kernel_version_defaults(v, &s);
	boot_with(profile, ram, swap, &s);
}

void test_machine_shutdown(void)
{
	assert_int_equal(mm_check_invariants(), 0);
	sched_destroy();
	mm_destroy();
}

static pfn_t new_user_page(void)
{
	pfn_t pfn = __alloc_pages(GFP_HIGHUSER_MOVABLE, 0);
	assert_int_not_equal(pfn, NO_PFN);
	pfn_to_page(pfn)->owner = OWNER_USER_NEW;
	MM->nr_user_new++;
	return pfn;
}

pfn_t test_file_page(struct address_space *f, uint64_t idx)
{
	pfn_t pfn = new_user_page();
	add_to_page_cache_lru(f, idx, pfn);
	return pfn;
}

void test_map(struct vm_area_struct *vma, uint64_t off, pfn_t pfn, bool young)
{
	uint64_t c = vma_pt_index(vma, off); /* the aligned span, wherever the VMA starts */
	if (vma->ptpage[c] == NO_PFN) {
		vma->ptpage[c] = alloc_kernel_page(OWNER_PAGETABLE, GFP_KERNEL);
		vma->mm->nr_ptes++;
	}
	page_add_rmap(pfn, vma, off);
	vma->pte[off] = pfn | PTE_PRESENT | (young ? PTE_YOUNG : 0);
}

pfn_t test_anon_page_lru(struct vm_area_struct *vma, uint64_t off, bool young, bool dirty,
			 enum lru_list lru)
{
	pfn_t pfn = new_user_page();
	pfn_to_page(pfn)->flags |= PG_swapbacked;
	vma->anon_vma = true;
	test_map(vma, off, pfn, young);
	if (dirty)
		vma->pte[off] |= PTE_DIRTY;
	lru_cache_add_lru(pfn, lru);
	return pfn;
}

pfn_t test_anon_page(struct vm_area_struct *vma, uint64_t off, bool young, bool dirty)
{
	return test_anon_page_lru(vma, off, young, dirty, LRU_ACTIVE_ANON);
}

long test_zone_free(const struct zone *z)
{
	long n = z->stat[NR_FREE_PAGES];
	for (int c = 0; c < MM->ncpus; c++)
		n += (long)z->pcp[c].list.nr;
	return n;
}

long test_free_pages(void)
{
	long n = 0;
	for (int i = 0; i < MM->nr_zones; i++)
		n += test_zone_free(&MM->zones[i]);
	return n;
}

struct scan_control test_direct_sc(int priority)
{
	struct scan_control sc = {0};
	sc.gfp_mask = GFP_KERNEL;
	sc.may_writepage = 1;
	sc.may_swap = 1;
	sc.swap_cluster_max = SWAP_CLUSTER_MAX;
	sc.swappiness = 60;
	sc.priority = priority;
	return sc;
}

void test_isolate(pfn_t pfn, struct pagelist *list)
{
	struct page *p = pfn_to_page(pfn);
	struct zone *z = page_zone(p);
	del_page_from_lru_list(z, pfn, page_lru(p));
	p->flags &= ~PG_lru;
	p->flags |= PG_isolated;
	int file = page_is_file_cache(p);
	z->nr_isolated[file]++;
	zone_stat_add(z, file ? NR_ISOLATED_FILE : NR_ISOLATED_ANON, 1);
	pagelist_add(list, pfn);
}
