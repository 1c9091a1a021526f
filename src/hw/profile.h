/* Hardware profiles: named bundles of CPU costs and device characteristics, one per era of
 * the seed experiments. Scenarios pick a profile; they never set these numbers themselves.
 * Every value in profiles.c carries its source or is marked as an estimate. */
#ifndef MMSIM_HW_PROFILE_H
#define MMSIM_HW_PROFILE_H

#include "sim/types.h"

struct disk_params {
	uint64_t capacity_bytes;
	uint32_t rpm;		 /* 0 for flash / solid state */
	sim_time_t seek_t2t_ns;	 /* track-to-track seek */
	sim_time_t seek_full_ns; /* full-stroke seek */
	uint64_t bandwidth_Bps;	 /* sustained media transfer rate */
	sim_time_t request_ns;	 /* per-request controller/driver overhead */
	/* A write's, where the medium writes slower than it reads (flash cards: small writes
	 * program and erase whole flash pages and blocks); 0 is the read figure. */
	uint64_t write_bandwidth_Bps;
	sim_time_t write_request_ns;
	uint32_t max_request_bytes; /* largest merged request (max_sectors_kb) */
	uint32_t nr_requests;	    /* request slots per direction (kernel default 128) */
};

/* d with its write figures named: a disk without them writes as it reads. */
static inline struct disk_params disk_params_with_writes(struct disk_params d)
{
	if (!d.write_request_ns)
		d.write_request_ns = d.request_ns;
	if (!d.write_bandwidth_Bps)
		d.write_bandwidth_Bps = d.bandwidth_Bps;
	return d;
}

/* How physical memory divides into zones (§1.2). */
enum zone_layout {
	LAYOUT_FLAT,   /* one ZONE_NORMAL (ARM boards) */
	LAYOUT_X86_32, /* DMA below 16 MiB, NORMAL to 896 MiB, HIGHMEM above */
	LAYOUT_X86_64, /* DMA below 16 MiB, DMA32 to 4 GiB, NORMAL above */
};

/* x86-32's low memory: the kernel maps 896 MiB directly; HIGHMEM starts there (§1.2) */
#define X86_32_LOWMEM_BYTES (896ULL << 20)

/* The slab objects a process of hackbench's kind holds, bytes each (the cache's object
 * size, alignment included), of the era's kernel on the profile's ABI: fork's task_struct,
 * mm_struct, VMAs, files_struct, signal_struct, sighand_struct and fs_struct, and one
 * AF_UNIX socket's unix_sock, socket inode, dentry and file. */
struct task_slab_objects {
	uint32_t task_struct, mm_struct, vma, files, signal, sighand, fs;
	uint32_t sock, sock_inode, dentry, filp;
};

