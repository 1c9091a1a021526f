/* Pipes and AF_UNIX stream sockets (fs/pipe.c and net/unix/af_unix.c of 2.6.25, at the
 * level hackbench needs): bounded queues whose writers and readers block on wait queues,
 * with the data in flight held in unreclaimable kernel pages. */
#include "kernel/pipe.h"
#include "sim/xalloc.h"

#include <stdio.h>
#include <stdlib.h>

struct kmem_cache skbuff_head_cache, skb_data_cache;
static unsigned long skb_peak_pages;

void skb_caches_init(uint32_t head_object, uint32_t data_object)
{
	kmem_cache_init(&skbuff_head_cache, "skbuff_head_cache", head_object, OWNER_SLAB);
	kmem_cache_init(&skb_data_cache, "kmalloc", data_object, OWNER_SLAB);
	skb_peak_pages = 0;
}

void skb_caches_destroy(void)
{
	kmem_cache_destroy(&skbuff_head_cache);
	kmem_cache_destroy(&skb_data_cache);
}

unsigned long skb_caches_peak_pages(void)
{
	return skb_peak_pages;
}

static void skb_note_pages(void)
{
	unsigned long skb_pages =
	    kmem_cache_pages(&skbuff_head_cache) + kmem_cache_pages(&skb_data_cache);
	if (skb_pages > skb_peak_pages)
		skb_peak_pages = skb_pages;
}

bool kmem_charge(struct kmem_pool *pool, uint64_t bytes, unsigned gfp)
{
	uint64_t want = pool->bytes + bytes;
	uint64_t need = (want + MM->page_size - 1) >> MM->page_shift;
	while (pool->nr_pages < need) {
		/* the allocation may sleep in reclaim: others may charge or uncharge meanwhile */
		pfn_t pfn = alloc_kernel_page(pool->owner, gfp);
		if (pfn == NO_PFN)
			return false;
		if (pool->nr_pages == pool->cap) {
			pool->cap = pool->cap ? pool->cap * 2 : 256;
			pool->pages = xrealloc(pool->pages, pool->cap * sizeof(pfn_t));
		}
		pool->pages[pool->nr_pages++] = pfn;
		if (pool->nr_pages > pool->peak_pages)
			pool->peak_pages = pool->nr_pages;
		want = pool->bytes + bytes;
		need = (want + MM->page_size - 1) >> MM->page_shift;
	}
	pool->bytes = want;
	return true;
}

void kmem_uncharge(struct kmem_pool *pool, uint64_t bytes)
{
	pool->bytes -= bytes;
	uint64_t need = (pool->bytes + MM->page_size - 1) >> MM->page_shift;
	while (pool->nr_pages > need)
		free_kernel_page(pool->pages[--pool->nr_pages]);
}

void kmem_pool_release(struct kmem_pool *pool)
{
	free(pool->pages);
	pool->pages = NULL;
	pool->nr_pages = pool->cap = 0;
	pool->bytes = 0;
}

/* dataref to frag_list (20 bytes 32-bit, 24 64-bit) and MAX_SKB_FRAGS = 65536 / PAGE_SIZE
 * + 2 skb_frag_t of a page pointer and two u32 (12, 16) */
uint32_t skb_shared_info_bytes(void)
{
	bool wide = hw_word_bytes(MM->hw) == 8;
	uint32_t frags = 65536 / MM->page_size + 2;
	return wide ? 24 + 16 * frags : 20 + 12 * frags;
}

/* SK_WMEM_MAX, (sizeof(struct sk_buff) + 256) * 256, unless the machine has at most 4096
 * pages (num_physpages, all of RAM): then 32767. */
uint64_t sk_wmem_default(void)
{
	if (MM->nr_frames <= 4096)
		return 32767;
	return ((uint64_t)MM->hw->sk_buff_bytes + 256) * 256;
}

void kpipe_init(struct kpipe *p, int kind, uint64_t sndbuf, uint32_t truesize)
{
	*p = (struct kpipe){.kind = kind, .sndbuf = sndbuf, .truesize = truesize};
	p->readers = p->writers = 1;
	if (kind == KPIPE_SOCKET) {
		/* sends stop once sk_wmem_alloc reaches sk_sndbuf, one skb past it per sender
		 * (grow_skb_ring covers several) */
		uint64_t want = sndbuf / (truesize ? truesize : 1) + 2;
		p->skb_cap = (uint32_t)(want < 4096 ? want : 4096);
		p->skb = xmalloc(p->skb_cap * sizeof(*p->skb));
	}
}

/* Page sizes are powers of two: the shift is the division, without its cost on the path
 * of every message. */
static sim_time_t copy_cost(uint32_t len)
{
	return (MM->hw->page_copy_ns * len) >> MM->page_shift;
}

