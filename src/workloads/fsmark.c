/* fs_mark 3.3 as benchmarks.md §6 describes it. The parent forks `threads` workers for
 * every iteration and waits for them; a worker names, creates, writes and closes `files`
 * files in one subdirectory of its top directory (the counters restart in each fork, so
 * with -N >= -n a whole iteration lands in one subdirectory). Time inside the file calls
 * (create, write, fsync, close) is the benchmark's work; the rest of the loop is "App
 * Overhead". Files/sec = files / loop time, summed over the workers.
 *
 * What is not modelled (docs/writeback-series.md): directories and inodes are names only,
 * with no metadata I/O, journal or slab; each file is one contiguous extent placed after
 * the previous one. */
#include "workloads/fsmark.h"

#include "hw/profile.h"
#include "mm/fs.h"
#include "mm/mm.h"
#include "kernel/process.h"
#include "workloads/scenario.h"
#include "sim/xalloc.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const sync_methods[] = {"0", "1", NULL};

#define FM(f) offsetof(struct scenario_config, fsmark.f)
static const struct param_desc params[] = {
    {"fsmark.dirs", P_INT, FM(dirs), 1, 64, NULL, "top directories (-d given this many times)"},
    {"fsmark.threads", P_INT, FM(threads), 1, 1024, NULL,
     "-t: workers per iteration (a multiple of fsmark.dirs)"},
    {"fsmark.subdirs", P_INT, FM(subdirs), 1, 100000, NULL, "-D: subdirectories per directory"},
    {"fsmark.files_per_subdir", P_INT, FM(files_per_subdir), 1, 1000000, NULL,
     "-N: files in a subdirectory before moving to the next"},
    {"fsmark.files", P_INT, FM(files), 1, 1000000, NULL, "-n: files per iteration per worker"},
    {"fsmark.loops", P_INT, FM(loops), 1, 100000, NULL, "-L: iterations (files are kept)"},
    {"fsmark.size", P_SIZE, FM(size), 0, 1LL << 40, NULL, "-s: bytes per file"},
    {"fsmark.write_size", P_SIZE, FM(write_size), 1, 1LL << 30, NULL, "-w: bytes per write()"},
    {"fsmark.sync_method", P_ENUM, FM(sync_method), 0, 0, sync_methods,
     "-S: 0 no sync at all, 1 fsync() before close()"},
    {"fsmark.name_cost", P_TIME, FM(name_ns), 0, 1000000000, NULL,
     "user CPU to build one file name (gettimeofday + random characters); 0: measured"},
    {"fsmark.mkdir_cost", P_TIME, FM(mkdir_ns), 0, 1000000000, NULL,
     "CPU of the mkdir() that finds the subdirectory there (EEXIST); 0: measured"},
    {"fsmark.create_cost", P_TIME, FM(create_ns), 0, 1000000000, NULL,
     "CPU of one open(O_CREAT) of a new name, in memory (no metadata I/O); 0: measured"},
    {"fsmark.close_cost", P_TIME, FM(close_ns), 0, 1000000000, NULL,
     "CPU of the close() of a written file; 0: measured"},
    {"fsmark.buffer", P_SIZE, FM(buffer), 4096, 1LL << 30, NULL,
     "fs_mark's static I/O buffer that write() copies from"},
};

void fsmark_defaults(struct fsmark_params *p)
{
	*p = (struct fsmark_params){
	    .dirs = 1,
	    .threads = 1,
	    .subdirs = 100,	     /* -D 100 */
	    .files_per_subdir = 150, /* -N 150 */
	    .files = 150,	     /* -n 150 */
	    .loops = 25,	     /* -L 25 */
	    .size = 10485760,	     /* -s 10485760 */
	    .write_size = 16384,     /* fs_mark 3.3 default -w */
	    .sync_method = FSMARK_NOSYNC,
	    /* name_ns, mkdir_ns, create_ns, close_ns: 0, the measured steps for the profile
	     * (fsmark_step_costs) */
	    .buffer = 1 << 20, /* MAX_IO_BUFFER_SIZE, 1 MiB static buffer */
	};
}

