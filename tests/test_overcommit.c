/* vm.overcommit_memory (src/mm/overcommit.c): 2.6.28's __vm_enough_memory guess on a
 * hand-built board whose free pages, page cache and reserve the test reads, so the largest
 * mapping admitted is computed here from the rule's own terms:
 *   first = (cache + free swap + reclaimable slab) less 1/32 (not root),
 *   n = (free - totalreserve_pages) less 1/32, admitted iff first + n > pages;
 * 2.6.8 (kernel.overcommit_totalreserve = 0) leaves no reserve out; vm.overcommit_memory = 1
 * admits anything; fork checks each private writable mapping it copies (dup_mmap).
 * vm.overcommit_memory = 2 admits while what is committed stays below
 *   allowed = RAM x overcommit_ratio / 100, less 1/32 (not root), + swap, less total_vm / 32,
 * and every mode keeps the count (Committed_AS) of what the mappings committed. */
#include "util/testutil.h"

#include "kernel/process.h"
#include "mm/shmem.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static uint64_t limit_seen, admitted_at, refused_at;
static int refused_errno, fork_errno;
static bool forked;

/* The largest mapping the rule admits now, from the state of the board (one zone). */
static uint64_t largest_admitted(void)
{
	long cache = global_page_state(NR_FILE_PAGES) + global_page_state(NR_SLAB_RECLAIMABLE);
	uint64_t first = (uint64_t)cache + MM->swap.nr_free;
	first -= first / 32;
	uint64_t reserve = 0;
	for (int z = 0; z < MM->nr_zones; z++)
		reserve += MM->zones[z].present_pages ? MM->zones[z].pages_high : 0;
	if (!MM->sysctl.overcommit_totalreserve)
		reserve = 0;
	uint64_t n = (uint64_t)global_page_state(NR_FREE_PAGES) - reserve;
	n -= n / 32;
	return first + n - 1;
}

static void probe(void *arg)
{
	(void)arg;
	limit_seen = largest_admitted();
	admitted_at = sys_mmap_anon_try(limit_seen, VM_READ | VM_WRITE);
	if (admitted_at)
		sys_munmap(admitted_at);
	sys_errno = 0;
	refused_at = sys_mmap_anon_try(limit_seen + 1, VM_READ | VM_WRITE);
	refused_errno = sys_errno;
	sys_exit(0);
}

static void boot(const char *version, uint64_t swap)
{
	test_machine_boot_kernel("arm926-2008", 32ULL << 20, swap, version);
	kernel_reset();
	mm_start_kthreads();
	MM->task_ops = &kernel_task_ops;
	limit_seen = admitted_at = refused_at = 0;
	refused_errno = fork_errno = 0;
	forked = false;
}

/* One program on the board, run until it ends (10 s of simulated time at most). */
static void run_one(const char *comm, void (*fn)(void *), void *arg)
{
	assert_non_null(process_spawn(comm, fn, arg));
	sched_run(10ULL * NSEC_PER_SEC, NULL);
}

static void done(void)
{
	assert_int_equal(MM->rstats.oom_kills, 0);
	assert_int_equal(mm_check_invariants(), 0);
	kernel_shutdown();
	test_machine_shutdown();
}

static void guess_admits_up_to_free_less_the_reserve(void **state)
{
	(void)state;
	boot("2.6.28", 0);
	int populated = 0;
	for (int z = 0; z < MM->nr_zones; z++)
		populated += MM->zones[z].present_pages > 0;
	assert_int_equal(populated, 1); /* so the reserve is that zone's pages_high */
	run_one("probe", probe, NULL);
	/* most of the 8,192 frames, less the kernel, the reserve and 1/32 */
	assert_true(limit_seen > 6000 && limit_seen < 8192);
	assert_true(admitted_at != 0);
	assert_int_equal(refused_at, 0);
	assert_int_equal(refused_errno, ENOMEM);
	done();
}

/* 2.6.8's cap_vm_enough_memory counts every free page: its limit is the reserve (less
 * 1/32) above 2.6.28's on the same board. */
