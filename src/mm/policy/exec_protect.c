/* Wu Fengguang's "make mapped executable pages the first class citizen" (mainline 2.6.31;
 * kernel-reclaim.md §3; seed thread 002), as the switch vm.reclaim_exec_protect:
 * shrink_active_list keeps a referenced, mapped, file-backed page of a VM_EXEC mapping on
 * the active list for one more trip instead of deactivating it. Anonymous VM_EXEC pages are
 * not protected (a JVM makes many). Every referenced page still counts as rotated, as in
 * the patch, so get_scan_ratio sees the same balance. */
#include "mm/policy/policy.h"

#define VM(f) offsetof(struct vm_sysctl, f)

/* 2.6.31 shrink_active_list: (vm_flags & VM_EXEC) && !PageAnon(page). The test is on the
 * page, not the list: a shmem page mapped executable (on the anon list, not PageAnon) is
 * protected too. The model has no shmem, so today this equals "file list and VM_EXEC". */
static bool keep_exec_active(pfn_t pfn, unsigned long vm_flags, int file)
{
	(void)file;
	return (vm_flags & VM_EXEC) && !PageAnon(pfn_to_page(pfn));
}

static const struct param_desc params[] = {
    {"vm.reclaim_exec_protect", P_INT, VM(reclaim_exec_protect), 0, 1, NULL,
     "keep referenced mapped executable file pages active (Wu Fengguang, 2.6.31)"},
};

/* commit 8cab4754d24a, first in 2.6.31 (mm/vmscan.c at v2.6.30 has no VM_EXEC test) */
static const struct policy_release mainline[] = {
    {KERNEL_VERSION(2, 6, 31), 0, VM(reclaim_exec_protect), 1},
};

const struct reclaim_policy policy_exec_protect = {
    .name = "exec-protect",
    .summary = "Wu Fengguang, mapped executable pages the first class citizen (2.6.31)",
    .group = POLICY_GROUP_RECLAIM,
    .params = params,
    .nparams = ARRAY_SIZE(params),
    .on_switch = POLICY_SWITCH(reclaim_exec_protect),
    .mainline = mainline,
    .nmainline = ARRAY_SIZE(mainline),
    .ops = {.keep_active = keep_exec_active},
};