/* What one worker measured in one iteration. */
struct fsm_worker {
	int index;
	int iteration;
	sim_time_t loop_ns;  /* the create/write/close loop */
	sim_time_t in_calls; /* inside the timed file calls */
	sim_time_t write_ns; /* of which in write() */
	sim_time_t worst_ns; /* the slowest single write() */
	int files_done;
};

struct fsm_iter {
	double files_per_sec; /* summed over workers */
	double overhead_us;   /* summed over workers */
	uint64_t count;	      /* files written so far */
	int fsuse_pct;
	sim_time_t worst_write_ns;
};

static struct {
	struct fsmark_params p;
	struct fsm_worker *w; /* [threads] for the current iteration */
	struct fsm_iter *it;  /* [loops] */
	int iterations_done;
	int killed;
	uint64_t buffer_vpn; /* in the parent's mm; workers inherit it across fork */
	uint64_t fs_start_sector;
	uint64_t files_created;
	sim_time_t start, end;
	bool done;
} F;

static uint64_t pages_of(uint64_t bytes)
{
	return (bytes + MM->page_size - 1) / MM->page_size;
}

/* open(O_CREAT|O_TRUNC|O_RDWR) of a new name: the file exists with no pages and its
 * extent is reserved (a delayed-allocation filesystem places it at writeback; for a single
 * streaming writer that is the same contiguous place). */
static struct address_space *fsm_create(const struct fsm_worker *w, int subdir, int nr)
{
	cpu_work_sys(F.p.create_ns);
	char name[32];
	snprintf(name, sizeof(name), "d%d/%02x/f%d.%d", w->index % F.p.dirs, subdir & 0xff,
		 w->iteration, nr);
	F.files_created++;
	return file_create(name, 0, pages_of(F.p.size), false);
}

static void fsmark_worker(void *arg)
{
	struct fsm_worker *w = arg;
	const struct fsmark_params *p = &F.p;
	uint64_t chunk = pages_of(p->write_size);
	uint64_t npages = pages_of(p->size);
	uint64_t touched = MIN(chunk, pages_of(p->buffer));
	/* statfs, open the per-worker log, mkdir the top directory */
	for (int i = 0; i < 3; i++)
		cpu_work_sys(MM->hw->syscall_ns);
	/* the first subdirectory is the current time in seconds modulo -D */
	int subdir = (int)((local_now() / NSEC_PER_SEC) % (uint64_t)p->subdirs);
	int in_subdir = 0;
	sim_time_t loop_start = local_now();
	for (int n = 0; n < p->files; n++) {
		sys_compute(p->name_ns);
		cpu_work_sys(p->mkdir_ns); /* mkdir of the subdirectory: EEXIST after one */
		sim_time_t t0 = local_now();
		struct address_space *f = fsm_create(w, subdir, n);
		for (uint64_t off = 0; off < npages; off += chunk) {
			sim_time_t ws = local_now();
			uint64_t nr = MIN(chunk, npages - off);
			/* write() copies from the start of the static buffer */
			for (uint64_t b = 0; b < MIN(nr, touched); b++)
				sys_touch(F.buffer_vpn + b, TOUCH_READ);
			sys_write(f, off, nr);
			sim_time_t took = local_now() - ws;
			w->write_ns += took;
			if (took > w->worst_ns)
				w->worst_ns = took;
		}
		if (p->sync_method == FSMARK_FSYNC_CLOSE)
			sys_fsync(f);
		cpu_work_sys(p->close_ns); /* close: the dentry's last reference */
		dput(f);
		check_fatal_signal();
		w->in_calls += local_now() - t0;
		w->files_done++;
		if (++in_subdir >= p->files_per_subdir) {
			in_subdir = 0;
			subdir = (subdir + 1) % p->subdirs;
		}
	}
	w->loop_ns = local_now() - loop_start;
	sys_exit(0);
}

static int fsuse_pct(void)
{
	uint64_t total = MM->disk.nr_sectors - F.fs_start_sector;
	uint64_t used = MM->fs_next_sector - F.fs_start_sector;
	return total ? (int)(used * 100 / total) : 0;
}