static void the_268_guess_counts_the_reserve_as_free(void **state)
{
	(void)state;
	boot("2.6.28", 0);
	run_one("probe", probe, NULL);
	uint64_t limit_2628 = limit_seen;
	unsigned long high = 0;
	for (int z = 0; z < MM->nr_zones; z++)
		high += MM->zones[z].pages_high;
	done();
	boot("2.6.8", 0);
	assert_int_equal(MM->sysctl.overcommit_totalreserve, 0);
	run_one("probe", probe, NULL);
	assert_true(admitted_at != 0 && refused_at == 0);
	/* the boards differ only in their watermarks; 2.6.8's limit is the higher */
	assert_true(limit_seen > limit_2628);
	assert_true(limit_seen - limit_2628 >= high / 2);
	done();
}

/* Free swap counts in the first sum: a mapping as large as RAM is admitted with 64 MiB of
 * swap and without looking at the free pages. */
static void free_swap_counts(void **state)
{
	(void)state;
	boot("2.6.28", 64ULL << 20);
	run_one("probe", probe, NULL);
	assert_true(limit_seen > 8192 + 14000); /* 16,383 slots less 1/32, and RAM */
	assert_true(admitted_at != 0 && refused_at == 0);
	done();
}

static void always_admits(void *arg)
{
	(void)arg;
	admitted_at = sys_mmap_anon_try(4 * MM->nr_frames, VM_READ | VM_WRITE);
	refused_at = sys_mmap_anon_try(limit_seen + 1, VM_READ); /* read-only: never checked */
	sys_exit(0);
}

static void overcommit_always_and_read_only_mappings_pass(void **state)
{
	(void)state;
	boot("2.6.28", 0);
	MM->sysctl.overcommit_memory = OVERCOMMIT_ALWAYS;
	limit_seen = 8 * MM->nr_frames;
	run_one("always", always_admits, NULL);
	assert_true(admitted_at != 0);
	assert_true(refused_at != 0);
	done();
}

static void child(void *arg)
{
	(void)arg;
}

/* A heap admitted when mapped, then half of it written: dup_mmap's check of the copy sees
 * the free pages the writes took, and fork fails with ENOMEM before any child exists. */
static void fork_checks_the_copy(void *arg)
{
	(void)arg;
	uint64_t n = largest_admitted();
	uint64_t heap = sys_mmap_anon_try(n, VM_READ | VM_WRITE);
	if (!heap)
		sys_exit(2);
	for (uint64_t i = 0; i < n / 2; i++)
		sys_touch(heap + i, TOUCH_WRITE);
	sys_errno = 0;
	forked = sys_fork("child", child, NULL) != NULL;
	fork_errno = sys_errno;
	sys_exit(0);
}

static void fork_refused_when_the_copy_does_not_fit(void **state)
{
	(void)state;
	boot("2.6.28", 0);
	run_one("parent", fork_checks_the_copy, NULL);
	assert_false(forked);
	assert_int_equal(fork_errno, ENOMEM);
	done();
	boot("2.6.28", 0);
	MM->sysctl.overcommit_memory = OVERCOMMIT_ALWAYS;
	run_one("parent", fork_checks_the_copy, NULL);
	assert_true(forked);
	done();
}

/* ---- vm.overcommit_memory = 2 and the committed count ---- */

static long committed_before, committed_mapped, committed_after, committed_in_child;

static uint64_t commit_room(void)
{
	unsigned long allowed = MM->totalram_pages * 50 / 100;
	allowed -= allowed / 32;
	allowed += MM->swap.nr_slots;
	allowed -= current->mm->total_vm / 32;
	return (uint64_t)((long)allowed - MM->vm_committed_space);
}

