/* ARMv5's MMU and caches. The emulated young and dirty bits (hw pte_bits_emulated,
 * cpu_arm926_set_pte_ext): on
 * the ARM926 board an access to a page whose young bit page_referenced cleared faults once
 * (pgfault, a minor fault, pte_fault_ns), as does the first write to a clean writable PTE
 * (a shared anonymous page read first); on x86-64, whose MMU sets both bits, neither does.
 * The same through a touch set, whose fast path must refuse an old PTE. The virtually indexed
 * cache: try_to_unmap_one flushes a page of the mm the CPU runs in (flush_cache_page_ns),
 * not one of another mm, and not on x86-64. */
#include "util/testutil.h"

#include "kernel/process.h"
#include "mm/shmem.h"

#include <string.h>

static void user_access(struct mm_struct *mm, uint64_t vpn, int kind)
{
	if (!touch_page_fast(mm, vpn, kind))
		assert_int_equal(touch_page_slow(mm, vpn, kind), 0);
}

/* faults and system time of one access */
static void one(struct mm_struct *mm, uint64_t vpn, int kind, long *faults, sim_time_t *stime)
{
	struct task_struct *t = test_charged_current();
	long before = (long)vm_events[PGFAULT];
	user_access(mm, vpn, kind);
	*faults = (long)vm_events[PGFAULT] - before;
	*stime = t->task.stime;
	set_current(NULL);
}

static void clear_young(struct mm_struct *mm, uint64_t vpn)
{
	struct vm_area_struct *v = find_vma(mm, vpn);
	uint32_t pte = v->pte[vpn - v->start];
	unsigned long flags = 0;
	assert_int_equal(page_referenced(pte & PTE_PFN_MASK, false, &flags), 1);
	assert_false(v->pte[vpn - v->start] & PTE_YOUNG);
}

static void old_pte(const char *profile, long *faults, sim_time_t *stime)
{
	test_machine_boot(profile, 64ULL << 20, 0, 0);
	struct mm_struct *mm = mm_alloc();
	uint64_t s = do_mmap(mm, 4, VM_READ | VM_WRITE, NULL, 0);
	user_access(mm, s, TOUCH_WRITE); /* the anonymous fault */
	long f;
	sim_time_t ns;
	one(mm, s, TOUCH_READ, &f, &ns);
	assert_int_equal(f, 0); /* young and present: no fault anywhere */
	clear_young(mm, s);
	one(mm, s, TOUCH_READ, faults, stime);
	assert_true(find_vma(mm, s)->pte[0] & PTE_YOUNG);
	one(mm, s, TOUCH_READ, &f, &ns);
	assert_int_equal(f, 0); /* marked young again */
	assert_int_equal(mm_check_invariants(), 0);
	exit_mmap(mm);
	test_machine_shutdown();
}

static void an_old_pte_faults_only_where_young_is_emulated(void **state)
{
	(void)state;
	long faults;
	sim_time_t stime;
	old_pte("arm926-2008", &faults, &stime);
	assert_int_equal(faults, 1);
	const struct hw_profile *arm = hw_profile_find("arm926-2008");
	assert_int_equal(stime, arm->pte_fault_ns);
	assert_true(arm->pte_fault_ns < arm->anon_fault_ns);
	old_pte("x86_64-2008", &faults, &stime);
	assert_int_equal(faults, 0);
	assert_int_equal(stime, 0);
}

/* A shared anonymous page read in is mapped writable and clean: the first write faults on
 * the ARM926 (the hardware PTE is read-only until dirty), not on x86-64. */