struct hw_profile {
	const char *name;
	enum zone_layout layout;
	const char *description;
	uint32_t page_size;
	uint32_t cpu_mhz;
	uint32_t l1_cache_bytes;     /* L1_CACHE_BYTES: SKB_DATA_ALIGN and SLAB_HWCACHE_ALIGN */
	uint32_t kernel_reserved_kb; /* kernel image, bootmem and early allocations never freed */
	uint32_t struct_page_bytes;  /* mem_map cost per frame, taken from present pages */
	uint32_t thread_size;	     /* THREAD_SIZE: kernel stack (+ thread_info) per task */
	uint32_t dentry_bytes;	     /* sizeof(struct dentry): the dentry cache's object */
	uint32_t inode_bytes;	     /* sizeof(struct inode): the inode cache's object */
	uint32_t sk_buff_bytes;	     /* sizeof(struct sk_buff): an skb's truesize less its data */
	const struct task_slab_objects *task_objects;
	/* Page-table pages above the PTE level an address space holds: the pgd plus the
	 * pud/pmd pages a process's text, heap, mmap area and stack reach (the PTE pages
	 * themselves are allocated by the mm model as mappings are touched). */
	uint32_t pt_upper_pages;
	uint32_t pgd_order; /* the pgd is one block of 2^pgd_order of those pages (ARM: 2) */
	uint32_t pte_bytes; /* one PTE: 8 (64-bit, PAE, ARM's Linux+hardware pair), 4 (i386) */
	/* The user address-space layout the kernel gives a process, in bytes, randomisation
	 * off: where exec loads the binary, where its data and brk heap start (0: right after
	 * the text), mm->mmap_base and the direction mmaps go from it, and the stack top. The
	 * PTE pages a process needs depend on which mappings share a page-table page. */
	uint64_t elf_text_base;
	uint64_t elf_data_base;
	uint64_t mmap_base;
	bool mmap_topdown;
	uint64_t stack_top;
	/* The era's toolchain's MAXPAGESIZE: GNU ld puts an object's data segment this far
	 * past its text and ld.so reserves the hole PROT_NONE, so an object's text and data
	 * reach different page-table pages. Used where a workload maps shared objects one by
	 * one (the desktop); 0: text and data adjacent. */
	uint64_t elf_max_page_size;
	bool task_struct_in_stack;   /* task_struct shares the THREAD_SIZE block (IA64) */
	bool register_backing_store; /* every process writes a second, upward stack (IA64) */
	/* The MMU has no young or dirty bit (ARMv5): Linux's set_pte_ext writes an old PTE as
	 * invalid and a clean one as read-only (cpu_arm926_set_pte_ext), so the first access
	 * after page_referenced clears the young bit, and the first write to a clean writable
	 * PTE, fault to set it (handle_pte_fault, kernel-reclaim.md §1.8) */
	bool pte_bits_emulated;
	/* scheduler */
	sim_time_t timeslice_ns;
	sim_time_t quantum_ns; /* how far a task may run ahead of the clock (model knob) */
	sim_time_t ctxsw_ns;
	/* what a switch to another address space adds (switch_mm: on ARMv5 the VIVT cache
	 * clean and invalidate and the TLB flush, and their refill); 0 where ctxsw_ns is a
	 * process-to-process figure that already contains it */
	sim_time_t switch_mm_ns;
	sim_time_t tick_ns; /* timer interrupt handler, once per jiffy per busy CPU */
	uint32_t hz;	    /* the kernel's config HZ on this machine (0 = 1000) */
	/* CPU cost of kernel operations, ns */
	sim_time_t touch_ns; /* a user access to a present, mapped page (TLB + cache) */
	sim_time_t syscall_ns;
	sim_time_t fault_ns; /* a fault on a cached file page: entry/exit, lookup, pte update */
	/* a fault that finds no page (do_anonymous_page) or a COW write (do_wp_page):
	 * the same less the page-cache lookup; the new page's allocation, clearing or copy and
	 * LRU add are their own costs */
	sim_time_t anon_fault_ns;
	/* a fault that only marks a present PTE young or dirty (handle_pte_fault's end): taken
	 * where the MMU has no such bits and the kernel emulates them (pte_bits_emulated) */
	sim_time_t pte_fault_ns;
	/* a fault on a swap entry (do_swap_page): entry to exit, the swap cache lookup, the rmap
	 * and the slot's release; a miss adds the readahead's set-up (swapin_ra_ns) and each
	 * page read its swap cache insert (swapin_page_ns), besides its allocation, LRU add
	 * and bio */
	sim_time_t swap_fault_ns;
	sim_time_t swapin_ra_ns;
	sim_time_t swapin_page_ns;
	/* flush_cache_page of a user page of the CPU's active mm: on a virtually indexed cache
	 * (ARMv5) the clean and invalidate of the page's lines; 0 where caches are physically
	 * indexed and the call is empty (x86, ia64) */
	sim_time_t flush_cache_page_ns;
	sim_time_t page_zero_ns;  /* clear one page */
	sim_time_t page_copy_ns;  /* copy one page (COW, read/write syscalls) */
	sim_time_t page_alloc_ns; /* buddy allocator fast path */
	sim_time_t page_free_ns;
	/* AF_UNIX stream message, beyond the syscall entry and the copy: unix_stream_sendmsg
	 * (skb allocation, queueing, the reader's wakeup) and unix_stream_recvmsg (dequeue,
	 * kfree_skb); the sum split so that the whole write() is SOCK_WRITE_SHARE of a write
	 * and its read (profiles.c, SOCK_SPLIT) */
	sim_time_t sock_send_ns;
	sim_time_t sock_recv_ns;
	sim_time_t lru_add_ns;	  /* one page onto an LRU list (lock held) */
	sim_time_t isolate_ns;	  /* per page scanned by isolate_lru_pages (lock held) */
	sim_time_t scan_page_ns;  /* shrink_page_list work per page, besides rmap */
	sim_time_t rmap_pte_ns;	  /* one PTE visited by page_referenced / try_to_unmap */
	sim_time_t swap_alloc_ns; /* add_to_swap: slot + swap cache insert */
	sim_time_t io_submit_ns;  /* building and submitting one bio */
	sim_time_t copy_pte_ns;	  /* fork's copy of one PTE (copy_one_pte) */
	sim_time_t zap_pte_ns;	  /* one present PTE cleared at munmap or exit (zap_pte_range) */
	sim_time_t fork_ns;	  /* fixed cost of fork (besides page tables) */
	sim_time_t exec_ns;
	struct disk_params disk;
	/* Storage layout. The filesystem is on fs_disks disks of kind `disk` striped as md
	 * RAID-0 in raid_chunk_bytes chunks (0 or 1: one disk); swap is on a disk of its own
	 * when swap_own_disk, of kind swap_disk (NULL: `disk`'s), else a partition at the start
	 * of the first disk. */
	uint32_t fs_disks;
	uint32_t raid_chunk_bytes;
	bool swap_own_disk;
	const struct disk_params *swap_disk;
	/* The filesystem's backing_dev_info.ra_pages, the readahead and mmap read-around
	 * window of its files; 0: a block device's, VM_MAX_READAHEAD (128 KiB) in pages. */
	uint32_t fs_ra_pages;
	/* The filesystem is an NFS mount: its reads and writes are RPCs, not bios, so they
	 * count in neither pgpgin nor pgpgout (submit_bio); swap still does. */
	bool fs_nfs;
};

