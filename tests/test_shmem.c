/* shmem (2.6.28 mm/shmem.c) on a hand-built machine: an object of N pages mapped shared and
 * written, then reclaimed page by page through shrink_page_list. shmem_fault puts new pages
 * on the active anon list (add_to_page_cache_lru's lru_cache_add_active_anon), counted in
 * nr_file_pages and nr_mapped, not nr_anon_pages; reclaim unmaps them, shmem_writepage
 * moves each to the swap cache under a slot its object records, the next pass writes it
 * (swap_writepage, pswpout), the pass after frees it; a fault reads it back (shmem_getpage:
 * pswpin, pgmajfault) into the object's cache. Without swap shmem_writepage redirties and
 * reclaim activates. 2.6.25 puts new shmem pages on its one inactive list. */
#include "mm/era/era.h"
#include "mm/shmem.h"
#include "mm/task.h"
#include "util/testutil.h"

#define N 8

static struct {
	struct mm_struct *mm;
	struct address_space *f;
	struct vm_area_struct *vma;
	uint64_t start;
	int kind;
	int rc[N];
} T;

static void boot(uint64_t swap_bytes, bool era_2625)
{
	test_machine_boot("x86_64-2008", 64ULL << 20, swap_bytes, 0);
	MM->sysctl.page_cluster = 0; /* one page per swap-in: no readahead */
	if (era_2625)
		MM->sysctl.reclaim_lru = RECLAIM_LRU_2625;
	mm_sysctl_apply();
	T.mm = mm_alloc();
	T.f = shmem_file_setup("SYSV00000001", N, 0);
	T.start = do_mmap(T.mm, N, VM_READ | VM_WRITE | VM_SHARED, T.f, 0);
	T.vma = find_vma(T.mm, T.start);
}

static void finish(void)
{
	assert_int_equal(mm_check_invariants(), 0);
	exit_mmap(T.mm);
	shmem_truncate(T.f);
	test_machine_shutdown();
}

static void toucher(void *arg)
{
	(void)arg;
	for (int i = 0; i < N; i++)
		T.rc[i] = handle_mm_fault(T.mm, T.vma, T.start + (uint64_t)i, T.kind);
}

/* Faults every page in a task (a swap-in waits for its read) and lets the I/O finish. */
static void touch_all(int kind)
{
	T.kind = kind;
	task_start(&task_struct_create("toucher", toucher, NULL, false)->task);
	sched_run(sim_clock + 10 * NSEC_PER_SEC, NULL);
	for (int i = 0; i < N; i++)
		assert_int_equal(T.rc[i], 0);
	assert_int_equal(mm_check_invariants(), 0);
}

static long gstat(enum zone_stat_item item)
{
	return global_page_state(item);
}

/* Old PTEs and no PG_referenced: reclaim's page_referenced finds no use. */
static void age_all(void)
{
	for (int i = 0; i < N; i++) {
		T.vma->pte[i] &= ~PTE_YOUNG;
		if (page_index_lookup(T.f, i) != NO_PFN)
			pfn_to_page(page_index_lookup(T.f, i))->flags &= ~PG_referenced;
	}
}

/* Cached pages [0, n) of the object onto a reclaimer's list, inactive as
 * shrink_inactive_list hands them to shrink_page_list (clear_active_flags). */
static void isolate_first(struct pagelist *list, int n)
{
	pagelist_init(list);
	for (int i = 0; i < n; i++) {
		test_isolate(page_index_lookup(T.f, i), list);
		pfn_to_page(page_index_lookup(T.f, i))->flags &= ~PG_active;
	}
}

static void isolate_all(struct pagelist *list)
{
	isolate_first(list, N);
}

static void putback(struct pagelist *list)
{
	while (list->nr)
		putback_lru_page(pagelist_pop_tail(list));
}

