/* The reclaim throttles (kernel-reclaim.md §2) and hackbench: KOSAKI's ticket never admits
 * more than the limit, the PGFREE cut-off fires exactly when its condition holds, a ticket
 * holder never waits on itself, hackbench is deterministic, and every throttle keeps the
 * machine's invariants. */
#include "mm/policy/throttle.h"
#include "util/testutil.h"
#include "cli/scenario_file.h"

#include <stdint.h>
#include <string.h>

/* A board under hackbench memory pressure: 7 groups on the 32 MB ARM board reclaim hard.
 * Few loops keep the test quick. */
static const char *const board =
    "machine.profile = arm926-2008\nmachine.ram = 32M\nmachine.cpus = 1\n"
    "workload = hackbench\nhackbench.groups = 7\nhackbench.loops = 40\n";

static const struct metric *metric(const struct run_result *r, const char *name)
{
	for (int i = 0; i < r->wl.nmetrics; i++)
		if (!strcmp(r->wl.metrics[i].name, name))
			return &r->wl.metrics[i];
	return NULL;
}

static void run_board(const char *extra, struct run_result *res)
{
	struct scenario_config cfg;
	char err[1024];
	test_scenario(&cfg, board);
	/* the arm's keys on top of the board's, as a second file would set them */
	assert_int_equal(scenario_parse_text(&cfg, extra, strlen(extra), "arm", err, sizeof(err)),
			 0);
	assert_int_equal(scenario_validate(&cfg, err, sizeof(err)), 0);
	test_run(&cfg, 1, res);
}

/* The ticket: with the throttle on, never more tasks inside shrink_zone than the limit
 * (kswapd included, since it takes a ticket too); without it, many more. */
static void ticket_limits_reclaimers(void **state)
{
	(void)state;
	struct run_result res;
	run_board("", &res);
	int vanilla = res.rstats.max_shrinking;
	run_result_free(&res);
	assert_true(vanilla > 3);
	for (int limit = 1; limit <= 3; limit++) {
		char extra[64];
		snprintf(extra, sizeof(extra), "vm.max_reclaiming_tasks_per_zone = %d\n", limit);
		run_board(extra, &res);
		assert_true(res.rstats.max_shrinking >= 1);
		assert_true(res.rstats.max_shrinking <= limit);
		run_result_free(&res);
	}
}

static struct task_struct fake;

static void become_task(unsigned flags)
{
	memset(&fake, 0, sizeof(fake));
	fake.flags = flags;
	set_current(&fake);
}

/* The cut-off (§2.2 step 6): 4 x ((1 << order) + pages_high) pages freed since the call
 * began and the zone above its high watermark; kswapd and calls without may_cut_off never. */
static void cut_off_condition(void **state)
{
	(void)state;
	test_machine_boot("x86_64-2008", 64ULL << 20, 0, 1024);
	become_task(0);
	struct zone *z = &MM->zones[ZONE_DMA32];
	struct scan_control sc = {.gfp_mask = GFP_KERNEL, .may_cut_off = 1, .order = 0};
	uint64_t threshold = (1 + z->pages_high) * 4;
	sc.was_freed = vm_events[PGFREE];
	/* the zone is far above high (a fresh machine): only the count decides */
	vm_events[PGFREE] += threshold - 1;
	assert_false(throttle_may_cut_off(z, &sc));
	vm_events[PGFREE] += 1;
	assert_true(throttle_may_cut_off(z, &sc));
	/* order 2 raises the threshold to 4 x (4 + high): below it nothing is even checked;
	 * at it, the fresh zone's large free blocks pass the order-2 watermark */
	sc.order = 2;
	sc.was_freed = vm_events[PGFREE];
	uint64_t before = sc.was_freed;
	vm_events[PGFREE] += (4 + z->pages_high) * 4 - 1;
	assert_false(throttle_may_cut_off(z, &sc));
	assert_int_equal(sc.was_freed, before);
	vm_events[PGFREE] += 1;
	assert_true(throttle_may_cut_off(z, &sc));
	sc.order = 0;
	sc.was_freed = vm_events[PGFREE];
	vm_events[PGFREE] += threshold;
	/* enough freed but the zone below high: no cut-off, and the count restarts */
	long saved = z->stat[NR_FREE_PAGES];
	z->stat[NR_FREE_PAGES] = (long)z->pages_high;
	assert_false(throttle_may_cut_off(z, &sc));
	assert_int_equal(sc.was_freed, vm_events[PGFREE]);
	z->stat[NR_FREE_PAGES] = saved;
	assert_false(throttle_may_cut_off(z, &sc));
	vm_events[PGFREE] += threshold;
	assert_true(throttle_may_cut_off(z, &sc));
	/* kswapd and callers without may_cut_off (balance_pgdat) never cut off */
	fake.flags = PF_KSWAPD;
	assert_false(throttle_may_cut_off(z, &sc));
	fake.flags = 0;
	sc.may_cut_off = 0;
	assert_false(throttle_may_cut_off(z, &sc));
	set_current(NULL);
	test_machine_shutdown();
}

