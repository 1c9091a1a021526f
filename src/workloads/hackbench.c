/* hackbench, the 2008 program as benchmarks.md §1 describes it.
 *
 * The parent maps its program text (shared, file-backed, executable) and a small private
 * data+stack area, then for each group creates 20 connections and forks 20 receivers and
 * 20 senders (or clones threads). Each child dirties its private pages (copy-on-write),
 * reports ready and waits for the start signal; the parent then starts the clock, and
 * stops it once it has reaped every worker. A sender writes `loops` messages to every
 * receiver of its group; a receiver reads senders × loops messages. A worker that dies
 * (the OOM killer) makes the parent exit without printing a time, as hackbench does.
 *
 * Memory per task, as parameters (benchmarks.md §1): the kernel stack (process.c), the
 * task's slab objects, the page tables (the mm model: the profile's upper levels per address
 * space plus a PTE page per mapped region), the copy-on-write pages, and the skbs or pipe
 * pages in flight. */
#include "workloads/hackbench.h"

#include "kernel/pipe.h"
#include "kernel/process.h"
#include "workloads/scenario.h"
#include "sim/xalloc.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const modes[] = {"process", "thread", NULL};
static const char *const ipcs[] = {"sockets", "pipes", NULL};

#define HP(f) offsetof(struct scenario_config, hackbench.f)
static const struct param_desc params[] = {
    {"hackbench.groups", P_INT, HP(groups), 1, 100000, NULL, "groups of senders and receivers"},
    {"hackbench.loops", P_INT, HP(loops), 1, 100000000, NULL,
     "messages each sender writes to each receiver"},
    {"hackbench.mode", P_ENUM, HP(mode), 0, 0, modes, "workers are processes or threads"},
    {"hackbench.ipc", P_ENUM, HP(ipc), 0, 0, ipcs, "AF_UNIX socketpairs or pipes (-pipe)"},
    {"hackbench.fds", P_INT, HP(fds), 1, 1000, NULL, "receivers (and senders) per group"},
    {"hackbench.msg_size", P_INT, HP(msg_size), 1, 4096, NULL, "bytes per message"},
    {"hackbench.task_slab", P_SIZE, HP(task_slab), 0, 1 << 20, NULL,
     "slab objects per task (task_struct, files, mm_struct, VMAs, its share of the "
     "sockets); 0 = measured, mapped to the profile's word size"},
    {"hackbench.cow_pages", P_INT, HP(cow_pages), 0, 100000, NULL,
     "private pages each child dirties after fork; 0 = measured, mapped to the page size"},
    {"hackbench.hot_pages", P_INT, HP(hot_pages), 0, 100000, NULL,
     "of the private pages, how many every message uses (the stack buffer and the data it "
     "reads); the rest are written once at start-up; 0 = measured, mapped to the page size"},
    {"hackbench.text", P_SIZE, HP(text), 4096, 1LL << 30, NULL, "shared program text touched"},
    {"hackbench.thread_stack", P_SIZE, HP(thread_stack), 4096, 1LL << 30, NULL,
     "user stack per thread (thread mode)"},
    {"hackbench.sndbuf", P_SIZE, HP(sndbuf), 0, 1LL << 30, NULL,
     "socket send buffer limit; 0 = 2.6.25's net.core.wmem_default (sk_init)"},
    {"hackbench.skb_truesize", P_INT, HP(skb_truesize), 0, 1 << 20, NULL,
     "skb->truesize of one write, charged against sndbuf; 0 = from the profile"},
    {"hackbench.skb_head_object", P_INT, HP(skb_head_object), 0, 1 << 20, NULL,
     "bytes of the sk_buff's skbuff_head_cache object; 0 = from the profile"},
    {"hackbench.skb_data_object", P_INT, HP(skb_data_object), 0, 1 << 20, NULL,
     "bytes of the kmalloc object holding a write's data and skb_shared_info; 0 = from "
     "the profile"},
};

