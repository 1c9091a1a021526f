/* 2.6.8's anticipatory I/O scheduler, function by function (drivers/block/as-iosched.c at
 * v2.6.8; docs/fidelity.md "Block layer"). The device's queue stays the one list sorted by
 * sector that blockdev.c keeps for merging; the scheduler's two sort lists (its rbtrees, one
 * per direction) are that list read one direction at a time, and its two FIFOs are chained
 * through the requests. */
#include "hw/as_iosched.h"

#include "hw/blockdev.h"
#include "sim/sched.h"
#include "sim/xalloc.h"

#include <stdlib.h>

enum { REQ_ASYNC = 0, REQ_SYNC = 1 };

#define MAXBACK	     (1024 * 1024) /* sectors the head may go back for a request */
#define BACK_PENALTY 2

static struct as_io_context *all_contexts;

static unsigned long jiffies_of(const struct as_data *ad, sim_time_t t)
{
	return (unsigned long)(t / (NSEC_PER_SEC / ad->hz));
}

static unsigned long jiffies_now(const struct as_data *ad)
{
	return jiffies_of(ad, local_now());
}

static bool time_after(unsigned long a, unsigned long b)
{
	return (long)(b - a) < 0;
}

void as_init(struct as_data *ad, unsigned hz)
{
	*ad = (struct as_data){.hz = hz ? hz : 1000};
	ad->fifo_expire[REQ_SYNC] = ad->hz / 8;	 /* default_read_expire */
	ad->fifo_expire[REQ_ASYNC] = ad->hz / 4; /* default_write_expire */
	ad->antic_expire = ad->hz / 150 ? ad->hz / 150 : 1;
	ad->batch_expire[REQ_SYNC] = ad->hz / 2;		/* default_read_batch_expire */
	ad->batch_expire[REQ_ASYNC] = ad->hz / 8;		/* default_write_batch_expire */
	ad->current_batch_expires = ad->batch_expire[REQ_SYNC]; /* jiffies is 0 at boot */
	ad->write_batch_count = (long)ad->batch_expire[REQ_ASYNC] / 10;
	if (ad->write_batch_count < 2)
		ad->write_batch_count = 2;
}

/* as_get_io_context: the current task's, made at its first request */
static struct as_io_context *as_get_io_context(void)
{
	struct task *t = sim_current;
	if (!t)
		return NULL;
	if (!t->io_context) {
		struct as_io_context *aic = xcalloc(1, sizeof(*aic));
		aic->running = true;
		aic->all_next = all_contexts;
		all_contexts = aic;
		t->io_context = aic;
	}
	return t->io_context;
}

void as_task_exit(struct task *t)
{
	struct as_io_context *aic = t->io_context;
	if (aic)
		aic->running = false; /* exit_as_io_context */
}

void as_free_all(void)
{
	while (all_contexts) {
		struct as_io_context *n = all_contexts->all_next;
		free(all_contexts);
		all_contexts = n;
	}
}

/* the queued requests of one direction in sector order: the rbtree's neighbours */
static struct request *rb_next_dir(struct request *r)
{
	struct request *n = r->next;
	while (n && n->is_sync != r->is_sync)
		n = n->next;
	return n;
}

static struct request *rb_prev_dir(struct request *r)
{
	struct request *p = r->prev;
	while (p && p->is_sync != r->is_sync)
		p = p->prev;
	return p;
}

static struct request *as_find_first_arq(struct blockdev *bd, int dir)
{
	struct request *r = bd->queue;
	while (r && r->is_sync != dir)
		r = r->next;
	return r;
}

/* How far the head goes from `last` to sector s: forward as is, backward up to MAXBACK at
 * twice the cost; further back it wraps (*wrap) */
static uint64_t head_distance(uint64_t last, uint64_t s, bool *wrap)
{
	*wrap = false;
	if (s >= last)
		return s - last;
	if (s + MAXBACK >= last)
		return (last - s) * BACK_PENALTY;
	*wrap = true;
	return 0;
}

/* as_choose_req: a one-way elevator but for backward seeks of up to MAXBACK sectors, which
 * cost twice a forward seek of the same length */
