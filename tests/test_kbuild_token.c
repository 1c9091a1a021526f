/* Andrew Morton's exec/exit inheritance (kernel-reclaim.md §4.2) through the process API, the
 * way make and its compilers use it: the parent holds the token, forks a child that execs;
 * the exec'd program holds the token, and at its exit the token goes back to the parent. */
#include "util/testutil.h"

#include "kernel/process.h"
#include "mm/policy/swap_token.h"

static struct address_space *prog;
static uint64_t text_at;
static bool child_had_token, parent_had_it_first, parent_has_it_back;

static void exec_body(void *arg)
{
	(void)arg;
	child_had_token = swap_token_holder() == current->mm;
}

static void child(void *arg)
{
	(void)arg;
	sys_exec("prog", prog, &text_at, exec_body, NULL);
}

static void parent(void *arg)
{
	(void)arg;
	sys_sleep(NSEC_PER_MSEC); /* the first check is due after time 0 */
	grab_swap_token_swapin_major(current->mm);
	parent_had_it_first = swap_token_holder() == current->mm;
	sys_fork("child", child, NULL);
	int code;
	sys_wait(&code);
	parent_has_it_back = swap_token_holder() == current->mm;
	sys_exit(0);
}

static void run(int inherit)
{
	test_machine_boot("p3-2004", 32ULL << 20, 0, 0);
	MM->sysctl.swap_token = SWAP_TOKEN_ORIGINAL;
	MM->sysctl.swap_token_exec_inherit = inherit;
	mm_sysctl_apply();
	mm_start_kthreads();
	prog = file_create("prog", 8, 8, true);
	child_had_token = parent_had_it_first = parent_has_it_back = false;
	assert_non_null(process_spawn("parent", parent, NULL));
	sched_run(10ULL * NSEC_PER_SEC, NULL);
	kernel_shutdown();
	MM->sysctl.swap_token = SWAP_TOKEN_OFF;
	mm_sysctl_apply();
	test_machine_shutdown();
}

static void token_follows_exec_and_returns(void **state)
{
	(void)state;
	run(1);
	assert_true(parent_had_it_first);
	assert_true(child_had_token);
	assert_true(parent_has_it_back);
}

static void without_inheritance_it_stays(void **state)
{
	(void)state;
	run(0);
	assert_true(parent_had_it_first);
	assert_false(child_had_token);
	assert_true(parent_has_it_back);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(token_follows_exec_and_returns),
	    cmocka_unit_test(without_inheritance_it_stays),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