static void fault_maps_swap_backed_pages(void **state)
{
	(void)state;
	boot(64ULL << 20, false);
	long file0 = gstat(NR_FILE_PAGES), anon0 = gstat(NR_ANON_PAGES);
	long act0 = gstat(NR_ACTIVE_ANON), dirty0 = gstat(NR_FILE_DIRTY);
	uint64_t maj0 = vm_events[PGMAJFAULT];
	touch_all(TOUCH_WRITE);
	assert_int_equal(T.f->nrpages, N);
	for (int i = 0; i < N; i++) {
		const struct page *p = pfn_to_page(page_index_lookup(T.f, i));
		assert_true(p->flags & PG_swapbacked);
		assert_false(PageAnon(p));
		assert_false(page_is_file_cache(p));
		assert_int_equal(page_lru(p), LRU_ACTIVE_ANON);
		assert_int_equal(p->mapcount, 1);
		assert_true(T.vma->pte[i] & PTE_DIRTY);
	}
	assert_int_equal(gstat(NR_FILE_PAGES), file0 + N);
	assert_int_equal(gstat(NR_FILE_MAPPED), N);
	assert_int_equal(gstat(NR_ANON_PAGES), anon0);
	assert_int_equal(gstat(NR_ACTIVE_ANON), act0 + N);
	assert_int_equal(gstat(NR_FILE_DIRTY), dirty0);
	assert_int_equal(vm_events[PGMAJFAULT], maj0); /* new zeroed pages: minor faults */
	assert_int_equal(T.mm->rss_file, N);
	finish();
}

/* One reclaim cycle as 2.6.28 runs it on shmem pages, then the swap-in. */
static void reclaim_and_swapin(bool era_2625)
{
	boot(64ULL << 20, era_2625);
	touch_all(TOUCH_WRITE);
	if (era_2625)
		for (int i = 0; i < N; i++) /* one inactive list, where page cache enters */
			assert_int_equal(page_lru(pfn_to_page(page_index_lookup(T.f, i))),
					 LRU_INACTIVE_FILE);
	long file0 = gstat(NR_FILE_PAGES);
	uint64_t out0 = vm_events[PSWPOUT], in0 = vm_events[PSWPIN], maj0 = vm_events[PGMAJFAULT];
	uint64_t free0 = MM->swap.nr_free;
	age_all();
	struct pagelist list;
	isolate_all(&list);
	pfn_t pfns[N];
	for (int i = 0; i < N; i++)
		pfns[i] = page_index_lookup(T.f, i);
	struct scan_control sc = test_direct_sc(DEF_PRIORITY);

	/* pass 1: try_to_unmap moves the PTE's dirty bit to the page, pageout calls
	 * shmem_writepage: each page leaves the object's cache for the swap cache, dirty */
	assert_int_equal(shrink_page_list(&list, &sc, PAGEOUT_IO_ASYNC), 0);
	assert_int_equal(list.nr, N);
	assert_int_equal(T.f->nrpages, 0);
	assert_int_equal(T.f->shmem->swapped, N);
	assert_int_equal(gstat(NR_FILE_MAPPED), 0);
	assert_int_equal(gstat(NR_FILE_PAGES), file0); /* in the swap cache now */
	assert_int_equal(vm_events[PSWPOUT], out0);
	for (int i = 0; i < N; i++) {
		const struct page *p = pfn_to_page(pfns[i]);
		uint32_t slot = T.f->shmem->swp[i];
		assert_int_not_equal(slot, 0);
		assert_true(p->flags & PG_swapcache);
		assert_true(p->flags & PG_dirty);
		assert_int_equal(p->private, slot);
		assert_int_equal(swap_count(slot), 2); /* the object's entry and the cache */
		assert_int_equal(T.vma->pte[i], 0);
	}
	assert_int_equal(MM->swap.nr_free, free0 - N);
	assert_int_equal(mm_check_invariants(), 0);

	/* pass 2: swap_writepage writes each one */
	assert_int_equal(shrink_page_list(&list, &sc, PAGEOUT_IO_ASYNC), 0);
	assert_int_equal(vm_events[PSWPOUT], out0 + N);
	sched_run(sim_clock + NSEC_PER_SEC, NULL); /* the writes complete */
	assert_int_equal(mm_check_invariants(), 0);

	/* pass 3: clean swap cache pages are freed; the slots stay the object's */
	assert_int_equal(shrink_page_list(&list, &sc, PAGEOUT_IO_ASYNC), N);
	assert_int_equal(list.nr, 0);
	assert_int_equal(gstat(NR_FILE_PAGES), file0 - N);
	for (int i = 0; i < N; i++) {
		assert_int_equal(lookup_swap_cache(T.f->shmem->swp[i]), NO_PFN);
		assert_int_equal(swap_count(T.f->shmem->swp[i]), 1);
	}
	assert_int_equal(mm_check_invariants(), 0);

	/* the next access reads each page back through the object's entry */
	touch_all(TOUCH_READ);
	assert_int_equal(vm_events[PSWPIN], in0 + N);
	assert_int_equal(vm_events[PGMAJFAULT], maj0 + N);
	assert_int_equal(T.f->nrpages, N);
	assert_int_equal(T.f->shmem->swapped, 0);
	assert_int_equal(MM->swap.nr_free, free0);
	assert_int_equal(gstat(NR_FILE_PAGES), file0);
	assert_int_equal(gstat(NR_FILE_MAPPED), N);
	for (int i = 0; i < N; i++) {
		const struct page *p = pfn_to_page(page_index_lookup(T.f, i));
		assert_false(p->flags & PG_swapcache);
		assert_true(p->flags & PG_dirty); /* its only copy is in memory again */
		assert_true(p->flags & PG_swapbacked);
		/* read_swap_cache_async's list: 2.6.28 inactive anon, 2.6.25 the active one */
		assert_int_equal(page_lru(p), era_2625 ? LRU_ACTIVE_FILE : LRU_INACTIVE_ANON);
	}
	finish();
}

