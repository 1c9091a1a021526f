/* The run fuzzer: draws valid scenarios from the --keys table (scenario_params) and runs the
 * machine on each for a short simulated time with the invariant checker on. A finding is a
 * crash, a sanitizer report (the child exits with ASan's/UBSan's status), an invariant
 * failure, a run that takes the host too long, or two runs of the same input whose --json
 * outputs differ. Each scenario runs in a forked child, twice in a row, so a crash or a leak
 * in one cannot hide or cause another and a leftover of the first run (global state not
 * reset) shows as a difference in the second.
 *
 *   runfuzz [--seeds A..B | --for SECONDS [--start A]] [--out DIR] [--trace FILE] [-v]
 *
 * Seed s always draws the same scenario (rng stream of its own), so a finding is reproduced
 * by `runfuzz --seeds s..s -v`, and its scenario is written to DIR/finding-s.conf with the
 * `mmsim run` command that replays it. Exit status: 0 no finding, 1 findings, 2 bad usage. */
#include "cli/run_output.h"
#include "cli/scenario_file.h"
#include "cli/trace_source.h"
#include "hw/profile.h"
#include "mm/mm.h"
#include "sim/rng.h"
#include "sim/xalloc.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Child exit statuses. Anything else (a signal, ASan's 1 or ours below) is a crash. */
enum {
	RF_OK = 0,
	RF_REJECTED = 10, /* scenario_validate refused it: counted, not a finding */
	RF_INVARIANT = 11,
	RF_MISMATCH = 12,
	RF_PARSE = 13,	  /* the generator wrote a file the parser refused: a generator bug */
	RF_NO_START = 14, /* validated, but the workload could not start: a gap in validation */
	RF_SANITIZER = 86,
};

/* CPU seconds a child may take: its simulated time is short, so more is a hang. CPU time,
 * not wall time, so a loaded machine does not turn a slow scenario into a finding (the
 * simulation never blocks: a hang spins). A sanitizer build runs several times slower and
 * sets a larger bound (CMakeLists.txt). */
#ifndef RF_CPU_LIMIT
#define RF_CPU_LIMIT 120
#endif

const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "exitcode=86:detect_leaks=1";
}
const char *__ubsan_default_options(void);
const char *__ubsan_default_options(void)
{
	return "print_stacktrace=1:halt_on_error=1:exitcode=86";
}

static const char *trace_path = "none";
static volatile sig_atomic_t stop_requested;

static void on_stop(int sig)
{
	(void)sig;
	stop_requested = 1; /* finish the scenario in hand, then print the tally */
}

static double unit(struct rng *r)
{
	return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}

/* Log-uniform in [lo, hi], lo >= 1. */
static uint64_t log_between(struct rng *r, uint64_t lo, uint64_t hi)
{
	if (lo < 1)
		lo = 1;
	if (hi <= lo)
		return lo;
	double l = __builtin_log((double)lo), h = __builtin_log((double)hi);
	double v = __builtin_exp(l + (h - l) * unit(r));
	uint64_t x = (uint64_t)v;
	return x < lo ? lo : x > hi ? hi : x;
}

/* A value for one numeric key: mostly around its default (where the model is exercised as
 * used), sometimes anywhere in its range, sometimes at an end of it. */
static int64_t draw_number(struct rng *r, const struct param_desc *d, int64_t def)
{
	int64_t lo = d->min, hi = d->max;
	uint64_t pick = rng_below(r, 100);
	if (pick < 8)
		return lo;
	if (pick < 12)
		return hi;
	if (pick < 40) { /* anywhere, log-spread above the minimum */
		if (lo < 0 && rng_below(r, 2))
			return lo + (int64_t)rng_below(r, (uint64_t)(-lo) + 1);
		uint64_t base = lo > 0 ? (uint64_t)lo : 0;
		return (int64_t)(base + log_between(r, 1, (uint64_t)(hi - (int64_t)base) + 1) - 1);
	}
	/* near the default: a factor of up to 16 either way */
	uint64_t c = def > 0 ? (uint64_t)def : 1;
	uint64_t v = log_between(r, c / 16 ? c / 16 : 1, c * 16);
	if (def <= 0 && rng_below(r, 2))
		v = (uint64_t)(def < lo ? lo : def);
	int64_t x = (int64_t)v;
	return x < lo ? lo : x > hi ? hi : x;
}

