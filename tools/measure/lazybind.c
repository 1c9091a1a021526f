/* What lazy binding costs a forked child: the private pages of the program's own
 * writable mapping after the child's first calls of functions the parent never called.
 *
 * hackbench of 2008 was built with the toolchain defaults of its day: not PIE, lazy
 * binding, no RELRO. Its parent forks every worker before it first calls write(), read()
 * or poll(), so each worker's first call of each goes through the dynamic linker's
 * resolver, which stores the resolved address in the program's GOT (on IA64 the
 * function descriptor in .IA_64.pltoff): a write to the program's data segment, which
 * fork() shares copy-on-write. Debian's rt-tests hackbench is linked with -z now (BIND_NOW),
 * so the measurement of it (hackbench.py) cannot show this; this program does the same
 * sequence and is built both ways by lazybind.sh.
 *
 * It forks CHILDREN children; each calls write() and poll() once (never called by the
 * parent before the fork) and stops itself; the parent then reads each child's smaps and
 * prints, per mapping of the program's own file and the anonymous regions, the
 * Private_Dirty kB, summed over the children. */
#define _GNU_SOURCE
#include <poll.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define CHILDREN 20

static void child(int fd)
{
	char c = 0;
	struct pollfd p = {.fd = fd, .events = POLLOUT};
	if (poll(&p, 1, 0) < 0 || write(fd, &c, 1) != 1)
		_exit(1);
	raise(SIGSTOP);
	_exit(0);
}

/* Private_Dirty of each mapping of `self` (the program's file) in one child, kB */
static void scan(pid_t pid, const char *self, long *bin_rw, long *bin_ro, long *other, bool show)
{
	char path[64], line[512], name[256] = "";
	int rw = 0;
	snprintf(path, sizeof(path), "/proc/%d/smaps", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		unsigned long a, b;
		char perm[8];
		long kb;
		if (sscanf(line, "%lx-%lx %7s", &a, &b, perm) == 3) {
			char *slash = strchr(line, '/');
			char *br = strchr(line, '[');
			snprintf(name, sizeof(name), "%s", slash ? slash : br ? br : "");
			name[strcspn(name, "\n")] = 0;
			rw = perm[1] == 'w';
		} else if (sscanf(line, "Private_Dirty: %ld kB", &kb) == 1) {
			if (show && kb)
				printf("  first child: %s %s Private_Dirty %ld kB\n",
				       rw ? "rw" : "ro", *name ? name : "[anon]", kb);
			if (!strcmp(name, self))
				*(rw ? bin_rw : bin_ro) += kb;
			else
				*other += kb;
		}
	}
	fclose(f);
}

int main(int argc, char **argv)
{
	(void)argc;
	char self[256];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return 2;
	self[n] = 0;
	int fds[2];
	if (pipe(fds))
		return 2;
	pid_t pids[CHILDREN];
	for (int i = 0; i < CHILDREN; i++) {
		pids[i] = fork();
		if (pids[i] < 0)
			return 2;
		if (!pids[i])
			child(fds[1]);
	}
	long bin_rw = 0, bin_ro = 0, other = 0;
	for (int i = 0; i < CHILDREN; i++) {
		int st;
		if (waitpid(pids[i], &st, WUNTRACED) < 0 || !WIFSTOPPED(st))
			return 2;
		scan(pids[i], self, &bin_rw, &bin_ro, &other, i == 0);
	}
	printf("%s children %d program_rw_private_dirty_kB %.2f program_ro_private_dirty_kB "
	       "%.2f other_private_dirty_kB %.2f (per child)\n",
	       argv[0], CHILDREN, (double)bin_rw / CHILDREN, (double)bin_ro / CHILDREN,
	       (double)other / CHILDREN);
	for (int i = 0; i < CHILDREN; i++) {
		kill(pids[i], SIGKILL);
		waitpid(pids[i], NULL, 0);
	}
	return 0;
}
