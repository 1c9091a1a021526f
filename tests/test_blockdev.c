/* The block device: service time, merging of adjacent requests, the elevator's order,
 * request slots and the congestion thresholds. */
#include "util/testutil.h"

#include "hw/blockdev.h"

static const struct disk_params disk = {
    .capacity_bytes = 100ULL << 30,
    .rpm = 6000, /* 10 ms per rotation */
    .seek_t2t_ns = 1000000,
    .seek_full_ns = 21000000,
    .bandwidth_Bps = 51200000, /* 100 us per 4 KiB... 4096*1e9/51.2e6 = 80000 ns */
    .request_ns = 100000,
    .max_request_bytes = 64 * 1024,
    .nr_requests = 32,
};

static void service_time(void **state)
{
	(void)state;
	struct blockdev bd;
	blockdev_init(&bd, "t", &disk, 1);
	/* sequential: overhead + transfer only */
	assert_int_equal(blockdev_service_ns(&bd, READ, 800, 800, 8, 5000000), 100000 + 80000);
	/* a full-stroke seek: t2t + (full - t2t) * 1 + rotation */
	uint64_t end = bd.nr_sectors;
	assert_int_equal(blockdev_service_ns(&bd, READ, 0, end, 8, 5000000),
			 100000 + 21000000 + 5000000 + 80000);
	/* a quarter of the disk: sqrt(1/4) = 1/2 of the way from t2t to full */
	sim_time_t q = blockdev_service_ns(&bd, READ, 0, end / 4, 8, 0);
	assert_true(q >= 100000 + 11000000 + 80000 - 100 && q <= 100000 + 11000000 + 80000 + 100);
	/* a disk without write figures writes as it reads */
	assert_int_equal(blockdev_service_ns(&bd, WRITE, 800, 800, 8, 5000000), 100000 + 80000);
	blockdev_destroy(&bd);
}

/* A flash card whose writes are slower: a write takes its own request cost and rate, a read
 * the read figures; each write figure alone falls back to the read one. */
static void write_figures(void **state)
{
	(void)state;
	struct disk_params card = disk;
	card.rpm = 0;
	card.write_request_ns = 2000000;
	card.write_bandwidth_Bps = 4096000; /* 4 KiB in 1 ms */
	struct blockdev bd;
	blockdev_init(&bd, "c", &card, 1);
	assert_int_equal(blockdev_service_ns(&bd, READ, 0, 800, 8, 0), 100000 + 80000);
	assert_int_equal(blockdev_service_ns(&bd, WRITE, 0, 800, 8, 0), 2000000 + 1000000);
	blockdev_destroy(&bd);
	card.write_bandwidth_Bps = 0;
	blockdev_init(&bd, "c", &card, 1);
	assert_int_equal(blockdev_service_ns(&bd, WRITE, 0, 800, 8, 0), 2000000 + 80000);
	blockdev_destroy(&bd);
	card.write_bandwidth_Bps = 4096000;
	card.write_request_ns = 0;
	blockdev_init(&bd, "c", &card, 1);
	assert_int_equal(blockdev_service_ns(&bd, WRITE, 0, 800, 8, 0), 100000 + 1000000);
	blockdev_destroy(&bd);
}

static int completed;
static uint64_t order[64];

static void done(struct bio *b)
{
	order[completed++] = b->sector;
	bio_free(b->private, b);
}

static struct bio *mkbio(struct blockdev *bd, uint64_t sector, int rw)
{
	struct bio *b = bio_alloc(bd);
	b->sector = sector;
	b->nr_sectors = 8;
	b->rw = (uint8_t)rw;
	b->end_io = done;
	b->private = bd;
	return b;
}

static int uncongested_calls;
static void on_uncongested(struct blockdev *bd, int rw)
{
	(void)bd;
	(void)rw;
	uncongested_calls++;
}

static void merging_and_elevator(void **state)
{
	(void)state;
	sched_init(1, 50000, 4000000, 1000);
	struct blockdev bd;
	blockdev_init(&bd, "t", &disk, 1);
	completed = 0;
	/* a burst: 4 adjacent writes (one merged request), and two reads further out */
	submit_bio(&bd, mkbio(&bd, 1000, WRITE));
	submit_bio(&bd, mkbio(&bd, 1008, WRITE));
	submit_bio(&bd, mkbio(&bd, 992, WRITE)); /* front merge */
	submit_bio(&bd, mkbio(&bd, 1016, WRITE));
	submit_bio(&bd, mkbio(&bd, 500000, READ));
	submit_bio(&bd, mkbio(&bd, 200, READ));
	assert_int_equal(bd.stats.merges[WRITE], 3);
	assert_int_equal(bd.nr_queued[WRITE], 1);
	sched_run(10ULL * NSEC_PER_SEC, NULL);
	assert_int_equal(completed, 6);
	/* one-way elevator from head 0: 200, then the merged 992..1023, then 500000 */
	assert_int_equal(order[0], 200);
	assert_int_equal(order[1], 992);
	assert_int_equal(order[4], 1016); /* the merged request completes its bios in order */
	assert_int_equal(order[5], 500000);
	assert_int_equal(bd.stats.ios[WRITE], 1);
	assert_int_equal(bd.stats.sectors[WRITE], 32);
	blockdev_destroy(&bd);
	sched_destroy();
}

