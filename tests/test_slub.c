/* SLUB's slab lifecycle (src/mm/slub.c, 2.6.25 mm/slub.c) in small situations worked by
 * hand on a 4 KiB-page machine with one CPU: which slab each object lands in, when a slab
 * joins or leaves the partial list, and when its page goes back to the page allocator; and
 * each era's calculate_order and allocate_slab's fallback. The lifecycle tests boot with
 * slub_min_objects=4 (a boot parameter) so that the layouts stay small. */
#include "hw/profile.h"
#include "kernel/pipe.h"
#include "mm/slab.h"
#include "util/testutil.h"

static long slab_pages(void)
{
	return global_page_state(NR_SLAB_UNRECLAIMABLE);
}

/* the machine as the lifecycle tests want it: 2.6.28's rule with slub_min_objects=4 */
static void boot(const char *profile, uint64_t ram)
{
	test_machine_boot(profile, ram, 0, 0);
	MM->sysctl.slub_min_objects = 4;
}

static void check(const struct kmem_cache *s)
{
	assert_int_equal(kmem_cache_check(s), 0);
	assert_int_equal(mm_check_invariants(), 0);
}

/* 512-byte objects: 8 to a 4 KiB slab. The ninth object needs a second slab; the first,
 * full, is on no list until an object in it is freed, which puts it on the partial list;
 * the CPU keeps allocating from its own slab meanwhile. */
static void fills_cpu_slab_then_partial(void **state)
{
	(void)state;
	boot("x86_64-2008", 64ULL << 20);
	struct kmem_cache s;
	kmem_cache_init(&s, "kmalloc-512", 512, OWNER_SLAB);
	assert_int_equal(s.objects, 8);
	assert_int_equal(s.order, 0);
	long base = slab_pages();
	pfn_t obj[10];
	for (int i = 0; i < 8; i++)
		obj[i] = kmem_cache_alloc(&s, GFP_KERNEL);
	for (int i = 1; i < 8; i++)
		assert_int_equal(obj[i], obj[0]);
	assert_int_equal(s.nr_slabs, 1);
	assert_int_equal(slab_pages(), base + 1);
	obj[8] = kmem_cache_alloc(&s, GFP_KERNEL);
	assert_int_not_equal(obj[8], obj[0]);
	assert_int_equal(s.nr_slabs, 2);
	assert_int_equal(s.partial.nr, 0); /* the full slab is on no list */
	check(&s);
	kmem_cache_free(&s, obj[3]);
	assert_int_equal(s.partial.nr, 1);
	obj[9] = kmem_cache_alloc(&s, GFP_KERNEL); /* from the CPU slab, not the partial one */
	assert_int_equal(obj[9], obj[8]);
	assert_int_equal(s.partial.nr, 1);
	check(&s);
	/* freeing the rest of the first slab gives its page back */
	for (int i = 0; i < 8; i++)
		if (i != 3)
			kmem_cache_free(&s, obj[i]);
	assert_int_equal(s.nr_slabs, 1);
	assert_int_equal(s.partial.nr, 0);
	assert_int_equal(slab_pages(), base + 1);
	/* the CPU slab stays even when empty */
	kmem_cache_free(&s, obj[8]);
	kmem_cache_free(&s, obj[9]);
	assert_int_equal(s.nr_slabs, 1);
	assert_int_equal(s.nr_objects, 0);
	check(&s);
	kmem_cache_destroy(&s);
	test_machine_shutdown();
}

/* Fragmentation: 32 objects in 4 slabs, every other one freed. Half the bytes are free but
 * no slab is empty, so no page comes back; a byte count would have given back two. */
