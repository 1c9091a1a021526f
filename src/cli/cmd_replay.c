/* mmsim replay: hits and misses of replacement policies over a page-reference trace. */
#include "cli/commands.h"
#include "cli/progress.h"
#include "cli/replay_opts.h"
#include "replay/replay.h"
#include "sim/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *out)
{
	fprintf(out,
		"usage: mmsim replay TRACE --policy P[,P...] --cache N[,N...] [options]\n\n"
		"Replays a page-reference trace through replacement policies, one pass for all\n"
		"policies and sizes, and prints hits, misses and the hit ratio of each.\n\n"
		"  --policy LIST    lru, clock, fifo, opt (Belady MIN), linux (2.6.28 file\n"
		"                   active/inactive LRU), linux+exec (with VM_EXEC protection)\n"
		"  --cache LIST     cache sizes in pages, e.g. 1000,10000\n"
		"  --json           one JSON object instead of the table\n"
		"  --no-progress    no progress line even on a terminal\n"
		"  --limit N        replay only the first N references\n"
		"  --inactive-ratio N  linux: deactivate while inactive*N < active instead of\n"
		"                   2.6.28's proportional scan of the file lists (0, default)\n");
	ropt_trace_help(out);
	fprintf(out, "\nopt loads the trace into memory (5 bytes per reference); the others "
		     "stream.\n");
}

/* Splits a comma list in place; returns the count or -1 if more than max. */
static int split(char *s, char **out, int max)
{
	int n = 0;
	for (char *tok = strtok(s, ","); tok; tok = strtok(NULL, ",")) {
		if (n == max)
			return -1;
		out[n++] = tok;
	}
	return n;
}

static double ratio(uint64_t a, uint64_t b)
{
	return b ? (double)a / (double)b : 0.0;
}

static void print_json(const char *path, const struct replay_info *ip,
		       const struct replay_job *jobs, size_t nj)
{
	printf("{\"trace\": ");
	ropt_json_str(stdout, path);
	printf(", \"format\": \"%s\", \"refs\": %llu, \"distinct\": %u, "
	       "\"results\": [",
	       trace_format_name(ip->format), (unsigned long long)ip->refs, ip->distinct);
	for (size_t j = 0; j < nj; j++) {
		const struct replay_result *r = &jobs[j].res;
		printf("%s\n  {\"policy\": \"%s\", \"cache\": %llu, \"refs\": %llu, "
		       "\"hits\": %llu, \"misses\": %llu, \"hit_ratio\": %.6f",
		       j ? "," : "", replay_policy_name(jobs[j].policy),
		       (unsigned long long)jobs[j].cache, (unsigned long long)r->refs,
		       (unsigned long long)r->hits, (unsigned long long)r->misses,
		       ratio(r->hits, r->refs));
		if (jobs[j].policy == REPLAY_LINUX || jobs[j].policy == REPLAY_LINUX_EXEC)
			printf(", \"pgactivate\": %llu, \"pgdeactivate\": %llu, "
			       "\"pgrefill\": %llu, \"pgscan\": %llu, \"pgsteal\": %llu, "
			       "\"rotated\": %llu",
			       (unsigned long long)r->pgactivate,
			       (unsigned long long)r->pgdeactivate, (unsigned long long)r->pgrefill,
			       (unsigned long long)r->pgscan, (unsigned long long)r->pgsteal,
			       (unsigned long long)r->rotated);
		printf("}");
	}
	printf("\n]}\n");
}

static void print_table(const char *path, const struct replay_info *ip,
			const struct replay_job *jobs, size_t nj)
{
	printf("# %s: %s format, %llu references, %u distinct pages\n", path,
	       trace_format_name(ip->format), (unsigned long long)ip->refs, ip->distinct);
	printf("%-11s %12s %12s %12s %12s %9s\n", "policy", "cache", "refs", "hits", "misses",
	       "hit_ratio");
	for (size_t j = 0; j < nj; j++) {
		const struct replay_result *r = &jobs[j].res;
		printf("%-11s %12llu %12llu %12llu %12llu %9.6f\n",
		       replay_policy_name(jobs[j].policy), (unsigned long long)jobs[j].cache,
		       (unsigned long long)r->refs, (unsigned long long)r->hits,
		       (unsigned long long)r->misses, ratio(r->hits, r->refs));
	}
}

