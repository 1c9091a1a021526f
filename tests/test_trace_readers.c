/* Trace readers on small fixtures written here (plain, zstd, gzip), the binary format's round
 * trip, format detection, and errors that name the line or record. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include <cmocka.h>

#include "trace/trace.h"

static char dir[256];

static const char *fixture(const char *name, const void *data, size_t len, const char *comp)
{
	static char path[512];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	if (!comp) {
		fwrite(data, 1, len, f);
	} else if (!strcmp(comp, "zstd")) {
		size_t cap = ZSTD_compressBound(len);
		void *out = malloc(cap);
		size_t n = ZSTD_compress(out, cap, data, len, 3);
		assert_false(ZSTD_isError(n));
		fwrite(out, 1, n, f);
		free(out);
	} else {
		fclose(f);
		gzFile g = gzopen(path, "wb");
		assert_non_null(g);
		assert_int_equal(gzwrite(g, data, (unsigned)len), (int)len);
		gzclose(g);
		return path;
	}
	fclose(f);
	return path;
}

/* Reads a whole trace into "page:kind page:kind ..." (kind r/w/x); returns trace_next's last
 * value (0 at a clean end, -1 on error) and the error text in err. */
static int slurp(const char *path, const struct trace_opts *o, char *out, size_t cap, char *err,
		 size_t errlen)
{
	struct trace *t = trace_open(path, o, err, errlen);
	out[0] = 0;
	if (!t)
		return -2;
	struct trace_ref r;
	int k;
	size_t len = 0;
	while ((k = trace_next(t, &r)) > 0) {
		assert_int_equal(trace_page_of(t, r.id), r.page);
		len += (size_t)snprintf(out + len, cap - len, "%s%llu:%c", len ? " " : "",
					(unsigned long long)r.page, "rwx"[r.kind]);
		assert_true(len < cap);
	}
	if (k < 0)
		snprintf(err, errlen, "%s", trace_error(t));
	trace_close(t);
	return k;
}

static void expect(const char *name, const char *text, const char *comp, enum trace_format fmt,
		   const char *want)
{
	char out[4096], err[1024];
	struct trace_opts o = {.format = fmt};
	const char *p = fixture(name, text, strlen(text), comp);
	int k = slurp(p, &o, out, sizeof(out), err, sizeof(err));
	if (k != 0)
		fail_msg("%s: %s", name, err);
	assert_string_equal(out, want);
}

static void expect_error(const char *name, const char *text, enum trace_format fmt,
			 const char *want_substr)
{
	char out[4096], err[1024];
	struct trace_opts o = {.format = fmt};
	const char *p = fixture(name, text, strlen(text), NULL);
	int k = slurp(p, &o, out, sizeof(out), err, sizeof(err));
	assert_true(k < 0);
	if (!strstr(err, want_substr))
		fail_msg("error '%s' does not contain '%s'", err, want_substr);
}

static void test_arc(void **state)
{
	(void)state;
	const char *t = "110765 3 0 0\n7 1 0 1\n110766 2 0 2\n";
	const char *want = "110765:r 110766:r 110767:r 7:r 110766:r 110767:r";
	expect("a.lis", t, NULL, TRACE_FMT_AUTO, want);
	expect("a.lis.zst", t, "zstd", TRACE_FMT_AUTO, want);
	expect("a.lis.gz", t, "gzip", TRACE_FMT_AUTO, want);
	/* detected from the content when the name says nothing */
	expect("noname", t, "zstd", TRACE_FMT_AUTO, want);
	expect_error("bad1.lis", "1 2 0 0\n5 x 0 1\n", TRACE_FMT_AUTO, "bad1.lis:2: field 2");
	expect_error("bad2.lis", "1 2 0 0\n\n5 0 0 1\n", TRACE_FMT_AUTO, ":3: block count 0");
	expect_error("bad3.lis", "1\n", TRACE_FMT_AUTO, ":1: expected");
	/* lines on both sides of the in-place parser's limits (18 digits, 4 fields, tabs, CR,
	 * blanks, a run of 2^24) read as the careful parser reads them */
	expect("edge.lis",
	       "\t5\t2\t\n 000000000000000000012 1 0 0 \r\n\n18446744073709551614 2\n"
	       "999999999999999999 1 0 0\n3 1 0 0",
	       NULL, TRACE_FMT_ARC,
	       "5:r 6:r 12:r 18446744073709551614:r 18446744073709551615:r "
	       "999999999999999999:r 3:r");
	expect_error("big.lis", "1 1\n2 1 0 0 9\n", TRACE_FMT_ARC, "big.lis:2: more than 4");
	expect_error("ovf.lis", "1 1\n18446744073709551615 2\n", TRACE_FMT_ARC,
		     "ovf.lis:2: block range overflows");
	expect_error("run.lis", "1 1\n1 16777217\n", TRACE_FMT_ARC, "run.lis:2: block count");
	expect_error("neg.lis", "1 1\n1 -1\n", TRACE_FMT_ARC, "neg.lis:2: field 2");
}