static void fragmentation_keeps_pages(void **state)
{
	(void)state;
	boot("x86_64-2008", 64ULL << 20);
	struct kmem_cache s;
	kmem_cache_init(&s, "kmalloc-512", 512, OWNER_SLAB);
	pfn_t obj[32];
	for (int i = 0; i < 32; i++)
		obj[i] = kmem_cache_alloc(&s, GFP_KERNEL);
	assert_int_equal(s.nr_slabs, 4);
	for (int i = 0; i < 32; i += 2)
		kmem_cache_free(&s, obj[i]);
	assert_int_equal(s.nr_slabs, 4);
	assert_int_equal(s.partial.nr, 3); /* the three full ones; the fourth is the CPU's */
	check(&s);
	/* new objects fill the CPU slab first, then the partial slabs, head first: the slab
	 * that went partial first (the first one) */
	for (int i = 0; i < 4; i++)
		assert_int_equal(kmem_cache_alloc(&s, GFP_KERNEL), obj[24]);
	assert_int_equal(kmem_cache_alloc(&s, GFP_KERNEL), obj[0]);
	assert_int_equal(s.nr_slabs, 4);
	check(&s);
	kmem_cache_destroy(&s);
	test_machine_shutdown();
}

/* Objects too big for four in a page get an order-1 slab; a full slab emptied goes back to
 * the page allocator at once (it never was on the partial list). */
static void orders_and_full_slabs(void **state)
{
	(void)state;
	boot("x86_64-2008", 64ULL << 20);
	struct kmem_cache big;
	kmem_cache_init(&big, "kmalloc-2048", 2048, OWNER_SLAB);
	assert_int_equal(big.order, 1);
	assert_int_equal(big.objects, 4);
	long base = slab_pages();
	pfn_t b = kmem_cache_alloc(&big, GFP_KERNEL);
	assert_int_equal(slab_pages(), base + 2);
	kmem_cache_free(&big, b);
	check(&big);
	kmem_cache_destroy(&big);

	struct kmem_cache s;
	kmem_cache_init(&s, "kmalloc-1024", 1024, OWNER_SLAB);
	assert_int_equal(s.objects, 4);
	pfn_t o[12];
	for (int i = 0; i < 12; i++) /* three slabs, the first two full */
		o[i] = kmem_cache_alloc(&s, GFP_KERNEL);
	/* empty the first two: each was full (on no list), so it is freed at once */
	for (int i = 0; i < 8; i++)
		kmem_cache_free(&s, o[i]);
	assert_int_equal(s.nr_slabs, 1);
	check(&s);
	kmem_cache_destroy(&s);
	test_machine_shutdown();
}

/* calculate_sizes aligns an object to sizeof(void *): a 1-byte object on ia64's 64 KiB
 * pages is 8 bytes, 8192 to an order-0 slab under 2.6.30's rule (slab_order's objects cap
 * of 65535 would otherwise give order -1: runfuzz seed 390374) */
static void tiny_objects_are_word_aligned(void **state)
{
	(void)state;
	test_machine_boot("ia64-2008", 512ULL << 20, 0, 0);
	MM->sysctl.slub_order_rule = SLUB_ORDER_2630;
	struct kmem_cache s;
	kmem_cache_init(&s, "tiny", 1, OWNER_SLAB);
	assert_int_equal(s.size, 8);
	assert_int_equal(s.order, 0);
	assert_int_equal(s.objects, 8192);
	pfn_t o = kmem_cache_alloc(&s, GFP_KERNEL);
	kmem_cache_free(&s, o);
	check(&s);
	kmem_cache_destroy(&s);
	test_machine_shutdown();
}

/* A cache left initialised when its machine goes away is not checked against the next
 * machine's frames (the registry forgets it with the machine). */
static void registry_forgets_with_machine(void **state)
{
	(void)state;
	test_machine_boot("x86_64-2008", 64ULL << 20, 0, 0);
	skb_caches_init(256, 512);
	for (int i = 0; i < 100; i++)
		kmem_cache_alloc(&skb_data_cache, GFP_KERNEL);
	test_machine_shutdown(); /* no skb_caches_destroy */
	test_machine_boot("x86_64-2008", 64ULL << 20, 0, 0);
	assert_int_equal(mm_check_invariants(), 0);
	test_machine_shutdown();
	skb_caches_destroy();
}

/* A socket's ring of queued skbs wraps and, when several senders pass the sndbuf test at
 * once (here: wmem cleared before each write), grows keeping the order; every object comes
 * back when all is read (data objects four to a slab, so reads empty slabs as they go). */
