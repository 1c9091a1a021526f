/* The block device of blockdev.h: the request queue of the 2.6.2x block layer (request slots
 * as get_request_wait, back and front merging, blk_queue_congestion_threshold), the one-way
 * elevator, the service-time model, and md RAID-0 striping over member disks (raid0.c). */
#include "hw/blockdev.h"
#include "sim/int_sqrt.h"
#include "sim/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Block-layer congestion thresholds (blk_queue_congestion_threshold, 2.6.2x):
 * on at nr - nr/8 + 1 requests, off below nr - nr/8 - nr/16 - 1. */
static unsigned congestion_on(const struct blockdev *bd)
{
	unsigned n = bd->p.nr_requests;
	unsigned on = n - n / 8 + 1;
	return on > n ? n : on;
}

static unsigned congestion_off(const struct blockdev *bd)
{
	unsigned n = bd->p.nr_requests;
	unsigned off = n - n / 8 - n / 16 - 1;
	return off < 1 ? 1 : off;
}

void blockdev_init(struct blockdev *bd, const char *name, const struct disk_params *p,
		   uint64_t seed)
{
	memset(bd, 0, sizeof(*bd));
	rng_seed(&bd->rotation, seed, 0xd15c);
	snprintf(bd->name, sizeof(bd->name), "%s", name);
	bd->p = disk_params_with_writes(*p); /* a disk without write figures writes as it reads */
	bd->nr_sectors = p->capacity_bytes >> SECTOR_SHIFT;
}

/* A member's clear_bdi_congested wakes congestion_wait through the striped device's
 * callback: every queue's clear_bdi_congested wakes the one global wait queue. */
static void member_uncongested(struct blockdev *m, int rw)
{
	if (m->parent->uncongested)
		m->parent->uncongested(m->parent, rw);
}

void blockdev_init_striped(struct blockdev *bd, const char *name, const struct disk_params *p,
			   unsigned nr, uint32_t chunk_bytes, uint64_t seed)
{
	blockdev_init(bd, name, p, seed);
	bd->nr_sectors = p->capacity_bytes / (1u << SECTOR_SHIFT) * nr;
	bd->chunk_sectors = chunk_bytes >> SECTOR_SHIFT;
	bd->nr_members = nr;
	bd->members = xcalloc(nr, sizeof(*bd->members));
	if (!nr || !bd->chunk_sectors) {
		/* the hw profiles' own table: no input reaches here with a zero stripe */
		fprintf(stderr, "mmsim: BUG: RAID-0 %s: %u members, chunk %u bytes\n", name, nr,
			chunk_bytes);
		abort();
	}
	for (unsigned i = 0; i < nr; i++) {
		char mname[16];
		snprintf(mname, sizeof(mname), "%s.%u", name, i);
		/* each disk's platter is where it is: a rotation stream of its own */
		blockdev_init(&bd->members[i], mname, p, seed + 0x9e3779b97f4a7c15ULL * (i + 1));
		bd->members[i].parent = bd;
		bd->members[i].uncongested = member_uncongested;
	}
}

bool blockdev_members_congested(const struct blockdev *bd, int rw)
{
	for (unsigned i = 0; i < bd->nr_members; i++)
		if (bd->members[i].congested[rw])
			return true;
	return false;
}

void blockdev_destroy(struct blockdev *bd)
{
	for (unsigned i = 0; i < bd->nr_members; i++)
		blockdev_destroy(&bd->members[i]);
	free(bd->members);
	bd->members = NULL;
	bd->nr_members = 0;
	/* I/O still in flight when the machine stops is dropped with its bios, and so are
	 * bios a task was about to submit when the run stopped. */
	while (bd->all_rq) {
		struct request *r = bd->all_rq;
		bd->all_rq = r->all_next;
		free(r->bios);
		free(r);
	}
	while (bd->all_bio) {
		struct bio *b = bd->all_bio;
		bd->all_bio = b->all_next;
		free(b);
	}
	bd->active = bd->queue = bd->queue_tail = bd->free_rq = NULL;
	free(bd->free_bios);
	bd->free_bios = NULL;
	bd->nr_free_bios = bd->free_bios_cap = 0;
}

