/* The hardware profiles (see profile.h); docs/hardware.md gives the source of each figure. */
#include "hw/profile.h"

#include <string.h>

/* Sources and estimates
 * ---------------------
 * Disk figures are the vendors' data-sheet numbers for drives of the era (seek, rpm,
 * sustained rate); "[estimate]" marks a figure that is an order-of-magnitude judgement of
 * ours rather than a measurement (scripts/sensitivity.py halves and doubles them).
 *
 * The ARM, IA64 and P3 CPU costs come from two published lmbench runs (docs/hardware.md, "CPU
 * costs", gives the whole tables and the rules):
 *  [P3-790]  lmbench 2.0 on an i686 790 MHz, Linux 2.5.62, median of 5 runs: A. M. Marathe,
 *            "[BENCHMARK] 2.5.62 Lmbench performance", linux-kernel, 21 Feb 2003,
 *            <94F20261551DC141B6B559DC4910867217CCC7@blr-m3-msg.wipro.com>;
 *  [IA64-1600] lmbench 3.0 on an SMP ia64 1600 MHz, Linux 2.6.27-rc1-mm1: Y. Goto, linux-mm,
 *            5 Aug 2008, <20080805150434.BF32.E1E9C6FF@jp.fujitsu.com>, quoted whole in
 *            M. Gorman's reply <20080805111450.GE20243@csn.ul.ie>.
 *  [X86_64-1993] lmbench 2.0 on an x86_64 at 1993 MHz (CPU not named), Linux 2.6.23-rc2-mm2,
 *            row "disabled": B. Singh, "Memory controller test results (v6)", linux-mm, 19 Aug
 *            2007, <20070819094658.654.84837.sendpatchset@balbir-laptop>;
 *  [X86_64-PF] lmbench 3 lat_pagefault on "an intel x86_64 system" (clock not stated), Linux
 *            2.6.25-rc9, median of 11 runs 2.215 us: R. Biro, "Page Faults slower in
 *            2.6.25-rc9 than 2.6.23", linux-mm, 29 Apr 2008,
 *            <d43160c70804290610t2135a271hd9b907529e89e74e@mail.gmail.com>. No longer used:
 *            lmbench 3's lat_pagefault expects msync(MS_INVALIDATE) to drop the pages, which
 *            Linux never did (H. Dickins in the same thread,
 *            <Pine.LNX.4.64.0804301215080.4651@blonde.site>), so after one pass over the
 *            file it times loads that do not fault; [IA64-1600]'s 0.2385 us likewise.
 *  [IA64-L1D] Intel Itanium 2 Processor Reference Manual for Software Development and
 *            Optimization (May 2004), the L1 data cache: an integer load that hits it has a
 *            2-cycle latency to most consumers (as quoted, for an SGI Altix 350's Itanium 2,
 *            at ueda.info.waseda.ac.jp/~kei/koukyuu/norm/architecture.html; W. Triebel et
 *            al., "Programming Itanium-based Systems", table 11.3, give Itanium's L1D 2
 *            cycles too): the load-to-load latency lmbench's lat_mem_rd times, which the
 *            quoted [IA64-1600] summary lacks.
 * lmbench's MB is 10^6 bytes (lmbench3 src/lib_timing.c). Every profile's lmbench-type costs
 * come from them (docs/hardware.md, "CPU costs").
 *
 * SOCK_SPLIT: an AF_UNIX message's cost over a pipe message's (lat_unix less lat_pipe, per
 * message) is split between sock_send_ns and sock_recv_ns so that the whole write(), syscall
 * and 100-byte copy included, is 0.5175 of write() + read(): the share of the write in
 * v2.6.25-rc1's instructions for 100-byte messages over a socketpair, counted on an emulated
 * ARM926 (tools/measure/armboot/sockcost.c, data/measured/armboot/sockcost/; 0.511 when
 * the queue never holds more than one message). The same C code runs on every
 * architecture, so the share is applied to every profile: send = 0.5175 (2a + T) - a,
 * a = syscall_ns + the copy, T the cited sum.
 *
 * KPATH: the kernel paths without a cited figure (the tick, page allocation and freeing,
 * the LRU, isolation, the scan, rmap, the swap slot, I/O submission) are priced by their
 * instructions on v2.6.25-rc1, counted on an emulated ARM926 (profile.h's KPATH_*_INSNS;
 * tools/measure/armboot/kprof), at the profile's time per kernel instruction: its cited
 * AF_UNIX message (2 syscall_ns + 2 100-byte copies + sock_send_ns + sock_recv_ns) over
 * the message's 1,908 instructions. The C is the same on every architecture, so the ratio
 * of a path's instructions to the message's is taken to hold on each (an assumption;
 * docs/hardware.md, "Kernel paths by instruction count", gives the other anchors). */

/* A 2008 desktop's 7200 rpm SATA disk (x86_64-2008's, and the NFS-root desktop's swap). */
/* clang-format off */
#define SATA_2008_DISK                                                                      \
	{                                                                                   \
		.capacity_bytes = 250ULL << 30,                                             \
		.rpm = 7200,                     /* data sheet class */                     \
		.seek_t2t_ns = 800000,           /* 0.8 ms track-to-track, data sheet class */ \
		.seek_full_ns = 17000000,        /* 17 ms full stroke, data sheet class */  \
		.bandwidth_Bps = 70000000,       /* 70 MB/s sustained, data sheet class */  \
		/* [HITACHI-7K3000] read command overhead on a cache miss, 0.5 ms: no 2008  \
		 * drive's found; the 7200 rpm SATA figure nearest in time (IBM's 2002 ATA  \
		 * drive, [IBM-120GXP], 0.3 ms, brackets it) */                            \
		.request_ns = 500000,                                                       \
		/* [HITACHI-7K3000] a write's command overhead, not queued (the model has   \
		 * no NCQ): the drive takes the data into its cache */                     \
		.write_request_ns = 15000,                                                  \
		.max_request_bytes = 512 * 1024, /* max_sectors_kb 512 */                   \
		.nr_requests = 128,              /* block layer default BLKDEV_MAX_RQ */    \
	}