static void socket_ring_wraps_and_grows(void **state)
{
	(void)state;
	boot("x86_64-2008", 64ULL << 20);
	skb_caches_init(256, 4096);
	assert_int_equal(skb_data_cache.objects, 4);
	struct kpipe p;
	kpipe_init(&p, KPIPE_SOCKET, 4 * 360, 360);
	assert_int_equal(p.skb_cap, 6);
	for (int round = 0; round < 5; round++) {
		for (int i = 0; i < 37; i++) {
			p.wmem = 0;
			assert_int_equal(kpipe_write(&p, 100), 0);
		}
		assert_int_equal(mm_check_invariants(), 0);
		for (int i = 0; i < 30; i++)
			assert_int_equal(kpipe_read(&p, 100), 100);
		assert_int_equal(mm_check_invariants(), 0);
	}
	assert_int_equal(p.nr_msgs, 35);
	assert_true(p.skb_cap >= 35);
	while (p.bytes)
		kpipe_read(&p, 100);
	assert_int_equal(skb_data_cache.nr_objects, 0);
	assert_int_equal(skbuff_head_cache.nr_objects, 0);
	assert_int_equal(mm_check_invariants(), 0);
	kpipe_release(&p);
	skb_caches_destroy();
	test_machine_shutdown();
}

/* The reader's close of a socket (unix_release_sock) frees every skb still queued to it:
 * 10 skbs of 4,096-byte data objects hold 10 data pages and a head slab; after the close
 * both caches are empty, the slab pages are back on the free lists, the writer's wmem is
 * uncharged and its next write fails (EPIPE). */
static void reader_close_frees_queued_skbs(void **state)
{
	(void)state;
	boot("x86_64-2008", 64ULL << 20);
	skb_caches_init(256, 4096);
	struct kpipe p;
	kpipe_init(&p, KPIPE_SOCKET, 100 * 360, 360);
	long free_before = test_free_pages();
	for (int i = 0; i < 10; i++)
		assert_int_equal(kpipe_write(&p, 100), 0);
	assert_int_equal(skb_data_cache.nr_objects, 10);
	assert_true(test_free_pages() <= free_before - 10);
	kpipe_close_read(&p);
	assert_int_equal(skb_data_cache.nr_objects, 0);
	assert_int_equal(skbuff_head_cache.nr_objects, 0);
	assert_int_equal(p.wmem, 0);
	assert_true(kpipe_write(&p, 100) < 0);
	assert_int_equal(mm_check_invariants(), 0);
	kpipe_release(&p);
	skb_caches_destroy();
	test_machine_shutdown();
}

/* A socket message costs the profile's AF_UNIX send and receive (sock_send_ns, sock_recv_ns:
 * lat_unix less lat_pipe), a pipe message the buffer page's allocation and free; both add the
 * syscall entry and the copy at the page-copy rate. The ARM profile's figures differ, so a
 * socket charged like a pipe fails here. */
static void message_costs(void **state)
{
	(void)state;
	test_machine_boot("arm926-2008", 32ULL << 20, 0, 0);
	const struct hw_profile *hw = hw_profile_find("arm926-2008");
	sim_time_t copy = hw->page_copy_ns * 100 / 4096;
	assert_int_equal(kpipe_write_cost(KPIPE_SOCKET, 100),
			 hw->syscall_ns + hw->sock_send_ns + copy);
	assert_int_equal(kpipe_read_cost(KPIPE_SOCKET, 100),
			 hw->syscall_ns + hw->sock_recv_ns + copy);
	assert_int_equal(kpipe_write_cost(KPIPE_PIPE, 100),
			 hw->syscall_ns + hw->page_alloc_ns + copy);
	assert_int_equal(kpipe_read_cost(KPIPE_PIPE, 100),
			 hw->syscall_ns + hw->page_free_ns + copy);
	assert_true(hw->sock_send_ns != hw->page_alloc_ns);
	test_machine_shutdown();
}

/* calculate_order by hand (mm/slub.c at v2.6.25, v2.6.26, v2.6.30), 4 KiB pages unless
 * said. */