/* A task already holding a ticket (PF_RECLAIMING) goes straight to shrink_zone even when
 * every ticket is taken: it would otherwise wait for itself forever. Same for callers
 * without __GFP_IO|__GFP_FS (v7+). Neither takes a ticket. */
static void pf_reclaiming_never_waits(void **state)
{
	(void)state;
	test_machine_boot("x86_64-2008", 64ULL << 20, 0, 1024);
	MM->sysctl.max_reclaiming_tasks_per_zone = 3;
	mm_sysctl_apply();
	assert_ptr_equal(mm_active.shrink_zone_enter[0]->ops.shrink_zone_enter,
			 throttle_shrink_zone_enter);
	struct zone *z = &MM->zones[ZONE_DMA32];
	struct scan_control sc = {.gfp_mask = GFP_KERNEL,
				  .swap_cluster_max = SWAP_CLUSTER_MAX,
				  .swappiness = 60,
				  .may_swap = 1};
	z->reclaimers = 3; /* every ticket taken (one by this very task) */
	become_task(PF_RECLAIMING);
	shrink_zone(DEF_PRIORITY, z, &sc);
	assert_int_equal(z->reclaimers, 3);
	assert_true(fake.flags & PF_RECLAIMING);
	assert_null(fake.task.wq);
	become_task(0);
	sc.gfp_mask = GFP_NOFS;
	shrink_zone(DEF_PRIORITY, z, &sc);
	assert_int_equal(z->reclaimers, 3);
	assert_false(fake.flags & PF_RECLAIMING);
	/* a free ticket is taken and given back, and PF_RECLAIMING cleared */
	z->reclaimers = 0;
	sc.gfp_mask = GFP_KERNEL;
	shrink_zone(DEF_PRIORITY, z, &sc);
	assert_int_equal(z->reclaimers, 0);
	assert_false(fake.flags & PF_RECLAIMING);
	set_current(NULL);
	MM->sysctl.max_reclaiming_tasks_per_zone = 0;
	mm_sysctl_apply();
	assert_false(policy_hooked(shrink_zone_enter));
	test_machine_shutdown();
}

/* The ticket's scope (v6-v8): taken at shrink_zone's entry, given back after the list work
 * and before throttle_vm_writeout. A holder that then waits in throttle_vm_writeout (here:
 * NR_WRITEBACK set far above the dirty limit by hand) holds no ticket, so with a limit of 1
 * a second reclaimer gets one at once. */
static int ticket_seen_by_second;
static sim_time_t second_through;

static void ticket_reclaimer(void *arg)
{
	struct scan_control sc = test_direct_sc(DEF_PRIORITY);
	if (arg) {
		schedule_timeout(5 * NSEC_PER_MSEC); /* the first is in throttle_vm_writeout */
		ticket_seen_by_second = MM->zones[ZONE_DMA32].reclaimers;
	}
	shrink_zone(DEF_PRIORITY, &MM->zones[ZONE_DMA32], &sc);
	if (arg)
		second_through = sim_clock;
}

static void writeback_drains(void *arg)
{
	(void)arg;
	schedule_timeout(300 * NSEC_PER_MSEC);
	MM->zones[ZONE_DMA32].stat[NR_WRITEBACK] = 0;
}

