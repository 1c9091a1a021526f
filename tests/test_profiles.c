/* The hardware profiles' socket costs follow SOCK_SPLIT: with the null system call and a
 * 100-byte copy, the model's whole write() is SOCK_WRITE_SHARE of a write and its read, the
 * share measured in v2.6.25-rc1's instructions (docs/hardware.md, "The socket message"). */
#include "hw/profile.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static void socket_write_share(void **state)
{
	(void)state;
	int n = 0;
	for (const char *const *name = hw_profile_names(); *name; name++, n++) {
		const struct hw_profile *hw = hw_profile_find(*name);
		assert_non_null(hw);
		double a = (double)hw->syscall_ns + (double)hw->page_copy_ns * 100 / hw->page_size;
		double w = a + (double)hw->sock_send_ns, r = a + (double)hw->sock_recv_ns;
		double share = w / (w + r);
		if (share - SOCK_WRITE_SHARE > 0.0005 || SOCK_WRITE_SHARE - share > 0.0005)
			fail_msg("%s: write share %.4f, want %.4f", *name, share, SOCK_WRITE_SHARE);
	}
	assert_true(n >= 7);
}

/* Every profile names its kernel's object sizes: sizeof(struct sk_buff) of the word size's
 * range (2.6.25 layouts: 152-160 bytes 32-bit, 192 64-bit, data/measured/skb_layout.txt) and
 * the per-task slab objects, a task_struct and an mm_struct at least. */
static void kernel_objects_named(void **state)
{
	(void)state;
	for (const char *const *name = hw_profile_names(); *name; name++) {
		const struct hw_profile *hw = hw_profile_find(*name);
		bool wide = hw_word_bytes(hw) == 8;
		if (hw->sk_buff_bytes < (wide ? 192u : 152u) ||
		    hw->sk_buff_bytes > (wide ? 192u : 160u))
			fail_msg("%s: sk_buff_bytes %u", *name, hw->sk_buff_bytes);
		if (!hw->task_objects || !hw->task_objects->task_struct ||
		    !hw->task_objects->mm_struct)
			fail_msg("%s: no task_objects", *name);
	}
}

/* KPATH: every path cost is its measured instructions at the profile's time per instruction
 * (the cited socket message over its instructions), to the nanosecond. */
