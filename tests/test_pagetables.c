/* Page-table pages as the kernel has them (__pte_alloc, free_pgtables) on address spaces
 * built by hand: one page per aligned span of PTEs, shared by every VMA reaching into the
 * span, kept while a neighbour still reaches it; and the profile's layout (exec's text, brk,
 * the mmap area and its direction, the stack), which decides who shares. */
#include "util/testutil.h"
#include <string.h>

static void fault(struct mm_struct *mm, uint64_t vpn)
{
	struct vm_area_struct *v = find_vma(mm, vpn);
	assert_non_null(v);
	assert_int_equal(
	    handle_mm_fault(mm, v, vpn, (v->flags & VM_WRITE) ? TOUCH_WRITE : TOUCH_READ), 0);
}

/* hackbench's process on the ARM board: text, data and heap low, ld.so and libc from
 * TASK_UNMAPPED_BASE, the stack under TASK_SIZE: three PTE pages (of 512 PTEs, 2 MiB),
 * where one per mapping would be six */
static void arm_process_needs_three(void **state)
{
	(void)state;
	test_machine_boot("arm926-2008", 32ULL << 20, 0, 0);
	assert_int_equal(MM->pte_shift, 9);
	struct mm_struct *mm = mm_alloc();
	long before = global_page_state(NR_PAGETABLE); /* the pgd */
	uint64_t text = do_mmap_area(mm, MAP_AREA_TEXT, 2, VM_READ | VM_EXEC, NULL, 0);
	uint64_t data = do_mmap_area(mm, MAP_AREA_BRK, 3, VM_READ | VM_WRITE, NULL, 0);
	uint64_t heap = do_mmap_area(mm, MAP_AREA_BRK, 3, VM_READ | VM_WRITE, NULL, 0);
	uint64_t ldso = do_mmap_area(mm, MAP_AREA_MMAP, 2, VM_READ | VM_WRITE, NULL, 0);
	uint64_t libc = do_mmap_area(mm, MAP_AREA_MMAP, 300, VM_READ | VM_WRITE, NULL, 0);
	uint64_t stack = do_mmap_area(mm, MAP_AREA_STACK, 3, VM_READ | VM_WRITE, NULL, 0);
	assert_int_equal(text, 0x8000 >> 12);
	assert_int_equal(data, text + 2);
	assert_int_equal(heap, data + 3);
	assert_int_equal(ldso, 0x40000000 >> 12);
	assert_int_equal(libc, ldso + 2); /* bottom-up */
	assert_int_equal(stack + 3, 0xbf000000 >> 12);
	uint64_t starts[] = {text, data, heap, ldso, libc, libc + 299, stack, stack + 2};
	for (unsigned i = 0; i < sizeof(starts) / sizeof(starts[0]); i++)
		fault(mm, starts[i]);
	assert_int_equal(mm->nr_ptes, 3);
	assert_int_equal(global_page_state(NR_PAGETABLE) - before, 3);
	assert_int_equal(mm_check_invariants(), 0);
	/* a fork's copy builds the same three for the pages it copies */
	struct mm_struct *child = dup_mm(mm);
	assert_int_equal(child->nr_ptes, 3);
	exit_mmap(child);
	exit_mmap(mm);
	assert_int_equal(global_page_state(NR_PAGETABLE), 0); /* the pgd with it */
	test_machine_shutdown();
}

/* Two mappings meeting inside a span share its page; unmapping the one that allocated it
 * hands it to the other (free_pgtables' floor and ceiling), and the last one frees it. */