static void test_lirs_txt(void **state)
{
	(void)state;
	expect("l.trace", "5\n6\n*\n5\n  7  \n*\n", NULL, TRACE_FMT_AUTO, "5:r 6:r 5:r 7:r");
	expect("l.trace.gz", "5\n6\n*\n5\n", "gzip", TRACE_FMT_AUTO, "5:r 6:r 5:r");
	/* libCacheSim's sample ends without a newline; CRLF is accepted */
	expect("c.txt", "42932745\r\n42932746\n42932745", NULL, TRACE_FMT_AUTO,
	       "42932745:r 42932746:r 42932745:r");
	expect_error("s.txt", "1\n*\n", TRACE_FMT_AUTO, "s.txt:2: '*' marker");
	expect_error("n.trace", "1\n2\n-3\n", TRACE_FMT_AUTO, "n.trace:3:");
	expect_error("o.txt", "1\n99999999999999999999999\n", TRACE_FMT_AUTO, "o.txt:2:");
	expect("edge.txt", "000000000000000000000007\n\t8 \n18446744073709551615\n", NULL,
	       TRACE_FMT_TXT, "7:r 8:r 18446744073709551615:r");
	expect_error("two.txt", "1\n2 3\n", TRACE_FMT_TXT, "two.txt:2: expected one");
	/* a "*" makes the content look like LIRS */
	expect("unnamed", "3\n*\n4\n", NULL, TRACE_FMT_AUTO, "3:r 4:r");
}

static void test_csv(void **state)
{
	(void)state;
	expect("h.csv", "time,obj_id,obj_size\n1,100,4096\n2,200,4096\n3,100,512\n", NULL,
	       TRACE_FMT_AUTO, "100:r 200:r 100:r");
	expect("n.csv", "1,100,4096\n2,0x20,4096\n", NULL, TRACE_FMT_AUTO, "100:r 32:r");
	expect("k.csv", "op;key\nget;\"9\"\nset;10\n", NULL, TRACE_FMT_AUTO, "9:r 10:r");
	struct trace_opts o = {.format = TRACE_FMT_CSV, .csv_col = 3};
	char out[256], err[512];
	const char *p = fixture("c3.csv", "1\t2\t3\n4\t5\t6\n", 12, NULL);
	assert_int_equal(slurp(p, &o, out, sizeof(out), err, sizeof(err)), 0);
	assert_string_equal(out, "3:r 6:r");
	expect_error("e.csv", "a,b\n1,2\n", TRACE_FMT_AUTO, "no object id column");
	expect_error("f.csv", "t,id\n1,2\n3\n", TRACE_FMT_AUTO, "f.csv:3: csv line has 1 field");
	expect_error("g.csv", "t,id\n1,2\n3,abc\n", TRACE_FMT_AUTO, "g.csv:3:");
}

static void put_oracle(uint8_t *p, uint32_t time, uint64_t id, uint32_t size)
{
	memset(p, 0, 24);
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(time >> (8 * i));
	for (int i = 0; i < 8; i++)
		p[4 + i] = (uint8_t)(id >> (8 * i));
	for (int i = 0; i < 4; i++)
		p[12 + i] = (uint8_t)(size >> (8 * i));
}