static void reclaim_writes_to_swap_and_fault_reads_back(void **state)
{
	(void)state;
	reclaim_and_swapin(false);
}

static void reclaim_2625_same_cycle_one_list(void **state)
{
	(void)state;
	reclaim_and_swapin(true);
}

/* Without swap shmem_writepage redirties (AOP_WRITEPAGE_ACTIVATE): every page stays in its
 * object, activated; with swap configured but full, the same. get_scan_ratio does not scan
 * the anon lists at all then. */
static void no_swap_keeps_and_activates(uint64_t swap_bytes)
{
	boot(swap_bytes, false);
	touch_all(TOUCH_WRITE);
	if (swap_bytes)
		MM->swap.nr_free = 0;
	uint64_t out0 = vm_events[PSWPOUT];
	age_all();
	struct pagelist list;
	isolate_all(&list);
	struct scan_control sc = test_direct_sc(DEF_PRIORITY);
	assert_int_equal(shrink_page_list(&list, &sc, PAGEOUT_IO_ASYNC), 0);
	assert_int_equal(list.nr, N);
	assert_int_equal(T.f->nrpages, N);
	assert_int_equal(T.f->shmem->swapped, 0);
	assert_int_equal(vm_events[PSWPOUT], out0);
	for (int i = 0; i < N; i++) {
		const struct page *p = pfn_to_page(page_index_lookup(T.f, i));
		assert_true(p->flags & PG_active);
		assert_true(p->flags & PG_dirty);
		assert_false(p->flags & (PG_locked | PG_swapcache | PG_reclaim));
	}
	unsigned long percent[2];
	get_scan_ratio(&MM->zones[ZONE_DMA32], &sc, percent);
	assert_int_equal(percent[0], 0);
	putback(&list);
	if (swap_bytes)
		MM->swap.nr_free = MM->swap.nr_slots - 1;
	finish();
}

static void no_swap_pages_stay(void **state)
{
	(void)state;
	no_swap_keeps_and_activates(0);
}

static void full_swap_pages_stay(void **state)
{
	(void)state;
	no_swap_keeps_and_activates(64ULL << 20);
}

/* A page only read since shmem_getpage zeroed it is clean: reclaim drops it with no I/O,
 * and the next fault zeroes a new one (no swap entry, a minor fault). */
