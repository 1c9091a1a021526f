/* The slab shrinkers and shrink_slab (kernel-reclaim.md §1.18, 2.6.28 mm/vmscan.c), which
 * reclaim calls beside its LRU work; the dentry and inode caches register here
 * (src/mm/dcache.c, inode.c). */
#include "mm/vmscan.h"

#include <limits.h>

/* The registered shrinkers, in registration order (register_shrinker adds at the tail). */
static struct shrinker {
	shrink_fn shrink;
	int seeks;
	long nr; /* objects owed from earlier calls */
} shrinkers[4];
static int nr_shrinkers;

void register_shrinker(shrink_fn shrink, int seeks)
{
	if (nr_shrinkers < (int)ARRAY_SIZE(shrinkers))
		shrinkers[nr_shrinkers++] = (struct shrinker){shrink, seeks, 0};
}

void unregister_shrinkers(void)
{
	nr_shrinkers = 0;
}

/* shrink_slab (§1.18, 2.6.28): each cache is asked to scan its share of this pass's
 * pressure, 4 * scanned / seeks of every lru_pages + 1 pages' worth of its freeable
 * estimate, never more than twice that estimate, in batches of SHRINK_BATCH; what is less
 * than a batch is owed to the next call. Returns the estimate's drop: the "objects" the
 * shrinkers report. */
unsigned long shrink_slab(unsigned long scanned, unsigned gfp, unsigned long lru_pages)
{
	unsigned long ret = 0;
	if (scanned == 0)
		scanned = SWAP_CLUSTER_MAX;
	for (int i = 0; i < nr_shrinkers; i++) {
		struct shrinker *s = &shrinkers[i];
		unsigned long max_pass = (unsigned long)s->shrink(0, gfp);
		unsigned long long delta = (4ull * scanned) / (unsigned)s->seeks;
		delta *= max_pass;
		delta /= lru_pages + 1;
		s->nr += (long)delta;
		if (s->nr < 0)
			s->nr = (long)max_pass;
		if ((unsigned long)s->nr > max_pass * 2)
			s->nr = (long)(max_pass * 2);
		unsigned long total_scan = (unsigned long)s->nr;
		s->nr = 0;
		while (total_scan >= SHRINK_BATCH) {
			int nr_before = s->shrink(0, gfp);
			int shrink_ret = s->shrink(SHRINK_BATCH, gfp);
			if (shrink_ret == -1)
				break;
			if (shrink_ret < nr_before)
				ret += (unsigned long)(nr_before - shrink_ret);
			count_vm_events(SLABS_SCANNED, SHRINK_BATCH);
			total_scan -= SHRINK_BATCH;
			cond_resched();
		}
		s->nr += (long)total_scan;
	}
	return ret;
}

/* shrink_slab as 2.6.8 (mm/vmscan.c, v2.6.8): the same share of the pressure, but no floor
 * on `scanned`, no cap at twice the estimate (a wrap is clamped to LONG_MAX), nothing done
 * until more than SHRINK_BATCH is owed, and then all of it, 128 objects a call. */
unsigned long shrink_slab_268(unsigned long scanned, unsigned gfp, unsigned long lru_pages)
{
	for (int i = 0; i < nr_shrinkers; i++) {
		struct shrinker *s = &shrinkers[i];
		unsigned long long delta = (4ull * scanned) / (unsigned)s->seeks;
		delta *= (unsigned long)s->shrink(0, gfp);
		delta /= lru_pages + 1;
		s->nr += (long)delta;
		if (s->nr < 0)
			s->nr = LONG_MAX; /* "It wrapped!" */
		if (s->nr <= SHRINK_BATCH)
			continue;
		while (s->nr) {
			long this_scan = s->nr > 128 ? 128 : s->nr;
			int shrink_ret = s->shrink((int)this_scan, gfp);
			count_vm_events(SLABS_SCANNED, (unsigned long)this_scan);
			s->nr -= this_scan;
			if (shrink_ret == -1)
				break;
			cond_resched();
		}
	}
	return 0;
}
