/* Reclaim policies as descriptors. Each patch the seed threads argue about (a reclaim
 * throttle, VM_EXEC protection, the swap token, a writeback patch) is one file under
 * src/mm/policy/ that exports one `struct reclaim_policy`: its name, its vm.* keys with
 * their ranges and documentation, the values those keys take when the patch is absent, and
 * the hooks it implements at named points of reclaim. registry.c lists them in one table;
 * mm_policies_activate() asks each whether the machine's sysctls turn it on and collects
 * the hooks of those that are on, so the core calls hooks only through active policies and
 * vanilla reclaim runs with every hook list empty. docs/extending.md walks through adding
 * one. */
#ifndef MMSIM_MM_POLICY_POLICY_H
#define MMSIM_MM_POLICY_POLICY_H

#include "mm/vmscan.h"
#include "sim/param.h"

/* The hook points, in the order reclaim reaches them. A policy sets the ones it implements
 * and leaves the others NULL. */
struct reclaim_policy_ops {
	/* try_to_free_pages, around do_try_to_free_pages (the first active policy that has
	 * one): enter before it, returning a value exit gets back; *skip set returns progress
	 * (1) without reclaiming */
	unsigned long (*direct_reclaim_enter)(struct scan_control *sc, bool *skip);
	void (*direct_reclaim_exit)(struct scan_control *sc, unsigned long entered);
	/* shrink_zone, around its list work (the first active policy that has one): enter
	 * before it, returning a value exit gets back; *skip set skips the list work */
	unsigned long (*shrink_zone_enter)(struct zone *z, struct scan_control *sc, bool *skip);
	void (*shrink_zone_exit)(struct zone *z, struct scan_control *sc, unsigned long entered);
	/* shrink_list, LRU_ACTIVE_FILE: true sends the scan to the inactive file list instead
	 * of aging the active one */
	bool (*active_file_falls_through)(const struct zone *z);
	/* shrink_zone, after each round over the lists: true ends the list work (nr_reclaimed:
	 * freed by this shrink_zone so far) */
	bool (*shrink_zone_bail_out)(const struct scan_control *sc, unsigned long nr_reclaimed,
				     int priority);
	/* shrink_active_list's putback: true when the deactivated pages keep their swap slots
	 * even with swap full (presence is the answer) */
	bool (*deactivate_keeps_swap)(void);
	/* shrink_active_list, a referenced page: true keeps it on the active list */
	bool (*keep_active)(pfn_t pfn, unsigned long vm_flags, int file);
	/* shrink_inactive_list entry: SHRINK_INACTIVE_PROCEED to go on and scan, or what
	 * shrink_inactive_list returns at once (the first active policy that has one) */
	long (*shrink_inactive_throttle)(struct zone *z, struct scan_control *sc, int file);
	/* shrink_page_list, a dirty file page about to be written: true keeps it instead */
	bool (*skip_file_writeback)(pfn_t pfn, struct scan_control *sc);
	/* shrink_inactive_list after each batch is put back */
	void (*after_putback)(struct zone *z, struct scan_control *sc,
			      const struct reclaim_batch *b);
	/* balance_pgdat, a zone found at its high watermark */
	void (*kswapd_zone_balanced)(struct zone *z);
	/* do_try_to_free_pages after each shrink_zones pass */
	void (*after_shrink_zones)(struct scan_control *sc, int priority, unsigned long scanned,
				   unsigned long reclaimed);
	/* do_try_to_free_pages and balance_pgdat on reaching priority 0 */
	void (*priority_zero)(void);
	/* page_referenced: true counts one more reference for a mapping of mm (not current's) */
	bool (*page_referenced)(struct mm_struct *mm);
	/* the fault paths: a major swap-in's read started, a file page read by 2.6.9
	 * filemap_nopage's no_cached_page path (not by read-around), and before a swap-in's
	 * I/O is started */
	void (*swapin_major)(struct mm_struct *mm);
	void (*file_no_cached_page)(struct mm_struct *mm);
	void (*before_swapin)(struct mm_struct *mm);
	/* filemap_fault's lookup and read-around (the first active policy that has one
	 * replaces 2.6.28's): the page of vma's file at pgoff, *major when PGMAJFAULT counts */
	pfn_t (*filemap_fault)(struct vm_area_struct *vma, uint64_t pgoff, bool *major);
	/* filemap_fault has the page it maps: true when the policy, not the fault, accounts
	 * the use (the fault then does not call mark_page_accessed) */
	bool (*fault_leaves_unmarked)(pfn_t pfn);
	/* zap_pte_range drops a young PTE of a file page: true when the policy accounted the
	 * reference (otherwise the page is left as 2.6.28 leaves it) */
	bool (*zap_young_file)(pfn_t pfn);
	/* an mm goes away (exit), is replaced by exec, or is copied by fork */
	void (*mm_exit)(struct mm_struct *mm, struct mm_struct *parent_mm);
	void (*mm_exec)(struct mm_struct *old_mm, struct mm_struct *new_mm);
	void (*mm_fork)(struct mm_struct *parent, struct mm_struct *child);
};

