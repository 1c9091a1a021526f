/* A measured sample of kernel compile jobs (tools/measure/kbuild/, data/measured/kbuild/,
 * docs/kbuild-measured.md): kbuild.c draws every job of a build from these records. */
#ifndef MMSIM_WORKLOADS_KBUILD_MEASURED_H
#define MMSIM_WORKLOADS_KBUILD_MEASURED_H

#include <stdint.h>

struct kbuild_job_record {
	uint32_t anon_kb;	/* cc1's anonymous peak */
	uint32_t cpu_ms;	/* the job's user + system CPU (driver, cc1, as) */
	uint32_t src_bytes;	/* the .c */
	uint32_t hdr_bytes;	/* every header it read */
	uint32_t obj_bytes;	/* the .o */
	uint8_t growth_pct[10]; /* anonymous memory at 10 %, 20 % … 100 % of cc1's life */
};

extern const struct kbuild_job_record kbuild_measured_jobs[];
extern const int kbuild_measured_nr_jobs;
extern const uint64_t kbuild_measured_cc1_file_kb; /* cc1 text + libraries resident */
/* what cc1 references per step (tools/measure/kbuild/cc1refs.sh, refs_rule.py) */
extern const uint64_t kbuild_measured_text_kb; /* file-backed pages the sampled jobs referenced */
extern const int kbuild_measured_heap_refs;    /* heap pages re-referenced per step, mean */
extern const int kbuild_measured_text_refs;    /* uniform text draws per step, mean */
extern const int kbuild_measured_gap_bins;
extern const uint16_t kbuild_measured_gap_lo[];	     /* reuse-gap bins: smallest gap, steps */
extern const uint32_t kbuild_measured_gap_cum[];     /* cumulative re-references of the bins */
extern const uint64_t kbuild_measured_headers_bytes; /* distinct headers of the sample */
extern const uint64_t kbuild_measured_link_kb;	     /* the link stand-in's peak RSS */
extern const uint64_t kbuild_measured_link_ms;	     /* ... and its CPU */
/* the file-backed pages gcc 3.4.6's cc1 referenced on the same jobs, together
 * (tools/measure/kbuild/gccera-text.sh) */
extern const uint64_t kbuild_measured_era_text_pages;
extern const int kbuild_measured_era_text_refs; /* ... and its uniform text draws per step */

/* What make referenced before each compile job it started (tools/measure/kbuild/makerefs.sh,
 * maketable.py): a window's pages are bits over the ranks (by address) of its make's anonymous
 * pages (`anon` bits from kbuild_measured_make_bits[word]) and then of its file pages (`file`
 * bits, from the next 64-bit word). */
struct kbuild_make_window {
	uint16_t anon, file; /* the pages of the make that started the job */
	uint32_t word;	     /* its first word in kbuild_measured_make_bits */
};

extern const struct kbuild_make_window kbuild_measured_make_windows[];
extern const int kbuild_measured_make_nr_windows;
extern const uint64_t kbuild_measured_make_bits[];
extern const uint64_t kbuild_measured_make_anon_pages; /* a job-starting make's, median */
extern const uint64_t kbuild_measured_make_file_pages; /* ... its text and libraries */
extern const uint64_t kbuild_measured_make_cpu_us;     /* make's CPU per compile job */

#endif