static void ticket_not_held_across_throttle_vm_writeout(void **state)
{
	(void)state;
	test_machine_boot("x86_64-2008", 64ULL << 20, 0, 1024);
	MM->sysctl.max_reclaiming_tasks_per_zone = 1;
	mm_sysctl_apply();
	MM->zones[ZONE_DMA32].stat[NR_WRITEBACK] = 100000;
	ticket_seen_by_second = -1;
	second_through = 0;
	task_start(&task_struct_create("first", ticket_reclaimer, NULL, false)->task);
	task_start(&task_struct_create("second", ticket_reclaimer, (void *)1, false)->task);
	task_start(&task_struct_create("flusher", writeback_drains, NULL, false)->task);
	sched_run(10ULL * NSEC_PER_SEC, NULL);
	assert_int_equal(ticket_seen_by_second, 0);
	assert_int_equal(MM->zones[ZONE_DMA32].reclaimers, 0);
	/* both waited in throttle_vm_writeout until the writeback drained at 300 ms */
	assert_true(second_through >= 300 * NSEC_PER_MSEC);
	MM->sysctl.max_reclaiming_tasks_per_zone = 0;
	mm_sysctl_apply();
	test_machine_shutdown();
}

/* The isolation throttles at shrink_inactive_list's entry, against a zone whose isolated
 * count is set by hand above its inactive count. 5.16 (§2.4) sleeps once, HZ/50 unless a
 * direct reclaimer finds the test false and wakes it (kswapd, exempt from the test, never
 * wakes it), and then gives up on the list (returns 0, nothing scanned); 2.6.32 (§2.3)
 * naps HZ/10 at a time until the count comes down. Below the limit both go on at once. */
enum iso_other { ISO_ALONE, ISO_CLEAR_LATE, ISO_CLEAR_AND_ENTER, ISO_KSWAPD_ENTERS };
static long iso_ret;
static sim_time_t iso_took;

static long iso_enter(void)
{
	struct scan_control sc = {.gfp_mask = GFP_KERNEL, .swap_cluster_max = SWAP_CLUSTER_MAX};
	return mm_active.shrink_inactive_throttle[0]->ops.shrink_inactive_throttle(
	    &MM->zones[ZONE_DMA32], &sc, 0);
}

static void iso_reclaimer(void *arg)
{
	(void)arg;
	sim_time_t t0 = sim_clock;
	iso_ret = iso_enter();
	sched_sync();
	iso_took = sim_clock - t0;
}

static void iso_other_task(void *arg)
{
	enum iso_other what = (enum iso_other)(intptr_t)arg;
	schedule_timeout((what == ISO_CLEAR_LATE ? 250 : 5) * NSEC_PER_MSEC);
	if (what == ISO_KSWAPD_ENTERS)
		current->flags |= PF_KSWAPD;
	else
		MM->zones[ZONE_DMA32].stat[NR_ISOLATED_ANON] = 0;
	if (what != ISO_CLEAR_LATE)
		assert_int_equal(iso_enter(), SHRINK_INACTIVE_PROCEED);
}

static void run_isolated(const char *sw, enum iso_other other, long isolated)
{
	test_machine_boot("x86_64-2008", 64ULL << 20, 0, 1024);
	if (!strcmp(sw, "5.16"))
		MM->sysctl.reclaim_throttle = 1;
	else
		MM->sysctl.too_many_isolated = 1;
	mm_sysctl_apply();
	struct zone *z = &MM->zones[ZONE_DMA32];
	long saved = z->stat[NR_ISOLATED_ANON];
	z->stat[NR_ISOLATED_ANON] = isolated; /* the inactive anon list is empty: 0 */
	iso_ret = 12345;
	task_start(&task_struct_create("reclaimer", iso_reclaimer, NULL, false)->task);
	if (other != ISO_ALONE)
		task_start(&task_struct_create("other", iso_other_task, (void *)(intptr_t)other,
					       other == ISO_KSWAPD_ENTERS)
				->task);
	sched_run(10ULL * NSEC_PER_SEC, NULL);
	z->stat[NR_ISOLATED_ANON] = saved;
	MM->sysctl.reclaim_throttle = MM->sysctl.too_many_isolated = 0;
	mm_sysctl_apply();
	test_machine_shutdown();
}

