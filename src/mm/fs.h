/* The dentry and inode caches (2.6.28 fs/dcache.c, fs/inode.c) as far as page reclaim sees
 * them: one dentry and one inode per file, objects in SLUB caches whose slabs count as
 * reclaimable, unused-object LRUs, and the two shrinkers shrink_slab calls. A file is a
 * struct address_space standing for its inode; directories are not modelled. */
#ifndef MMSIM_FS_FS_H
#define MMSIM_FS_FS_H

#include "mm/mm.h"

/* Creates the caches and registers the shrinkers: dcache first, icache second, the order
 * vfs_caches_init's dcache_init and inode_init register them in. */
void vfs_caches_init(void);
void vfs_caches_destroy(void);

/* d_alloc + new_inode for a new file: both objects allocated (gfp may reclaim), the dentry
 * held once by its creator (d_count 1). */
void d_alloc_file(struct address_space *f);
/* dput: the last reference puts the dentry on the unused LRU's head, DCACHE_REFERENCED. */
void dput(struct address_space *f);
/* The dentry's last reference went away with the dentry itself (d_kill -> iput). */
void iput_final(struct address_space *f);
/* __sync_single_inode: writeback left the inode clean; unused, it joins inode_unused. */
void inode_sync_complete(struct address_space *f);

/* The shrinkers (shrink_dcache_memory, shrink_icache_memory): with nr, prune that many
 * (-1 without __GFP_FS); the return value is the freeable estimate
 * nr_unused / 100 * vm.vfs_cache_pressure. */
int shrink_dcache_memory(int nr, unsigned gfp);
int shrink_icache_memory(int nr, unsigned gfp);

struct dentry_stat {
	long nr_dentry, nr_unused;
};
struct inodes_stat {
	long nr_inodes, nr_unused;
};
extern struct dentry_stat dentry_stat;
extern struct inodes_stat inodes_stat;

/* Between dcache.c and inode.c. */
void dcache_init(void);
void dcache_destroy(void);
bool d_alloc(struct address_space *f);
int dcache_check(void);

/* 0 if the lists agree with the counters and the files' flags, else -1 and a message. */
int vfs_caches_check(void);

#endif