/* The pool is a stack of pointers rather than a chain through the bios: taking one reads
 * no cold bio, and the one taken a few allocations later is fetched now. Last freed, first
 * taken. */
struct bio *bio_alloc(struct blockdev *bd)
{
	struct bio *b;
	if (bd->nr_free_bios) {
		b = bd->free_bios[--bd->nr_free_bios];
		if (bd->nr_free_bios >= 16)
			__builtin_prefetch(bd->free_bios[bd->nr_free_bios - 16], 1);
	} else {
		b = xmalloc(sizeof(*b));
		b->all_next = bd->all_bio;
		bd->all_bio = b;
	}
	struct bio *all_next = b->all_next;
	memset(b, 0, sizeof(*b));
	b->all_next = all_next;
	return b;
}

void bio_free(struct blockdev *bd, struct bio *bio)
{
	if (bd->nr_free_bios == bd->free_bios_cap) {
		bd->free_bios_cap = bd->free_bios_cap ? 2 * bd->free_bios_cap : 256;
		bd->free_bios =
		    xreallocarray(bd->free_bios, bd->free_bios_cap, sizeof(*bd->free_bios));
	}
	bd->free_bios[bd->nr_free_bios++] = bio;
}

static struct request *rq_alloc(struct blockdev *bd)
{
	struct request *r = bd->free_rq;
	if (r)
		bd->free_rq = r->next;
	else {
		r = xcalloc(1, sizeof(*r));
		r->all_next = bd->all_rq;
		bd->all_rq = r;
	}
	struct request *all_next = r->all_next;
	struct rq_bio *bios = r->bios;
	unsigned cap = r->bios_cap;
	memset(r, 0, sizeof(*r));
	r->all_next = all_next;
	r->bios = bios;
	r->bios_cap = cap;
	return r;
}

/* Room for one more bio at the front or the back of r's array: a larger array when it is
 * half full, the bios moved so that the side asked for has a free slot. */
static void rq_bios_make_room(struct request *r, bool front)
{
	unsigned nr = r->nr_bios, cap = r->bios_cap;
	struct rq_bio *to = r->bios;
	if (2 * (nr + 1) > cap) {
		cap = cap ? 2 * cap : 32;
		to = xreallocarray(NULL, cap, sizeof(*to));
	}
	unsigned first = front ? (cap - nr) / 2 : 0;
	if (nr) /* a new request has no array yet: memmove from NULL is undefined */
		memmove(to + first, r->bios + r->first, nr * sizeof(*to));
	if (to != r->bios) {
		free(r->bios);
		r->bios = to;
		r->bios_cap = cap;
	}
	r->first = first;
}

static void rq_add_bio_back(struct request *r, struct bio *bio)
{
	if (r->first + r->nr_bios == r->bios_cap)
		rq_bios_make_room(r, false);
	r->bios[r->first + r->nr_bios++] =
	    (struct rq_bio){bio, {bio->prefetch[0], bio->prefetch[1]}};
}

static void rq_add_bio_front(struct request *r, struct bio *bio)
{
	if (!r->first)
		rq_bios_make_room(r, true);
	r->bios[--r->first] = (struct rq_bio){bio, {bio->prefetch[0], bio->prefetch[1]}};
	r->nr_bios++;
}

