/* Coroutines: each simulated task runs on its own small stack; only one runs at a time.
 * coro_switch saves the callee-saved registers of the current context and resumes another.
 * No locks, no threads: determinism comes from the scheduler deciding who runs next. */
#ifndef MMSIM_SIM_CORO_H
#define MMSIM_SIM_CORO_H

#include <stddef.h>

struct coro {
	void *sp;    /* saved stack pointer while suspended */
	void *stack; /* base of the mapping (NULL for the scheduler's own context) */
	size_t stack_size;
	void (*entry)(void *);
	void *arg;
	void *asan_fake; /* AddressSanitizer fiber bookkeeping */
	const void *asan_bottom;
	size_t asan_size;
};

/* Prepares co to run entry(arg) on a fresh stack of stack_size bytes the first time it is
 * switched to. entry must never return: it switches away for the last time instead. */
int coro_init(struct coro *co, size_t stack_size, void (*entry)(void *), void *arg);
void coro_destroy(struct coro *co);
/* Suspends from, resumes to. When `from` is finished for good, pass finishing = 1 so the
 * sanitizer can forget its stack. */
void coro_switch(struct coro *from, struct coro *to, int finishing);

#endif