void hackbench_defaults(struct hackbench_params *p)
{
	*p = (struct hackbench_params){
	    .groups = 10, /* hackbench's default */
	    .loops = 100, /* hackbench's default */
	    .mode = HACKBENCH_PROCESS,
	    .ipc = HACKBENCH_SOCKETS,
	    .fds = 20,	     /* num_fds */
	    .msg_size = 100, /* DATASIZE */
	    /* 0: from the measurement and the profile (hackbench_footprint) */
	    .task_slab = 0,
	    .cow_pages = 0,
	    .hot_pages = 0,
	    /* the text pages the program runs instructions from, measured: rt-tests hackbench,
	     * glibc 2.36, x86-64, 91 pages of 4 KiB (tools/measure/hackbench_text.py,
	     * data/measured/hackbench_text.txt); today's sizes kept */
	    .text = 364 << 10,
	    .thread_stack = 16 << 10, /* PTHREAD_STACK_MIN, x86 */
	    .sndbuf = 0,
	    .skb_truesize = 0,
	    .skb_head_object = 0,
	    .skb_data_object = 0,
	};
}

enum { R_BIN, R_LIBC, R_LDSO, R_DATA, R_HEAP, R_STACK, NR_REGIONS };

struct worker {
	struct kpipe *conns; /* the group's connections */
	int index;	     /* receiver: its connection; sender: its number */
	bool sender;
	struct process *proc;
	uint64_t stack_vpn; /* its stack: the process's stack region, or a thread's own */
	uint64_t seen_run;  /* nr_switched_in when it last read all its private pages */
	/* what a message touches when nothing else is to be read: stack, binary, libc */
	struct touch_set msg_touch;
	int msg_touch_call; /* the worker_touch call msg_touch is for, -1 before the first */
	bool reaped;
	bool closed; /* it closed its connections (at the end of its loop or at exit) */
};

static struct {
	struct hackbench_params p;
	struct address_space *text;
	uint64_t text_pages;
	/* the regions of the address space: each gets its own page-table page, as the
	 * binary, libc, ld.so, data+bss, heap and stack of a real process do */
	uint64_t vpn[NR_REGIONS], npages[NR_REGIONS];
	/* the text pages each worker_touch call runs, as measured (hackbench_text_pages) */
	struct {
		int n;
		uint64_t vpn[HACKBENCH_TEXT_SET_MAX];
	} text_call[HACKBENCH_TEXT_CALLS];
	struct kpipe *conns;
	struct worker *workers;
	int nr_workers, nr_created;
	int *pid_map; /* pid - pid_base -> worker */
	int pid_base, pid_span;
	struct kmem_pool task_pool;
	bool skb_caches;   /* skb_caches_init ran */
	uint32_t truesize; /* of one write's skb */
	int ready;
	bool started, done, failed;
	struct waitqueue ready_wait, start_wait;
	sim_time_t t_start, t_end;
	int killed;
	/* the reaped workers' rusage as wait4 returns it, receivers [0] and senders [1] */
	uint64_t nvcsw[2], nivcsw[2];
	const char *why;
	long at_start[5]; /* free, anon, page tables, kernel stacks, slab pages at the start */
} H;

int hackbench_text_pages(enum hackbench_text_call call, uint64_t text_pages, uint64_t *out)
{
	const struct hackbench_text_measured *m = &hackbench_text_measured;
	int n = 0;
	for (int i = 0; i < m->set[call].n; i++) {
		uint64_t pg = (uint64_t)m->set[call].page[i] * text_pages / m->pages;
		pg = MIN(pg, text_pages - 1);
		if (!n || out[n - 1] != pg)
			out[n++] = pg;
	}
	return n;
}

/* One message's user-mode accesses: the program's loop and the libc write()/read()
 * wrapper (text), the buffer on the stack, and the private data the loop reads (globals
 * and GOT, libc's data, the TLS block): hackbench.hot_pages private pages in all, the
 * stack's first. Little memory, but every page of it is referenced on every message,
 * which is what reclaim sees. Reading a page again while its young bit is set changes
 * nothing, so the reads are done once each time the worker gets a CPU back (a page
 * unmapped by a reclaimer on another CPU during the same run is thus faulted back at the
 * worker's next run, not at its next message: see docs/model.md). */
