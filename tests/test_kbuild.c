/* The kernel-build workload (benchmarks.md §4) and contest's mem_load (§3) on a small
 * machine, with the invariant checker on: both complete with every job exiting normally,
 * swap under pressure, report their columns, and give the same run twice. */
#include "util/testutil.h"

#include "sim/rng.h"
#include "workloads/kbuild.h"
#include "workloads/kbuild_measured.h"
#include "kernel/process.h"
#include "mm/task.h"

#include <stdlib.h>

#include <string.h>

/* 16 measured jobs shrunk to 15 % of their heaps (about 1-4 MB each) and 1/20 of their CPU,
 * at -j6 with a 12 MB daemon on 24 MB (about 18 MB left to users): more than fits, whatever
 * the seed */
static const char *small = "machine.profile = p3-2004\n"
			   "machine.ram = 24M\n"
			   "machine.swap = 64M\n"
			   "machine.cpus = 2\n"
			   "kbuild.parallel = 6\n"
			   "kbuild.jobs = 16\n"
			   "kbuild.cpu_scale = 5\n"
			   "kbuild.heap_scale = 15\n"
			   "kbuild.text = 512k\n"
			   "kbuild.headers = 1M\n"
			   "kbuild.make_anon = 256k\n"
			   "kbuild.link_cpu = 20ms\n"
			   "kbuild.link_heap = 1M\n";

static void run(const char *extra, struct run_result *r)
{
	struct scenario_config cfg;
	char text[1536];
	snprintf(text, sizeof(text), "%s%s", small, extra);
	test_scenario(&cfg, text);
	test_run(&cfg, 2, r);
	assert_true(r->completed);
	assert_int_equal(r->rstats.oom_kills, 0);
}

static void assert_same(const struct run_result *a, const struct run_result *b)
{
	assert_int_equal(a->elapsed, b->elapsed);
	assert_int_equal(a->user_ns, b->user_ns);
	assert_int_equal(a->sys_ns, b->sys_ns);
	assert_int_equal(a->nr_vmstat, b->nr_vmstat);
	for (int i = 0; i < a->nr_vmstat; i++)
		assert_int_equal(a->vmstat[i].value, b->vmstat[i].value);
}

static void kbuild_with_daemon(void **state)
{
	(void)state;
	const char *extra = "workload = kbuild\nkbuild.named = 12M\nvm.swap_token = original\n";
	struct run_result a, b;
	run(extra, &a);
	assert_int_equal(test_metric(&a, "failed_jobs"), 0);
	assert_true(test_metric(&a, "cpu_pct") > 0 && test_metric(&a, "cpu_pct") <= 200);
	assert_true(test_vmstat(&a, "pswpout") > 0);
	assert_true(test_vmstat(&a, "pgmajfault") > 0);
	run(extra, &b);
	assert_same(&a, &b);
	run_result_free(&a);
	run_result_free(&b);
}

/* The daemon as measured: idle it reads one page a second, so once pushed out it stays out;
 * answering queries it reads random pages and faults them back in: named's own major faults
 * (read at every checker pass while it lives) grow with the queries. */
static unsigned long named_majflt;

static int watch_named(void)
{
	for_each_task(t) {
		if (!strcmp(t->task.comm, "named") && t->proc && !t->proc->exited)
			named_majflt = t->maj_flt;
	}
	return mm_check_invariants();
}

static unsigned long named_faults(const char *extra)
{
	struct scenario_config cfg;
	char text[1536];
	snprintf(text, sizeof(text),
		 "%sworkload = kbuild\nkbuild.named = 12M\nvm.swap_token = off\n"
		 "run.check_every = 500\n%s",
		 small, extra);
	test_scenario(&cfg, text);
	struct run_result r;
	named_majflt = 0;
	assert_int_equal(scenario_run(&cfg, 2, &r, watch_named), 0);
	assert_true(r.completed);
	run_result_free(&r);
	return named_majflt;
}

static void daemon_queries_fault(void **state)
{
	(void)state;
	unsigned long idle = named_faults(""), busy = named_faults("kbuild.named_qps = 200\n");
	assert_true(busy > 2 * idle + 10);
}

static void contest_mem_load(void **state)
{
	(void)state;
	const char *extra = "workload = contest\ncontest.load = mem_load\n";
	struct run_result a, b;
	run(extra, &a);
	assert_int_equal(test_metric(&a, "failed_jobs"), 0);
	assert_true(test_metric(&a, "noload_time") > 0);
	assert_true(test_metric(&a, "loads") > 0);
	assert_true(test_metric(&a, "lcpu_pct") > 0);
	/* Ratio is the loaded compile over the same compile without load */
	double ratio = test_metric(&a, "time") / test_metric(&a, "noload_time");
	assert_true(test_metric(&a, "ratio") > ratio - 1e-9 &&
		    test_metric(&a, "ratio") < ratio + 1e-9);
	assert_true(test_metric(&a, "ratio") > 1.0);
	run(extra, &b);
	assert_same(&a, &b);
	run_result_free(&a);
	run_result_free(&b);
}

