/* The anticipatory I/O scheduler of 2.6.8 (drivers/block/as-iosched.c), the default elevator
 * of 2.6.0 to 2.6.17 (ll_rw_blk.c's chosen_elevator), run by a blockdev when its elevator is
 * ELEVATOR_AS. It promises what as-iosched.c does: reads are served in batches of up to
 * read_batch_expire, writes in batches of write_batch_count requests (resized by how long a
 * batch took), a request whose FIFO deadline has passed is served next, and after a read
 * completes the disk may stay idle up to antic_expire waiting for the same task's next read,
 * judged by that task's mean think time and seek distance. Times are in the machine's
 * jiffies. */
#ifndef MMSIM_HW_AS_IOSCHED_H
#define MMSIM_HW_AS_IOSCHED_H

#include <stdbool.h>
#include <stdint.h>

struct blockdev;
struct request;
struct task;

/* as_io_context: one per task that has submitted I/O (the kernel's io_context->aic), shared
 * by every queue; it outlives its task while requests hold it */
struct as_io_context {
	bool running; /* AS_TASK_RUNNING: the task has not exited */
	bool io_started, io_running;
	unsigned nr_queued, nr_dispatched;
	unsigned long last_end_request; /* jiffies */
	uint64_t last_request_pos;
	unsigned long ttime_total, ttime_samples, ttime_mean;
	uint64_t seek_total;
	unsigned long seek_samples;
	uint64_t seek_mean;
	struct as_io_context *all_next; /* every context, for the teardown */
};

enum as_antic_status { ANTIC_OFF, ANTIC_WAIT_REQ, ANTIC_WAIT_NEXT, ANTIC_FINISHED };

struct as_data {
	struct request *fifo_head[2], *fifo_tail[2]; /* [is_sync], by arrival */
	struct request *next_arq[2];
	uint64_t last_sector[2];
	unsigned long exit_prob;
	unsigned long new_ttime_total, new_ttime_mean;
	uint64_t new_seek_total, new_seek_mean;
	unsigned long current_batch_expires;
	unsigned long last_check_fifo[2];
	bool changed_batch, new_batch;
	int batch_data_dir;
	long write_batch_count, current_write_count;
	bool write_batch_idled;
	enum as_antic_status antic_status;
	unsigned long antic_start;
	uint64_t antic_timer_gen; /* a pending antic_timer fires only if still current */
	bool antic_timer_pending;
	struct as_io_context *io_context; /* the task anticipated on */
	bool ioc_finished;
	unsigned nr_dispatched;
	unsigned long fifo_expire[2], batch_expire[2], antic_expire;
	unsigned hz;
};

/* as_init for a queue on a machine of `hz` jiffies a second */
void as_init(struct as_data *ad, unsigned hz);
/* as_add_request: r has just been put in the device's sorted queue by the current task */
void as_add_request(struct blockdev *bd, struct request *r);
/* as_next_request: the request to start now, taken off the queue, or NULL (nothing, or the
 * scheduler is anticipating: it calls the device's dispatch again when that ends) */
struct request *as_next_request(struct blockdev *bd);
/* as_completed_request: r has completed and its bios have ended */
void as_completed_request(struct blockdev *bd, struct request *r);
/* exit_as_io_context for a task that exits */
void as_task_exit(struct task *t);
/* frees every context (machine teardown) */
void as_free_all(void);

#endif
