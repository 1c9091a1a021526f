/* Helpers shared by the tests: build a scenario from text, run it with the invariant
 * checker on, and read counters out of the result. */
#ifndef MMSIM_TESTS_TESTUTIL_H
#define MMSIM_TESTS_TESTUTIL_H

#include "workloads/scenario.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

/* Parses `text` (scenario syntax) over the defaults; fails the test on a parse error. */
void test_scenario(struct scenario_config *cfg, const char *text);
/* Runs with the invariant checker every `check_every` events and at the end; fails the
 * test if an invariant breaks. */
void test_run(const struct scenario_config *cfg, uint64_t seed, struct run_result *res);
uint64_t test_vmstat(const struct run_result *res, const char *name);
/* The workload's figure of merit `name`; fails the test if it has none. */
double test_metric(const struct run_result *res, const char *name);

/* Sum of the per-zone counters name_dma, name_dma32, name_normal, name_high. */
uint64_t test_vmstat_zones(const struct run_result *res, const char *name);

#endif

/* ---- a bare machine for unit tests of the mm core (no workload, no kernel threads) ---- */
#include "mm/mm.h"
#include "mm/vmscan.h"

/* Boots memory only: `ram` bytes on profile `profile`, `swap` bytes of swap, min_free_kbytes
 * as given (0 = computed). Unit tests call mm functions from scheduler context. */
void test_machine_boot(const char *profile, uint64_t ram, uint64_t swap, long min_free_kbytes);
/* The same, the sysctls as kernel `version` boots them (its era's rules from mm_init on). */
void test_machine_boot_kernel(const char *profile, uint64_t ram, uint64_t swap,
			      const char *version);
void test_machine_shutdown(void);
/* Victims the OOM killer chose on the bare machine (its kill op records them). */
extern struct task_struct *test_oom_killed[8];
extern int test_nr_oom_killed;
/* A zeroed task made current, so that the mm code's CPU charges land in its stime (undo
 * with set_current(NULL)). */
struct task_struct *test_charged_current(void);
/* A fresh page cache page of f at idx, on the inactive file list. */
pfn_t test_file_page(struct address_space *f, uint64_t idx);
/* A fresh anonymous page mapped at off in vma (PTE young/dirty as given), on the active
 * anon list; test_anon_page_lru puts it on `lru` (in 2.6.25 mode one pair of lists). */
pfn_t test_anon_page(struct vm_area_struct *vma, uint64_t off, bool young, bool dirty);
pfn_t test_anon_page_lru(struct vm_area_struct *vma, uint64_t off, bool young, bool dirty,
			 enum lru_list lru);
/* Maps an existing page at off in vma. */
void test_map(struct vm_area_struct *vma, uint64_t off, pfn_t pfn, bool young);
/* A frame is free when it is on a buddy list or a per-CPU list. */
/* Free: on a per-CPU list, or inside a free buddy block (only its head is marked). */
static inline bool test_page_free(pfn_t pfn)
{
	if (pfn_to_page(pfn)->flags & (PG_buddy | PG_pcp))
		return true;
	for (unsigned o = 1; o < MAX_ORDER; o++) {
		pfn_t head = pfn & ~(((pfn_t)1 << o) - 1);
		const struct page *h = pfn_to_page(head);
		if ((h->flags & PG_buddy) && h->private >= o)
			return true;
	}
	return false;
}
/* Free frames of a zone, per-CPU lists included (NR_FREE_PAGES counts only buddy pages). */
long test_zone_free(const struct zone *z);
long test_free_pages(void);
/* A scan_control as try_to_free_pages sets it up for a GFP_KERNEL direct reclaim, at the
 * given priority. */
struct scan_control test_direct_sc(int priority);
/* Takes a page off its LRU onto a reclaimer's private list, as isolate_lru_pages does. */
void test_isolate(pfn_t pfn, struct pagelist *list);