__attribute__((noinline)) static void worker_touch_slow(struct worker *w, int call)
{
	sys_touch(w->stack_vpn, TOUCH_WRITE);
	if (current->task.nr_switched_in != w->seen_run) {
		w->seen_run = current->task.nr_switched_in;
		int left = H.p.hot_pages - 1;
		for (int r = R_DATA; r <= R_STACK && left > 0; r++)
			for (uint64_t i = r == R_STACK ? 1 : 0; i < H.npages[r] && left > 0;
			     i++, left--)
				sys_touch(H.vpn[r] + i, TOUCH_READ);
	}
	const int n = H.text_call[call].n;
	for (int i = 0; i < n; i++)
		sys_touch(H.text_call[call].vpn[i], TOUCH_EXEC);
	/* a message's pages (two, or one with large pages) are kept with the stack's for the
	 * fast path; start-up and exit take this path */
	if (n <= 2 && w->msg_touch_call != call) {
		w->msg_touch = (struct touch_set){.n = 1 + n,
						  .kind = {TOUCH_WRITE, TOUCH_EXEC, TOUCH_EXEC},
						  .vpn = {w->stack_vpn, H.text_call[call].vpn[0],
							  H.text_call[call].vpn[n > 1 ? 1 : 0]}};
		w->msg_touch_call = call;
	}
	if (w->msg_touch_call == call)
		touch_set_update(&w->msg_touch);
}

/* Inline: once per message. While nothing else is to be read, the three accesses at once
 * with their PTEs found before (the same accesses, in the same order). */
static inline void worker_touch(struct worker *w, int call)
{
	if (current->task.nr_switched_in == w->seen_run && w->msg_touch_call == call &&
	    sys_touch_set(&w->msg_touch))
		return;
	worker_touch_slow(w, call);
}

/* Writes every private page once: the parent at start-up, each child after fork (COW). */
static void touch_private(void)
{
	for (int r = R_DATA; r <= R_STACK; r++)
		for (uint64_t i = 0; i < H.npages[r]; i++)
			sys_touch(H.vpn[r] + i, TOUCH_WRITE);
}

/* The connections a worker's process holds, put at its exit (exit_files) if it did not
 * close them itself: a killed receiver's socket takes its queued skbs with it and its
 * senders get EPIPE (SIGPIPE) at their next write; a killed sender's write ends go. */
static void worker_close(void *arg)
{
	struct worker *w = arg;
	if (w->closed)
		return;
	w->closed = true;
	if (w->sender)
		for (int j = 0; j < H.p.fds; j++)
			kpipe_close_write(&w->conns[j]);
	else
		kpipe_close_read(&w->conns[w->index]);
}

/* exit(): a process runs libc's exit path (its atexit handlers, stdio's flush, ld.so's
 * destructors) before _exit; a thread returns and leaves by pthread's path, not measured */
_Noreturn static void worker_exit(struct worker *w, int code)
{
	if (H.p.mode == HACKBENCH_PROCESS)
		worker_touch(w, HACKBENCH_TEXT_EXIT);
	sys_exit(code);
}

static void worker_main(void *arg)
{
	struct worker *w = arg;
	if (H.p.mode == HACKBENCH_PROCESS) { /* threads share the files: closed at exit_group */
		current_process()->exit_files = worker_close;
		current_process()->exit_files_arg = w;
	}
	w->seen_run = UINT64_MAX; /* the first message reads everything */
	w->msg_touch_call = -1;
	/* start-up: the child's copy-on-write faults and its first text pages */
	if (H.p.mode == HACKBENCH_PROCESS) {
		w->stack_vpn = H.vpn[R_STACK]; /* the stack every process has at that address */
		touch_private();
	} else {
		sys_touch(w->stack_vpn, TOUCH_WRITE);
	}
	worker_touch(w, w->sender ? HACKBENCH_TEXT_SENDER_START : HACKBENCH_TEXT_RECEIVER_START);
	/* ready(): one byte down the ready pipe, then poll the wake pipe */
	cpu_work_sys(MM->hw->syscall_ns);
	if (++H.ready == H.nr_workers)
		wake_up_all(&H.ready_wait);
	while (!H.started) {
		sleep_on(&H.start_wait, 0, true);
		check_fatal_signal();
	}
	if (w->sender) {
		for (int l = 0; l < H.p.loops; l++)
			for (int j = 0; j < H.p.fds; j++) {
				worker_touch(w, HACKBENCH_TEXT_SENDER);
				if (kpipe_write(&w->conns[j], (uint32_t)H.p.msg_size) < 0) {
					check_fatal_signal();
					worker_exit(w, 1); /* barf("SENDER: write") */
				}
			}
		worker_close(w);
	} else {
		struct kpipe *c = &w->conns[w->index];
		long n = (long)H.p.fds * H.p.loops;
		for (long i = 0; i < n; i++) {
			worker_touch(w, HACKBENCH_TEXT_RECEIVER);
			if (kpipe_read(c, (uint32_t)H.p.msg_size) <= 0) {
				check_fatal_signal();
				worker_exit(w, 1); /* barf("SERVER: read") */
			}
		}
		worker_close(w);
	}
	worker_exit(w, 0);
}

