/* The floor under replay: decode, parse and map a trace to dense ids and nothing else, in the
 * plainest C that is still fast, sharing no code with mmsim's reader.
 *
 *   yardstick TRACE
 *
 * TRACE is an ARC .lis ("start n ..." lines, expanded to n blocks) or one number per line
 * (LIRS .trace, whose "*" lines are skipped, libCacheSim txt), plain, zstd or gzip (by magic).
 * Prints the reference count, the distinct pages and a checksum of the ids, so a run can be
 * checked against `mmsim replay` on the same trace. The map is an open-addressing table of
 * 32-page chunks with the ids inline (136 bytes per chunk touched): the fastest layout for
 * traces of runs, careless of memory on sparse ones. Input is not validated. */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#define SHIFT 5
struct ent {
	uint64_t key; /* chunk + 1; 0 = empty */
	uint32_t id1[1u << SHIFT];
};
static struct ent *tab;
static uint64_t mask, used, nids, refs, sum;

/* Zeroed, and from 1 MiB on (the table never is smaller: 2.2 MB) aligned to 2 MiB, whole 2 MiB
 * pages and transparent huge pages asked for, as mmsim allocates its large arrays (xbig_alloc
 * from 128 KiB on): a first touch of a small page
 * costs about 12 us on the benchmark VM, so the two must pay alike for memory for the ratio to
 * compare their code. */
static void *table_alloc(size_t bytes)
{
	if (bytes < (1u << 20))
		return calloc(1, bytes);
	size_t len = (bytes + (2u << 20) - 1) & ~(size_t)((2u << 20) - 1);
	void *p;
	if (posix_memalign(&p, 2u << 20, len))
		return NULL;
	madvise(p, len, MADV_HUGEPAGE);
	return memset(p, 0, len); /* as mmsim's when glibc's threshold is not fixed */
}

static void grow(void)
{
	uint64_t n = mask ? (mask + 1) * 2 : 1u << 14;
	struct ent *t = table_alloc(n * sizeof(*t));
	if (!t)
		exit(1);
	for (uint64_t i = 0; mask && i <= mask; i++)
		if (tab[i].key) {
			uint64_t h = (tab[i].key * 0x9e3779b97f4a7c15ull) >> 20;
			while (t[h & (n - 1)].key)
				h++;
			t[h & (n - 1)] = tab[i];
		}
	free(tab);
	tab = t;
	mask = n - 1;
}

static inline void map(uint64_t page)
{
	static struct ent *last;
	uint64_t key = (page >> SHIFT) + 1;
	struct ent *e = last;
	if (!e || e->key != key) {
		if (2 * (used + 1) > mask + 1)
			grow();
		uint64_t h = (key * 0x9e3779b97f4a7c15ull) >> 20;
		while (tab[h & mask].key && tab[h & mask].key != key)
			h++;
		e = &tab[h & mask];
		if (!e->key) {
			e->key = key;
			used++;
		}
		last = e;
	}
	uint32_t *v = &e->id1[page & ((1u << SHIFT) - 1)];
	if (!*v)
		*v = (uint32_t)++nids;
	sum += *v - 1;
	refs++;
}

/* Parse whole lines of buf[0..len); returns the bytes consumed. */
static size_t parse(const char *buf, size_t len, int arc)
{
	const char *p = buf, *end = buf + len;
	for (;;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			return (size_t)(p - buf);
		uint64_t f[2] = {0, 0};
		int k = 0;
		for (const char *s = p; s < nl && k < 2;) {
			while (s < nl && (*s == ' ' || *s == '\t'))
				s++;
			if (s == nl || (unsigned)(*s - '0') > 9)
				break;
			uint64_t v = 0;
			while ((unsigned)(*s - '0') <= 9)
				v = v * 10 + (unsigned)(*s++ - '0');
			f[k++] = v;
		}
		if (arc && k == 2)
			for (uint64_t i = 0; i < f[1]; i++)
				map(f[0] + i);
		else if (!arc && k == 1)
			map(f[0]);
		p = nl + 1;
	}
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: yardstick TRACE\n");
		return 2;
	}
	int fd = open(argv[1], O_RDONLY);
	if (fd < 0) {
		perror(argv[1]);
		return 2;
	}
	int arc = strstr(argv[1], ".lis") != NULL;
	enum { RAW = 1 << 17, OUT = 1 << 18 };
	static uint8_t raw[RAW];
	static char out[OUT + 1];
	size_t have = 0, rlen = 0, rpos = 0;
	ssize_t n = read(fd, raw, RAW);
	rlen = n > 0 ? (size_t)n : 0;
	int zst = rlen >= 4 && !memcmp(raw, "\x28\xb5\x2f\xfd", 4);
	int gz = rlen >= 2 && raw[0] == 0x1f && raw[1] == 0x8b;
	ZSTD_DStream *zd = zst ? ZSTD_createDStream() : NULL;
	z_stream zs;
	memset(&zs, 0, sizeof(zs));
	if (gz && inflateInit2(&zs, 15 + 16) != Z_OK)
		return 1;
	int eof = 0;
	for (;;) {
		if (rpos == rlen && !eof) {
			n = read(fd, raw, RAW);
			if (n <= 0)
				eof = 1;
			rlen = n > 0 ? (size_t)n : 0;
			rpos = 0;
		}
		size_t got;
		if (zst) {
			ZSTD_inBuffer in = {raw, rlen, rpos};
			ZSTD_outBuffer o = {out + have, OUT - have, 0};
			if (ZSTD_isError(ZSTD_decompressStream(zd, &o, &in)))
				return 1;
			rpos = in.pos;
			got = o.pos;
		} else if (gz) {
			zs.next_in = raw + rpos;
			zs.avail_in = (uInt)(rlen - rpos);
			zs.next_out = (Bytef *)out + have;
			zs.avail_out = (uInt)(OUT - have);
			int r = inflate(&zs, Z_NO_FLUSH);
			if (r == Z_STREAM_END)
				inflateReset(&zs);
			else if (r != Z_OK && r != Z_BUF_ERROR)
				return 1;
			rpos = rlen - zs.avail_in;
			got = OUT - have - zs.avail_out;
		} else {
			got = rlen - rpos < OUT - have ? rlen - rpos : OUT - have;
			memcpy(out + have, raw + rpos, got);
			rpos += got;
		}
		if (eof && !got)
			break; /* the decoder has nothing left either */
		have += got;
		size_t used_bytes = parse(out, have, arc);
		memmove(out, out + used_bytes, have - used_bytes);
		have -= used_bytes;
	}
	out[have++] = '\n';
	parse(out, have, arc);
	printf("%llu references, %llu distinct, id checksum %llu\n", (unsigned long long)refs,
	       (unsigned long long)nids, (unsigned long long)sum);
	if (zd)
		ZSTD_freeDStream(zd);
	if (gz)
		inflateEnd(&zs);
	close(fd);
	return 0;
}
