/* The inode cache's reclaim side, 2.6.28 fs/inode.c: an inode whose last reference (its
 * dentry's) goes is counted unused and, once clean, waits on inode_unused (generic_forget_
 * inode; a dirty one stays on the writeback list until __sync_single_inode moves it).
 * prune_icache scans that list from the tail: a busy inode goes back to the head; one with
 * page cache has it invalidated (clean, unmapped, unlocked pages only: invalidate_mapping_
 * pages), those pages counted as kswapd_inodesteal or pginodesteal; an inode left with no
 * pages is freed. shrink_icache_memory returns nr_unused / 100 * vfs_cache_pressure. */
#include "mm/fs.h"

#include "mm/file_lru.h"

#include "mm/slab.h"

#include <stddef.h>
#include <stdio.h>

struct inodes_stat inodes_stat;

static struct kmem_cache inode_cache;
static struct file_lru inode_unused = {.link = offsetof(struct address_space, i_list)};

void vfs_caches_init(void)
{
	dcache_init();
	kmem_cache_init(&inode_cache, "inode_cache", MM->hw->inode_bytes, OWNER_SLAB_RECLAIMABLE);
	inode_unused.head = inode_unused.tail = NULL;
	inodes_stat = (struct inodes_stat){0};
	register_shrinker(shrink_dcache_memory, DEFAULT_SEEKS);
	register_shrinker(shrink_icache_memory, DEFAULT_SEEKS);
}

void vfs_caches_destroy(void)
{
	dcache_destroy();
	kmem_cache_destroy(&inode_cache);
}

/* new_inode then d_alloc (the order of a create: the filesystem's inode, then the name's
 * dentry instantiated with it). An object that cannot be had leaves the file without it:
 * the kernel's open would fail with -ENOMEM, which no workload here survives anyway. */
void d_alloc_file(struct address_space *f)
{
	f->d_slab = f->i_slab = NO_PFN;
	f->i_slab = kmem_cache_alloc(&inode_cache, GFP_KERNEL);
	if (f->i_slab == NO_PFN)
		return;
	inodes_stat.nr_inodes++;
	if (!d_alloc(f))
		iput_final(f);
}

static bool inode_dirty(const struct address_space *f)
{
	return f->on_dirty_list;
}

void iput_final(struct address_space *f)
{
	if (f->i_slab == NO_PFN || f->i_unused_counted)
		return;
	f->i_unused_counted = true;
	inodes_stat.nr_unused++;
	if (!inode_dirty(f))
		file_lru_add_head(&inode_unused, f);
}

void inode_sync_complete(struct address_space *f)
{
	if (f->i_unused_counted && !f->i_list.on && f->i_slab != NO_PFN)
		file_lru_add_head(&inode_unused, f);
}

/* invalidate_mapping_pages(mapping, 0, -1): the pages nobody holds go. */
static unsigned long invalidate_mapping_pages(struct address_space *f)
{
	unsigned long before = f->nrpages;
	file_truncate(f);
	return before - f->nrpages;
}

/* can_unuse, less what the model has not: no buffers, no other reference. */
static bool can_unuse(const struct address_space *f)
{
	return !inode_dirty(f) && f->nrpages == 0;
}

static void destroy_inode(struct address_space *f)
{
	kmem_cache_free(&inode_cache, f->i_slab);
	f->i_slab = NO_PFN;
	f->i_unused_counted = false;
	inodes_stat.nr_inodes--;
}

static void prune_icache(int nr_to_scan)
{
	struct file_lru freeable = {.link = inode_unused.link};
	long nr_pruned = 0;
	unsigned long reap = 0;
	for (int nr_scanned = 0; nr_scanned < nr_to_scan && inode_unused.tail; nr_scanned++) {
		struct address_space *f = inode_unused.tail;
		if (inode_dirty(f)) {
			file_lru_del(&inode_unused, f);
			file_lru_add_head(&inode_unused, f);
			continue;
		}
		if (f->nrpages) {
			/* __iget, invalidate, iput: the inode comes back at the head */
			reap += invalidate_mapping_pages(f);
			file_lru_del(&inode_unused, f);
			file_lru_add_head(&inode_unused, f);
			if (!can_unuse(f))
				continue;
		}
		file_lru_del(&inode_unused, f);
		file_lru_add_tail(&freeable, f);
		nr_pruned++;
	}
	inodes_stat.nr_unused -= nr_pruned;
	bool kswapd = current && (current->flags & PF_KSWAPD);
	count_vm_events(kswapd ? KSWAPD_INODESTEAL : PGINODESTEAL, reap);
	while (freeable.head) { /* dispose_list */
		struct address_space *f = freeable.head;
		file_lru_del(&freeable, f);
		destroy_inode(f);
	}
}

int shrink_icache_memory(int nr, unsigned gfp)
{
	if (nr) {
		if (!(gfp & __GFP_FS))
			return -1;
		prune_icache(nr);
	}
	return (int)(inodes_stat.nr_unused / 100) * MM->sysctl.vfs_cache_pressure;
}

int vfs_caches_check(void)
{
	long n = 0;
	for (const struct address_space *f = inode_unused.head; f; f = f->i_list.next) {
		if (!f->i_list.on || f->i_slab == NO_PFN || !f->i_unused_counted ||
		    f->d_slab != NO_PFN) {
			fprintf(stderr, "icache: %s on inode_unused in use or freed\n", f->name);
			return -1;
		}
		if (++n > inodes_stat.nr_unused)
			break;
	}
	if (n > inodes_stat.nr_unused) {
		fprintf(stderr, "icache: inode_unused holds more than nr_unused %ld\n",
			inodes_stat.nr_unused);
		return -1;
	}
	if (dcache_check())
		return -1;
	return kmem_cache_check(&inode_cache);
}
