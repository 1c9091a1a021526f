/* find_vma (mm/mmap.c): the VMA that holds a page, through the mmap_cache and the ordered
 * index, on address spaces built by hand: hits at both ends of each VMA, misses in the
 * guard gaps and past the end, and no stale answer after munmap or with more VMAs than
 * the cache has slots. */
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
			assert_null(find_vma(mm, start[i] + len[i])); /* the guard gap */
		}
		assert_null(find_vma(mm, start[0] - 1));
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

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(every_page_finds_its_vma),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
