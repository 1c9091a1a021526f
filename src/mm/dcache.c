/* The dentry cache's reclaim side, 2.6.28 fs/dcache.c: dput puts an unreferenced dentry on
 * the superblock's LRU (at its head, DCACHE_REFERENCED set); prune_dcache takes a share of
 * that LRU from its tail, giving referenced dentries a second chance, and frees the rest,
 * which drops their inode's last reference (dentry_iput -> iput). One superblock, so
 * prune_dcache's per-superblock share is the whole count. The shrinker's estimate is
 * nr_unused / 100 * vfs_cache_pressure, as shrink_dcache_memory returns it. */
#include "mm/fs.h"

#include "mm/file_lru.h"

#include "mm/slab.h"

#include <stddef.h>
#include <stdio.h>

struct dentry_stat dentry_stat;

static struct kmem_cache dentry_cache;
/* s_dentry_lru */
static struct file_lru d_lru = {.link = offsetof(struct address_space, d_lru)};

static void dentry_lru_add(struct address_space *f)
{
	file_lru_add_head(&d_lru, f);
	dentry_stat.nr_unused++;
}

void dcache_init(void)
{
	kmem_cache_init(&dentry_cache, "dentry", MM->hw->dentry_bytes, OWNER_SLAB_RECLAIMABLE);
	d_lru.head = d_lru.tail = NULL;
	dentry_stat = (struct dentry_stat){0};
}

void dcache_destroy(void)
{
	kmem_cache_destroy(&dentry_cache);
}

bool d_alloc(struct address_space *f)
{
	f->d_slab = kmem_cache_alloc(&dentry_cache, GFP_KERNEL);
	if (f->d_slab == NO_PFN)
		return false;
	f->d_count = 1;
	dentry_stat.nr_dentry++;
	return true;
}

void dput(struct address_space *f)
{
	if (f->d_slab == NO_PFN || f->d_count <= 0)
		return;
	if (--f->d_count)
		return;
	if (!f->d_lru.on) {
		f->d_referenced = true;
		dentry_lru_add(f);
	}
}

/* prune_one_dentry / d_kill: the dentry goes back to its slab, its inode loses the
 * reference the dentry held. */
static void d_kill(struct address_space *f)
{
	kmem_cache_free(&dentry_cache, f->d_slab);
	f->d_slab = NO_PFN;
	dentry_stat.nr_dentry--;
	iput_final(f);
}

/* __shrink_dcache_sb(sb, &count, DCACHE_REFERENCED): from the tail, referenced dentries
 * lose the flag and are set aside (they return to the head of the LRU in the order met);
 * the others are taken until count of them is reached, then freed unless in use. Returns
 * how many of count were left. */
static int shrink_dcache_sb(int count)
{
	struct file_lru referenced = {.link = d_lru.link}, tmp = {.link = d_lru.link};
	while (d_lru.tail) {
		struct address_space *f = d_lru.tail;
		file_lru_del(&d_lru, f);
		if (f->d_referenced) {
			f->d_referenced = false;
			file_lru_add_tail(&referenced, f);
			continue;
		}
		file_lru_add_tail(&tmp, f);
		if (!--count)
			break;
	}
	while (tmp.tail) { /* dentry_lru_del_init, then prune_one_dentry unless in use */
		struct address_space *f = tmp.tail;
		file_lru_del(&tmp, f);
		dentry_stat.nr_unused--;
		if (f->d_count == 0)
			d_kill(f);
	}
	file_lru_splice_head(&referenced, &d_lru);
	return count;
}

/* prune_dcache(count) with one superblock: the share is unused / (unused / count) + 1
 * dentries, or all of them when count reaches the unused total. */
static void prune_dcache(int count)
{
	long unused = dentry_stat.nr_unused;
	if (unused == 0 || count == 0)
		return;
	long prune_ratio = count >= unused ? 1 : unused / count;
	long w_count = prune_ratio != 1 ? unused / prune_ratio + 1 : unused;
	shrink_dcache_sb((int)w_count);
}

int shrink_dcache_memory(int nr, unsigned gfp)
{
	if (nr) {
		if (!(gfp & __GFP_FS))
			return -1;
		prune_dcache(nr);
	}
	return (int)(dentry_stat.nr_unused / 100) * MM->sysctl.vfs_cache_pressure;
}

int dcache_check(void)
{
	long n = 0;
	for (const struct address_space *f = d_lru.head; f; f = f->d_lru.next) {
		if (!f->d_lru.on || f->d_slab == NO_PFN) {
			fprintf(stderr, "dcache: %s on the LRU without a dentry\n", f->name);
			return -1;
		}
		if (++n > dentry_stat.nr_unused)
			break;
	}
	if (n != dentry_stat.nr_unused) {
		fprintf(stderr, "dcache: LRU holds %ld, nr_unused %ld\n", n, dentry_stat.nr_unused);
		return -1;
	}
	return kmem_cache_check(&dentry_cache);
}
