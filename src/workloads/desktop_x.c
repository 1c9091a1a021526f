/* The desktop's large unix-socket messages. 2.6.30's unix_stream_sendmsg sends a message in
 * skbs of at most SKB_MAX_ALLOC (16 KiB less the skb's trailer) and sk_sndbuf / 2 - 64
 * bytes; alloc_skb takes an skb's data with kmalloc, which above 8 KiB (SLUB_MAX_SIZE) is
 * kmalloc_large: __get_free_pages(GFP_KERNEL | __GFP_COMP, get_order(size)), order 2 here.
 * The receiver (the X server, a client, the bus) reads and frees it; the model frees it at
 * once, so only the allocation's reclaim, not a queue's memory, is modelled. */
#include "workloads/desktop_x.h"

#include "hw/profile.h"
#include "kernel/process.h"
#include "mm/mm.h"
#include "workloads/desktop_measured.h"

#include <string.h>

/* SKB_MAX_ALLOC is an order-2 block less the trailer: a chunk above SLUB_MAX_SIZE (two
 * pages) is kmalloc_large at order 2 whatever the page size */
#define KMALLOC_LARGE_ORDER 2
#define MAX_PROGRAMS	    64

static const struct desktop_xsends *by_program[MAX_PROGRAMS];

void desktop_x_init(void)
{
	for (int i = 0; i < desktop_nr_programs && i < MAX_PROGRAMS; i++) {
		by_program[i] = NULL;
		for (int k = 0; k < desktop_nr_xsends; k++)
			if (!strcmp(desktop_xsends[k].name, desktop_programs[i].name))
				by_program[i] = &desktop_xsends[k];
	}
}

/* n skbs of kb KiB in all: each an order-2 block taken and given back, the bytes copied */
static void send_large(uint32_t n, uint64_t kb)
{
	for (uint32_t i = 0; i < n; i++) {
		pfn_t pfn = alloc_kernel_pages(OWNER_OTHER_KERNEL, GFP_KERNEL, KMALLOC_LARGE_ORDER);
		if (pfn == NO_PFN) { /* the sender was chosen by the OOM killer, or no memory */
			check_fatal_signal();
			continue;
		}
		free_kernel_pages(pfn, KMALLOC_LARGE_ORDER);
	}
	/* the sender's copy in (the receiver's copy out is the receiver's work, left out) and
	 * one system call a message */
	cpu_work_sys((sim_time_t)n * MM->hw->syscall_ns +
		     (sim_time_t)(kb * 1024 / MM->page_size) * MM->hw->page_copy_ns);
}

uint32_t desktop_x_send(int pi, bool sw, int sender)
{
	if (pi < 0 || pi >= MAX_PROGRAMS || !by_program[pi] || sender < 0 || sender >= XS_SENDERS)
		return 0;
	const struct desktop_xsends *x = by_program[pi];
	uint32_t n = x->skbs[sw][sender];
	send_large(n, x->kb[sw][sender]);
	return n;
}

uint32_t desktop_x_connection(void)
{
	send_large(1, desktop_x_connection_kb);
	return 1;
}
