/* A kernel build under memory pressure, `make -jN vmlinux` (benchmarks.md §4): make keeps N
 * compile jobs running; each is forked by make and execs a compiler whose text is a shared
 * executable file mapping, reads its source and a share of a hot header set through the
 * page cache, grows an anonymous heap (with ggc-style full passes), and writes an object
 * file; a final link reads every object. A daemon ("named" in Rik van Riel's runs) can hold
 * memory in the background. Figure of merit: elapsed time and CPU% as time(1) reports them.
 *
 * Every compile job replays a job of a measured sample (kbuild_measured.c, drawn uniformly):
 * its cc1 anonymous peak and growth, CPU, source, headers and object bytes. Defaults marked
 * [estimate] are benchmarks.md §4's estimates or mmsim's own, made parameters.
 * contest (contest.c) runs the same build under its loads through the API below. */
#ifndef MMSIM_WORKLOADS_KBUILD_H
#define MMSIM_WORKLOADS_KBUILD_H

#include "sim/types.h"

struct process;

struct kbuild_params {
	int parallel;	   /* make -jN */
	int nr_jobs;	   /* compile jobs in the build: 1088, 2.6.24 i386 defconfig (measured) */
	int cpu_scale;	   /* percent: a measured job's CPU to this machine's (clock ratio) */
	int heap_scale;	   /* percent: a measured cc1 anonymous peak to the model's (100) */
	uint64_t text;	   /* cc1 text + libraries resident, shared executable pages (measured) */
	uint64_t headers;  /* the hot include set: the measured jobs' distinct headers */
	uint64_t make_rss; /* make's own memory (measured peak RSS) */
	uint64_t make_cpu; /* make's CPU per job it starts (reading .cmd files, rules) [estimate] */
	uint64_t step;	   /* compiler CPU between bursts of memory references (model grain) */
	int heap_refs;	   /* heap pages referenced per step, uniformly [estimate] */
	int text_refs;	   /* text pages executed per step, uniformly [estimate] */
	uint64_t gc_min;   /* ggc-min-heapsize: 4 MB (gcc 3.3 default) */
	int gc_expand;	   /* ggc-min-expand: 30 % (gcc 3.3 default) */
	uint64_t link_cpu; /* final link: CPU of the measured ld -r stand-in, before cpu_scale */
	uint64_t link_heap;    /* final link: peak RSS of the measured ld -r stand-in */
	uint64_t named;	       /* background daemon's anonymous memory; 0 = none */
	int named_qps;	       /* queries a second it answers; 0 = idle (measured) */
	int named_query_pages; /* random pages of its memory one query reads (measured) */
};

void kbuild_defaults(struct kbuild_params *p);
extern const struct workload kbuild_workload;

/* ---- for contest.c: one build as a unit ---- */
struct kbuild_build {
	sim_time_t start, end;
	uint64_t cpu_ns; /* user + system of make and everything it forked */
	int failed;	 /* jobs that did not exit 0 (OOM kills) */
	/* compile jobs alive (forked, not exited) integrated over the time make still had jobs
	 * to start: a make that keeps its N slots full gives alive_ns / fill_ns = N */
	int alive;
	sim_time_t alive_since, fill_ns;
	uint64_t alive_ns;
	bool filling;
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