static void contest_no_load_only(void **state)
{
	(void)state;
	struct run_result r;
	run("workload = contest\ncontest.load = no_load\n", &r);
	assert_true(test_metric(&r, "time") > 0);
	run_result_free(&r);
}

/* make -jPARALLEL of JOBS measured jobs on 768 MB: memory to spare */
static void roomy_build(struct scenario_config *cfg, int parallel, int jobs, const char *extra)
{
	char text[512];
	snprintf(text, sizeof(text),
		 "machine.profile = p3-2004\nmachine.ram = 768M\nmachine.swap = 64M\n"
		 "machine.cpus = 2\nworkload = kbuild\nkbuild.parallel = %d\n"
		 "kbuild.jobs = %d\n%s",
		 parallel, jobs, extra);
	test_scenario(cfg, text);
}

/* make -j20 with memory to spare: a job starts as soon as one ends, so about 20 are alive
 * all the time make still has jobs to start (a real make -j60 of 2.6.24 kept ~55 cc1 alive,
 * data/measured/kbuild/concurrency-2.6.24-i386-j60.csv) */
static void make_keeps_its_slots_full(void **state)
{
	(void)state;
	struct scenario_config cfg;
	roomy_build(&cfg, 20, 120, "");
	struct run_result r;
	test_run(&cfg, 1, &r);
	assert_true(r.completed);
	assert_int_equal(test_vmstat(&r, "pswpout"), 0);
	double alive = test_metric(&r, "jobs_alive_mean");
	assert_true(alive > 18.0 && alive <= 20.0);
	run_result_free(&r);
}

/* make's references before each compile job it starts are the measured windows in turn
 * (kbuild_measured_make_windows): its text is touched by nothing else (exec maps it; the jobs
 * exec cc1), so with memory to spare the text pages make has mapped once it has started J
 * jobs are the union of the first J windows' file pages, rank r of N at page r * M / N. A
 * model that replayed one window, or drew pages at random, fails this. */
static uint64_t make_text_present, make_text_pages;

static int watch_make_text(void)
{
	for_each_task(t) {
		if (strcmp(t->task.comm, "make") || !t->mm || !t->proc || t->proc->exited)
			continue;
		for (struct vm_area_struct *a = t->mm->mmap; a; a = a->next) {
			if (!a->file || a->dead || strcmp(a->file->name, "make"))
				continue;
			make_text_pages = a->npages;
			make_text_present = 0;
			for (uint64_t i = 0; i < a->npages; i++)
				make_text_present += !!(a->pte[i] & PTE_PRESENT);
		}
	}
	return mm_check_invariants();
}

static uint64_t window_union(int nr, uint64_t m, bool *in)
{
	uint64_t n = 0;
	memset(in, 0, m * sizeof(*in));
	for (int k = 0; k < nr; k++) {
		const struct kbuild_make_window *w = &kbuild_measured_make_windows[k];
		const uint64_t *bits = &kbuild_measured_make_bits[w->word + (w->anon + 63) / 64];
		for (uint64_t r = 0; r < w->file; r++)
			if (bits[r / 64] >> (r % 64) & 1 && !in[r * m / w->file])
				in[r * m / w->file] = true, n++;
	}
	return n;
}

static void make_replays_measured_windows(void **state)
{
	(void)state;
	struct scenario_config cfg;
	roomy_build(&cfg, 12, 12, "run.check_every = 500\n");
	struct run_result r;
	make_text_present = make_text_pages = 0;
	assert_int_equal(scenario_run(&cfg, 1, &r, watch_make_text), 0);
	assert_true(r.completed);
	assert_int_equal(test_vmstat(&r, "pswpout"), 0);
	assert_int_equal(make_text_pages, kbuild_measured_make_file_pages);
	bool *in = calloc(make_text_pages, sizeof(*in));
	uint64_t one = window_union(1, make_text_pages, in);
	uint64_t want = window_union(12, make_text_pages, in);
	assert_true(want > one);
	assert_int_equal(make_text_present, want);
	free(in);
	run_result_free(&r);
}

/* The heap's reuse-gap mechanism by hand. All weight on a gap of exactly 3 steps: 10 pages
 * grow at each of steps 1, 2, 3; from step 4 on every step re-references the 10 pages of the
 * step 3 before it, so the job cycles over 30 pages: step s references those grown at step
 * (s - 1) % 3 + 1, and no other page of its 1000 is ever referenced. */
