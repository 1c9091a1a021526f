/* Record parsers of the external trace formats. Each turns one line (or one binary record) into
 * a run of single-page references (trace_push_run) and validates as strictly as the format allows:
 * a trace that parses wrongly gives wrong hit ratios silently, which is worse than an error. */
#include "trace/trace_impl.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

/* Largest run one record may expand to; a bigger one is almost surely a corrupt line. */
#define MAX_RUN (1ull << 24)

static const char *skip_ws(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* Parse a decimal uint64 at s; returns the end pointer or NULL (not a number, overflow). */
static const char *parse_dec(const char *s, uint64_t *out)
{
	unsigned d = (unsigned)((unsigned char)*s - '0');
	if (d > 9)
		return NULL;
	uint64_t v = 0;
	do {
		/* below 10^18 no digit can overflow: skip the division */
		if (v >= 100000000000000000ull && v > (UINT64_MAX - d) / 10)
			return NULL;
		v = v * 10 + d;
		d = (unsigned)((unsigned char)*++s - '0');
	} while (d <= 9);
	*out = v;
	return s;
}

static const char *parse_hex(const char *s, uint64_t *out)
{
	uint64_t v = 0;
	int n = 0;
	for (;; s++, n++) {
		int d;
		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (*s >= 'a' && *s <= 'f')
			d = *s - 'a' + 10;
		else if (*s >= 'A' && *s <= 'F')
			d = *s - 'A' + 10;
		else
			break;
		if (v >> 60)
			return NULL;
		v = v << 4 | (uint64_t)d;
	}
	if (!n)
		return NULL;
	*out = v;
	return s;
}

static int is_blank(const char *s)
{
	return *skip_ws(s) == 0;
}

/* ARC .lis: "start nblocks [ignored [reqno]]" -> nblocks references start, start+1, ... */
static int arc_line(struct trace *t, const char *s)
{
	uint64_t f[4];
	int n = 0;
	s = skip_ws(s);
	while (*s) {
		if (n == 4)
			return trace_fail(t, "more than 4 fields");
		const char *e = parse_dec(s, &f[n]);
		if (!e || (*e && *e != ' ' && *e != '\t'))
			return trace_fail(t, "field %d is not a non-negative integer", n + 1);
		n++;
		s = skip_ws(e);
	}
	if (n < 2)
		return trace_fail(t, "expected 'start_block n_blocks ...', got %d field%s", n,
				  n == 1 ? "" : "s");
	if (f[1] == 0 || f[1] > MAX_RUN)
		return trace_fail(t, "block count %llu out of range 1..%llu",
				  (unsigned long long)f[1], (unsigned long long)MAX_RUN);
	if (f[0] + (f[1] - 1) < f[0])
		return trace_fail(t, "block range overflows 64 bits");
	trace_push_run(t, f[0], f[1], TRACE_READ);
	return 1;
}

/* LIRS and libCacheSim txt: one number per line; LIRS also has "*" checkpoint lines. */
static int num_line(struct trace *t, const char *s)
{
	uint64_t v;
	s = skip_ws(s);
	if (*s == '*' && is_blank(s + 1)) {
		if (t->format == TRACE_FMT_LIRS)
			return 0; /* a marker of the authors' simulator, not a reference */
		return trace_fail(t, "'*' marker in a txt trace (use --format lirs)");
	}
	const char *e = parse_dec(s, &v);
	if (!e || !is_blank(e))
		return trace_fail(t, "expected one non-negative integer per line");
	trace_push_run(t, v, 1, TRACE_READ);
	return 1;
}

/* valgrind lackey: "I  addr,size", " L addr,size", " S ...", " M ..."; "==pid==" and "--pid--"
 * lines are valgrind's own messages. */
static int lackey_line(struct trace *t, const char *s)
{
	if ((s[0] == '=' && s[1] == '=') || (s[0] == '-' && s[1] == '-'))
		return 0;
	s = skip_ws(s);
	char op = *s;
	if (op != 'I' && op != 'L' && op != 'S' && op != 'M')
		return trace_fail(t, "not a lackey --trace-mem line (expected I, L, S or M)");
	s = skip_ws(s + 1);
	uint64_t addr, size;
	const char *e = parse_hex(s, &addr);
	if (!e || *e != ',')
		return trace_fail(t, "expected hex address followed by ','");
	e = parse_dec(e + 1, &size);
	if (!e || !is_blank(e))
		return trace_fail(t, "expected decimal access size after ','");
	if (size == 0)
		size = 1;
	if (addr + (size - 1) < addr)
		return trace_fail(t, "access wraps around the address space");
	unsigned shift = t->page_shift;
	uint64_t first = addr >> shift, last = (addr + size - 1) >> shift;
	if (last - first >= MAX_RUN)
		return trace_fail(t, "access of %llu bytes is implausibly large",
				  (unsigned long long)size);
	trace_push_run(t, first, last - first + 1,
		       op == 'I'   ? TRACE_EXEC
		       : op == 'S' ? TRACE_WRITE
				   : TRACE_READ);
	if (op == 'M') /* a modify is a load then a store of the same bytes */
		trace_push_run(t, first, last - first + 1, TRACE_WRITE);
	return 1;
}

static int csv_split(char *s, char delim, char **fields, int max)
{
	int n = 0;
	for (;;) {
		if (n == max)
			return n + 1;
		fields[n++] = s;
		char *d = delim == ' ' ? strpbrk(s, " \t") : strchr(s, delim);
		if (!d)
			return n;
		*d = 0;
		s = d + 1;
		if (delim == ' ')
			while (*s == ' ' || *s == '\t')
				s++;
	}
}

static char *csv_trim(char *f)
{
	f = (char *)skip_ws(f);
	size_t l = strlen(f);
	while (l && (f[l - 1] == ' ' || f[l - 1] == '\t'))
		f[--l] = 0;
	if (l >= 2 && f[0] == '"' && f[l - 1] == '"') {
		f[l - 1] = 0;
		f++;
	}
	return f;
}

/* decimal, or hex with 0x */
static int csv_number(const char *f, uint64_t *v)
{
	const char *e;
	if (f[0] == '0' && (f[1] == 'x' || f[1] == 'X'))
		e = parse_hex(f + 2, v);
	else
		e = parse_dec(f, v);
	return e && !*e;
}

static int csv_line(struct trace *t, char *s)
{
	enum { MAXF = 64 };
	char *f[MAXF];
	if (!t->csv_started) {
		t->csv_started = 1;
		if (!t->csv_delim) {
			static const char cands[] = {',', '\t', ';'};
			size_t best = 0;
			t->csv_delim = ' ';
			for (int i = 0; i < 3; i++) {
				size_t c = 0;
				for (const char *p = s; *p; p++)
					c += *p == cands[i];
				if (c > best) {
					best = c;
					t->csv_delim = cands[i];
				}
			}
		}
		char copy[4096];
		snprintf(copy, sizeof(copy), "%s", s);
		int n = csv_split(copy, t->csv_delim, f, MAXF);
		if (n > MAXF)
			n = MAXF;
		uint64_t v;
		int header = 0, numeric = 0;
		for (int i = 0; i < n; i++)
			numeric += csv_number(csv_trim(f[i]), &v);
		if (t->csv_col) {
			header =
			    (int)t->csv_col <= n && !csv_number(csv_trim(f[t->csv_col - 1]), &v);
		} else {
			static const char *names[] = {
			    "obj_id", "obj-id", "objid", "object_id", "id",   "key",	 "block",
			    "blkno",  "lbn",	"lba",	 "page",      "addr", "address", "offset"};
			for (size_t k = 0; k < sizeof(names) / sizeof(names[0]) && !t->csv_col; k++)
				for (int i = 0; i < n; i++)
					if (!strcasecmp(csv_trim(f[i]), names[k])) {
						t->csv_col = (unsigned)i + 1;
						break;
					}
			header = t->csv_col || !numeric;
			if (header && !t->csv_col)
				return trace_fail(t, "csv header names no object id column "
						     "(use --csv-col N)");
		}
		if (!t->csv_col)
			/* libCacheSim's usual layout is time,obj_id,obj_size,... */
			t->csv_col = n >= 2 ? 2 : 1;
		if (header)
			return 0;
	}
	int n = csv_split(s, t->csv_delim, f, MAXF);
	if ((unsigned)n < t->csv_col || t->csv_col > MAXF)
		return trace_fail(t, "csv line has %d field%s, object id column is %u", n,
				  n == 1 ? "" : "s", t->csv_col);
	uint64_t v;
	if (!csv_number(csv_trim(f[t->csv_col - 1]), &v))
		return trace_fail(t, "csv column %u is not a numeric object id", t->csv_col);
	trace_push_run(t, v, 1, TRACE_READ);
	return 1;
}

/* The usual line of an ARC or one-number trace, "start n [x [y]]\n" or "page\n", numbers of
 * at most 18 digits (no overflow to check), parsed where it lies in the buffer: no call per
 * line, and no bounds check, the NUL after the buffer's data (input.h) stopping every scan.
 * Returns 1 with its run queued, or 0, consuming nothing, for any other line (blank, marker,
 * CR, bad or huge field, no newline in the buffer yet), which the line reader below then
 * reads with every check and message of arc_line and num_line. */
static int fast_line(struct trace *t, unsigned maxf)
{
	const uint8_t *p = t->in.buf + t->in.pos;
	uint64_t f[4];
	unsigned n = 0;
	for (;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '\n')
			break;
		unsigned d = (unsigned)*p - '0';
		if (n == maxf || d > 9)
			return 0;
		const uint8_t *start = p;
		uint64_t v = 0;
		do {
			v = v * 10 + d;
			d = (unsigned)*++p - '0';
		} while (d <= 9);
		if (p - start > 18 || (*p != ' ' && *p != '\t' && *p != '\n'))
			return 0;
		f[n++] = v;
	}
	if (maxf == 1) {
		if (n != 1)
			return 0;
		f[1] = 1;
	} else if (n < 2 || f[1] == 0 || f[1] > MAX_RUN) {
		return 0;
	}
	t->in.pos = (size_t)(p + 1 - t->in.buf);
	t->line++;
	trace_push_run(t, f[0], f[1], TRACE_READ);
	return 1;
}

