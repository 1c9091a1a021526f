/* Pipes and AF_UNIX stream sockets as bounded byte queues on the simulated wait queues: a
 * writer blocks while the buffer is full, a reader while it is empty. The data in flight
 * is unreclaimable kernel memory taken from the zones: pipe buffers are whole pages
 * (PIPE_BUFFERS of them at most), socket buffers are skbs charged by truesize against the
 * sender's sk_sndbuf, while each occupies two slab objects (which truesize undercounts):
 * the sk_buff from skbuff_head_cache and its data from a kmalloc cache (mm/slab.h), so a
 * slab page comes back only when every skb with an object in it has been read. Sends and
 * receives are O(1) and allocate no host memory. */
#ifndef MMSIM_KERNEL_PIPE_H
#define MMSIM_KERNEL_PIPE_H

#include "mm/mm.h"
#include "mm/slab.h"

#define PIPE_BUFFERS 16 /* 2.6 pipe: 16 page buffers */

/* Unreclaimable kernel memory counted in bytes and backed by whole pages, as a slab cache
 * is: a page is taken when the bytes in use need one more, given back when one fewer will
 * do (objects are assumed perfectly packed). */
struct kmem_pool {
	enum page_owner owner;
	uint64_t bytes;
	pfn_t *pages;
	uint32_t nr_pages, cap;
	uint32_t peak_pages;
};
/* false when a page could not be had (the caller fails with -ENOMEM) */
bool kmem_charge(struct kmem_pool *pool, uint64_t bytes, unsigned gfp);
void kmem_uncharge(struct kmem_pool *pool, uint64_t bytes);
void kmem_pool_release(struct kmem_pool *pool); /* host memory only; pages die with MM */

enum { KPIPE_PIPE, KPIPE_SOCKET };

/* One queued skb: the slabs its sk_buff and its data sit in. Eight bytes, so a socket's
 * queue takes eight skbs to a cache line; a count for skbs sharing both slabs saves
 * nothing, as consecutive sends mostly come from different CPUs' slabs. */
struct skb_slabs {
	pfn_t head, data;
};

struct kpipe {
	/* what a socket's sends and receives use come first, together (two cache lines) */
	uint64_t bytes;	   /* payload queued */
	uint64_t wmem;	   /* socket: truesize charged to the sender (sk_wmem_alloc) */
	uint64_t sndbuf;   /* socket: sk_sndbuf */
	uint32_t nr_msgs;  /* skbs queued (socket) */
	uint32_t truesize; /* socket: skb->truesize of one write, charged to sk_wmem_alloc */
	/* socket: the slabs of the queued skbs, oldest first, a ring of nr_msgs entries */
	struct skb_slabs *skb;
	uint32_t skb_cap, skb_first;
	int kind;
	int readers, writers;
	struct waitqueue rd_wait, wr_wait;
	uint32_t nr_bufs;   /* pipe: page buffers in use */
	uint32_t head;	    /* pipe: index of the oldest buffer */
	uint32_t first_off; /* pipe: bytes already read from the oldest buffer */
	pfn_t bufs[PIPE_BUFFERS];
	uint32_t buf_len[PIPE_BUFFERS]; /* bytes written into each buffer */
};

/* The caches every socket's skbs come from: skbuff_head_cache and the kmalloc cache of
 * the data (one message size per run). skb_caches_init sizes them (bytes per object). */
extern struct kmem_cache skbuff_head_cache, skb_data_cache;
void skb_caches_init(uint32_t head_object, uint32_t data_object);
void skb_caches_destroy(void);
/* The most slab pages both caches held at once. */
unsigned long skb_caches_peak_pages(void);

/* sizeof(struct skb_shared_info), 2.6.25, by the word and page size (bytes); the other
 * struct an AF_UNIX message is charged by, sk_buff, is the profile's sk_buff_bytes (the
 * arch defconfig's layout: tools/measure/skb_layout.sh, data/measured/skb_layout.txt). */
uint32_t skb_shared_info_bytes(void);
/* sk_init (net/core/sock.c, 2.6.24-2.6.31; 2.6.32 counts totalram_pages instead):
 * sysctl_wmem_default, a socket's sk_sndbuf. */
uint64_t sk_wmem_default(void);

void kpipe_init(struct kpipe *p, int kind, uint64_t sndbuf, uint32_t truesize);
/* write(2) of len bytes (len <= one page): 0, or -1 (EPIPE, ENOMEM or a fatal signal). */
int kpipe_write(struct kpipe *p, uint32_t len);
/* read(2) of up to len bytes: the bytes read, 0 at end of file, -1 on a fatal signal. */
int kpipe_read(struct kpipe *p, uint32_t len);
void kpipe_close_write(struct kpipe *p);
void kpipe_close_read(struct kpipe *p);
/* Frees what is still queued and the host memory (a run's teardown, machine alive). */
void kpipe_release(struct kpipe *p);

/* CPU cost of one call (docs/throttle.md): the profile's syscall entry, the copy of len
 * bytes at the profile's page-copy rate, and for a socket the AF_UNIX work of the message
 * (sock_send_ns: skb allocation and queueing; sock_recv_ns: dequeue and free), for a pipe the
 * buffer page's allocation (write) or free (read). */
sim_time_t kpipe_write_cost(int kind, uint32_t len);
sim_time_t kpipe_read_cost(int kind, uint32_t len);

#endif