static struct request *as_choose_req(struct as_data *ad, struct request *a, struct request *b)
{
	if (!a || a == b)
		return b;
	if (!b)
		return a;
	uint64_t last = ad->last_sector[a->is_sync], s1 = a->sector, s2 = b->sector;
	bool w1, w2;
	uint64_t d1 = head_distance(last, s1, &w1), d2 = head_distance(last, s2, &w2);
	if (!w1 && w2)
		return a;
	if (!w2 && w1)
		return b;
	if (w1 && w2)
		return s1 <= s2 ? a : b;
	if (d1 != d2)
		return d1 < d2 ? a : b;
	return s1 >= s2 ? a : b;
}

static struct request *as_find_next_arq(struct blockdev *bd, struct request *last)
{
	struct request *next = rb_next_dir(last), *prev = rb_prev_dir(last);
	if (!next) {
		next = as_find_first_arq(bd, last->is_sync);
		if (next == last)
			next = NULL;
	}
	return as_choose_req(&bd->as, next, prev);
}

static bool as_antic_expired(struct as_data *ad)
{
	long delta = (long)(jiffies_now(ad) - ad->antic_start);
	if (delta < 0)
		delta = -delta;
	return (unsigned long)delta >= ad->antic_expire;
}

static void as_antic_timeout(void *arg, uint64_t gen);

static void as_antic_waitnext(struct blockdev *bd)
{
	struct as_data *ad = &bd->as;
	unsigned long timeout = ad->antic_start + ad->antic_expire;
	ad->antic_timer_gen++;
	ad->antic_timer_pending = true;
	sim_time_t when = (sim_time_t)timeout * (NSEC_PER_SEC / ad->hz);
	sched_callback_at(when > sim_clock ? when : sim_clock, as_antic_timeout, bd,
			  ad->antic_timer_gen);
	ad->antic_status = ANTIC_WAIT_NEXT;
}

static void as_antic_waitreq(struct blockdev *bd)
{
	struct as_data *ad = &bd->as;
	if (ad->antic_status == ANTIC_OFF) {
		if (!ad->io_context || ad->ioc_finished)
			as_antic_waitnext(bd);
		else
			ad->antic_status = ANTIC_WAIT_REQ;
	}
}

/* as_antic_stop: kblockd's as_work_handler runs the queue again */
static void as_antic_stop(struct blockdev *bd)
{
	struct as_data *ad = &bd->as;
	if (ad->antic_status == ANTIC_WAIT_REQ || ad->antic_status == ANTIC_WAIT_NEXT) {
		if (ad->antic_status == ANTIC_WAIT_NEXT)
			ad->antic_timer_pending = false; /* del_timer */
		ad->antic_status = ANTIC_FINISHED;
		blockdev_kick(bd);
	}
}

static void as_antic_timeout(void *arg, uint64_t gen)
{
	struct blockdev *bd = arg;
	struct as_data *ad = &bd->as;
	if (!ad->antic_timer_pending || gen != ad->antic_timer_gen)
		return;
	ad->antic_timer_pending = false;
	if (ad->antic_status == ANTIC_WAIT_REQ || ad->antic_status == ANTIC_WAIT_NEXT) {
		ad->antic_status = ANTIC_FINISHED;
		blockdev_kick(bd);
		if (ad->io_context->ttime_samples == 0)
			ad->exit_prob = (7 * ad->exit_prob + 256) / 8; /* exited or timed out */
	}
}

/* as_close_req: within a window around the last sector that widens with the wait */
static bool as_close_req(struct as_data *ad, const struct request *r)
{
	unsigned long delay; /* ms */
	uint64_t last = ad->last_sector[ad->batch_data_dir], next = r->sector, delta;
	if (ad->antic_status == ANTIC_OFF || !ad->ioc_finished)
		delay = 0;
	else
		delay = (jiffies_now(ad) - ad->antic_start) * 1000 / ad->hz;
	if (delay <= 1)
		delta = 64;
	else if (delay <= 20 && delay <= ad->antic_expire)
		delta = 64ULL << (delay - 1);
	else
		return true;
	return last - (delta >> 1) <= next && next <= last + delta;
}