static void a_shared_span_outlives_one_vma(void **state)
{
	(void)state;
	test_machine_boot("arm926-2008", 32ULL << 20, 0, 0);
	struct mm_struct *mm = mm_alloc();
	long before = global_page_state(NR_PAGETABLE);		    /* the pgd */
	uint64_t a = do_mmap(mm, 600, VM_READ | VM_WRITE, NULL, 0); /* spans 0x200 and 0x201 */
	uint64_t b = do_mmap(mm, 10, VM_READ | VM_WRITE, NULL, 0);  /* inside 0x201 */
	assert_int_equal(b, a + 600);
	fault(mm, a + 599);
	assert_int_equal(mm->nr_ptes, 1);
	assert_int_equal(do_munmap(mm, a), 0);
	assert_int_equal(mm->nr_ptes, 1); /* b still reaches the span */
	fault(mm, b);
	assert_int_equal(mm->nr_ptes, 1); /* and finds the page it was handed */
	assert_int_equal(mm_check_invariants(), 0);
	assert_int_equal(do_munmap(mm, b), 0);
	assert_int_equal(mm->nr_ptes, 0);
	assert_int_equal(global_page_state(NR_PAGETABLE), before);
	exit_mmap(mm);
	test_machine_shutdown();
}

/* The invariant check reads only the spans that have a page-table page (so a GiB of
 * stack costs what is populated), and still catches a present PTE that no rmap entry
 * accounts for (the present PTEs must equal the mapcounts' sum) and a mapped PTE whose
 * span has lost its page-table page (through the rmap chain). */
static void stray_ptes_are_caught(void **state)
{
	(void)state;
	test_machine_boot("arm926-2008", 32ULL << 20, 0, 0);
	struct mm_struct *mm = mm_alloc();
	uint64_t a = do_mmap(mm, 4096, VM_READ | VM_WRITE, NULL, 0);
	fault(mm, a);
	assert_int_equal(mm->nr_ptes, 1);
	assert_int_equal(mm_check_invariants(), 0);
	struct vm_area_struct *v = find_vma(mm, a);
	v->pte[1] = v->pte[0]; /* the same frame again, in the populated span, no rmap entry */
	assert_int_not_equal(mm_check_invariants(), 0);
	v->pte[1] = 0;
	assert_int_equal(mm_check_invariants(), 0);
	pfn_t pt = v->ptpage[0];
	v->ptpage[0] = NO_PFN; /* the mapped PTE's span without its page-table page */
	assert_int_not_equal(mm_check_invariants(), 0);
	v->ptpage[0] = pt;
	assert_int_equal(mm_check_invariants(), 0);
	exit_mmap(mm);
	test_machine_shutdown();
}

/* PTEs per page: 1024 four-byte PTEs on i386 without PAE, 512 on x86-64; mmaps go down
 * from mmap_base. 1024 pages ending at 0xb8000000 are one span on i386; on x86-64, ending
 * at 0x7ffff7fff000 (one page short of a span's end), they reach three. */
static void pte_size_decides_the_span(void **state)
{
	(void)state;
	const char *prof[] = {"p3-2004", "x86_64-2008"};
	const unsigned long want_ptes[] = {1, 3};
	for (int k = 0; k < 2; k++) {
		test_machine_boot(prof[k], 64ULL << 20, 0, 0);
		assert_int_equal(MM->pte_shift, k == 0 ? 10 : 9);
		struct mm_struct *mm = mm_alloc();
		uint64_t s = do_mmap(mm, 1024, VM_READ | VM_WRITE, NULL, 0);
		assert_int_equal(s + 1024, (k == 0 ? 0xb8000000ull : 0x7ffff7fff000ull) >> 12);
		for (uint64_t i = 0; i < 1024; i += 64)
			fault(mm, s + i);
		fault(mm, s + 1023);
		assert_int_equal(mm->nr_ptes, want_ptes[k]);
		exit_mmap(mm);
		test_machine_shutdown();
	}
}

/* An area that runs into another (text grown past TASK_UNMAPPED_BASE) does not overlap
 * it: the mapping goes above every other. */