/* (a + b) % cap for ring indices, a < cap and b <= cap: no division per message */
static uint32_t ring_add(uint32_t a, uint32_t b, uint32_t cap)
{
	uint32_t s = a + b;
	return s < cap ? s : s - cap < cap ? s - cap : s % cap;
}

sim_time_t kpipe_write_cost(int kind, uint32_t len)
{
	const struct hw_profile *hw = MM->hw;
	return hw->syscall_ns + copy_cost(len) +
	       (kind == KPIPE_SOCKET ? hw->sock_send_ns : hw->page_alloc_ns);
}

sim_time_t kpipe_read_cost(int kind, uint32_t len)
{
	const struct hw_profile *hw = MM->hw;
	return hw->syscall_ns + copy_cost(len) +
	       (kind == KPIPE_SOCKET ? hw->sock_recv_ns : hw->page_free_ns);
}

static bool fatal(void)
{
	return fatal_signal_pending(current);
}

/* Senders that passed the sndbuf test together and then slept allocating all queue their
 * skb (the charge follows the allocation), so a socket can hold more than the ring was
 * sized for: it doubles, keeping the order. Rare, so not a hot-path allocation. */
static void grow_skb_ring(struct kpipe *p)
{
	uint32_t cap = p->skb_cap * 2;
	struct skb_slabs *ring = xmalloc(cap * sizeof(*ring));
	for (uint32_t i = 0; i < p->nr_msgs; i++)
		ring[i] = p->skb[(p->skb_first + i) % p->skb_cap];
	free(p->skb);
	p->skb = ring;
	p->skb_cap = cap;
	p->skb_first = 0;
}

/* unix_stream_sendmsg: sock_alloc_send_skb waits while sk_wmem_alloc >= sk_sndbuf (the
 * test precedes the charge, so one skb may overshoot), then the skb joins the peer's
 * queue and sk_data_ready wakes the reader. */
static int socket_write(struct kpipe *p, uint32_t len)
{
	while (p->wmem >= p->sndbuf) {
		if (!p->readers)
			return -1;
		sleep_on(&p->wr_wait, 0, true);
		if (fatal())
			return -1;
	}
	if (!p->readers)
		return -1;
	/* alloc_skb: the sk_buff, then its data; either may reclaim, and a failure gives
	 * back what was had */
	pfn_t head = kmem_cache_alloc(&skbuff_head_cache, GFP_KERNEL);
	if (head == NO_PFN)
		return -1;
	pfn_t data = kmem_cache_alloc(&skb_data_cache, GFP_KERNEL);
	if (data == NO_PFN || !p->readers) { /* no memory, or the reader died meanwhile */
		if (data != NO_PFN)
			kmem_cache_free(&skb_data_cache, data);
		kmem_cache_free(&skbuff_head_cache, head);
		skb_note_pages();
		return -1;
	}
	skb_note_pages();
	if (p->nr_msgs == p->skb_cap)
		grow_skb_ring(p);
	p->skb[ring_add(p->skb_first, p->nr_msgs, p->skb_cap)] =
	    (struct skb_slabs){.head = head, .data = data};
	p->wmem += p->truesize;
	p->bytes += len;
	p->nr_msgs++;
	if (waitqueue_active(&p->rd_wait))
		wake_up_all(&p->rd_wait);
	return 0;
}

/* pipe_write: a write up to a page merges into the newest buffer if it fits there, else
 * takes a new page buffer, waiting while all PIPE_BUFFERS are in use. */
static int pipe_write(struct kpipe *p, uint32_t len)
{
	for (;;) {
		if (!p->readers)
			return -1;
		uint32_t newest = (p->head + p->nr_bufs + PIPE_BUFFERS - 1) % PIPE_BUFFERS;
		if (p->nr_bufs && p->buf_len[newest] + len <= MM->page_size) {
			p->buf_len[newest] += len;
			break;
		}
		if (p->nr_bufs < PIPE_BUFFERS) {
			pfn_t pfn = alloc_kernel_page(OWNER_PIPE, GFP_KERNEL | __GFP_HIGHMEM);
			if (pfn == NO_PFN)
				return -1;
			/* we may have slept in reclaim: re-check, someone may have made room */
			newest = (p->head + p->nr_bufs + PIPE_BUFFERS - 1) % PIPE_BUFFERS;
			if ((p->nr_bufs && p->buf_len[newest] + len <= MM->page_size) ||
			    p->nr_bufs == PIPE_BUFFERS) {
				free_kernel_page(pfn);
				continue;
			}
			uint32_t slot = (p->head + p->nr_bufs) % PIPE_BUFFERS;
			p->bufs[slot] = pfn;
			p->buf_len[slot] = len;
			if (!p->nr_bufs)
				p->first_off = 0;
			p->nr_bufs++;
			break;
		}
		sleep_on(&p->wr_wait, 0, true);
		if (fatal())
			return -1;
	}
	p->bytes += len;
	if (waitqueue_active(&p->rd_wait))
		wake_up_all(&p->rd_wait);
	return 0;
}

