/* find_vma (mm/mmap.c): the VMA that holds a page, through the mmap_cache and the ordered
 * index, on address spaces built by hand: hits at both ends of each VMA, the neighbour
 * just past each (mmaps are packed top-down on x86-64), misses outside them, and no stale answer
 * after munmap or with more VMAs than the cache has slots; and the touch set that finds PTEs once
 * for accesses repeated over and over. */
#include "util/testutil.h"

#define NR 9 /* more than MMAP_CACHE_SIZE, so lookups go through the index */

static void every_page_finds_its_vma(void **state)
{
	(void)state;
	test_machine_boot("x86_64-2008", 64ULL << 20, 0, 0);
	struct mm_struct *mm = mm_alloc();
	uint64_t start[NR], len[NR];
	for (int i = 0; i < NR; i++) {
		len[i] = (uint64_t)i + 1;
		start[i] = do_mmap(mm, len[i], VM_READ | VM_WRITE, NULL, 0);
	}
	assert_int_equal(mm->map_count, NR);
	/* twice: the second round meets whatever the first left in the cache */
	for (int round = 0; round < 2; round++) {
		for (int i = NR - 1; i >= 0; i--) {
			struct vm_area_struct *v = find_vma(mm, start[i]);
			assert_non_null(v);
			assert_int_equal(v->start, start[i]);
			assert_ptr_equal(find_vma(mm, start[i] + len[i] - 1), v);
			/* top-down: each mapping ends where the one before it starts */
			if (i == 0)
				assert_null(find_vma(mm, start[i] + len[i]));
			else
				assert_ptr_equal(find_vma(mm, start[i] + len[i]),
						 find_vma(mm, start[i - 1]));
		}
		assert_null(find_vma(mm, start[NR - 1] - 1));
	}
	/* unmapping a VMA the cache holds leaves no trace of it; its neighbours stay */
	assert_non_null(find_vma(mm, start[4]));
	assert_int_equal(do_munmap(mm, start[4]), 0);
	assert_null(find_vma(mm, start[4]));
	assert_int_equal(find_vma(mm, start[3])->start, start[3]);
	assert_int_equal(find_vma(mm, start[5])->start, start[5]);
	assert_int_equal(mm->map_count, NR - 1);
	/* a fork's copy answers the same, from its own index */
	struct mm_struct *child = dup_mm(mm);
	for (int i = 0; i < NR; i++)
		if (i != 4)
			assert_int_equal(find_vma(child, start[i] + len[i] - 1)->start, start[i]);
	assert_null(find_vma(child, start[4]));
	exit_mmap(child);
	exit_mmap(mm);
	test_machine_shutdown();
}

/* A touch set does what the accesses one by one do (the CPU time of each) only when every
 * one would be a hit that changes no bit inside the quantum: present and young, and dirty
 * and not write-protected for the write (an old or clean PTE is one by one, where the bit
 * is set or, on an MMU without it, faulted in); and it stops matching once a VMA of the mm
 * comes or goes. */
static void touch_set_as_one_by_one(void **state)
{
	(void)state;
	test_machine_boot("x86_64-2008", 64ULL << 20, 0, 0);
	struct mm_struct *mm = mm_alloc();
	uint64_t a = do_mmap(mm, 4, VM_READ | VM_WRITE, NULL, 0);
	uint64_t b = do_mmap(mm, 2, VM_READ | VM_EXEC, NULL, 0);
	uint64_t c = do_mmap(mm, 3, VM_READ | VM_EXEC, NULL, 0);
	uint32_t *pa = &find_vma(mm, a)->pte[1], *pb = &find_vma(mm, b)->pte[0];
	uint32_t *pc = &find_vma(mm, c)->pte[2];
	*pa = 11 | PTE_PRESENT;
	*pb = 12 | PTE_PRESENT;
	*pc = 13 | PTE_PRESENT;
	struct touch_set s = {
	    .n = 3, .kind = {TOUCH_WRITE, TOUCH_EXEC, TOUCH_EXEC}, .vpn = {a + 1, b, c + 2}};
	touch_set_find(mm, &s);
	struct task t = {0};
	sim_current = &t;
	sim_time_t quantum = sim_quantum, ns = MM->hw->touch_ns;
	sim_quantum = 10 * ns;
	/* old, and clean for the write: one by one, nothing done here */
	assert_false(touch_set_fast(mm, &s));
	*pa |= PTE_YOUNG;
	*pb |= PTE_YOUNG;
	*pc |= PTE_YOUNG;
	assert_false(touch_set_fast(mm, &s)); /* the write would dirty its page */
	*pa |= PTE_DIRTY;
	assert_int_equal(t.pending, 0);
	assert_true(touch_set_fast(mm, &s));
	assert_int_equal(*pa, 11 | PTE_PRESENT | PTE_YOUNG | PTE_DIRTY);
	assert_int_equal(*pb, 12 | PTE_PRESENT | PTE_YOUNG);
	assert_int_equal(*pc, 13 | PTE_PRESENT | PTE_YOUNG);
	assert_int_equal(t.pending, 3 * ns);
	assert_int_equal(t.utime, 3 * ns);
	/* an old page, a write-protected page for the write, a page not present, the quantum
	 * reached by the last access: each a case for one by one, with nothing done */
	t.pending = 0;
	*pb &= ~PTE_YOUNG;
	assert_false(touch_set_fast(mm, &s));
	*pb |= PTE_YOUNG;
	*pa |= PTE_RDONLY;
	assert_false(touch_set_fast(mm, &s));
	*pa &= ~PTE_RDONLY;
	*pc &= ~PTE_PRESENT;
	assert_false(touch_set_fast(mm, &s));
	*pc |= PTE_PRESENT;
	t.pending = 7 * ns; /* 7 + 3 accesses reach the quantum of 10 */
	assert_false(touch_set_fast(mm, &s));
	assert_int_equal(t.pending, 7 * ns);
	t.pending = 6 * ns;
	assert_true(touch_set_fast(mm, &s));
	/* a VMA that comes, and one that goes: found again, or not at all */
	do_mmap(mm, 1, VM_READ, NULL, 0);
	t.pending = 0; /* the system call's time */
	assert_false(touch_set_fast(mm, &s));
	touch_set_find(mm, &s);
	assert_true(touch_set_fast(mm, &s));
	*pb = 0; /* mapped by hand, without an rmap entry: the unmap must not see it */
	assert_int_equal(do_munmap(mm, b), 0);
	t.pending = 0;
	assert_false(touch_set_fast(mm, &s));
	touch_set_find(mm, &s);
	assert_null(s.mm);
	assert_false(touch_set_fast(mm, &s));
	sim_current = NULL;
	sim_quantum = quantum;
	*pa = *pc = 0;
	exit_mmap(mm);
	test_machine_shutdown();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(every_page_finds_its_vma),
	    cmocka_unit_test(touch_set_as_one_by_one),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