/* The 1 to 18 digits at p as a number in *v; returns their end, or NULL when there are none or
 * more. Up to 7 digits are found and converted in one 8-byte word, without a branch on their
 * number, which varies from line to line (the input's padding, input.h, covers the word). */
static inline const uint8_t *arc_field(const uint8_t *p, uint64_t *v)
{
	uint64_t x;
	memcpy(&x, p, 8);
	/* a byte not in '0'..'9' has a high nibble other than 3, before or after adding 6; a carry
	 * out of it changes only the bytes after the first such */
	uint64_t nd =
	    ((x & 0xF0F0F0F0F0F0F0F0ull) ^ 0x3030303030303030ull) |
	    (((x + 0x0606060606060606ull) & 0xF0F0F0F0F0F0F0F0ull) ^ 0x3030303030303030ull);
	if (nd) {
		unsigned len = (unsigned)__builtin_ctzll(nd) >> 3;
		if (!len)
			return NULL;
		/* the digits at the top, the first most significant, zeros below; then pairs,
		 * quads and the eight of them combined */
		uint64_t d = (x - 0x3030303030303030ull) << (64 - 8 * len);
		d = (d * 10 + (d >> 8)) & 0x00FF00FF00FF00FFull;
		d = (d * 100 + (d >> 16)) & 0x0000FFFF0000FFFFull;
		d = (d * 10000 + (d >> 32)) & 0xFFFFFFFFull;
		*v = d;
		return p + len;
	}
	const uint8_t *s = p;
	uint64_t n = 0;
	unsigned d;
	while ((d = (unsigned)*p - '0') <= 9) {
		n = n * 10 + d;
		p++;
	}
	if (p - s > 18)
		return NULL;
	*v = n;
	return p;
}

