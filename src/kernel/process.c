/* Processes and the system calls of kernel/process.h: fork, clone of a thread, exit and wait
 * (kernel/fork.c, kernel/exit.c at the level the workloads need), mmap/munmap, touches,
 * file read/write/fsync, sleeps, and the fatal signal the OOM killer sends. */
#include "kernel/process.h"
#include "mm/shmem.h"
#include "sim/xalloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

/* A pid (PID_MAX_DEFAULT of them) is held from fork until the task is reaped: by its
 * parent's wait(), or by init for an orphan (release_task). The modelled user processes
 * are counted; the model's kernel threads (and the real system's other processes) are not. */

int sys_errno;
static unsigned long live_processes, nr_pids;
uint64_t nr_user_touches;
static struct process **all_procs;
static size_t nr_procs, cap_procs;
unsigned long nr_mmap_enomem;
char mmap_enomem_comm[16];

void kernel_reset(void)
{
	live_processes = 0;
	nr_pids = 0;
	nr_mmap_enomem = 0;
	mmap_enomem_comm[0] = 0;
	nr_user_touches = 0;
	nr_procs = 0;
}

void kernel_shutdown(void)
{
	for (size_t i = 0; i < nr_procs; i++) {
		free(all_procs[i]->zombies);
		free(all_procs[i]);
	}
	free(all_procs);
	all_procs = NULL;
	nr_procs = cap_procs = 0;
}

uint64_t kernel_touches(void)
{
	return nr_user_touches;
}

unsigned long nr_live_processes(void)
{
	return live_processes;
}

/* THREAD_SIZE of the modelled kernels as an allocation order: 8 KiB stacks are order-1 on
 * 4 KiB pages (alloc_thread_info: __get_free_pages(GFP_KERNEL, THREAD_SIZE_ORDER) on x86
 * and ARM); IA64's task_struct + stack block is KERNEL_STACK_SIZE_ORDER pages (2.6.28
 * arch/ia64/include/asm/ptrace.h: 3, 2, 1, 0 for 4, 8, 16, 64 KiB pages), one 64 KiB page
 * here. The profile's thread_size gives the bytes, the page size the order. */
static unsigned stack_order(void)
{
	return get_order(MM->hw->thread_size, MM->page_shift);
}

static void release_pid(struct process *p)
{
	p->reaped = true;
	nr_pids--;
}

/* copy_process links the child at the tail of its parent's children (add_parent's
 * list_add_tail, 2.6.24-2.6.26; list_add_tail(&p->sibling, ...) from 2.6.27): the list is
 * oldest first, the order do_wait and the OOM killer's child loop walk it in. */
static void link_child(struct process *parent, struct process *p)
{
	p->parent = parent;
	p->child_seq = parent->nr_linked++;
	p->sibling = NULL;
	p->sibling_prev = parent->children_tail;
	if (parent->children_tail)
		parent->children_tail->sibling = p;
	else
		parent->children = p;
	parent->children_tail = p;
}

static void unlink_child(struct process *parent, struct process *c)
{
	if (c->sibling_prev)
		c->sibling_prev->sibling = c->sibling;
	else
		parent->children = c->sibling;
	if (c->sibling)
		c->sibling->sibling_prev = c->sibling_prev;
	else
		parent->children_tail = c->sibling_prev;
	c->sibling = c->sibling_prev = NULL;
}

