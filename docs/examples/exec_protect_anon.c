/* Wu Fengguang's first version of "vmscan: make mapped executable pages the first class
 * citizen" (May 2009; kernel-reclaim.md §3): shrink_active_list keeps every referenced page
 * of a VM_EXEC mapping active, anonymous ones included. The merged version (2.6.31,
 * src/mm/policy/exec_protect.c) protects file pages only, after the thread pointed out that
 * a JVM maps much anonymous memory executable. docs/extending.md walks through this file;
 * tests/test_extending_example.c compiles and tests it. */
#include "mm/policy/policy.h"

/* The hook at shrink_active_list's referenced page: true keeps it on the active list. */
static bool keep_exec_active(pfn_t pfn, unsigned long vm_flags, int file)
{
	(void)pfn;
	(void)file; /* v1: anon pages too */
	return vm_flags & VM_EXEC;
}

static const struct param_desc params[] = {
    {"vm.reclaim_exec_protect_anon", P_INT, offsetof(struct vm_sysctl, reclaim_exec_protect_anon),
     0, 1, NULL, "keep referenced mapped executable pages active, anon too (Wu Fengguang v1)"},
};

const struct reclaim_policy policy_exec_protect_anon = {
    .name = "exec-protect-anon",
    .summary = "Wu Fengguang, VM_EXEC protection v1 (May 2009, not merged in this form)",
    .group = POLICY_GROUP_RECLAIM,
    .params = params,
    .nparams = ARRAY_SIZE(params),
    .on_switch = POLICY_SWITCH(reclaim_exec_protect_anon),
    .ops = {.keep_active = keep_exec_active},
};