static bool as_can_break_anticipation(struct as_data *ad, const struct request *r)
{
	struct as_io_context *aic = ad->io_context;
	if (r && aic == r->aic)
		return true; /* the process anticipated on */
	if (ad->ioc_finished && as_antic_expired(ad))
		return true;
	if (!aic)
		return false;
	if (!aic->running) {
		if (aic->ttime_samples == 0)
			ad->exit_prob = (7 * ad->exit_prob + 256) / 8;
		return true;
	}
	if (aic->nr_queued > 0 || aic->nr_dispatched > 0)
		return true;
	if (r && r->is_sync == REQ_SYNC && as_close_req(ad, r)) {
		/* a close request of another process resets our think time */
		aic->last_end_request = jiffies_now(ad);
		return true;
	}
	if (aic->ttime_samples == 0) {
		if (ad->new_ttime_mean > ad->antic_expire || ad->exit_prob > 128)
			return true;
	} else if (aic->ttime_mean > ad->antic_expire) {
		return true; /* it thinks too long between requests */
	}
	if (!r)
		return false;
	uint64_t last = ad->last_sector[REQ_SYNC];
	uint64_t s = last < r->sector ? r->sector - last : last - r->sector;
	return (aic->seek_samples == 0 ? ad->new_seek_mean : aic->seek_mean) > s;
}

static bool as_can_anticipate(struct as_data *ad, const struct request *r)
{
	if (!ad->io_context) /* the last request was a write */
		return false;
	if (ad->antic_status == ANTIC_FINISHED)
		return false;
	return !as_can_break_anticipation(ad, r);
}

/* fixed point: 1.0 is 256 */
static void as_update_thinktime(struct as_data *ad, struct as_io_context *aic, unsigned long ttime)
{
	if (aic->ttime_samples == 0) {
		ad->new_ttime_total = (7 * ad->new_ttime_total + 256 * ttime) / 8;
		ad->new_ttime_mean = ad->new_ttime_total / 256;
		ad->exit_prob = (7 * ad->exit_prob) / 8;
	}
	aic->ttime_samples = (7 * aic->ttime_samples + 256) / 8;
	aic->ttime_total = (7 * aic->ttime_total + 256 * ttime) / 8;
	aic->ttime_mean = (aic->ttime_total + 128) / aic->ttime_samples;
}

static void as_update_seekdist(struct as_data *ad, struct as_io_context *aic, uint64_t sdist)
{
	if (aic->seek_samples == 0) {
		ad->new_seek_total = (7 * ad->new_seek_total + 256 * sdist) / 8;
		ad->new_seek_mean = ad->new_seek_total / 256;
	}
	/* the odd fragment or pagein must not make the mean too large */
	uint64_t cap =
	    aic->seek_mean * 4 + (aic->seek_samples <= 60 ? 2 * 1024 * 1024 : 2 * 1024 * 64);
	if (sdist > cap)
		sdist = cap;
	aic->seek_samples = (7 * aic->seek_samples + 256) / 8;
	aic->seek_total = (7 * aic->seek_total + 256 * sdist) / 8;
	aic->seek_mean = (aic->seek_total + aic->seek_samples / 2) / aic->seek_samples;
}

#define MAX_THINKTIME(ad) ((ad)->hz / 50UL)

static void as_update_iohist(struct as_data *ad, struct as_io_context *aic, const struct request *r)
{
	if (!aic || r->is_sync != REQ_SYNC)
		return;
	unsigned in_flight = aic->nr_queued + aic->nr_dispatched;
	if (aic->io_running || aic->io_started) {
		unsigned long thinktime = 0;
		if (aic->io_running && in_flight == 0) {
			thinktime = jiffies_now(ad) - aic->last_end_request;
			if (thinktime > MAX_THINKTIME(ad) - 1)
				thinktime = MAX_THINKTIME(ad) - 1;
		}
		as_update_thinktime(ad, aic, thinktime);
		uint64_t pos = aic->last_request_pos;
		as_update_seekdist(ad, aic, pos < r->sector ? r->sector - pos : pos - r->sector);
	}
	aic->last_request_pos = r->sector + r->nr_sectors;
	aic->io_started = true;
}

