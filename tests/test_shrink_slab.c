/* shrink_slab's arithmetic (kernel-reclaim.md §1.18, 2.6.28 mm/vmscan.c) on a hand-built
 * shrinker, and the dentry and inode caches it presses (2.6.28 fs/dcache.c, fs/inode.c) on
 * hand-built files: prune_dcache's share and second chance, prune_icache's page-cache
 * invalidation counted as pginodesteal. */
#include "util/testutil.h"

#include "mm/fs.h"

static int fake_objects, fake_calls, fake_scanned;

/* A cache of fake_objects objects: each scan frees what it is asked for. */
static int fake_shrink(int nr, unsigned gfp)
{
	if (nr) {
		if (!(gfp & __GFP_FS))
			return -1;
		fake_calls++;
		fake_scanned += nr;
		fake_objects -= nr < fake_objects ? nr : fake_objects;
	}
	return fake_objects;
}

static void shrink_slab_arithmetic(void **state)
{
	(void)state;
	test_machine_boot("arm926-2008", 32ULL << 20, 0, 0);
	unregister_shrinkers();
	register_shrinker(fake_shrink, DEFAULT_SEEKS);
	fake_objects = 1000;
	fake_calls = fake_scanned = 0;
	uint64_t slabs = vm_events[SLABS_SCANNED];
	/* delta = (4 * 100 / 2) * 1000 / (999 + 1) = 200: one batch of 128, 72 owed */
	unsigned long ret = shrink_slab(100, GFP_KERNEL, 999);
	assert_int_equal(fake_calls, 1);
	assert_int_equal(ret, 128);
	assert_int_equal(vm_events[SLABS_SCANNED] - slabs, 128);
	/* 872 objects: delta = 200 * 872 / 1000 = 174, + 72 owed = 246: one batch, 118 owed */
	ret = shrink_slab(100, GFP_KERNEL, 999);
	assert_int_equal(fake_calls, 2);
	assert_int_equal(ret, 128);
	/* 744: delta 148 + 118 = 266: two batches, 10 owed */
	shrink_slab(100, GFP_KERNEL, 999);
	assert_int_equal(fake_calls, 4);
	assert_int_equal(vm_events[SLABS_SCANNED] - slabs, 4 * 128);
	/* scanned 0 counts as SWAP_CLUSTER_MAX: 488 objects, delta = 64 * 488 / 1000 = 31,
	 * + 10 owed = 41: no batch */
	shrink_slab(0, GFP_KERNEL, 999);
	assert_int_equal(fake_calls, 4);
	/* never more than twice the estimate: 2 * 488 = 976, seven batches (the fourth
	 * empties the cache; the shrinker is asked on until the count is spent) */
	shrink_slab(1000000, GFP_KERNEL, 0);
	assert_int_equal(fake_calls, 4 + 7);
	assert_int_equal(fake_objects, 0);
	assert_int_equal(vm_events[SLABS_SCANNED] - slabs, 11 * 128);
	/* a shrinker that cannot work without __GFP_FS stops the batches at once */
	fake_objects = 1000;
	int calls = fake_calls;
	shrink_slab(1000, GFP_NOFS, 999);
	assert_int_equal(fake_calls, calls);
	test_machine_shutdown();
}

/* 300 files closed in order: prune_dcache(128) takes 300 / (300 / 128) + 1 = 151, but the
 * first pass finds every dentry referenced (dput set the flag) and only clears it, and the
 * splice puts them back at the head in the order met, oldest first: the LRU is reversed.
 * The second pass frees 151 from the new tail, the newest files f299..f149, whose inodes
 * join inode_unused in the order freed (f149 first, at the tail); prune_icache(128) frees
 * f149..f276, dropping the page cache of those that have any as pginodesteal. */
