/* A kernel build under memory pressure, `make -jN vmlinux` (benchmarks.md §4): make keeps N
 * compile jobs running; each is forked by make and execs a compiler whose text is a shared
 * executable file mapping, reads its source and a share of a hot header set through the
 * page cache, grows an anonymous heap and re-references it with the measured reuse gaps,
 * and writes an object file; a final link reads every object. A daemon ("named" in Rik van Riel's
 * runs) can hold memory in the background. Figure of merit: elapsed time and CPU% as time(1)
 * reports them.
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
	int parallel;	  /* make -jN */
	int nr_jobs;	  /* compile jobs in the build: 1088, 2.6.24 i386 defconfig (measured) */
	int cpu_scale;	  /* percent: a measured job's CPU to this machine's (clock ratio) */
	int heap_scale;	  /* percent: a measured cc1 anonymous peak to the model's (100) */
	uint64_t text;	  /* cc1 text + libraries the jobs reference, one shared file (measured) */
	uint64_t headers; /* the hot include set: the measured jobs' distinct headers */
	uint64_t make_anon;   /* make's anonymous memory (measured) */
	uint64_t make_text;   /* make's text and libraries it references (measured) */
	uint64_t make_cpu;    /* make's CPU per compile job it starts (measured) */
	uint64_t shell_anon;  /* the job's sh -c's anonymous memory (measured) */
	uint64_t driver_anon; /* the gcc driver's anonymous memory (measured) */
	uint64_t as_anon;     /* GNU as's anonymous memory at exit, beside cc1 (measured) */
	uint64_t step;	      /* compiler CPU between bursts of memory references (model grain) */
	int heap_refs;	      /* grown heap pages re-referenced per step, by reuse gap (measured) */
	int text_refs;	      /* text pages executed per step, uniformly (measured) */
	uint64_t link_cpu;    /* final link: CPU of the measured ld -r stand-in, before cpu_scale */
	uint64_t link_heap;   /* final link: peak RSS of the measured ld -r stand-in */
	uint64_t named;	      /* background daemon's anonymous memory; 0 = none */
	int named_qps;	      /* queries a second it answers; 0 = idle (measured) */
	int named_query_pages; /* random pages of its memory one query reads (measured) */
};

void kbuild_defaults(struct kbuild_params *p);

/* ---- a compile job's heap references (docs/kbuild-measured.md, "References inside a
 * compile job") ----
 * Every step a job re-references heap_refs distinct pages of its grown heap: for each, a
 * reuse gap is drawn from the table (the steps since the page was last referenced), and a
 * page last referenced that many steps ago is taken; the last bin is "lo and more": a
 * uniformly drawn page not referenced for that long (4 tries). A draw that finds no such
 * page (early in the job, or every page of that step taken again since) falls back to a
 * uniformly drawn page, skipped if this step referenced it already. Growth counts as a
 * reference at the step the page grows. */
#define KBUILD_REFS_RING 256 /* steps of history kept: the last bin starts at most here */
struct kbuild_gap_table {
	int nr_bins;
	const uint16_t *lo;  /* each bin's smallest gap in steps, increasing from 1 */
	const uint32_t *cum; /* cumulative weight of the bins; cum[nr_bins - 1] is the total */
};
struct rng;
struct kbuild_heap_refs {
	const struct kbuild_gap_table *t;
	uint32_t *last; /* per heap page: the step that last referenced it (0: not grown) */
	uint64_t pages;
	uint32_t *at[KBUILD_REFS_RING]; /* pages referenced at step s, in at[s % RING] */
	uint32_t nr_at[KBUILD_REFS_RING], cap_at[KBUILD_REFS_RING];
	uint32_t step;
};
void kbuild_heap_refs_init(struct kbuild_heap_refs *h, const struct kbuild_gap_table *t,
			   uint64_t pages);
void kbuild_heap_refs_free(struct kbuild_heap_refs *h);
/* Starts step s (1, 2, ... in order). */
void kbuild_heap_refs_begin(struct kbuild_heap_refs *h, uint32_t s);
/* Page i (below grown) is referenced in the current step (its growth). */
void kbuild_heap_refs_note(struct kbuild_heap_refs *h, uint64_t i);
/* Picks up to n pages of [0, grown) to re-reference in the current step, distinct and not yet
 * referenced in it, into out[]; notes them; returns how many. */
int kbuild_heap_refs_pick(struct kbuild_heap_refs *h, uint64_t grown, int n, struct rng *rng,
			  uint64_t *out);
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
