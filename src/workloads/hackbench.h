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
 * data/measured/hackbench_text.txt): a worker's start-up and message loop by role (fork to
 * its exit() call), a message by role, the exit path. */
enum hackbench_text_call {
	HACKBENCH_TEXT_RECEIVER_START,
	HACKBENCH_TEXT_SENDER_START,
	HACKBENCH_TEXT_SENDER,	 /* a sender's message */
	HACKBENCH_TEXT_RECEIVER, /* a receiver's message */
	HACKBENCH_TEXT_EXIT,
	HACKBENCH_TEXT_CALLS
};
#define HACKBENCH_TEXT_SET_MAX 24
/* The measured pages: 4 KiB pages of the program's executed text, the objects concatenated
 * in the order the model maps them (the binary, ld.so, libc, libpthread), in ascending
 * order (src/workloads/hackbench_text.c, generated from the data). */
struct hackbench_text_measured {
	uint32_t pages; /* the program's executed pages: hackbench.text's default / 4 KiB */
	struct {
		int n;
		uint16_t page[HACKBENCH_TEXT_SET_MAX];
	} set[HACKBENCH_TEXT_CALLS];
};
extern const struct hackbench_text_measured hackbench_text_measured;
/* The pages of a text of text_pages pages (> 0) that a call runs: each measured page
 * scaled to the text's size (page x text_pages / measured pages: the same pages at 4 KiB and
 * the default size, fewer and larger ones with large pages), ascending, each once. Fills
 * out (HACKBENCH_TEXT_SET_MAX) and returns how many. */
int hackbench_text_pages(enum hackbench_text_call call, uint64_t text_pages, uint64_t *out);
extern const struct workload hackbench_workload;

#endif