static void isolated_throttles(void **state)
{
	(void)state;
	static const struct {
		const char *sw;
		enum iso_other other;
		long isolated, want;
		sim_time_t lo_ms, hi_ms; /* how long the call took: [lo, hi) */
	} cases[] = {
	    /* 5.16: one HZ/50 sleep, then 0 without scanning, though the count is still high */
	    {"5.16", ISO_ALONE, 100, 0, 20, 21},
	    /* woken at 5 ms by a direct reclaimer that found the count down: it goes on */
	    {"5.16", ISO_CLEAR_AND_ENTER, 100, SHRINK_INACTIVE_PROCEED, 5, 6},
	    /* kswapd entering at 5 ms wakes nobody: the sleep runs its 20 ms */
	    {"5.16", ISO_KSWAPD_ENTERS, 100, 0, 20, 21},
	    /* 2.6.32: HZ/10 naps until the count is cleared at 250 ms: the third nap ends
	     * at 300 ms and the task goes on to scan */
	    {"2.6.32", ISO_CLEAR_LATE, 100, SHRINK_INACTIVE_PROCEED, 300, 301},
	    /* not too many isolated (0 > 0 is false): both go on at once */
	    {"5.16", ISO_ALONE, 0, SHRINK_INACTIVE_PROCEED, 0, 1},
	    {"2.6.32", ISO_ALONE, 0, SHRINK_INACTIVE_PROCEED, 0, 1},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		run_isolated(cases[i].sw, cases[i].other, cases[i].isolated);
		assert_int_equal(iso_ret, cases[i].want);
		assert_true(iso_took >= cases[i].lo_ms * NSEC_PER_MSEC);
		assert_true(iso_took < cases[i].hi_ms * NSEC_PER_MSEC);
	}
}

/* KOSAKI's RFC (v1, §2.2): one machine-wide limit on the tasks inside try_to_free_pages, so
 * on the board (one zone) never more than the limit in shrink_zone but for kswapd, which never
 * calls try_to_free_pages and is never held back. */
static void rfc_limits_direct_reclaimers(void **state)
{
	(void)state;
	for (int limit = 1; limit <= 2; limit++) {
		char extra[64];
		struct run_result res;
		snprintf(extra, sizeof(extra), "vm.max_reclaiming_tasks = %d\n", limit);
		run_board(extra, &res);
		assert_true(res.rstats.max_shrinking >= 1);
		assert_true(res.rstats.max_shrinking <= limit + 1);
		/* the waiters are inside try_to_free_pages, before the gate */
		assert_true(res.rstats.max_direct_reclaimers > limit);
		run_result_free(&res);
	}
}

/* The RFC's early return: a task that waited more than HZ for its turn returns progress
 * without reclaiming when a zone it may allocate from has more than 4 x pages_high free. A
 * holder keeps the only ticket for hold_ms; the caller's ALLOCSTALL (counted by
 * do_try_to_free_pages) shows whether it reclaimed. */
static unsigned long rfc_ret;
static uint64_t rfc_stalls;

static void rfc_holder(void *arg)
{
	schedule_timeout((sim_time_t)(uintptr_t)arg * NSEC_PER_MSEC);
	MM->rfc_reclaimers--;
	wake_up_all(&MM->rfc_reclaim_wait);
}

static void rfc_caller(void *arg)
{
	(void)arg;
	uint64_t before = vm_events[ALLOCSTALL];
	rfc_ret = try_to_free_pages(0, GFP_KERNEL);
	rfc_stalls = vm_events[ALLOCSTALL] - before;
}

static void run_rfc_wait(unsigned hold_ms, bool low)
{
	test_machine_boot("x86_64-2008", 64ULL << 20, 0, 1024);
	MM->sysctl.max_reclaiming_tasks = 1;
	mm_sysctl_apply();
	long saved[MAX_NR_ZONES];
	for (int i = 0; i < MM->nr_zones; i++) {
		struct zone *z = &MM->zones[i];
		saved[i] = z->stat[NR_FREE_PAGES];
		/* above high but not above four times high: still worth reclaiming */
		if (low && z->present_pages)
			z->stat[NR_FREE_PAGES] = (long)(2 * z->pages_high);
	}
	MM->rfc_reclaimers = 1; /* the holder's ticket */
	rfc_ret = 12345;
	rfc_stalls = 12345;
	task_start(
	    &task_struct_create("holder", rfc_holder, (void *)(uintptr_t)hold_ms, false)->task);
	task_start(&task_struct_create("caller", rfc_caller, NULL, false)->task);
	sched_run(10ULL * NSEC_PER_SEC, NULL);
	assert_int_equal(MM->rfc_reclaimers, 0);
	for (int i = 0; i < MM->nr_zones; i++)
		MM->zones[i].stat[NR_FREE_PAGES] = saved[i];
	MM->sysctl.max_reclaiming_tasks = 0;
	mm_sysctl_apply();
	test_machine_shutdown();
}