sim_time_t blockdev_service_ns(const struct blockdev *bd, int rw, uint64_t head, uint64_t sector,
			       uint32_t nr_sectors, sim_time_t rotation_ns)
{
	const struct disk_params *p = &bd->p;
	sim_time_t t = rw == WRITE ? p->write_request_ns : p->request_ns;
	uint64_t rate = rw == WRITE ? p->write_bandwidth_Bps : p->bandwidth_Bps;
	if (p->rpm && sector != head) {
		/* Seek grows with the square root of the distance (arm acceleration), from the
		 * track-to-track time to the full stroke; then on average half a rotation. */
		uint64_t dist = sector > head ? sector - head : head - sector;
		uint64_t span = bd->nr_sectors ? bd->nr_sectors : 1;
		const uint64_t scale = 1u << 20;
		uint64_t frac =
		    int_sqrt((dist > span ? span : dist) * scale / span * scale); /* 0..scale */
		t += p->seek_t2t_ns + (p->seek_full_ns - p->seek_t2t_ns) * frac / scale;
		t += rotation_ns;
	}
	t += (uint64_t)nr_sectors * (1u << SECTOR_SHIFT) * NSEC_PER_SEC / rate;
	return t;
}

/* elv_rqhash: hash_long of the sector in blocks of 8 (ELV_HASH_BLOCK), into RQ_HASH_SHIFT bits */
static unsigned elv_hash(uint64_t sector)
{
	return (unsigned)(((sector >> 3) * 0x9e37fffffffc0001ULL) >> (64 - RQ_HASH_SHIFT));
}

static void rqhash_add_end(struct blockdev *bd, struct request *r)
{
	struct request **bucket = &bd->hash_end[elv_hash(r->sector + r->nr_sectors)];
	r->hnext_end = *bucket;
	if (*bucket)
		(*bucket)->hpprev_end = &r->hnext_end;
	*bucket = r;
	r->hpprev_end = bucket;
}

static void rqhash_add_start(struct blockdev *bd, struct request *r)
{
	struct request **bucket = &bd->hash_start[elv_hash(r->sector)];
	r->hnext_start = *bucket;
	if (*bucket)
		(*bucket)->hpprev_start = &r->hnext_start;
	*bucket = r;
	r->hpprev_start = bucket;
}

static void rqhash_del_end(struct request *r)
{
	*r->hpprev_end = r->hnext_end;
	if (r->hnext_end)
		r->hnext_end->hpprev_end = r->hpprev_end;
}

static void rqhash_del_start(struct request *r)
{
	*r->hpprev_start = r->hnext_start;
	if (r->hnext_start)
		r->hnext_start->hpprev_start = r->hpprev_start;
}

/* After the last request at or below r's sector, found from the tail: a new request is
 * most often the highest yet (a writer going forward through its file). */
static void queue_insert(struct blockdev *bd, struct request *r)
{
	struct request *prev = bd->queue_tail;
	while (prev && prev->sector > r->sector)
		prev = prev->prev;
	struct request *next = prev ? prev->next : bd->queue;
	r->prev = prev;
	r->next = next;
	if (prev)
		prev->next = r;
	else
		bd->queue = r;
	if (next)
		next->prev = r;
	else
		bd->queue_tail = r;
	rqhash_add_end(bd, r);
	rqhash_add_start(bd, r);
}

void blockdev_queue_remove(struct blockdev *bd, struct request *r)
{
	if (r->prev)
		r->prev->next = r->next;
	else
		bd->queue = r->next;
	if (r->next)
		r->next->prev = r->prev;
	else
		bd->queue_tail = r->prev;
	r->next = r->prev = NULL;
	rqhash_del_end(r);
	rqhash_del_start(r);
}

static void dispatch(void *arg, uint64_t unused);

static void schedule_dispatch(struct blockdev *bd, sim_time_t when)
{
	if (bd->dispatch_scheduled || bd->active)
		return;
	bd->dispatch_scheduled = true;
	sched_callback_at(when, dispatch, bd, 0);
}

void blockdev_kick(struct blockdev *bd)
{
	schedule_dispatch(bd, sim_clock);
}