static void clean_page_is_dropped(void **state)
{
	(void)state;
	boot(64ULL << 20, false);
	touch_all(TOUCH_READ);
	long file0 = gstat(NR_FILE_PAGES);
	uint64_t out0 = vm_events[PSWPOUT], maj0 = vm_events[PGMAJFAULT];
	/* the object is made without VM_ACCOUNT: each page allocated is committed */
	long committed = MM->vm_committed_space;
	assert_int_equal(T.f->shmem->alloced, N);
	age_all();
	struct pagelist list;
	isolate_all(&list);
	struct scan_control sc = test_direct_sc(DEF_PRIORITY);
	assert_int_equal(shrink_page_list(&list, &sc, PAGEOUT_IO_ASYNC), N);
	assert_int_equal(T.f->nrpages, 0);
	assert_int_equal(T.f->shmem->swapped, 0);
	assert_int_equal(gstat(NR_FILE_PAGES), file0 - N);
	assert_int_equal(vm_events[PSWPOUT], out0);
	/* the dropped pages stay committed until the object's next shmem_recalc_inode */
	assert_int_equal(T.f->shmem->alloced, N);
	assert_int_equal(MM->vm_committed_space, committed);
	touch_all(TOUCH_READ);
	assert_int_equal(T.f->nrpages, N);
	assert_int_equal(vm_events[PGMAJFAULT], maj0);
	/* the first fault gave back the N dropped, each new page committed one */
	assert_int_equal(T.f->shmem->alloced, N);
	assert_int_equal(MM->vm_committed_space, committed);
	finish();
}

/* shmem_truncate frees the cached pages and the swap entries with their slots. */
static void truncate_frees_pages_and_slots(void **state)
{
	(void)state;
	boot(64ULL << 20, false);
	touch_all(TOUCH_WRITE);
	long file0 = gstat(NR_FILE_PAGES);
	uint64_t free0 = MM->swap.nr_free;
	age_all();
	struct pagelist list;
	isolate_first(&list, N / 2); /* half to swap, half stays cached */
	struct scan_control sc = test_direct_sc(DEF_PRIORITY);
	shrink_page_list(&list, &sc, PAGEOUT_IO_ASYNC);
	shrink_page_list(&list, &sc, PAGEOUT_IO_ASYNC);
	sched_run(sim_clock + NSEC_PER_SEC, NULL);
	assert_int_equal(shrink_page_list(&list, &sc, PAGEOUT_IO_ASYNC), N / 2);
	assert_int_equal(T.f->shmem->swapped, N / 2);
	assert_int_equal(MM->swap.nr_free, free0 - N / 2);
	exit_mmap(T.mm);
	T.mm = NULL;
	shmem_truncate(T.f);
	assert_int_equal(T.f->nrpages, 0);
	assert_int_equal(T.f->shmem->swapped, 0);
	assert_int_equal(MM->swap.nr_free, free0);
	assert_int_equal(gstat(NR_FILE_PAGES), file0 - N);
	test_machine_shutdown();
}

/* A shared anonymous mapping's object goes with its last mapping: shmem_truncate frees
 * what nobody holds; a page a reclaimer had isolated stays until shrink_page_list reaches
 * it, and then it is freed without being written (no slot, no pswpout). */
static void zero_setup_object_goes_with_its_mapping(void **state)
{
	(void)state;
	test_machine_boot("x86_64-2008", 64ULL << 20, 64ULL << 20, 0);
	T.mm = mm_alloc();
	T.f = shmem_zero_setup(N, 0);
	T.start = do_mmap(T.mm, N, VM_READ | VM_WRITE | VM_SHARED, T.f, 0);
	T.vma = find_vma(T.mm, T.start);
	long file0 = gstat(NR_FILE_PAGES);
	touch_all(TOUCH_WRITE);
	assert_int_equal(gstat(NR_FILE_PAGES), file0 + N);
	uint64_t free0 = MM->swap.nr_free, out0 = vm_events[PSWPOUT];
	struct pagelist list;
	isolate_first(&list, 1);
	exit_mmap(T.mm);
	assert_int_equal(T.f->nrpages, 1); /* the isolated page */
	assert_int_equal(gstat(NR_FILE_PAGES), file0 + 1);
	assert_int_equal(mm_check_invariants(), 0);
	struct scan_control sc = test_direct_sc(DEF_PRIORITY);
	/* zap_pte_range left the young PTE's use as PG_referenced: dirty and referenced, it is
	 * kept once; the next pass frees it */
	assert_int_equal(shrink_page_list(&list, &sc, PAGEOUT_IO_ASYNC), 0);
	assert_int_equal(shrink_page_list(&list, &sc, PAGEOUT_IO_ASYNC), 1);
	assert_int_equal(T.f->nrpages, 0);
	assert_int_equal(T.f->shmem->swapped, 0);
	assert_int_equal(MM->swap.nr_free, free0);
	assert_int_equal(vm_events[PSWPOUT], out0);
	assert_int_equal(gstat(NR_FILE_PAGES), file0);
	test_machine_shutdown();
}