int kpipe_write(struct kpipe *p, uint32_t len)
{
	cpu_work_sys(kpipe_write_cost(p->kind, len));
	int r = p->kind == KPIPE_SOCKET ? socket_write(p, len) : pipe_write(p, len);
	preempt_point(); /* a reader this write woke may take the CPU on return to user */
	return r;
}

/* Takes len bytes off a pipe, freeing the page buffers emptied (pipe_read wakes the
 * writers each time it frees one). */
static void pipe_consume(struct kpipe *p, uint32_t len)
{
	p->bytes -= len;
	while (len) {
		uint32_t left = p->buf_len[p->head] - p->first_off;
		uint32_t take = len < left ? len : left;
		p->first_off += take;
		len -= take;
		if (take == left) {
			free_kernel_page(p->bufs[p->head]);
			p->head = (p->head + 1) % PIPE_BUFFERS;
			p->nr_bufs--;
			p->first_off = 0;
			if (waitqueue_active(&p->wr_wait))
				wake_up_all(&p->wr_wait);
		}
	}
}

/* kfree_skb of the n oldest skbs: their data and sk_buff objects back to the caches */
static void free_skbs(struct kpipe *p, uint32_t n)
{
	uint32_t first = p->skb_first;
	for (uint32_t i = 0; i < n; i++) {
		struct skb_slabs r = p->skb[first];
		kmem_cache_free(&skb_data_cache, r.data);
		kmem_cache_free(&skbuff_head_cache, r.head);
		first = first + 1 < p->skb_cap ? first + 1 : 0;
	}
	p->skb_first = first;
	p->nr_msgs -= n;
	skb_note_pages();
}

int kpipe_read(struct kpipe *p, uint32_t len)
{
	cpu_work_sys(kpipe_read_cost(p->kind, len));
	while (!p->bytes) {
		if (!p->writers)
			return 0;
		sleep_on(&p->rd_wait, 0, true);
		if (fatal())
			return -1;
	}
	if (len > p->bytes)
		len = (uint32_t)p->bytes;
	if (p->kind == KPIPE_SOCKET) {
		/* every write here is one skb of the same size, so a read of that size takes
		 * exactly one; sock_wfree uncharges it and unix_write_space wakes writers once
		 * the sender is writable again (wmem <= sndbuf / 4) */
		/* ceil(len / per), per = bytes / nr_msgs the size of one skb; len <= per (len
		 * fits in one skb, the common case) is tested without the division */
		uint32_t n;
		if ((uint64_t)len * p->nr_msgs <= p->bytes) {
			n = len > 0;
		} else {
			uint64_t per = p->bytes / p->nr_msgs;
			n = (uint32_t)((len + per - 1) / per);
		}
		if (n > p->nr_msgs)
			n = p->nr_msgs;
		p->bytes -= len;
		if (!p->bytes)
			n = p->nr_msgs;
		free_skbs(p, n);
		p->wmem -= (uint64_t)p->truesize * n;
		if (waitqueue_active(&p->wr_wait) && (p->wmem << 2) <= p->sndbuf)
			wake_up_all(&p->wr_wait);
	} else {
		pipe_consume(p, len);
	}
	preempt_point();
	return (int)len;
}

void kpipe_close_write(struct kpipe *p)
{
	if (p->writers && --p->writers == 0)
		wake_up_all(&p->rd_wait);
}

/* The last reader's close. A socket's receive queue goes with it (unix_release_sock
 * kfree_skb's every queued skb, whose sock_wfree uncharges the writer's wmem), and writers
 * then get EPIPE; a pipe's buffers stay until the last writer is gone too. */
void kpipe_close_read(struct kpipe *p)
{
	if (!p->readers || --p->readers)
		return;
	if (p->kind == KPIPE_SOCKET && p->nr_msgs) {
		free_skbs(p, p->nr_msgs);
		p->bytes = 0;
		p->wmem = 0;
	}
	wake_up_all(&p->wr_wait);
}

void kpipe_release(struct kpipe *p)
{
	if (p->kind == KPIPE_SOCKET) {
		if (p->skb)
			free_skbs(p, p->nr_msgs);
		free(p->skb);
		p->skb = NULL;
		p->wmem = 0;
	} else {
		while (p->nr_bufs) {
			free_kernel_page(p->bufs[p->head]);
			p->head = (p->head + 1) % PIPE_BUFFERS;
			p->nr_bufs--;
		}
	}
	p->bytes = 0;
}