static void never_probe(void *arg)
{
	(void)arg;
	committed_before = MM->vm_committed_space;
	limit_seen = commit_room() - 1; /* admitted while committed + pages < allowed */
	admitted_at = sys_mmap_anon_try(limit_seen, VM_READ | VM_WRITE);
	committed_mapped = MM->vm_committed_space;
	if (admitted_at)
		sys_munmap(admitted_at);
	committed_after = MM->vm_committed_space;
	sys_errno = 0;
	refused_at = sys_mmap_anon_try(limit_seen + 1, VM_READ | VM_WRITE);
	refused_errno = sys_errno;
	sys_exit(0);
}

static void never_admits_up_to_the_commit_limit(void **state)
{
	(void)state;
	boot("2.6.28", 16ULL << 20);
	MM->sysctl.overcommit_memory = OVERCOMMIT_NEVER;
	run_one("probe", never_probe, NULL);
	/* half of RAM less 1/32, and the swap: about 4,000 + 4,095 pages */
	assert_true(limit_seen > 6000 && limit_seen < 8192 + 4096);
	assert_true(admitted_at != 0);
	assert_int_equal(committed_mapped - committed_before, (long)limit_seen);
	assert_int_equal(committed_after, committed_before); /* munmap gives it back */
	assert_int_equal(refused_at, 0);
	assert_int_equal(refused_errno, ENOMEM);
	assert_int_equal(MM->vm_committed_space, committed_before); /* a refusal commits nothing */
	done();
	/* vm.overcommit_ratio 100 lets all of RAM be committed: both mappings pass */
	boot("2.6.28", 16ULL << 20);
	MM->sysctl.overcommit_memory = OVERCOMMIT_NEVER;
	MM->sysctl.overcommit_ratio = 100;
	run_one("probe", never_probe, NULL);
	assert_true(admitted_at != 0 && refused_at != 0);
	done();
}

static void child_sees_committed(void *arg)
{
	(void)arg;
	committed_in_child = MM->vm_committed_space;
}

static void forks_in_mode_2(void *arg)
{
	uint64_t share = *(uint64_t *)arg; /* thirds of the room */
	committed_before = MM->vm_committed_space;
	uint64_t n = commit_room() * share / 3;
	uint64_t heap = sys_mmap_anon_try(n, VM_READ | VM_WRITE);
	if (!heap)
		sys_exit(2);
	committed_mapped = MM->vm_committed_space;
	sys_errno = 0;
	struct process *c = sys_fork("child", child_sees_committed, NULL);
	forked = c != NULL;
	fork_errno = sys_errno;
	if (c)
		sys_wait(NULL);
	committed_after = MM->vm_committed_space;
	limit_seen = n;
	sys_exit(0);
}

/* dup_mmap commits the child's copy of each VM_ACCOUNT mapping: with a heap of a third of
 * the room the child runs and the count holds both copies until it exits; with two thirds
 * the copy does not fit and fork fails with ENOMEM, committing nothing. */
static void fork_commits_the_copy_in_mode_2(void **state)
{
	(void)state;
	uint64_t third = 1, two_thirds = 2;
	boot("2.6.28", 16ULL << 20);
	MM->sysctl.overcommit_memory = OVERCOMMIT_NEVER;
	committed_in_child = -1;
	run_one("parent", forks_in_mode_2, &third);
	assert_true(forked);
	assert_int_equal(committed_mapped - committed_before, (long)limit_seen);
	assert_int_equal(committed_in_child - committed_mapped, (long)limit_seen);
	assert_int_equal(committed_after, committed_mapped);
	done();
	boot("2.6.28", 16ULL << 20);
	MM->sysctl.overcommit_memory = OVERCOMMIT_NEVER;
	committed_in_child = -1;
	run_one("parent", forks_in_mode_2, &two_thirds);
	assert_false(forked);
	assert_int_equal(fork_errno, ENOMEM);
	assert_int_equal(committed_in_child, -1);
	assert_int_equal(committed_after, committed_mapped);
	done();
}

/* mmap_region: MAP_NORESERVE is committed only in mode 2; a shared anonymous mapping is
 * committed with its object whether writable or not, and given back when its last mapping
 * goes. */