/* The ARC line as the traces write it, "start n\n" to "start n x y\n" with single spaces:
 * 1 with the line consumed and its run in *start, *n; 0 (fast_line's turn) consuming nothing. */
int trace_arc_fast_parse(struct trace *t, uint64_t *start, uint64_t *n)
{
	const uint8_t *p = t->in.buf + t->in.pos;
	uint64_t x;
	if (!(p = arc_field(p, start)) || *p != ' ' || !(p = arc_field(p + 1, n)) || *n == 0 ||
	    *n > MAX_RUN)
		return 0;
	for (int k = 0; k < 2 && *p == ' '; k++)
		if (!(p = arc_field(p + 1, &x)))
			return 0;
	if (*p != '\n')
		return 0;
	t->in.pos = (size_t)(p + 1 - t->in.buf);
	t->line++;
	return 1;
}

/* trace_arc_fast_parse with its run queued; tried before fast_line. */
static int arc_fast_line(struct trace *t)
{
	uint64_t start, n;
	if (!trace_arc_fast_parse(t, &start, &n))
		return 0;
	trace_push_run(t, start, n, TRACE_READ);
	return 1;
}

int trace_read_text_record(struct trace *t)
{
	if (t->format == TRACE_FMT_ARC && arc_fast_line(t))
		return 1;
	if (t->format == TRACE_FMT_ARC || t->format == TRACE_FMT_LIRS || t->format == TRACE_FMT_TXT)
		if (fast_line(t, t->format == TRACE_FMT_ARC ? 4 : 1))
			return 1;
	for (;;) {
		char *s;
		size_t len;
		int r = tin_getline(&t->in, &s, &len);
		if (r < 0)
			return trace_fail(t, "%s", t->in.err);
		if (r == 0)
			return 0;
		t->line++;
		if (memchr(s, 0, len))
			return trace_fail(t, "NUL byte in a text trace");
		if (is_blank(s))
			continue;
		switch (t->format) {
		case TRACE_FMT_ARC:
			r = arc_line(t, s);
			break;
		case TRACE_FMT_LIRS:
		case TRACE_FMT_TXT:
			r = num_line(t, s);
			break;
		case TRACE_FMT_CSV:
			r = csv_line(t, s);
			break;
		case TRACE_FMT_LACKEY:
			r = lackey_line(t, s);
			break;
		default:
			return trace_fail(t, "internal: not a text format");
		}
		if (r)
			return r;
	}
}

