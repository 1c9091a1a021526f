/* hackbench (2008: `hackbench [-pipe] N [process|thread] [loops]`, benchmarks.md §1):
 * N groups of 20 receivers and 20 senders; every sender writes `loops` 100-byte messages
 * to each receiver of its group over a socketpair (or a pipe). The memory it costs is the
 * kernel side of thousands of tasks and connections, which is why it drives reclaim. */
#ifndef MMSIM_WORKLOADS_HACKBENCH_H
#define MMSIM_WORKLOADS_HACKBENCH_H

#include "sim/types.h"

enum hackbench_mode { HACKBENCH_PROCESS, HACKBENCH_THREAD };
enum hackbench_ipc { HACKBENCH_SOCKETS, HACKBENCH_PIPES };

struct hackbench_params {
	int groups;
	int loops;
	int mode;     /* enum hackbench_mode */
	int ipc;      /* enum hackbench_ipc */
	int fds;      /* receivers and senders per group (hackbench's num_fds, 20) */
	int msg_size; /* bytes per message (100) */
	/* per-task footprint, benchmarks.md §1 "Memory footprint" */
	uint64_t task_slab;    /* task_struct, signal, files, mm_struct, VMAs... */
	int cow_pages;	       /* private anon pages each child dirties after fork */
	int hot_pages;	       /* of those, the ones every message uses (stack buffer first) */
	uint64_t text;	       /* shared program text (hackbench, libc, ld.so) */
	uint64_t thread_stack; /* user stack of a thread (PTHREAD_STACK_MIN) */
	uint64_t sndbuf;       /* sk_sndbuf of a socket (net.core.wmem_default) */
	int skb_truesize;      /* skb->truesize of one write; 0 = computed (hackbench.c) */
	int skb_head_object;   /* bytes of the sk_buff slab object; 0 = computed */
	int skb_data_object;   /* bytes of the kmalloc data object; 0 = computed */
};

void hackbench_defaults(struct hackbench_params *p);
struct hw_profile;
/* Fills the footprint fields left at 0 from the measurement, mapped to the profile's page
 * and word size (hackbench_footprint.c). */
void hackbench_footprint(const struct hw_profile *hw, uint32_t page_size,
			 struct hackbench_params *p);
/* What hackbench's code runs, as measured (tools/measure/hackbench_text.py,
 * data/measured/hackbench_text.txt). */
enum hackbench_text_call {
	HACKBENCH_TEXT_STARTUP,	 /* a worker's start-up */
	HACKBENCH_TEXT_SENDER,	 /* a sender's message */
	HACKBENCH_TEXT_RECEIVER, /* a receiver's message */
	HACKBENCH_TEXT_CALLS
};
/* The page of the binary and of libc (offsets in each, bin_pages and libc_pages > 0) that
 * a call runs: a receiver on the binary's page 0, a sender on its page 1, both loops on
 * the same libc page (1), start-up on page 0 of each; fewer pages fold onto the last. */
void hackbench_text_pages(enum hackbench_text_call call, uint64_t bin_pages, uint64_t libc_pages,
			  uint64_t *bin_off, uint64_t *libc_off);
extern const struct workload hackbench_workload;

#endif
