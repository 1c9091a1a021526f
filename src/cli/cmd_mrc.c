/* mmsim mrc: the exact miss-ratio curve of LRU or OPT over all cache sizes, in one pass. */
#include "cli/commands.h"
#include "cli/progress.h"
#include "cli/replay_opts.h"
#include "replay/replay.h"
#include "sim/xalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void usage(FILE *out)
{
	fprintf(out,
		"usage: mmsim mrc TRACE [--policy lru|opt] [options]\n\n"
		"Computes the exact miss-ratio curve of a trace for every cache size at once:\n"
		"Mattson stack distances for lru, the OPT (Belady MIN) stack algorithm for opt.\n\n"
		"  --policy P       lru (default) or opt\n"
		"  --sizes LIST     print these cache sizes (pages), e.g. 1000,10000\n"
		"  --points N       otherwise print N log-spaced sizes up to the footprint (40)\n"
		"  --out FILE       write the whole curve: every size where the misses change\n"
		"  --plot FILE      draw the curve with gnuplot (.svg or .png); skipped with a\n"
		"                   note if gnuplot is not installed\n"
		"  --json           one JSON object instead of the table\n"
		"  --no-progress    no progress line even on a terminal\n"
		"  --limit N        only the first N references\n");
	ropt_trace_help(out);
}

static int gnuplot_present(void)
{
	return system("command -v gnuplot >/dev/null 2>&1") == 0;
}

static int plot(const char *png, const char *path, const char *pol, const struct mrc *m,
		const uint64_t *miss)
{
	if (!gnuplot_present()) {
		fprintf(stderr, "mmsim mrc: gnuplot not found, no plot written\n");
		return 0;
	}
	char dat[] = "/tmp/mmsim-mrc-XXXXXX";
	int fd = mkstemp(dat);
	if (fd < 0)
		return -1;
	FILE *f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		unlink(dat);
		return -1;
	}
	double refs = m->refs ? (double)m->refs : 1.0;
	fprintf(f, "0 1\n");
	/* a step at most every 0.2% of cache size keeps the graph small and looks the same */
	uint64_t last = 0;
	for (uint64_t c = 1; c <= m->maxd; c++)
		if ((m->hist[c] && c >= last + 1 + last / 500) || c == m->maxd) {
			fprintf(f, "%llu %.9f\n", (unsigned long long)c, (double)miss[c] / refs);
			last = c;
		}
	fclose(f);
	size_t l = strlen(png);
	const char *term =
	    l > 4 && !strcmp(png + l - 4, ".svg") ? "svg size 900,560 dynamic" : "png size 900,560";
	char cmd[256];
	snprintf(cmd, sizeof(cmd), "gnuplot");
	FILE *g = popen(cmd, "w");
	if (!g) {
		unlink(dat);
		return -1;
	}
	fprintf(g,
		"set terminal %s\nset output '%s'\nset title \"%s miss-ratio curve: %s\" "
		"noenhanced\nset xlabel 'cache size (pages)'\nset ylabel 'miss ratio'\n"
		"set logscale x\nset yrange [0:1]\nset grid\nset key off\n"
		"plot '%s' using ($1 > 0 ? $1 : 1):2 with steps lw 2\n",
		term, png, pol, path, dat);
	int st = pclose(g);
	unlink(dat);
	if (st != 0) {
		fprintf(stderr, "mmsim mrc: gnuplot failed, no plot written\n");
		return -1;
	}
	return 0;
}

struct mrc_args {
	struct trace_opts to;
	const char *path, *out, *png;
	char *sizes_arg;
	enum replay_policy pol;
	int json, no_progress;
	uint64_t limit, points;
};