static void fifo_add_tail(struct as_data *ad, struct request *r)
{
	int d = r->is_sync;
	r->fifo_next = NULL;
	r->fifo_prev = ad->fifo_tail[d];
	if (ad->fifo_tail[d])
		ad->fifo_tail[d]->fifo_next = r;
	else
		ad->fifo_head[d] = r;
	ad->fifo_tail[d] = r;
}

static void fifo_del(struct as_data *ad, struct request *r)
{
	int d = r->is_sync;
	if (r->fifo_prev)
		r->fifo_prev->fifo_next = r->fifo_next;
	else
		ad->fifo_head[d] = r->fifo_next;
	if (r->fifo_next)
		r->fifo_next->fifo_prev = r->fifo_prev;
	else
		ad->fifo_tail[d] = r->fifo_prev;
	r->fifo_next = r->fifo_prev = NULL;
}

void as_add_request(struct blockdev *bd, struct request *r)
{
	struct as_data *ad = &bd->as;
	r->is_sync = r->rw == READ; /* PF_SYNCWRITE writes (fsync, O_SYNC) are not modelled */
	r->aic = as_get_io_context();
	if (r->aic) {
		as_update_iohist(ad, r->aic, r);
		r->aic->nr_queued++;
	}
	r->expires = jiffies_now(ad) + ad->fifo_expire[r->is_sync];
	fifo_add_tail(ad, r);
	/* as_update_arq */
	ad->next_arq[r->is_sync] = as_choose_req(ad, r, ad->next_arq[r->is_sync]);
	if (ad->antic_status == ANTIC_WAIT_REQ || ad->antic_status == ANTIC_WAIT_NEXT) {
		if (as_can_break_anticipation(ad, r))
			as_antic_stop(bd);
	}
}

static void update_write_batch(struct as_data *ad)
{
	long batch = (long)ad->batch_expire[REQ_ASYNC];
	long write_time = (long)(jiffies_now(ad) - ad->current_batch_expires) + batch;
	if (write_time < 0)
		write_time = 0;
	if (write_time > batch && !ad->write_batch_idled) {
		if (write_time > batch * 3)
			ad->write_batch_count /= 2;
		else
			ad->write_batch_count--;
	} else if (write_time < batch && ad->current_write_count == 0) {
		if (batch > write_time * 3)
			ad->write_batch_count *= 2;
		else
			ad->write_batch_count++;
	}
	if (ad->write_batch_count < 1)
		ad->write_batch_count = 1;
}

void as_completed_request(struct blockdev *bd, struct request *r)
{
	struct as_data *ad = &bd->as;
	if (ad->changed_batch && ad->nr_dispatched == 1) {
		blockdev_kick(bd);
		ad->changed_batch = false;
		if (ad->batch_data_dir == REQ_SYNC)
			ad->new_batch = true;
	}
	ad->nr_dispatched--;
	/* the batch counts from when its first request is served */
	if (ad->new_batch && ad->batch_data_dir == r->is_sync) {
		update_write_batch(ad);
		ad->current_batch_expires = jiffies_now(ad) + ad->batch_expire[REQ_SYNC];
		ad->new_batch = false;
	}
	if (ad->io_context && ad->io_context == r->aic) {
		ad->antic_start = jiffies_now(ad);
		ad->ioc_finished = true;
		if (ad->antic_status == ANTIC_WAIT_REQ)
			as_antic_waitnext(bd); /* now anticipate the next one */
	}
	if (r->aic) {
		r->aic->nr_dispatched--; /* as_remove_dispatched_request */
		if (r->is_sync == REQ_SYNC) {
			r->aic->io_running = true;
			r->aic->last_end_request = jiffies_now(ad);
		}
		r->aic = NULL;
	}
}

static bool as_fifo_expired(struct as_data *ad, int dir)
{
	unsigned long now = jiffies_now(ad);
	long delta = (long)(now - ad->last_check_fifo[dir]);
	if (delta < 0)
		delta = -delta;
	if ((unsigned long)delta < ad->fifo_expire[dir])
		return false;
	ad->last_check_fifo[dir] = now;
	if (!ad->fifo_head[dir])
		return false;
	return time_after(now, ad->fifo_head[dir]->expires);
}

