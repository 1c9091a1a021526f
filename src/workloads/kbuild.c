/* `make -jN vmlinux` under memory pressure (benchmarks.md §4), and the background daemon of
 * Rik van Riel's runs. The pieces:
 *
 *  - make: execs its text (a file shared by nothing else), touches its anonymous memory
 *    at start; before each compile job it starts it references the pages a measured make
 *    referenced before one (kbuild_measured_make_windows) and computes its measured CPU per
 *    job; keeps `parallel` jobs running, reaping one before starting the next, then forks
 *    the link. *Simplifications:* one make stands for Kbuild's tree of makes (the makes
 *    waiting for their sub-makes, idle, are not modelled: docs/model.md); the job stream
 *    never runs dry before the last job (real Kbuild parallelism varies by directory), and
 *    one job is one exec (no sh -c / gcc driver / as).
 *  - a compile job: forked by make (a copy-on-write copy of make's mm), execs cc1, whose
 *    text is a private executable mapping of one file shared by every job; reads its .c and
 *    random 64 KiB pieces of the hot header set; then computes in `step`s, growing its heap
 *    along its measured curve to its peak, and each step re-referencing heap_refs pages of
 *    the grown heap chosen by the measured reuse gaps (kbuild_heap_refs_pick) and drawing
 *    text_refs text pages uniformly; finally writes its .o and exits, freeing everything.
 *    The references are measured per unit of cc1's CPU (docs/kbuild-measured.md), gcc's
 *    garbage collections included. *Simplification:* the heap holds no garbage: no page is
 *    freed before the job exits.
 *  - the link: reads every object, grows its heap over link_cpu.
 *  - named: maps and fills its memory before the build starts, then until the build is over
 *    wakes once a second when idle (reading one page of it, what the measured idle BIND
 *    references), or once per query (batched per millisecond above a thousand a second),
 *    reading that page again and named_query_pages random pages of it per query.
 *    *Simplification:* its text (under 1 MB of it executed a second, measured) is left out.
 *
 * Every job's sizes and reference stream come from its own generator (seed, job number), so
 * they do not depend on scheduling. */
#include "workloads/kbuild.h"
#include "mm/policy/swap_token.h"

#include "workloads/kbuild_measured.h"

#include "kernel/process.h"
#include "workloads/scenario.h"
#include "sim/xalloc.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define KP(f) offsetof(struct scenario_config, kbuild.f)
#define HOUR  (3600LL * 1000000000LL)
static const struct param_desc params[] = {
    {"kbuild.parallel", P_INT, KP(parallel), 1, 10000, NULL, "make -jN"},
    {"kbuild.jobs", P_INT, KP(nr_jobs), 1, 1000000, NULL,
     "compile jobs in the build (measured: 2.6.24 i386 defconfig)"},
    {"kbuild.cpu_scale", P_INT, KP(cpu_scale), 1, 100000, NULL,
     "percent: measured job CPU to the machine's (host MHz / machine MHz)"},
    {"kbuild.heap_scale", P_INT, KP(heap_scale), 1, 100000, NULL,
     "percent: measured cc1 anonymous peak to the model's (100 = as measured)"},
    {"kbuild.text", P_SIZE, KP(text), 4096, 1LL << 32, NULL,
     "cc1 text + libraries the compile jobs reference (measured)"},
    {"kbuild.headers", P_SIZE, KP(headers), 65536, 1LL << 34, NULL,
     "hot include set: the distinct headers the measured jobs read"},
    {"kbuild.make_anon", P_SIZE, KP(make_anon), 4096, 1LL << 32, NULL,
     "make's heap and stack (measured: a make that starts compile jobs)"},
    {"kbuild.make_text", P_SIZE, KP(make_text), 4096, 1LL << 32, NULL,
     "make's text and library pages it references (measured)"},
    {"kbuild.make_cpu", P_TIME, KP(make_cpu), 0, HOUR, NULL,
     "make's CPU per compile job it starts (measured instructions)"},
    {"kbuild.shell_anon", P_SIZE, KP(shell_anon), 0, 1LL << 32, NULL,
     "the anonymous memory of each job's sh -c: written when it starts, read when the "
     "compiler's driver exits (measured: 32-bit bash)"},
    {"kbuild.driver_anon", P_SIZE, KP(driver_anon), 0, 1LL << 32, NULL,
     "the gcc driver's anonymous memory: written when it starts, read when cc1 exits "
     "(measured: 32-bit driver)"},
    {"kbuild.as_anon", P_SIZE, KP(as_anon), 0, 1LL << 32, NULL,
     "GNU as's anonymous memory beside each compile (-pipe): grows with the compile's "
     "progress, read whole at its end (measured: 32-bit as, its peak at exit)"},
    {"kbuild.step", P_TIME, KP(step), 10000, 1000000000, NULL,
     "compiler CPU between reference bursts (model grain)"},
    {"kbuild.heap_refs", P_INT, KP(heap_refs), 0, 1 << 20, NULL,
     "grown heap pages re-referenced per step, by the measured reuse gaps (measured)"},
    {"kbuild.text_refs", P_INT, KP(text_refs), 0, 1 << 20, NULL,
     "text pages drawn uniformly per step (measured)"},
    {"kbuild.link_cpu", P_TIME, KP(link_cpu), 0, HOUR, NULL,
     "CPU of the final link (measured stand-in, before cpu_scale)"},
    {"kbuild.link_heap", P_SIZE, KP(link_heap), 4096, 1LL << 34, NULL,
     "anonymous memory of the final link (measured stand-in)"},
    {"kbuild.named", P_SIZE, KP(named), 0, 1LL << 36, NULL,
     "background daemon's memory (0 = none)"},
    {"kbuild.named_qps", P_INT, KP(named_qps), 0, 1000000, NULL,
     "queries a second the daemon answers (0 = idle, as the thread states no load; an idle "
     "BIND reads one page of its memory a second: data/measured/named.txt)"},
    {"kbuild.named_query_pages", P_INT, KP(named_query_pages), 0, 1 << 20, NULL,
     "random pages of the daemon's memory one query reads (measured: BIND 9.18, uniformly "
     "drawn names, 100 queries a second: data/measured/named.txt)"},
};