/* 0 to go on, 1 when --help was printed, 2 for a bad argument (reported). */
static int parse_args(int argc, char **argv, struct mrc_args *a)
{
	memset(a, 0, sizeof(*a));
	a->pol = REPLAY_LRU;
	a->points = 40;
	enum { O_POLICY = 256, O_SIZES, O_POINTS, O_OUT, O_PLOT, O_JSON, O_NOPROG };
	static const struct option lo[] = {
	    ROPT_INPUT_OPTIONS,
	    {"policy", required_argument, 0, O_POLICY},
	    {"sizes", required_argument, 0, O_SIZES},
	    {"points", required_argument, 0, O_POINTS},
	    {"out", required_argument, 0, O_OUT},
	    {"plot", required_argument, 0, O_PLOT},
	    {"json", no_argument, 0, O_JSON},
	    {"no-progress", no_argument, 0, O_NOPROG},
	    {"help", no_argument, 0, 'h'},
	    {0, 0, 0, 0},
	};
	optind = 1;
	opterr = 0;
	int c;
	while ((c = getopt_long(argc, argv, "-h", lo, NULL)) != -1) {
		int r = ropt_input_option("mrc", c, optarg, &a->to, &a->limit);
		if (r < 0)
			return 2;
		if (r)
			continue;
		const char *o = optarg;
		if (c == 'h') {
			usage(stdout);
			return 1;
		} else if (c == O_POLICY) {
			if (replay_policy_parse(optarg, &a->pol) ||
			    (a->pol != REPLAY_LRU && a->pol != REPLAY_OPT)) {
				fprintf(stderr,
					"mmsim mrc: --policy: expected lru or opt, got '%s'\n",
					optarg);
				return 2;
			}
		} else if (c == O_SIZES) {
			a->sizes_arg = optarg;
		} else if (c == O_POINTS) {
			if (ropt_u64(optarg, &a->points, 0) || a->points > 100000) {
				fprintf(stderr,
					"mmsim mrc: --points: expected 1..100000, got '%s'\n",
					optarg);
				return 2;
			}
		} else if (c == O_OUT) {
			a->out = optarg;
		} else if (c == O_PLOT) {
			a->png = optarg;
		} else if (c == O_JSON) {
			a->json = 1;
		} else if (c == O_NOPROG) {
			a->no_progress = 1;
		} else if (c != 1) {
			return cli_unknown_option("mrc", argv);
		} else if (!a->path) {
			a->path = o;
		} else {
			fprintf(stderr, "mmsim mrc: more than one trace ('%s')\n", o);
			return 2;
		}
	}
	if (!a->path) {
		fprintf(stderr, "mmsim mrc: no trace given (try mmsim mrc --help)\n");
		return 2;
	}
	return 0;
}

/* --sizes LIST, validated before the (possibly long) pass. NULL with *ns = 0 when absent;
 * NULL with *ns = 1 on a bad list (reported). */
static uint64_t *parse_sizes(const char *arg, size_t *ns)
{
	*ns = 0;
	if (!arg)
		return NULL;
	char buf[4096];
	snprintf(buf, sizeof(buf), "%s", arg);
	uint64_t *sizes = xcalloc(strlen(buf) / 2 + 2, sizeof(*sizes)), v;
	for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
		if (ropt_u64(tok, &v, 0)) {
			fprintf(stderr,
				"mmsim mrc: --sizes: expected positive page counts, got '%s'\n",
				tok);
			free(sizes);
			*ns = 1;
			return NULL;
		}
		sizes[(*ns)++] = v;
	}
	return sizes;
}

/* points log-spaced sizes from 1 to the footprint, duplicates dropped. */
static uint64_t *log_sizes(uint64_t points, uint32_t maxd, size_t *ns)
{
	uint64_t *sizes = xcalloc(points + 1, sizeof(*sizes));
	uint64_t top = maxd ? maxd : 1;
	*ns = 0;
	for (uint64_t k = 1; k <= points; k++) {
		double x = points == 1
			       ? (double)top
			       : exp2(log2((double)top) * (double)(k - 1) / (double)(points - 1));
		uint64_t c = (uint64_t)(x + 0.5);
		if (c < 1)
			c = 1;
		if (k == points)
			c = top;
		if (!*ns || sizes[*ns - 1] < c)
			sizes[(*ns)++] = c;
	}
	return sizes;
}