static bool as_batch_expired(struct as_data *ad)
{
	if (ad->changed_batch || ad->new_batch)
		return false;
	if (ad->batch_data_dir == REQ_SYNC)
		return time_after(jiffies_now(ad), ad->current_batch_expires);
	return time_after(jiffies_now(ad), ad->current_batch_expires) ||
	       ad->current_write_count == 0;
}

static void as_move_to_dispatch(struct blockdev *bd, struct request *r)
{
	struct as_data *ad = &bd->as;
	int dir = r->is_sync;
	as_antic_stop(bd);
	ad->antic_status = ANTIC_OFF;
	ad->last_sector[dir] = r->sector + r->nr_sectors;
	if (dir == REQ_SYNC) {
		ad->io_context = r->aic; /* in case we anticipate after it */
	} else {
		ad->io_context = NULL;
		if (ad->current_write_count != 0)
			ad->current_write_count--;
	}
	ad->ioc_finished = false;
	ad->next_arq[dir] = as_find_next_arq(bd, r); /* never r itself */
	/* as_remove_queued_request */
	if (r->aic)
		r->aic->nr_queued--;
	fifo_del(ad, r);
	blockdev_queue_remove(bd, r);
	if (r->aic)
		r->aic->nr_dispatched++;
	ad->nr_dispatched++;
}

/* as_next_request with as_dispatch_request: the device takes each request as it is chosen,
 * so the dispatch list is never more than that one and the two are one function here */
struct request *as_next_request(struct blockdev *bd)
{
	struct as_data *ad = &bd->as;
	struct request *r;
	bool reads = ad->fifo_head[REQ_SYNC], writes = ad->fifo_head[REQ_ASYNC];
	/* the write batch was uncontended: it cannot be timed */
	if (ad->batch_data_dir == REQ_ASYNC && !reads) {
		if (ad->current_write_count == 0 || !writes)
			ad->write_batch_idled = true;
	}
	if (!(reads || writes) || ad->antic_status == ANTIC_WAIT_REQ ||
	    ad->antic_status == ANTIC_WAIT_NEXT || ad->changed_batch)
		return NULL;
	if (!(reads && writes && as_batch_expired(ad))) {
		/* the batch goes on, or there are only reads or only writes */
		r = ad->next_arq[ad->batch_data_dir];
		if (ad->batch_data_dir == REQ_SYNC && ad->antic_expire) {
			if (as_fifo_expired(ad, REQ_SYNC))
				goto fifo_expired;
			if (as_can_anticipate(ad, r)) {
				as_antic_waitreq(bd);
				return NULL;
			}
		}
		if (r) {
			if (reads && !writes)
				ad->current_batch_expires =
				    jiffies_now(ad) + ad->batch_expire[REQ_SYNC];
			goto dispatch_request;
		}
	}
	/* no batch running: choose the direction */
	if (reads) {
		if (writes && ad->batch_data_dir == REQ_SYNC)
			goto dispatch_writes; /* the last batch was reads */
		if (ad->batch_data_dir == REQ_ASYNC)
			ad->changed_batch = true;
		ad->batch_data_dir = REQ_SYNC;
		r = ad->fifo_head[REQ_SYNC];
		ad->last_check_fifo[REQ_SYNC] = jiffies_now(ad);
		goto dispatch_request;
	}
dispatch_writes:
	if (ad->batch_data_dir == REQ_SYNC) {
		ad->changed_batch = true;
		ad->new_batch = false;
	}
	ad->batch_data_dir = REQ_ASYNC;
	ad->current_write_count = ad->write_batch_count;
	ad->write_batch_idled = false;
	r = ad->next_arq[REQ_ASYNC];
dispatch_request:
	if (as_fifo_expired(ad, ad->batch_data_dir)) {
	fifo_expired:
		r = ad->fifo_head[ad->batch_data_dir];
	}
	if (ad->changed_batch) {
		if (ad->nr_dispatched)
			return NULL;
		if (ad->batch_data_dir == REQ_ASYNC)
			ad->current_batch_expires = jiffies_now(ad) + ad->batch_expire[REQ_ASYNC];
		else
			ad->new_batch = true;
		ad->changed_batch = false;
	}
	as_move_to_dispatch(bd, r);
	return r;
}