static void calculate_order_by_era(void **state)
{
	(void)state;
	/* 2.6.25: 4 objects, order 1 at most, waste 1/8 then 1/4. 700 bytes: 4 fit a page
	 * but waste 596 > 512, then 4 in 8 KiB waste 492 <= 1024: order 1 */
	assert_int_equal(slub_calculate_order(700, 12, 1, SLUB_ORDER_2625, -1, 0), 1);
	assert_int_equal(slub_calculate_order(2048, 12, 1, SLUB_ORDER_2625, -1, 0), 1);
	/* 4 x 4096 needs order 2 > 1; 2 objects fit order 1 */
	assert_int_equal(slub_calculate_order(4096, 12, 1, SLUB_ORDER_2625, -1, 0), 1);
	/* 64 KiB pages: 8 objects, order 2 at most; 8 x 568 fit a page, waste 216 */
	assert_int_equal(slub_calculate_order(568, 16, 8, SLUB_ORDER_2625, -1, 0), 0);
	/* 2.6.26: 4 x (fls(CPUs) + 1) objects, order 3 at most, waste 1/16 to 1/4. A 568-byte
	 * inode: 8 (1 CPU) or 12 (2 CPUs) need 4,544 or 6,816 bytes, order 1 (waste 240) */
	assert_int_equal(slub_calculate_order(568, 12, 1, SLUB_ORDER_2626, -1, 0), 1);
	assert_int_equal(slub_calculate_order(568, 12, 2, SLUB_ORDER_2626, -1, 0), 1);
	/* a 208-byte dentry: 12 x 208 = 2,496, a page (waste 144 <= 256) */
	assert_int_equal(slub_calculate_order(208, 12, 2, SLUB_ORDER_2626, -1, 0), 0);
	/* kmalloc-2048: 12 x 2048 = 24 KiB: order 3 */
	assert_int_equal(slub_calculate_order(2048, 12, 2, SLUB_ORDER_2626, -1, 0), 3);
	/* 6,560 bytes, 8 CPUs: 20, 10 and 5 objects need more than order 3; 2 fit order 2
	 * (waste 3,264 <= 4,096) */
	assert_int_equal(slub_calculate_order(6560, 12, 8, SLUB_ORDER_2626, -1, 0), 2);
	/* 2.6.30 caps the 20 at the 4 an order-3 slab holds: order 3 (waste 6,528 <= 8,192) */
	assert_int_equal(slub_calculate_order(6560, 12, 8, SLUB_ORDER_2630, -1, 0), 3);
	assert_int_equal(slub_calculate_order(2048, 12, 2, SLUB_ORDER_2630, -1, 0), 3);
	/* the boot parameters: slub_max_order=1 caps kmalloc-2048 at 4 objects, order 1;
	 * slub_min_objects=4 puts 4 x 1024 in a page */
	assert_int_equal(slub_calculate_order(2048, 12, 2, SLUB_ORDER_2630, 1, 0), 1);
	assert_int_equal(slub_calculate_order(1024, 12, 1, SLUB_ORDER_2626, -1, 4), 0);
	/* an object larger than order 3 (max_objects 0): one object, in the smallest order */
	assert_int_equal(slub_calculate_order(40000, 12, 2, SLUB_ORDER_2630, -1, 0), 4);
}

/* The era's rule reaches the caches: on the test machine's one CPU, 2.6.30 gives
 * kmalloc-2048 order-2 slabs of 8 objects (falling back to pages of 2), 2.6.25 order-1
 * slabs of 4 (no fallback). */
static void cache_takes_the_eras_order(void **state)
{
	(void)state;
	test_machine_boot("x86_64-2008", 64ULL << 20, 0, 0);
	MM->sysctl.slub_order_rule = SLUB_ORDER_2630;
	struct kmem_cache s;
	kmem_cache_init(&s, "kmalloc-2048", 2048, OWNER_SLAB);
	/* one CPU here: 8 objects of 2048 = 16 KiB, order 2 */
	assert_int_equal(s.order, 2);
	assert_int_equal(s.objects, 8);
	assert_int_equal(s.min_order, 0);
	assert_int_equal(s.min_objects, 2);
	long base = slab_pages();
	pfn_t o = kmem_cache_alloc(&s, GFP_KERNEL);
	assert_int_equal(slab_pages(), base + 4);
	assert_int_equal(slab_objects(pfn_to_page(o)), 8);
	kmem_cache_free(&s, o);
	check(&s);
	kmem_cache_destroy(&s);
	MM->sysctl.slub_order_rule = SLUB_ORDER_2625;
	kmem_cache_init(&s, "kmalloc-2048", 2048, OWNER_SLAB);
	assert_int_equal(s.order, 1);
	assert_int_equal(s.objects, 4);
	assert_int_equal(s.min_order, 1); /* no fallback before 2.6.26 */
	kmem_cache_destroy(&s);
	test_machine_shutdown();
}