void kbuild_defaults(struct kbuild_params *p)
{
	*p = (struct kbuild_params){
	    .parallel = 4,
	    /* the CC jobs of v2.6.24's i386 defconfig vmlinux (`make -n`:
	     * data/measured/kbuild/vmlinux-2.6.24-i386-defconfig-jobs.txt) */
	    .nr_jobs = 1088,
	    /* the sample ran on a 2596 MHz host; p3-2004 is 933 MHz: clock ratio only (IPC not
	     * scaled, so a 2004 job's CPU is if anything underestimated) */
	    .cpu_scale = 278,
	    /* gcc 12's heaps to a 2004 compiler's: gcc 3.4.6 built as a 32-bit (i686) cc1, with
	     * the RAM-scaled collector defaults gcc 3.3 shipped, held 0.656 (64 MB machine) and
	     * 0.668 (384 MB) of gcc 12's anonymous peak on the same 93 jobs, ratio of the sums
	     * (data/measured/kbuild/gcc-era/ratios.txt, docs/kbuild-measured.md "gcc 3.3's
	     * memory against gcc 12's"); the growth curves keep their measured shape */
	    .heap_scale = 66,
	    /* the file-backed pages (cc1, its libraries) the 16 Valgrind jobs referenced
	     * together: gcc 3.4.6 973 pages (kbuild_measured_era_text_pages, table.py from
	     * data/measured/kbuild/gcc-era/text-gcc346-x86_64host.txt, tools/measure/kbuild/
	     * gccera-text.sh), where gcc 12 referenced 3820 (kbuild_measured_text_kb,
	     * cc1refs-2.6.24-i386-text.csv: gcc 12's cc1 is larger and links libisl, libgmp,
	     * libmpfr, libmpc, libzstd) */
	    .text = kbuild_measured_era_text_pages * 4096,
	    .headers = kbuild_measured_headers_bytes,
	    /* make under Valgrind through a whole vmlinux build (tools/measure/kbuild/
	     * makerefs.sh, data/measured/kbuild/makerefs-2.6.24-i386.csv, docs/kbuild-
	     * measured.md "make's own references"): the pages of a make that starts compile
	     * jobs, and all of make's instructions over the jobs at cc1's instructions a step */
	    .make_anon = kbuild_measured_make_anon_pages * 4096,
	    .make_text = kbuild_measured_make_file_pages * 4096,
	    .make_cpu = kbuild_measured_make_cpu_us * 1000,
	    /* the helpers of a Kbuild job as 32-bit (i386) processes under qemu-i386 on the 41
	     * mm/ jobs of 2.6.24 (tools/measure/kbuild/helpers32.sh, data/measured/kbuild/
	     * helpers32-2.6.24-i386-raw.csv, docs/kbuild-measured.md "The other processes of a
	     * job"): the means of the anonymous peaks (what the jobs alive add up to), gcc 12.2's
	     * driver 150.7 kB and binutils 2.40's as 818.2 kB; 2004's gcc 3.3 and binutils 2.15
	     * are not measured: sizes kept */
	    .driver_anon = 151 * 1024,
	    /* the shell make runs each job's command with, bash 5.2.15 as a 32-bit process under
	     * qemu-i386 running the 41 mm/ jobs' Kbuild command strings (tools/measure/kbuild/
	     * shell32.sh, data/measured/kbuild/shell32-2.6.24-i386-raw.csv): the mean of its
	     * anonymous peaks, 234.3 kB (225.9 while gcc runs); 2004's /bin/sh on Red Hat was
	     * bash (2.05b/3.0, not measured: size kept) */
	    .shell_anon = 234 * 1024,
	    .as_anon = 818 * 1024,
	    .step = NSEC_PER_MSEC, /* model grain */
	    /* cc1 measured under Valgrind per step of its CPU (tools/measure/kbuild/cc1refs.sh,
	     * docs/kbuild-measured.md "References inside a compile job"); the rule is
	     * refs_rule.py's: the mean over the jobs' one-step windows of the distinct heap pages
	     * born before the window (gcc 12: data/measured/kbuild/cc1refs-2.6.24-i386-*.csv),
	     * and of the uniform draws over the text that give the window's distinct text pages:
	     * gcc 3.4.6's, over its 973 pages (kbuild_measured_era_text_refs, gccera-text.sh's
	     * runs: gcc-era/cc1refs-gcc346-x86_64host-*.csv; gcc 12's were
	     * kbuild_measured_text_refs = 362 over 3820) */
	    .heap_refs = kbuild_measured_heap_refs,
	    .text_refs = kbuild_measured_era_text_refs,
	    .link_cpu = kbuild_measured_link_ms * NSEC_PER_MSEC,
	    .link_heap = kbuild_measured_link_kb << 10,
	    .named = 0, /* only Rik's runs have the daemon */
	    /* the thread gives named's size only ("a 180 MB named in the background"), no
	     * query load: idle, as measured (tools/measure/named.py, docs/kbuild-measured.md) */
	    .named_qps = 0,
	    /* 13.2 MB referenced by 1,000 queries at 100 a second: 3.3 pages a query */
	    .named_query_pages = 3,
	};
}

