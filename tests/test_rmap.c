/* page_referenced with several mappers, and try_to_unmap (kernel-reclaim.md §1.4). */
#include "util/testutil.h"

struct three {
	struct mm_struct *mm[3];
	struct vm_area_struct *vma[3];
	struct address_space *f;
	pfn_t pfn;
};

/* One file page mapped by three processes. */
static void map_three(struct three *t, bool young0, bool young1, bool young2)
{
	test_machine_boot("x86_64-2008", 64ULL << 20, 64ULL << 20, 0);
	t->f = file_create("lib", 8, 8, true);
	t->pfn = test_file_page(t->f, 2);
	bool young[3] = {young0, young1, young2};
	for (int i = 0; i < 3; i++) {
		t->mm[i] = mm_alloc();
		uint64_t s = do_mmap(t->mm[i], 8, VM_READ | VM_EXEC, t->f, 0);
		t->vma[i] = find_vma(t->mm[i], s);
		test_map(t->vma[i], 2, t->pfn, young[i]);
	}
}

static void unmap_three(struct three *t)
{
	for (int i = 0; i < 3; i++)
		exit_mmap(t->mm[i]);
	test_machine_shutdown();
}

static void counts_young_ptes_and_clears_them(void **state)
{
	(void)state;
	struct three t;
	map_three(&t, true, false, true);
	struct page *p = pfn_to_page(t.pfn);
	assert_int_equal(p->mapcount, 3);
	unsigned long vm_flags;
	assert_int_equal(page_referenced(t.pfn, false, &vm_flags), 2);
	assert_true(vm_flags & VM_EXEC);
	/* the young bits were harvested */
	assert_int_equal(page_referenced(t.pfn, false, &vm_flags), 0);
	assert_int_equal(vm_flags, 0);
	/* PG_referenced counts once and is cleared too */
	p->flags |= PG_referenced;
	t.vma[1]->pte[2] |= PTE_YOUNG;
	assert_int_equal(page_referenced(t.pfn, false, NULL), 2);
	assert_false(p->flags & PG_referenced);
	unmap_three(&t);
}

static void locked_vma_ends_walk_uncounted(void **state)
{
	(void)state;
	struct three t;
	map_three(&t, true, true, true);
	/* rmap chains are newest first: mm[2], mm[1], mm[0]. Lock mm[1]'s VMA. */
	vma_set_locked(t.vma[1], true);
	/* 2.6.28: mm[2] counts, mm[1] ends the walk without counting, mm[0] is not seen */
	assert_int_equal(page_referenced(t.pfn, false, NULL), 1);
	assert_true(t.vma[0]->pte[2] & PTE_YOUNG);
	vma_set_locked(t.vma[1], false);
	unmap_three(&t);
}

static void unmap_fails_on_young_then_succeeds(void **state)
{
	(void)state;
	struct three t;
	map_three(&t, false, true, false);
	t.vma[0]->pte[2] |= PTE_DIRTY;
	assert_int_equal(try_to_unmap(t.pfn), SWAP_FAIL); /* mm[1] was young */
	assert_false(t.vma[1]->pte[2] & PTE_YOUNG);	  /* ...and no longer is */
	assert_int_equal(try_to_unmap(t.pfn), SWAP_SUCCESS);
	struct page *p = pfn_to_page(t.pfn);
	assert_int_equal(p->mapcount, 0);
	for (int i = 0; i < 3; i++)
		assert_int_equal(t.vma[i]->pte[2], 0);
	/* the PTE dirty bit moved to the page, and is accounted */
	assert_true(p->flags & PG_dirty);
	assert_int_equal(global_page_state(NR_FILE_DIRTY), 1);
	assert_int_equal(mm_check_invariants(), 0);
	unmap_three(&t);
}

static void anon_unmap_leaves_swap_entries(void **state)
{
	(void)state;
	test_machine_boot("x86_64-2008", 64ULL << 20, 64ULL << 20, 0);
	struct mm_struct *mm = mm_alloc();
	struct vm_area_struct *vma = find_vma(mm, do_mmap(mm, 4, VM_READ | VM_WRITE, NULL, 0));
	pfn_t pfn = test_anon_page(vma, 1, false, true);
	assert_true(add_to_swap(pfn));
	uint32_t slot = pfn_to_page(pfn)->private;
	assert_int_equal(swap_count(slot), 1);
	assert_int_equal(try_to_unmap(pfn), SWAP_SUCCESS);
	assert_int_equal(vma->pte[1], PTE_SWAP | slot);
	assert_int_equal(swap_count(slot), 2); /* the PTE and the swap cache */
	assert_int_equal(mm_check_invariants(), 0);
	uint64_t nr_free = MM->swap.nr_free;
	/* dropping the PTE's reference leaves only the cache's: free_swap_and_cache drops the
	 * page from the swap cache, frees the slot, and the orphaned page is freed */
	exit_mmap(mm);
	assert_int_equal(swap_count(slot), 0);
	assert_int_equal(MM->swap.nr_free, nr_free + 1);
	assert_true(test_page_free(pfn));
	test_machine_shutdown();
}

/* The chain's PTEs in walk order, as the mm each belongs to (0, 1, 2; an unmapped mm's
 * vma is NULL). */
static int chain_order(const struct three *t, int *order)
{
	int n = 0;
	for (uint32_t i = pfn_to_page(t->pfn)->rmap; i; i = MM->rmap[i].next)
		for (int k = 0; k < 3; k++)
			if (t->vma[k] && MM->rmap[i].pte == &t->vma[k]->pte[2])
				order[n++] = k;
	return n;
}

/* An unmap takes its PTE's entry out of the chain wherever it is (the middle, the head,
 * the tail) and leaves the others in their order. */
static void unmap_anywhere_in_the_chain(void **state)
{
	(void)state;
	struct three t;
	map_three(&t, false, false, false);
	int order[3];
	assert_int_equal(chain_order(&t, order), 3);
	assert_int_equal(order[0], 2); /* newest first */
	assert_int_equal(order[1], 1);
	assert_int_equal(order[2], 0);
	exit_mmap(t.mm[1]); /* the middle */
	t.vma[1] = NULL;    /* freed with its mm's mappings */
	assert_int_equal(pfn_to_page(t.pfn)->mapcount, 2);
	assert_int_equal(chain_order(&t, order), 2);
	assert_int_equal(order[0], 2);
	assert_int_equal(order[1], 0);
	assert_int_equal(mm_check_invariants(), 0);
	test_map(t.vma[0], 3, t.pfn, false); /* a second PTE of mm[0] joins at the head */
	exit_mmap(t.mm[2]);		     /* what was the head */
	exit_mmap(t.mm[0]);		     /* both of mm[0]'s: the head, then the tail */
	assert_int_equal(pfn_to_page(t.pfn)->mapcount, 0);
	assert_int_equal(pfn_to_page(t.pfn)->rmap, 0);
	assert_int_equal(mm_check_invariants(), 0);
	test_machine_shutdown();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(counts_young_ptes_and_clears_them),
	    cmocka_unit_test(locked_vma_ends_walk_uncounted),
	    cmocka_unit_test(unmap_fails_on_young_then_succeeds),
	    cmocka_unit_test(anon_unmap_leaves_swap_entries),
	    cmocka_unit_test(unmap_anywhere_in_the_chain),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
