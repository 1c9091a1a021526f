/* mmsim convert: any supported trace to mmsim's compact binary format. */
#include "cli/commands.h"
#include "cli/progress.h"
#include "cli/replay_opts.h"
#include "trace/trace.h"

#include <stdio.h>
#include <string.h>

static void usage(FILE *out)
{
	fprintf(out, "usage: mmsim convert IN OUT [options]\n\n"
		     "Converts a trace to mmsim's binary format (a varint per reference, pages\n"
		     "numbered by first appearance). OUT ending in .zst is zstd-compressed, .gz\n"
		     "gzip; '-' writes standard output.\n\n"
		     "  --limit N        only the first N references\n"
		     "  --no-progress    no progress line even on a terminal\n");
	ropt_trace_help(out);
}

int cmd_convert(int argc, char **argv)
{
	struct trace_opts to = {0};
	const char *in = NULL, *out = NULL;
	uint64_t limit = 0;
	bool progress = true;
	static const struct option lo[] = {
	    ROPT_INPUT_OPTIONS,
	    {"no-progress", no_argument, 0, 'P'},
	    {"help", no_argument, 0, 'h'},
	    {0, 0, 0, 0},
	};
	optind = 1;
	opterr = 0;
	int c;
	while ((c = getopt_long(argc, argv, "-h", lo, NULL)) != -1) {
		int r = ropt_input_option("convert", c, optarg, &to, &limit);
		if (r < 0)
			return 2;
		if (r)
			continue;
		const char *a = optarg;
		if (c == 'h') {
			usage(stdout);
			return 0;
		} else if (c == 'P') {
			progress = false;
		} else if (c != 1) {
			return cli_unknown_option("convert", argv);
		} else if (!in) {
			in = a;
		} else if (!out) {
			out = a;
		} else {
			fprintf(stderr, "mmsim convert: too many arguments ('%s')\n", a);
			return 2;
		}
	}
	if (!in || !out) {
		fprintf(stderr, "mmsim convert: need IN and OUT (try mmsim convert --help)\n");
		return 2;
	}
	char err[1024];
	struct trace *t = trace_open(in, &to, err, sizeof(err));
	if (!t) {
		fprintf(stderr, "mmsim convert: %s\n", err);
		return 2;
	}
	struct trace_writer *w = trace_writer_open(out, trace_page_shift(t), err, sizeof(err));
	if (!w) {
		fprintf(stderr, "mmsim convert: %s\n", err);
		trace_close(t);
		return 2;
	}
	struct trace_ref r;
	int k = 0, rc = 0;
	cli_progress_start("convert", progress);
	while ((!limit || trace_count(t) < limit) && (k = trace_next(t, &r)) > 0)
		if (trace_writer_put(w, r.page, (enum trace_kind)r.kind))
			break;
	cli_progress_end();
	if (k < 0) {
		fprintf(stderr, "mmsim convert: %s\n", trace_error(t));
		rc = 2;
	}
	uint64_t n = trace_writer_count(w);
	uint32_t d = trace_writer_distinct(w);
	if (trace_writer_close(w)) {
		fprintf(stderr, "mmsim convert: %s: write failed\n", out);
		rc = rc ? rc : 1;
	}
	if (!rc)
		fprintf(stderr,
			"mmsim convert: %s (%s) -> %s: %llu references, %u distinct pages\n", in,
			trace_format_name(trace_get_format(t)), out, (unsigned long long)n, d);
	trace_close(t);
	return rc;
}
