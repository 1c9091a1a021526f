/* hackbench's per-worker footprint, measured on the real program and mapped to the
 * profile's page and word size.
 *
 * Measurement: tools/measure/hackbench.py, raw output data/measured/hackbench.txt (rt-tests
 * 2.4 hackbench, process mode, Linux 6.18 x86-64, glibc 2.36, 4 KiB pages, 40 to 800
 * workers): each worker's per-VMA Private_Dirty after fork with the parent stopped before
 * the start byte, the Referenced pages after clear_refs during the messaging, and the
 * slab objects per task from /proc/slabinfo deltas.
 *
 * Mapping rules (written down, not fitted; docs/throttle.md "hackbench model"):
 * - Private pages: per region (each region is its own mapping), the pages a region holds
 *   are ceil(bytes / PAGE_SIZE) of the bytes its dirty host pages span. At 4 KiB this is
 *   the host count; larger pages merge a region's pages (IA64 64 KiB: one per region). The
 *   count is not halved for 32-bit: the measurement is page-granular and does not show
 *   how many bytes of each page are written.
 * - IA64 adds its register backing store, a second stack every process writes
 *   (arch/ia64: IA64_RBS_OFFSET; the profile's register_backing_store).
 * - Slab: the object counts per task are the host's with two 2.6.25 rules: a forked child
 *   shares its parent's anon_vma (anon_vma_link in dup_mmap; anon_vma_chain came in
 *   2.6.34), and the VMA count is the 2008 layout's (below). Object sizes are the
 *   profile's task_objects: the ARM926's measured on a 2.6.25-rc1 boot, the others from
 *   the closest-era slabinfo found (profiles.c). */
#include "workloads/hackbench.h"

#include "hw/profile.h"

/* The regions a worker dirties after fork (host kB, one receiver + one sender, from the
 * `after_fork receiver/sender vma` lines at 20 groups) and the kB of them the messaging
 * loop references (`messaging ... vma` lines). libc's .data and .bss are one region: one
 * RW segment, its bss the anonymous tail. */
static const struct {
	uint32_t dirty_kb[2]; /* receiver, sender */
	uint32_t hot_kb[2];
} regions[] = {
    {{8, 4}, {4, 4}}, /* [heap]: malloc'd contexts */
    {{8, 8}, {4, 8}}, /* ld.so's mmap'd TLS block, dtv and struct pthread */
    {{8, 4}, {4, 4}}, /* libc .data + .bss */
    {{8, 8}, {0, 0}}, /* ld.so .data (link map, written at start-up) */
    {{4, 4}, {4, 4}}, /* [stack]: the message buffer */
};

/* Slab objects per task, 2.6.25 rules applied to the host counts. VMAs: the host's 28 slab
 * VMAs less the two r--p segments per ELF object (4 objects) that binutils' -z
 * separate-code (2018) adds and the vvar mappings (3.x/6.x): 18. Each worker also holds
 * one socket on average (a group's 20 socketpairs for 40 workers: 40 sockets). The objects'
 * sizes are the profile's (task_objects, profiles.c cites them). */
#define HACKBENCH_VMAS 18

static uint32_t pages_for(uint32_t kb, uint32_t page_size)
{
	return kb ? (kb * 1024 + page_size - 1) / page_size : 0;
}

static int mapped_pages(uint32_t page_size, bool rbs, bool hot)
{
	uint32_t sum = 0;
	for (size_t i = 0; i < sizeof(regions) / sizeof(regions[0]); i++)
		for (int k = 0; k < 2; k++)
			sum += pages_for(hot ? regions[i].hot_kb[k] : regions[i].dirty_kb[k],
					 page_size);
	/* mean of receiver and sender, halves rounded up */
	return (int)((sum + 1) / 2) + (rbs ? 1 : 0);
}

void hackbench_footprint(const struct hw_profile *hw, uint32_t page_size,
			 struct hackbench_params *p)
{
	if (!p->cow_pages)
		p->cow_pages = mapped_pages(page_size, hw->register_backing_store, false);
	if (!p->hot_pages)
		p->hot_pages = mapped_pages(page_size, hw->register_backing_store, true);
	if (p->hot_pages > p->cow_pages)
		p->hot_pages = p->cow_pages;
	if (!p->task_slab) {
		const struct task_slab_objects *s = hw->task_objects;
		uint64_t b = s->mm_struct + HACKBENCH_VMAS * s->vma + s->files + s->signal +
			     s->sighand + s->fs + s->sock + s->sock_inode + s->dentry + s->filp;
		if (!hw->task_struct_in_stack)
			b += s->task_struct;
		p->task_slab = b;
	}
}
