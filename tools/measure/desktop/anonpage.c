/* anonpage: push a process's anonymous pages to swap, and read back which are present.
 *
 *   anonpage out PID...   MADV_PAGEOUT (process_madvise, needs CAP_SYS_NICE) on every
 *                         private VMA of each PID that can hold anonymous pages: the
 *                         unnamed ones, [heap], [stack], and private file mappings with
 *                         copy-on-write pages (smaps Anonymous or Swap > 0)
 *   anonpage map [-w] PID one line per such VMA: start end perms name states, where states
 *                         is the state of each page run-length encoded ("12s3a1.", count
 *                         then state): a = present anonymous (pagemap bit 63, bit 61
 *                         clear), f = present file or shared (bits 63 and 61), s = swapped
 *                         (bit 62), . = neither; with -w, w = present anonymous and
 *                         soft-dirty (bit 55: written since `echo 4 > clear_refs`)
 *
 * A page swapped out by `out` and present again at `map` was touched in between (a swap-in
 * or a swap-cache hit maps only the faulting page: anonymous memory has no fault-around).
 * docs/desktop-measured.md, "Which anonymous pages". Build: cc -O2 -o anonpage anonpage.c */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif
#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_process_madvise
#define SYS_process_madvise 440
#endif

struct vma {
	uint64_t start, end;
	char perms[8];
	char name[512];
	long anon_kb, swap_kb;
};

/* The VMAs of pid that can hold anonymous pages; returns the count, *out malloc'd. */
static int anon_vmas(int pid, struct vma **out)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/smaps", pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	int n = 0, cap = 256;
	struct vma *v = malloc(sizeof(*v) * (size_t)cap), cur;
	int have = 0;
	char line[4096];
	while (fgets(line, sizeof(line), f)) {
		uint64_t s, e;
		char perms[8];
		int off = 0;
		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %7s %*s %*s %*s%n", &s, &e, perms,
			   &off) == 3 &&
		    off > 0) {
			if (have) {
				if (n == cap)
					v = realloc(v, sizeof(*v) * (size_t)(cap *= 2));
				v[n++] = cur;
			}
			memset(&cur, 0, sizeof(cur));
			cur.start = s;
			cur.end = e;
			snprintf(cur.perms, sizeof(cur.perms), "%s", perms);
			const char *p = line + off;
			while (*p == ' ')
				p++;
			snprintf(cur.name, sizeof(cur.name), "%s", p);
			cur.name[strcspn(cur.name, "\n")] = 0;
			have = 1;
		} else if (have && !strncmp(line, "Anonymous:", 10)) {
			cur.anon_kb = atol(line + 10);
		} else if (have && !strncmp(line, "Swap:", 5)) {
			cur.swap_kb = atol(line + 5);
		}
	}
	if (have) {
		if (n == cap)
			v = realloc(v, sizeof(*v) * (size_t)(cap *= 2));
		v[n++] = cur;
	}
	fclose(f);
	/* keep the private ones that can hold anonymous pages */
	int k = 0;
	for (int i = 0; i < n; i++) {
		const struct vma *x = &v[i];
		if (x->perms[3] != 'p' || !strcmp(x->name, "[vvar]") ||
		    !strcmp(x->name, "[vdso]") || !strcmp(x->name, "[vsyscall]") ||
		    !strcmp(x->name, "[vvar_vclock]"))
			continue;
		int unnamed = !x->name[0] || x->name[0] == '[';
		if (!unnamed && x->anon_kb == 0 && x->swap_kb == 0)
			continue;
		v[k++] = *x;
	}
	*out = v;
	return k;
}

static int cmd_out(int pid)
{
	struct vma *v;
	int n = anon_vmas(pid, &v);
	if (n < 0)
		return 1;
	int pfd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (pfd < 0) {
		perror("pidfd_open");
		free(v);
		return 1;
	}
	int fails = 0;
	for (int i = 0; i < n; i++) {
		struct iovec iov = {(void *)(uintptr_t)v[i].start, v[i].end - v[i].start};
		if (syscall(SYS_process_madvise, pfd, &iov, 1, MADV_PAGEOUT, 0) < 0 &&
		    errno != EINVAL)
			fails++;
	}
	close(pfd);
	free(v);
	if (fails)
		fprintf(stderr, "anonpage: pid %d: %d VMA(s) not paged out\n", pid, fails);
	return 0;
}

static int cmd_map(int pid, int softdirty)
{
	struct vma *v;
	int n = anon_vmas(pid, &v);
	if (n < 0)
		return 1;
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/pagemap", pid);
	int fd = open(path, O_RDONLY);
	if (fd < 0) {
		perror(path);
		free(v);
		return 1;
	}
	uint64_t *buf = NULL;
	size_t cap = 0;
	for (int i = 0; i < n; i++) {
		size_t np = (size_t)((v[i].end - v[i].start) / 4096);
		if (np > cap)
			buf = realloc(buf, (cap = np) * sizeof(*buf));
		ssize_t got = pread(fd, buf, np * 8, (off_t)(v[i].start / 4096 * 8));
		if (got != (ssize_t)(np * 8))
			continue; /* the VMA went away meanwhile */
		printf("%" PRIx64 " %" PRIx64 " %s %s ", v[i].start, v[i].end, v[i].perms,
		       v[i].name[0] ? v[i].name : "[anon]");
		char prev = 0;
		size_t run = 0;
		for (size_t p = 0; p <= np; p++) {
			char c = 0;
			if (p < np) {
				uint64_t e = buf[p];
				c = (e >> 63) & 1   ? ((e >> 61) & 1 ? 'f' : 'a')
				    : (e >> 62) & 1 ? 's'
						    : '.';
				if (c == 'a' && softdirty && (e >> 55) & 1)
					c = 'w';
			}
			if (c == prev) {
				run++;
				continue;
			}
			if (run)
				printf("%zu%c", run, prev);
			prev = c;
			run = 1;
		}
		putchar('\n');
	}
	close(fd);
	free(buf);
	free(v);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 3 || (strcmp(argv[1], "out") && strcmp(argv[1], "map"))) {
		fprintf(stderr, "usage: anonpage out PID... | anonpage map [-w] PID\n");
		return 2;
	}
	if (!strcmp(argv[1], "map")) {
		int w = !strcmp(argv[2], "-w");
		return argc > 2 + w ? cmd_map(atoi(argv[2 + w]), w) : 2;
	}
	int rc = 0;
	for (int i = 2; i < argc; i++)
		rc |= cmd_out(atoi(argv[i]));
	return rc;
}
