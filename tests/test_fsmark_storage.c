/* The storage of the writeback series' v2 machine: md RAID-0 striping (each chunk on one
 * member, round robin; congested while any member is) and swap on a disk of its own. */
#include "util/testutil.h"

#include "hw/blockdev.h"

static const struct disk_params disk = {
    .capacity_bytes = 10ULL << 30,
    .rpm = 7200,
    .seek_t2t_ns = 800000,
    .seek_full_ns = 17000000,
    .bandwidth_Bps = 100000000,
    .request_ns = 100000,
    .max_request_bytes = 512 * 1024,
    .nr_requests = 16,
};

static int completed;
static uint64_t done_sector[64];

static void done(struct bio *b)
{
	done_sector[completed++] = b->sector;
	bio_free(b->private, b);
}

static struct bio *page_bio(struct blockdev *bd, uint64_t sector)
{
	struct bio *b = bio_alloc(bd);
	b->sector = sector;
	b->nr_sectors = 8;
	b->rw = WRITE;
	b->end_io = done;
	b->private = bd;
	return b;
}

static void striping_maps_chunks_round_robin(void **state)
{
	(void)state;
	sched_init(1, 50000, 4000000, 1000);
	struct blockdev md;
	blockdev_init_striped(&md, "md0", &disk, 4, 64 * 1024, 1); /* 128-sector chunks */
	assert_int_equal(md.nr_sectors, 4 * ((10ULL << 30) >> SECTOR_SHIFT));
	completed = 0;
	/* chunk 0 -> member 0 at 0; chunk 1 -> member 1 at 0; chunk 5 -> member 1 at 128 */
	submit_bio(&md, page_bio(&md, 8));
	submit_bio(&md, page_bio(&md, 128 + 16));
	submit_bio(&md, page_bio(&md, 5 * 128 + 24));
	assert_int_equal(md.members[0].nr_queued[WRITE], 1);
	assert_int_equal(md.members[1].nr_queued[WRITE], 2);
	assert_int_equal(md.members[2].nr_queued[WRITE], 0);
	/* the member-relative sectors the disks saw */
	assert_int_equal(md.members[0].queue->sector, 8);
	assert_int_equal(md.members[1].queue->sector, 16);
	assert_int_equal(md.members[1].queue->next->sector, 128 + 24);
	sched_run(10ULL * NSEC_PER_SEC, NULL);
	assert_int_equal(completed, 3);
	assert_int_equal(md.members[1].stats.ios[WRITE], 2);
	/* the members work in parallel: two disks were busy, the whole took less than their sum */
	assert_true(md.members[0].stats.busy_ns > 0 && md.members[1].stats.busy_ns > 0);
	blockdev_destroy(&md);
	sched_destroy();
}

static int uncongested_calls;
static void on_uncongested(struct blockdev *bd, int rw)
{
	assert_int_equal(rw, WRITE);
	assert_non_null(bd->members); /* reported as the striped device */
	uncongested_calls++;
}

static void congested_while_any_member_is(void **state)
{
	(void)state;
	sched_init(1, 50000, 4000000, 1000);
	struct blockdev md;
	blockdev_init_striped(&md, "md0", &disk, 2, 64 * 1024, 1);
	md.uncongested = on_uncongested;
	completed = 0;
	uncongested_calls = 0;
	/* 16 slots: congested at 16 - 2 + 1 = 15 requests on one member (chunks 0, 2, 4, ...) */
	for (int i = 0; i < 14; i++)
		submit_bio(&md, page_bio(&md, (uint64_t)i * 2 * 128 * 50));
	assert_false(bdi_write_congested(&md));
	submit_bio(&md, page_bio(&md, 14ULL * 2 * 128 * 50));
	assert_true(md.members[0].congested[WRITE]);
	assert_false(md.members[1].congested[WRITE]);
	assert_true(bdi_write_congested(&md));
	assert_false(bdi_read_congested(&md));
	sched_run(10ULL * NSEC_PER_SEC, NULL);
	assert_int_equal(completed, 15);
	assert_false(bdi_write_congested(&md));
	/* member 0 frees 15 requests; below its off threshold 16 - 2 - 1 - 1 = 12 each of the
	 * last 12 clears and wakes */
	assert_int_equal(uncongested_calls, 12);
	blockdev_destroy(&md);
	sched_destroy();
}