static void kernel_paths_follow_kpath(void **state)
{
	(void)state;
	for (const char *const *name = hw_profile_names(); *name; name++) {
		const struct hw_profile *hw = hw_profile_find(*name);
		double k = hw_kpath_ns_per_insn(hw);
		const struct {
			const char *cost;
			sim_time_t ns;
			int insns;
		} paths[] = {
		    {"tick_ns", hw->tick_ns, KPATH_TICK_INSNS},
		    {"page_alloc_ns", hw->page_alloc_ns, KPATH_PAGE_ALLOC_INSNS},
		    {"page_free_ns", hw->page_free_ns, KPATH_PAGE_FREE_INSNS},
		    {"lru_add_ns", hw->lru_add_ns, KPATH_LRU_ADD_INSNS},
		    {"isolate_ns", hw->isolate_ns, KPATH_ISOLATE_INSNS},
		    {"scan_page_ns", hw->scan_page_ns, KPATH_SCAN_PAGE_INSNS},
		    {"rmap_pte_ns", hw->rmap_pte_ns, KPATH_RMAP_PTE_INSNS},
		    {"swap_alloc_ns", hw->swap_alloc_ns, KPATH_SWAP_ALLOC_INSNS},
		    {"io_submit_ns", hw->io_submit_ns, KPATH_IO_SUBMIT_INSNS},
		    {"copy_pte_ns", hw->copy_pte_ns, KPATH_COPY_PTE_INSNS},
		    {"zap_pte_ns", hw->zap_pte_ns, KPATH_ZAP_PTE_INSNS},
		};
		/* the fault too where no lmbench 2 figure prices it (profiles.c, [X86_64-PF]):
		 * every profile but the P3 and the ARM926, whose lat_pagefault is [P3-790]'s */
		bool lmbench2_fault = !strcmp(*name, "p3-2004") || !strcmp(*name, "arm926-2008");
		double fault = KPATH_FAULT_INSNS * k;
		if (!lmbench2_fault &&
		    ((double)hw->fault_ns - fault > 1.0 || fault - (double)hw->fault_ns > 1.0))
			fail_msg("%s: fault_ns = %llu, want %d insns x %.4f ns = %.1f", *name,
				 (unsigned long long)hw->fault_ns, KPATH_FAULT_INSNS, k, fault);
		/* the anonymous fault at the file fault's price per instruction, every profile */
		double anon = (double)hw->fault_ns * KPATH_ANON_FAULT_INSNS / KPATH_FAULT_INSNS;
		if ((double)hw->anon_fault_ns - anon > 1.0 ||
		    anon - (double)hw->anon_fault_ns > 1.0)
			fail_msg("%s: anon_fault_ns = %llu, want fault_ns x %d / %d = %.1f", *name,
				 (unsigned long long)hw->anon_fault_ns, KPATH_ANON_FAULT_INSNS,
				 KPATH_FAULT_INSNS, anon);
		/* and the old-PTE fault (ARM926's emulated young bit) */
		double mark = (double)hw->fault_ns * KPATH_PTE_FAULT_INSNS / KPATH_FAULT_INSNS;
		if ((double)hw->pte_fault_ns - mark > 1.0 || mark - (double)hw->pte_fault_ns > 1.0)
			fail_msg("%s: pte_fault_ns = %llu, want fault_ns x %d / %d = %.1f", *name,
				 (unsigned long long)hw->pte_fault_ns, KPATH_PTE_FAULT_INSNS,
				 KPATH_FAULT_INSNS, mark);
		/* and the swap-in paths */
		const struct {
			const char *cost;
			sim_time_t ns;
			int insns;
		} by_fault[] = {
		    {"swap_fault_ns", hw->swap_fault_ns, KPATH_SWAP_FAULT_INSNS},
		    {"swapin_ra_ns", hw->swapin_ra_ns, KPATH_SWAPIN_RA_INSNS},
		    {"swapin_page_ns", hw->swapin_page_ns, KPATH_SWAPIN_PAGE_INSNS},
		};
		/* the VIVT cache's page flush: the ARM926's counted, empty elsewhere */
		double flush = !strcmp(*name, "arm926-2008") ? KPATH_FLUSH_CACHE_PAGE_INSNS * k : 0;
		if ((double)hw->flush_cache_page_ns - flush > 1.0 ||
		    flush - (double)hw->flush_cache_page_ns > 1.0)
			fail_msg("%s: flush_cache_page_ns = %llu, want %.1f", *name,
				 (unsigned long long)hw->flush_cache_page_ns, flush);
		for (size_t i = 0; i < sizeof(by_fault) / sizeof(by_fault[0]); i++) {
			double want = (double)hw->fault_ns * by_fault[i].insns / KPATH_FAULT_INSNS;
			double got = (double)by_fault[i].ns;
			if (got - want > 1.0 || want - got > 1.0)
				fail_msg("%s: %s = %.0f, want fault_ns x %d / %d = %.1f", *name,
					 by_fault[i].cost, got, by_fault[i].insns,
					 KPATH_FAULT_INSNS, want);
		}
		for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
			double want = paths[i].insns * k, got = (double)paths[i].ns;
			if (got - want > 1.0 || want - got > 1.0)
				fail_msg("%s: %s = %.0f, want %d insns x %.4f ns = %.1f", *name,
					 paths[i].cost, got, paths[i].insns, k, want);
		}
	}
}

static int add_distinct(uint64_t *set, int n, uint64_t v)
{
	for (int k = 0; k < n; k++)
		if (set[k] == v)
			return n;
	set[n] = v;
	return n + 1;
}

/* x86-64's page-table pages above the PTE level, recomputed from each profile's user layout
 * on 4-level paging: the pgd, one pud page per pgd slot and one pmd page per pud slot that
 * the text (its first page), the first library page below mmap_base and the stack's top
 * page fall in. */
static void upper_tables_from_layout(void **state)
{
	(void)state;
	int checked = 0;
	for (const char *const *name = hw_profile_names(); *name; name++) {
		const struct hw_profile *hw = hw_profile_find(*name);
		if (hw->layout != LAYOUT_X86_64 || hw->page_size != 4096)
			continue;
		const uint64_t at[3] = {hw->elf_text_base, hw->mmap_base - 4096,
					hw->stack_top - 4096};
		uint64_t puds[3], pmds[3];
		int npud = 0, npmd = 0;
		for (int i = 0; i < 3; i++) {
			npud = add_distinct(puds, npud, at[i] >> 39); /* the pgd slot: a pud page */
			npmd = add_distinct(pmds, npmd, at[i] >> 30); /* the pud slot: a pmd page */
		}
		if ((int)hw->pt_upper_pages != 1 + npud + npmd)
			fail_msg("%s: pt_upper_pages %u, the layout gives 1 + %d + %d", *name,
				 hw->pt_upper_pages, npud, npmd);
		checked++;
	}
	assert_true(checked >= 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(socket_write_share),
	    cmocka_unit_test(kernel_paths_follow_kpath),
	    cmocka_unit_test(kernel_objects_named),
	    cmocka_unit_test(upper_tables_from_layout),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