static int64_t field_value(const struct param_desc *d, const struct scenario_config *c)
{
	const char *p = (const char *)c + d->offset;
	switch (d->type) {
	case P_INT:
	case P_ENUM: {
		int v;
		memcpy(&v, p, sizeof(v));
		return v;
	}
	case P_BOOL: {
		bool v;
		memcpy(&v, p, sizeof(v));
		return v;
	}
	default: {
		uint64_t v;
		memcpy(&v, p, sizeof(v));
		return (int64_t)v;
	}
	}
}

struct drawn {
	char text[16384]; /* the scenario file */
	size_t len;
	char sets[4096]; /* hw.* keys: command line only */
	size_t slen;
	uint64_t run_seed;
};

static void emit(struct drawn *o, const char *key, const char *val)
{
	if (!strncmp(key, "hw.", 3)) {
		if (o->slen < sizeof(o->sets) - 300)
			o->slen += (size_t)snprintf(o->sets + o->slen, sizeof(o->sets) - o->slen,
						    " --set %s=%s", key, val);
		return;
	}
	if (o->len < sizeof(o->text) - 600)
		o->len += (size_t)snprintf(o->text + o->len, sizeof(o->text) - o->len, "%s = %s\n",
					   key, val);
}

static void emit_u64(struct drawn *o, const char *key, uint64_t v)
{
	char b[32];
	snprintf(b, sizeof(b), "%" PRIu64, v);
	emit(o, key, b);
}

/* Scenario number s. The machine keys are drawn always, the workload's keys and the policy
 * switches each with some probability (so that both defaults and changes are covered). */
static void draw(uint64_t s, struct drawn *o)
{
	struct rng r;
	rng_seed(&r, s, 0x72756e66757a7aULL); /* "runfuzz" */
	memset(o, 0, sizeof(*o));
	struct scenario_config def;
	scenario_defaults(&def);
	const struct workload *const *wl = workload_all();
	int nwl = 0;
	while (wl[nwl])
		nwl++;
	const char *w = wl[rng_below(&r, (uint64_t)nwl)]->name;
	emit(o, "workload", w);
	const char *const *profiles = hw_profile_names();
	int np = 0;
	while (profiles[np])
		np++;
	emit(o, "machine.profile", profiles[rng_below(&r, (uint64_t)np)]);
	/* RAM from 8 MiB to 2 GiB: the mem_map of a larger machine is host memory and boot
	 * time without a new path (the bound itself is tested by the guard's own test). */
	emit_u64(o, "machine.ram", log_between(&r, rng_below(&r, 8) ? 72 : 8, 2048) << 20);
	emit_u64(o, "machine.swap", rng_below(&r, 3) ? log_between(&r, 1, 500) << 20 : 0);
	emit_u64(o, "machine.cpus",
		 rng_below(&r, 4) ? log_between(&r, 1, 16) : log_between(&r, 1, 256));
	char t[32];
	snprintf(t, sizeof(t), "%" PRIu64 "ms", log_between(&r, 5, 400));
	emit(o, "run.time_limit", t);
	emit_u64(o, "run.check_every", log_between(&r, 2000, 200000));
	if (!strcmp(w, "trace"))
		emit(o, "trace.file", trace_path);

	size_t n;
	const struct param_desc *tab = scenario_params(&n);
	size_t wlen = strlen(w);
	for (size_t i = 0; i < n; i++) {
		const struct param_desc *d = &tab[i];
		bool own = !strncmp(d->name, w, wlen) && d->name[wlen] == '.';
		bool policy = !strncmp(d->name, "vm.", 3) || !strncmp(d->name, "kernel.", 7);
		bool hw = !strncmp(d->name, "hw.", 3);
		if (!own && !policy && !hw)
			continue; /* machine.*, run.*, scenario.*, other workloads' keys */
		if (!strncmp(d->name, "trace.file", 10))
			continue;
		uint64_t p = rng_below(&r, 100);
		if ((own && p >= 45) || (policy && p >= 35) || (hw && p >= 3))
			continue;
		char val[64];
		switch (d->type) {
		case P_ENUM: {
			int k = 0;
			while (d->choices[k])
				k++;
			snprintf(val, sizeof(val), "%s", d->choices[rng_below(&r, (uint64_t)k)]);
			break;
		}
		case P_BOOL:
			snprintf(val, sizeof(val), "%d", (int)rng_below(&r, 2));
			break;
		case P_STRING:
			continue;
		default:
			snprintf(val, sizeof(val), "%" PRId64 "%s",
				 draw_number(&r, d, field_value(d, &def)),
				 d->type == P_TIME ? "ns" : "");
		}
		emit(o, d->name, val);
	}
	o->run_seed = rng_next(&r) % 1000;
}