static void zombie_push(struct process *parent, struct process *c)
{
	if (parent->nr_zombies == parent->zombie_cap) { /* grows to the most zombies at once */
		parent->zombie_cap = parent->zombie_cap ? parent->zombie_cap * 2 : 16;
		parent->zombies =
		    xrealloc(parent->zombies, parent->zombie_cap * sizeof(*parent->zombies));
	}
	struct process **h = parent->zombies;
	uint32_t i = parent->nr_zombies++;
	while (i > 0 && h[(i - 1) / 2]->child_seq > c->child_seq) {
		h[i] = h[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h[i] = c;
}

static struct process *zombie_pop(struct process *parent)
{
	struct process **h = parent->zombies;
	struct process *top = h[0], *last = h[--parent->nr_zombies];
	uint32_t i = 0, n = parent->nr_zombies;
	for (;;) {
		uint32_t l = 2 * i + 1, r = l + 1, m = i;
		uint64_t best = last->child_seq;
		if (l < n && h[l]->child_seq < best) {
			m = l;
			best = h[l]->child_seq;
		}
		if (r < n && h[r]->child_seq < best)
			m = r;
		if (m == i)
			break;
		h[i] = h[m];
		i = m;
	}
	if (n)
		h[i] = last;
	return top;
}

static void process_exit_hook(struct task_struct *t)
{
	struct process *p = t->proc;
	struct mm_struct *mm = t->mm;
	if (mm && --mm->users == 0) {
		struct process *parent = p->parent;
		policy_mm_exit(mm, parent && !parent->exited ? parent->task->mm : NULL);
		exit_mmap(mm);
	}
	t->mm = NULL;
	task_set_mem_context(&t->task, 0); /* exit_mm: lazy TLB from here on */
	if (p->exit_files)		   /* do_exit: exit_files after exit_mm */
		p->exit_files(p->exit_files_arg);
	p->exit_files = NULL;
	if (p->stack != NO_PFN)
		free_kernel_pages(p->stack, p->stack_order);
	p->stack = NO_PFN;
	p->exited = true;
	live_processes--;
	/* Orphans go to init, which reaps them (and any zombie among them) at once. */
	for (struct process *c = p->children; c; c = c->sibling) {
		c->parent = NULL;
		if (c->exited && !c->reaped)
			release_pid(c);
	}
	if (!p->parent)
		release_pid(p);
	if (p->parent) {
		zombie_push(p->parent, p);
		wake_up_all(&p->parent->child_wait);
	}
}

static void process_entry(void *arg)
{
	struct process *p = arg;
	p->main(p->arg);
}

/* fork_init(num_physpages), 2.6.28 kernel/fork.c: max_threads is the number of threads
 * whose stacks would fill an eighth of memory, at least 20. */
static unsigned long max_threads(void)
{
	uint64_t per = 8 * (uint64_t)MM->hw->thread_size / MM->page_size;
	unsigned long n = (unsigned long)(MM->nr_frames / (per ? per : 1));
	return n < 20 ? 20 : n;
}

/* The first steps of copy_process (2.6.28 kernel/fork.c), before the mm is copied:
 * dup_task_struct's stack (-ENOMEM), then nr_threads >= max_threads (-EAGAIN; the
 * RLIMIT_NPROC test before it exempts root, and it is max_threads / 2 anyway). Threads are
 * counted as the pids held: the modelled processes, alive or not yet reaped. */
static struct process *process_alloc(void (*fn)(void *), void *arg)
{
	struct process *p = xcalloc(1, sizeof(*p));
	p->main = fn;
	p->arg = arg;
	if (nr_procs == cap_procs) {
		cap_procs = cap_procs ? cap_procs * 2 : 64;
		all_procs = xrealloc(all_procs, cap_procs * sizeof(*all_procs));
	}
	all_procs[nr_procs++] = p; /* freed with the others at shutdown */
	p->stack_order = stack_order();
	p->stack = alloc_kernel_pages(OWNER_STACK, GFP_KERNEL, p->stack_order);
	if (p->stack == NO_PFN) {
		sys_errno = ENOMEM;
		return NULL;
	}
	if (nr_pids >= max_threads()) {
		free_kernel_pages(p->stack, p->stack_order);
		p->stack = NO_PFN;
		sys_errno = EAGAIN;
		return NULL;
	}
	return p;
}

/* The rest of copy_process once the mm is there: alloc_pid() failing is -ENOMEM in 2.6.28
 * (the stack is given back, the caller drops the mm). */
static bool process_attach(struct process *p, const char *comm, struct mm_struct *mm)
{
	if (nr_pids >= PID_MAX_DEFAULT - 1) {
		free_kernel_pages(p->stack, p->stack_order);
		p->stack = NO_PFN;
		sys_errno = ENOMEM;
		return false;
	}
	nr_pids++;
	struct task_struct *t = task_struct_create(comm, process_entry, p, false);
	t->proc = p;
	t->mm = mm;
	task_set_mem_context(&t->task, mm ? mm->id : 0);
	t->on_exit = process_exit_hook;
	p->task = t;
	live_processes++;
	return true;
}

struct process *process_spawn(const char *comm, void (*fn)(void *), void *arg)
{
	struct process *p = process_alloc(fn, arg);
	if (!p)
		return NULL;
	struct mm_struct *mm = mm_alloc();
	if (!process_attach(p, comm, mm)) {
		exit_mmap(mm);
		return NULL;
	}
	mm->owner = p->task;
	struct process *parent = current_process();
	if (parent) {
		p->cap_effective = parent->cap_effective;
		link_child(parent, p);
	}
	task_start(&p->task->task);
	return p;
}

static struct process *do_fork(const char *comm, void (*fn)(void *), void *arg, bool thread)
{
	struct process *parent = current_process();
	cpu_work_sys(MM->hw->syscall_ns);
	struct process *p = process_alloc(fn, arg);
	if (!p) {
		check_fatal_signal();
		return NULL;
	}
	struct mm_struct *mm; /* copy_mm */
	if (thread) {
		mm = current->mm;
		mm->users++;
	} else {
		mm = dup_mm(current->mm);
		if (!mm) { /* dup_mmap's commit refused a copy */
			free_kernel_pages(p->stack, p->stack_order);
			p->stack = NO_PFN;
			sys_errno = ENOMEM;
			check_fatal_signal();
			return NULL;
		}
	}
	/* copy_process (2.6.28 kernel/fork.c): a signal that came while the child's stack and
	 * mm were allocated (the OOM killer choosing the parent, say) aborts the fork before
	 * the child joins the task list (-ERESTARTNOINTR); the child never runs. */
	bool killed = fatal_signal_pending(current);
	if (killed) {
		free_kernel_pages(p->stack, p->stack_order);
		p->stack = NO_PFN;
	}
	if (killed || !process_attach(p, comm, mm)) {
		if (thread)
			mm->users--;
		else
			exit_mmap(mm);
		check_fatal_signal();
		return NULL;
	}
	if (!thread)
		mm->owner = p->task;
	p->cap_effective = parent->cap_effective;
	link_child(parent, p);
	task_start(&p->task->task);
	check_fatal_signal();
	return p;
}

struct process *sys_fork(const char *comm, void (*fn)(void *), void *arg)
{
	return do_fork(comm, fn, arg, false);
}

struct process *sys_clone_thread(const char *comm, void (*fn)(void *), void *arg)
{
	return do_fork(comm, fn, arg, true);
}

_Noreturn void sys_exit(int code)
{
	current_process()->exit_code = code;
	task_exit();
}

_Noreturn void sys_exec(const char *comm, struct address_space *text, uint64_t *text_start,
			void (*fn)(void *), void *arg)
{
	struct task_struct *t = current;
	sched_exec(); /* do_execve's sched_balance_exec, before anything else */
	cpu_work_sys(MM->hw->exec_ns);
	struct mm_struct *old = t->mm;
	struct mm_struct *mm = mm_alloc();
	mm->oomkilladj = old ? old->oomkilladj : 0;
	mm->owner = t;
	t->mm = mm;
	task_set_mem_context(&t->task, mm->id); /* activate_mm */
	policy_mm_exec(old, mm);
	/* take_swap_token() also takes the parent's token: after fork the exec'ing mm is a
	 * fresh copy that never held it (kernel-reclaim.md §4.2) */
	struct process *parent = current_process() ? current_process()->parent : NULL;
	if (parent && !parent->exited && parent->task->mm && parent->task->mm != old)
		policy_mm_exec(parent->task->mm, mm);
	if (old && --old->users == 0)
		exit_mmap(old);
	snprintf(t->task.comm, sizeof(t->task.comm), "%s", comm);
	uint64_t start = 0;
	if (text)
		start =
		    do_mmap_area(mm, MAP_AREA_TEXT, text->size_pages, VM_READ | VM_EXEC, text, 0);
	if (text_start)
		*text_start = start;
	check_fatal_signal();
	fn(arg);
	sys_exit(0);
}

void check_fatal_signal(void)
{
	preempt_point(); /* every system call ends here: the return to user mode */
	if (fatal_signal_pending(current))
		sys_exit(137);
}

int sys_wait(int *code)
{
	struct process *me = current_process();
	cpu_work_sys(MM->hw->syscall_ns);
	for (;;) {
		/* do_wait walks the children, oldest first, to the first that exited: the
		 * oldest zombie. release_task: a reaped child leaves the parent's list. */
		if (me->nr_zombies) {
			struct process *c = zombie_pop(me);
			sched_exit(&c->task->task, &me->task->task);
			release_pid(c);
			unlink_child(me, c);
			if (code)
				*code = c->exit_code;
			return c->task->task.pid;
		}
		if (!me->children)
			return -1;
		sleep_on(&me->child_wait, 0, true);
		check_fatal_signal();
	}
}

static _Noreturn void mmap_enomem_exit(void)
{
	if (!nr_mmap_enomem++)
		snprintf(mmap_enomem_comm, sizeof(mmap_enomem_comm), "%s", current->task.comm);
	sys_exit(1);
}

/* mmap_region's "accountable": MAP_NORESERVE skips the check but in mode 2 (2.6.28). */
static bool map_accountable(unsigned prot)
{
	return !(prot & VM_NORESERVE) || MM->sysctl.overcommit_memory == OVERCOMMIT_NEVER;
}

/* mmap_region's accounting (mm/mmap.c, 2.6.28): a private writable mapping is checked
 * against vm_enough_memory and committed as VM_ACCOUNT (a shared anonymous one is
 * committed with its object, in sys_mmap_shared_anon); 0 and ENOMEM when it fails. */
static uint64_t map_area_try(enum map_area area, struct address_space *f, uint64_t pgoff,
			     uint64_t npages, unsigned prot)
{
	if ((prot & VM_WRITE) && !(prot & VM_SHARED) && map_accountable(prot)) {
		if (!vm_enough_memory(vm_commit_pages(npages))) {
			cpu_work_sys(MM->hw->syscall_ns);
			check_fatal_signal();
			sys_errno = ENOMEM;
			return 0;
		}
		prot |= VM_ACCOUNT; /* vma_free gives the pages back */
	}
	uint64_t start = do_mmap_area(current->mm, area, npages, prot, f, pgoff);
	check_fatal_signal();
	return start;
}

/* The programs modelled do not survive a refused mapping (malloc's NULL, glibc's abort,
 * cc1's "virtual memory exhausted"): the process exits 1, and the run counts it. */
uint64_t sys_map_area(enum map_area area, struct address_space *f, uint64_t pgoff, uint64_t npages,
		      unsigned prot)
{
	uint64_t start = map_area_try(area, f, pgoff, npages, prot);
	if (!start)
		mmap_enomem_exit();
	return start;
}

uint64_t sys_mmap_anon(uint64_t npages, unsigned prot)
{
	return sys_map_area(MAP_AREA_MMAP, NULL, 0, npages, prot);
}

uint64_t sys_mmap_anon_try(uint64_t npages, unsigned prot)
{
	return map_area_try(MAP_AREA_MMAP, NULL, 0, npages, prot);
}

uint64_t sys_mmap_file(struct address_space *f, uint64_t pgoff, uint64_t npages, unsigned prot)
{
	return sys_map_area(MAP_AREA_MMAP, f, pgoff, npages, prot);
}

uint64_t sys_mmap_shared_anon(uint64_t npages, unsigned prot)
{
	/* mmap_region marks every accountable shared mapping VM_ACCOUNT, writable or not, for
	 * shmem_file_setup's commit; the pages belong to the object, not the VMA */
	struct address_space *f = shmem_zero_setup(npages, map_accountable(prot) ? VM_ACCOUNT : 0);
	if (!f) {
		cpu_work_sys(MM->hw->syscall_ns);
		check_fatal_signal();
		mmap_enomem_exit();
	}
	return sys_map_area(MAP_AREA_MMAP, f, 0, npages, (prot & ~VM_NORESERVE) | VM_SHARED);
}

int sys_munmap(uint64_t start)
{
	int r = do_munmap(current->mm, start);
	check_fatal_signal();
	return r;
}

/* do_page_fault's answers: VM_FAULT_OOM kills the faulting task (2.6.28 "VM: killing
 * process"), a bad address is SIGSEGV. */
static _Noreturn void fault_kill(int result)
{
	if (result == -2)
		current_process()->oom_killed = true;
	sys_exit(result == -2 ? 137 : result == -3 ? 135 : 139); /* SIGKILL, SIGBUS, SIGSEGV */
}

void sys_touch_slow(uint64_t vpn, int kind)
{
	nr_user_touches++;
	int r = touch_page(current->mm, vpn, kind);
	if (r < 0) {
		if (fatal_signal_pending(current))
			sys_exit(137);
		fault_kill(r);
	}
	if (fatal_signal_pending(current))
		sys_exit(137);
}

void touch_set_update(struct touch_set *s)
{
	if (s->mm != current->mm || s->gen != current->mm->vma_gen)
		touch_set_find(current->mm, s);
}

void sys_compute(sim_time_t ns)
{
	cpu_work(ns);
	check_fatal_signal();
}

void sys_read(struct address_space *f, uint64_t pgoff, uint64_t npages)
{
	if (file_read(f, pgoff, npages) == -2 && !fatal_signal_pending(current))
		fault_kill(-2);
	check_fatal_signal();
}

void sys_write(struct address_space *f, uint64_t pgoff, uint64_t npages)
{
	int r = file_write(f, pgoff, npages);
	if (r == -2 && !fatal_signal_pending(current))
		fault_kill(-2);
	check_fatal_signal();
}

void sys_fsync(struct address_space *f)
{
	file_fsync(f);
	check_fatal_signal();
}

void sys_sleep(sim_time_t ns)
{
	struct waitqueue never = {0};
	sleep_on(&never, ns, true);
	check_fatal_signal();
}

/* ---- answers for the OOM killer ---- */

static unsigned long children_vm(struct task_struct *t, struct task_struct **child_with_own_mm)
{
	struct process *p = t->proc;
	unsigned long points = 0;
	if (child_with_own_mm)
		*child_with_own_mm = NULL;
	if (!p)
		return 0;
	for (struct process *c = p->children; c; c = c->sibling) {
		if (c->exited || !c->task->mm || c->task->mm == t->mm)
			continue;
		points += c->task->mm->total_vm / 2 + 1;
		if (child_with_own_mm && !*child_with_own_mm)
			*child_with_own_mm = c->task;
	}
	return points;
}

static void kill_task(struct task_struct *victim)
{
	victim->tif |= TIF_MEMDIE;
	struct mm_struct *mm = victim->mm;
	for_each_task(t) {
		if (t->task.state == TASK_DEAD)
			continue;
		if (t == victim || (mm && t->mm == mm))
			send_sigkill(t);
	}
	if (victim->proc)
		victim->proc->oom_killed = true;
}

static bool is_init(struct task_struct *t)
{
	return t->proc && t->proc->is_init;
}

static bool has_capability(struct task_struct *t, int cap)
{
	return t->proc && (t->proc->cap_effective >> cap & 1);
}

const struct mm_task_ops kernel_task_ops = {
    .children_vm = children_vm,
    .kill = kill_task,
    .is_init = is_init,
    .has_capability = has_capability,
};