struct job {
	int index;
	bool link;
	const struct kbuild_job_record *rec; /* the measured job it replays (NULL: the link) */
	uint64_t heap_pages;
	uint64_t cpu;
	uint64_t src_off, src_pages, hdr_pages, obj_off, obj_pages;
	uint64_t text_start;
	struct process *proc;
	struct kbuild_heap_refs *refs; /* its heap's reference history while it runs */
	uint64_t *pick;		       /* the pages a step re-references */
};

static struct {
	struct kbuild_params p;
	uint64_t seed;
	uint64_t page;
	struct job *jobs; /* nr_jobs compile jobs, then the link */
	struct address_space *cc1, *ld, *src, *include, *objs, *make;
	uint64_t make_text_start;
	struct kbuild_build *build;
	struct process **procs; /* make and every process it forked, for CPU% */
	size_t nr_procs, cap_procs;
	/* the kbuild workload itself */
	struct kbuild_build b;
	bool named_ready, named_stop, done;
} K;

static uint64_t pages(uint64_t bytes)
{
	uint64_t n = (bytes + K.page - 1) / K.page;
	return n ? n : 1;
}

static void track(struct process *p)
{
	if (!p)
		return;
	if (K.nr_procs == K.cap_procs) {
		K.cap_procs = K.cap_procs ? K.cap_procs * 2 : 256;
		K.procs = xrealloc(K.procs, K.cap_procs * sizeof(*K.procs));
	}
	K.procs[K.nr_procs++] = p;
}

static struct kbuild_gap_table gaps; /* the measured one (kbuild_setup) */

void kbuild_heap_refs_init(struct kbuild_heap_refs *h, const struct kbuild_gap_table *t,
			   uint64_t pages)
{
	memset(h, 0, sizeof(*h));
	h->t = t;
	h->pages = pages;
	h->last = xcalloc(pages ? pages : 1, sizeof(*h->last));
}