/* Two queued writes end at the same sector: the next bio merges onto the first in queue
 * order; once that one is full (64 KiB), onto the second. */
static void merge_candidate_order(void **state)
{
	(void)state;
	sched_init(1, 50000, 4000000, 1000);
	struct blockdev bd;
	blockdev_init(&bd, "t", &disk, 1);
	completed = 0;
	submit_bio(&bd, mkbio(&bd, 1000, WRITE));
	submit_bio(&bd, mkbio(&bd, 1000, WRITE)); /* no merge: a second request at 1000 */
	assert_int_equal(bd.nr_queued[WRITE], 2);
	struct request *a = bd.queue, *b = bd.queue->next;
	for (int i = 1; i < 16; i++) /* a grows to 128 sectors */
		submit_bio(&bd, mkbio(&bd, 1000 + 8 * (uint64_t)i, WRITE));
	assert_int_equal(a->nr_sectors, 128);
	assert_int_equal(b->nr_sectors, 8);
	submit_bio(&bd, mkbio(&bd, 1008, WRITE));
	assert_int_equal(b->nr_sectors, 16);
	/* a front merge onto the request starting where the bio ends */
	submit_bio(&bd, mkbio(&bd, 1128 + 64, WRITE));
	submit_bio(&bd, mkbio(&bd, 1128 + 56, WRITE));
	assert_int_equal(bd.nr_queued[WRITE], 3);
	assert_int_equal(bd.queue->next->next->sector, 1128 + 56);
	assert_int_equal(bd.stats.merges[WRITE], 17);
	sched_run(10ULL * NSEC_PER_SEC, NULL);
	assert_int_equal(completed, 20);
	blockdev_destroy(&bd);
	sched_destroy();
}

static void congestion_thresholds(void **state)
{
	(void)state;
	sched_init(1, 50000, 4000000, 1000);
	struct blockdev bd;
	blockdev_init(&bd, "t", &disk, 1);
	bd.uncongested = on_uncongested;
	completed = 0;
	uncongested_calls = 0;
	/* 32 slots: congested at 32 - 4 + 1 = 29 queued, clear below 32 - 4 - 2 - 1 = 25 */
	for (int i = 0; i < 28; i++)
		submit_bio(&bd, mkbio(&bd, (uint64_t)i * 100000, WRITE));
	assert_false(bdi_write_congested(&bd));
	submit_bio(&bd, mkbio(&bd, 28ULL * 100000, WRITE));
	assert_true(bdi_write_congested(&bd));
	assert_false(bdi_read_congested(&bd));
	sched_run(10ULL * NSEC_PER_SEC, NULL);
	assert_int_equal(completed, 29);
	assert_false(bdi_write_congested(&bd));
	/* __freed_request clears (and wakes) for every request freed below 25: the 25
	 * completions that leave 24, 23, ..., 0 queued */
	assert_int_equal(uncongested_calls, 25);
	blockdev_destroy(&bd);
	sched_destroy();
}

static void rotation_depends_on_seed(void **state)
{
	(void)state;
	sim_time_t busy[2];
	for (int s = 0; s < 2; s++) {
		sched_init(1, 50000, 4000000, 1000);
		struct blockdev bd;
		blockdev_init(&bd, "t", &disk, (uint64_t)s + 1);
		completed = 0;
		for (int i = 0; i < 10; i++)
			submit_bio(&bd, mkbio(&bd, (uint64_t)i * 1000000, READ));
		sched_run(10ULL * NSEC_PER_SEC, NULL);
		busy[s] = bd.stats.busy_ns;
		blockdev_destroy(&bd);
		sched_destroy();
	}
	assert_true(busy[0] != busy[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(service_time),	     cmocka_unit_test(write_figures),
	    cmocka_unit_test(merging_and_elevator),  cmocka_unit_test(merge_candidate_order),
	    cmocka_unit_test(congestion_thresholds), cmocka_unit_test(rotation_depends_on_seed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