/* allocate_slab (2.6.26 on): with no free block of the slab's order (every other frame
 * taken, none of the free ones buddies) and a caller that cannot reclaim, the order-2 slab
 * fails and one of the object's own order (a page, two 2,048-byte objects) is taken; the
 * cache counts it, and its page goes back when emptied. */
static void fallback_to_the_objects_order(void **state)
{
	(void)state;
	test_machine_boot("arm926-2008", 32ULL << 20, 0, 0);
	MM->sysctl.slub_order_rule = SLUB_ORDER_2630;
	struct kmem_cache s;
	kmem_cache_init(&s, "kmalloc-2048", 2048, OWNER_SLAB);
	assert_int_equal(s.order, 2);
	/* every frame taken (watermarks at 0 meanwhile, as test_buddy's), the even ones freed */
	struct zone *z = &MM->zones[ZONE_NORMAL];
	unsigned long marks[3] = {z->pages_min, z->pages_low, z->pages_high};
	z->pages_min = z->pages_low = z->pages_high = 0;
	static pfn_t taken[1 << 14];
	int n = 0;
	for (pfn_t p; n < (int)ARRAY_SIZE(taken) &&
		      (p = alloc_kernel_page(OWNER_OTHER_KERNEL, GFP_ATOMIC)) != NO_PFN;)
		taken[n++] = p;
	z->pages_min = marks[0];
	z->pages_low = marks[1];
	z->pages_high = marks[2];
	assert_true(n < (int)ARRAY_SIZE(taken));
	for (int i = 0; i < n; i++)
		if (!(taken[i] & 1)) {
			free_kernel_page(taken[i]);
			taken[i] = NO_PFN;
		}
	drain_all_pages();
	long base = slab_pages();
	pfn_t a = kmem_cache_alloc(&s, 0);
	assert_int_not_equal(a, NO_PFN);
	assert_int_equal(s.fallback_slabs, 1);
	assert_int_equal(slab_objects(pfn_to_page(a)), 2);
	assert_int_equal(slab_pages(), base + 1);
	pfn_t b = kmem_cache_alloc(&s, 0);
	assert_int_equal(b, a); /* the fallback slab's second object */
	check(&s);
	pfn_t c = kmem_cache_alloc(&s, 0); /* a second fallback slab */
	assert_int_not_equal(c, a);
	assert_int_equal(s.fallback_slabs, 2);
	assert_int_equal(kmem_cache_pages(&s), 2);
	check(&s);
	kmem_cache_free(&s, a);
	kmem_cache_free(&s, b); /* full, on no list: emptied, its page goes back */
	assert_int_equal(s.fallback_slabs, 1);
	assert_int_equal(slab_pages(), base + 1);
	kmem_cache_free(&s, c);
	check(&s);
	kmem_cache_destroy(&s);
	for (int i = 0; i < n; i++)
		if (taken[i] != NO_PFN)
			free_kernel_page(taken[i]);
	test_machine_shutdown();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(fills_cpu_slab_then_partial),
	    cmocka_unit_test(fragmentation_keeps_pages),
	    cmocka_unit_test(orders_and_full_slabs),
	    cmocka_unit_test(tiny_objects_are_word_aligned),
	    cmocka_unit_test(registry_forgets_with_machine),
	    cmocka_unit_test(socket_ring_wraps_and_grows),
	    cmocka_unit_test(reader_close_frees_queued_skbs),
	    cmocka_unit_test(message_costs),
	    cmocka_unit_test(calculate_order_by_era),
	    cmocka_unit_test(cache_takes_the_eras_order),
	    cmocka_unit_test(fallback_to_the_objects_order),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
