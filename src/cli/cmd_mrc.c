/* mmsim mrc: the exact miss-ratio curve of LRU or OPT over all cache sizes, in one pass. */
#include "cli/commands.h"
#include "cli/replay_opts.h"
#include "replay/replay.h"

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

int cmd_mrc(int argc, char **argv)
{
	struct trace_opts to = {0};
	const char *path = NULL, *out = NULL, *png = NULL;
	char *sizes_arg = NULL;
	enum replay_policy pol = REPLAY_LRU;
	int json = 0;
	uint64_t limit = 0, points = 40, v;
	enum { O_POLICY = 256, O_SIZES, O_POINTS, O_OUT, O_PLOT, O_JSON };
	static const struct option lo[] = {
	    ROPT_INPUT_OPTIONS,
	    {"policy", required_argument, 0, O_POLICY},
	    {"sizes", required_argument, 0, O_SIZES},
	    {"points", required_argument, 0, O_POINTS},
	    {"out", required_argument, 0, O_OUT},
	    {"plot", required_argument, 0, O_PLOT},
	    {"json", no_argument, 0, O_JSON},
	    {"help", no_argument, 0, 'h'},
	    {0, 0, 0, 0},
	};
	optind = 1;
	opterr = 0;
	int c;
	while ((c = getopt_long(argc, argv, "-h", lo, NULL)) != -1) {
		int r = ropt_input_option("mrc", c, optarg, &to, &limit);
		if (r < 0)
			return 2;
		if (r)
			continue;
		const char *a = optarg;
		if (c == 'h') {
			usage(stdout);
			return 0;
		} else if (c == O_POLICY) {
			if (replay_policy_parse(optarg, &pol) ||
			    (pol != REPLAY_LRU && pol != REPLAY_OPT)) {
				fprintf(stderr,
					"mmsim mrc: --policy: expected lru or opt, got '%s'\n",
					optarg);
				return 2;
			}
		} else if (c == O_SIZES) {
			sizes_arg = optarg;
		} else if (c == O_POINTS) {
			if (ropt_u64(optarg, &points, 0) || points > 100000) {
				fprintf(stderr,
					"mmsim mrc: --points: expected 1..100000, got '%s'\n",
					optarg);
				return 2;
			}
		} else if (c == O_OUT) {
			out = optarg;
		} else if (c == O_PLOT) {
			png = optarg;
		} else if (c == O_JSON) {
			json = 1;
		} else if (c != 1) {
			return cli_unknown_option("mrc", argv);
		} else if (!path) {
			path = a;
		} else {
			fprintf(stderr, "mmsim mrc: more than one trace ('%s')\n", a);
			return 2;
		}
	}
	if (!path) {
		fprintf(stderr, "mmsim mrc: no trace given (try mmsim mrc --help)\n");
		return 2;
	}
	/* the sizes to print, validated before the (possibly long) pass */
	uint64_t *sizes = NULL;
	size_t ns = 0;
	if (sizes_arg) {
		char buf[4096];
		snprintf(buf, sizeof(buf), "%s", sizes_arg);
		sizes = calloc(strlen(buf) / 2 + 2, sizeof(*sizes));
		if (!sizes)
			return 1;
		for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
			if (ropt_u64(tok, &v, 0)) {
				fprintf(stderr,
					"mmsim mrc: --sizes: expected positive page counts, "
					"got '%s'\n",
					tok);
				free(sizes);
				return 2;
			}
			sizes[ns++] = v;
		}
	}
	struct mrc m;
	struct replay_info info;
	char err[1024];
	if (mrc_run(path, &to, pol, limit, &m, &info, err, sizeof(err))) {
		fprintf(stderr, "mmsim mrc: %s\n", err);
		free(sizes);
		return 2;
	}
	/* miss[c] = misses of a cache of c pages, for c = 0..maxd */
	uint64_t *miss = malloc(((size_t)m.maxd + 2) * sizeof(*miss));
	if (!miss) {
		mrc_free(&m);
		free(sizes);
		return 1;
	}
	miss[m.maxd] = m.cold;
	for (uint64_t c = m.maxd; c > 0; c--)
		miss[c - 1] = miss[c] + m.hist[c];
	if (!sizes) {
		sizes = calloc(points + 1, sizeof(*sizes));
		if (!sizes)
			return 1;
		uint64_t top = m.maxd ? m.maxd : 1;
		for (uint64_t k = 1; k <= points; k++) {
			/* log-spaced from 1 to the footprint; duplicates dropped */
			double x =
			    points == 1
				? (double)top
				: exp2(log2((double)top) * (double)(k - 1) / (double)(points - 1));
			uint64_t c = (uint64_t)(x + 0.5);
			if (c < 1)
				c = 1;
			if (k == points)
				c = top;
			if (!ns || sizes[ns - 1] < c)
				sizes[ns++] = c;
		}
	}
	const char *pname = replay_policy_name(pol);
	double refs = m.refs ? (double)m.refs : 1.0;
	if (json) {
		printf("{\"trace\": ");
		ropt_json_str(stdout, path);
		printf(", \"format\": \"%s\", \"policy\": \"%s\", \"refs\": %llu, "
		       "\"distinct\": %u, \"cold\": %llu, \"points\": [",
		       trace_format_name(info.format), pname, (unsigned long long)m.refs,
		       info.distinct, (unsigned long long)m.cold);
		for (size_t k = 0; k < ns; k++) {
			uint64_t c = sizes[k] < m.maxd ? sizes[k] : m.maxd;
			printf("%s\n  {\"cache\": %llu, \"misses\": %llu, \"miss_ratio\": %.6f}",
			       k ? "," : "", (unsigned long long)sizes[k],
			       (unsigned long long)miss[c], (double)miss[c] / refs);
		}
		printf("\n]}\n");
	} else {
		printf("# %s: %s format, %llu references, %u distinct pages; %s, one pass\n", path,
		       trace_format_name(info.format), (unsigned long long)m.refs, info.distinct,
		       pname);
		printf("%12s %12s %10s\n", "cache", "misses", "miss_ratio");
		for (size_t k = 0; k < ns; k++) {
			uint64_t c = sizes[k] < m.maxd ? sizes[k] : m.maxd;
			printf("%12llu %12llu %10.6f\n", (unsigned long long)sizes[k],
			       (unsigned long long)miss[c], (double)miss[c] / refs);
		}
	}
	int rc = 0;
	if (out) {
		FILE *f = fopen(out, "w");
		if (!f) {
			perror(out);
			rc = 2;
		} else {
			fprintf(f,
				"# %s %s: cache misses miss_ratio, at every size where misses "
				"change; %llu references\n",
				pname, path, (unsigned long long)m.refs);
			for (uint64_t c = 1; c <= m.maxd; c++)
				if (m.hist[c])
					fprintf(f, "%llu %llu %.9f\n", (unsigned long long)c,
						(unsigned long long)miss[c],
						(double)miss[c] / refs);
			if (fclose(f)) {
				perror(out);
				rc = 2;
			}
		}
	}
	if (png && plot(png, path, pname, &m, miss))
		rc = 1;
	free(miss);
	free(sizes);
	mrc_free(&m);
	return rc;
}
