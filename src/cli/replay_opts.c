/* Option parsing shared by the reference-string commands (see replay_opts.h). */
#include "cli/replay_opts.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int ropt_u64(const char *s, uint64_t *v, int allow_zero)
{
	if (!s || *s < '0' || *s > '9')
		return -1;
	char *end;
	errno = 0;
	unsigned long long x = strtoull(s, &end, 10);
	if (errno || *end || (!x && !allow_zero))
		return -1;
	*v = x;
	return 0;
}

void ropt_trace_help(FILE *out)
{
	fprintf(out,
		"trace options:\n"
		"  --format F       arc (.lis), lirs (.trace), txt, csv, oracleGeneral, lackey or\n"
		"                   mmsim; default: from the name, then the content\n"
		"  --page-shift N   lackey: log2 of the page size (default 12)\n"
		"  --csv-col N      csv: 1-based column of the object id (default: from the\n"
		"                   header, else 2)\n"
		"  --csv-delim C    csv: field delimiter (default: detected)\n"
		"  zstd and gzip compression are detected from the content.\n");
}

/* The value of option c, checked, into o or *limit. */
int ropt_input_option(const char *cmd, int c, const char *val, struct trace_opts *o,
		      uint64_t *limit)
{
	uint64_t v;
	switch (c) {
	case ROPT_FORMAT:
		if (trace_format_parse(val, &o->format)) {
			fprintf(stderr,
				"mmsim %s: --format: expected arc, lirs, txt, csv, oracleGeneral, "
				"lackey or mmsim, got '%s'\n",
				cmd, val);
			return -1;
		}
		return 1;
	case ROPT_PAGE_SHIFT:
		if (ropt_u64(val, &v, 0) || v > 40) {
			fprintf(stderr, "mmsim %s: --page-shift: expected 1..40, got '%s'\n", cmd,
				val);
			return -1;
		}
		o->page_shift = (unsigned)v;
		return 1;
	case ROPT_CSV_COL:
		if (ropt_u64(val, &v, 0) || v > 64) {
			fprintf(stderr, "mmsim %s: --csv-col: expected 1..64, got '%s'\n", cmd,
				val);
			return -1;
		}
		o->csv_col = (unsigned)v;
		return 1;
	case ROPT_CSV_DELIM:
		if (strlen(val) != 1) {
			fprintf(stderr, "mmsim %s: --csv-delim: expected one character\n", cmd);
			return -1;
		}
		o->csv_delim = val[0];
		return 1;
	case ROPT_LIMIT:
		if (ropt_u64(val, limit, 0)) {
			fprintf(stderr,
				"mmsim %s: --limit: expected a positive integer, got '%s'\n", cmd,
				val);
			return -1;
		}
		return 1;
	default:
		return 0;
	}
}

void ropt_json_str(FILE *out, const char *s)
{
	fputc('"', out);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(out, "\\%c", *p);
		else if (*p < 0x20)
			fprintf(out, "\\u%04x", *p);
		else
			fputc(*p, out);
	}
	fputc('"', out);
}
