/* Token-based thrashing control, the swap token (kernel-reclaim.md §4; seed thread 003), in
 * the variants the threads discussed, chosen by vm.swap_token (the policy is swap_token.c;
 * this header is what the workloads' reports and the tests call):
 *   off       no token (mmsim's vanilla; note that real 2.6.28 ran the priority scheme)
 *   original  Rik van Riel's 2004 patch: handoff checked every 2 s, the holder keeps it
 *             until it stops paging in or vm.swap_token_timeout expires, and the holder's
 *             pages count as referenced for every other task's reclaim
 *   fault     Rik's 2005 tuning: as original, but the +1 only while the holder is in a
 *             page fault (its mmap_sem held)
 *   priority  Ashwin Chaugule's 2.6.20 scheme: per-mm priority from fault intervals,
 *             contended before swap-in, +1 while in a fault, disable_swap_token() at
 *             reclaim priority 0
 * and the refinements, each its own switch: vm.swap_token_exec_inherit (Andrew Morton: the
 * token follows exec and returns to the parent at exit), vm.swap_token_refractory (Con
 * Kolivas: a task that got the token skips its next turn), vm.swap_token_aging (KOSAKI's
 * 2.6.3x priority aging). */
#ifndef MMSIM_MM_POLICY_SWAP_TOKEN_H
#define MMSIM_MM_POLICY_SWAP_TOKEN_H

#include "mm/policy/policy.h"

enum swap_token_variant {
	SWAP_TOKEN_OFF,
	SWAP_TOKEN_ORIGINAL,
	SWAP_TOKEN_FAULT,
	SWAP_TOKEN_PRIORITY
};

/* The policy's hooks, exported for its tests; they do nothing for variants that do not use
 * that site. */
void grab_swap_token_swapin_major(struct mm_struct *mm);   /* a swap-in read started (2004/5) */
void grab_swap_token_no_cached_page(struct mm_struct *mm); /* filemap no_cached_page (2004/5) */
void grab_swap_token_before_swapin(struct mm_struct *mm);  /* before swap-in I/O (2.6.20) */

/* Exit and exec (the kernel layer tells): the holder's mm goes away, or is replaced. */
void put_swap_token(struct mm_struct *mm, struct mm_struct *parent_mm);
void swap_token_exec(struct mm_struct *old_mm, struct mm_struct *new_mm);
/* fork: the child's mm starts with no priority history (2.6.20). */
void swap_token_fork(struct mm_struct *parent, struct mm_struct *child);

struct mm_struct *swap_token_holder(void);
unsigned long swap_token_handoffs(void);

#endif