/* clang-format on */

static const struct disk_params sata_2008_disk = SATA_2008_DISK;

/* User address-space layouts (struct hw_profile), randomisation off in all of them. */
/* x86-64, 2.6.28 arch/x86/mm/mmap.c: mmap_base() is TASK_SIZE64 ((1 << 47) - PAGE_SIZE) less
 * MIN_GAP (128 MiB; RLIMIT_STACK's default 8 MiB is below it), top-down; STACK_TOP is
 * TASK_SIZE; binaries are linked at 0x400000 (the x86-64 psABI's default text address). */
/* The x86-64 toolchains of the time linked with MAXPAGESIZE 0x200000 (binutils' x86-64
 * ELF_MAXPAGESIZE; the psABI allows pages up to 2 MiB; DATA_SEGMENT_ALIGN in ld's default
 * script), so every object showed a ---p hole of 2044 KiB between its r-xp text and its data
 * (docs/desktop-measured.md, "Page tables"); today's Debian objects are linked with 0x1000
 * (readelf -l: p_align 0x1000) and have no hole. */
#define USER_LAYOUT_X86_64                                                                         \
	.pte_bytes = 8, .elf_text_base = 0x400000, .mmap_base = 0x7ffff7fff000,                    \
	.mmap_topdown = true, .stack_top = 0x7ffffffff000, .elf_max_page_size = 0x200000
/* The page-table pages above the PTE level that USER_LAYOUT_X86_64 gives a process, from its
 * addresses on 4-level paging (a level indexes 9 bits; the pgd by bits 39-47, a pud page by
 * 30-38, a pmd page by 21-29): the pgd; for the text at 0x400000 and the brk heap after it
 * (pgd slot 0, pud slot 0) one pud and one pmd page; for the libraries below mmap_base and
 * the stack (pgd slot 255, pud slot 511, both) one pud and one pmd page. It holds while the
 * text and heap stay in their first GiB and the mmap area in the 896 MiB below mmap_base
 * (test_profiles upper_tables_from_layout recomputes it). */
#define X86_64_PT_UPPER 5
/* i386 without PAE (4-byte PTEs), 2.6.9 arch/i386/mm/mmap.c: TASK_SIZE 0xc0000000 less
 * MIN_GAP 128 MiB, top-down (sysctl_legacy_va_layout 0); binaries at 0x08048000 (the i386
 * psABI's default). */
#define USER_LAYOUT_I386                                                                           \
	.pte_bytes = 4, .elf_text_base = 0x08048000, .mmap_base = 0xb8000000,                      \
	.mmap_topdown = true, .stack_top = 0xc0000000

/* The x86_64-2008 class CPU costs, shared by the profiles of that class */
/* clang-format off */
/* CPU costs of an x86-64 of clock MHZ from [X86_64-1993] scaled by the clock ratio
 * 1993/MHZ for kernel paths, page-sized memory traffic at its bandwidth as measured
 * [assumption: no profile's memory is stated]; the page fault and the other paths without
 * a cited figure by KPATH, as lmbench 3's lat_pagefault [X86_64-PF] mostly times accesses
 * that do not fault (docs/hardware.md, "CPU costs"). Per-clock differences between the
 * 1993 MHz machine's core and the profile's are not in the rule. */
#define X86_NS(ns, mhz) ((uint64_t)((double)(ns) * 1993.0 / (mhz) + 0.5))
#define X86_COPY100 (4512.0 * 100 / 4096) /* a 100-byte copy at page_copy_ns */
/* lat_unix less lat_pipe (18.6 - 11.8 us round trip, two messages): 3.4 us a message,
 * scaled, split so that write : read = 0.5175 : 0.4825 with the syscall and copy
 * (SOCK_SPLIT) */
#define X86_SOCK(mhz) X86_NS(3400, mhz)
/* a write's null call and 100-byte copy, the part of the message SOCK_SPLIT adds to */
#define X86_CALL(mhz) ((double)X86_NS(80, mhz) + X86_COPY100)
#define X86_SEND(mhz) ((uint64_t)(0.5175 * (2 * X86_CALL(mhz) + (double)X86_SOCK(mhz)) - \
				  X86_CALL(mhz) + 0.5))
/* KPATH's price of an instruction: the message over its KPATH_MSG_INSNS */
#define X86_INSN(mhz) ((2 * X86_CALL(mhz) + (double)X86_SOCK(mhz)) / KPATH_MSG_INSNS)
#define X86_KPATH(insns, mhz) ((uint64_t)((insns) * X86_INSN(mhz) + 0.5))
#define X86_FAULT_SHARE(insns, mhz) \
	((uint64_t)((double)X86_KPATH(KPATH_FAULT_INSNS, mhz) * (insns) / KPATH_FAULT_INSNS + 0.5))
