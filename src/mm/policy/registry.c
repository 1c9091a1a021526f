/* The one table of reclaim policies, and the activation that turns MM->sysctl into the
 * lists of hooks the core calls. Adding a policy: its file, and one line here. The order is
 * the order their keys are listed in and the order hooks of the same point are called. */
#include "mm/policy/policy.h"

#include <string.h>

extern const struct reclaim_policy policy_kosaki_throttle_rfc;
extern const struct reclaim_policy policy_kosaki_throttle;
extern const struct reclaim_policy policy_too_many_isolated;
extern const struct reclaim_policy policy_reclaim_throttle;
extern const struct reclaim_policy policy_exec_protect;
extern const struct reclaim_policy policy_inactive_file_is_low;
extern const struct reclaim_policy policy_unmap_mark_accessed;
extern const struct reclaim_policy policy_direct_bail_out;
extern const struct reclaim_policy policy_deactivate_keeps_swap;
extern const struct reclaim_policy policy_zap_mark_accessed;
extern const struct reclaim_policy policy_mmap_sync_readahead;
extern const struct reclaim_policy policy_writeback_skip;
extern const struct reclaim_policy policy_writeback_throttle;
extern const struct reclaim_policy policy_swap_token;

const struct reclaim_policy *const reclaim_policies[] = {
    &policy_kosaki_throttle_rfc,   /* KOSAKI Feb 2008 (v1), vm.max_reclaiming_tasks */
    &policy_kosaki_throttle,	   /* KOSAKI 2008, vm.max_reclaiming_tasks_per_zone */
    &policy_too_many_isolated,	   /* mainline 2.6.32 */
    &policy_reclaim_throttle,	   /* mainline 5.16 */
    &policy_exec_protect,	   /* Wu Fengguang, mainline 2.6.31 */
    &policy_inactive_file_is_low,  /* Rik van Riel, mainline 2.6.31 */
    &policy_unmap_mark_accessed,   /* Nick Piggin, mainline 2.6.29 */
    &policy_direct_bail_out,	   /* Rik van Riel, mainline 2.6.29 */
    &policy_deactivate_keeps_swap, /* Johannes Weiner, mainline 2.6.30 */
    &policy_mmap_sync_readahead,   /* Wu Fengguang's readahead series, mainline 2.6.31 */
    &policy_zap_mark_accessed,	   /* mainline up to 2.6.20 (Ken Chen's 2.6.21 removed it) */
    &policy_writeback_skip,	   /* Mel Gorman 2011, patches 1, 5, 7 (v3) */
    &policy_writeback_throttle,	   /* Mel Gorman 2011, patch 6 (v3) */
    &policy_swap_token,		   /* Rik van Riel 2004 .. Ashwin Chaugule 2.6.20 */
    NULL,
};

struct active_policies mm_active;

static int *switch_field(const struct reclaim_policy *p, const struct vm_sysctl *s)
{
	return (int *)((char *)s + p->on_switch - 1);
}

void mm_policies_defaults(struct vm_sysctl *s)
{
	for (const struct reclaim_policy *const *p = reclaim_policies; *p; p++) {
		if ((*p)->on_switch)
			*switch_field(*p, s) = 0;
		if ((*p)->defaults)
			(*p)->defaults(s);
	}
}

void mm_policies_mainline(struct vm_sysctl *s, kernel_version_t v)
{
	for (const struct reclaim_policy *const *p = reclaim_policies; *p; p++)
		for (size_t i = 0; i < (*p)->nmainline; i++) {
			const struct policy_release *r = &(*p)->mainline[i];
			if (v >= r->from && (!r->until || v <= r->until))
				*(int *)((char *)s + r->field) = r->value;
		}
}

static bool policy_is_on(const struct reclaim_policy *p, const struct vm_sysctl *s)
{
	if (p->active)
		return p->active(s);
	return p->on_switch && *switch_field(p, s) != 0;
}

static void add_hook(const struct reclaim_policy **list, const struct reclaim_policy *p)
{
	int n = 0;
	while (list[n])
		n++;
	if (n < MAX_ACTIVE_POLICIES)
		list[n] = p;
}

void mm_policies_activate(void)
{
	mm_policies_activate_table(reclaim_policies);
}

void mm_policies_activate_table(const struct reclaim_policy *const *table)
{
	memset(&mm_active, 0, sizeof(mm_active));
	for (const struct reclaim_policy *const *pp = table; *pp; pp++) {
		const struct reclaim_policy *p = *pp;
		if (p->boot)
			p->boot();
		if (!policy_is_on(p, &MM->sysctl))
			continue;
#define POLICY_ADD_HOOK(name)                                                                      \
	if (p->ops.name)                                                                           \
		add_hook(mm_active.name, p);
		POLICY_ADD_HOOK(direct_reclaim_enter)
		POLICY_ADD_HOOK(shrink_zone_enter)
		POLICY_ADD_HOOK(active_file_falls_through)
		POLICY_ADD_HOOK(shrink_zone_bail_out)
		POLICY_ADD_HOOK(deactivate_keeps_swap)
		POLICY_ADD_HOOK(keep_active)
		POLICY_ADD_HOOK(shrink_inactive_throttle)
		POLICY_ADD_HOOK(skip_file_writeback)
		POLICY_ADD_HOOK(after_putback)
		POLICY_ADD_HOOK(kswapd_zone_balanced)
		POLICY_ADD_HOOK(after_shrink_zones)
		POLICY_ADD_HOOK(priority_zero)
		POLICY_ADD_HOOK(page_referenced)
		POLICY_ADD_HOOK(swapin_major)
		POLICY_ADD_HOOK(file_no_cached_page)
		POLICY_ADD_HOOK(before_swapin)
		POLICY_ADD_HOOK(filemap_fault)
		POLICY_ADD_HOOK(fault_leaves_unmarked)
		POLICY_ADD_HOOK(zap_young_file)
		POLICY_ADD_HOOK(mm_exit)
		POLICY_ADD_HOOK(mm_exec)
		POLICY_ADD_HOOK(mm_fork)
#undef POLICY_ADD_HOOK
	}
}

size_t mm_policy_params(enum policy_group g, const struct param_desc **out, size_t max)
{
	size_t n = 0;
	for (const struct reclaim_policy *const *p = reclaim_policies; *p; p++) {
		if ((*p)->group != g)
			continue;
		for (size_t i = 0; i < (*p)->nparams && n < max; i++)
			out[n++] = &(*p)->params[i];
	}
	return n;
}

void policy_mm_exit(struct mm_struct *mm, struct mm_struct *parent_mm)
{
	policy_call_all(mm_exit, mm, parent_mm);
}

void policy_mm_exec(struct mm_struct *old_mm, struct mm_struct *new_mm)
{
	policy_call_all(mm_exec, old_mm, new_mm);
}

void policy_mm_fork(struct mm_struct *parent, struct mm_struct *child)
{
	policy_call_all(mm_fork, parent, child);
}
