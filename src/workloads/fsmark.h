/* fs_mark 3.3 (benchmarks.md §6): `fs_mark -d DIR... -D subdirs -N per_subdir -n files
 * -L loops -t threads -S method -s size [-w write_size]`. Every iteration the parent forks
 * its workers afresh; each creates `files` files of `size` bytes, written with write() in
 * `write_size` chunks, in its own top directory, and the parent prints one line per
 * iteration: FSUse%, Count, Size, Files/sec, App Overhead. With -L the files are kept, so
 * nothing is ever unlinked. */
#ifndef MMSIM_WORKLOADS_FSMARK_H
#define MMSIM_WORKLOADS_FSMARK_H

#include "sim/types.h"

enum fsmark_sync {
	FSMARK_NOSYNC = 0,	/* -S0: no fsync(), no sync() */
	FSMARK_FSYNC_CLOSE = 1, /* -S1: fsync() each file before close() */
};

struct fsmark_params {
	int dirs;	      /* how many -d were given; one worker per directory (at least) */
	int threads;	      /* -t: workers per iteration, a multiple of dirs */
	int subdirs;	      /* -D */
	int files_per_subdir; /* -N: round robin after this many files */
	int files;	      /* -n: files per iteration per worker */
	int loops;	      /* -L: iterations (files are kept) */
	uint64_t size;	      /* -s: bytes per file */
	uint64_t write_size;  /* -w: bytes per write() (fs_mark's default 16 KiB) */
	int sync_method;      /* -S: enum fsmark_sync */
	/* CPU the model cannot derive from the mm core: each a whole step of the per-file loop;
	 * 0 (the default): measured on XFS (tools/measure/fsmark_costs.sh,
	 * data/measured/fsmark_costs.txt) and scaled to the profile (fsmark_step_costs) */
	uint64_t name_ns;   /* gettimeofday + 24 random characters per name (user) */
	uint64_t mkdir_ns;  /* the mkdir() that finds the subdirectory there (EEXIST) */
	uint64_t create_ns; /* open(O_CREAT) of a new name: inode, dentry, log item in memory
			     * (metadata I/O itself is not modelled) */
	uint64_t close_ns;  /* close() of the written file */
	uint64_t buffer;    /* fs_mark's static I/O buffer (1 MiB); write() copies from it */
};

void fsmark_defaults(struct fsmark_params *p);
struct hw_profile;
/* Sets each step cost left at 0 to the measured one on hw: the host's work scaled by the
 * ratio of its clock to hw's, a system call's entry and exit at hw's syscall_ns. */
void fsmark_step_costs(const struct hw_profile *hw, struct fsmark_params *p);
extern const struct workload fsmark_workload;

#endif
