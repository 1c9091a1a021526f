/* desktop: Wu Fengguang's 2009 memory-tight GNOME desktop test (benchmarks.md §5;
 * kernel-reclaim.md §3). A script launches 45 programs one after another, and after each
 * launch switches to every open window in turn (one wmctrl per window) and makes the running
 * firefox open one more tab. Every program replays a measured one (desktop_measured.c,
 * docs/desktop-measured.md): the files it maps and the part of each it references at
 * start-up and per window switch, its anonymous memory, its CPU, and what it does in the
 * background while idle (desktop.background), and the large X protocol messages its
 * start-up and its switches sent (desktop.x_sends). The figure of merit is the
 * "progress timing": the time at which each step of the script starts. */
#ifndef MMSIM_WORKLOADS_DESKTOP_H
#define MMSIM_WORKLOADS_DESKTOP_H
#include "sim/types.h"
struct desktop_params {
	int programs;	 /* programs launched, from the thread's list (45) */
	int noop_steps;	 /* the commented-out ": oocalc" ... lines: a step without a launch (6) */
	int size_scale;	 /* percent: every measured size to the model's (100 = as measured) */
	int cpu_scale;	 /* percent: measured CPU to the machine's (clock ratio) */
	int background;	 /* 1: programs replay their measured idle periods while waiting (1) */
	int idle_end;	 /* seconds the script waits after its last step, everything open (0) */
	int x_sends;	 /* 1: start-ups and switches send their measured large unix-socket
			  * messages, order-2 allocations on 2.6.30 (desktop_x.c) (1) */
	int pinned_kb;	 /* a bounding experiment, not a measured input: KiB of swap-backed
			  * buffers the X server holds pinned and unmapped, as the i915 driver
			  * holds a GEM object's pages while it is bound (0) */
	int switch_wait; /* 1: the script waits for each start-up and for each switch to be
			  * served by the program; 0: as the thread's script, it waits only
			  * for wmctrl and the X server (0) */
};
void desktop_defaults(struct desktop_params *p);
/* The thread's program list, in order (desktop_list.c). */
#define DESKTOP_NR_THREAD 45
extern const char *const desktop_cmdline[DESKTOP_NR_THREAD];
/* What step s of the script prints after "N ": a command line, then the no-op lines. */
const char *desktop_step_name(int s, int programs);
/* The heap pages (0 <= q < n) that measured switch k (taken modulo the measured switches)
 * to desktop_programs[pi] touched, scaled to a heap of n pages: fn(arg, q) for each, in
 * increasing order; false if that program's switches were not measured (desktop_pagesets.c). */
bool desktop_anon_switch(int pi, uint32_t k, uint64_t n, void (*fn)(void *, uint64_t), void *arg);
/* The heap pages (0 <= q < n) that measured idle period k (modulo the measured periods) of
 * desktop_programs[pi] touched, scaled to a heap of n pages, as desktop_anon_switch; false
 * if it has no measured background activity. */
bool desktop_anon_idle(int pi, uint32_t k, uint64_t n, void (*fn)(void *, uint64_t), void *arg);
extern const struct workload desktop_workload;
#endif
