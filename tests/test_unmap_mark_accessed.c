/* Where a file page mapped by a process is marked accessed (kernel-reclaim.md §1.4): at the
 * fault up to 2.6.28, at the unmap of a young PTE from 2.6.29 (vm.unmap_mark_accessed,
 * Nick Piggin's bf3f3bc5e73; zap_pte_range and filemap_fault at v2.6.28 and v2.6.29). */
#include "mm/era/era.h"
#include "util/testutil.h"

struct mapper {
	struct mm_struct *mm;
	struct vm_area_struct *vma;
};

static struct address_space *boot_zap(int unmap_mark_accessed, int zap_mark_accessed)
{
	test_machine_boot("x86_64-2008", 64ULL << 20, 64ULL << 20, 0);
	MM->sysctl.unmap_mark_accessed = unmap_mark_accessed;
	MM->sysctl.zap_mark_accessed = zap_mark_accessed;
	mm_sysctl_apply();
	struct address_space *f = file_create("lib", 8, 8, true);
	test_file_page(f, 2); /* cached and up to date: the faults below find it there */
	return f;
}

static struct address_space *boot(int unmap_mark_accessed)
{
	return boot_zap(unmap_mark_accessed, 0);
}

/* A process maps the file and executes page 2 through a fault. */
static struct mapper fault_in(struct address_space *f)
{
	struct mapper m = {.mm = mm_alloc()};
	uint64_t s = do_mmap(m.mm, 8, VM_READ | VM_EXEC, f, 0);
	m.vma = find_vma(m.mm, s);
	assert_int_equal(handle_mm_fault(m.mm, m.vma, s + 2, TOUCH_EXEC), 0);
	assert_true(m.vma->pte[2] & PTE_YOUNG);
	return m;
}

static struct page *page2(struct address_space *f)
{
	assert_true(page_index_lookup(f, 2) != NO_PFN);
	return pfn_to_page(page_index_lookup(f, 2));
}

/* 2.6.28: the fault marks the page, however often a process maps, uses and unmaps it: a
 * second fault that finds it cached activates it. */
static void marked_at_fault_2628(void **state)
{
	(void)state;
	struct address_space *f = boot(0);
	struct mapper m = fault_in(f);
	struct page *p = page2(f);
	assert_true(p->flags & PG_referenced);
	assert_false(p->flags & PG_active);
	exit_mmap(m.mm);
	assert_false(p->flags & PG_active);
	m = fault_in(f);
	assert_true(p->flags & PG_active);
	exit_mmap(m.mm);
	test_machine_shutdown();
}

/* 2.6.28's zap_pte_range: a young PTE of a file page leaves PG_referenced on the page and
 * never activates it, whether the page had the bit (a mark_page_accessed would activate it)
 * or reclaim had cleared it since the fault. */
static void unmap_sets_referenced_2628(void **state)
{
	(void)state;
	struct address_space *f = boot(0);
	struct page *p = page2(f);
	struct mapper m = fault_in(f);
	assert_true(p->flags & PG_referenced);
	exit_mmap(m.mm);
	assert_true(p->flags & PG_referenced);
	assert_false(p->flags & PG_active);
	assert_int_equal(page_lru(p), LRU_INACTIVE_FILE);

	m = fault_in(f); /* activates it: the second mark_page_accessed */
	assert_true(p->flags & PG_active);
	p->flags &= ~PG_referenced; /* as page_referenced leaves an active page it scanned */
	exit_mmap(m.mm);
	assert_true(p->flags & PG_referenced);

	/* on the inactive list with the bit cleared, as reclaim's scan leaves it */
	test_machine_shutdown();
	f = boot(0);
	p = page2(f);
	m = fault_in(f);
	p->flags &= ~PG_referenced;
	exit_mmap(m.mm);
	assert_true(p->flags & PG_referenced);
	assert_false(p->flags & PG_active);
	test_machine_shutdown();
}