static void test_oracle(void **state)
{
	(void)state;
	uint8_t buf[24 * 3 + 5];
	put_oracle(buf, 1, 77, 4096);
	put_oracle(buf + 24, 2, 1ull << 40, 4096);
	put_oracle(buf + 48, 3, 77, 4096);
	char out[256], err[512];
	const char *p = fixture("x.oracleGeneral.bin", buf, 72, "zstd");
	assert_int_equal(slurp(p, NULL, out, sizeof(out), err, sizeof(err)), 0);
	assert_string_equal(out, "77:r 1099511627776:r 77:r");
	p = fixture("t.oracleGeneral", buf, 77, NULL);
	assert_int_equal(slurp(p, NULL, out, sizeof(out), err, sizeof(err)), -1);
	assert_non_null(strstr(err, "record 4: truncated record (5 of 24 bytes)"));
}

static void test_lackey(void **state)
{
	(void)state;
	const char *t = "==123== Lackey, an example Valgrind tool\n"
			"--123-- some message\n"
			"I  04001000,3\n"
			" L 1ffefff000,8\n"
			" S 04002ffe,4\n"
			" M 0400a010,4\n"
			"I  04001003,2\n"
			"==123== \n";
	/* the store straddles pages 0x4002 and 0x4003; the modify is a read then a write */
	expect("p.lackey", t, NULL, TRACE_FMT_AUTO,
	       "16385:x 33550335:r 16386:w 16387:w 16394:r 16394:w 16385:x");
	expect("pipe-output", t, "zstd", TRACE_FMT_AUTO,
	       "16385:x 33550335:r 16386:w 16387:w 16394:r 16394:w 16385:x");
	struct trace_opts o = {.format = TRACE_FMT_LACKEY, .page_shift = 16};
	char out[256], err[512];
	const char *p = fixture("big.lackey", t, strlen(t), NULL);
	assert_int_equal(slurp(p, &o, out, sizeof(out), err, sizeof(err)), 0);
	assert_string_equal(out, "1024:x 2096895:r 1024:w 1024:r 1024:w 1024:x");
	expect_error("b.lackey", "I  0400,3\n X 0400,3\n", TRACE_FMT_LACKEY, "b.lackey:2:");
	expect_error("c.lackey", "I  zz,3\n", TRACE_FMT_LACKEY, "c.lackey:1: expected hex");
	expect_error("d.lackey", " L ffffffffffffffff,8\n", TRACE_FMT_LACKEY, "wraps");
}