static void fsmark_parent(void *arg)
{
	(void)arg;
	const struct fsmark_params *p = &F.p;
	F.buffer_vpn = sys_mmap_anon(pages_of(p->buffer), VM_READ | VM_WRITE);
	F.start = local_now();
	for (int l = 0; l < p->loops; l++) {
		memset(F.w, 0, (size_t)p->threads * sizeof(*F.w));
		for (int t = 0; t < p->threads; t++) {
			F.w[t].index = t;
			F.w[t].iteration = l;
			sys_fork("fs_mark", fsmark_worker, &F.w[t]);
		}
		int code;
		while (sys_wait(&code) >= 0)
			if (code)
				F.killed++;
		struct fsm_iter *it = &F.it[l];
		for (int t = 0; t < p->threads; t++) {
			const struct fsm_worker *w = &F.w[t];
			if (w->loop_ns)
				it->files_per_sec += w->files_done * 1e9 / (double)w->loop_ns;
			it->overhead_us += (double)(w->loop_ns - w->in_calls) / 1e3;
			if (w->worst_ns > it->worst_write_ns)
				it->worst_write_ns = w->worst_ns;
		}
		it->count = F.files_created;
		it->fsuse_pct = fsuse_pct();
		F.iterations_done = l + 1;
		if (F.killed)
			break;
	}
	F.end = local_now();
	F.done = true;
	sys_exit(0);
}

/* fs_mark hands each -d directory the same number of threads (num_threads / num_dirs). */
static int fsmark_validate(const struct scenario_config *cfg, char *err, size_t errlen,
			   const char **key)
{
	if (cfg->fsmark.threads % cfg->fsmark.dirs) {
		snprintf(err, errlen, "fsmark.threads (%d) must be a multiple of fsmark.dirs (%d)",
			 cfg->fsmark.threads, cfg->fsmark.dirs);
		*key = "fsmark.threads";
		return -1;
	}
	return 0;
}

/* fs_mark's steps measured on XFS here (data/measured/fsmark_costs.txt, the median of three
 * runs on a 2445.422 MHz EPYC under kernel 6.18; docs/hardware.md, "fs_mark's steps"). */
#define FSMARK_HOST_KHZ	       2445422
#define FSMARK_HOST_NAME_NS    1629
#define FSMARK_HOST_MKDIR_NS   2503
#define FSMARK_HOST_CREATE_NS  22309
#define FSMARK_HOST_CLOSE_NS   1725
#define FSMARK_HOST_SYSCALL_NS 197 /* the null system call (getppid) */

/* A measured step on the profile: its work scaled by the clock, and for a system call the
 * entry and exit at the profile's syscall_ns in place of the host's. */
static uint64_t fsmark_step_ns(const struct hw_profile *hw, uint64_t host_ns, bool syscall)
{
	uint64_t work = syscall ? host_ns - FSMARK_HOST_SYSCALL_NS : host_ns;
	uint64_t khz = (uint64_t)hw->cpu_mhz * 1000;
	return (work * FSMARK_HOST_KHZ + khz / 2) / khz + (syscall ? hw->syscall_ns : 0);
}

void fsmark_step_costs(const struct hw_profile *hw, struct fsmark_params *p)
{
	if (!p->name_ns)
		p->name_ns = fsmark_step_ns(hw, FSMARK_HOST_NAME_NS, false);
	if (!p->mkdir_ns)
		p->mkdir_ns = fsmark_step_ns(hw, FSMARK_HOST_MKDIR_NS, true);
	if (!p->create_ns)
		p->create_ns = fsmark_step_ns(hw, FSMARK_HOST_CREATE_NS, true);
	if (!p->close_ns)
		p->close_ns = fsmark_step_ns(hw, FSMARK_HOST_CLOSE_NS, true);
}

static int fsmark_start(const struct scenario_config *cfg, uint64_t seed)
{
	(void)seed; /* fs_mark's random name characters do not change what it does */
	memset(&F, 0, sizeof(F));
	F.p = cfg->fsmark;
	fsmark_step_costs(MM->hw, &F.p);
	F.w = xcalloc((size_t)F.p.threads, sizeof(*F.w));
	F.it = xcalloc((size_t)F.p.loops, sizeof(*F.it));
	F.fs_start_sector = MM->fs_next_sector;
	struct process *init = process_spawn("fs_mark", fsmark_parent, NULL);
	if (!init)
		return -1;
	init->is_init = true;
	return 0;
}

static bool fsmark_finished(void)
{
	return F.done;
}

