/* SLUB's slab lifecycle (src/mm/slub.c, 2.6.25 mm/slub.c) in small situations worked by
 * hand on a 4 KiB-page machine with one CPU: which slab each object lands in, when a slab
 * joins or leaves the partial list, and when its page goes back to the page allocator. */
#include "hw/profile.h"
#include "kernel/pipe.h"
#include "mm/slab.h"
#include "util/testutil.h"

static long slab_pages(void)
{
	return global_page_state(NR_SLAB_UNRECLAIMABLE);
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
	test_machine_boot("x86_64-2008", 64ULL << 20, 0, 0);
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
	test_machine_boot("x86_64-2008", 64ULL << 20, 0, 0);
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
	test_machine_boot("x86_64-2008", 64ULL << 20, 0, 0);
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
	test_machine_boot("x86_64-2008", 64ULL << 20, 0, 0);
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
	test_machine_boot("x86_64-2008", 64ULL << 20, 0, 0);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(fills_cpu_slab_then_partial),
	    cmocka_unit_test(fragmentation_keeps_pages),
	    cmocka_unit_test(orders_and_full_slabs),
	    cmocka_unit_test(registry_forgets_with_machine),
	    cmocka_unit_test(socket_ring_wraps_and_grows),
	    cmocka_unit_test(reader_close_frees_queued_skbs),
	    cmocka_unit_test(message_costs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
