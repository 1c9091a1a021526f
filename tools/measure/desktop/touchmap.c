/* touchmap: which pages of its file mappings a program touches, without the kernel's
 * fault-around (docs/desktop-measured.md, "Which pages").
 *
 * A read fault on a file mapping maps up to fault_around_bytes (64 KiB) of page-cache pages
 * around the faulting one (do_fault_around in mm/memory.c), so the pages present in a
 * process's page tables are a superset of the pages it touched. The kernel skips
 * fault-around on a VMA registered with userfaultfd in write-protect mode
 * (uffd_disable_fault_around); with UFFD_FEATURE_WP_ASYNC (Linux 6.7) any VMA can be so
 * registered and no write is ever trapped unless a page is write-protected, which this
 * library never does. (MADV_RANDOM does not disable fault-around on the measuring kernel,
 * 6.18: tested.) After registration, a present page is a page touched.
 *
 * Built twice from this file (pages.sh builds both):
 *  - touchmap_audit.so, -DTOUCHMAP_AUDIT, freestanding (no libc, so the audit namespace maps
 *    no second libc): LD_AUDIT. ld.so calls la_objopen after mapping each object (the
 *    program, every library it needs, every later dlopen) and before relocating it;
 *    every file VMA not yet registered is registered then.
 *  - touchmap.so: LD_PRELOAD. Registers each file mapping the program makes with mmap as it
 *    is made, catches up on glibc's own mappings (locale files, gconv) after setlocale,
 *    newlocale and iconv_open, and zaps on a signal (below).
 * A VMA found already mapped when it is registered ("catch-up") may have pages present that
 * fault-around brought in: they are written to $TOUCHMAP_DIR/pre.PID (one line per VMA:
 * start end pgoff perms path: file page ranges), and the VMA's page-table entries are
 * zapped (MADV_DONTNEED) if that loses nothing: a shared mapping, or a private one neither
 * writable nor holding an anonymous (copy-on-write) page. Whatever the program touches
 * after that faults in again, one page per fault. What was touched only before the
 * catch-up (ld.so's own start before the audit library is loaded, ld.so reading each
 * library's dynamic section and hash table before la_objopen, setlocale's reads) is lost
 * where the VMA was zapped, and kept with its fault-around neighbours where it was not.
 *
 * userfaultfd cannot register a shared mapping of a file opened read-only (no VM_MAYWRITE):
 * the mmap wrapper makes such mappings private (same pages, never written); the few glibc
 * makes itself (gconv-modules.cache) stay unregistered, with fault-around (pagemap.py's uw
 * column says which).
 *
 * At exit (TOUCHMAP_AT_EXIT set): the file VMAs' present pages, written by the process
 * itself (remote_pages.sh: the `firefox URL` client is gone before it could be read).
 *
 * Window switch (pages.sh): signal TOUCHMAP_SIG zaps every file VMA that can be zapped
 * losslessly (as above; this library's own excepted), from inside the process, with raw
 * system calls only and a signal return of its own, so the handler touches no page of any
 * other file; it writes the start address of each zapped VMA to $TOUCHMAP_DIR/zap.PID.
 * Present pages read afterwards are the pages touched since.
 *
 * Nothing here allocates or calls libc on those paths: static buffers, raw syscalls. */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>

#ifndef TOUCHMAP_AUDIT
#include <dlfcn.h>
#include <errno.h>
#include <sys/types.h>
#endif

#define TOUCHMAP_SIG 60 /* SIGRTMAX - 4: glibc keeps the first few, programs the low ones */

#define NR_read			 0
#define NR_write		 1
#define NR_open			 2
#define NR_close		 3
#define NR_mmap			 9
#define NR_rt_sigaction		 13
#define NR_rt_sigreturn		 15
#define NR_ioctl		 16
#define NR_pread64		 17
#define NR_madvise		 28
#define NR_getpid		 39
#define NR_fcntl		 72
#define NR_userfaultfd		 323
#define O_RDONLY_		 0
#define O_WRONLY_		 1
#define O_CREAT_		 0100
#define O_APPEND_		 02000
#define O_CLOEXEC_		 02000000
#define O_NONBLOCK_		 04000
#define MADV_DONTNEED_		 4
#define MAP_ANONYMOUS_		 0x20
#define UFFD_API_		 0xAAULL
#define UFFD_FEATURE_WP_ASYNC_	 (1ULL << 15)
#define UFFDIO_API_		 0xc018aa3fUL /* _IOWR(0xAA, 0x3F, struct uffdio_api) */
#define UFFDIO_REGISTER_	 0xc020aa00UL /* _IOWR(0xAA, 0x00, struct uffdio_register) */
#define UFFDIO_REGISTER_MODE_WP_ 2ULL