static long delta_noreserve, delta_shared_ro, delta_shared_gone;

static void commits_by_kind(void *arg)
{
	(void)arg;
	long c0 = MM->vm_committed_space;
	uint64_t a = sys_mmap_anon_try(100, VM_READ | VM_WRITE | VM_NORESERVE);
	delta_noreserve = MM->vm_committed_space - c0;
	sys_munmap(a);
	c0 = MM->vm_committed_space;
	uint64_t b = sys_mmap_shared_anon(50, VM_READ);
	delta_shared_ro = MM->vm_committed_space - c0;
	sys_munmap(b);
	delta_shared_gone = MM->vm_committed_space - c0;
	sys_exit(0);
}

static void what_each_mapping_commits(void **state)
{
	(void)state;
	boot("2.6.28", 0);
	run_one("kinds", commits_by_kind, NULL);
	assert_int_equal(delta_noreserve, 0);
	assert_int_equal(delta_shared_ro, 50);
	assert_int_equal(delta_shared_gone, 0);
	done();
	boot("2.6.28", 0);
	MM->sysctl.overcommit_memory = OVERCOMMIT_NEVER;
	run_one("kinds", commits_by_kind, NULL);
	assert_int_equal(delta_noreserve, 100);
	assert_int_equal(delta_shared_ro, 50);
	assert_int_equal(delta_shared_gone, 0);
	done();
}

/* shmem_acct_block: an object made without VM_ACCOUNT (a MAP_NORESERVE shared anonymous
 * mapping in modes 0 and 1, a tmpfs file, a GEM object) commits each page as shmem_getpage
 * allocates it, by a write or a read fault, and gives them back when it goes. */
static long delta_mapped, delta_touched, delta_unmapped;

static void touches_noreserve_shared(void *arg)
{
	uint64_t n = *(uint64_t *)arg;
	long c0 = MM->vm_committed_space;
	uint64_t a = sys_mmap_shared_anon(64, VM_READ | VM_WRITE | VM_NORESERVE);
	delta_mapped = MM->vm_committed_space - c0;
	for (uint64_t i = 0; i < n; i++)
		sys_touch(a + i, i % 2 ? TOUCH_READ : TOUCH_WRITE);
	sys_touch(a, TOUCH_READ); /* a page already there commits nothing more */
	delta_touched = MM->vm_committed_space - c0;
	sys_munmap(a);
	delta_unmapped = MM->vm_committed_space - c0;
	sys_exit(0);
}

static void unreserved_shmem_commits_page_by_page(void **state)
{
	(void)state;
	uint64_t n = 40;
	boot("2.6.28", 16ULL << 20);
	run_one("shm", touches_noreserve_shared, &n);
	assert_int_equal(delta_mapped, 0);
	assert_int_equal(delta_touched, 40);
	assert_int_equal(delta_unmapped, 0);
	done();
	/* mode 2 commits MAP_NORESERVE with the object: the pages add nothing */
	boot("2.6.28", 16ULL << 20);
	MM->sysctl.overcommit_memory = OVERCOMMIT_NEVER;
	run_one("shm", touches_noreserve_shared, &n);
	assert_int_equal(delta_mapped, 64);
	assert_int_equal(delta_touched, 64);
	assert_int_equal(delta_unmapped, 0);
	done();
}

/* In mode 2 the page that would pass the commit limit is refused (-ENOSPC, -3): with the
 * room filled by a mapping to about 20 pages, an unaccounted object of 40 gets one page
 * fewer than the room. */
static int block_refused;
static uint64_t blocks_got;

static void fills_the_room_page_by_page(void *arg)
{
	(void)arg;
	/* the mapping's own total_vm / 32 comes off the room too */
	uint64_t room = commit_room();
	uint64_t heap = sys_mmap_anon_try(room - 20 - room / 33, VM_READ | VM_WRITE);
	if (!heap)
		sys_exit(2);
	limit_seen = commit_room();
	committed_before = MM->vm_committed_space;
	struct address_space *f = shmem_file_setup("tmpfs-file", 40, 0);
	for (blocks_got = 0; blocks_got < 40; blocks_got++) {
		pfn_t pfn;
		block_refused = shmem_getpage(f, blocks_got, &pfn, NULL);
		if (block_refused)
			break;
	}
	committed_after = MM->vm_committed_space;
	sys_exit(0);
}

