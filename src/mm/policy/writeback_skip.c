/* Mel Gorman's 2011 series "Reduce filesystem writeback from page reclaim" (kernel-reclaim.md
 * §5.2; seed thread 004), the patches that keep reclaim from writing file pages, each its
 * own switch on the 2.6.28 base:
 *   vm.reclaim_direct_file_writeback = 0  direct reclaim never writes file pages (patch 1)
 *   vm.reclaim_kswapd_file_writeback = 1  kswapd writes them only at priority < DEF_PRIORITY-2
 *                                     = 0  kswapd never writes them (v2 patch 8)
 *   vm.reclaim_immediate = 1              a skipped dirty page gets PG_reclaim, so it goes to
 *                                         the inactive tail when its writeback ends (v3 7/7)
 * With the defaults (1, 2, 0) reclaim writes as vanilla does. Anonymous pages are always
 * written to swap: there is no flusher for them. The throttle (patch 6) is
 * writeback_throttle.c. */
#include "mm/policy/policy.h"

#define VM(f) offsetof(struct vm_sysctl, f)

static bool skip_file_writeback(pfn_t pfn, struct scan_control *sc)
{
	bool kswapd = current && (current->flags & PF_KSWAPD);
	bool skip;
	if (!kswapd)
		skip = !MM->sysctl.reclaim_direct_file_writeback;
	else if (MM->sysctl.reclaim_kswapd_file_writeback == 0)
		skip = true;
	else if (MM->sysctl.reclaim_kswapd_file_writeback == 1)
		skip = sc->priority >= DEF_PRIORITY - 2; /* writes only "getting into trouble" */
	else
		skip = false;
	if (!skip)
		return false;
	struct page *p = pfn_to_page(pfn);
	inc_zone_page_state(p, NR_VMSCAN_WRITE_SKIP);
	if (MM->sysctl.reclaim_immediate) {
		/* the flusher will write it; its end of writeback rotates it to the tail */
		p->flags |= PG_reclaim;
		inc_zone_page_state(p, NR_VMSCAN_IMMEDIATE);
	}
	return true;
}

static const struct param_desc params[] = {
    {"vm.reclaim_direct_file_writeback", P_INT, VM(reclaim_direct_file_writeback), 0, 1, NULL,
     "direct reclaim may write dirty file pages (0 = Mel Gorman 2011 patch 1)"},
    {"vm.reclaim_kswapd_file_writeback", P_INT, VM(reclaim_kswapd_file_writeback), 0, 2, NULL,
     "kswapd writes dirty file pages: 2 always, 1 only at priority < 10, 0 never"},
    {"vm.reclaim_immediate", P_INT, VM(reclaim_immediate), 0, 1, NULL,
     "skipped dirty file pages get PG_reclaim for immediate reclaim after writeback"},
};

static void defaults(struct vm_sysctl *s)
{
	s->reclaim_direct_file_writeback = 1;
	s->reclaim_kswapd_file_writeback = 2;
	s->reclaim_immediate = 0;
}

/* reclaim_immediate acts only on pages the other two switches skip */
static bool active(const struct vm_sysctl *s)
{
	return !s->reclaim_direct_file_writeback || s->reclaim_kswapd_file_writeback != 2;
}

/* mainline 3.2 (ee72886d8ed5, f84f6e2b0868 and the immediate-reclaim patch, §5.1) */
static const struct policy_release mainline[] = {
    {KERNEL_VERSION(3, 2, 0), 0, VM(reclaim_direct_file_writeback), 0},
    {KERNEL_VERSION(3, 2, 0), 0, VM(reclaim_kswapd_file_writeback), 1},
    {KERNEL_VERSION(3, 2, 0), 0, VM(reclaim_immediate), 1},
};

const struct reclaim_policy policy_writeback_skip = {
    .name = "writeback-skip",
    .summary = "Mel Gorman, no file writeback from direct reclaim, kswapd only at high "
	       "priority, immediate reclaim (2011, mainline 3.2)",
    .group = POLICY_GROUP_RECLAIM,
    .params = params,
    .nparams = ARRAY_SIZE(params),
    .defaults = defaults,
    .active = active,
    .mainline = mainline,
    .nmainline = ARRAY_SIZE(mainline),
    .ops = {.skip_file_writeback = skip_file_writeback},
};