void kbuild_heap_refs_free(struct kbuild_heap_refs *h)
{
	free(h->last);
	for (int i = 0; i < KBUILD_REFS_RING; i++)
		free(h->at[i]);
	memset(h, 0, sizeof(*h));
}

void kbuild_heap_refs_begin(struct kbuild_heap_refs *h, uint32_t s)
{
	h->step = s;
	h->nr_at[s % KBUILD_REFS_RING] = 0; /* what step s - RING referenced */
}

void kbuild_heap_refs_note(struct kbuild_heap_refs *h, uint64_t i)
{
	uint32_t b = h->step % KBUILD_REFS_RING;
	h->last[i] = h->step;
	if (h->nr_at[b] == h->cap_at[b]) {
		h->cap_at[b] = h->cap_at[b] ? h->cap_at[b] * 2 : 64;
		h->at[b] = xrealloc(h->at[b], h->cap_at[b] * sizeof(*h->at[b]));
	}
	h->at[b][h->nr_at[b]++] = (uint32_t)i;
}

/* A page of [0, grown) last referenced gap steps ago (last bin: at least lo steps ago), or
 * none (grown: no page). */
static uint64_t pick_gap(struct kbuild_heap_refs *h, uint64_t grown, int bin, struct rng *rng)
{
	const struct kbuild_gap_table *t = h->t;
	uint32_t s = h->step, lo = t->lo[bin];
	if (bin == t->nr_bins - 1) {
		uint64_t i = rng_below(rng, grown);
		return h->last[i] && s - h->last[i] >= lo ? i : grown;
	}
	uint32_t gap = lo + (uint32_t)rng_below(rng, t->lo[bin + 1] - lo);
	if (gap >= s)
		return grown;
	/* at[b] lists the pages step s - gap referenced; those referenced again since are
	 * stale there: a draw removes what it finds, so it ends */
	uint32_t b = (s - gap) % KBUILD_REFS_RING;
	while (h->nr_at[b]) {
		uint32_t k = (uint32_t)rng_below(rng, h->nr_at[b]);
		uint64_t i = h->at[b][k];
		h->at[b][k] = h->at[b][--h->nr_at[b]];
		if (i < grown && h->last[i] == s - gap)
			return i;
	}
	return grown;
}

int kbuild_heap_refs_pick(struct kbuild_heap_refs *h, uint64_t grown, int n, struct rng *rng,
			  uint64_t *out)
{
	const struct kbuild_gap_table *t = h->t;
	int got = 0;
	if (!grown || !t->nr_bins)
		return 0;
	for (int r = 0; r < n; r++) {
		uint64_t w = rng_below(rng, t->cum[t->nr_bins - 1]), i = grown;
		int bin = 0;
		while (w >= t->cum[bin])
			bin++;
		for (int try = 0; try < 4 && i == grown; try++)
			i = pick_gap(h, grown, bin, rng);
		if (i == grown) {
			i = rng_below(rng, grown);
			if (h->last[i] == h->step)
				continue;
		}
		kbuild_heap_refs_note(h, i);
		out[got++] = i;
	}
	return got;
}

static void touch_random(struct rng *rng, uint64_t base, uint64_t n, int count, int kind)
{
	for (int i = 0; i < count && n; i++)
		sys_touch(base + rng_below(rng, n), kind);
}

/* The measured anonymous memory at fraction num/den of the job's life, in pages: linear
 * between the deciles, from 0 at the start. */
static uint64_t heap_at(const struct job *j, uint64_t num, uint64_t den)
{
	if (!j->rec)
		return j->heap_pages * num / den;
	uint64_t x = num * 1000 / den; /* per mille of the life */
	uint64_t d = x / 100, r = x % 100;
	uint64_t lo = d ? j->rec->growth_pct[d - 1] : 0, hi = d < 10 ? j->rec->growth_pct[d] : 100;
	uint64_t pct_x100 = lo * 100 + (hi > lo ? (hi - lo) * r : 0);
	return j->heap_pages * pct_x100 / 10000;
}

/* A compile job starts (+1) or ends (-1). While make still has jobs to start, the jobs
 * alive are integrated over time: what `pgrep -c cc1` sampled through a real build shows
 * (data/measured/kbuild/concurrency-*.csv). */
