/* docs/extending.md's example policy, compiled as it is printed there: registered in a
 * table of its own, its key parses into the sysctls, and its hook decides, on hand-built
 * pages, what shrink_active_list does with a referenced anonymous VM_EXEC page (kept active
 * with the switch on, deactivated with it off, as the merged file-only rule does). */
#include "../docs/examples/exec_protect_anon.c"

#include "util/testutil.h"

#include <string.h>

static const struct reclaim_policy *const example_table[] = {&policy_exec_protect_anon, NULL};

/* One referenced anon page of an executable mapping through shrink_active_list. */
static bool anon_exec_page_stays_active(const char *value)
{
	test_machine_boot("x86_64-2008", 64ULL << 20, 64ULL << 20, 0);
	char err[256];
	assert_int_equal(
	    param_parse(&policy_exec_protect_anon.params[0], &MM->sysctl, value, err, sizeof(err)),
	    0);
	mm_policies_activate_table(example_table);
	struct mm_struct *mm = mm_alloc();
	struct vm_area_struct *v =
	    find_vma(mm, do_mmap(mm, 8, VM_READ | VM_WRITE | VM_EXEC, NULL, 0));
	pfn_t pfn = test_anon_page(v, 1, true, true); /* young PTE: referenced */
	activate_page(pfn);
	struct zone *z = page_zone(pfn_to_page(pfn));
	struct scan_control sc = test_direct_sc(DEF_PRIORITY);
	shrink_active_list(SWAP_CLUSTER_MAX, z, &sc, DEF_PRIORITY, 0);
	bool active = pfn_to_page(pfn)->flags & PG_active;
	exit_mmap(mm);
	mm_sysctl_apply(); /* back to the registry's policies */
	test_machine_shutdown();
	return active;
}

static void switch_on_keeps_anon_exec_active(void **state)
{
	(void)state;
	assert_true(anon_exec_page_stays_active("1"));
}

static void switch_off_deactivates(void **state)
{
	(void)state;
	assert_false(anon_exec_page_stays_active("0"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(switch_on_keeps_anon_exec_active),
	    cmocka_unit_test(switch_off_deactivates),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