static long clean_write(const char *profile)
{
	test_machine_boot(profile, 64ULL << 20, 0, 0);
	struct mm_struct *mm = mm_alloc();
	uint64_t s = do_mmap(mm, 1, VM_READ | VM_WRITE | VM_SHARED, shmem_zero_setup(1, 0), 0);
	user_access(mm, s, TOUCH_READ);
	uint32_t pte = find_vma(mm, s)->pte[0];
	assert_true((pte & PTE_PRESENT) && !(pte & PTE_RDONLY) && !(pte & PTE_DIRTY));
	long faults;
	sim_time_t ns;
	one(mm, s, TOUCH_WRITE, &faults, &ns);
	assert_true(find_vma(mm, s)->pte[0] & PTE_DIRTY);
	exit_mmap(mm);
	test_machine_shutdown();
	return faults;
}

static void a_clean_write_faults_only_where_dirty_is_emulated(void **state)
{
	(void)state;
	assert_int_equal(clean_write("arm926-2008"), 1);
	assert_int_equal(clean_write("x86_64-2008"), 0);
}

/* A touch set over an old page: its fast path refuses, and touching one by one faults. */
static void a_touch_set_refuses_an_old_pte(void **state)
{
	(void)state;
	test_machine_boot("arm926-2008", 64ULL << 20, 0, 0);
	struct mm_struct *mm = mm_alloc();
	uint64_t s = do_mmap(mm, 4, VM_READ | VM_WRITE, NULL, 0);
	user_access(mm, s, TOUCH_WRITE);
	struct touch_set set = {.n = 1, .kind = {TOUCH_READ}, .vpn = {s}};
	touch_set_find(mm, &set);
	test_charged_current(); /* touch_set_fast runs as a task, outside the kernel */
	assert_true(touch_set_fast(mm, &set));
	clear_young(mm, s);
	assert_false(touch_set_fast(mm, &set));
	set_current(NULL);
	exit_mmap(mm);
	test_machine_shutdown();
}

static sim_time_t unmap_own, unmap_other;

/* An anonymous page of mm at its first address, old (unmappable) and in the swap cache. */
static pfn_t swappable(struct mm_struct *mm)
{
	uint64_t s = do_mmap(mm, 1, VM_READ | VM_WRITE, NULL, 0);
	struct vm_area_struct *v = find_vma(mm, s);
	pfn_t pfn = test_anon_page(v, 0, false, true);
	assert_true(add_to_swap(pfn));
	return pfn;
}

static sim_time_t unmap_charge(pfn_t pfn)
{
	sim_time_t before = current->task.stime;
	assert_int_equal(try_to_unmap(pfn), SWAP_SUCCESS);
	return current->task.stime - before;
}

static void unmapper(void *arg)
{
	(void)arg;
	unmap_own = unmap_charge(swappable(current->mm));
	struct mm_struct *other = mm_alloc();
	unmap_other = unmap_charge(swappable(other));
	exit_mmap(other);
	sys_exit(0);
}

static void unmap_flushes_the_active_mm_on_a_vivt_cache(void **state)
{
	(void)state;
	const char *profiles[] = {"arm926-2008", "x86_64-2008"};
	for (int i = 0; i < 2; i++) {
		test_machine_boot(profiles[i], 64ULL << 20, 64ULL << 20, 0);
		kernel_reset();
		MM->task_ops = &kernel_task_ops;
		assert_non_null(process_spawn("unmapper", unmapper, NULL));
		sched_run(10ULL * NSEC_PER_SEC, NULL);
		const struct hw_profile *hw = hw_profile_find(profiles[i]);
		assert_int_equal(unmap_other, hw->rmap_pte_ns);
		assert_int_equal(unmap_own, hw->rmap_pte_ns + hw->flush_cache_page_ns);
		assert_true(i == 0 ? hw->flush_cache_page_ns > 0 : hw->flush_cache_page_ns == 0);
		kernel_shutdown();
		test_machine_shutdown();
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(an_old_pte_faults_only_where_young_is_emulated),
	    cmocka_unit_test(a_clean_write_faults_only_where_dirty_is_emulated),
	    cmocka_unit_test(a_touch_set_refuses_an_old_pte),
	    cmocka_unit_test(unmap_flushes_the_active_mm_on_a_vivt_cache),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