static void test_mmsim_roundtrip(void **state)
{
	(void)state;
	char path[512], err[512];
	const char *names[] = {"r.mmt", "r.mmt.zst", "r.mmt.gz"};
	for (int k = 0; k < 3; k++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[k]);
		struct trace_writer *w = trace_writer_open(path, 12, err, sizeof(err));
		assert_non_null(w);
		uint64_t x = 12345;
		for (int i = 0; i < 300000; i++) {
			x = x * 6364136223846793005ull + 1442695040888963407ull;
			uint64_t page = i % 3 ? (x >> 50) : (uint64_t)i * 7 + (x >> 62);
			if (i == 5)
				page = UINT64_MAX;
			assert_int_equal(trace_writer_put(w, page, (enum trace_kind)(i % 3)), 0);
		}
		uint32_t nd = trace_writer_distinct(w);
		assert_int_equal(trace_writer_close(w), 0);
		struct trace *t = trace_open(path, NULL, err, sizeof(err));
		assert_non_null(t);
		assert_int_equal(trace_get_format(t), TRACE_FMT_MMSIM);
		assert_int_equal(trace_page_shift(t), 12);
		x = 12345;
		struct trace_ref r;
		for (int i = 0; i < 300000; i++) {
			x = x * 6364136223846793005ull + 1442695040888963407ull;
			uint64_t page = i % 3 ? (x >> 50) : (uint64_t)i * 7 + (x >> 62);
			if (i == 5)
				page = UINT64_MAX;
			assert_int_equal(trace_next(t, &r), 1);
			assert_int_equal(r.page, page);
			assert_int_equal(r.kind, i % 3);
		}
		assert_int_equal(trace_next(t, &r), 0);
		assert_int_equal(trace_distinct(t), nd);
		trace_close(t);
	}
	/* a text trace and its conversion give the same ids */
	const char *txt = "9\n3\n9\n4\n3\n";
	const char *tp = fixture("ids.txt", txt, strlen(txt), NULL);
	struct trace *a = trace_open(tp, NULL, err, sizeof(err));
	snprintf(path, sizeof(path), "%s/ids.mmt", dir);
	struct trace_writer *w = trace_writer_open(path, 0, err, sizeof(err));
	struct trace_ref r, s;
	while (trace_next(a, &r) > 0)
		trace_writer_put(w, r.page, (enum trace_kind)r.kind);
	trace_close(a);
	trace_writer_close(w);
	a = trace_open(tp, NULL, err, sizeof(err));
	struct trace *b = trace_open(path, NULL, err, sizeof(err));
	while (trace_next(a, &r) > 0) {
		assert_int_equal(trace_next(b, &s), 1);
		assert_int_equal(r.id, s.id);
		assert_int_equal(r.page, s.page);
	}
	assert_int_equal(trace_next(b, &s), 0);
	trace_close(a);
	trace_close(b);
}

static void test_mmsim_corrupt(void **state)
{
	(void)state;
	char err[512], out[256];
	uint8_t hdr[16] = {'M', 'M', 'S', 'I', 'M', 'T', 'R', 'C', 1, 12};
	uint8_t buf[64];
	memcpy(buf, hdr, 16);
	/* new page 5, then a reference to id 0, then one to id 3 (never seen) */
	buf[16] = 4;
	buf[17] = 10;
	buf[18] = 0;
	buf[19] = (uint8_t)((6u << 3) | 0);
	const char *p = fixture("c1.mmt", buf, 20, NULL);
	assert_int_equal(slurp(p, NULL, out, sizeof(out), err, sizeof(err)), -1);
	assert_non_null(strstr(err, "c1.mmt: record 3: reference to page id 3"));
	assert_string_equal(out, "5:r 5:r");
	buf[19] = 3; /* kind 3 */
	p = fixture("c2.mmt", buf, 20, NULL);
	assert_int_equal(slurp(p, NULL, out, sizeof(out), err, sizeof(err)), -1);
	assert_non_null(strstr(err, "record 3: invalid reference kind"));
	buf[19] = 0x84; /* truncated varint */
	p = fixture("c3.mmt", buf, 20, NULL);
	assert_int_equal(slurp(p, NULL, out, sizeof(out), err, sizeof(err)), -1);
	assert_non_null(strstr(err, "record 3: truncated record"));
	buf[8] = 9; /* version */
	p = fixture("c5.mmt", buf, 20, NULL);
	assert_int_equal(slurp(p, NULL, out, sizeof(out), err, sizeof(err)), -2);
	assert_non_null(strstr(err, "version 9"));
}