static int run_once(const struct scenario_config *cfg, uint64_t seed, char **json)
{
	struct run_result res;
	int rc = scenario_run(cfg, seed, &res, mm_check_invariants);
	if (rc == 0) {
		struct run_meta meta = {"runfuzz", seed, NULL, 0};
		*json = run_to_json(&meta, cfg, &res);
	}
	run_result_free(&res);
	return rc;
}

/* The child: parse, validate, run twice, compare. */
static int child(const struct drawn *o, bool verbose)
{
	struct scenario_config cfg;
	scenario_defaults(&cfg);
	char err[1024];
	if (scenario_parse_text(&cfg, o->text, o->len, "runfuzz", err, sizeof(err))) {
		fprintf(stderr, "runfuzz: generator wrote an unparsable file: %s\n", err);
		return RF_PARSE;
	}
	/* the hw.* keys, as --set would apply them */
	char sets[sizeof(o->sets)];
	memcpy(sets, o->sets, sizeof(sets));
	for (char *tok = strtok(sets, " "); tok; tok = strtok(NULL, " ")) {
		if (!strcmp(tok, "--set"))
			continue;
		if (scenario_apply_override(&cfg, tok, "--set", err, sizeof(err))) {
			fprintf(stderr, "runfuzz: generator wrote a bad --set: %s\n", err);
			return RF_PARSE;
		}
	}
	if (scenario_validate(&cfg, err, sizeof(err))) {
		if (verbose)
			fprintf(stderr, "runfuzz: refused: %s\n", err);
		return RF_REJECTED;
	}
	char *a = NULL, *b = NULL;
	int ra = run_once(&cfg, o->run_seed, &a);
	if (ra == SCENARIO_REFUSED) { /* validation that needed the booted machine */
		if (verbose) {
			const char *key = NULL;
			const char *why = scenario_refusal(&key);
			fprintf(stderr, "runfuzz: refused at start: %s: %s\n", key, why);
		}
		free(a);
		return RF_REJECTED;
	}
	if (ra == SCENARIO_NO_START) {
		fprintf(stderr, "runfuzz: the workload could not start\n");
		return RF_NO_START;
	}
	if (ra != 0) {
		fprintf(stderr, "runfuzz: the invariant checker failed (first run)\n");
		return RF_INVARIANT;
	}
	int rb = run_once(&cfg, o->run_seed, &b);
	int ret = RF_OK;
	if (rb != 0) {
		fprintf(stderr, "runfuzz: the invariant checker failed (second run)\n");
		ret = RF_INVARIANT;
	} else if (strcmp(a, b)) {
		size_t k = 0;
		while (a[k] == b[k])
			k++;
		fprintf(stderr,
			"runfuzz: two runs differ at byte %zu: ...%.80s... vs ...%.80s...\n", k,
			a + (k > 20 ? k - 20 : 0), b + (k > 20 ? k - 20 : 0));
		ret = RF_MISMATCH;
	}
	free(a);
	free(b);
	return ret;
}