static void jobs_alive(struct kbuild_build *b, int delta)
{
	sim_time_t now = local_now();
	if (b->filling && now > b->alive_since) {
		b->alive_ns += (uint64_t)b->alive * (now - b->alive_since);
		b->fill_ns += now - b->alive_since;
	}
	if (now > b->alive_since)
		b->alive_since = now;
	b->alive += delta;
}

static void job_free_refs(struct job *j)
{
	if (j->refs)
		kbuild_heap_refs_free(j->refs);
	free(j->refs);
	free(j->pick);
	j->refs = NULL;
	j->pick = NULL;
}

/* The compiler (or the linker): runs on its own fresh mm after exec. */
static void compiler_main(void *arg)
{
	struct job *j = arg;
	const struct kbuild_params *p = &K.p;
	struct rng rng;
	rng_seed(&rng, K.seed, 1000 + (uint64_t)j->index);
	uint64_t text_pages = j->link ? pages(p->text / 4) : pages(p->text);
	uint64_t heap = sys_mmap_anon(j->heap_pages, VM_READ | VM_WRITE);
	if (j->link) {
		sys_read(K.objs, 0, K.objs->size_pages);
	} else {
		uint64_t chunk = pages(64 << 10), hdr_pages = K.include->size_pages;
		sys_read(K.src, j->src_off, j->src_pages);
		for (uint64_t done = 0; done < j->hdr_pages; done += chunk) {
			uint64_t off = rng_below(&rng, MAX(hdr_pages / chunk, 1)) * chunk;
			sys_read(K.include, off, MIN(chunk, hdr_pages - MIN(off, hdr_pages)));
		}
	}
	uint64_t steps = j->cpu / p->step, grown = 0;
	if (!steps)
		steps = 1;
	struct kbuild_heap_refs *h = j->refs = xcalloc(1, sizeof(*h));
	kbuild_heap_refs_init(h, &gaps, j->heap_pages);
	uint64_t *pick = j->pick = xcalloc((size_t)p->heap_refs + 1, sizeof(*pick));
	/* as reads cc1's output through the pipe as it comes: its memory grows with the
	 * compile's progress and is at its largest when it writes the object (measured: it
	 * grew steadily and peaked at exit in every run). One address space with cc1 here. */
	uint64_t as_pages = j->link ? 0 : pages(p->as_anon), as_grown = 0;
	uint64_t as = as_pages ? sys_mmap_anon(as_pages, VM_READ | VM_WRITE) : 0;
	for (uint64_t s = 1; s <= steps; s++) {
		while (as_grown < as_pages * s / steps)
			sys_touch(as + as_grown++, TOUCH_WRITE);
		uint64_t target = heap_at(j, s, steps);
		kbuild_heap_refs_begin(h, (uint32_t)s);
		while (grown < target) {
			kbuild_heap_refs_note(h, grown);
			sys_touch(heap + grown++, TOUCH_WRITE);
		}
		touch_random(&rng, j->text_start, text_pages, p->text_refs, TOUCH_EXEC);
		int n = kbuild_heap_refs_pick(h, grown, p->heap_refs, &rng, pick);
		for (int i = 0; i < n; i++)
			sys_touch(heap + pick[i], TOUCH_READ);
		sys_compute(p->step);
	}
	for (uint64_t i = 0; i < as_grown; i++)
		sys_touch(as + i, TOUCH_READ); /* as writes out its sections */
	job_free_refs(j);
	if (!j->link) {
		sys_write(K.objs, j->obj_off, j->obj_pages);
		jobs_alive(K.build, -1);
	}
	sys_exit(0);
}

static void job_child(void *arg)
{
	struct job *j = arg;
	sys_exec(j->link ? "ld" : "cc1", j->link ? K.ld : K.cc1, &j->text_start, compiler_main, j);
}

/* A waiting process between make and the compiler, after its exec: it writes its own
 * anonymous memory, forks the next process of the chain, waits for it, reads its memory again
 * and exits with the child's status. */
static void wait_on_child(uint64_t own, const char *comm, void (*fn)(void *), void *arg)
{
	int code = 1;
	uint64_t np = pages(own);
	uint64_t mem = np ? sys_mmap_anon(np, VM_READ | VM_WRITE) : 0;
	for (uint64_t i = 0; i < np; i++)
		sys_touch(mem + i, TOUCH_WRITE);
	track(sys_fork(comm, fn, arg));
	if (sys_wait(&code) < 0)
		code = 1;
	for (uint64_t i = 0; i < np; i++)
		sys_touch(mem + i, TOUCH_READ);
	sys_exit(code);
}