static void colliding_areas_do_not_overlap(void **state)
{
	(void)state;
	test_machine_boot("arm926-2008", 32ULL << 20, 0, 0);
	struct mm_struct *mm = mm_alloc();
	uint64_t lib = do_mmap(mm, 4, VM_READ, NULL, 0);
	uint64_t stack = do_mmap_area(mm, MAP_AREA_STACK, 1, VM_READ, NULL, 0);
	uint64_t room = (0x40000000 - 0x8000) >> 12;
	uint64_t big = do_mmap_area(mm, MAP_AREA_TEXT, room + 8, VM_READ, NULL, 0);
	assert_true(big > stack);
	assert_true(big >= lib + 4);
	assert_ptr_equal(find_vma(mm, lib + 3)->start, lib);
	assert_ptr_equal(find_vma(mm, big)->start, big);
	exit_mmap(mm);
	test_machine_shutdown();
}

/* The system time a fork and the child's exit charge for an address space with n anonymous
 * pages in one page-table span (the fork charges the parent, the exit the child). */
static void fork_exit_stime(uint64_t n, sim_time_t *fork_ns, sim_time_t *exit_ns)
{
	test_machine_boot("x86_64-2008", 64ULL << 20, 0, 0);
	struct mm_struct *mm = mm_alloc();
	uint64_t s = do_mmap(mm, 64, VM_READ | VM_WRITE, NULL, 0);
	for (uint64_t i = 0; i < n; i++)
		fault(mm, s + i);
	struct task_struct *t = test_charged_current();
	struct mm_struct *child = dup_mm(mm);
	*fork_ns = t->task.stime;
	t->task.stime = 0;
	exit_mmap(child); /* the parent still maps every page: none is freed */
	*exit_ns = t->task.stime;
	set_current(NULL);
	exit_mmap(mm);
	test_machine_shutdown();
}

/* copy_one_pte and zap_pte_range cost their counted instructions a PTE (KPATH): each page
 * more in the parent adds copy_pte_ns to the fork and zap_pte_ns to the child's exit. */
static void fork_and_exit_charge_each_pte(void **state)
{
	(void)state;
	sim_time_t f8, e8, f40, e40;
	fork_exit_stime(8, &f8, &e8);
	fork_exit_stime(40, &f40, &e40);
	const struct hw_profile *hw = hw_profile_find("x86_64-2008");
	assert_int_equal(f40 - f8, 32 * hw->copy_pte_ns);
	assert_int_equal(e40 - e8, 32 * hw->zap_pte_ns);
	assert_true(hw->copy_pte_ns > 0 && hw->zap_pte_ns > 0);
}

/* A write to a page write-protected by a fork whose child has gone is do_wp_page's reuse:
 * the fault alone, the anonymous fault's price (no lookup, no page allocated or copied). */
static void reusing_a_cow_page_charges_the_anonymous_fault(void **state)
{
	(void)state;
	const char *prof[] = {"x86_64-2008", "arm926-2008"};
	for (int k = 0; k < 2; k++) {
		test_machine_boot(prof[k], 64ULL << 20, 0, 0);
		struct mm_struct *mm = mm_alloc();
		uint64_t s = do_mmap(mm, 4, VM_READ | VM_WRITE, NULL, 0);
		fault(mm, s);
		exit_mmap(dup_mm(mm)); /* the PTE is now write-protected, the page ours alone */
		struct task_struct *t = test_charged_current();
		fault(mm, s);
		set_current(NULL);
		assert_int_equal(t->task.stime, MM->hw->anon_fault_ns);
		assert_true(MM->hw->anon_fault_ns < MM->hw->fault_ns);
		exit_mmap(mm);
		test_machine_shutdown();
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(arm_process_needs_three),
	    cmocka_unit_test(a_shared_span_outlives_one_vma),
	    cmocka_unit_test(stray_ptes_are_caught),
	    cmocka_unit_test(pte_size_decides_the_span),
	    cmocka_unit_test(colliding_areas_do_not_overlap),
	    cmocka_unit_test(fork_and_exit_charge_each_pte),
	    cmocka_unit_test(reusing_a_cow_page_charges_the_anonymous_fault),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
