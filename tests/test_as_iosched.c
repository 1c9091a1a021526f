/* 2.6.8's anticipatory I/O scheduler (hw/as_iosched.c) against hand-built situations whose
 * outcome follows from as-iosched.c's rules: a disk without rotation, so every service time
 * is the seek + 100 us a request + 80 us per 8 sectors, to within a microsecond, on a 1000 Hz
 * machine. */
#include "util/testutil.h"

#include "hw/blockdev.h"

#include <string.h>

static const struct disk_params disk = {
    .capacity_bytes = 100ULL << 30,
    .rpm = 60000000, /* a rotation of 1 us: seeks as a disk's, rotation negligible */
    .seek_t2t_ns = 1000000,
    .seek_full_ns = 21000000,
    .bandwidth_Bps = 51200000, /* 80 us per 4 KiB */
    .request_ns = 100000,
    .max_request_bytes = 64 * 1024,
    .nr_requests = 32,
};

struct reader {
	const char *name;
	uint64_t first;	  /* its first sector */
	int64_t stride;	  /* from one read's sector to the next's (0: the next 8 sectors) */
	int reads;	  /* how many it makes, one after the other */
	sim_time_t think; /* between a read's end and the next one */
	sim_time_t start; /* when it submits its first */
	int rw;		  /* READ (0) or WRITE */
	struct waitqueue wq;
	bool done;
	sim_time_t end[256]; /* each read's completion */
	int nr;
};

static struct blockdev bd;
static char log_[256];
static int log_len;

static void read_done(struct bio *b)
{
	struct reader *r = (struct reader *)(uintptr_t)b->private2;
	if (r->nr < 256)
		r->end[r->nr] = sim_clock;
	r->nr++;
	if (log_len < (int)sizeof(log_) - 1)
		log_[log_len++] = r->name[0];
	r->done = true;
	bio_free(&bd, b);
	wake_up_all(&r->wq);
}

static void reader_main(void *arg)
{
	struct reader *r = arg;
	if (r->start)
		schedule_timeout(r->start);
	for (int i = 0; i < r->reads; i++) {
		struct bio *b = bio_alloc(&bd);
		b->sector = r->first + (uint64_t)((r->stride ? r->stride : 8) * i);
		b->nr_sectors = 8;
		b->rw = (uint8_t)r->rw;
		b->end_io = read_done;
		b->private2 = (uint64_t)(uintptr_t)r;
		r->done = false;
		submit_bio(&bd, b);
		while (!r->done)
			sleep_on(&r->wq, 0, false);
		if (r->think && i + 1 < r->reads)
			schedule_timeout(r->think);
	}
}

static void run(enum elevator_kind e, struct reader *a, struct reader *b)
{
	sched_init(1, 50000, 4000000, 1000);
	blockdev_init(&bd, "t", &disk, 1);
	blockdev_set_elevator(&bd, e, 1000);
	log_len = 0;
	memset(log_, 0, sizeof(log_));
	task_start(task_create(a->name, reader_main, a));
	task_start(task_create(b->name, reader_main, b));
	sched_run(10ULL * NSEC_PER_SEC, NULL);
	assert_int_equal(a->nr, a->reads);
	assert_int_equal(b->nr, b->reads);
	blockdev_destroy(&bd);
	as_free_all();
	sched_destroy();
}

/* A makes 40 reads with no think time, each 500,000 sectors before the last (a backward
 * stride, within MAXBACK); B wants one read far ahead, from 1 ms on. The one-way elevator
 * goes on forward from A's read to B's. AS anticipates A after each of its reads (its think
 * time is 0, its mean seek of 500,000 sectors is shorter than the way to B's read), and
 * A's next read comes from A, so A's 40 reads run back to back before B's, whose FIFO
 * deadline (125 ms) is not reached. */
static void anticipation_serves_a_stream_in_a_run(void **state)
{
	(void)state;
	struct reader a = {.name = "A", .first = 50000000, .stride = -500000, .reads = 40};
	struct reader b = {.name = "B", .first = 100000000, .reads = 1, .start = NSEC_PER_MSEC};
	run(ELEVATOR_CLOOK, &a, &b);
	assert_true(log_[0] == 'A' && log_[1] == 'B');
	struct reader a2 = {.name = "A", .first = 50000000, .stride = -500000, .reads = 40};
	struct reader b2 = {.name = "B", .first = 100000000, .reads = 1, .start = NSEC_PER_MSEC};
	run(ELEVATOR_AS, &a2, &b2);
	for (int i = 0; i < 40; i++)
		assert_int_equal(log_[i], 'A');
	assert_int_equal(log_[40], 'B');
	assert_true(a2.end[39] < 125 * NSEC_PER_MSEC);
}

/* A makes 200 reads 2 ms apart (about 440 ms): its mean think time stays within
 * antic_expire (a first sample of 2 jiffies gives (64 + 128) / 32 = 6, as_update_thinktime's
 * rounding; 5 would give 9), so AS waits for A every time. B's one read waits past its deadline:
 * the FIFO is looked at only when fifo_expire (125 jiffies) has passed since the last look, which
 * the read batch took at time 0; at 125 the deadline (0 + 125) has not passed (time_after), so the
 * next look is at 250, when B's read is the next dispatched. */
