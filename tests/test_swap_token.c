/* The swap token's rules (kernel-reclaim.md §4) on hand-built mms: who gets the token when,
 * and what it does to page_referenced. */
#include "util/testutil.h"

#include "mm/policy/swap_token.h"

static void boot(int variant)
{
	test_machine_boot("x86_64-2008", 64ULL << 20, 64ULL << 20, 0);
	MM->sysctl.swap_token = variant;
	mm_sysctl_apply();
}

static void shutdown(void)
{
	MM->sysctl.swap_token = SWAP_TOKEN_OFF;
	mm_sysctl_apply();
	test_machine_shutdown();
}

static void priority_scheme(void **state)
{
	(void)state;
	boot(SWAP_TOKEN_PRIORITY);
	struct mm_struct *a = mm_alloc(), *b = mm_alloc();
	/* fault 1, a: nobody holds it -> a takes it with priority 2 */
	grab_swap_token_before_swapin(a);
	assert_ptr_equal(swap_token_holder(), a);
	assert_int_equal(a->token_priority, 2);
	assert_int_equal(a->faultstamp, 1);
	assert_int_equal(a->last_interval, 1);
	/* fault 2, b: interval 2 >= last 0 -> priority stays 0 (floor); 0 > 2? no */
	grab_swap_token_before_swapin(b);
	assert_ptr_equal(swap_token_holder(), a);
	assert_int_equal(b->token_priority, 0);
	assert_int_equal(b->last_interval, 2);
	/* fault 3, b: interval 1 < 2 -> 1; fault 4, b: interval 1, not < 1 -> 0 */
	grab_swap_token_before_swapin(b);
	assert_int_equal(b->token_priority, 1);
	grab_swap_token_before_swapin(b);
	assert_int_equal(b->token_priority, 0);
	/* the holder faulting raises its own priority by 2 */
	grab_swap_token_before_swapin(a);
	assert_int_equal(a->token_priority, 4);
	/* b must beat 4: its priority rises only while its intervals shrink */
	b->token_priority = 4;
	b->last_interval = 100;
	grab_swap_token_before_swapin(b); /* interval 2 < 100 -> 5 > 4 -> takes it, 7 */
	assert_ptr_equal(swap_token_holder(), b);
	assert_int_equal(b->token_priority, 7);
	/* fork: the child starts with no priority history but the parent's faultstamp */
	struct mm_struct *c = dup_mm(b);
	assert_int_equal(c->token_priority, 0);
	assert_int_equal(c->last_interval, 0);
	assert_int_equal(c->faultstamp, b->faultstamp);
	/* reclaim at priority 0 takes the token away */
	assert_true(policy_hooked(priority_zero));
	policy_call_all(priority_zero);
	assert_null(swap_token_holder());
	exit_mmap(a);
	exit_mmap(b);
	exit_mmap(c);
	shutdown();
}

static void aging_halves_a_sleeping_holder(void **state)
{
	(void)state;
	boot(SWAP_TOKEN_PRIORITY);
	MM->sysctl.swap_token_aging = 1;
	struct mm_struct *a = mm_alloc(), *b = mm_alloc();
	grab_swap_token_before_swapin(a);
	a->token_priority = 40;
	for (int i = 0; i < 255; i++)
		grab_swap_token_before_swapin(b);
	assert_int_equal(a->token_priority, 40); /* 255 faults since: not yet */
	grab_swap_token_before_swapin(b);
	assert_int_equal(a->token_priority, 20);
	exit_mmap(a);
	exit_mmap(b);
	MM->sysctl.swap_token_aging = 0;
	shutdown();
}

static void original_handoff_rules(void **state)
{
	(void)state;
	boot(SWAP_TOKEN_ORIGINAL);
	struct mm_struct *a = mm_alloc(), *b = mm_alloc();
	sim_clock = 10 * NSEC_PER_SEC;
	grab_swap_token_swapin_major(a);
	assert_ptr_equal(swap_token_holder(), a);
	/* the holder keeps paging in; within 2 s nobody may even ask */
	grab_swap_token_swapin_major(a);
	assert_true(a->recent_pagein);
	sim_clock += NSEC_PER_SEC;
	grab_swap_token_swapin_major(b);
	assert_ptr_equal(swap_token_holder(), a);
	/* after 2 s: a paged in recently, not timed out -> keeps it, but its flag is cleared */
	sim_clock += 2 * NSEC_PER_SEC;
	grab_swap_token_swapin_major(b);
	assert_ptr_equal(swap_token_holder(), a);
	assert_false(a->recent_pagein);
	/* 2 s later: no page-in since -> ENOUGH_RSS, b takes it; a is eligible again at once */
	sim_clock += 3 * NSEC_PER_SEC;
	grab_swap_token_swapin_major(b);
	assert_ptr_equal(swap_token_holder(), b);
	assert_int_equal(a->swap_token_time, sim_clock);
	/* b keeps paging in past its 300 s timeout: TIMED_OUT, and b is barred for 300 s */
	for (int i = 0; i < 160; i++) {
		sim_clock += 2 * NSEC_PER_SEC + 1;
		grab_swap_token_swapin_major(b);
	}
	sim_clock += 3 * NSEC_PER_SEC;
	grab_swap_token_swapin_major(a);
	assert_ptr_equal(swap_token_holder(), a);
	assert_int_equal(b->swap_token_time, sim_clock + 300 * NSEC_PER_SEC);
	sim_clock = 0;
	exit_mmap(a);
	exit_mmap(b);
	shutdown();
}