/* The fields a run may override (hw.<field> keys, for sensitivity studies): the CPU costs,
 * the memory the kernel keeps from boot, the toolchain's MAXPAGESIZE (4096: today's
 * objects, no hole), the files' readahead window (32: a block device's at 4 KiB) and the
 * model's run-ahead quantum. */
#define HW_PROFILE_COSTS(X)                                                                        \
	X(kernel_reserved_kb)                                                                      \
	X(quantum_ns)                                                                              \
	X(elf_max_page_size)                                                                       \
	X(fs_ra_pages)                                                                             \
	X(ctxsw_ns)                                                                                \
	X(switch_mm_ns)                                                                            \
	X(tick_ns)                                                                                 \
	X(touch_ns)                                                                                \
	X(syscall_ns)                                                                              \
	X(fault_ns)                                                                                \
	X(anon_fault_ns)                                                                           \
	X(pte_fault_ns)                                                                            \
	X(swap_fault_ns)                                                                           \
	X(swapin_ra_ns)                                                                            \
	X(swapin_page_ns)                                                                          \
	X(flush_cache_page_ns)                                                                     \
	X(page_zero_ns)                                                                            \
	X(page_copy_ns)                                                                            \
	X(page_alloc_ns)                                                                           \
	X(page_free_ns)                                                                            \
	X(sock_send_ns)                                                                            \
	X(sock_recv_ns)                                                                            \
	X(lru_add_ns)                                                                              \
	X(isolate_ns)                                                                              \
	X(scan_page_ns)                                                                            \
	X(rmap_pte_ns)                                                                             \
	X(swap_alloc_ns)                                                                           \
	X(io_submit_ns)                                                                            \
	X(copy_pte_ns)                                                                             \
	X(zap_pte_ns)                                                                              \
	X(fork_ns)                                                                                 \
	X(exec_ns)

/* The disk's figures a run may override (hw.disk.<field> keys, for sensitivity studies):
 * every disk of the profile takes the value. */
#define HW_DISK_COSTS(X)                                                                           \
	X(request_ns)                                                                              \
	X(bandwidth_Bps)                                                                           \
	X(write_request_ns)                                                                        \
	X(write_bandwidth_Bps)

/* The share of a 100-byte AF_UNIX stream message's write() in the write and its read():
 * v2.6.25-rc1's instructions, counted on an emulated ARM926 (docs/hardware.md, "The socket
 * message"; data/measured/armboot/sockcost/) */
#define SOCK_WRITE_SHARE 0.5175

/* KPATH (profiles.c): the kernel paths priced by tick_ns, page_alloc_ns, page_free_ns,
 * lru_add_ns, isolate_ns, scan_page_ns, rmap_pte_ns, swap_alloc_ns, io_submit_ns,
 * copy_pte_ns and zap_pte_ns, in
 * v2.6.25-rc1's instructions as counted on an emulated ARM926 (tools/measure/armboot/kprof,
 * data/measured/armboot/kprof/; docs/hardware.md, "Kernel paths by instruction count"); each
 * profile prices an instruction at its cited AF_UNIX message (a write and its read: two
 * system calls, two 100-byte copies, sock_send_ns + sock_recv_ns) over the message's
 * KPATH_MSG_INSNS. */
