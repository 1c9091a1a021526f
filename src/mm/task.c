/* task_struct creation and exit (see task.h). */
#include "mm/task.h"

#include "sim/xalloc.h"

#include <stdlib.h>

static void task_struct_exit(struct task *t)
{
	struct task_struct *p = task_struct_of(t);
	p->flags |= PF_EXITING;
	if (p->on_exit)
		p->on_exit(p);
}

static void task_struct_free(struct task *t)
{
	free(task_struct_of(t));
}

struct task_struct *task_struct_create(const char *comm, void (*fn)(void *), void *arg,
				       bool kthread)
{
	struct task_struct *p = xcalloc(1, sizeof(*p));
	task_init(&p->task, comm, fn, arg);
	p->task.on_exit = task_struct_exit;
	p->task.release = task_struct_free;
	p->is_kthread = kthread;
	if (kthread)
		p->flags |= PF_KTHREAD;
	return p;
}
