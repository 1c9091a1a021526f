/* A block device: a request queue with an elevator (one-way scan by sector), merging of
 * adjacent requests, a bounded number of request slots per direction (submitters block when
 * they are all taken), a congestion state with the block layer's on/off thresholds, and a
 * service-time model of seek + rotation + transfer (or a flat per-request cost for flash). */
#ifndef MMSIM_HW_BLOCKDEV_H
#define MMSIM_HW_BLOCKDEV_H

#include "hw/as_iosched.h"
#include "hw/frame.h"
#include "hw/profile.h"
#include "sim/rng.h"
#include "sim/sched.h"

#define SECTOR_SHIFT 9

enum { READ = 0, WRITE = 1 };

/* elevator.c's ELV_HASH_SHIFT is 6: 64 buckets, sectors hashed in blocks of 8. The model
 * uses 1024: a lookup compares exact sectors, so the table's size decides only how many
 * requests it passes over (the host's time), never which one it finds, and the 128 request
 * slots of a queue then rarely share a bucket. */
#define RQ_HASH_SHIFT	10
#define RQ_HASH_ENTRIES (1u << RQ_HASH_SHIFT)

struct bio {
	struct bio *next;
	uint64_t sector;
	uint32_t nr_sectors;
	uint8_t rw;
	void (*end_io)(struct bio *bio);
	pfn_t pfn; /* the page this bio carries, if any */
	void *private;
	uint64_t private2;
	/* memory end_io reads first (the first and last byte of the page's descriptor, which
	 * may lie in two cache lines), or NULL: completion fetches it a few bios ahead, so
	 * that the misses of a request's bios overlap */
	const void *prefetch[2];
	struct bio *all_next; /* every bio the device allocated, for its teardown */
};

struct request {
	struct request *next, *prev; /* sorted by sector within the queue */
	/* chains of the merge hashes (elv_rqhash by end sector for back merges; by start
	 * sector for front merges, where the kernel's elevators keep an rbtree) */
	struct request *hnext_end, **hpprev_end;
	struct request *hnext_start, **hpprev_start;
	uint64_t sector;
	uint32_t nr_sectors;
	uint8_t rw;
	/* the anticipatory scheduler's (as_rq): a read is sync; the submitting task's context;
	 * the FIFO deadline in jiffies and the FIFO of its direction */
	uint8_t is_sync;
	struct as_io_context *aic;
	unsigned long expires;
	struct request *fifo_next, *fifo_prev;
	/* its bios in transfer order, bios[first .. first + nr_bios): an array rather than a
	 * chain through the bios, so completion reads their addresses, and those of the memory
	 * their end_io reads, in sequence. A pooled request keeps its array, so steady state
	 * allocates nothing. */
	struct rq_bio {
		struct bio *bio;
		const void *prefetch[2]; /* the bio's */
	} * bios;
	unsigned first, nr_bios, bios_cap;
	struct request *all_next; /* every request the device allocated, for its teardown */
};

struct blockdev_stats {
	uint64_t ios[2]; /* requests completed */
	uint64_t sectors[2];
	uint64_t merges[2];
	sim_time_t busy_ns;
	uint64_t congestion_events[2];
	uint64_t slot_waits; /* submitters that blocked for a request slot */
};

enum elevator_kind {
	ELEVATOR_CLOOK, /* the model's one-way elevator by sector */
	ELEVATOR_AS,	/* 2.6.8's anticipatory scheduler (as_iosched.c) */
};

struct blockdev {
	char name[16];
	enum elevator_kind elevator;
	struct as_data as;
	struct disk_params p;
	uint64_t nr_sectors;
	struct request *queue; /* pending, sorted by sector */
	struct request *queue_tail;
	unsigned nr_queued[2];	/* queued + in flight, per direction (request slots used) */
	struct request *active; /* being serviced */
	struct request *hash_end[RQ_HASH_ENTRIES];   /* queued requests by end sector */
	struct request *hash_start[RQ_HASH_ENTRIES]; /* queued requests by start sector */
	uint64_t head;				     /* sector after the last one transferred */
	bool congested[2];
	bool dispatch_scheduled;
	struct waitqueue slot_wait[2];
	struct request *free_rq; /* request pool */
	struct bio **free_bios;	 /* bio pool: a stack */
	unsigned nr_free_bios, free_bios_cap;
	/* Everything ever allocated: at teardown a bio may be anywhere (queued, in flight,
	 * held by a task asleep before submitting it), and each is freed once from here. */
	struct request *all_rq;
	struct bio *all_bio;
	/* clear_bdi_congested: called (in scheduler context) for every request of a direction
	 * freed while that direction is below the congestion off threshold */
	void (*uncongested)(struct blockdev *bd, int rw);
	struct blockdev_stats stats;
	/* where the platter is when a seek ends: uniform over one rotation, so runs with
	 * different seeds differ the way repeated real runs do */
	struct rng rotation;
	/* md RAID-0: a striped device owns no queue; each bio goes to the member holding its
	 * chunk, and the device is congested while any member is (raid0_congested) */
	struct blockdev *members;
	unsigned nr_members;
	uint32_t chunk_sectors;
	struct blockdev *parent; /* the striped device a member belongs to */
};

void blockdev_init(struct blockdev *bd, const char *name, const struct disk_params *p,
		   uint64_t seed);
/* A RAID-0 device striped over nr disks of kind p in chunks of chunk_bytes (a multiple of
 * the page size, so that no one-page bio crosses a chunk). Its capacity is nr disks'. */
void blockdev_init_striped(struct blockdev *bd, const char *name, const struct disk_params *p,
			   unsigned nr, uint32_t chunk_bytes, uint64_t seed);
void blockdev_destroy(struct blockdev *bd);
/* The elevator the queue (or each member of a striped device) runs, on a machine of hz
 * jiffies a second; ELEVATOR_CLOOK unless set, before any I/O. */
void blockdev_set_elevator(struct blockdev *bd, enum elevator_kind e, unsigned hz);
/* For an elevator: takes a queued request off the sorted queue and its merge hashes, and
 * runs the queue again soon (kblockd's unplug work). */
void blockdev_queue_remove(struct blockdev *bd, struct request *r);
void blockdev_kick(struct blockdev *bd);
bool blockdev_members_congested(const struct blockdev *bd, int rw);

struct bio *bio_alloc(struct blockdev *bd);
void bio_free(struct blockdev *bd, struct bio *bio);

/* Queues a bio. May block the calling task while every request slot of that direction is
 * taken (as get_request_wait does); must then be called from task context. */
void submit_bio(struct blockdev *bd, struct bio *bio);

static inline bool bdi_write_congested(const struct blockdev *bd)
{
	return bd->nr_members ? blockdev_members_congested(bd, WRITE) : bd->congested[WRITE];
}
static inline bool bdi_read_congested(const struct blockdev *bd)
{
	return bd->nr_members ? blockdev_members_congested(bd, READ) : bd->congested[READ];
}

/* Service time of a request of nr_sectors in direction rw (READ, WRITE) starting at sector,
 * with the head at `head`; rotation_ns is the rotational delay after a seek, in [0, one
 * rotation) (exposed for tests). A write takes the disk's write figures where it has them. */
sim_time_t blockdev_service_ns(const struct blockdev *bd, int rw, uint64_t head, uint64_t sector,
			       uint32_t nr_sectors, sim_time_t rotation_ns);

#endif