#define X86_64_1993_CPU_COSTS(mhz)                                                            \
	.ctxsw_ns = X86_NS(3380, mhz),	/* lat_ctx 2p/0K 3.38 us */                                \
	.tick_ns = X86_KPATH(KPATH_TICK_INSNS, mhz),                                            \
	.touch_ns = X86_NS(1.506, mhz), /* lmbench L1 $ 1.506 ns: a load hitting the cache */       \
	.syscall_ns = X86_NS(80, mhz),	/* lat_syscall null 0.08 us */                             \
	.fault_ns = X86_KPATH(KPATH_FAULT_INSNS, mhz), /* lmbench 3's does not fault */             \
	.anon_fault_ns = X86_FAULT_SHARE(KPATH_ANON_FAULT_INSNS, mhz),                           \
	.pte_fault_ns = X86_FAULT_SHARE(KPATH_PTE_FAULT_INSNS, mhz),                             \
	.swap_fault_ns = X86_FAULT_SHARE(KPATH_SWAP_FAULT_INSNS, mhz),                           \
	.swapin_ra_ns = X86_FAULT_SHARE(KPATH_SWAPIN_RA_INSNS, mhz),                             \
	.swapin_page_ns = X86_FAULT_SHARE(KPATH_SWAPIN_PAGE_INSNS, mhz),                         \
	.flush_cache_page_ns = 0, /* physically indexed caches: empty */                          \
	.page_zero_ns = 3285,	  /* 4 KiB at bw_mem write 1247 MB/s */                            \
	.page_copy_ns = 4512,	  /* 4 KiB at bw_mem bcopy (libc) 907.8 MB/s */                    \
	.page_alloc_ns = X86_KPATH(KPATH_PAGE_ALLOC_INSNS, mhz),                                 \
	.page_free_ns = X86_KPATH(KPATH_PAGE_FREE_INSNS, mhz),                                   \
	.sock_send_ns = X86_SEND(mhz),                                                           \
	.sock_recv_ns = X86_SOCK(mhz) - X86_SEND(mhz),                                           \
	.lru_add_ns = X86_KPATH(KPATH_LRU_ADD_INSNS, mhz),                                       \
	.isolate_ns = X86_KPATH(KPATH_ISOLATE_INSNS, mhz),                                       \
	.scan_page_ns = X86_KPATH(KPATH_SCAN_PAGE_INSNS, mhz),                                   \
	.rmap_pte_ns = X86_KPATH(KPATH_RMAP_PTE_INSNS, mhz),                                     \
	.copy_pte_ns = X86_KPATH(KPATH_COPY_PTE_INSNS, mhz),                                     \
	.zap_pte_ns = X86_KPATH(KPATH_ZAP_PTE_INSNS, mhz),                                       \
	.swap_alloc_ns = X86_KPATH(KPATH_SWAP_ALLOC_INSNS, mhz),                                 \
	.io_submit_ns = X86_KPATH(KPATH_IO_SUBMIT_INSNS, mhz),                                   \
	.fork_ns = X86_NS(128000, mhz), /* lat_proc fork+exit 128 us */                           \
	.exec_ns = X86_NS(351000, mhz), /* lat_proc fork+execve 479 us less fork 128 */
/* clang-format on */

/* Per-task slab objects (struct task_slab_objects). 64-bit: a 2.6.8 x86-64 box's slabinfo
 * (Dave Pifke, LKML, 19 Oct 2005, <4356C1B2.3070401@bebo.com>); 32-bit x86: a 2.6 i386 box's
 * (Russell Stuart, "Re: Problems with oom killer", LKML, 12 Jul 2006,
 * <1152663808.4267.23.camel@ras.pc.brisbane.lube>), its generic `sock` object (384) for
 * unix_sock, which that post omits. Both are the closest-era slabinfo found. */
static const struct task_slab_objects objects_64 = {.task_struct = 2112,
						    .mm_struct = 1024,
						    .vma = 176,
						    .files = 832,
						    .signal = 128,
						    .sighand = 2112,
						    .fs = 64,
						    .sock = 768,
						    .sock_inode = 640,
						    .dentry = 248,
						    .filp = 256};
static const struct task_slab_objects objects_i386 = {.task_struct = 1456,
						      .mm_struct = 640,
						      .vma = 84,
						      .files = 512,
						      .signal = 128,
						      .sighand = 1408,
						      .fs = 64,
						      .sock = 384,
						      .sock_inode = 384,
						      .dentry = 144,
						      .filp = 256};
/* measured: v2.6.25-rc1 versatile_defconfig (ARM926EJ-S, EABI) booted with SLAB, whose
 * slabinfo lists every cache apart (SLUB merges files_cache, fs_cache, filp and UNIX into
 * kmalloc caches of the same object size): data/measured/armboot/nofb-boot-1.log,
 * docs/armboot-measured.md */
static const struct task_slab_objects objects_arm926 = {.task_struct = 768,
							.mm_struct = 384,
							.vma = 88,
							.files = 192,
							.signal = 416,
							.sighand = 1312,
							.fs = 32,
							.sock = 384,
							.sock_inode = 320,
							.dentry = 128,
							.filp = 128};