static void print_points(const struct mrc_args *a, const struct mrc *m,
			 const struct replay_info *info, const uint64_t *miss,
			 const uint64_t *sizes, size_t ns)
{
	const char *pname = replay_policy_name(a->pol);
	double refs = m->refs ? (double)m->refs : 1.0;
	if (a->json) {
		printf("{\"trace\": ");
		ropt_json_str(stdout, a->path);
		printf(", \"format\": \"%s\", \"policy\": \"%s\", \"refs\": %llu, "
		       "\"distinct\": %u, \"cold\": %llu, \"points\": [",
		       trace_format_name(info->format), pname, (unsigned long long)m->refs,
		       info->distinct, (unsigned long long)m->cold);
		for (size_t k = 0; k < ns; k++) {
			uint64_t c = sizes[k] < m->maxd ? sizes[k] : m->maxd;
			printf("%s\n  {\"cache\": %llu, \"misses\": %llu, \"miss_ratio\": %.6f}",
			       k ? "," : "", (unsigned long long)sizes[k],
			       (unsigned long long)miss[c], (double)miss[c] / refs);
		}
		printf("\n]}\n");
		return;
	}
	printf("# %s: %s format, %llu references, %u distinct pages; %s, one pass\n", a->path,
	       trace_format_name(info->format), (unsigned long long)m->refs, info->distinct, pname);
	printf("%12s %12s %10s\n", "cache", "misses", "miss_ratio");
	for (size_t k = 0; k < ns; k++) {
		uint64_t c = sizes[k] < m->maxd ? sizes[k] : m->maxd;
		printf("%12llu %12llu %10.6f\n", (unsigned long long)sizes[k],
		       (unsigned long long)miss[c], (double)miss[c] / refs);
	}
}

/* --out: every size where the misses change. 0, or 2 when the file cannot be written. */
static int write_curve(const struct mrc_args *a, const struct mrc *m, const uint64_t *miss)
{
	FILE *f = fopen(a->out, "w");
	if (!f) {
		perror(a->out);
		return 2;
	}
	double refs = m->refs ? (double)m->refs : 1.0;
	fprintf(f,
		"# %s %s: cache misses miss_ratio, at every size where misses change; %llu "
		"references\n",
		replay_policy_name(a->pol), a->path, (unsigned long long)m->refs);
	for (uint64_t c = 1; c <= m->maxd; c++)
		if (m->hist[c])
			fprintf(f, "%llu %llu %.9f\n", (unsigned long long)c,
				(unsigned long long)miss[c], (double)miss[c] / refs);
	if (fclose(f)) {
		perror(a->out);
		return 2;
	}
	return 0;
}

int cmd_mrc(int argc, char **argv)
{
	struct mrc_args a;
	int r = parse_args(argc, argv, &a);
	if (r)
		return r == 1 ? 0 : 2;
	size_t ns;
	uint64_t *sizes = parse_sizes(a.sizes_arg, &ns);
	if (!sizes && ns)
		return 2;
	struct mrc m;
	struct replay_info info;
	char err[1024];
	cli_progress_start("mrc", !a.no_progress);
	int mrc_rc = mrc_run(a.path, &a.to, a.pol, a.limit, &m, &info, err, sizeof(err));
	cli_progress_end();
	if (mrc_rc) {
		fprintf(stderr, "mmsim mrc: %s\n", err);
		free(sizes);
		return 2;
	}
	/* miss[c] = misses of a cache of c pages, for c = 0..maxd */
	uint64_t *miss = xmalloc(((size_t)m.maxd + 2) * sizeof(*miss));
	miss[m.maxd] = m.cold;
	for (uint64_t c = m.maxd; c > 0; c--)
		miss[c - 1] = miss[c] + m.hist[c];
	if (!sizes)
		sizes = log_sizes(a.points, m.maxd, &ns);
	print_points(&a, &m, &info, miss, sizes, ns);
	int rc = a.out ? write_curve(&a, &m, miss) : 0;
	if (a.png && plot(a.png, a.path, replay_policy_name(a.pol), &m, miss))
		rc = 1;
	free(miss);
	free(sizes);
	mrc_free(&m);
	return rc;
}