int cmd_replay(int argc, char **argv)
{
	enum { MAXL = 64 };
	struct trace_opts to = {0};
	struct replay_linux_cfg lc = {0};
	const char *path = NULL;
	char *pol_arg = NULL, *cache_arg = NULL;
	int json = 0;
	uint64_t limit = 0, v;
	enum { O_POLICY = 256, O_CACHE, O_JSON, O_INACTIVE, O_NOPROG };
	bool progress = true;
	static const struct option lo[] = {
	    ROPT_INPUT_OPTIONS,
	    {"policy", required_argument, 0, O_POLICY},
	    {"cache", required_argument, 0, O_CACHE},
	    {"json", no_argument, 0, O_JSON},
	    {"inactive-ratio", required_argument, 0, O_INACTIVE},
	    {"no-progress", no_argument, 0, O_NOPROG},
	    {"help", no_argument, 0, 'h'},
	    {0, 0, 0, 0},
	};
	optind = 1;
	opterr = 0;
	int c;
	while ((c = getopt_long(argc, argv, "-h", lo, NULL)) != -1) {
		int r = ropt_input_option("replay", c, optarg, &to, &limit);
		if (r < 0)
			return 2;
		if (r)
			continue;
		const char *a = optarg;
		if (c == 'h') {
			usage(stdout);
			return 0;
		} else if (c == O_POLICY) {
			pol_arg = optarg;
		} else if (c == O_CACHE) {
			cache_arg = optarg;
		} else if (c == O_JSON) {
			json = 1;
		} else if (c == O_NOPROG) {
			progress = false;
		} else if (c == O_INACTIVE) {
			if (ropt_u64(optarg, &v, 1) || v > 1000) {
				fprintf(stderr,
					"mmsim replay: --inactive-ratio: expected 0..1000, got "
					"'%s'\n",
					optarg);
				return 2;
			}
			lc.inactive_ratio = (unsigned)v;
		} else if (c != 1) {
			return cli_unknown_option("replay", argv);
		} else if (!path) {
			path = a;
		} else {
			fprintf(stderr, "mmsim replay: more than one trace ('%s')\n", a);
			return 2;
		}
	}
	if (!path || !pol_arg || !cache_arg) {
		fprintf(stderr, "mmsim replay: need TRACE, --policy and --cache (try mmsim replay "
				"--help)\n");
		return 2;
	}
	char pbuf[1024], cbuf[1024];
	char *pols[MAXL], *caches[MAXL];
	snprintf(pbuf, sizeof(pbuf), "%s", pol_arg);
	snprintf(cbuf, sizeof(cbuf), "%s", cache_arg);
	int np = split(pbuf, pols, MAXL), nc = split(cbuf, caches, MAXL);
	if (np <= 0 || nc <= 0) {
		fprintf(stderr, "mmsim replay: at most %d policies and %d sizes\n", MAXL, MAXL);
		return 2;
	}
	struct replay_job *jobs = xcalloc((size_t)np * (size_t)nc, sizeof(*jobs));
	size_t nj = 0;
	for (int p = 0; p < np; p++) {
		enum replay_policy pol;
		if (replay_policy_parse(pols[p], &pol)) {
			fprintf(
			    stderr,
			    "mmsim replay: --policy: unknown policy '%s' (lru, clock, fifo, opt, "
			    "linux, linux+exec)\n",
			    pols[p]);
			free(jobs);
			return 2;
		}
		for (int c = 0; c < nc; c++) {
			if (ropt_u64(caches[c], &v, 0)) {
				fprintf(stderr,
					"mmsim replay: --cache: expected positive page counts, got "
					"'%s'\n",
					caches[c]);
				free(jobs);
				return 2;
			}
			jobs[nj].policy = pol;
			jobs[nj].cache = v;
			nj++;
		}
	}
	char err[1024];
	struct replay_info info;
	cli_progress_start("replay", progress);
	int rrc = replay_run(path, &to, &lc, jobs, nj, limit, &info, err, sizeof(err));
	cli_progress_end();
	if (rrc) {
		fprintf(stderr, "mmsim replay: %s\n", err);
		free(jobs);
		return 2;
	}
	if (json)
		print_json(path, &info, jobs, nj);
	else
		print_table(path, &info, jobs, nj);
	free(jobs);
	return 0;
}