static void v2_machine_has_raid0_and_a_swap_disk(void **state)
{
	(void)state;
	test_machine_boot("amd-2011-raid0", 512ULL << 20, 1ULL << 30, 0);
	assert_int_equal(MM->disk.nr_members, 4);
	assert_true(MM->swap.bdev == &MM->swap_disk);
	assert_int_equal(MM->swap_disk.nr_members, 0);
	/* the filesystem starts at the front of the array: no swap partition before it */
	assert_int_equal(MM->fs_next_sector, 2048);
	test_machine_shutdown();
	test_machine_boot("amd-2011", 512ULL << 20, 1ULL << 30, 0);
	assert_int_equal(MM->disk.nr_members, 0);
	assert_true(MM->swap.bdev == &MM->disk);
	assert_true(MM->fs_next_sector > (1ULL << 30) >> SECTOR_SHIFT);
	test_machine_shutdown();
}

/* The NFS-root desktop swaps to a disk of its own of another kind (2.6.30 cannot swap to
 * NFS): a 7200 rpm drive that seeks, where the NFS device has no seek; a run that swaps
 * writes and reads its pages there and none on the NFS device. */
static void nfsroot_swaps_to_a_local_disk(void **state)
{
	(void)state;
	test_machine_boot("x86_64-2009-nfsroot", 64ULL << 20, 128ULL << 20, 0);
	assert_true(MM->swap.bdev == &MM->swap_disk);
	assert_int_equal(MM->swap_disk.p.rpm, 7200);
	assert_int_equal(MM->disk.p.rpm, 0);
	assert_true(MM->swap_disk.p.write_request_ns < MM->swap_disk.p.request_ns);
	test_machine_shutdown();
	struct scenario_config cfg;
	test_scenario(&cfg, "machine.profile = x86_64-2009-nfsroot\n"
			    "machine.ram = 64M\n"
			    "machine.swap = 128M\n"
			    "workload = usemem\n"
			    "usemem.processes = 2\n"
			    "usemem.size = 32M\n"
			    "usemem.pattern = cyclic\n"
			    "usemem.loops = 2\n");
	struct run_result r;
	test_run(&cfg, 1, &r);
	assert_true(r.completed);
	assert_true(test_vmstat(&r, "pswpout") > 0 && test_vmstat(&r, "pswpin") > 0);
	/* pgpgin/pgpgout count the swap disk's bios: 4 KiB a page, nothing else (NFS) */
	assert_int_equal(test_vmstat(&r, "pgpgout"), 4 * test_vmstat(&r, "pswpout"));
	run_result_free(&r);
}

/* A small fs_mark on the v2 machine keeps every invariant. */
static void fsmark_runs_on_the_v2_machine(void **state)
{
	(void)state;
	struct scenario_config cfg;
	test_scenario(&cfg, "machine.profile = amd-2011-raid0\n"
			    "machine.ram = 64M\n"
			    "machine.swap = 64M\n"
			    "machine.cpus = 4\n"
			    "workload = fsmark\n"
			    "fsmark.files = 4\n"
			    "fsmark.loops = 2\n"
			    "fsmark.size = 8M\n"
			    "vm.dirty_ratio = 40\n");
	struct run_result r;
	test_run(&cfg, 1, &r);
	assert_true(r.completed);
	assert_true(test_vmstat(&r, "pgpgout") > 0);
	run_result_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(striping_maps_chunks_round_robin),
	    cmocka_unit_test(congested_while_any_member_is),
	    cmocka_unit_test(v2_machine_has_raid0_and_a_swap_disk),
	    cmocka_unit_test(nfsroot_swaps_to_a_local_disk),
	    cmocka_unit_test(fsmark_runs_on_the_v2_machine),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