struct tally {
	uint64_t runs, rejected, findings, crashes, invariants, mismatches, hangs, generator,
	    no_start;
	uint64_t workload_runs[32];
};

static const char *verdict(int status, struct tally *t)
{
	if (WIFSIGNALED(status)) {
		int sig = WTERMSIG(status);
		if (sig == SIGXCPU) {
			t->hangs++;
			return "hang (CPU-time limit)";
		}
		t->crashes++;
		static char b[64];
		snprintf(b, sizeof(b), "killed by SIG%s",
			 sigabbrev_np(sig) ? sigabbrev_np(sig) : "?");
		return b;
	}
	switch (WEXITSTATUS(status)) {
	case RF_OK:
		return NULL;
	case RF_REJECTED:
		t->rejected++;
		return NULL;
	case RF_INVARIANT:
		t->invariants++;
		return "invariant failure";
	case RF_MISMATCH:
		t->mismatches++;
		return "two runs of the same input differ";
	case RF_PARSE:
		t->generator++;
		return "generator wrote an invalid scenario";
	case RF_NO_START:
		t->no_start++;
		return "validated, but the workload could not start";
	case RF_SANITIZER:
		t->crashes++;
		return "sanitizer report";
	default:
		t->crashes++;
		return "unexpected exit status";
	}
}

static void record(const char *dir, uint64_t s, const struct drawn *o, const char *why, int status)
{
	if (!dir)
		return;
	char path[4200];
	snprintf(path, sizeof(path), "%s/finding-%" PRIu64 ".conf", dir, s);
	FILE *f = fopen(path, "w");
	if (!f)
		return;
	fprintf(f, "# runfuzz seed %" PRIu64 ": %s (status %#x)\n", s, why, status);
	fprintf(f, "# reproduce: mmsim run %s --seed %" PRIu64 "%s\n", path, o->run_seed, o->sets);
	fwrite(o->text, 1, o->len, f);
	fclose(f);
}

static int parse_range(const char *s, uint64_t *a, uint64_t *b)
{
	char *end;
	errno = 0;
	*a = strtoull(s, &end, 10);
	if (errno || end == s || strncmp(end, "..", 2))
		return -1;
	const char *q = end + 2;
	*b = strtoull(q, &end, 10);
	return errno || end == q || *end || *b < *a ? -1 : 0;
}

