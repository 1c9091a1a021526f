/* iotrace: Wu Fengguang's file-server test of VM_EXEC protection (kernel-reclaim.md §3).
 *
 * One process plays the pattern `for i in $(seq 0 100 10000000); do echo $i 110; done`
 * with pread on a file large enough for it (the thread's was a sparse file on btrfs; here
 * every page comes from the disk). Every pread reads 10 pages the previous one read, so
 * those get a second mark_page_accessed and are activated: 10% of the stream goes to the
 * active file list, and the rest passes through the inactive list once.
 *
 * Beside it, the console: a few processes that wake periodically and run part of their
 * text and of libc (executable file pages; the thread's vmmon was one of them), and an idle
 * zsh that runs again when the I/O is over (the thread's "restore" row). The thread counts
 * the major faults between "begin" and "end"; the vmstat rows are printed the way its vmmon
 * output was. */
#include "workloads/iotrace.h"

#include "kernel/process.h"
#include "workloads/scenario.h"
#include "sim/xalloc.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define IP(f) offsetof(struct scenario_config, iotrace.f)
static const struct param_desc params[] = {
    {"iotrace.requests", P_INT, IP(requests), 1, 100000000, NULL, "preads"},
    {"iotrace.pages", P_INT, IP(pages), 1, 1000000, NULL, "pages per pread"},
    {"iotrace.stride", P_INT, IP(stride), 1, 1000000, NULL, "offset step between preads, pages"},
    {"iotrace.daemons", P_INT, IP(daemons), 0, 64, NULL, "periodic console processes [estimate]"},
    {"iotrace.interval", P_TIME, IP(interval), 1000000, 3600LL * 1000000000, NULL,
     "period of the first; each next one's is twice as long [estimate]"},
    {"iotrace.daemon_text", P_SIZE, IP(daemon_text), 4096, 1LL << 32, NULL,
     "text of each periodic process [estimate]"},
    {"iotrace.lib_c", P_SIZE, IP(lib_c), 4096, 1LL << 32, NULL, "libc text [estimate]"},
    {"iotrace.shell_text", P_SIZE, IP(shell_text), 4096, 1LL << 32, NULL, "zsh text [estimate]"},
    {"iotrace.touch_pct", P_INT, IP(touch_pct), 1, 100, NULL,
     "% of text and libc a process runs when it wakes [estimate]"},
};

void iotrace_defaults(struct iotrace_params *p)
{
	*p = (struct iotrace_params){
	    .requests = 100000,
	    .pages = 110,
	    .stride = 100,
	    .daemons = 6,
	    .interval = NSEC_PER_SEC,
	    .daemon_text = 256 << 10,
	    .lib_c = 1536 << 10,
	    .shell_text = 640 << 10,
	    .touch_pct = 30,
	};
}

enum { ROW_BEGIN, ROW_END, ROW_RESTORE, NR_ROWS };
static const char *const row_names[NR_ROWS] = {"begin", "end", "restore"};

struct row {
	long nr_mapped, nr_active_file, nr_inactive_file;
	uint64_t pgmajfault, pgdeactivate, pgfree;
	sim_time_t time;
};

struct con {
	struct address_space *text;
	sim_time_t period; /* 0: the shell, which runs at the start and again after the I/O */
	uint64_t text_start, libc_start;
};

static struct {
	struct iotrace_params p;
	struct address_space *file, *libc;
	struct con *cons; /* daemons, then the shell */
	int ncons;
	struct row rows[NR_ROWS];
	bool io_done, restored, done;
	struct waitqueue shell_wq;
	sim_time_t io_start, io_end;
} T;

static void snapshot(int r)
{
	struct row *w = &T.rows[r];
	w->nr_mapped = global_page_state(NR_FILE_MAPPED);
	w->nr_active_file = global_page_state(NR_ACTIVE_FILE);
	w->nr_inactive_file = global_page_state(NR_INACTIVE_FILE);
	w->pgmajfault = vm_events[PGMAJFAULT];
	w->pgdeactivate = vm_events[PGDEACTIVATE];
	w->pgfree = vm_events[PGFREE];
	w->time = local_now();
}

/* Runs touch_pct% of the process's text and of libc, spread out as code is. */
static void run_code(struct con *c)
{
	int pct = T.p.touch_pct;
	for (uint64_t i = 0; i < c->text->size_pages; i++)
		if ((int)((i * 37) % 100) < pct)
			sys_touch(c->text_start + i, TOUCH_EXEC);
	for (uint64_t i = 0; i < T.libc->size_pages; i++)
		if ((int)((i * 37) % 100) < pct)
			sys_touch(c->libc_start + i, TOUCH_EXEC);
}

static void con_main(void *arg)
{
	struct con *c = arg;
	c->libc_start = sys_mmap_file(T.libc, 0, T.libc->size_pages, VM_READ | VM_EXEC);
	run_code(c);
	if (c->period) {
		while (!T.io_done) {
			sys_sleep(c->period);
			run_code(c);
		}
	} else {
		while (!T.io_done)
			sleep_on(&T.shell_wq, 0, true), check_fatal_signal();
		run_code(c);
		snapshot(ROW_RESTORE);
		T.restored = true;
	}
	sys_exit(0);
}

static void con_exec(void *arg)
{
	struct con *c = arg;
	sys_exec(c->text->name, c->text, &c->text_start, con_main, c);
}

static void player(void *arg)
{
	(void)arg;
	const struct iotrace_params *p = &T.p;
	T.io_start = local_now();
	for (int i = 0; i < p->requests; i++) {
		sys_read(T.file, (uint64_t)i * (uint64_t)p->stride, (uint64_t)p->pages);
		if (i == 0)
			snapshot(ROW_BEGIN);
	}
	snapshot(ROW_END);
	T.io_end = local_now();
	T.io_done = true;
	wake_up_all(&T.shell_wq);
	sys_exit(0);
}