static void rfc_skips_reclaim_after_a_long_wait(void **state)
{
	(void)state;
	/* 2 s of waiting, a fresh machine far above 4 x high: progress, nothing reclaimed */
	run_rfc_wait(2000, false);
	assert_int_equal(rfc_ret, 1);
	assert_int_equal(rfc_stalls, 0);
	/* 0.5 s is not more than HZ: it reclaims */
	run_rfc_wait(500, false);
	assert_int_equal(rfc_stalls, 1);
	/* a long wait, but no zone above 4 x high: it reclaims */
	run_rfc_wait(2000, true);
	assert_int_equal(rfc_stalls, 1);
}

/* Same scenario, same seed: the same figures, byte for byte. */
static void hackbench_deterministic(void **state)
{
	(void)state;
	struct run_result a, b;
	run_board("hackbench.groups = 3\nvm.max_reclaiming_tasks_per_zone = 3\n", &a);
	run_board("hackbench.groups = 3\nvm.max_reclaiming_tasks_per_zone = 3\n", &b);
	assert_true(a.completed);
	assert_string_equal(a.wl.text, b.wl.text);
	assert_int_equal(a.elapsed, b.elapsed);
	assert_int_equal(a.sys_ns, b.sys_ns);
	assert_int_equal(a.nr_vmstat, b.nr_vmstat);
	for (int i = 0; i < a.nr_vmstat; i++)
		assert_int_equal(a.vmstat[i].value, b.vmstat[i].value);
	const struct metric *t = metric(&a, "time");
	assert_non_null(t);
	assert_true(t->value > 0);
	run_result_free(&a);
	run_result_free(&b);
}

/* One group of one loop on a one-CPU machine: its report contains want. */
static void assert_one_group_prints(const char *profile, const char *ram, const char *want)
{
	char text[512];
	snprintf(text, sizeof(text),
		 "machine.profile = %s\nmachine.ram = %s\nmachine.cpus = 1\n"
		 "workload = hackbench\nhackbench.groups = 1\nhackbench.loops = 1\n",
		 profile, ram);
	struct scenario_config cfg;
	struct run_result res;
	test_scenario(&cfg, text);
	test_run(&cfg, 1, &res);
	if (!strstr(res.wl.text, want))
		fail_msg("%s %s: no \"%s\" in:\n%s", profile, ram, want, res.wl.text);
	run_result_free(&res);
}

/* One write's skb against the 2.6.25 layouts worked by hand (sk_buff_bytes: ARM EABI 160,
 * 64-bit 192; data/measured/skb_layout.txt): ARM 32-bit, 32-byte lines: truesize
 * ALIGN(100,32)=128 + 160 = 288; slab objects 160 (sk_buff; 4096/160 = 25 a slab) +
 * kmalloc(128 + 20 + 12*18 = 364) = 512 (8 a slab); sndbuf (160+256)*256. x86-64: 128 + 192
 * = 320; 192 (21) + kmalloc(128 + 24 + 16*18 = 440) = 512 (8). IA64 with 64 KiB pages,
 * 128-byte lines: 320; 256 + kmalloc(128 + 24 + 16*3 = 200) = 256, 256 of each to a slab. */
