/* Writer of mmsim's binary trace format (layout in trace_impl.h), optionally compressed. */
#include "trace/trace_impl.h"
#include "sim/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#define WBUF (1u << 17)

struct trace_writer {
	int fd, own_fd;
	char name[256];
	char err[320];
	int failed, ready;
	enum { W_PLAIN, W_ZSTD, W_GZIP } comp;
	ZSTD_CStream *zc;
	z_stream *zs;
	uint8_t *buf, *out;
	size_t len;
	struct pagemap map;
	uint32_t prev;
	uint64_t last_new, count;
};

static int wfail(struct trace_writer *w, const char *what)
{
	if (!w->failed)
		snprintf(w->err, sizeof(w->err), "%s: %s", w->name, what);
	w->failed = 1;
	return -1;
}

static int write_all(struct trace_writer *w, const uint8_t *p, size_t n)
{
	while (n) {
		ssize_t k = write(w->fd, p, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return wfail(w, strerror(errno));
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

/* Push buffered bytes through the compressor; end finishes the stream. */
static int drain(struct trace_writer *w, int end)
{
	if (w->failed)
		return -1;
	if (w->comp == W_PLAIN) {
		int r = write_all(w, w->buf, w->len);
		w->len = 0;
		return r;
	}
	if (w->comp == W_ZSTD) {
		ZSTD_inBuffer in = {w->buf, w->len, 0};
		for (;;) {
			ZSTD_outBuffer out = {w->out, WBUF, 0};
			size_t r = ZSTD_compressStream2(w->zc, &out, &in,
							end ? ZSTD_e_end : ZSTD_e_continue);
			if (ZSTD_isError(r))
				return wfail(w, ZSTD_getErrorName(r));
			if (write_all(w, w->out, out.pos))
				return -1;
			if (end ? r == 0 : in.pos == in.size)
				break;
		}
	} else {
		w->zs->next_in = w->buf;
		w->zs->avail_in = (uInt)w->len;
		for (;;) {
			w->zs->next_out = w->out;
			w->zs->avail_out = WBUF;
			int r = deflate(w->zs, end ? Z_FINISH : Z_NO_FLUSH);
			if (r == Z_STREAM_ERROR)
				return wfail(w, "deflate failed");
			if (write_all(w, w->out, WBUF - w->zs->avail_out))
				return -1;
			if (end ? r == Z_STREAM_END : w->zs->avail_in == 0)
				break;
		}
	}
	w->len = 0;
	return 0;
}

static struct trace_writer *wopen(int fd, const char *name, unsigned page_shift, int comp,
				  char *err, size_t errlen)
{
	struct trace_writer *w = xcalloc(1, sizeof(*w));
	w->fd = fd;
	w->own_fd = -1;
	snprintf(w->name, sizeof(w->name), "%s", name);
	w->comp = comp;
	w->buf = xmalloc(WBUF + 32);
	w->out = xmalloc(WBUF);
	pagemap_init(&w->map);
	if (comp == W_ZSTD) {
		w->zc = ZSTD_createCStream();
		if (!w->zc)
			goto oom;
		ZSTD_CCtx_setParameter(w->zc, ZSTD_c_compressionLevel, 3);
	} else if (comp == W_GZIP) {
		w->zs = xcalloc(1, sizeof(*w->zs));
		if (deflateInit2(w->zs, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
			goto oom;
	}
	memcpy(w->buf, MMT_MAGIC, 8);
	w->buf[8] = MMT_VERSION;
	w->buf[9] = (uint8_t)page_shift;
	memset(w->buf + 10, 0, 6);
	w->len = MMT_HDR;
	w->ready = 1;
	return w;
oom:
	snprintf(err, errlen, "%s: out of memory", name);
	w->own_fd = -1;
	trace_writer_close(w);
	return NULL;
}

struct trace_writer *trace_writer_open_fd(int fd, const char *name, unsigned page_shift,
					  int compress_zstd, char *err, size_t errlen)
{
	return wopen(fd, name, page_shift, compress_zstd ? W_ZSTD : W_PLAIN, err, errlen);
}

struct trace_writer *trace_writer_open(const char *path, unsigned page_shift, char *err,
				       size_t errlen)
{
	size_t l = strlen(path);
	int comp = W_PLAIN;
	if (l > 4 && !strcmp(path + l - 4, ".zst"))
		comp = W_ZSTD;
	else if (l > 3 && !strcmp(path + l - 3, ".gz"))
		comp = W_GZIP;
	if (!strcmp(path, "-"))
		return wopen(1, "<stdout>", page_shift, comp, err, errlen);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	struct trace_writer *w = wopen(fd, path, page_shift, comp, err, errlen);
	if (!w) {
		close(fd);
		return NULL;
	}
	w->own_fd = fd;
	return w;
}

static inline size_t put_varint(uint8_t *p, uint64_t v)
{
	size_t n = 0;
	while (v >= 0x80) {
		p[n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	p[n++] = (uint8_t)v;
	return n;
}

int trace_writer_put(struct trace_writer *w, uint64_t page, enum trace_kind kind)
{
	if (w->failed)
		return -1;
	int is_new;
	uint32_t id = pagemap_get(&w->map, page, &is_new);
	if (id == PAGEMAP_FAIL)
		return wfail(w, "out of memory for page ids");
	uint8_t *p = w->buf + w->len;
	if (is_new) {
		p += put_varint(p, 4u | (unsigned)kind);
		p += put_varint(p, zigzag((int64_t)(page - w->last_new)));
		w->last_new = page;
	} else {
		p += put_varint(p, zigzag((int64_t)id - (int64_t)w->prev) << 3 | (unsigned)kind);
	}
	w->prev = id;
	w->len = (size_t)(p - w->buf);
	w->count++;
	if (w->len >= WBUF)
		return drain(w, 0);
	return 0;
}

const char *trace_writer_error(const struct trace_writer *w)
{
	return w->err;
}

uint64_t trace_writer_count(const struct trace_writer *w)
{
	return w->count;
}

uint32_t trace_writer_distinct(const struct trace_writer *w)
{
	return w->map.n;
}

int trace_writer_close(struct trace_writer *w)
{
	if (!w)
		return 0;
	int rc = 0;
	if (w->ready)
		rc = drain(w, 1);
	if (w->failed)
		rc = -1;
	if (w->own_fd >= 0 && close(w->own_fd) && !rc)
		rc = -1;
	if (w->zc)
		ZSTD_freeCStream(w->zc);
	if (w->zs) {
		deflateEnd(w->zs);
		free(w->zs);
	}
	pagemap_free(&w->map);
	free(w->buf);
	free(w->out);
	free(w);
	return rc;
}