/* gcc: the driver forks cc1 and waits for it; then it collects its children's status
 * (docs/kbuild-measured.md, "The other processes of a job") */
static void driver_main(void *arg)
{
	wait_on_child(K.p.driver_anon, "cc1", job_child, arg);
}

static void job_driver(void *arg)
{
	sys_exec("gcc", NULL, NULL, driver_main, arg);
}

/* sh -c: Kbuild runs each rule's command through the shell, which forks the gcc driver (the
 * link: ld) and waits for it, then goes on with the rule's fixdep, rm and mv (their own
 * short processes are not modelled). Make's child is therefore a process that sleeps while
 * the compiler runs, as in a real build, which the O(1) scheduler's sched_exit and sleep
 * average see. The shell's and the driver's text (shared page cache) is not modelled. */
static void shell_main(void *arg)
{
	struct job *j = arg;
	if (j->link)
		wait_on_child(K.p.shell_anon, "ld", job_child, j);
	else
		wait_on_child(K.p.shell_anon, "gcc", job_driver, j);
}

static void job_shell(void *arg)
{
	sys_exec("sh", NULL, NULL, shell_main, arg);
}

/* The pages make references before it starts its n-th compile job: the measured window n
 * (cycling), each measured page of rank r among its make's N mapped to page r * M / N of the
 * model's M (docs/kbuild-measured.md, "make's own references"). */
static void make_window(int n, uint64_t anon, uint64_t anon_pages, uint64_t text,
			uint64_t text_pages)
{
	const struct kbuild_make_window *w =
	    &kbuild_measured_make_windows[n % kbuild_measured_make_nr_windows];
	const uint64_t *bits = &kbuild_measured_make_bits[w->word];
	for (int part = 0; part < 2; part++) {
		uint64_t nbits = part ? w->file : w->anon, base = part ? text : anon;
		uint64_t m = part ? text_pages : anon_pages;
		for (uint64_t i = 0; i < (nbits + 63) / 64; i++) {
			for (uint64_t b = bits[i]; b; b &= b - 1) {
				uint64_t r = i * 64 + (uint64_t)__builtin_ctzll(b);
				sys_touch(base + r * m / nbits, part ? TOUCH_EXEC : TOUCH_READ);
			}
		}
		bits += (nbits + 63) / 64;
	}
}

static void make_main(void *arg);

static void make_exec(void *arg)
{
	sys_exec("make", K.make, &K.make_text_start, make_main, arg);
}

static void make_main(void *arg)
{
	struct kbuild_build *b = arg;
	const struct kbuild_params *p = &K.p;
	uint64_t rss = pages(p->make_anon), text_pages = pages(p->make_text);
	uint64_t mine = sys_mmap_anon(rss, VM_READ | VM_WRITE);
	for (uint64_t i = 0; i < rss; i++)
		sys_touch(mine + i, TOUCH_WRITE); /* reads the Makefiles, builds the graph */
	int next = 0, running = 0, code;
	b->filling = true;
	jobs_alive(b, 0);
	while (next < p->nr_jobs || running) {
		while (running < p->parallel && next < p->nr_jobs) {
			make_window(next, mine, rss, K.make_text_start, text_pages);
			sys_compute(p->make_cpu);
			struct process *c = sys_fork("sh", job_shell, &K.jobs[next++]);
			track(c);
			if (c) {
				running++;
				jobs_alive(b, 1);
			} else {
				b->failed++;
			}
		}
		if (next == p->nr_jobs && b->filling) {
			jobs_alive(b, 0);
			b->filling = false;
		}
		if (sys_wait(&code) < 0)
			break;
		running--;
		if (code != 0) {
			b->failed++;
			jobs_alive(b, -1); /* killed before it could say it ended */
		}
	}
	track(sys_fork("sh", job_shell, &K.jobs[p->nr_jobs]));
	if (sys_wait(&code) >= 0 && code != 0)
		b->failed++;
	b->end = local_now();
	b->cpu_ns = 0;
	for (size_t i = 0; i < K.nr_procs; i++)
		b->cpu_ns += K.procs[i]->task->task.utime + K.procs[i]->task->task.stime;
	b->done = true;
	sys_exit(0);
}