void blockdev_set_elevator(struct blockdev *bd, enum elevator_kind e, unsigned hz)
{
	for (unsigned i = 0; i < bd->nr_members; i++)
		blockdev_set_elevator(&bd->members[i], e, hz);
	bd->elevator = e;
	as_init(&bd->as, hz);
	if (e == ELEVATOR_AS)
		task_io_exit = as_task_exit;
}

static void complete(void *arg, uint64_t unused)
{
	(void)unused;
	struct blockdev *bd = arg;
	struct request *r = bd->active;
	bd->active = NULL;
	bd->head = r->sector + r->nr_sectors;
	bd->stats.ios[r->rw]++;
	bd->stats.sectors[r->rw] += r->nr_sectors;
	bd->nr_queued[r->rw]--;
	int rw = r->rw;
	/* Each bio and the page it carries are cold by now: fetch both 16 bios ahead. */
	struct rq_bio *v = r->bios + r->first;
	unsigned n = r->nr_bios;
	for (unsigned i = 0; i < n; i++) {
		if (i + 16 < n) {
			__builtin_prefetch(v[i + 16].bio);
			__builtin_prefetch(v[i + 16].prefetch[0], 1);
			__builtin_prefetch(v[i + 16].prefetch[1], 1);
		}
		v[i].bio->end_io(v[i].bio); /* the owner frees the bio (bio_free) */
	}
	/* end_that_request_last: the elevator hears of it after the bios have ended */
	if (bd->elevator == ELEVATOR_AS)
		as_completed_request(bd, r);
	r->nr_bios = 0;
	r->next = bd->free_rq;
	bd->free_rq = r;
	/* __freed_request: below the off threshold every freed request clears the queue's
	 * congestion (blk_clear_queue_congested), and clear_bdi_congested wakes
	 * congestion_wqh[rw] whether or not the queue was congested (kernel-reclaim.md
	 * §1.17) */
	if (bd->nr_queued[rw] < congestion_off(bd)) {
		bd->congested[rw] = false;
		if (bd->uncongested)
			bd->uncongested(bd, rw);
	}
	if (bd->nr_queued[rw] < bd->p.nr_requests)
		wake_up_one(&bd->slot_wait[rw]);
	/* Under AS the next request is chosen at once, in the completion interrupt, before the
	 * tasks the completion woke have run (ide_intr's ide_do_request): what anticipation is
	 * for. The one-way elevator chooses after them (docs/model.md, "Devices"). */
	if (bd->elevator == ELEVATOR_AS)
		dispatch(bd, 0);
	else
		schedule_dispatch(bd, sim_clock);
}

/* One-way elevator: the first request at or after the head, else wrap to the lowest. */
static void dispatch(void *arg, uint64_t unused)
{
	(void)unused;
	struct blockdev *bd = arg;
	bd->dispatch_scheduled = false;
	if (bd->active || !bd->queue)
		return;
	struct request *r;
	if (bd->elevator == ELEVATOR_AS) {
		r = as_next_request(bd); /* off the queue already */
		if (!r)
			return;
	} else {
		r = bd->queue;
		while (r && r->sector < bd->head)
			r = r->next;
		if (!r)
			r = bd->queue;
		blockdev_queue_remove(bd, r);
	}
	bd->active = r;
	sim_time_t rotation = 0;
	if (bd->p.rpm)
		rotation = rng_below(&bd->rotation, 60ULL * NSEC_PER_SEC / bd->p.rpm);
	sim_time_t t = blockdev_service_ns(bd, r->rw, bd->head, r->sector, r->nr_sectors, rotation);
	bd->stats.busy_ns += t;
	sched_callback_at(sim_clock + t, complete, bd, 0);
}

/* Whether a comes before b in the sorted queue: by sector, and among equal sectors by
 * position (a request inserted or front-merged goes after the others at its sector). */
static bool queue_before(const struct request *a, const struct request *b)
{
	if (a->sector != b->sector)
		return a->sector < b->sector;
	for (const struct request *p = a->next; p && p->sector == a->sector; p = p->next)
		if (p == b)
			return true;
	return false;
}