/* The fork path's slab objects (task_struct, files, mm_struct, VMAs...). The kernel stack
 * (process.c) and the page tables (the mm model) are charged where they are allocated. */
static bool worker_kmem(void)
{
	return kmem_charge(&H.task_pool, H.p.task_slab, GFP_KERNEL);
}

static void worker_free_kmem(void)
{
	kmem_uncharge(&H.task_pool, H.p.task_slab);
}

static void map_pid(int pid, int idx)
{
	if (!H.pid_map) {
		H.pid_base = pid;
		H.pid_span = H.nr_workers + 64;
		H.pid_map = xcalloc((size_t)H.pid_span, sizeof(int));
	}
	int off = pid - H.pid_base;
	if (off < 0 || off >= H.pid_span) {
		int span = off + H.nr_workers + 64;
		H.pid_map = xrealloc(H.pid_map, (size_t)span * sizeof(int));
		memset(H.pid_map + H.pid_span, 0, (size_t)(span - H.pid_span) * sizeof(int));
		H.pid_span = span;
	}
	H.pid_map[off] = idx + 1;
}

static _Noreturn void parent_fail(const char *why)
{
	H.failed = true;
	H.why = why;
	H.done = true;
	sys_exit(1);
}

/* hackbench's barf(): the call that failed and strerror(errno), then exit(1). */
static _Noreturn void parent_barf(const char *call, int err)
{
	static char why[96];
	snprintf(why, sizeof(why), "%s (error: %s)", call, strerror(err));
	parent_fail(why);
}

static void create_worker(struct worker *w)
{
	const char *call = H.p.mode == HACKBENCH_THREAD ? "pthread_create()" : "fork()";
	if (!worker_kmem())
		parent_barf(call, ENOMEM);
	if (H.p.mode == HACKBENCH_THREAD) {
		/* glibc's allocate_stack: a refused stack mapping is pthread_create's EAGAIN */
		w->stack_vpn =
		    sys_mmap_anon_try(H.p.thread_stack / MM->page_size, VM_READ | VM_WRITE);
		if (!w->stack_vpn) {
			worker_free_kmem();
			parent_barf(call, EAGAIN);
		}
		w->proc =
		    sys_clone_thread(w->sender ? "hackbench-s" : "hackbench-r", worker_main, w);
	} else {
		w->proc = sys_fork(w->sender ? "hackbench-s" : "hackbench-r", worker_main, w);
	}
	if (!w->proc) {
		worker_free_kmem();
		parent_barf(call, sys_errno);
	}
	map_pid(w->proc->task->task.pid, (int)(w - H.workers));
	H.nr_created++;
}

/* The text is the program's executed pages object by object, mapped in that order (R_BIN,
 * R_LDSO, R_LIBC): page pg of it is in the region that holds its file offset. */
static uint64_t text_page_vpn(uint64_t pg)
{
	static const int order[] = {R_BIN, R_LDSO, R_LIBC};
	for (int o = 0; o < 3; o++) {
		if (pg < H.npages[order[o]])
			return H.vpn[order[o]] + pg;
		pg -= H.npages[order[o]];
	}
	return H.vpn[R_LIBC] + H.npages[R_LIBC] - 1; /* not reached: pg < text_pages */
}