int main(int argc, char **argv)
{
	uint64_t first = 1, last = 0, start = 1;
	double for_s = 0;
	const char *out = NULL;
	bool verbose = false;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--seeds") && i + 1 < argc) {
			if (parse_range(argv[++i], &first, &last)) {
				fprintf(stderr, "runfuzz: --seeds A..B\n");
				return 2;
			}
		} else if (!strcmp(argv[i], "--for") && i + 1 < argc) {
			for_s = atof(argv[++i]);
		} else if (!strcmp(argv[i], "--start") && i + 1 < argc) {
			start = strtoull(argv[++i], NULL, 10);
		} else if (!strcmp(argv[i], "--out") && i + 1 < argc) {
			out = argv[++i];
		} else if (!strcmp(argv[i], "--trace") && i + 1 < argc) {
			trace_path = argv[++i];
		} else if (!strcmp(argv[i], "-v")) {
			verbose = true;
		} else {
			fprintf(stderr, "usage: runfuzz [--seeds A..B | --for SECONDS [--start A]] "
					"[--out DIR] [--trace FILE] [-v]\n");
			return 2;
		}
	}
	if (for_s > 0) {
		first = start;
		last = UINT64_MAX;
	} else if (!last) {
		last = 20;
	}
	if (out)
		mkdir(out, 0777);
	char tmpl[4200] = "";
	if (!strcmp(trace_path, "none")) { /* a small trace of its own for the trace workload */
		const char *tmp = getenv("TMPDIR");
		snprintf(tmpl, sizeof(tmpl), "%s/runfuzz-XXXXXX.txt", tmp && *tmp ? tmp : "/tmp");
		int fd = mkstemps(tmpl, 4);
		FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
		if (!f) {
			perror("runfuzz: trace");
			return 2;
		}
		struct rng r;
		rng_seed(&r, 1, 0x7472616365ULL);
		for (int i = 0; i < 20000; i++)
			fprintf(f, "%" PRIu64 "\n", rng_below(&r, 4096) + (i % 7 == 0 ? 70000 : 0));
		fclose(f);
		trace_path = tmpl;
	}
	trace_source_register();
	struct tally t = {0};
	struct timespec t0, now;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	uint64_t s;
	signal(SIGINT, on_stop);
	signal(SIGTERM, on_stop);
	for (s = first; s <= last && !stop_requested; s++) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		double el =
		    (double)(now.tv_sec - t0.tv_sec) + (double)(now.tv_nsec - t0.tv_nsec) * 1e-9;
		if (for_s > 0 && el >= for_s)
			break;
		struct drawn o;
		draw(s, &o);
		fflush(NULL);
		pid_t pid = fork();
		if (pid < 0) {
			perror("runfuzz: fork");
			return 2;
		}
		if (pid == 0) {
			signal(SIGINT, SIG_DFL);
			signal(SIGTERM, SIG_DFL);
			/* SIGXCPU at the soft limit (SIGKILL at the hard one) */
			struct rlimit cpu = {RF_CPU_LIMIT, RF_CPU_LIMIT + 5};
			setrlimit(RLIMIT_CPU, &cpu);
			if (!verbose) { /* the runs' own reports are noise; findings print below */
				FILE *nul = freopen("/dev/null", "w", stdout);
				(void)nul;
			}
			exit(child(&o, verbose));
		}
		int status;
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		t.runs++;
		const char *why = verdict(status, &t);
		if (why) {
			t.findings++;
			fprintf(stderr, "runfuzz: FINDING seed %" PRIu64 ": %s\n", s, why);
			record(out, s, &o, why, status);
			if (verbose)
				fwrite(o.text, 1, o.len, stderr);
		} else if (verbose) {
			fprintf(stderr, "runfuzz: seed %" PRIu64 " ok\n", s);
		}
		if (t.runs % 100 == 0)
			fprintf(stderr, "runfuzz: %" PRIu64 " scenarios, %" PRIu64 " findings\n",
				t.runs, t.findings);
	}
	clock_gettime(CLOCK_MONOTONIC, &now);
	double el = (double)(now.tv_sec - t0.tv_sec) + (double)(now.tv_nsec - t0.tv_nsec) * 1e-9;
	printf("runfuzz: seeds %" PRIu64 "..%" PRIu64 ": %" PRIu64 " scenarios (%" PRIu64
	       " refused by validation, %" PRIu64 " run twice) in %.1f s; findings %" PRIu64
	       " (crashes/sanitizer %" PRIu64 ", invariant %" PRIu64 ", nondeterministic %" PRIu64
	       ", hangs %" PRIu64 ", generator %" PRIu64 ", could not start %" PRIu64 ")\n",
	       first, s - 1, t.runs, t.rejected, t.runs - t.rejected, el, t.findings, t.crashes,
	       t.invariants, t.mismatches, t.hangs, t.generator, t.no_start);
	if (*tmpl)
		unlink(tmpl);
	return t.findings ? 1 : 0;
}
