/* The swap token as a reclaim policy: see swap_token.h for the variants. One global token, as in
 * the kernel; its lock is never contended here (one coroutine runs at a time), so every trylock
 * succeeds. */
#include "mm/policy/swap_token.h"

#include <string.h>

#define VM(f) offsetof(struct vm_sysctl, f)

#define SWAP_TOKEN_CHECK_INTERVAL (2 * NSEC_PER_SEC) /* 2*HZ (§4.1) */
#define TOKEN_AGING_INTERVAL	  0xFF		     /* global faults (§4.6) */

static struct {
	struct mm_struct *holder;    /* swap_token_mm; NULL is "init_mm", nobody */
	sim_time_t check;	     /* swap_token_check: next time a handoff may be tried */
	sim_time_t timeout;	     /* the holder's expiry */
	unsigned long global_faults; /* 2.6.20 */
	unsigned long last_aging;
	unsigned long handoffs;
} T;

static int variant(void)
{
	return MM->sysctl.swap_token;
}

static sim_time_t token_timeout(void)
{
	return (sim_time_t)MM->sysctl.swap_token_timeout * NSEC_PER_SEC;
}

struct mm_struct *swap_token_holder(void)
{
	return T.holder;
}

unsigned long swap_token_handoffs(void)
{
	return T.handoffs;
}

/* Con Kolivas' refractory bit: the first attempt after holding only clears the bit. */
static bool may_take(struct mm_struct *mm)
{
	if (MM->sysctl.swap_token_refractory && mm->token_refractory) {
		mm->token_refractory = false;
		return false;
	}
	return true;
}

static void give_token(struct mm_struct *mm)
{
	/* mm_struct pointers printed as the mm's id */
	trace_event(replace_swap_token,
		    "old_token_mm=%08x old_prio=%u new_token_mm=%08x new_prio=%u",
		    T.holder ? T.holder->id : 0, T.holder ? T.holder->token_priority : 0, mm->id,
		    mm->token_priority);
	T.holder = mm;
	T.handoffs++;
	if (MM->sysctl.swap_token_refractory)
		mm->token_refractory = true;
}

/* 2004 grab_swap_token (§4.1), with the 2.6.18-era timeout-0 rules (§4.4). */
static void grab_original(struct mm_struct *mm)
{
	sim_time_t now = local_now();
	if (!mm)
		return;
	if (mm == T.holder) {
		if (!token_timeout()) { /* timeout 0: the holder's own call disables the token */
			T.holder = NULL;
			return;
		}
		mm->recent_pagein = true;
		return;
	}
	if (now <= T.check)
		return;
	if (now < mm->swap_token_time) /* held it recently: not eligible */
		return;
	T.check = now + SWAP_TOKEN_CHECK_INTERVAL;
	if (!token_timeout())
		return; /* disabled: only push the check ahead */
	bool timed_out = false;
	if (T.holder) {
		bool enough_rss = !T.holder->recent_pagein;
		timed_out = !enough_rss && now > T.timeout;
		T.holder->recent_pagein = false;
		if (!enough_rss && !timed_out)
			return;
	}
	if (!may_take(mm))
		return;
	if (T.holder)
		T.holder->swap_token_time = now + (timed_out ? token_timeout() : 0);
	T.timeout = now + token_timeout();
	give_token(mm);
}

/* 2.6.20 grab_swap_token (§4.5), with KOSAKI's aging when switched on (§4.6). */
static void grab_priority(struct mm_struct *mm)
{
	if (!mm)
		return;
	T.global_faults++;
	unsigned long interval = T.global_faults - mm->faultstamp;
	if (!T.holder) {
		if (may_take(mm)) {
			mm->token_priority += 2;
			give_token(mm);
			T.last_aging = T.global_faults;
		}
		goto out;
	}
	if (MM->sysctl.swap_token_aging && T.global_faults - T.last_aging > TOKEN_AGING_INTERVAL) {
		T.holder->token_priority /= 2;
		T.last_aging = T.global_faults;
	}
	if (mm != T.holder) {
		if (interval < mm->last_interval)
			mm->token_priority++;
		else if (mm->token_priority)
			mm->token_priority--;
		if (mm->token_priority > T.holder->token_priority && may_take(mm)) {
			mm->token_priority += 2;
			give_token(mm);
			T.last_aging = T.global_faults;
		}
	} else {
		mm->token_priority += 2;
	}
out:
	mm->faultstamp = T.global_faults;
	mm->last_interval = interval;
}

void grab_swap_token_swapin_major(struct mm_struct *mm)
{
	if (variant() == SWAP_TOKEN_ORIGINAL || variant() == SWAP_TOKEN_FAULT)
		grab_original(mm);
}

void grab_swap_token_no_cached_page(struct mm_struct *mm)
{
	if (variant() == SWAP_TOKEN_ORIGINAL || variant() == SWAP_TOKEN_FAULT)
		grab_original(mm);
}

void grab_swap_token_before_swapin(struct mm_struct *mm)
{
	if (variant() == SWAP_TOKEN_PRIORITY)
		grab_priority(mm);
}

