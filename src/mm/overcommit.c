/* __vm_enough_memory (mm/mmap.c, v2.6.28), the check a private writable mapping, a shared
 * anonymous one and fork's copy of each such mapping pass before any page is committed
 * (kernel-reclaim.md has no section on it: the source is the reference). */
#include "mm/mm.h"

/* calculate_totalreserve_pages (mm/page_alloc.c, v2.6.28): per zone its largest
 * lowmem_reserve plus pages_high, at most the zone's present pages. Computed when asked:
 * the watermarks change with vm.min_free_kbytes, and a check is rare. */
static unsigned long totalreserve_pages(void)
{
	unsigned long reserve = 0;
	for (int i = 0; i < MM->nr_zones; i++) {
		const struct zone *z = &MM->zones[i];
		unsigned long max = 0;
		for (int j = i; j < MM->nr_zones; j++)
			if (z->lowmem_reserve[j] > max)
				max = z->lowmem_reserve[j];
		max += z->pages_high;
		reserve += max > z->present_pages ? z->present_pages : max;
	}
	return reserve;
}

void vm_unacct_memory(uint64_t pages)
{
	MM->vm_committed_space -= (long)pages;
}

/* The guess: page cache, free swap and reclaimable slab count as free; the last 3 % of
 * each sum is root's. */
static bool guess_enough(uint64_t pages, bool admin)
{
	long cache = global_page_state(NR_FILE_PAGES) + global_page_state(NR_SLAB_RECLAIMABLE);
	uint64_t free = (uint64_t)(cache > 0 ? cache : 0) + MM->swap.nr_free;
	if (!admin)
		free -= free / 32;
	if (free > pages)
		return true;
	long nfree = global_page_state(NR_FREE_PAGES); /* nr_free_pages() */
	unsigned long reserve = MM->sysctl.overcommit_totalreserve ? totalreserve_pages() : 0;
	if (nfree <= 0 || (MM->sysctl.overcommit_totalreserve && (unsigned long)nfree <= reserve))
		return false;
	uint64_t n = (uint64_t)nfree - reserve;
	if (!admin)
		n -= n / 32;
	return free + n > pages;
}

/* OVERCOMMIT_NEVER: what is committed, this request included, stays below
 * vm.overcommit_ratio % of RAM (less root's 3 %) plus all of swap, less 1/32 of the
 * caller's address space "for other processes". 2.6.8's own rule is not in the sources
 * the model follows: every era gets 2.6.28's (docs/fidelity.md). */
static bool never_enough(bool admin)
{
	unsigned long allowed =
	    MM->totalram_pages * (unsigned long)MM->sysctl.overcommit_ratio / 100;
	if (!admin)
		allowed -= allowed / 32;
	allowed += MM->swap.nr_slots; /* total_swap_pages */
	if (current && current->mm)
		allowed -= current->mm->total_vm / 32;
	/* signed, as the kernel compares it: the subtraction may have wrapped */
	return MM->vm_committed_space < (long)allowed;
}

bool vm_enough_memory(uint64_t pages)
{
	MM->vm_committed_space += (long)pages; /* vm_acct_memory, before the check */
	if (MM->sysctl.overcommit_memory == OVERCOMMIT_ALWAYS)
		return true;
	bool admin = current && oom_capable(current, CAP_SYS_ADMIN);
	bool ok = MM->sysctl.overcommit_memory == OVERCOMMIT_NEVER ? never_enough(admin)
								   : guess_enough(pages, admin);
	if (!ok)
		vm_unacct_memory(pages);
	return ok;
}