static void dcache_icache_prune(void **state)
{
	(void)state;
	test_machine_boot("arm926-2008", 32ULL << 20, 0, 0);
	enum { N = 300 };
	static struct address_space *f[N];
	long slab0 = global_page_state(NR_SLAB_RECLAIMABLE);
	for (int i = 0; i < N; i++) {
		char name[16];
		snprintf(name, sizeof(name), "f%d", i);
		f[i] = file_create(name, 2, 2, false);
	}
	/* objects of the profile's sizes in SLUB slabs: 128-byte dentries (32 a page) and
	 * 280-byte inodes (14 a page, as the measured 2.6.25-rc1 board's slabinfo) */
	assert_int_equal(global_page_state(NR_SLAB_RECLAIMABLE) - slab0,
			 (N + 31) / 32 + (N + 13) / 14);
	assert_int_equal(dentry_stat.nr_dentry, N);
	assert_int_equal(inodes_stat.nr_inodes, N);
	/* f149..f158, the first inodes pruned, have two clean cached pages each */
	for (int i = 149; i < 159; i++)
		for (int p = 0; p < 2; p++)
			test_file_page(f[i], (uint64_t)p);
	for (int i = 0; i < N; i++)
		dput(f[i]);
	assert_int_equal(dentry_stat.nr_unused, N);
	assert_int_equal(shrink_dcache_memory(0, GFP_KERNEL), 300);
	assert_int_equal(shrink_dcache_memory(128, GFP_NOFS), -1);
	assert_int_equal(shrink_dcache_memory(128, GFP_KERNEL), 300); /* all referenced */
	assert_int_equal(dentry_stat.nr_dentry, N);
	assert_int_equal(shrink_dcache_memory(128, GFP_KERNEL), 100); /* 149 left: 1 * 100 */
	assert_int_equal(dentry_stat.nr_dentry, N - 151);
	for (int i = 149; i < N; i++)
		assert_int_equal(f[i]->d_slab, NO_PFN);
	assert_int_not_equal(f[148]->d_slab, NO_PFN);
	assert_int_equal(inodes_stat.nr_unused, 151);
	assert_int_equal(mm_check_invariants(), 0);
	uint64_t steal = vm_events[PGINODESTEAL];
	assert_int_equal(shrink_icache_memory(128, GFP_KERNEL), 0); /* 23 left: 0 * 100 */
	assert_int_equal(vm_events[PGINODESTEAL] - steal, 20);
	assert_int_equal(inodes_stat.nr_inodes, N - 128);
	assert_int_equal(f[149]->nrpages, 0);
	assert_int_equal(f[149]->i_slab, NO_PFN);
	assert_int_equal(f[276]->i_slab, NO_PFN);
	assert_int_not_equal(f[277]->i_slab, NO_PFN);
	assert_int_equal(mm_check_invariants(), 0);
	test_machine_shutdown();
}

/* A dirty inode is counted unused but waits off the list until writeback cleans it. */
static void dirty_inode_waits_for_writeback(void **state)
{
	(void)state;
	test_machine_boot("arm926-2008", 32ULL << 20, 0, 0);
	struct address_space *f = file_create("d", 1, 1, false);
	pfn_t pfn = test_file_page(f, 0);
	set_page_dirty(pfn);
	assert_true(f->on_dirty_list);
	dput(f);
	shrink_dcache_memory(128, GFP_KERNEL); /* clears DCACHE_REFERENCED */
	shrink_dcache_memory(128, GFP_KERNEL); /* frees the dentry */
	assert_int_equal(f->d_slab, NO_PFN);
	assert_int_equal(inodes_stat.nr_unused, 1);
	assert_false(f->i_list.on);
	shrink_icache_memory(128, GFP_KERNEL);
	assert_int_not_equal(f->i_slab, NO_PFN); /* not on the list: not scanned */
	assert_int_equal(f->nrpages, 1);
	test_machine_shutdown();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(shrink_slab_arithmetic),
	    cmocka_unit_test(dcache_icache_prune),
	    cmocka_unit_test(dirty_inode_waits_for_writeback),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