/* Where a policy's keys appear in `mmsim run --keys` and the JSON config block. */
enum policy_group {
	POLICY_GROUP_RECLAIM,	/* page reclaim: throttles, LRU rules, writeback */
	POLICY_GROUP_THRASHING, /* thrashing control: the swap token */
};

/* A release range in which mainline booted with a sysctl at a value: the policy was merged
 * (or, for a variant, was the one in use) from `from` to `until` inclusive (0: still). */
struct policy_release {
	kernel_version_t from, until;
	size_t field; /* offsetof(struct vm_sysctl, ...) of an int */
	int value;
};

struct reclaim_policy {
	const char *name;    /* short, as docs/policies.md names it */
	const char *summary; /* who, which thread or commit, which kernel */
	enum policy_group group;
	/* its vm.* keys; offsets are into struct vm_sysctl */
	const struct param_desc *params;
	size_t nparams;
	/* A policy that one int sysctl turns on (nonzero) sets on_switch =
	 * POLICY_SWITCH(field) and needs neither of the next two: it is absent at 0. */
	size_t on_switch;
	/* writes the values its keys take in a kernel without the patch */
	void (*defaults)(struct vm_sysctl *s);
	/* true when these sysctls turn it on */
	bool (*active)(const struct vm_sysctl *s);
	/* where mainline had it, with which values; NULL-length: never merged */
	const struct policy_release *mainline;
	size_t nmainline;
	/* called at boot for every policy, active or not, to reset its per-machine state */
	void (*boot)(void);
	struct reclaim_policy_ops ops;
};

#define POLICY_SWITCH(field) (offsetof(struct vm_sysctl, field) + 1)

/* The registry (registry.c): every policy, NULL-terminated. */
extern const struct reclaim_policy *const reclaim_policies[];

/* Writes every policy's "absent" defaults into s. */
void mm_policies_defaults(struct vm_sysctl *s);
/* Then the values of the policies that were mainline in kernel v. */
void mm_policies_mainline(struct vm_sysctl *s, kernel_version_t v);
/* Collects the hooks of the policies MM->sysctl turns on. mm_init calls it (through
 * mm_sysctl_apply); a test that changes MM->sysctl by hand calls mm_sysctl_apply again. */
void mm_policies_activate(void);
/* The same for another table (NULL-terminated): a test of a policy not in the registry. */
void mm_policies_activate_table(const struct reclaim_policy *const *table);
/* The vm.* keys of every policy of group g, in registry order; offsets into vm_sysctl. */
size_t mm_policy_params(enum policy_group g, const struct param_desc **out, size_t max);

#define MAX_ACTIVE_POLICIES 16