/* An unmap of a PTE the reclaim scan has aged (not young) leaves 2.6.28's page alone too. */
static void old_pte_unmap_2628_leaves_referenced_clear(void **state)
{
	(void)state;
	struct address_space *f = boot(0);
	struct mapper m = fault_in(f);
	struct page *p = page2(f);
	m.vma->pte[2] &= ~PTE_YOUNG;
	p->flags &= ~PG_referenced;
	exit_mmap(m.mm);
	assert_false(p->flags & (PG_referenced | PG_active));
	test_machine_shutdown();
}

/* Up to 2.6.20 both the fault and the unmap of a young PTE mark the page accessed: one
 * fault and one exit activate it. */
static void marked_at_fault_and_unmap_2620(void **state)
{
	(void)state;
	struct address_space *f = boot_zap(0, 1);
	struct mapper m = fault_in(f);
	struct page *p = page2(f);
	assert_true(p->flags & PG_referenced);
	assert_false(p->flags & PG_active);
	exit_mmap(m.mm);
	assert_true(p->flags & PG_active);
	assert_int_equal(page_lru(p), LRU_ACTIVE_FILE);
	test_machine_shutdown();
}

/* 2.6.29: the fault leaves the page unmarked; each unmap of a young PTE is a
 * mark_page_accessed, so the second map-use-unmap activates it, as a second read() would. */
static void marked_at_unmap_2629(void **state)
{
	(void)state;
	struct address_space *f = boot(1);
	struct mapper m = fault_in(f);
	struct page *p = page2(f);
	assert_false(p->flags & (PG_referenced | PG_active));
	exit_mmap(m.mm);
	assert_true(p->flags & PG_referenced);
	assert_false(p->flags & PG_active);
	m = fault_in(f);
	assert_true(p->flags & PG_referenced); /* the fault did not touch it */
	exit_mmap(m.mm);
	assert_true(p->flags & PG_active);
	assert_int_equal(page_lru(p), LRU_ACTIVE_FILE);
	test_machine_shutdown();
}

/* From 2.6.29 an unmap of a PTE the reclaim scan has aged (not young) marks nothing. */
static void old_pte_unmap_marks_nothing(void **state)
{
	(void)state;
	struct address_space *f = boot(1);
	struct mapper m = fault_in(f);
	struct page *p = page2(f);
	m.vma->pte[2] &= ~PTE_YOUNG;
	exit_mmap(m.mm);
	assert_false(p->flags & (PG_referenced | PG_active));
	test_machine_shutdown();
}

/* kernel.version chooses the rule: up to 2.6.20 at the fault and at unmap, 2.6.21-2.6.28
 * at the fault (unmap sets PG_referenced), 2.6.29 and later at unmap. */
static void follows_kernel_version(void **state)
{
	(void)state;
	const struct {
		const char *v;
		int on, zap;
	} cases[] = {{"2.6.8-rc2", 0, 1}, {"2.6.20", 0, 1}, {"2.6.21", 0, 0},
		     {"2.6.28", 0, 0},	  {"2.6.29", 1, 0}, {"2.6.31-rc", 1, 0}};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct vm_sysctl s;
		kernel_version_t v = 0;
		assert_int_equal(kernel_version_parse(cases[i].v, &v), 0);
		kernel_version_defaults(v, &s);
		assert_int_equal(s.unmap_mark_accessed, cases[i].on);
		assert_int_equal(s.zap_mark_accessed, cases[i].zap);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(marked_at_fault_2628),
	    cmocka_unit_test(unmap_sets_referenced_2628),
	    cmocka_unit_test(old_pte_unmap_2628_leaves_referenced_clear),
	    cmocka_unit_test(marked_at_fault_and_unmap_2620),
	    cmocka_unit_test(marked_at_unmap_2629),
	    cmocka_unit_test(old_pte_unmap_marks_nothing),
	    cmocka_unit_test(follows_kernel_version),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
