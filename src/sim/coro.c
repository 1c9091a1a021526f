/* Coroutine stacks and the context switch of coro.h: a hand-written save and restore of the
 * callee-saved registers for x86-64 and AArch64, annotated for AddressSanitizer's fibers. */
#include "sim/coro.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

#if defined(MMSIM_ASAN) || defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#define CORO_ASAN 1
#endif

/* The switch saves callee-saved registers on the old stack, stores its stack pointer,
 * loads the new one and pops the same registers: a plain function call from C's view.
 * On x86-64 the MXCSR and x87 control words are callee-saved too, but nothing in mmsim
 * changes the floating-point environment, so every stack has the same ones and the switch
 * leaves them alone (ldmxcsr and fldcw stall the pipeline on every switch). */
void mmsim_coro_swap(void **save_sp, void *load_sp);

#if defined(__x86_64__)
__asm__(".text\n"
	".globl mmsim_coro_swap\n"
	".type mmsim_coro_swap,@function\n"
	"mmsim_coro_swap:\n"
	"	pushq %rbp\n"
	"	pushq %rbx\n"
	"	pushq %r12\n"
	"	pushq %r13\n"
	"	pushq %r14\n"
	"	pushq %r15\n"
	"	movq %rsp, (%rdi)\n"
	"	movq %rsi, %rsp\n"
	"	popq %r15\n"
	"	popq %r14\n"
	"	popq %r13\n"
	"	popq %r12\n"
	"	popq %rbx\n"
	"	popq %rbp\n"
	"	ret\n"
	".size mmsim_coro_swap,.-mmsim_coro_swap\n"
	".section .note.GNU-stack,\"\",@progbits\n"
	".text\n");
#elif defined(__aarch64__)
__asm__(".text\n"
	".globl mmsim_coro_swap\n"
	".type mmsim_coro_swap,%function\n"
	"mmsim_coro_swap:\n"
	"	sub sp, sp, #176\n"
	"	stp x19, x20, [sp, #0]\n"
	"	stp x21, x22, [sp, #16]\n"
	"	stp x23, x24, [sp, #32]\n"
	"	stp x25, x26, [sp, #48]\n"
	"	stp x27, x28, [sp, #64]\n"
	"	stp x29, x30, [sp, #80]\n"
	"	stp d8, d9, [sp, #96]\n"
	"	stp d10, d11, [sp, #112]\n"
	"	stp d12, d13, [sp, #128]\n"
	"	stp d14, d15, [sp, #144]\n"
	"	mov x9, sp\n"
	"	str x9, [x0]\n"
	"	mov sp, x1\n"
	"	ldp x19, x20, [sp, #0]\n"
	"	ldp x21, x22, [sp, #16]\n"
	"	ldp x23, x24, [sp, #32]\n"
	"	ldp x25, x26, [sp, #48]\n"
	"	ldp x27, x28, [sp, #64]\n"
	"	ldp x29, x30, [sp, #80]\n"
	"	ldp d8, d9, [sp, #96]\n"
	"	ldp d10, d11, [sp, #112]\n"
	"	ldp d12, d13, [sp, #128]\n"
	"	ldp d14, d15, [sp, #144]\n"
	"	add sp, sp, #176\n"
	"	ret\n"
	".size mmsim_coro_swap,.-mmsim_coro_swap\n"
	".section .note.GNU-stack,\"\",%progbits\n"
	".text\n");
#else
#error "mmsim coroutines support x86-64 and AArch64"
#endif

/* The two ends of the switch in progress: the resumed side reads them to learn where it
 * came from (the sanitizer needs the bounds of stacks it did not allocate). */
static struct coro *switch_from, *switch_to;

static void coro_trampoline(void)
{
	struct coro *co = switch_to;
#ifdef CORO_ASAN
	struct coro *prev = switch_from;
	__sanitizer_finish_switch_fiber(NULL, &prev->asan_bottom, &prev->asan_size);
#endif
	co->entry(co->arg);
	fprintf(stderr, "mmsim: coroutine entry returned\n");
	abort();
}

int coro_init(struct coro *co, size_t stack_size, void (*entry)(void *), void *arg)
{
	void *stk = mmap(NULL, stack_size, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (stk == MAP_FAILED)
		return -1;
#ifdef CORO_ASAN
	/* A task that exited left its frames' redzones poisoned in the shadow of a stack
	 * that mmap may hand out again: start every stack clean. */
	__asan_unpoison_memory_region(stk, stack_size);
#endif
	co->stack = stk;
	co->stack_size = stack_size;
	co->entry = entry;
	co->arg = arg;
	co->asan_fake = NULL;
	uintptr_t top = ((uintptr_t)stk + stack_size) & ~(uintptr_t)15;
	uint64_t *sp = (uint64_t *)top;
#if defined(__x86_64__)
	/* After the pops and ret the trampoline sees a call-aligned stack (rsp % 16 == 8). */
	*--sp = 0;			   /* fake return address of the trampoline */
	*--sp = (uint64_t)coro_trampoline; /* ret target */
	for (int i = 0; i < 6; i++)
		*--sp = 0; /* rbp rbx r12..r15 */
#else
	sp -= 176 / 8;
	for (int i = 0; i < 176 / 8; i++)
		sp[i] = 0;
	sp[11] = (uint64_t)coro_trampoline; /* x30 */
#endif
	co->sp = sp;
	return 0;
}

void coro_destroy(struct coro *co)
{
	if (co->stack) {
#ifdef CORO_ASAN
		__asan_unpoison_memory_region(co->stack, co->stack_size);
#endif
		munmap(co->stack, co->stack_size);
	}
	co->stack = NULL;
}

void coro_switch(struct coro *from, struct coro *to, int finishing)
{
	switch_from = from;
	switch_to = to;
#ifdef CORO_ASAN
	const void *bottom = to->stack ? to->stack : to->asan_bottom;
	size_t size = to->stack ? to->stack_size : to->asan_size;
	__sanitizer_start_switch_fiber(finishing ? NULL : &from->asan_fake, bottom, size);
	mmsim_coro_swap(&from->sp, to->sp);
	struct coro *prev = switch_from;
	__sanitizer_finish_switch_fiber(from->asan_fake, &prev->asan_bottom, &prev->asan_size);
#else
	(void)finishing;
	mmsim_coro_swap(&from->sp, to->sp);
#endif
}