/* The active hooks, one list per hook point. */
struct active_policies {
#define POLICY_HOOK_LIST(name) const struct reclaim_policy *name[MAX_ACTIVE_POLICIES + 1];
	POLICY_HOOK_LIST(direct_reclaim_enter)
	POLICY_HOOK_LIST(shrink_zone_enter)
	POLICY_HOOK_LIST(active_file_falls_through)
	POLICY_HOOK_LIST(shrink_zone_bail_out)
	POLICY_HOOK_LIST(deactivate_keeps_swap)
	POLICY_HOOK_LIST(keep_active)
	POLICY_HOOK_LIST(shrink_inactive_throttle)
	POLICY_HOOK_LIST(skip_file_writeback)
	POLICY_HOOK_LIST(after_putback)
	POLICY_HOOK_LIST(kswapd_zone_balanced)
	POLICY_HOOK_LIST(after_shrink_zones)
	POLICY_HOOK_LIST(priority_zero)
	POLICY_HOOK_LIST(page_referenced)
	POLICY_HOOK_LIST(swapin_major)
	POLICY_HOOK_LIST(file_no_cached_page)
	POLICY_HOOK_LIST(before_swapin)
	POLICY_HOOK_LIST(filemap_fault)
	POLICY_HOOK_LIST(fault_leaves_unmarked)
	POLICY_HOOK_LIST(zap_young_file)
	POLICY_HOOK_LIST(mm_exit)
	POLICY_HOOK_LIST(mm_exec)
	POLICY_HOOK_LIST(mm_fork)
#undef POLICY_HOOK_LIST
};
extern struct active_policies mm_active;

/* True when some active policy implements hook `name`. */
#define policy_hooked(name) (mm_active.name[0] != NULL)
/* Calls hook `name` of every active policy that implements it, in registry order. */
#define policy_call_all(name, ...)                                                                 \
	do {                                                                                       \
		for (const struct reclaim_policy *const *p_ = mm_active.name; *p_; p_++)           \
			(*p_)->ops.name(__VA_ARGS__);                                              \
	} while (0)

/* The dispatchers the core calls. */
static inline bool policy_any_true_keep_active(pfn_t pfn, unsigned long vm_flags, int file)
{
	for (const struct reclaim_policy *const *p = mm_active.keep_active; *p; p++)
		if ((*p)->ops.keep_active(pfn, vm_flags, file))
			return true;
	return false;
}

static inline bool policy_skip_file_writeback(pfn_t pfn, struct scan_control *sc)
{
	for (const struct reclaim_policy *const *p = mm_active.skip_file_writeback; *p; p++)
		if ((*p)->ops.skip_file_writeback(pfn, sc))
			return true;
	return false;
}

static inline bool policy_shrink_zone_bails_out(const struct scan_control *sc,
						unsigned long nr_reclaimed, int priority)
{
	for (const struct reclaim_policy *const *p = mm_active.shrink_zone_bail_out; *p; p++)
		if ((*p)->ops.shrink_zone_bail_out(sc, nr_reclaimed, priority))
			return true;
	return false;
}

static inline bool policy_active_file_falls_through(const struct zone *z)
{
	for (const struct reclaim_policy *const *p = mm_active.active_file_falls_through; *p; p++)
		if ((*p)->ops.active_file_falls_through(z))
			return true;
	return false;
}

/* try_to_free_pages' reclaim through the first active policy's gate (KOSAKI's RFC, §2.2):
 * a gate that says skip makes it report progress (1) without reclaiming. */
static inline unsigned long
policy_gated_direct_reclaim(struct scan_control *sc,
			    unsigned long (*reclaim)(struct scan_control *))
{
	const struct reclaim_policy *gate = mm_active.direct_reclaim_enter[0];
	if (!gate)
		return reclaim(sc);
	bool skip = false;
	unsigned long entered = gate->ops.direct_reclaim_enter(sc, &skip);
	unsigned long ret = skip ? 1 : reclaim(sc);
	gate->ops.direct_reclaim_exit(sc, entered);
	return ret;
}

static inline bool policy_page_referenced(struct mm_struct *mm)
{
	for (const struct reclaim_policy *const *p = mm_active.page_referenced; *p; p++)
		if ((*p)->ops.page_referenced(mm))
			return true;
	return false;
}

static inline pfn_t policy_filemap_fault(struct vm_area_struct *vma, uint64_t pgoff, bool *major)
{
	return mm_active.filemap_fault[0]->ops.filemap_fault(vma, pgoff, major);
}

static inline bool policy_fault_leaves_unmarked(pfn_t pfn)
{
	for (const struct reclaim_policy *const *p = mm_active.fault_leaves_unmarked; *p; p++)
		if ((*p)->ops.fault_leaves_unmarked(pfn))
			return true;
	return false;
}

static inline bool policy_zap_young_file(pfn_t pfn)
{
	for (const struct reclaim_policy *const *p = mm_active.zap_young_file; *p; p++)
		if ((*p)->ops.zap_young_file(pfn))
			return true;
	return false;
}

#endif