static void the_commit_limit_refuses_a_block(void **state)
{
	(void)state;
	boot("2.6.28", 16ULL << 20);
	MM->sysctl.overcommit_memory = OVERCOMMIT_NEVER;
	run_one("tmpfs", fills_the_room_page_by_page, NULL);
	assert_true(limit_seen >= 10 && limit_seen <= 30);
	assert_int_equal(block_refused, -3);
	assert_int_equal(blocks_got, limit_seen - 1);
	assert_int_equal(committed_after - committed_before, (long)blocks_got);
	done();
}

/* A program refused a shared anonymous mapping (shmem_acct_size) ends with status 1, and
 * the run's counter names it. */
static int shared_code;

static void shared_too_large(void *arg)
{
	(void)arg;
	sys_mmap_shared_anon(2 * MM->nr_frames, VM_READ | VM_WRITE);
	sys_exit(0);
}

static void waits_for_shared(void *arg)
{
	(void)arg;
	sys_fork("shm", shared_too_large, NULL);
	sys_wait(&shared_code);
	sys_exit(0);
}

static void shared_anonymous_mapping_ends_the_program(void **state)
{
	(void)state;
	boot("2.6.28", 0);
	shared_code = -1;
	run_one("parent", waits_for_shared, NULL);
	assert_int_equal(shared_code, 1);
	assert_int_equal(nr_mmap_enomem, 1);
	assert_string_equal(mmap_enomem_comm, "shm");
	done();
}

/* The real v2.6.25-rc1 on the emulated ARM926 (docs/armboot-measured.md, kcost): with 16 MiB
 * of swap it refused kcost's 40 MiB anonymous mapping on 24 MiB of RAM and took it on 32 and
 * 48 MiB. The same board and mapping here. */
static bool kcost_mapping_admitted(const char *ram)
{
	char conf[512];
	snprintf(conf, sizeof(conf),
		 "machine.profile = arm926-2008\n"
		 "machine.ram = %s\n"
		 "machine.swap = 16M\n"
		 "kernel.version = 2.6.25-rc1\n"
		 "workload = usemem\n"
		 "usemem.size = 40M\n"
		 "run.time_limit = 50ms\n",
		 ram);
	struct scenario_config cfg;
	struct run_result r;
	test_scenario(&cfg, conf);
	test_run(&cfg, 1, &r);
	bool refused = r.failed && strstr(r.wl.text, "mmap failed: Cannot allocate memory");
	run_result_free(&r);
	return !refused;
}

static void as_the_real_kernel_on_the_kcost_board(void **state)
{
	(void)state;
	assert_false(kcost_mapping_admitted("24M"));
	assert_true(kcost_mapping_admitted("32M"));
	assert_true(kcost_mapping_admitted("48M"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(guess_admits_up_to_free_less_the_reserve),
	    cmocka_unit_test(the_268_guess_counts_the_reserve_as_free),
	    cmocka_unit_test(free_swap_counts),
	    cmocka_unit_test(overcommit_always_and_read_only_mappings_pass),
	    cmocka_unit_test(fork_refused_when_the_copy_does_not_fit),
	    cmocka_unit_test(shared_anonymous_mapping_ends_the_program),
	    cmocka_unit_test(as_the_real_kernel_on_the_kcost_board),
	    cmocka_unit_test(never_admits_up_to_the_commit_limit),
	    cmocka_unit_test(fork_commits_the_copy_in_mode_2),
	    cmocka_unit_test(what_each_mapping_commits),
	    cmocka_unit_test(unreserved_shmem_commits_page_by_page),
	    cmocka_unit_test(the_commit_limit_refuses_a_block),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