static void skb_sizes_by_hand(void **state)
{
	(void)state;
	static const struct {
		const char *profile, *want;
	} cases[] = {
	    {"arm926-2008", "truesize 288; slab objects 160 (skbuff_head_cache, 25 per slab) + "
			    "512 (kmalloc, 8 per slab) bytes; sndbuf 106496"},
	    {"x86_64-2008", "truesize 320; slab objects 192 (skbuff_head_cache, 21 per slab) + "
			    "512 (kmalloc, 8 per slab) bytes; sndbuf 114688"},
	    {"ia64-2008", "truesize 320; slab objects 256 (skbuff_head_cache, 256 per slab) + "
			  "256 (kmalloc, 256 per slab) bytes; sndbuf 114688"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_one_group_prints(cases[i].profile, "512M", cases[i].want);
}

/* unix_stream_sendmsg's limit (sock_alloc_send_pskb, net/core/sock.c, 2.6.28): a send
 * waits while sk_wmem_alloc >= sk_sndbuf, the test made before the skb is charged. One
 * sender, one receiver, one CPU: the sender fills the socket before the receiver runs.
 * With sndbuf 16 truesizes the 16th send still sees wmem 15 x 320 < sndbuf, the 17th
 * waits: 16 skbs at the peak, their sk_buffs in one 21-object slab page and their data in
 * two 8-object pages, 3 pages; one skb more would take 4. */
static void sndbuf_bounds_skbs_in_flight(void **state)
{
	(void)state;
	struct scenario_config cfg;
	struct run_result res;
	test_scenario(&cfg, "machine.profile = x86_64-2008\nmachine.ram = 512M\n"
			    "machine.cpus = 1\nworkload = hackbench\nhackbench.groups = 1\n"
			    "hackbench.fds = 1\nhackbench.loops = 200\nhackbench.sndbuf = 5120\n");
	test_run(&cfg, 1, &res);
	assert_true(res.wl.completed);
	assert_non_null(strstr(res.wl.text, "truesize 320;"));
	assert_non_null(strstr(res.wl.text, "peak socket buffers 3 pages"));
	run_result_free(&res);
}

/* sk_init (net/core/sock.c, 2.6.25): a machine of at most 4096 pages (num_physpages) gives
 * every socket 32767 bytes of send buffer, a larger one SK_WMEM_MAX. The ARM926's 4 KiB
 * pages put the line at 16 MB (the board's half size), ia64's 64 KiB pages at 256 MB. */
static void small_machines_get_the_small_send_buffer(void **state)
{
	(void)state;
	static const struct {
		const char *profile, *ram, *want;
	} cases[] = {
	    {"arm926-2008", "16M", "sndbuf 32767\n"},
	    {"arm926-2008", "17M", "sndbuf 106496\n"},
	    {"ia64-2008", "256M", "sndbuf 32767\n"},
	    {"ia64-2008", "320M", "sndbuf 114688\n"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_one_group_prints(cases[i].profile, cases[i].ram, cases[i].want);
}

/* Minchan's test 2 in small: on the board with swap, vanilla swaps and refaults more than
 * the throttle, takes longer and has more tasks reclaiming at once (the direction of seed
 * 000's shape, kernel-reclaim.md §2.2). With swap the throttle's count may pass its limit: a
 * task that gave its ticket back waits in throttle_vm_writeout inside shrink_zone. */
static void throttle_spares_swap(void **state)
{
	(void)state;
	struct run_result v, t;
	run_board("machine.swap = 32M\nvm.reclaim_lru = 2.6.25\n", &v);
	run_board("machine.swap = 32M\nvm.reclaim_lru = 2.6.25\n"
		  "vm.max_reclaiming_tasks_per_zone = 3\n",
		  &t);
	assert_true(v.completed && t.completed);
	assert_true(v.major_faults > t.major_faults);
	assert_true(metric(&v, "time")->value > metric(&t, "time")->value);
	assert_true(v.rstats.max_shrinking > 3);
	run_result_free(&v);
	run_result_free(&t);
}

/* Every arm under pressure, and both transports, with the invariant checker on. */
static void throttles_keep_invariants(void **state)
{
	(void)state;
	static const char *const arms[] = {
	    "",
	    "vm.max_reclaiming_tasks_per_zone = 3\n",
	    "vm.max_reclaiming_tasks = 2\n",
	    "vm.too_many_isolated = 1\n",
	    "vm.reclaim_throttle = 1\n",
	    "vm.max_reclaiming_tasks_per_zone = 1\nhackbench.ipc = pipes\n",
	    "hackbench.mode = thread\nhackbench.groups = 2\n",
	    "machine.swap = 32M\nvm.max_reclaiming_tasks_per_zone = 3\n",
	};
	for (size_t i = 0; i < sizeof(arms) / sizeof(arms[0]); i++) {
		struct run_result res;
		run_board(arms[i], &res);
		assert_true(res.wl.text[0] != 0);
		run_result_free(&res);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(ticket_limits_reclaimers),
	    cmocka_unit_test(small_machines_get_the_small_send_buffer),
	    cmocka_unit_test(rfc_limits_direct_reclaimers),
	    cmocka_unit_test(rfc_skips_reclaim_after_a_long_wait),
	    cmocka_unit_test(cut_off_condition),
	    cmocka_unit_test(pf_reclaiming_never_waits),
	    cmocka_unit_test(ticket_not_held_across_throttle_vm_writeout),
	    cmocka_unit_test(hackbench_deterministic),
	    cmocka_unit_test(throttles_keep_invariants),
	    cmocka_unit_test(skb_sizes_by_hand),
	    cmocka_unit_test(sndbuf_bounds_skbs_in_flight),
	    cmocka_unit_test(throttle_spares_swap),
	    cmocka_unit_test(isolated_throttles),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