/* usemem.shmem: four processes' shared anonymous regions at twice RAM, with swap: whole
 * runs with the invariant checker on throughout. The regions' pages go to swap through
 * shmem_writepage and come back through shmem_getpage; at exit each object goes with its
 * mapping. Without swap nothing of theirs can be reclaimed: the OOM killer ends it. */
static const char *usemem_shmem_2x = "machine.profile = x86_64-2008\n"
				     "machine.ram = 32M\n"
				     "machine.swap = 128M\n"
				     "machine.cpus = 2\n"
				     "workload = usemem\n"
				     "usemem.processes = 4\n"
				     "usemem.size = 16M\n"
				     "usemem.pattern = cyclic\n"
				     "usemem.loops = 2\n"
				     "usemem.shmem = 1\n";

static void usemem_shmem_swaps(void **state)
{
	(void)state;
	struct scenario_config cfg;
	struct run_result r;
	test_scenario(&cfg, usemem_shmem_2x);
	assert_true(cfg.usemem.shmem);
	test_run(&cfg, 1, &r);
	assert_true(r.completed);
	assert_int_equal(r.rstats.oom_kills, 0);
	uint64_t out = test_vmstat(&r, "pswpout"), in = test_vmstat(&r, "pswpin");
	assert_true(out > 0);
	assert_true(in > 0);
	assert_true(in <= out);
	assert_true(test_vmstat(&r, "pgmajfault") > 0);
	/* each object went with its last mapping: no page cache left, no slot held */
	assert_int_equal(test_vmstat(&r, "nr_file_pages"), 0);
	run_result_free(&r);
}

/* The same regions mapped MAP_NORESERVE: each object commits its pages as they are
 * allocated (shmem_acct_block) and gives them back as they go, through swap-out, swap-in
 * and exit, with the committed count checked throughout. */
static void usemem_shmem_noreserve_swaps(void **state)
{
	(void)state;
	struct scenario_config cfg;
	struct run_result r;
	test_scenario(&cfg, usemem_shmem_2x);
	cfg.usemem.noreserve = true;
	test_run(&cfg, 1, &r);
	assert_true(r.completed);
	assert_int_equal(r.rstats.oom_kills, 0);
	assert_true(test_vmstat(&r, "pswpout") > 0 && test_vmstat(&r, "pswpin") > 0);
	assert_int_equal(test_vmstat(&r, "nr_file_pages"), 0);
	run_result_free(&r);
}

static void usemem_shmem_without_swap_oom_kills(void **state)
{
	(void)state;
	struct scenario_config cfg;
	struct run_result r;
	test_scenario(&cfg, usemem_shmem_2x);
	cfg.swap = 0;
	test_run(&cfg, 1, &r);
	assert_false(r.completed);
	assert_true(r.rstats.oom_kills >= 1);
	assert_int_equal(test_vmstat(&r, "pswpout"), 0);
	run_result_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(fault_maps_swap_backed_pages),
	    cmocka_unit_test(reclaim_writes_to_swap_and_fault_reads_back),
	    cmocka_unit_test(reclaim_2625_same_cycle_one_list),
	    cmocka_unit_test(no_swap_pages_stay),
	    cmocka_unit_test(full_swap_pages_stay),
	    cmocka_unit_test(clean_page_is_dropped),
	    cmocka_unit_test(truncate_frees_pages_and_slots),
	    cmocka_unit_test(zero_setup_object_goes_with_its_mapping),
	    cmocka_unit_test(usemem_shmem_swaps),
	    cmocka_unit_test(usemem_shmem_noreserve_swaps),
	    cmocka_unit_test(usemem_shmem_without_swap_oom_kills),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