static const struct hw_profile profiles[] = {
    {
	.name = "x86_64-2008",
	.layout = LAYOUT_X86_64,
	.description = "2008 x86-64 server: 2-4 cores at ~2.5 GHz, DDR2, one 7200 rpm SATA disk",
	.page_size = 4096,
	.cpu_mhz = 2500,
	.l1_cache_bytes = 64, /* x86-64 */
	/* [X86_64-BOOT] 2.6.27.2's reserved pages less its vmemmap, swiotlb and init sections */
	.kernel_reserved_kb = 12324,
	.struct_page_bytes = 56, /* sizeof(struct page), 64-bit 2.6.2x */
	.thread_size = 8192,	 /* THREAD_SIZE, x86-64: order-1 */
	.dentry_bytes = 208,	 /* struct dentry, 2.6.28 64-bit (docs/model.md) */
	.inode_bytes = 568,	 /* struct inode, 2.6.28 64-bit (docs/model.md) */
	.sk_buff_bytes = 192, /* sizeof(struct sk_buff), 2.6.25 x86_64_defconfig: skb_layout.txt */
	.task_objects = &objects_64,
	/* X86_64_PT_UPPER: the pgd, a pud and a pmd page for the low half and the high half */
	.pt_upper_pages = X86_64_PT_UPPER,
	USER_LAYOUT_X86_64,
	.timeslice_ns = 4 * NSEC_PER_MSEC, /* CFS sched_min_granularity 4 ms (2.6.25) */
	.quantum_ns = 50 * NSEC_PER_USEC,  /* model knob [estimate] */
	X86_64_1993_CPU_COSTS(2500).disk = SATA_2008_DISK,
    },
    {
	.name = "p3-2004",
	.layout = LAYOUT_X86_32,
	.description = "2004 dual Pentium III 933 MHz, PC133 SDRAM, UDMA IDE disk (Rik van Riel's "
		       "test box class)",
	.page_size = 4096,
	.cpu_mhz = 933,
	.l1_cache_bytes = 32, /* Pentium III */
	/* [I386-BOOT] 2.6.8.1's reserved pages less its mem_map, initrd and init sections */
	.kernel_reserved_kb = 3136,
	.struct_page_bytes = 32, /* sizeof(struct page), 32-bit */
	.thread_size = 8192,	 /* THREAD_SIZE, i386 without CONFIG_4KSTACKS */
	.dentry_bytes = 132,	 /* struct dentry, 2.6.28 32-bit SMP (docs/model.md) */
	.inode_bytes = 340,	 /* struct inode, 2.6.28 32-bit SMP (docs/model.md) */
	.sk_buff_bytes = 156,	 /* sizeof(struct sk_buff), 2.6.25 i386_defconfig: skb_layout.txt */
	.task_objects = &objects_i386,
	.pt_upper_pages = 1, /* 2 levels without PAE: the pgd page */
	USER_LAYOUT_I386,    /* [assumption] no PAE: the box has 384 MB */
	/* CFS sched_min_granularity 4 ms (2.6.25), as the other profiles: the slice and
	 * START_DEBIT of a CFS kernel on this machine. Under the O(1) scheduler (kernel.version
	 * below 2.6.23, sim/sched_o1.c) the timeslice is the kernel's BASE_TIMESLICE instead */
	.timeslice_ns = 4 * NSEC_PER_MSEC,
	.quantum_ns = 100 * NSEC_PER_USEC, /* model knob [estimate] */
	/* CPU costs: [P3-790] is the same CPU family and memory class (i686, PC133), so kernel
	 * paths scale by the clock ratio 790/933 = 0.847 and page-sized memory traffic is taken
	 * as measured [assumption: the 790 MHz box's memory is not stated; PC133 is the class of
	 * both] (docs/hardware.md, "CPU costs") */
	.ctxsw_ns = 1220,	  /* lat_ctx 2p/0K 1.44 us x 0.847 */
	.tick_ns = 3554,	  /* 1417 insns (KPATH) */
	.touch_ns = 3,		  /* lmbench L1 $ 3.803 ns x 0.847: a load hitting the cache */
	.syscall_ns = 373,	  /* lat_syscall null 0.44 us x 0.847 */
	.fault_ns = 3390,	  /* lat_pagefault 4.0 us x 0.847 */
	.anon_fault_ns = 1756,	  /* fault_ns x 406 / 784 insns (KPATH) */
	.pte_fault_ns = 990,	  /* fault_ns x 229 / 784 insns (KPATH) */
	.swap_fault_ns = 2123,	  /* fault_ns x 491 / 784 insns (KPATH) */
	.swapin_ra_ns = 1241,	  /* fault_ns x 287 / 784 insns (KPATH) */
	.swapin_page_ns = 1332,	  /* fault_ns x 308 / 784 insns (KPATH) */
	.flush_cache_page_ns = 0, /* physically indexed caches: empty */
	.page_zero_ns = 24100,	  /* 4 KiB at bw_mem write 170 MB/s */
	.page_copy_ns = 33300,	  /* 4 KiB at bw_mem bcopy (libc) 123 MB/s */
	.page_alloc_ns = 808,	  /* 322 insns (KPATH) */
	.page_free_ns = 926,	  /* 369 insns (KPATH) */
	/* lat_unix less lat_pipe (14 - 8.3 us round trip, two messages), 2.85 us x 0.847 = 2,414
	 * ns, split so that write : read = 0.5175 : 0.4825 with the syscall and copy (SOCK_SPLIT)
	 */
	.sock_send_ns = 1291,
	.sock_recv_ns = 1123,
	.lru_add_ns = 236,    /* 94 insns (KPATH) */
	.isolate_ns = 166,    /* 66 insns (KPATH) */
	.scan_page_ns = 610,  /* 243 insns (KPATH) */
	.rmap_pte_ns = 208,   /* 83 insns (KPATH) */
	.copy_pte_ns = 291,   /* 116 insns (KPATH) */
	.zap_pte_ns = 268,    /* 107 insns (KPATH) */
	.swap_alloc_ns = 778, /* 310 insns (KPATH) */
	.io_submit_ns = 2388, /* 952 insns (KPATH) */
	.fork_ns = 251500,    /* lat_proc fork+exit 297 us x 0.847 */
	.exec_ns = 850100,    /* lat_proc fork+execve 1301 us less fork 297, x 0.847 */
	.disk =
	    {
		.capacity_bytes = 40ULL << 30,
		.rpm = 7200,		   /* data sheet class (e.g. 40 GB ATA/100) */
		.seek_t2t_ns = 1000000,	   /* data sheet class */
		.seek_full_ns = 20000000,  /* data sheet class */
		.bandwidth_Bps = 35000000, /* 35 MB/s sustained, data sheet class */
		.request_ns = 300000,	   /* [IBM-120GXP] read command overhead, cache miss */
		.write_request_ns = 15000, /* [IBM-120GXP] a write's command overhead */
		.max_request_bytes = 128 * 1024, /* IDE max_sectors 256 */
		.nr_requests = 128,
	    },
    },
    {
	.name = "arm926-2008",
	.layout = LAYOUT_FLAT,
	.description = "200 MHz ARM926 board, 32 MB SDRAM, NAND/MMC storage, one CPU (Minchan "
		       "Kim's board class)",
	.page_size = 4096,
	.cpu_mhz = 200,
	.l1_cache_bytes = 32, /* ARM926EJ-S */
	/* measured: v2.6.25-rc1 versatile_defconfig booted on an emulated ARM926EJ-S with 32 MiB
	 * keeps 733 pages, the 64-page mem_map (counted apart here) and 2,676 KiB of kernel image
	 * and boot allocations (docs/armboot-measured.md): a board of the class, not the thread */
	.kernel_reserved_kb = 2676,
	.struct_page_bytes = 32, /* sizeof(struct page), 32-bit */
	.thread_size = 8192,	 /* THREAD_SIZE, ARM: order-1 */
	.dentry_bytes = 128,	 /* struct dentry, 2.6.28 32-bit UP (docs/model.md) */
	/* measured: the 2.6.25-rc1 versatile boot's (SLUB) inode_cache and skbuff_head_cache
	 * objects (data/measured/armboot/slub-nofb-boot-1.log); 160 is sizeof(struct sk_buff)
	 * under EABI (data/measured/skb_layout.txt), a multiple of the 32-byte line */
	.inode_bytes = 280,
	.sk_buff_bytes = 160,
	.task_objects = &objects_arm926,
	.pt_upper_pages = 4, /* the 16 KiB first-level table, benchmarks.md §1 */
	.pgd_order = 2,	     /* pgd_alloc: __get_free_pages(GFP_KERNEL, 2) */
	/* ARM, 2.6.25: Linux and hardware PTEs side by side, 512 per page-table page
	 * (2 MiB); mmaps bottom-up from TASK_UNMAPPED_BASE 0x40000000 (asm-arm/memory.h,
	 * arch/arm/mm/mmap.c); the stack below TASK_SIZE 0xbf000000; binaries at 0x8000 */
	.pte_bytes = 8,
	.elf_text_base = 0x8000,
	.mmap_base = 0x40000000,
	.stack_top = 0xbf000000,
	/* ARMv5 page tables have no young or dirty bit: cpu_arm926_set_pte_ext (v2.6.25
	 * arch/arm/mm/proc-arm926.S) writes an old PTE as invalid and a clean one read-only */
	.pte_bits_emulated = true,
	.timeslice_ns = 4 * NSEC_PER_MSEC, /* CFS, as x86-64-2008 */
	.quantum_ns = 200 * NSEC_PER_USEC, /* model knob [estimate] */
	/* CPU costs: a switch between processes is [PXA255-200]'s, an ARMv5 CPU with virtually
	 * indexed caches at the board's clock, so it contains the cache clean and invalidate and
	 * the TLB flush of every ARMv5 address-space switch (cpu_arm926_switch_mm, and
	 * cpu_xscale_switch_mm on that box) and the refill after it; a switch that keeps the
	 * address space (to or from a kernel thread, between threads of one process) does none
	 * of that and costs [P3-790]'s, scaled as below. The rest is [P3-790] scaled by the
	 * clock ratio 790/200 = 3.95 for kernel paths, and by the memory-bus ratio 2.66 (PC133
	 * 64-bit 1064 MB/s against 32-bit SDRAM at 100 MHz, 400 MB/s: the ARM926 board class
	 * [assumption: neither machine's memory is stated]) for page-sized memory traffic: no
	 * ARMv5 lmbench figure of these was found (docs/hardware.md). The clock ratio leaves
	 * out the ARM9's lower work per clock (ARM's 1.1 Dhrystone MIPS/MHz maximum for ARM9,
	 * infocenter.arm.com KA3885), so those are lower bounds (docs/throttle-seed000.md,
	 * "Absolute times"). */
	.ctxsw_ns = 5690, /* [P3-790] lat_ctx 2p/0K 1.44 us x 3.95: the switch itself */
	/* [PXA255-200] lat_ctx -s 0 2, 190.8 us, same clock, unscaled (XScale, not ARM926:
	 * 32 KiB caches and a D-cache clean by line allocation; docs/hardware.md): every one of
	 * its switches changes the address space, so switch_mm is that less the switch itself,
	 * 190800 - 5690 */
	.switch_mm_ns = 185110,
	.tick_ns = 14160, /* 1417 insns (KPATH) */
	/* ARM's config HZ has no prompt (2.6.25 arch/arm/Kconfig): 100 unless the platform
	 * says otherwise (AT91_TIMER_HZ, 100 on the SAM9 ARM926 parts; 200 for the S3C2410
	 * family, S3C2412 included; 128 for L7200 and OMAP's 32 kHz timer). The board's SoC is
	 * not named: the default. */
	.hz = 100,
	.touch_ns = 15,		     /* [P3-790] L1 $ 3.803 ns x 3.95: a load hitting the cache */
	.syscall_ns = 1740,	     /* lat_syscall null 0.44 us x 3.95 */
	.fault_ns = 15800,	     /* lat_pagefault 4.0 us x 3.95 */
	.anon_fault_ns = 8182,	     /* fault_ns x 406 / 784 insns (KPATH) */
	.pte_fault_ns = 4615,	     /* fault_ns x 229 / 784 insns (KPATH) */
	.swap_fault_ns = 9895,	     /* fault_ns x 491 / 784 insns (KPATH) */
	.swapin_ra_ns = 5784,	     /* fault_ns x 287 / 784 insns (KPATH) */
	.swapin_page_ns = 6207,	     /* fault_ns x 308 / 784 insns (KPATH) */
	.flush_cache_page_ns = 5826, /* 583 insns (KPATH): a VIVT cache */
	.page_zero_ns = 64100,	     /* 4 KiB at bw_mem write 170 MB/s / 2.66 */
	.page_copy_ns = 88600,	     /* 4 KiB at bw_mem bcopy (libc) 123 MB/s / 2.66 */
	.page_alloc_ns = 3218,	     /* 322 insns (KPATH) */
	.page_free_ns = 3687,	     /* 369 insns (KPATH) */
	/* lat_unix less lat_pipe (14 - 8.3 us round trip, two messages): the AF_UNIX message's
	 * cost over a pipe message's, 2.85 us x 3.95 = 11,260 ns, split so that write : read =
	 * 0.5175 : 0.4825 with the syscall and the 100-byte copy (SOCK_SPLIT) */
	.sock_send_ns = 5964,
	.sock_recv_ns = 5296,
	.lru_add_ns = 939,     /* 94 insns (KPATH) */
	.isolate_ns = 660,     /* 66 insns (KPATH) */
	.scan_page_ns = 2428,  /* 243 insns (KPATH) */
	.rmap_pte_ns = 829,    /* 83 insns (KPATH) */
	.copy_pte_ns = 1159,   /* 116 insns (KPATH) */
	.zap_pte_ns = 1069,    /* 107 insns (KPATH) */
	.swap_alloc_ns = 3098, /* 310 insns (KPATH) */
	.io_submit_ns = 9513,  /* 952 insns (KPATH) */
	.fork_ns = 1173000,    /* lat_proc fork+exit 297 us x 3.95 */
	.exec_ns = 3966000,    /* lat_proc fork+execve 1301 us less fork 297, x 3.95 */
	.disk =
	    {
		.capacity_bytes = 1ULL << 30,
		.rpm = 0, /* flash: no seek, no rotation */
		.seek_t2t_ns = 0,
		.seek_full_ns = 0,
		/* [N770-SD] an ARM926 under Linux 2.6 writing an SD card, 2.6 MB/s (2.7 read);
		 * the board's swap device is not stated */
		.bandwidth_Bps = 2600000,
		.request_ns = 1000000, /* [SD-TAAC] a read's access time, 1 ms */
		.max_request_bytes = 64 * 1024,
		.nr_requests = 128,
	    },
    },
    {
	.name = "ia64-2008",
	.layout = LAYOUT_X86_64, /* IA64 has DMA (< 4 GiB) and NORMAL; the model's x86-64 layout
				  * adds a 16 MiB DMA zone below DMA32, otherwise the same split */
	.description = "2008 8-way Itanium 2 server, 64 KiB pages, 8 GB, SCSI disk (KOSAKI "
		       "Motohiro's test box, kernel-reclaim.md §2.2)",
	/* CONFIG_IA64_PAGE_SIZE_64KB. Not stated in the threads; deduced from KOSAKI's OOM
	 * reports on this box ("IA64 x8 CPU, MEM 8GB", hackbench 140, July 2009): isolated
	 * ~49,400 + pagetables ~28,200 + slab ~5,800 + kernel_stack 5,758 tasks + LRU and free
	 * ~600 pages. In 16 KiB pages that is 1.5 GB of 8 GB at OOM time; in 64 KiB pages it
	 * is 5.8 GB, and the pgd/pmd pages NR_PAGETABLE does not count (5 per task, below)
	 * bring it to 7.6 GB. Only 64 KiB pages make the reported OOM possible. */
	.page_size = 65536,
	.cpu_mhz = 1600, /* not stated in the threads; the 1.6 GHz of [IA64-1600], an ia64 box of
			  * the same company (Fujitsu) and year running lmbench */
	.l1_cache_bytes = 128, /* IA64 L1_CACHE_SHIFT 7 */
	/* IA64 kernel image, per-CPU areas, bootmem [estimate]: no 2.6.2x boot log of a
	 * Fujitsu box found; [IA64-BOOT] brackets it */
	.kernel_reserved_kb = 65536,
	.struct_page_bytes = 56, /* sizeof(struct page), 64-bit 2.6.2x */
	.thread_size = 65536, /* IA64: task_struct + stack, KERNEL_STACK_SIZE_ORDER 0 at 64 KiB */
	.dentry_bytes = 208,  /* struct dentry, 2.6.28 64-bit (docs/model.md) */
	.inode_bytes = 568,   /* struct inode, 2.6.28 64-bit (docs/model.md) */
	.sk_buff_bytes = 192, /* sizeof(struct sk_buff), 2.6.25 generic_defconfig: skb_layout.txt */
	.task_objects = &objects_64,
	/* alloc_task_struct: __get_free_pages(KERNEL_STACK_SIZE_ORDER), the task_struct at the
	 * bottom (2.6.25 include/asm-ia64/thread_info.h) */
	.task_struct_in_stack = true,
	.register_backing_store = true, /* IA64_RBS_OFFSET, include/asm-ia64/ptrace.h */
	/* 3 levels, the pgd split per region: the pgd and one pmd page each for region 1
	 * (mmap: ld.so, libc), region 2 (text), the bottom (data, heap) and the top (stack)
	 * of region 3, and the register backing store: 2.6.25 ia64_set_rbs_bot puts it
	 * RLIMIT_STACK's hard limit (unlimited: MAX_USER_STACK_SIZE, half the region) below
	 * the stack, far outside the 4 TiB one pmd page covers at 64 KiB pages */
	.pt_upper_pages = 6,
	/* ia64, 2.6.28: text in region 2, data and brk in region 3, mmaps bottom-up from
	 * DEFAULT_MAP_BASE (region 1); STACK_TOP is region 3 plus RGN_MAP_LIMIT, 2^52 less
	 * a page at 64 KiB pages (asm/processor.h, ustack.h, pgtable.h) */
	.pte_bytes = 8,
	.elf_text_base = 0x4000000000000000,
	.elf_data_base = 0x6000000000000000,
	.mmap_base = 0x2000000000000000,
	.stack_top = 0x600fffffffff0000,
	.timeslice_ns = 4 * NSEC_PER_MSEC, /* CFS sched_min_granularity 4 ms (2.6.25) */
	.quantum_ns = 50 * NSEC_PER_USEC,  /* model knob, as x86_64-2008 [estimate] */
	/* CPU costs: [IA64-1600], the same CPU and clock, Linux 2.6.27, where the figure is of
	 * one process; the two-process latencies of that SMP box include the wakeup of an idle
	 * CPU (its lat_ctx 2p/0K, 11.3 us, exceeds half its pipe round trip, 4.2 us, which
	 * contains a switch), which hackbench's thousands of runnable tasks do not pay, so the
	 * switch itself is [P3-790]'s scaled by the clock ratio 790/1600 = 0.494. */
	.ctxsw_ns = 711, /* [P3-790] lat_ctx 2p/0K 1.44 us x 0.494 */
	.tick_ns = 7979, /* 1417 insns (KPATH) */
	/* [IA64-L1D]: an integer load hitting L1D, 2 cycles at 1600 MHz = 1.25 ns */
	.touch_ns = 1,
	.syscall_ns = 230, /* lat_syscall null I/O 0.23 us (null, getppid, is an fsys fast path) */
	/* 784 insns (KPATH): lmbench 3's lat_pagefault (0.2385 us) times accesses that mostly do
	 * not fault on Linux (docs/hardware.md) */
	.fault_ns = 4415,
	.anon_fault_ns = 2286,	  /* fault_ns x 406 / 784 insns (KPATH) */
	.pte_fault_ns = 1290,	  /* fault_ns x 229 / 784 insns (KPATH) */
	.swap_fault_ns = 2765,	  /* fault_ns x 491 / 784 insns (KPATH) */
	.swapin_ra_ns = 1616,	  /* fault_ns x 287 / 784 insns (KPATH) */
	.swapin_page_ns = 1734,	  /* fault_ns x 308 / 784 insns (KPATH) */
	.flush_cache_page_ns = 0, /* physically indexed caches: empty */
	.page_zero_ns = 125200,	  /* 64 KiB at bw_mem write 523.5 MB/s */
	.page_copy_ns = 119200,	  /* 64 KiB at bw_mem bcopy (libc) 549.6 MB/s */
	.page_alloc_ns = 1813,	  /* 322 insns (KPATH) */
	.page_free_ns = 2078,	  /* 369 insns (KPATH) */
	/* lat_unix less lat_pipe (28.3 - 8.464 us round trip, two messages; the idle wakeup is
	 * in both and cancels): 9.92 us, split so that write : read = 0.5175 : 0.4825 with the
	 * syscall and the 100-byte copy (SOCK_SPLIT) */
	.sock_send_ns = 5148,
	.sock_recv_ns = 4772,
	.lru_add_ns = 529,     /* 94 insns (KPATH) */
	.isolate_ns = 372,     /* 66 insns (KPATH) */
	.scan_page_ns = 1368,  /* 243 insns (KPATH) */
	.rmap_pte_ns = 467,    /* 83 insns (KPATH) */
	.copy_pte_ns = 653,    /* 116 insns (KPATH) */
	.zap_pte_ns = 603,     /* 107 insns (KPATH) */
	.swap_alloc_ns = 1746, /* 310 insns (KPATH) */
	.io_submit_ns = 5361,  /* 952 insns (KPATH) */
	.fork_ns = 227000,     /* lat_proc fork+exit 227 us */
	.exec_ns = 236000,     /* lat_proc fork+execve 463 us less fork 227 */
	.disk =
	    {
		.capacity_bytes = 146ULL << 30,
		.rpm = 10000,		   /* 146 GB 10k rpm SCSI/SAS, data sheet class */
		.seek_t2t_ns = 300000,	   /* data sheet class */
		.seek_full_ns = 10000000,  /* data sheet class */
		.bandwidth_Bps = 80000000, /* data sheet class */
		/* [SAVVIO-10K4] controller overhead, 0.2 ms: access time with it less without
		 * ([IBM-146Z10], the same class in 2003, < 0.4 ms) */
		.request_ns = 200000,
		.max_request_bytes = 512 * 1024, /* max_sectors_kb 512 */
		.nr_requests = 128,
	    },
    },
    {
	.name = "x86_64-2009-nfsroot",
	.layout = LAYOUT_X86_64,
	.description =
	    "2009 x86-64 desktop booted from an NFS root (Wu Fengguang's GNOME test box, "
	    "benchmarks.md §5); files on the NFS server, swap on a local 7200 rpm disk",
	.page_size = 4096,
	.cpu_mhz = 2500,      /* not stated; the x86_64-2008 class [estimate] */
	.l1_cache_bytes = 64, /* x86-64 */
	/* free(1) in the thread shows 474 MB total of 512 MB: 38 MB never reaches the page
	 * allocator; the mem_map (struct_page_bytes per frame, 7 MB) is counted separately */
	.kernel_reserved_kb = 31 * 1024,
	.struct_page_bytes = 56, /* sizeof(struct page), 64-bit 2.6.3x */
	.thread_size = 8192,	 /* THREAD_SIZE, x86-64: order-1 */
	.dentry_bytes = 208,	 /* struct dentry, 2.6.28 64-bit (docs/model.md) */
	.inode_bytes = 568,	 /* struct inode, 2.6.28 64-bit (docs/model.md) */
	.sk_buff_bytes = 192, /* sizeof(struct sk_buff), 2.6.25 x86_64_defconfig: skb_layout.txt */
	.task_objects = &objects_64,
	/* X86_64_PT_UPPER: the pgd, a pud and a pmd page for the low half and the high half */
	.pt_upper_pages = X86_64_PT_UPPER,
	USER_LAYOUT_X86_64,
	.timeslice_ns = 4 * NSEC_PER_MSEC, /* CFS sched_min_granularity 4 ms */
	.quantum_ns = 50 * NSEC_PER_USEC,  /* model knob, as x86_64-2008 [estimate] */
	/* CPU costs: the x86_64-2008 figures (its clock, 2500 MHz, is assumed here too) */
	X86_64_1993_CPU_COSTS(2500)
	    /* An NFS server on a LAN: every request costs a round trip and the server's work,
	     * there is no seek (rpm 0 gives the flat model), and data moves at the wire rate. */
	    .disk =
	    {
		.capacity_bytes = 80ULL << 30, /* [estimate] */
		.rpm = 0,
		.seek_t2t_ns = 0,
		.seek_full_ns = 0,
		.bandwidth_Bps = 100000000, /* gigabit Ethernet, ~100 MB/s of payload [estimate] */
		.request_ns = 300000,	    /* RPC round trip + server page-cache hit [estimate] */
		.max_request_bytes = 32 * 1024, /* NFS rsize/wsize 32 KiB [estimate] */
		.nr_requests = 128,		/* block layer default BLKDEV_MAX_RQ */
	    },
	/* The NFS root's readahead window. nfsroot mounts with rsize NFS_DEF_FILE_IO_SIZE,
	 * 4096, unless nfsroot=...,rsize= says otherwise (fs/nfs/nfsroot.c, root_nfs_name, and
	 * Documentation/filesystems/nfsroot.txt at v2.6.30; the thread states no option), and
	 * nfs_server_set_fsinfo sets ra_pages = rpages * NFS_MAX_READAHEAD, where rpages is 1
	 * and NFS_MAX_READAHEAD is RPC_DEF_SLOT_TABLE - 1 = 15 (fs/nfs/client.c, internal.h) */
	.fs_ra_pages = 15,
	.fs_nfs = true,
	/* The swap is on a disk: 2.6.30 cannot swap to NFS (a swap file needs the
	 * filesystem's bmap, which nfs_file_aops lacks: setup_swap_extents fails, "swapfile
	 * has holes"; mm/swapfile.c, fs/nfs/file.c, fs/inode.c bmap), so the thread's 1 GB
	 * swap is a block device, taken to be the desktop's own 7200 rpm SATA disk. */
	.swap_own_disk = true,
	.swap_disk = &sata_2008_disk,
    },
/* The machine of Mel Gorman's 2011 writeback series (kernel-reclaim.md §5.3). v2's cover letter
 * (21 Jul 2011, <1311265730-5324-1-git-send-email-mgorman@suse.de>): "x86-64 with an older
 * generation of AMD processor with 4 cores", 4 disks in RAID-0, "Swap is on a separate
 * disk"; its reports are of the machine "hydra", which Mel's mmtests reports of July 2012
 * (<20120723211444.GB9222@suse.de>) list as "AMD Phenom II X4 940", 1 socket, 4 threads
 * [HYDRA]. The Phenom II X4 940 runs at 3.0 GHz (AMD's stock clock, as the reviews of the
 * chip give it). v1's reports are of "sandy", which the same mails list as an "Intel Core
 * i7-2600", 1 socket, 8 threads: 3.4 GHz (Intel's base clock); v1 booted it with nr_cpus=1
 * mem=512M and names no disk. Both machines: [X86_64-1993]'s costs scaled to the clock,
 * KPATH for the uncited paths (per-clock differences between cores not in the rule), a
 * 2009-2011 7200 rpm SATA drive class. */
/* clang-format off */
#define AMD_2011_MHZ 3000   /* Phenom II X4 940, hydra [HYDRA] */
#define INTEL_2011_MHZ 3400 /* Core i7-2600, sandy [HYDRA] */
#define X86_64_2011(MHZ)                                                            \
	.layout = LAYOUT_X86_64,                                                    \
	.page_size = 4096,                                                          \
	.cpu_mhz = MHZ,                                                             \
	.l1_cache_bytes = 64,              /* x86-64 */                             \
	.kernel_reserved_kb = 12324,       /* [X86_64-BOOT], as x86_64-2008 */       \
	.struct_page_bytes = 56,           /* sizeof(struct page), 64-bit 2.6.3x-3.0 */ \
	.thread_size = 8192,               /* THREAD_SIZE, x86-64: order-1 */       \
	.dentry_bytes = 192,  /* dcache.h of 2.6.38-3.x: 64-bit DNAME_INLINE_LEN 32, 192 bytes */ \
	.inode_bytes = 568,   /* 2.6.28 64-bit struct inode [estimate for 3.0] */           \
	.sk_buff_bytes = 192, /* 2.6.25 x86_64_defconfig's (skb_layout.txt); no AF_UNIX load */ \
	.task_objects = &objects_64,                                                        \
	.pt_upper_pages = X86_64_PT_UPPER,                                          \
	USER_LAYOUT_X86_64,                                                          \
	.timeslice_ns = 4 * NSEC_PER_MSEC, /* CFS sched_min_granularity */          \
	.quantum_ns = 50 * NSEC_PER_USEC,  /* model knob, as x86_64-2008 [estimate] */ \
	X86_64_1993_CPU_COSTS(MHZ)                                                  \
	.disk = {                                                                   \
		.capacity_bytes = 500ULL << 30,  /* 500 GB, the era's common size */ \
		.rpm = 7200,                     /* data sheet class (Barracuda 7200.12) */ \
		.seek_t2t_ns = 800000,           /* data sheet class */             \
		.seek_full_ns = 17000000,        /* data sheet class */             \
		.bandwidth_Bps = 100000000,      /* data sheet: 125 MB/s outer, ~100 over the platter */ \
		.request_ns = 500000,            /* [HITACHI-7K3000] cache-miss read */ \
		.write_request_ns = 15000,       /* [HITACHI-7K3000] write, not queued */ \
		.max_request_bytes = 512 * 1024, /* max_sectors_kb 512 */           \
		.nr_requests = 128,              /* block layer default BLKDEV_MAX_RQ */ \
	}
    /* clang-format on */
    {
	X86_64_2011(AMD_2011_MHZ),
	.name = "amd-2011",
	.description = "2011 4-core AMD (x86-64, K10 class), one 7200 rpm SATA disk with the swap "
		       "partition on it",
    },
    {
	X86_64_2011(AMD_2011_MHZ), .name = "amd-2011-raid0",
	.description = "2011 4-core AMD (x86-64, K10 class), filesystem on a 4-disk md RAID-0 of "
		       "7200 rpm SATA disks, swap on a separate disk (Mel Gorman's v2 machine)",
	.fs_disks = 4, /* v2 cover letter: "4 disks in RAID-0" */
	.raid_chunk_bytes =
	    512 * 1024,	       /* mdadm >= 3.1 default chunk [estimate: array age unknown] */
	.swap_own_disk = true, /* v2: "swap on a separate disk" */
    },
    {
	X86_64_2011(INTEL_2011_MHZ),
	.name = "intel-2011",
	.description = "2011 Intel Core i7-2600 (x86-64, Sandy Bridge, 3.4 GHz; Mel Gorman's v1 "
		       "machine 'sandy'), one 7200 rpm SATA disk with the swap partition on it",
    },
#undef X86_64_2011
};

const struct hw_profile *hw_profile_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(profiles); i++)
		if (!strcmp(profiles[i].name, name))
			return &profiles[i];
	return NULL;
}

const char *const *hw_profile_names(void)
{
	static const char *names[ARRAY_SIZE(profiles) + 1];
	for (size_t i = 0; i < ARRAY_SIZE(profiles); i++)
		names[i] = profiles[i].name;
	names[ARRAY_SIZE(profiles)] = NULL;
	return names;
}