struct process *kbuild_fork_make(struct kbuild_build *b)
{
	memset(b, 0, sizeof(*b));
	K.build = b;
	K.nr_procs = 0;
	b->start = local_now();
	struct process *m = sys_fork("make", make_exec, b);
	track(m);
	return m;
}

void kbuild_setup(const struct kbuild_params *p, uint64_t seed)
{
	memset(&K, 0, sizeof(K));
	K.p = *p;
	K.seed = seed;
	K.page = MM->page_size;
	K.jobs = xcalloc((size_t)p->nr_jobs + 1, sizeof(*K.jobs));
	gaps = (struct kbuild_gap_table){kbuild_measured_gap_bins, kbuild_measured_gap_lo,
					 kbuild_measured_gap_cum};
	struct rng rng;
	rng_seed(&rng, seed, 998);
	uint64_t src_total = 0, obj_total = 0;
	for (int i = 0; i < p->nr_jobs; i++) {
		struct job *j = &K.jobs[i];
		/* a job of the measured sample, each equally likely: the recorded distribution */
		const struct kbuild_job_record *r =
		    &kbuild_measured_jobs[rng_below(&rng, (uint64_t)kbuild_measured_nr_jobs)];
		j->index = i;
		j->rec = r;
		j->heap_pages = pages((uint64_t)r->anon_kb * 1024 * (uint64_t)p->heap_scale / 100);
		j->cpu = (uint64_t)r->cpu_ms * NSEC_PER_MSEC * (uint64_t)p->cpu_scale / 100;
		j->src_off = src_total;
		j->src_pages = pages(r->src_bytes);
		j->hdr_pages = r->hdr_bytes / K.page;
		j->obj_off = obj_total;
		j->obj_pages = pages(r->obj_bytes);
		src_total += j->src_pages;
		obj_total += j->obj_pages;
	}
	struct job *l = &K.jobs[p->nr_jobs];
	l->index = p->nr_jobs;
	l->link = true;
	l->heap_pages = pages(p->link_heap);
	l->cpu = p->link_cpu ? p->link_cpu * (uint64_t)p->cpu_scale / 100 : p->step;
	K.cc1 = file_create("cc1", pages(p->text), 0, true);
	K.ld = file_create("ld", pages(p->text / 4), 0, true);
	K.make = file_create("make", pages(p->make_text), 0, true);
	K.src = file_create("src", src_total, 0, false);
	K.include = file_create("include", pages(p->headers), 0, false);
	K.objs = file_create("objs", 0, obj_total, false);
}

void kbuild_teardown(void)
{
	/* a job killed while it ran (OOM) never freed its history */
	for (int i = 0; K.jobs && i <= K.p.nr_jobs; i++)
		job_free_refs(&K.jobs[i]);
	free(K.jobs);
	free(K.procs);
	K.jobs = NULL;
	K.procs = NULL;
}

void kbuild_drop_caches(void)
{
	sys_fsync(K.objs);
	file_truncate(K.cc1);
	file_truncate(K.ld);
	file_truncate(K.make);
	file_truncate(K.src);
	file_truncate(K.include);
	file_truncate(K.objs);
}

unsigned long kbuild_free_pages(void)
{
	unsigned long n = 0;
	for (int z = 0; z < MM->nr_zones; z++)
		n += (unsigned long)zone_page_state(&MM->zones[z], NR_FREE_PAGES);
	return n;
}

/* ---- the kbuild workload: named (if any), then one timed build ---- */

static void named_main(void *arg)
{
	(void)arg;
	uint64_t n = pages(K.p.named);
	uint64_t base = sys_mmap_anon(n, VM_READ | VM_WRITE);
	struct rng rng;
	rng_seed(&rng, K.seed, 997);
	for (uint64_t i = 0; i < n; i++)
		sys_touch(base + i, TOUCH_WRITE); /* loads its zones */
	K.named_ready = true;
	/* one wakeup a second when idle, one a query up to a thousand a second, beyond that
	 * a millisecond's queries at each */
	int qps = K.p.named_qps, per = 0;
	uint64_t tick = NSEC_PER_SEC;
	if (qps > 1000) {
		tick = NSEC_PER_MSEC;
		per = qps / 1000;
	} else if (qps > 0) {
		tick = NSEC_PER_SEC / (uint64_t)qps;
		per = 1;
	}
	while (!K.named_stop) {
		sys_sleep(tick);
		sys_touch(base, TOUCH_READ); /* the page an idle BIND reads every second; at every
					      * wakeup, where it stays resident all the same */
		touch_random(&rng, base, n, per * K.p.named_query_pages, TOUCH_READ);
	}
	sys_exit(0);
}