static bool mergeable(const struct request *r, const struct bio *bio, uint32_t max)
{
	return r->rw == bio->rw && r->nr_sectors + bio->nr_sectors <= max;
}

/* elv_merge: a back merge onto a request ending where the bio starts (elv_rqhash_find),
 * else a front merge onto one starting where it ends. Every back candidate lies before
 * every front candidate in the sorted queue, and among several candidates the first in
 * queue order is taken, so the choice is that of a walk of the queue from its start. */
static bool try_merge(struct blockdev *bd, struct bio *bio)
{
	uint32_t max = bd->p.max_request_bytes >> SECTOR_SHIFT;
	uint64_t end = bio->sector + bio->nr_sectors;
	struct request *best = NULL;
	for (struct request *r = bd->hash_end[elv_hash(bio->sector)]; r; r = r->hnext_end)
		if (r->sector + r->nr_sectors == bio->sector && mergeable(r, bio, max) &&
		    (!best || queue_before(r, best)))
			best = r;
	if (best) {
		struct request *r = best;
		rqhash_del_end(r);
		r->nr_sectors += bio->nr_sectors;
		rq_add_bio_back(r, bio);
		rqhash_add_end(bd, r);
		bd->stats.merges[bio->rw]++;
		return true;
	}
	for (struct request *r = bd->hash_start[elv_hash(end)]; r; r = r->hnext_start)
		if (r->sector == end && mergeable(r, bio, max) && (!best || queue_before(r, best)))
			best = r;
	if (!best)
		return false;
	struct request *r = best;
	rqhash_del_start(r);
	r->sector = bio->sector;
	r->nr_sectors += bio->nr_sectors;
	rq_add_bio_front(r, bio);
	rqhash_add_start(bd, r);
	bd->stats.merges[bio->rw]++;
	/* keep the queue sorted: the request only moved down, toward its prev */
	while (r->prev && r->prev->sector > r->sector) {
		struct request *p = r->prev;
		if (p->prev)
			p->prev->next = r;
		else
			bd->queue = r;
		r->prev = p->prev;
		p->next = r->next;
		if (r->next)
			r->next->prev = p;
		else
			bd->queue_tail = p;
		r->next = p;
		p->prev = r;
	}
	return true;
}

void submit_bio(struct blockdev *bd, struct bio *bio)
{
	bio->next = NULL;
	if (bd->nr_members) {
		/* raid0_make_request: chunk c lives on member c mod n, at chunk c / n there */
		uint64_t c = bio->sector / bd->chunk_sectors;
		struct blockdev *m = &bd->members[c % bd->nr_members];
		bio->sector =
		    c / bd->nr_members * bd->chunk_sectors + bio->sector % bd->chunk_sectors;
		submit_bio(m, bio);
		return;
	}
	if (try_merge(bd, bio))
		return;
	while (bd->nr_queued[bio->rw] >= bd->p.nr_requests) {
		bd->stats.slot_waits++;
		sleep_on_exclusive(&bd->slot_wait[bio->rw], 0, false);
		if (try_merge(bd, bio))
			return;
	}
	struct request *r = rq_alloc(bd);
	r->sector = bio->sector;
	r->nr_sectors = bio->nr_sectors;
	r->rw = bio->rw;
	rq_add_bio_back(r, bio);
	queue_insert(bd, r);
	if (bd->elevator == ELEVATOR_AS)
		as_add_request(bd, r);
	bd->nr_queued[bio->rw]++;
	if (!bd->congested[bio->rw] && bd->nr_queued[bio->rw] >= congestion_on(bd)) {
		bd->congested[bio->rw] = true;
		bd->stats.congestion_events[bio->rw]++;
	}
	/* Dispatch at the submitter's local time: bios it submits in one burst meet in the
	 * queue first and merge, as plugging does. */
	schedule_dispatch(bd, local_now());
}