void put_swap_token(struct mm_struct *mm, struct mm_struct *parent_mm)
{
	if (!mm || mm != T.holder)
		return;
	if (MM->sysctl.swap_token_exec_inherit && parent_mm && variant() != SWAP_TOKEN_OFF) {
		/* Andrew Morton: back to the parent, which inherits the child's history */
		parent_mm->swap_token_time = mm->swap_token_time;
		parent_mm->recent_pagein = mm->recent_pagein;
		T.holder = parent_mm;
		return;
	}
	T.holder = NULL;
	T.check = local_now();
}

void swap_token_exec(struct mm_struct *old_mm, struct mm_struct *new_mm)
{
	if (MM->sysctl.swap_token_exec_inherit && old_mm && old_mm == T.holder)
		T.holder = new_mm; /* take_swap_token() on a successful exec */
}

/* 2.6.9 copy_mm copies the whole mm_struct (mm_init resets neither field): a child of a
 * task barred after a timeout is barred as long, and carries its recent_pagein. 2.6.20's
 * dup_mm then clears the priority history. */
void swap_token_fork(struct mm_struct *parent, struct mm_struct *child)
{
	child->swap_token_time = parent->swap_token_time;
	child->recent_pagein = parent->recent_pagein;
	child->faultstamp = parent->faultstamp;
	child->token_priority = 0;
	child->last_interval = 0;
}

/* page_referenced's +1 for the holder (§1.4 swap-token rule); rmap.c checks "not current". */
static bool token_referenced(struct mm_struct *mm)
{
	if (mm != T.holder)
		return false;
	if (variant() == SWAP_TOKEN_ORIGINAL)
		return true;
	return mm->in_fault; /* 2005 and later: only while it handles a fault */
}

/* __put_swap_token at reclaim priority 0 (2.6.20+) */
static void disable_swap_token(void)
{
	if (variant() == SWAP_TOKEN_PRIORITY)
		T.holder = NULL;
}

static void swap_token_boot(void)
{
	memset(&T, 0, sizeof(T));
}

static const char *const swap_token_variants[] = {"off", "original", "fault", "priority", NULL};

static const struct param_desc params[] = {
    {"vm.swap_token", P_ENUM, VM(swap_token), 0, 0, swap_token_variants,
     "swap token variant (Rik van Riel 2004, 2005 fault-only, 2.6.20 priority)"},
    {"vm.swap_token_timeout", P_INT, VM(swap_token_timeout), 0, 1000000, NULL,
     "seconds a holder keeps the token (original and fault variants; 0 disables)"},
    {"vm.swap_token_exec_inherit", P_INT, VM(swap_token_exec_inherit), 0, 1, NULL,
     "the token follows exec and returns to the parent at exit (Andrew Morton)"},
    {"vm.swap_token_refractory", P_INT, VM(swap_token_refractory), 0, 1, NULL,
     "a task that got the token skips its next turn (Con Kolivas)"},
    {"vm.swap_token_aging", P_INT, VM(swap_token_aging), 0, 1, NULL,
     "halve the holder's priority every 255 faults (KOSAKI, priority variant)"},
};

static void defaults(struct vm_sysctl *s)
{
	s->swap_token = SWAP_TOKEN_OFF;
	s->swap_token_timeout = 300; /* SWAP_TOKEN_TIMEOUT, sysctl default (§4.4) */
	s->swap_token_exec_inherit = 0;
	s->swap_token_refractory = 0;
	s->swap_token_aging = 0;
}

static bool active(const struct vm_sysctl *s)
{
	return s->swap_token != SWAP_TOKEN_OFF;
}

/* Always on while it existed (§4): Rik van Riel's token from 2.6.9 (the 2005 fault-only
 * tuning and 2.6.11's timeout 0 are not told apart here), Ashwin Chaugule's priority scheme
 * from 2.6.20 (7602bdf2fd14), removed for 3.5. KOSAKI's priority aging is absent from
 * mm/thrash.c at v2.6.33 and present in the 3.4 removal diff (§4.6); 2.6.34 is the
 * earliest release it can have been in. */
static const struct policy_release mainline[] = {
    {KERNEL_VERSION(2, 6, 9), KERNEL_VERSION(2, 6, 19), VM(swap_token), SWAP_TOKEN_ORIGINAL},
    {KERNEL_VERSION(2, 6, 20), KERNEL_VERSION(3, 4, 255), VM(swap_token), SWAP_TOKEN_PRIORITY},
    {KERNEL_VERSION(2, 6, 34), KERNEL_VERSION(3, 4, 255), VM(swap_token_aging), 1},
};

const struct reclaim_policy policy_swap_token = {
    .name = "swap-token",
    .summary = "token-based thrashing control: Rik van Riel 2004 (2.6.9), the 2005 fault-only "
	       "tuning, Ashwin Chaugule's priority scheme (2.6.20); removed in 3.5",
    .group = POLICY_GROUP_THRASHING,
    .params = params,
    .nparams = ARRAY_SIZE(params),
    .defaults = defaults,
    .active = active,
    .boot = swap_token_boot,
    .mainline = mainline,
    .nmainline = ARRAY_SIZE(mainline),
    .ops =
	{
	    .priority_zero = disable_swap_token,
	    .page_referenced = token_referenced,
	    .swapin_major = grab_swap_token_swapin_major,
	    .file_no_cached_page = grab_swap_token_no_cached_page,
	    .before_swapin = grab_swap_token_before_swapin,
	    .mm_exit = put_swap_token,
	    .mm_exec = swap_token_exec,
	    .mm_fork = swap_token_fork,
	},
};
