/* Processes and the system-call-like API a workload's programs call: compute, touch pages,
 * mmap/munmap, file read/write/fsync, fork/thread/exit/wait, sleep. Each call runs the
 * simulated kernel path on the calling task and returns when the task may go on; a task
 * with a fatal signal pending (the OOM killer's SIGKILL) exits at the next call. */
#ifndef MMSIM_KERNEL_PROCESS_H
#define MMSIM_KERNEL_PROCESS_H

#include "mm/mm.h"

struct process {
	struct task_struct *task;
	struct process *parent;
	/* children: the oldest first, as copy_process's list_add_tail leaves p->children */
	struct process *children, *children_tail, *sibling;
	struct process *sibling_prev; /* the next older sibling, NULL at the head */
	uint64_t child_seq;	      /* order among its parent's children, newer larger */
	uint64_t nr_linked;	      /* children ever linked (the next child_seq) */
	/* Children that exited and are not yet reaped, a min-heap on child_seq: the oldest is
	 * the first that wait()'s walk of the children list (oldest first) meets, so wait()
	 * takes it without the walk. */
	struct process **zombies;
	uint32_t nr_zombies, zombie_cap;
	struct waitqueue child_wait; /* wait() sleeps here */
	int exit_code;
	bool exited, reaped;
	bool is_init;
	pfn_t stack; /* the kernel stack: one block of 2^stack_order pages, or NO_PFN */
	unsigned stack_order;
	void (*main)(void *arg);
	void *arg;
	bool oom_killed;
	/* exit_files: the program's open files are put when it exits, however it exits (a
	 * workload closes what it modelled as open; NULL: nothing) */
	void (*exit_files)(void *arg);
	void *exit_files_arg;
	/* effective capabilities (1 << CAP_*), inherited over fork; workloads run
	 * unprivileged (0) unless they say otherwise */
	uint32_t cap_effective;
};

/* Creates a process with a fresh mm running fn(arg) (boot-time init, or a workload's
 * launcher). Returns NULL when its kernel stack cannot be allocated. */
struct process *process_spawn(const char *comm, void (*fn)(void *), void *arg);

static inline struct process *current_process(void)
{
	return current ? current->proc : NULL;
}

/* include/linux/threads.h: pids run 1..pid_max-1 and pid_max is PID_MAX_DEFAULT unless
 * /proc/sys/kernel/pid_max is written. */
#define PID_MAX_DEFAULT 0x8000

/* The error of the last failed sys_fork/sys_clone_thread/process_spawn, as errno is for the
 * real call (2.6.28 copy_process): ENOMEM when no kernel stack can be had or no pid is left
 * below pid_max, EAGAIN when max_threads (fork_init: an eighth of memory in stacks) are
 * there already. */
extern int sys_errno;

/* fork(): the child gets a copy-on-write copy of the caller's mm and runs fn(arg). */
struct process *sys_fork(const char *comm, void (*fn)(void *), void *arg);
/* clone(CLONE_VM): a thread sharing the caller's mm. */
struct process *sys_clone_thread(const char *comm, void (*fn)(void *), void *arg);
_Noreturn void sys_exit(int code);
/* execve(): the caller's mm is replaced by a fresh one holding the program's text (a
 * private executable mapping of `text`, all of it), and the task goes on as fn(arg). The
 * address of the text mapping is passed back through *text_start before fn runs. */
_Noreturn void sys_exec(const char *comm, struct address_space *text, uint64_t *text_start,
			void (*fn)(void *), void *arg);
/* wait(): reaps one exited child; returns its pid, or -1 with no children left. */
int sys_wait(int *code);

/* A mapping in one area of the address space: exec's text segment, the data and brk heap
 * (MAP_AREA_BRK), the mmap area or the stack. sys_mmap_* map in the mmap area. */
uint64_t sys_map_area(enum map_area area, struct address_space *f, uint64_t pgoff, uint64_t npages,
		      unsigned prot);
uint64_t sys_mmap_anon(uint64_t npages, unsigned prot);
/* The same, returning 0 (sys_errno ENOMEM) where sys_mmap_anon would end the process:
 * for a caller that reports the failure itself (pthread_create's stack) */
uint64_t sys_mmap_anon_try(uint64_t npages, unsigned prot);
/* Processes that ended because vm.overcommit_memory refused a mapping, and the first one's
 * name: the run fails with them (workloads/run.c) */
extern unsigned long nr_mmap_enomem;
extern char mmap_enomem_comm[16];
uint64_t sys_mmap_file(struct address_space *f, uint64_t pgoff, uint64_t npages, unsigned prot);
/* mmap(MAP_SHARED | MAP_ANONYMOUS): a new shmem object (shmem_zero_setup) mapped VM_SHARED;
 * its pages are swap-backed page cache, and go with the last mapping */
uint64_t sys_mmap_shared_anon(uint64_t npages, unsigned prot);
int sys_munmap(uint64_t start);

/* A user-mode access to one page. Faults are handled; out of memory or a bad address
 * kills the task the way the kernel's fault handler does. Inline: the simulation's most
 * frequent call; what is not a plain hit on a present PTE goes to sys_touch_slow. */
void sys_touch_slow(uint64_t vpn, int kind);
extern uint64_t nr_user_touches; /* user-mode page accesses (kernel_touches) */
static inline void sys_touch(uint64_t vpn, int kind)
{
	if (!touch_page_fast(current->mm, vpn, kind)) {
		sys_touch_slow(vpn, kind);
		return;
	}
	nr_user_touches++;
	if (fatal_signal_pending(current))
		sys_exit(137);
}
/* sys_touch of each page of s in order, when all are hits inside the quantum (see
 * touch_set_fast); false, with nothing done, when they must be touched one by one. */
static inline bool sys_touch_set(const struct touch_set *s)
{
	/* a fatal signal ends the task after its first access: one by one does that */
	if (fatal_signal_pending(current) || !touch_set_fast(current->mm, s))
		return false;
	nr_user_touches += s->n;
	return true;
}
/* Finds s's PTEs in the caller's mm again if its VMAs changed since they were found. */
void touch_set_update(struct touch_set *s);
void sys_compute(sim_time_t ns);
void sys_read(struct address_space *f, uint64_t pgoff, uint64_t npages);
void sys_write(struct address_space *f, uint64_t pgoff, uint64_t npages);
void sys_fsync(struct address_space *f);
void sys_sleep(sim_time_t ns);

/* Exits the calling task if a fatal signal is pending. */
void check_fatal_signal(void);

/* Kernel-layer answers for the mm core (badness, kill). */
extern const struct mm_task_ops kernel_task_ops;

/* Machine lifecycle of this layer: forget every process (before boot), free them all
 * (after the scheduler is gone). */
void kernel_reset(void);
void kernel_shutdown(void);
/* User-mode page accesses made so far (for benchmarks). */
uint64_t kernel_touches(void);

/* Number of user processes that have not exited. */
unsigned long nr_live_processes(void);

#endif