static void parent_main(void *arg)
{
	(void)arg;
	/* the program: text of the binary, libc and ld.so (one shared file here), and its
	 * private data+bss, heap and stack, among which the COW pages are spread */
	uint64_t t = H.text_pages, bin = t >= 8 ? 2 : 1, ldso = t >= 8 ? 2 : 0;
	uint64_t cow = (uint64_t)H.p.cow_pages, third = cow / 3;
	H.npages[R_BIN] = bin;
	H.npages[R_LDSO] = ldso;
	H.npages[R_LIBC] = t - bin - ldso;
	H.npages[R_DATA] = third;
	H.npages[R_HEAP] = third;
	H.npages[R_STACK] = cow - 2 * third;
	/* placed as exec and ld.so place them: the binary's text, data and brk heap low, ld.so
	 * and then libc in the mmap area, the stack at the top (their file offsets in the one
	 * text file stay in region order) */
	static const int order[] = {R_BIN, R_LDSO, R_LIBC};
	static const enum map_area area[NR_REGIONS] = {
	    [R_BIN] = MAP_AREA_TEXT, [R_LIBC] = MAP_AREA_MMAP, [R_LDSO] = MAP_AREA_MMAP,
	    [R_DATA] = MAP_AREA_BRK, [R_HEAP] = MAP_AREA_BRK,  [R_STACK] = MAP_AREA_STACK};
	for (int k = 0; k < 3; k++) {
		int r = order[k];
		uint64_t off = 0;
		for (int q = R_BIN; q < r; q++)
			off += H.npages[q];
		if (!H.npages[r])
			continue;
		H.vpn[r] = sys_map_area(area[r], H.text, off, H.npages[r], VM_READ | VM_EXEC);
		for (uint64_t i = 0; i < H.npages[r]; i++)
			sys_touch(H.vpn[r] + i, TOUCH_EXEC);
	}
	for (int r = R_DATA; r <= R_STACK; r++)
		if (H.npages[r])
			H.vpn[r] = sys_map_area(area[r], NULL, 0, H.npages[r], VM_READ | VM_WRITE);
	for (int i = 0; i < HACKBENCH_TEXT_CALLS; i++) {
		uint64_t pg[HACKBENCH_TEXT_SET_MAX];
		H.text_call[i].n = hackbench_text_pages(i, H.text_pages, pg);
		for (int k = 0; k < H.text_call[i].n; k++)
			H.text_call[i].vpn[k] = text_page_vpn(pg[k]);
	}
	touch_private();

	int per = 2 * H.p.fds;
	for (int g = 0; g < H.p.groups; g++) {
		struct kpipe *conns = &H.conns[g * H.p.fds];
		for (int j = 0; j < H.p.fds; j++) {
			cpu_work_sys(MM->hw->syscall_ns); /* socketpair() / pipe() */
			/* set up here, group by group as hackbench creates them, so that a
			 * fork failing at pid_max leaves the later groups unallocated */
			kpipe_init(&conns[j],
				   H.p.ipc == HACKBENCH_PIPES ? KPIPE_PIPE : KPIPE_SOCKET,
				   H.p.sndbuf, H.truesize);
			conns[j].writers = H.p.fds;
		}
		for (int j = 0; j < per; j++) {
			struct worker *w = &H.workers[g * per + j];
			w->conns = conns;
			w->sender = j >= H.p.fds;
			w->index = w->sender ? j - H.p.fds : j;
			create_worker(w);
		}
	}
	while (H.ready < H.nr_workers) {
		sleep_on(&H.ready_wait, 0, true);
		check_fatal_signal();
	}
	H.t_start = local_now();
	H.started = true;
	H.at_start[0] = global_page_state(NR_FREE_PAGES);
	H.at_start[1] = global_page_state(NR_ANON_PAGES);
	H.at_start[2] = global_page_state(NR_PAGETABLE);
	H.at_start[3] = global_page_state(NR_KERNEL_STACK);
	H.at_start[4] = global_page_state(NR_SLAB_UNRECLAIMABLE);
	cpu_work_sys(MM->hw->syscall_ns); /* write(wakefds[1]) */
	wake_up_all(&H.start_wait);
	int code;
	for (int reaped = 0; reaped < H.nr_workers; reaped++) {
		int pid = sys_wait(&code);
		if (pid < 0)
			break;
		int off = pid - H.pid_base;
		if (off >= 0 && off < H.pid_span && H.pid_map[off]) {
			struct worker *w = &H.workers[H.pid_map[off] - 1];
			w->reaped = true;
			H.nvcsw[w->sender] += w->proc->task->task.nvcsw;
			H.nivcsw[w->sender] += w->proc->task->task.nivcsw;
			worker_free_kmem();
		}
		if (code != 0) { /* reap_worker: !WIFEXITED(status) -> exit(1) */
			H.killed++;
			parent_fail(code == 137 ? "a worker was killed" : "a worker failed");
		}
	}
	H.t_end = local_now();
	H.done = true;
	sys_exit(0);
}

static uint32_t align_up(uint32_t n, uint32_t a)
{
	return (n + a - 1) / a * a;
}

/* The kmalloc cache an object of n bytes comes from (2.6.25 kmalloc_sizes.h: 96 exists only
 * below 64-byte cache lines, 192 only below 128-byte ones). */