static void heap_refs_follow_the_gap(void **state)
{
	(void)state;
	static const uint16_t lo[] = {3, 4};
	static const uint32_t cum[] = {1, 1};
	const struct kbuild_gap_table t = {2, lo, cum};
	struct kbuild_heap_refs h;
	struct rng rng;
	uint64_t out[16];
	rng_seed(&rng, 1, 2);
	kbuild_heap_refs_init(&h, &t, 1000);
	uint64_t grown = 0;
	for (uint32_t s = 1; s <= 3; s++) {
		kbuild_heap_refs_begin(&h, s);
		for (int i = 0; i < 10; i++)
			kbuild_heap_refs_note(&h, grown++);
	}
	grown = 1000; /* the rest is grown too, but never referenced again */
	for (uint32_t s = 4; s <= 60; s++) {
		kbuild_heap_refs_begin(&h, s);
		assert_int_equal(kbuild_heap_refs_pick(&h, grown, 10, &rng, out), 10);
		bool seen[10] = {false};
		for (int i = 0; i < 10; i++) {
			uint64_t first = 10 * ((s - 1) % 3);
			assert_true(out[i] >= first && out[i] < first + 10);
			assert_false(seen[out[i] - first]);
			seen[out[i] - first] = true;
		}
	}
	kbuild_heap_refs_free(&h);
}

/* A step never references a page twice nor one not grown yet, whatever it asks for: 5 of 8
 * pages grown, 10 asked for, every bin weighted (the last, "4 and more", can rarely be met
 * with 5 pages, so most draws fall back to uniform ones). */
static void heap_refs_distinct_and_grown(void **state)
{
	(void)state;
	static const uint16_t lo[] = {1, 2, 4};
	static const uint32_t cum[] = {1, 2, 3};
	const struct kbuild_gap_table t = {3, lo, cum};
	struct kbuild_heap_refs h;
	struct rng rng;
	uint64_t out[16];
	rng_seed(&rng, 3, 4);
	kbuild_heap_refs_init(&h, &t, 8);
	kbuild_heap_refs_begin(&h, 1);
	for (uint64_t i = 0; i < 5; i++)
		kbuild_heap_refs_note(&h, i);
	int total = 0;
	for (uint32_t s = 2; s <= 500; s++) {
		kbuild_heap_refs_begin(&h, s);
		int n = kbuild_heap_refs_pick(&h, 5, 10, &rng, out);
		assert_true(n >= 1 && n <= 5);
		total += n;
		for (int i = 0; i < n; i++) {
			assert_true(out[i] < 5);
			for (int k = 0; k < i; k++)
				assert_true(out[k] != out[i]);
		}
	}
	assert_true(total > 499); /* it does re-reference */
	kbuild_heap_refs_free(&h);
}

/* A compile job is the process chain of a real one, make -> sh -> gcc -> cc1, each exec'd
 * into its own mm: while cc1 runs, its shell holds exactly kbuild.shell_anon of anonymous
 * memory and its driver kbuild.driver_anon (no page of make's, which an un-exec'd fork would
 * still map). Every live cc1 is checked at every checker pass. */
static int chains_seen, chains_bad;

static const char *comm_of(const struct process *p)
{
	return p && p->task ? p->task->task.comm : "";
}

static int watch_chain(void)
{
	for_each_task(t) {
		if (strcmp(t->task.comm, "cc1") || !t->proc || t->proc->exited)
			continue;
		const struct process *gcc = t->proc->parent, *sh = gcc ? gcc->parent : NULL;
		chains_seen++;
		if (strcmp(comm_of(gcc), "gcc") || strcmp(comm_of(sh), "sh") ||
		    strcmp(comm_of(sh->parent), "make") || gcc->exited || sh->exited ||
		    gcc->task->mm->rss_anon != 7 || sh->task->mm->rss_anon != 5 ||
		    gcc->task->mm == sh->task->mm)
			chains_bad++;
	}
	return mm_check_invariants();
}

static void job_is_sh_gcc_cc1(void **state)
{
	(void)state;
	struct scenario_config cfg;
	roomy_build(&cfg, 8, 24,
		    "run.check_every = 200\nkbuild.shell_anon = 20k\nkbuild.driver_anon = 28k\n");
	struct run_result r;
	chains_seen = chains_bad = 0;
	assert_int_equal(scenario_run(&cfg, 1, &r, watch_chain), 0);
	assert_true(r.completed);
	assert_int_equal(test_metric(&r, "failed_jobs"), 0);
	assert_true(chains_seen > 100);
	assert_int_equal(chains_bad, 0);
	run_result_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(kbuild_with_daemon),
	    cmocka_unit_test(daemon_queries_fault),
	    cmocka_unit_test(contest_mem_load),
	    cmocka_unit_test(contest_no_load_only),
	    cmocka_unit_test(make_keeps_its_slots_full),
	    cmocka_unit_test(make_replays_measured_windows),
	    cmocka_unit_test(heap_refs_follow_the_gap),
	    cmocka_unit_test(heap_refs_distinct_and_grown),
	    cmocka_unit_test(job_is_sh_gcc_cc1),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