/* 2.6.9 copy_mm copies the mm_struct: a child forked by a task barred after its timeout is
 * barred until the same time. */
static void fork_copies_the_bar(void **state)
{
	(void)state;
	boot(SWAP_TOKEN_ORIGINAL);
	struct mm_struct *a = mm_alloc(), *b = mm_alloc();
	sim_clock = 10 * NSEC_PER_SEC;
	grab_swap_token_swapin_major(a);
	/* a pages in past its 300 s timeout; b then takes the token and a is barred */
	for (int i = 0; i < 160; i++) {
		sim_clock += 2 * NSEC_PER_SEC + 1;
		grab_swap_token_swapin_major(a);
		grab_swap_token_swapin_major(a);
	}
	grab_swap_token_swapin_major(b);
	assert_ptr_equal(swap_token_holder(), b);
	sim_time_t bar = a->swap_token_time;
	assert_true(bar > sim_clock);
	struct mm_struct *c = dup_mm(a);
	assert_int_equal(c->swap_token_time, bar);
	/* b stops paging in: at the next check c would take it, but it is barred */
	sim_clock += 3 * NSEC_PER_SEC;
	grab_swap_token_swapin_major(c);
	assert_ptr_equal(swap_token_holder(), b);
	sim_clock = 0;
	exit_mmap(a);
	exit_mmap(b);
	exit_mmap(c);
	shutdown();
}

static void refractory_skips_a_turn(void **state)
{
	(void)state;
	boot(SWAP_TOKEN_PRIORITY);
	MM->sysctl.swap_token_refractory = 1;
	struct mm_struct *a = mm_alloc();
	grab_swap_token_before_swapin(a);
	assert_ptr_equal(swap_token_holder(), a);
	policy_call_all(priority_zero);
	grab_swap_token_before_swapin(a); /* just held it: this turn only clears the bit */
	assert_null(swap_token_holder());
	grab_swap_token_before_swapin(a);
	assert_ptr_equal(swap_token_holder(), a);
	exit_mmap(a);
	MM->sysctl.swap_token_refractory = 0;
	shutdown();
}

static void exec_and_exit_inheritance(void **state)
{
	(void)state;
	boot(SWAP_TOKEN_PRIORITY);
	MM->sysctl.swap_token_exec_inherit = 1;
	struct mm_struct *parent = mm_alloc(), *child = mm_alloc(), *img = mm_alloc();
	grab_swap_token_before_swapin(child);
	swap_token_exec(child, img); /* the exec'd image keeps the token */
	assert_ptr_equal(swap_token_holder(), img);
	put_swap_token(img, parent); /* exit: back to the parent */
	assert_ptr_equal(swap_token_holder(), parent);
	MM->sysctl.swap_token_exec_inherit = 0;
	put_swap_token(parent, NULL);
	assert_null(swap_token_holder());
	exit_mmap(parent);
	exit_mmap(child);
	exit_mmap(img);
	shutdown();
}

/* The holder's young-less mapped page still counts as referenced for another task's
 * reclaim, when the variant says so. */
static int referenced_for_other(int variant, bool holder_in_fault)
{
	boot(variant);
	struct address_space *f = file_create("f", 4, 4, false);
	struct mm_struct *holder = mm_alloc();
	struct vm_area_struct *v = find_vma(holder, do_mmap(holder, 4, VM_READ, f, 0));
	pfn_t pfn = test_file_page(f, 0);
	test_map(v, 0, pfn, false);
	sim_clock = NSEC_PER_SEC; /* the 2004 check is "jiffies after swap_token_check" */
	if (variant == SWAP_TOKEN_PRIORITY)
		grab_swap_token_before_swapin(holder);
	else
		grab_swap_token_swapin_major(holder);
	sim_clock = 0;
	holder->in_fault = holder_in_fault;
	static struct task_struct reclaimer; /* kswapd-like: no mm of its own */
	set_current(&reclaimer);
	int r = page_referenced(pfn, false, NULL);
	set_current(NULL);
	holder->in_fault = false;
	exit_mmap(holder);
	shutdown();
	return r;
}

static void token_counts_as_referenced(void **state)
{
	(void)state;
	assert_int_equal(referenced_for_other(SWAP_TOKEN_OFF, true), 0);
	assert_int_equal(referenced_for_other(SWAP_TOKEN_ORIGINAL, false), 1);
	assert_int_equal(referenced_for_other(SWAP_TOKEN_FAULT, false), 0);
	assert_int_equal(referenced_for_other(SWAP_TOKEN_FAULT, true), 1);
	assert_int_equal(referenced_for_other(SWAP_TOKEN_PRIORITY, false), 0);
	assert_int_equal(referenced_for_other(SWAP_TOKEN_PRIORITY, true), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(priority_scheme),
	    cmocka_unit_test(aging_halves_a_sleeping_holder),
	    cmocka_unit_test(original_handoff_rules),
	    cmocka_unit_test(fork_copies_the_bar),
	    cmocka_unit_test(refractory_skips_a_turn),
	    cmocka_unit_test(exec_and_exit_inheritance),
	    cmocka_unit_test(token_counts_as_referenced),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