#define KPATH_MSG_INSNS	  1908 /* write 987 + read 921 (sockcost.c) */
#define KPATH_FAULT_INSNS 784  /* a fault on a cached file page, less activate_page */
/* an anonymous fault less its page's allocation, clearing and LRU add; every profile prices
 * it as fault_ns x KPATH_ANON_FAULT_INSNS / KPATH_FAULT_INSNS (profiles.c) */
#define KPATH_ANON_FAULT_INSNS 406
/* a fault on a present PTE that only sets its young bit (ARM926's emulation), entry to
 * exit; priced as fault_ns x KPATH_PTE_FAULT_INSNS / KPATH_FAULT_INSNS like the above */
#define KPATH_PTE_FAULT_INSNS 229
/* the swap-in paths (kpaths.py's swap_in rows), priced the same way: a fault on a swap
 * entry whose page is in the swap cache; swapin_readahead's window and grab_swap_token, a
 * call; read_swap_cache_async's lookup and swap cache insert, a page read */
#define KPATH_SWAP_FAULT_INSNS	491
#define KPATH_SWAPIN_RA_INSNS	287
#define KPATH_SWAPIN_PAGE_INSNS 308
/* ARM926's flush_cache_page: arm926_flush_user_cache_range over one page (VIVT only) */
#define KPATH_FLUSH_CACHE_PAGE_INSNS 583
#define KPATH_TICK_INSNS	     1417 /* every kernel instruction a tick, user loop running */
#define KPATH_PAGE_ALLOC_INSNS	     322  /* __alloc_pages and its buffered_rmqueue, order 0 */
#define KPATH_PAGE_FREE_INSNS	     369  /* free_hot_cold_page and free_pages_bulk, a page */
#define KPATH_LRU_ADD_INSNS	     94	  /* lru_cache_add_active and its pagevec drain, a page */
#define KPATH_ISOLATE_INSNS	     66	  /* isolate_lru_pages, a page scanned */
#define KPATH_SCAN_PAGE_INSNS	     243  /* shrink_*_list and page-level rmap, a page */
#define KPATH_RMAP_PTE_INSNS	     83	  /* page_referenced_one / try_to_unmap_one, a PTE */
#define KPATH_SWAP_ALLOC_INSNS	     310  /* get_swap_page, add_to_swap_cache */
#define KPATH_IO_SUBMIT_INSNS	     952  /* swap_writepage to the elevator, a page written */
#define KPATH_COPY_PTE_INSNS	     116  /* copy_one_pte, an anonymous page's PTE at fork */
#define KPATH_ZAP_PTE_INSNS	     107 /* zap_pte_range, a PTE whose page stays mapped elsewhere */

/* sizeof(void *) on the profile's machine: 8 where struct page is a 64-bit one (56 bytes
 * or more in 2.6.2x), 4 on the 32-bit profiles (32 bytes). */
static inline uint32_t hw_word_bytes(const struct hw_profile *hw)
{
	return hw->struct_page_bytes > 32 ? 8 : 4;
}

/* KPATH's price of one kernel instruction, in ns: the AF_UNIX message (two null calls, two
 * 100-byte copies at page_copy_ns a page of page_size, the send and the receive) over its
 * KPATH_MSG_INSNS. */
static inline double kpath_ns_per_insn(double syscall_ns, double page_copy_ns, uint32_t page_size,
				       double send_ns, double recv_ns)
{
	return (2 * (syscall_ns + page_copy_ns * 100 / page_size) + send_ns + recv_ns) /
	       KPATH_MSG_INSNS;
}

/* The profile's time for one kernel instruction under KPATH, in ns. */
static inline double hw_kpath_ns_per_insn(const struct hw_profile *hw)
{
	return kpath_ns_per_insn((double)hw->syscall_ns, (double)hw->page_copy_ns, hw->page_size,
				 (double)hw->sock_send_ns, (double)hw->sock_recv_ns);
}

const struct hw_profile *hw_profile_find(const char *name);
/* Names of all profiles, NULL-terminated, for help and error messages. */
const char *const *hw_profile_names(void);

#endif