static uint32_t kmalloc_size(uint32_t n, uint32_t line)
{
	if (n <= 96 && n > 64 && line < 64)
		return 96;
	if (n <= 192 && n > 128 && line < 128)
		return 192;
	uint32_t s = 32;
	while (s < n)
		s <<= 1;
	return s;
}

/* One unix_stream_sendmsg of len bytes (2.6.25): alloc_skb takes an sk_buff from
 * skbuff_head_cache (SLAB_HWCACHE_ALIGN) and kmallocs SKB_DATA_ALIGN(len) plus the
 * skb_shared_info; truesize counts the sk_buff and the aligned data only, so a socket
 * holds sndbuf/truesize skbs whose slab memory is larger than sndbuf. The struct sizes
 * are 2.6.25's (the profile's sk_buff_bytes, skb_shared_info_bytes). */
static void skb_sizes(uint32_t len, uint32_t *truesize, uint32_t *head_object,
		      uint32_t *data_object)
{
	const struct hw_profile *hw = MM->hw;
	uint32_t line = hw->l1_cache_bytes ? hw->l1_cache_bytes : 32;
	uint32_t head = hw->sk_buff_bytes;
	uint32_t shinfo = skb_shared_info_bytes();
	uint32_t data = align_up(len, line);
	*truesize = data + head;
	*head_object = align_up(head, line);
	*data_object = kmalloc_size(data + shinfo, line);
}

static int hackbench_start(const struct scenario_config *cfg, uint64_t seed)
{
	(void)seed;
	memset(&H, 0, sizeof(H));
	H.p = cfg->hackbench;
	hackbench_footprint(MM->hw, MM->page_size, &H.p);
	if (!H.p.sndbuf)
		H.p.sndbuf = sk_wmem_default();
	H.task_pool.owner = OWNER_SLAB;
	H.nr_workers = H.p.groups * 2 * H.p.fds;
	H.workers = xcalloc((size_t)H.nr_workers, sizeof(*H.workers));
	H.conns = xcalloc((size_t)H.p.groups * (size_t)H.p.fds, sizeof(*H.conns));
	uint32_t truesize, head_object, data_object;
	skb_sizes((uint32_t)H.p.msg_size, &truesize, &head_object, &data_object);
	if (H.p.skb_truesize)
		truesize = (uint32_t)H.p.skb_truesize;
	if (H.p.skb_head_object)
		head_object = (uint32_t)H.p.skb_head_object;
	if (H.p.skb_data_object)
		data_object = (uint32_t)H.p.skb_data_object;
	skb_caches_init(head_object, data_object);
	H.skb_caches = true;
	H.truesize = truesize;
	H.text_pages = (H.p.text + MM->page_size - 1) / MM->page_size;
	H.text = file_create("hackbench", H.text_pages, H.text_pages, true);
	struct process *parent = process_spawn("hackbench", parent_main, NULL);
	return parent ? 0 : -1;
}

static bool hackbench_finished(void)
{
	return H.done;
}