static void kbuild_launcher(void *arg)
{
	(void)arg;
	struct process *named = NULL;
	if (K.p.named) {
		named = sys_fork("named", named_main, NULL);
		while (named && !K.named_ready && !named->exited)
			sys_sleep(100 * NSEC_PER_MSEC);
	}
	struct process *make = kbuild_fork_make(&K.b);
	int code;
	while (make && !make->exited)
		if (sys_wait(&code) < 0)
			break;
	K.named_stop = true;
	while (sys_wait(&code) >= 0)
		;
	K.done = true;
	sys_exit(0);
}

static int kbuild_start(const struct scenario_config *cfg, uint64_t seed)
{
	kbuild_setup(&cfg->kbuild, seed);
	struct process *init = process_spawn("kbuild", kbuild_launcher, NULL);
	if (!init)
		return -1;
	init->is_init = true;
	return 0;
}

static bool kbuild_finished(void)
{
	return K.done;
}

static void kbuild_report(const struct scenario_config *cfg, struct workload_result *r)
{
	const struct kbuild_build *b = &K.b;
	r->completed = K.done && b->done;
	result_printf(r, "make -j%d vmlinux: %d compile jobs + link", K.p.parallel, K.p.nr_jobs);
	if (K.p.named)
		result_printf(r, ", %llu MB named in the background",
			      (unsigned long long)(K.p.named >> 20));
	result_printf(r, "\n");
	if (!r->completed) {
		result_printf(r, "make: did not finish\n");
		return;
	}
	double secs = (double)(b->end - b->start) / 1e9;
	double cpu = secs > 0 ? (double)b->cpu_ns / 1e7 / secs : 0;
	int whole = (int)secs;
	result_printf(r, "%d:%02d:%02d elapsed, %.0f%%CPU (%.1f%% of %d CPUs), %d jobs failed\n",
		      whole / 3600, whole / 60 % 60, whole % 60, cpu, cpu / cfg->cpus, cfg->cpus,
		      b->failed);
	result_add_metric(r, "elapsed", secs, "s", false, true);
	result_add_metric(r, "cpu_pct", cpu, "%", true, false);
	result_add_metric(r, "machine_cpu_pct", cpu / cfg->cpus, "%", true, false);
	result_add_metric(r, "failed_jobs", b->failed, "jobs", false, false);
	result_add_metric(r, "token_handoffs", (double)swap_token_handoffs(), "", false, false);
	result_add_metric(r, "jobs_alive_mean", b->fill_ns ? (double)b->alive_ns / b->fill_ns : 0,
			  "jobs", true, false);
}

/* Host memory: the tasks alive at once at most (make, and a compiler driver and cc1 per job
 * slot), and each running job's reference history (kbuild_heap_refs: a step number per heap
 * page of the largest job, at 4 KiB pages at least; the pages of its last KBUILD_REFS_RING
 * steps, arrays grown by doubling). */
static uint64_t kbuild_host_bytes(const struct scenario_config *cfg)
{
	const struct kbuild_params *p = &cfg->kbuild;
	uint64_t peak = 0;
	for (int i = 0; i < kbuild_measured_nr_jobs; i++)
		peak = MAX(peak, (uint64_t)kbuild_measured_jobs[i].anon_kb);
	uint64_t heap = peak * 1024 * (uint64_t)p->heap_scale / 100 / 4096 + 1;
	uint64_t history = heap * 2 * sizeof(uint32_t) +
			   KBUILD_REFS_RING * ((uint64_t)p->heap_refs + 64) * 2 * sizeof(uint32_t) +
			   ((uint64_t)p->heap_refs + 1) * sizeof(uint64_t);
	return scenario_task_host_bytes((uint64_t)p->parallel * 2 + 2) +
	       (uint64_t)p->parallel * history;
}

const struct workload kbuild_workload = {
    .name = "kbuild",
    .description = "make -jN vmlinux: short-lived compile jobs, shared compiler text, optional "
		   "daemon holding memory (benchmarks.md §4)",
    .params = params,
    .nparams = sizeof(params) / sizeof(params[0]),
    .start = kbuild_start,
    .finished = kbuild_finished,
    .report = kbuild_report,
    .cleanup = kbuild_teardown,
    .host_bytes = kbuild_host_bytes,
};