static long sc6(long n, long a, long b, long c, long d, long e, long f)
{
	long ret;
	register long r10 __asm__("r10") = d;
	register long r8 __asm__("r8") = e;
	register long r9 __asm__("r9") = f;
	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
			 : "rcx", "r11", "memory");
	return ret;
}
#define sc3(n, a, b, c) sc6(n, (long)(a), (long)(b), (long)(c), 0, 0, 0)

static void bzero_(void *p, size_t n)
{
	volatile char *c = p;
	while (n--)
		*c++ = 0;
}

#ifdef TOUCHMAP_AUDIT
/* the compiler may emit these for struct copies and zeroing; the audit build has no libc */
void *memset(void *d, int c, size_t n)
{
	volatile unsigned char *p = d;
	while (n--)
		*p++ = (unsigned char)c;
	return d;
}
void *memcpy(void *d, const void *s, size_t n)
{
	volatile unsigned char *p = d;
	const unsigned char *q = s;
	while (n--)
		*p++ = *q++;
	return d;
}
#endif

static size_t slen(const char *s)
{
	size_t n = 0;
	while (s[n])
		n++;
	return n;
}

static int has(const char *s, size_t n, const char *w)
{
	size_t m = slen(w);
	for (size_t i = 0; i + m <= n; i++) {
		size_t j = 0;
		while (j < m && s[i + j] == w[j])
			j++;
		if (j == m)
			return 1;
	}
	return 0;
}

/* --- output ------------------------------------------------------------------------ */

static char outdir[512];
static int outdir_read;

static void read_outdir(void)
{
	static char env[65536];
	if (outdir_read)
		return;
	outdir_read = 1;
	long fd = sc3(NR_open, "/proc/self/environ", O_RDONLY_ | O_CLOEXEC_, 0);
	if (fd < 0)
		return;
	long n = 0, r;
	while (n < (long)sizeof(env) - 1 &&
	       (r = sc3(NR_read, fd, env + n, sizeof(env) - 1 - n)) > 0)
		n += r;
	sc3(NR_close, fd, 0, 0);
	env[n < 0 ? 0 : n] = 0;
	const char *key = "TOUCHMAP_DIR=";
	size_t kl = slen(key);
	for (long i = 0; i < n;) {
		size_t l = slen(env + i);
		size_t j = 0;
		while (j < kl && env[i + j] == key[j])
			j++;
		if (j == kl && l - kl < sizeof(outdir) - 1) {
			for (size_t k = 0; k < l - kl; k++)
				outdir[k] = env[i + kl + k];
			outdir[l - kl] = 0;
			return;
		}
		i += (long)l + 1;
	}
}