static void fsmark_report(const struct scenario_config *cfg, struct workload_result *r)
{
	(void)cfg;
	const struct fsmark_params *p = &F.p;
	r->completed = F.done; /* fs_mark reports its rates even when a process was killed */
	result_printf(
	    r, "#  fs_mark  -d DIR (x%d)  -D %d  -N %d  -n %d  -L %d  -t %d  -S%d  -s %llu\n",
	    p->dirs, p->subdirs, p->files_per_subdir, p->files, p->loops, p->threads,
	    p->sync_method, (unsigned long long)p->size);
	result_printf(r, "#\tSync method: %s\n",
		      p->sync_method ? "FSYNC BEFORE CLOSE"
				     : "NO SYNC: no sync() or fsync() calls");
	result_printf(r,
		      "#\tFiles info: size %llu bytes, written with an IO size of %llu bytes "
		      "per write\n",
		      (unsigned long long)p->size, (unsigned long long)p->write_size);
	result_printf(r, "#\tApp overhead is time in microseconds spent in the test not doing "
			 "file writing related system calls.\n");
	result_printf(r,
		      "#\t(mmsim) CPU of the steps: name %llu ns, mkdir %llu ns, create %llu ns, "
		      "close %llu ns\n\n",
		      (unsigned long long)p->name_ns, (unsigned long long)p->mkdir_ns,
		      (unsigned long long)p->create_ns, (unsigned long long)p->close_ns);
	result_printf(r, "FSUse%%        Count         Size    Files/sec     App Overhead\n");
	double sum = 0, sumsq = 0, osum = 0, mn = INFINITY, mx = 0;
	sim_time_t worst = 0;
	int n = F.iterations_done;
	for (int l = 0; l < n; l++) {
		const struct fsm_iter *it = &F.it[l];
		result_printf(r, "%6d %12llu %12llu %12.1f %16.0f\n", it->fsuse_pct,
			      (unsigned long long)it->count, (unsigned long long)p->size,
			      it->files_per_sec, it->overhead_us);
		sum += it->files_per_sec;
		sumsq += it->files_per_sec * it->files_per_sec;
		osum += it->overhead_us;
		mn = fmin(mn, it->files_per_sec);
		mx = fmax(mx, it->files_per_sec);
		if (it->worst_write_ns > worst)
			worst = it->worst_write_ns;
	}
	if (!F.done || n == 0) {
		result_printf(r, "fs_mark: did not finish (%d of %d iterations)\n", n, p->loops);
		return;
	}
	double mean = sum / n, secs = (double)(F.end - F.start) / 1e9;
	/* mmtests 2011 (Stat.pm): population standard deviation over the iterations */
	double sd = sqrt(fmax(0, sumsq / n - mean * mean));
	result_printf(r,
		      "\nfs_mark: Files/s min %.2f mean %.2f stddev %.2f max %.2f; Overhead "
		      "mean %.0f us; elapsed %.3f s; slowest write() %.3f s; %d killed\n",
		      mn, mean, sd, mx, osum / n, secs, (double)worst / 1e9, F.killed);
	result_add_metric(r, "files_per_sec", mean, "files/s", true, true);
	result_add_metric(r, "elapsed", secs, "s", false, false);
	result_add_metric(r, "overhead", osum / n, "us", false, false);
	result_add_metric(r, "killed", F.killed, "processes", false, false);
}

static void fsmark_cleanup(void)
{
	free(F.w);
	free(F.it);
	F.w = NULL;
	F.it = NULL;
}

/* Host memory: the tasks alive at once at most (fs_mark and its workers). */
static uint64_t fsmark_host_bytes(const struct scenario_config *cfg)
{
	return scenario_task_host_bytes((uint64_t)cfg->fsmark.threads + 1);
}

const struct workload fsmark_workload = {
    .name = "fsmark",
    .description = "fs_mark: create and write files with no sync, keeping them (benchmarks.md §6)",
    .params = params,
    .nparams = sizeof(params) / sizeof(params[0]),
    .start = fsmark_start,
    .finished = fsmark_finished,
    .report = fsmark_report,
    .cleanup = fsmark_cleanup,
    .validate = fsmark_validate,
    .host_bytes = fsmark_host_bytes,
};