static void hackbench_report(const struct scenario_config *cfg, struct workload_result *r)
{
	(void)cfg;
	const struct reclaim_stats *rs = &MM->rstats;
	result_printf(r, "Running with %d*%d (== %d) tasks.\n", H.p.groups, 2 * H.p.fds,
		      H.nr_workers);
	r->completed = H.done && !H.failed;
	if (r->completed) {
		double secs = (double)(H.t_end - H.t_start) / 1e9;
		result_printf(r, "Time: %.3f\n", secs);
		result_add_metric(r, "time", secs, "s", false, true);
	} else if (H.failed) {
		result_printf(r, "hackbench: %s (%d of %d workers created); no Time printed\n",
			      H.why, H.nr_created, H.nr_workers);
	} else {
		result_printf(r, "hackbench: did not finish (%d of %d workers ready)\n", H.ready,
			      H.nr_workers);
	}
	result_printf(
	    r,
	    "hackbench: peak socket buffers %u pages, task slab %u pages; %llu context switches\n",
	    (unsigned)skb_caches_peak_pages(), H.task_pool.peak_pages,
	    (unsigned long long)sched_get_stats()->context_switches);
	result_printf(r,
		      "hackbench: the reaped workers' context switches: %llu voluntary, %llu "
		      "involuntary (receivers %llu and %llu, senders %llu and %llu)\n",
		      (unsigned long long)(H.nvcsw[0] + H.nvcsw[1]),
		      (unsigned long long)(H.nivcsw[0] + H.nivcsw[1]),
		      (unsigned long long)H.nvcsw[0], (unsigned long long)H.nivcsw[0],
		      (unsigned long long)H.nvcsw[1], (unsigned long long)H.nivcsw[1]);
	result_printf(r,
		      "hackbench: per worker: %d private pages (%d used by every message), "
		      "%llu bytes of task slab\n",
		      H.p.cow_pages, H.p.hot_pages, (unsigned long long)H.p.task_slab);
	if (H.p.ipc == HACKBENCH_SOCKETS && H.conns)
		result_printf(
		    r,
		    "hackbench: skb per write: truesize %u; slab objects %u (%s, %u per slab) + "
		    "%u (kmalloc, %u per slab) bytes; sndbuf %llu\n",
		    H.conns[0].truesize, skbuff_head_cache.size, skbuff_head_cache.name,
		    skbuff_head_cache.objects, skb_data_cache.size, skb_data_cache.objects,
		    (unsigned long long)H.conns[0].sndbuf);
	if (H.started)
		result_printf(
		    r,
		    "hackbench: at the start signal: free %ld, anon %ld, page tables %ld, "
		    "kernel stacks %ld, slab %ld pages\n",
		    H.at_start[0], H.at_start[1], H.at_start[2], H.at_start[3], H.at_start[4]);
	/* KOSAKI's debug figures: tasks inside shrink_zone at once (kswapd included) and the
	 * longest try_to_free_pages call, in jiffies of the machine's HZ */
	result_printf(r, "       max parallel reclaim tasks:     %d\n", rs->max_shrinking);
	result_printf(
	    r, "       max consumption time of\n        try_to_free_pages():           %llu\n",
	    (unsigned long long)(rs->max_ttfp_ns / JIFFY_NS));
	result_add_metric(r, "max_parallel_reclaim", rs->max_shrinking, "tasks", false, false);
	result_add_metric(r, "max_ttfp", (double)rs->max_ttfp_ns / 1e9, "s", false, false);
	result_add_metric(r, "oom_kills", (double)rs->oom_kills, "kills", false, false);
	result_add_metric(r, "finished", r->completed, "bool", true, false);
}

static void hackbench_cleanup(void)
{
	free(H.workers);
	if (H.conns)
		for (int i = 0; i < H.p.groups * H.p.fds; i++)
			kpipe_release(&H.conns[i]);
	free(H.conns);
	if (H.skb_caches)
		skb_caches_destroy();
	free(H.pid_map);
	kmem_pool_release(&H.task_pool);
	memset(&H, 0, sizeof(H));
}

/* Host memory: the tasks alive at once at most (every sender and receiver, and the parent). */
static uint64_t hackbench_host_bytes(const struct scenario_config *cfg)
{
	const struct hackbench_params *p = &cfg->hackbench;
	uint64_t tasks = (uint64_t)p->groups * (uint64_t)p->fds * 2 + 1;
	/* connections are set up group by group: no further than the fork that fails */
	uint64_t groups = MIN((uint64_t)p->groups, PID_MAX_DEFAULT / (2 * (uint64_t)p->fds) + 1);
	/* the default send buffer at most (sk_wmem_default) and the truesize at least */
	const struct hw_profile *hw = hw_profile_find(cfg->profile);
	uint64_t skb = hw && hw->sk_buff_bytes ? hw->sk_buff_bytes : 128;
	uint64_t sndbuf = p->sndbuf ? p->sndbuf : (skb + 256) * 256;
	uint64_t ring =
	    MIN(sndbuf / (skb + (uint64_t)p->msg_size) + 2, 4096) * sizeof(struct skb_slabs);
	/* hackbench_start allocates every worker's and every connection's record up front,
	 * whatever the forks reach */
	uint64_t all = (uint64_t)p->groups * (uint64_t)p->fds;
	return scenario_task_host_bytes(tasks) +
	       all * (2 * sizeof(struct worker) + sizeof(struct kpipe)) +
	       groups * (uint64_t)p->fds * ring;
}

const struct workload hackbench_workload = {
    .name = "hackbench",
    .description = "groups of 20 senders and 20 receivers exchanging 100-byte messages",
    .params = params,
    .nparams = sizeof(params) / sizeof(params[0]),
    .start = hackbench_start,
    .finished = hackbench_finished,
    .report = hackbench_report,
    .cleanup = hackbench_cleanup,
    .host_bytes = hackbench_host_bytes,
};