static void test_detection_and_errors(void **state)
{
	(void)state;
	char err[512], out[256];
	struct trace *t = trace_open("/nonexistent/x.lis", NULL, err, sizeof(err));
	assert_null(t);
	assert_non_null(strstr(err, "/nonexistent/x.lis: No such file"));
	const char *p = fixture("what", "hello world\n", 12, NULL);
	assert_int_equal(slurp(p, NULL, out, sizeof(out), err, sizeof(err)), -2);
	assert_non_null(strstr(err, "cannot tell the trace format"));
	/* --format wins over the name */
	struct trace_opts o = {.format = TRACE_FMT_ARC};
	p = fixture("really-arc.txt", "3 2 0 0\n", 8, NULL);
	assert_int_equal(slurp(p, &o, out, sizeof(out), err, sizeof(err)), 0);
	assert_string_equal(out, "3:r 4:r");
	/* corrupt compression is an error, not a crash */
	uint8_t z[] = {0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x01, 0x02, 0x03, 0x04};
	p = fixture("bad.lis.zst", z, sizeof(z), NULL);
	assert_true(slurp(p, NULL, out, sizeof(out), err, sizeof(err)) < 0);
	assert_non_null(strstr(err, "zstd"));
	uint8_t g[] = {0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0xff, 0xff};
	p = fixture("bad.trace.gz", g, sizeof(g), NULL);
	assert_true(slurp(p, NULL, out, sizeof(out), err, sizeof(err)) < 0);
	assert_non_null(strstr(err, "gzip"));
	/* a truncated zstd stream is reported */
	const char *txt = "1 1 0 0\n2 1 0 1\n";
	char zbuf[256];
	size_t zn = ZSTD_compress(zbuf, sizeof(zbuf), txt, strlen(txt), 3);
	p = fixture("trunc.lis.zst", zbuf, zn - 3, NULL);
	assert_true(slurp(p, NULL, out, sizeof(out), err, sizeof(err)) < 0);
	assert_non_null(strstr(err, "zstd"));
	/* an empty file has no references */
	p = fixture("empty.lis", "", 0, NULL);
	assert_int_equal(slurp(p, NULL, out, sizeof(out), err, sizeof(err)), 0);
	assert_string_equal(out, "");
	enum trace_format f;
	assert_int_equal(trace_format_parse("oracleGeneral", &f), 0);
	assert_int_equal(f, TRACE_FMT_ORACLE);
	assert_int_equal(trace_format_parse("nope", &f), -1);
}

static void test_long_lines_and_mem(void **state)
{
	(void)state;
	/* a line longer than the reader's limit is an error with its number */
	size_t n = (1u << 20) + 100;
	char *big = malloc(n + 16);
	memcpy(big, "1\n", 2);
	memset(big + 2, '7', n);
	big[n + 2] = '\n';
	char err[512];
	struct trace_opts o = {.format = TRACE_FMT_TXT};
	struct trace *t = trace_open_mem(big, n + 3, "mem", &o, err, sizeof(err));
	assert_non_null(t);
	struct trace_ref r;
	assert_int_equal(trace_next(t, &r), 1);
	assert_int_equal(trace_next(t, &r), -1);
	assert_non_null(strstr(trace_error(t), "line too long"));
	assert_int_equal(trace_next(t, &r), -1);
	trace_close(t);
	free(big);
}

/* The reader parses records ahead of the references it returns; an error far ahead still comes
 * after every reference of the lines above it, one at a time and in batches. */
static void test_error_after_lines(void **state)
{
	(void)state;
	char text[4096];
	size_t len = 0;
	uint64_t want = 0;
	for (int i = 1; i < 60; i++) {
		len += (size_t)snprintf(text + len, sizeof(text) - len, "%d %d 0 0\n", i * 40,
					i % 5 + 1);
		want += (uint64_t)(i % 5 + 1);
	}
	len += (size_t)snprintf(text + len, sizeof(text) - len, "7 x 0 0\n1 1 0 0\n");
	const char *p = fixture("late.lis", text, len, NULL);
	char err[512];
	for (size_t max = 0; max < 40; max += 13) {
		struct trace *t = trace_open(p, NULL, err, sizeof(err));
		assert_non_null(t);
		uint64_t got = 0, page = 0;
		struct trace_ref r;
		uint32_t ids[64];
		long k;
		if (max == 0) {
			while ((k = trace_next(t, &r)) > 0)
				got++, page = r.page;
		} else {
			while ((k = trace_next_batch(t, ids, NULL, max)) > 0)
				got += (uint64_t)k, page = trace_page_of(t, ids[k - 1]);
		}
		assert_int_equal(k, -1);
		assert_int_equal(got, want);
		assert_int_equal(page, 59 * 40 + 59 % 5);
		assert_int_equal(trace_count(t), want);
		assert_non_null(strstr(trace_error(t), "late.lis:60: field 2"));
		assert_int_equal(trace_next(t, &r), -1);
		assert_int_equal(trace_next_batch(t, ids, NULL, 8), -1);
		trace_close(t);
	}
}