static void launcher(void *arg)
{
	(void)arg;
	for (int i = 0; i < T.ncons; i++)
		sys_fork(T.cons[i].text->name, con_exec, &T.cons[i]);
	/* the I/O starts once every console process has run once */
	sys_sleep(T.p.interval);
	sys_fork("iotrace.rb", player, NULL);
	while (sys_wait(NULL) >= 0)
		;
	T.done = true;
	sys_exit(0);
}

static struct address_space *text_file(const char *name, uint64_t bytes)
{
	uint64_t n = MAX((bytes + MM->page_size - 1) / MM->page_size, 1);
	return file_create(name, n, n, true);
}

/* Host memory: the sparse file's page index, and the launcher, reader and daemons. */
static uint64_t iotrace_host_bytes(const struct scenario_config *cfg)
{
	const struct iotrace_params *p = &cfg->iotrace;
	uint64_t pages = (uint64_t)(p->requests - 1) * (uint64_t)p->stride + (uint64_t)p->pages;
	return scenario_task_host_bytes((uint64_t)p->daemons + 3) + (pages + 1) * sizeof(pfn_t);
}

static int iotrace_start(const struct scenario_config *cfg, uint64_t seed)
{
	(void)seed;
	memset(&T, 0, sizeof(T));
	T.p = cfg->iotrace;
	const struct iotrace_params *p = &T.p;
	uint64_t size = (uint64_t)(p->requests - 1) * (uint64_t)p->stride + (uint64_t)p->pages;
	T.file = file_create("sparse", size, size, false);
	T.libc = text_file("libc", p->lib_c);
	T.ncons = p->daemons + 1;
	T.cons = xcalloc((size_t)T.ncons, sizeof(*T.cons));
	sim_time_t period = p->interval;
	for (int i = 0; i < p->daemons; i++, period *= 2) {
		char name[32];
		snprintf(name, sizeof(name), "daemon%d", i);
		T.cons[i].text = text_file(name, p->daemon_text);
		T.cons[i].period = period;
	}
	T.cons[p->daemons].text = text_file("zsh", p->shell_text);
	struct process *init = process_spawn("iotrace-launch", launcher, NULL);
	if (!init)
		return -1;
	init->is_init = true;
	return 0;
}

static bool iotrace_finished(void)
{
	return T.done;
}

static void iotrace_report(const struct scenario_config *cfg, struct workload_result *r)
{
	(void)cfg;
	const struct iotrace_params *p = &T.p;
	r->completed = T.done;
	result_printf(r, "iotrace: %d x pread(%d pages at i*%d pages), %d periodic processes\n",
		      p->requests, p->pages, p->stride, p->daemons);
	if (!T.done) {
		result_printf(r, "iotrace: did not finish\n");
		return;
	}
	double secs = (double)(T.io_end - T.io_start) / 1e9;
	double mb = (double)p->requests * p->pages * MM->page_size / (1 << 20);
	result_printf(r, "%fMB/s %fs %dx %db\n", secs > 0 ? mb / secs : 0.0, secs, p->requests,
		      p->pages * (int)MM->page_size);
	result_printf(r, "%-9s %10s %16s %16s %16s %16s %16s\n", "", "nr_mapped", "nr_active_file",
		      "nr_inactive_file", "pgmajfault", "pgdeactivate", "pgfree");
	for (int i = 0; i < NR_ROWS; i++) {
		const struct row *w = &T.rows[i];
		result_printf(r, "%-9s %10ld %16ld %16ld %16llu %16llu %16llu\n", row_names[i],
			      w->nr_mapped, w->nr_active_file, w->nr_inactive_file,
			      (unsigned long long)w->pgmajfault,
			      (unsigned long long)w->pgdeactivate, (unsigned long long)w->pgfree);
	}
	const struct row *b = &T.rows[ROW_BEGIN], *e = &T.rows[ROW_END], *s = &T.rows[ROW_RESTORE];
	uint64_t during = e->pgmajfault - b->pgmajfault;
	uint64_t dfree = e->pgfree - b->pgfree, ddeact = e->pgdeactivate - b->pgdeactivate;
	result_printf(r, "major faults during the I/O: %llu; restoring the shell: %llu\n",
		      (unsigned long long)during,
		      (unsigned long long)(s->pgmajfault - e->pgmajfault));
	result_printf(r, "active:inactive file scan rate (Dpgdeactivate:Dpgfree) 1:%.1f\n",
		      ddeact ? (double)dfree / (double)ddeact : 0.0);
	result_add_metric(r, "majfault_during_io", (double)during, "faults", false, true);
	result_add_metric(r, "majfault_restore", (double)(s->pgmajfault - e->pgmajfault), "faults",
			  false, false);
	result_add_metric(r, "throughput", secs > 0 ? mb / secs : 0.0, "MB/s", true, false);
	result_add_metric(r, "scan_ratio", ddeact ? (double)dfree / (double)ddeact : 0.0, "x",
			  false, false);
}

static void iotrace_cleanup(void)
{
	free(T.cons);
	T.cons = NULL;
}

const struct workload iotrace_workload = {
    .name = "iotrace",
    .description = "Wu Fengguang's 10%-hot pread stream beside a console's periodic processes",
    .params = params,
    .nparams = sizeof(params) / sizeof(params[0]),
    .start = iotrace_start,
    .finished = iotrace_finished,
    .report = iotrace_report,
    .cleanup = iotrace_cleanup,
    .host_bytes = iotrace_host_bytes,
};