/* libCacheSim oracleGeneral: packed little-endian { u32 time; u64 obj_id; u32 obj_size;
 * i64 next_access_vtime }. Only the object id matters to a page-reference replay. */
int trace_read_oracle_record(struct trace *t)
{
	long a = tin_want(&t->in, 24);
	if (a < 0)
		return trace_fail(t, "%s", t->in.err);
	if (a == 0)
		return 0;
	if (a < 24)
		return trace_fail(t, "truncated record (%ld of 24 bytes)", a);
	const uint8_t *p = t->in.buf + t->in.pos + 4;
	uint64_t id = 0;
	for (int i = 7; i >= 0; i--)
		id = id << 8 | p[i];
	t->in.pos += 24;
	t->record++;
	trace_push_run(t, id, 1, TRACE_READ);
	return 1;
}

static int lackey_like(const char *s)
{
	if ((s[0] == '=' && s[1] == '=') || (s[0] == '-' && s[1] == '-'))
		return 1;
	if (s[0] == 'I' && s[1] == ' ')
		return 1;
	return s[0] == ' ' && (s[1] == 'L' || s[1] == 'S' || s[1] == 'M') && s[2] == ' ';
}

enum trace_format trace_sniff_text(const char *buf, size_t len)
{
	int lines = 0, lackey = 0, one = 0, star = 0, arc = 0, comma = 0;
	size_t i = 0;
	while (i < len && lines < 32) {
		const char *s = buf + i;
		const char *nl = memchr(s, '\n', len - i);
		if (!nl)
			break; /* only whole lines count */
		size_t l = (size_t)(nl - s);
		i += l + 1;
		char line[256];
		if (l >= sizeof(line))
			return TRACE_FMT_AUTO;
		memcpy(line, s, l);
		line[l] = 0;
		if (l && line[l - 1] == '\r')
			line[l - 1] = 0;
		if (is_blank(line))
			continue;
		lines++;
		if (lackey_like(line)) {
			lackey++;
			continue;
		}
		if (strchr(line, ','))
			comma++;
		const char *p = skip_ws(line);
		if (*p == '*' && is_blank(p + 1)) {
			star++;
			continue;
		}
		uint64_t v;
		int fields = 0;
		while (*p) {
			const char *e = parse_dec(p, &v);
			if (!e || (*e && *e != ' ' && *e != '\t')) {
				fields = -1;
				break;
			}
			fields++;
			p = skip_ws(e);
		}
		if (fields == 1)
			one++;
		else if (fields == 4)
			arc++;
	}
	if (!lines)
		return TRACE_FMT_AUTO;
	if (lackey == lines)
		return TRACE_FMT_LACKEY;
	if (arc == lines)
		return TRACE_FMT_ARC;
	if (one + star == lines)
		return star ? TRACE_FMT_LIRS : TRACE_FMT_TXT;
	if (comma == lines)
		return TRACE_FMT_CSV;
	return TRACE_FMT_AUTO;
}
