/* A kernel build under memory pressure, `make -jN vmlinux` (benchmarks.md §4): make keeps N
 * compile jobs running; each is forked by make and execs a compiler whose text is a shared
 * executable file mapping, reads its source and a share of a hot header set through the
 * page cache, grows an anonymous heap (with ggc-style full passes), and writes an object
 * file; a final link reads every object. A daemon ("named" in Rik van Riel's runs) can hold
 * memory in the background. Figure of merit: elapsed time and CPU% as time(1) reports them.
 *
 * Every default marked [estimate] is one of benchmarks.md §4's estimates, made a parameter.
 * contest (contest.c) runs the same build under its loads through the API below. */
#ifndef MMSIM_WORKLOADS_KBUILD_H
#define MMSIM_WORKLOADS_KBUILD_H

#include "sim/types.h"

struct process;

struct kbuild_params {
	int parallel;	   /* make -jN */
	int nr_jobs;	   /* compile jobs in the build: 1000-2000 for 2.6 defconfig [estimate] */
	uint64_t job_cpu;  /* mean CPU per compile job, drawn from 0.5x..1.5x: "sub-second to a
			    * few seconds" on 2004 hardware [estimate] */
	uint64_t heap_min; /* compiler anonymous heap at its peak: the smaller of two uniform */
	uint64_t heap_max; /* draws in [min, max], 5-30 MB per .c file [estimate] */
	uint64_t text;	   /* cc1 text, shared executable file pages: 3-10 MB [estimate] */
	uint64_t src;	   /* bytes of the .c file each job reads [estimate] */
	uint64_t headers;  /* the hot include set, "tens of MB" for the build [estimate] */
	uint64_t
	    hdr_read; /* header bytes each job reads, "tens to hundreds" of headers [estimate] */
	uint64_t obj; /* bytes of the .o each job writes, "tens of KB" [estimate] */
	uint64_t make_rss; /* make's own anonymous memory (dependency graph) [estimate] */
	uint64_t make_cpu; /* make's CPU per job it starts (reading .cmd files, rules) [estimate] */
	uint64_t step;	   /* compiler CPU between bursts of memory references (model grain) */
	int heap_refs;	   /* heap pages referenced per step, uniformly [estimate] */
	int text_refs;	   /* text pages executed per step, uniformly [estimate] */
	uint64_t gc_min;   /* ggc-min-heapsize: 4 MB (gcc 3.3 default) */
	int gc_expand;	   /* ggc-min-expand: 30 % (gcc 3.3 default) */
	uint64_t link_cpu; /* final link of vmlinux: CPU [estimate] */
	uint64_t link_heap;	 /* final link: anonymous memory, "tens of MB" [estimate] */
	uint64_t named;		 /* background daemon's anonymous memory; 0 = none */
	uint64_t named_interval; /* the daemon wakes this often ... [estimate] */
	int named_refs;		 /* ... and references this many random pages [estimate] */
};

void kbuild_defaults(struct kbuild_params *p);
extern const struct workload kbuild_workload;

/* ---- for contest.c: one build as a unit ---- */
struct kbuild_build {
	sim_time_t start, end;
	uint64_t cpu_ns; /* user + system of make and everything it forked */
	int failed;	 /* jobs that did not exit 0 (OOM kills) */
	bool done;
};
/* Creates the files and the job table (in a workload's start). */
void kbuild_setup(const struct kbuild_params *p, uint64_t seed);
void kbuild_teardown(void);
/* Forks make from the calling process; *b is filled in as it runs and when it ends. */
struct process *kbuild_fork_make(struct kbuild_build *b);
/* Writes back and drops the build's page cache (between contest's runs). */
void kbuild_drop_caches(void);
/* Sum of free pages in every zone now. */
unsigned long kbuild_free_pages(void);

#endif