/* Batches of any size give the pages trace_next gives, one by one, over ARC lines of every
 * shape the reader takes by a different path (the usual line, tabs, blank lines, runs longer
 * than a batch) while the page map grows past the size at which runs start to be parsed ahead
 * (PAGEMAP_HINT_BYTES): a batch maps them as it parses while the map is small, and through
 * the queue of runs once it is large. */
static void test_batch_matches_next(void **state)
{
	(void)state;
	enum { LINES = 30000 };
	char *text = malloc((size_t)LINES * 40);
	assert_non_null(text);
	size_t len = 0;
	uint64_t x = 12345;
	static const unsigned runs[] = {1, 1, 3, 9, 40, 100, 700};
	for (int i = 0; i < LINES; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		uint64_t start = (x >> 33) % 40000 * 32 + (x >> 20) % 8;
		unsigned n = runs[(x >> 12) % 7];
		const char *fmt = i % 7 == 3	? "%llu\t%u\n"
				  : i % 11 == 5 ? "%llu %u 0 17\n"
						: "%llu %u\n";
		len += (size_t)snprintf(text + len, 40, fmt, (unsigned long long)start, n);
		if (i % 13 == 0)
			text[len++] = '\n';
	}
	struct trace_opts o = {.format = TRACE_FMT_ARC};
	char err[512];
	struct trace *t = trace_open_mem(text, len, "mem", &o, err, sizeof(err));
	assert_non_null(t);
	uint64_t count = 0;
	struct trace_ref r;
	size_t cap = 1 << 20, n = 0;
	uint64_t *pages = malloc(cap * sizeof(*pages));
	uint32_t *ids = malloc(cap * sizeof(*ids));
	assert_non_null(pages);
	assert_non_null(ids);
	while (trace_next(t, &r) > 0) {
		if (n == cap) {
			cap *= 2;
			pages = realloc(pages, cap * sizeof(*pages));
			ids = realloc(ids, cap * sizeof(*ids));
			assert_non_null(pages);
			assert_non_null(ids);
		}
		pages[n] = r.page;
		ids[n++] = r.id;
	}
	count = trace_count(t);
	assert_int_equal(count, n);
	assert_true(trace_map_bytes(t) > (4u << 20)); /* past PAGEMAP_HINT_BYTES */
	trace_close(t);
	static const size_t maxes[] = {1, 7, 64, 4096};
	uint32_t *b = malloc(4096 * sizeof(*b));
	assert_non_null(b);
	for (size_t m = 0; m < sizeof(maxes) / sizeof(maxes[0]); m++) {
		t = trace_open_mem(text, len, "mem", &o, err, sizeof(err));
		assert_non_null(t);
		size_t at = 0;
		long k;
		while ((k = trace_next_batch(t, b, NULL, maxes[m])) > 0) {
			assert_true(at + (size_t)k <= n);
			for (long j = 0; j < k; j++, at++) {
				assert_int_equal(b[j], ids[at]);
				assert_int_equal(trace_page_of(t, b[j]), pages[at]);
			}
		}
		assert_int_equal(k, 0);
		assert_int_equal(at, n);
		assert_int_equal(trace_count(t), n);
		trace_close(t);
	}
	free(b);
	free(pages);
	free(ids);
	free(text);
}

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "%s/mmsim-trace-XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[400];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_arc),
	    cmocka_unit_test(test_lirs_txt),
	    cmocka_unit_test(test_csv),
	    cmocka_unit_test(test_oracle),
	    cmocka_unit_test(test_lackey),
	    cmocka_unit_test(test_mmsim_roundtrip),
	    cmocka_unit_test(test_mmsim_corrupt),
	    cmocka_unit_test(test_detection_and_errors),
	    cmocka_unit_test(test_long_lines_and_mem),
	    cmocka_unit_test(test_error_after_lines),
	    cmocka_unit_test(test_batch_matches_next),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
