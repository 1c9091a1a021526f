/* mmsim mrc: the exact miss-ratio curve of LRU or OPT over all cache sizes, in one pass. */
#include "cli/commands.h"
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
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		int r = ropt_input_option("mrc", argc, argv, &i, &to, &limit);
		if (r < 0)
			return 2;
		if (r)
			continue;
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(a, "--policy") && i + 1 < argc) {
			if (replay_policy_parse(argv[++i], &pol) ||
			    (pol != REPLAY_LRU && pol != REPLAY_OPT)) {
				fprintf(stderr,
					"mmsim mrc: --policy: expected lru or opt, got '%s'\n",
					argv[i]);
				return 2;
			}
		} else if (!strcmp(a, "--sizes") && i + 1 < argc) {
			sizes_arg = argv[++i];
		} else if (!strcmp(a, "--points") && i + 1 < argc) {
			if (ropt_u64(argv[++i], &points, 0) || points > 100000) {
				fprintf(stderr,
					"mmsim mrc: --points: expected 1..100000, got '%s'\n",
					argv[i]);
				return 2;
			}
		} else if (!strcmp(a, "--out") && i + 1 < argc) {
			out = argv[++i];
		} else if (!strcmp(a, "--plot") && i + 1 < argc) {
			png = argv[++i];
		} else if (!strcmp(a, "--json")) {
			json = 1;
		} else if (a[0] == '-' && a[1]) {
			fprintf(
			    stderr,
			    "mmsim mrc: unknown or incomplete option '%s' (try mmsim mrc --help)\n",
			    a);
			return 2;
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
		sizes = xcalloc(strlen(buf) / 2 + 2, sizeof(*sizes));
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
	uint64_t *miss = xmalloc(((size_t)m.maxd + 2) * sizeof(*miss));
	miss[m.maxd] = m.cold;
	for (uint64_t c = m.maxd; c > 0; c--)
		miss[c - 1] = miss[c] + m.hist[c];
	if (!sizes) {
		sizes = xcalloc(points + 1, sizeof(*sizes));
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