struct buf {
	char *b;
	size_t n, cap;
};
#define BUF(name, size)                                                                            \
	char name##_mem[size];                                                                     \
	struct buf name = {name##_mem, 0, size}

static void put(struct buf *b, const char *s)
{
	while (*s && b->n < b->cap - 1)
		b->b[b->n++] = *s++;
}

static void putu(struct buf *b, uint64_t v, int base)
{
	char t[24];
	int i = 0;
	do {
		t[i++] = "0123456789abcdef"[v % (uint64_t)base];
		v /= (uint64_t)base;
	} while (v);
	while (i && b->n < b->cap - 1)
		b->b[b->n++] = t[--i];
}

/* Appends b to $TOUCHMAP_DIR/<name>.<pid> (one write: lines from two writers stay whole). */
static void emit(const char *name, struct buf *b)
{
	read_outdir();
	if (!outdir[0] || !b->n)
		return;
	BUF(p, 1024);
	put(&p, outdir);
	put(&p, "/");
	put(&p, name);
	put(&p, ".");
	putu(&p, (uint64_t)sc3(NR_getpid, 0, 0, 0), 10);
	p.b[p.n] = 0;
	long fd = sc3(NR_open, p.b, O_WRONLY_ | O_CREAT_ | O_APPEND_ | O_CLOEXEC_, 0644);
	if (fd < 0)
		return;
	sc3(NR_write, fd, b->b, b->n);
	sc3(NR_close, fd, 0, 0);
}

/* --- userfaultfd -------------------------------------------------------------------- */

static long uffd = -1;

static int uffd_open(void)
{
	if (uffd >= 0)
		return 1;
	if (uffd == -2)
		return 0;
	long fd = sc3(NR_userfaultfd, O_CLOEXEC_ | O_NONBLOCK_, 0, 0);
	struct {
		uint64_t api, features, ioctls;
	} api = {UFFD_API_, UFFD_FEATURE_WP_ASYNC_, 0};
	if (fd < 0 || sc3(NR_ioctl, fd, UFFDIO_API_, &api) < 0) {
		BUF(b, 256);
		put(&b, "userfaultfd unavailable: ");
		putu(&b, (uint64_t)(fd < 0 ? -fd : fd), 10);
		put(&b, "\n");
		emit("error", &b);
		if (fd >= 0)
			sc3(NR_close, fd, 0, 0);
		uffd = -2;
		return 0;
	}
	uffd = fd;
	return 1;
}

/* 0 on success, -EBUSY if another context (the other copy of this library) has it */
static long uffd_register(uint64_t start, uint64_t len)
{
	if (!uffd_open())
		return -1;
	struct {
		uint64_t start, len, mode, ioctls;
	} reg = {start, len, UFFDIO_REGISTER_MODE_WP_, 0};
	return sc3(NR_ioctl, uffd, UFFDIO_REGISTER_, &reg);
}

/* --- the process's VMAs -------------------------------------------------------------- */

static char smaps[16 << 20];

struct vma {
	uint64_t start, end, pgoff;
	char perms[5];
	const char *path; /* in smaps[], NUL-terminated in place */
	int uffd_wp;	  /* VmFlags has "uw" */
	int anon_kb;
};

static uint64_t hex(const char **p)
{
	uint64_t v = 0;
	for (;; (*p)++) {
		char c = **p;
		if (c >= '0' && c <= '9')
			v = v * 16 + (uint64_t)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v = v * 16 + (uint64_t)(c - 'a' + 10);
		else
			return v;
	}
}

static long read_smaps(void)
{
	long fd = sc3(NR_open, "/proc/self/smaps", O_RDONLY_ | O_CLOEXEC_, 0);
	if (fd < 0)
		return 0;
	long n = 0, r;
	while (n < (long)sizeof(smaps) - 1 &&
	       (r = sc3(NR_read, fd, smaps + n, sizeof(smaps) - 1 - n)) > 0)
		n += r;
	sc3(NR_close, fd, 0, 0);
	smaps[n] = 0;
	return n;
}

/* Calls f on every file VMA of smaps[0..n) that is not this library's. */
static void each_file_vma(long n, void (*f)(struct vma *))
{
	struct vma v;
	int have = 0;
	char *s = smaps, *end = smaps + n;
	while (s < end) {
		char *nl = s;
		while (nl < end && *nl != '\n')
			nl++;
		*nl = 0;
		const char *p = s;
		int header = 0;
		/* a header line starts with hex digits and a '-' */
		{
			const char *q = s;
			while ((*q >= '0' && *q <= '9') || (*q >= 'a' && *q <= 'f'))
				q++;
			header = q > s && *q == '-';
		}
		if (header) {
			if (have && v.path)
				f(&v);
			have = 1;
			bzero_(&v, sizeof(v));
			v.start = hex(&p);
			p++;
			v.end = hex(&p);
			p++;
			for (int i = 0; i < 4; i++)
				v.perms[i] = *p++;
			p++;
			v.pgoff = hex(&p) / 4096;
			p++;
			while (*p && *p != ' ') /* dev */
				p++;
			while (*p == ' ')
				p++;
			uint64_t ino = 0;
			while (*p >= '0' && *p <= '9')
				ino = ino * 10 + (uint64_t)(*p++ - '0');
			while (*p == ' ')
				p++;
			v.path = (ino && *p == '/' && !has(p, slen(p), "touchmap")) ? p : NULL;
		} else if (have) {
			if (s[0] == 'A' && has(s, 10, "Anonymous:")) {
				p = s + 10;
				while (*p == ' ')
					p++;
				while (*p >= '0' && *p <= '9')
					v.anon_kb = v.anon_kb * 10 + (*p++ - '0');
			} else if (s[0] == 'V' && has(s, 8, "VmFlags:")) {
				v.uffd_wp = has(s, (size_t)(nl - s), " uw");
			}
		}
		s = nl + 1;
	}
	if (have && v.path)
		f(&v);
}

static int zappable(const struct vma *v)
{
	if (v->perms[3] == 's')
		return 1;
	return v->perms[1] != 'w' && v->anon_kb == 0;
}

static long pagemap_fd = -1;

/* Present pages of v, appended to b (if not NULL) as file page ranges; returns how many,
 * and in *anon whether any is anonymous (a copy-on-write page). */
static uint64_t present(const struct vma *v, struct buf *b, int *anon)
{
	static uint64_t e[512];
	if (pagemap_fd < 0)
		pagemap_fd = sc3(NR_open, "/proc/self/pagemap", O_RDONLY_ | O_CLOEXEC_, 0);
	uint64_t n = 0, run = 0, first = 0;
	uint64_t pages = (v->end - v->start) / 4096;
	*anon = 0;
	for (uint64_t i = 0; i <= pages; i++) {
		if (i % 512 == 0 && i < pages) {
			uint64_t k = pages - i < 512 ? pages - i : 512;
			if (sc6(NR_pread64, pagemap_fd, (long)e, (long)(k * 8),
				(long)((v->start / 4096 + i) * 8), 0, 0) != (long)(k * 8))
				bzero_(e, sizeof(e));
		}
		int p = i < pages && (e[i % 512] >> 63 & 1);
		if (p) {
			n++;
			if (!(e[i % 512] >> 61 & 1))
				*anon = 1;
			if (!run++)
				first = v->pgoff + i;
		} else if (run) {
			if (b) {
				put(b, " ");
				putu(b, first, 10);
				if (run > 1) {
					put(b, "-");
					putu(b, first + run - 1, 10);
				}
			}
			run = 0;
		}
	}
	return n;
}

/* Catch-up: registers v if nobody has; records what was present; zaps if lossless. */
static void catch_up(struct vma *v)
{
	if (v->uffd_wp)
		return;
	BUF(b, 8192);
	putu(&b, v->start, 16);
	put(&b, " ");
	putu(&b, v->end, 16);
	put(&b, " ");
	putu(&b, v->pgoff, 10);
	put(&b, " ");
	put(&b, v->perms);
	put(&b, " ");
	put(&b, v->path);
	put(&b, ":");
	int anon;
	uint64_t n = present(v, &b, &anon);
	long r = uffd_register(v->start, v->end - v->start);
	if (r < 0)
		return; /* the other copy's, or no userfaultfd: nothing recorded */
	/* a one-page VMA's present page was touched (fault-around stays inside the VMA) */
	if (n && zappable(v) && !anon && v->end - v->start > 4096) {
		sc3(NR_madvise, v->start, v->end - v->start, MADV_DONTNEED_);
		put(&b, " zapped");
	}
	put(&b, "\n");
	if (n)
		emit("pre", &b);
}

/* A hash of /proc/self/maps: the catch-up reads smaps (which walks the page tables) only
 * when the mappings changed since the last one. */
static uint64_t maps_hash(void)
{
	static char b[65536];
	uint64_t h = 1469598103934665603ULL;
	long fd = sc3(NR_open, "/proc/self/maps", O_RDONLY_ | O_CLOEXEC_, 0), r;
	if (fd < 0)
		return 0;
	while ((r = sc3(NR_read, fd, b, sizeof(b))) > 0)
		for (long i = 0; i < r; i++)
			h = (h ^ (unsigned char)b[i]) * 1099511628211ULL;
	sc3(NR_close, fd, 0, 0);
	return h;
}

/* Off in firefox's child processes ("-contentproc" in argv): their seccomp sandbox traps
 * the system calls this library makes after start-up, and they are not measured. */
static int off = -1;

static int is_off(void)
{
	static char cmd[16384];
	if (off >= 0)
		return off;
	off = 0;
	long fd = sc3(NR_open, "/proc/self/cmdline", O_RDONLY_ | O_CLOEXEC_, 0), n = 0, r;
	if (fd < 0)
		return off;
	while (n < (long)sizeof(cmd) - 1 &&
	       (r = sc3(NR_read, fd, cmd + n, sizeof(cmd) - 1 - n)) > 0)
		n += r;
	sc3(NR_close, fd, 0, 0);
	for (long i = 0; i < n; i += (long)slen(cmd + i) + 1) {
		cmd[n] = 0;
		const char *a = cmd + i, *w = "-contentproc";
		size_t j = 0;
		while (w[j] && a[j] == w[j])
			j++;
		if (!w[j] && !a[j])
			off = 1;
	}
	return off;
}

static void catch_up_all(void)
{
	static uint64_t last;
	if (is_off())
		return;
	uint64_t h = maps_hash();
	if (h && h == last)
		return;
	long n = read_smaps();
	if (n)
		each_file_vma(n, catch_up);
	last = maps_hash(); /* registering splits nothing, but zapping and our reads are quiet */
}

#ifdef TOUCHMAP_AUDIT
/* --- LD_AUDIT --------------------------------------------------------------------- */
struct link_map;
unsigned int la_version(unsigned int v)
{
	return v; /* LAV_CURRENT of the ld.so that asks */
}

unsigned int la_objopen(struct link_map *map, long lmid, uintptr_t *cookie)
{
	(void)map;
	(void)lmid;
	(void)cookie;
	catch_up_all();
	return 0; /* no symbol binding auditing */
}
#else
/* --- LD_PRELOAD -------------------------------------------------------------------- */
static char zapped_mem[8192];
static struct buf zapped = {zapped_mem, 0, sizeof(zapped_mem)};

static void zap(struct vma *v)
{
	if (!zappable(v))
		return;
	int anon;
	if (present(v, NULL, &anon) && anon)
		return;
	/* mapped by glibc itself after the last catch-up: registered now, or if it cannot be (a
	 * shared read-only mapping glibc made) left alone: not measured rather than measured
	 * with fault-around */
	if (!v->uffd_wp && uffd_register(v->start, v->end - v->start) < 0)
		return;
	sc3(NR_madvise, v->start, v->end - v->start, MADV_DONTNEED_);
	putu(&zapped, v->start, 16);
	put(&zapped, "\n");
	if (zapped.n > zapped.cap - 64) {
		emit("zap", &zapped);
		zapped.n = 0;
	}
}

static void on_signal(int sig)
{
	(void)sig;
	zapped.n = 0;
	long n = read_smaps();
	if (n)
		each_file_vma(n, zap);
	put(&zapped, "done\n");
	emit("zap", &zapped);
}

/* At exit, with TOUCHMAP_AT_EXIT in the environment: every file VMA with its present pages,
 * as pagemap.py's columns from pid on, to $TOUCHMAP_DIR/exit.PID (remote_pages.sh: a
 * process that is gone before its page tables could be read from outside). */
static char exit_mem[4 << 20];
static struct buf exit_buf = {exit_mem, 0, sizeof(exit_mem)};
static int exit_dumped;

static void exit_vma(struct vma *v)
{
	struct buf *b = &exit_buf;
	char mem[16384];
	struct buf r = {mem, 0, sizeof(mem)};
	int anon;
	uint64_t n = present(v, &r, &anon);
	putu(b, (uint64_t)sc3(NR_getpid, 0, 0, 0), 10);
	put(b, ",");
	put(b, v->path);
	put(b, ",");
	put(b, v->perms);
	put(b, ",");
	putu(b, v->pgoff, 10);
	put(b, ",");
	putu(b, (v->end - v->start) / 4096, 10);
	put(b, v->uffd_wp ? ",1,-," : ",0,-,");
	putu(b, (uint64_t)v->anon_kb, 10);
	put(b, ",");
	putu(b, n, 10);
	put(b, ",-,");
	r.b[r.n] = 0;
	put(b, r.n ? r.b + 1 : ""); /* present() starts each range with a space */
	put(b, "\n");
}

static void dump_at_exit(void)
{
	static char env[65536];
	if (exit_dumped || is_off())
		return;
	exit_dumped = 1;
	long fd = sc3(NR_open, "/proc/self/environ", O_RDONLY_ | O_CLOEXEC_, 0), n = 0, r;
	if (fd < 0)
		return;
	while (n < (long)sizeof(env) - 1 &&
	       (r = sc3(NR_read, fd, env + n, sizeof(env) - 1 - n)) > 0)
		n += r;
	sc3(NR_close, fd, 0, 0);
	if (!has(env, (size_t)n, "TOUCHMAP_AT_EXIT="))
		return;
	long len = read_smaps();
	if (len)
		each_file_vma(len, exit_vma);
	emit("exit", &exit_buf);
}

__attribute__((destructor)) static void touchmap_fini(void)
{
	dump_at_exit();
}

void _exit(int status)
{
	dump_at_exit();
	sc3(231 /* exit_group */, status, 0, 0);
	for (;;)
		;
}

__attribute__((naked)) static void restorer(void)
{
	__asm__ volatile("mov $15, %eax\n\tsyscall");
}

__attribute__((constructor)) static void touchmap_init(void)
{
	struct {
		void (*handler)(int);
		unsigned long flags;
		void (*restorer)(void);
		uint64_t mask;
	} sa = {on_signal, 0x04000000UL /* SA_RESTORER */ | 0x10000000UL /* SA_RESTART */, restorer,
		~0ULL};
	if (is_off())
		return;
	sc6(NR_rt_sigaction, TOUCHMAP_SIG, (long)&sa, 0, 8, 0, 0);
	catch_up_all();
}

static void *map_and_register(void *addr, size_t len, int prot, int flags, int fd, long off)
{
	/* userfaultfd registers only a VMA that may be written (VM_MAYWRITE), which a shared
	 * mapping of a file opened read-only is not (fontconfig's caches, GLib's mime.cache):
	 * such a mapping is made private instead, which reads the same page-cache pages and,
	 * never written, stays the same */
	int type = flags & 0x0f;
	if ((type == 1 || type == 3) /* MAP_SHARED, MAP_SHARED_VALIDATE */ && !(prot & 2) &&
	    fd >= 0 && (sc3(NR_fcntl, fd, 3 /* F_GETFL */, 0) & 3) == 0 /* O_RDONLY */ && !is_off())
		flags = (flags & ~0x0f) | 2 /* MAP_PRIVATE */;
	long r = sc6(NR_mmap, (long)addr, (long)len, prot, flags, fd, off);
	if (r < 0 && r > -4096) {
		errno = (int)-r;
		return (void *)-1;
	}
	if (!(flags & MAP_ANONYMOUS_) && fd >= 0 && !is_off())
		uffd_register((uint64_t)r, (len + 4095) & ~4095UL);
	return (void *)r;
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	return map_and_register(addr, len, prot, flags, fd, (long)off);
}

void *mmap64(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	return map_and_register(addr, len, prot, flags, fd, (long)off);
}

/* glibc maps locale files and gconv's cache with its internal mmap: catch up after */
#define AFTER(ret, name, params, args)                                                             \
	ret name params                                                                            \
	{                                                                                          \
		static ret(*real) params;                                                          \
		if (!real)                                                                         \
			real = (ret(*) params)dlsym(RTLD_NEXT, #name);                             \
		ret r = real args;                                                                 \
		catch_up_all();                                                                    \
		return r;                                                                          \
	}
/* setlocale(c, NULL) only asks (most calls) and maps nothing */
char *setlocale(int c, const char *l)
{
	static char *(*real)(int, const char *);
	if (!real)
		real = (char *(*)(int, const char *))dlsym(RTLD_NEXT, "setlocale");
	char *r = real(c, l);
	if (l)
		catch_up_all();
	return r;
}
AFTER(void *, newlocale, (int m, const char *l, void *b), (m, l, b))
AFTER(void *, iconv_open, (const char *t, const char *f), (t, f))
#endif