static void fifo_is_checked_every_read_expire(void **state)
{
	(void)state;
	struct reader a = {.name = "A", .first = 1000, .reads = 200, .think = 2 * NSEC_PER_MSEC};
	struct reader b = {.name = "B", .first = 8000000, .reads = 1, .start = NSEC_PER_MSEC / 2};
	run(ELEVATOR_AS, &a, &b);
	assert_true(b.end[0] >= 250 * NSEC_PER_MSEC);
	assert_true(b.end[0] < 260 * NSEC_PER_MSEC);
	assert_true(a.end[100] < b.end[0]);
}

/* A thinks 30 ms between its reads: from its second read on its mean think time (19
 * jiffies, MAX_THINKTIME − 1, capped) exceeds antic_expire (6), so AS does not wait for it.
 * B submits one far read 1 ms after A's fifth read ended: it is dispatched at once, not
 * after the 6 ms an anticipation of A would hold the disk. */
static void a_thinker_is_not_anticipated(void **state)
{
	(void)state;
	/* A's reads end at 0.18, 30.36, 60.54, 90.72, 120.90 ms (+ context switches) */
	struct reader a = {.name = "A", .first = 1000, .reads = 6, .think = 30 * NSEC_PER_MSEC};
	struct reader b = {.name = "B", .first = 8000000, .reads = 1, .start = 122 * NSEC_PER_MSEC};
	run(ELEVATOR_AS, &a, &b);
	assert_true(b.end[0] > a.end[4] + NSEC_PER_MSEC);
	/* a seek of 1 + 20 * sqrt(8e6 / 209715200) = 4.906 ms, 0.1 + 0.08 ms more; waiting
	 * out an anticipation would add 3 ms or more */
	sim_time_t service = b.end[0] - (sim_time_t)122 * NSEC_PER_MSEC;
	assert_true(service < 5500 * NSEC_PER_USEC);
	/* the same B against a streaming A (think 0) waits for A's run to end */
	struct reader a2 = {.name = "A", .first = 1000, .reads = 60, .think = 0};
	struct reader b2 = {.name = "B", .first = 8000000, .reads = 1, .start = 5 * NSEC_PER_MSEC};
	run(ELEVATOR_AS, &a2, &b2);
	assert_true(b2.end[0] > a2.end[59]);
}

/* A's first read has ended and A thinks 5 ms before its next; B's read 16 sectors past A's
 * arrives at 2 ms. It is "close" (as_close_req: within 64 sectors ahead or 32 behind the
 * last, at the start of a wait), so it breaks the anticipation of A at once: dispatched at
 * 2 ms, done by 3.2 (a track-to-track seek, 1 ms, and 0.18). Without that rule AS would wait
 * for A until antic_expire after A's read ended (about 7 ms). */
static void a_close_read_breaks_anticipation(void **state)
{
	(void)state;
	struct reader a = {.name = "A", .first = 1000, .reads = 2, .think = 5 * NSEC_PER_MSEC};
	struct reader b = {.name = "B", .first = 1024, .reads = 1, .start = 2 * NSEC_PER_MSEC};
	run(ELEVATOR_AS, &a, &b);
	assert_true(a.end[0] < 2 * NSEC_PER_MSEC);
	assert_true(b.end[0] < 3500 * NSEC_PER_USEC);
	struct reader a2 = {.name = "A", .first = 1000, .reads = 2, .think = 5 * NSEC_PER_MSEC};
	struct reader b2 = {.name = "B", .first = 9000000, .reads = 1, .start = 2 * NSEC_PER_MSEC};
	run(ELEVATOR_AS, &a2, &b2); /* a far one waits out the anticipation */
	assert_true(b2.end[0] > 7 * NSEC_PER_MSEC);
}

/* A streams reads with no think time for 4000 reads (about 0.7 s); W queues one write at
 * 1 ms. The read batch runs from A's first completion for read_batch_expire (500 jiffies);
 * at the first dispatch after it has expired, with both directions queued, the last batch
 * having been reads, AS switches to a write batch (write_batch_count 12, 125 jiffies) and
 * the write goes out, about 500 ms after it was queued. The one-way elevator serves it after
 * the whole stream, which stays between the head and the write. */
static void reads_and_writes_alternate_in_batches(void **state)
{
	(void)state;
	struct reader a = {.name = "A", .first = 1000, .reads = 4000};
	struct reader w = {
	    .name = "W", .first = 5000000, .reads = 1, .start = NSEC_PER_MSEC, .rw = WRITE};
	run(ELEVATOR_AS, &a, &w);
	assert_true(w.end[0] >= 500 * NSEC_PER_MSEC);
	assert_true(w.end[0] < 510 * NSEC_PER_MSEC);
	struct reader a2 = {.name = "A", .first = 1000, .reads = 4000};
	struct reader w2 = {
	    .name = "W", .first = 5000000, .reads = 1, .start = NSEC_PER_MSEC, .rw = WRITE};
	run(ELEVATOR_CLOOK, &a2, &w2);
	assert_true(w2.end[0] > 700 * NSEC_PER_MSEC); /* behind the whole stream, ahead of it */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(anticipation_serves_a_stream_in_a_run),
	    cmocka_unit_test(fifo_is_checked_every_read_expire),
	    cmocka_unit_test(a_thinker_is_not_anticipated),
	    cmocka_unit_test(reads_and_writes_alternate_in_batches),
	    cmocka_unit_test(a_close_read_breaks_anticipation),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
