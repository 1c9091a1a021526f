/* The /proc/vmstat counters, listed once in the kernel's print order (vmstat_text[] in
 * mm/vmstat.c, 2.6.28; kernel-reclaim.md §1.20). Each entry names its enum constant and its
 * /proc/vmstat name; the kind of entry says where the value lives:
 *   S(ID, name)  zone gauge (zone->stat[], summed over zones when printed)
 *   Z(ID, name)  per-zone event (zone->event[], printed as name_<zone> for each zone)
 *   E(ID, name)  machine-wide event (vm_events[])
 * The enums, the names, the /proc/vmstat dump (and from it the run's text report, its JSON
 * and the harness's tables) are all generated from this list.
 *
 * All zone gauges come first, as in the kernel, and the four evictable LRU lists follow
 * NR_FREE_PAGES in enum lru_list order, so NR_LRU_BASE + lru is the list's counter. */
#ifndef MMSIM_MM_VMSTAT_ITEMS_H
#define MMSIM_MM_VMSTAT_ITEMS_H

#define VMSTAT_ITEMS(S, Z, E)                                                                      \
	S(NR_FREE_PAGES, "nr_free_pages")                                                          \
	S(NR_INACTIVE_ANON, "nr_inactive_anon")                                                    \
	S(NR_ACTIVE_ANON, "nr_active_anon")                                                        \
	S(NR_INACTIVE_FILE, "nr_inactive_file")                                                    \
	S(NR_ACTIVE_FILE, "nr_active_file")                                                        \
	S(NR_UNEVICTABLE, "nr_unevictable")                                                        \
	S(NR_MLOCK, "nr_mlock")                                                                    \
	S(NR_ANON_PAGES, "nr_anon_pages")                                                          \
	S(NR_FILE_MAPPED, "nr_mapped")                                                             \
	S(NR_FILE_PAGES, "nr_file_pages")                                                          \
	S(NR_FILE_DIRTY, "nr_dirty")                                                               \
	S(NR_WRITEBACK, "nr_writeback")                                                            \
	S(NR_SLAB_RECLAIMABLE, "nr_slab_reclaimable")                                              \
	S(NR_SLAB_UNRECLAIMABLE, "nr_slab_unreclaimable")                                          \
	S(NR_PAGETABLE, "nr_page_table_pages")                                                     \
	S(NR_KERNEL_STACK, "nr_kernel_stack")                                                      \
	S(NR_UNSTABLE_NFS, "nr_unstable")                                                          \
	S(NR_BOUNCE, "nr_bounce")                                                                  \
	S(NR_VMSCAN_WRITE, "nr_vmscan_write")                                                      \
	/* 2011 writeback series v1: dirty file pages reclaim did not write */                     \
	S(NR_VMSCAN_WRITE_SKIP, "nr_vmscan_write_skip")                                            \
	/* v3: ...and marked for immediate reclaim */                                              \
	S(NR_VMSCAN_IMMEDIATE, "nr_vmscan_immediate_reclaim")                                      \
	/* v1: reclaimers throttled on writeback */                                                \
	S(NR_VMSCAN_THROTTLED, "nr_vmscan_throttled")                                              \
	S(NR_WRITEBACK_TEMP, "nr_writeback_temp")                                                  \
	S(NR_ISOLATED_ANON, "nr_isolated_anon")                                                    \
	S(NR_ISOLATED_FILE, "nr_isolated_file")                                                    \
	/* mmsim extra: page cache pages of files mapped VM_EXEC (program text, libraries) */      \
	S(MMSIM_NR_EXEC_FILE, "mmsim_nr_exec_file")                                                \
	E(PGPGIN, "pgpgin")                                                                        \
	E(PGPGOUT, "pgpgout")                                                                      \
	E(PSWPIN, "pswpin")                                                                        \
	E(PSWPOUT, "pswpout")                                                                      \
	Z(PGALLOC, "pgalloc")                                                                      \
	E(PGFREE, "pgfree")                                                                        \
	E(PGACTIVATE, "pgactivate")                                                                \
	E(PGDEACTIVATE, "pgdeactivate")                                                            \
	E(PGFAULT, "pgfault")                                                                      \
	E(PGMAJFAULT, "pgmajfault")                                                                \
	Z(PGREFILL, "pgrefill")                                                                    \
	Z(PGSTEAL, "pgsteal")                                                                      \
	Z(PGSCAN_KSWAPD, "pgscan_kswapd")                                                          \
	Z(PGSCAN_DIRECT, "pgscan_direct")                                                          \
	E(PGINODESTEAL, "pginodesteal")                                                            \
	E(SLABS_SCANNED, "slabs_scanned")                                                          \
	E(KSWAPD_STEAL, "kswapd_steal")                                                            \
	E(KSWAPD_INODESTEAL, "kswapd_inodesteal")                                                  \
	E(PAGEOUTRUN, "pageoutrun")                                                                \
	E(ALLOCSTALL, "allocstall")                                                                \
	E(PGROTATED, "pgrotated")                                                                  \
	E(UNEVICTABLE_PGCULLED, "unevictable_pgs_culled")                                          \
	E(UNEVICTABLE_PGSCANNED, "unevictable_pgs_scanned")                                        \
	E(UNEVICTABLE_PGRESCUED, "unevictable_pgs_rescued")                                        \
	/* later kernels' names, counted for comparisons across eras */                            \
	E(PGSTEAL_DIRECT, "pgsteal_direct")                                                        \
	E(PGSTEAL_KSWAPD, "pgsteal_kswapd")                                                        \
	/* mmsim extras (mmtests derives them from tracepoints): file pages reclaim wrote */       \
	E(MMSIM_KSWAPD_FILE_WRITES, "mmsim_kswapd_file_writes")                                    \
	E(MMSIM_DIRECT_FILE_WRITES, "mmsim_direct_file_writes")                                    \
	/* pages lumpy reclaim took as neighbours of a tag page (isolate_lru_pages, order > 0) */  \
	E(MMSIM_LUMPY_TAKEN, "mmsim_lumpy_taken")                                                  \
	/* major faults by what they faulted: a VM_EXEC file mapping, another file mapping, a  */  \
	/* swapped-out anonymous page (docs/exec-protect.md, "Where the faults come from") */      \
	E(MMSIM_MAJFAULT_EXEC, "mmsim_majfault_exec")                                              \
	E(MMSIM_MAJFAULT_FILE, "mmsim_majfault_file")                                              \
	E(MMSIM_MAJFAULT_ANON, "mmsim_majfault_anon")                                              \
	/* shrink_active_list on exec-file pages: kept active by VM_EXEC protection, */            \
	/* deactivated although referenced through a VM_EXEC mapping, deactivated unreferenced */  \
	E(MMSIM_EXEC_KEPT_ACTIVE, "mmsim_exec_kept_active")                                        \
	E(MMSIM_EXEC_DEACT_REFERENCED, "mmsim_exec_deact_referenced")                              \
	E(MMSIM_EXEC_DEACT_UNREFERENCED, "mmsim_exec_deact_unreferenced")                          \
	/* pages reclaim freed, by kind (anon: a swap-cache page) */                               \
	E(MMSIM_EVICT_EXEC, "mmsim_evict_exec")                                                    \
	E(MMSIM_EVICT_FILE, "mmsim_evict_file")                                                    \
	E(MMSIM_EVICT_ANON, "mmsim_evict_anon")                                                    \
	/* ...of which file pages no task had faulted on since they were read (read-around) */     \
	E(MMSIM_EVICT_EXEC_UNFAULTED, "mmsim_evict_exec_unfaulted")                                \
	E(MMSIM_EVICT_FILE_UNFAULTED, "mmsim_evict_file_unfaulted")                                \
	/* file pages read in again after reclaim evicted them (by fault or read-around) */        \
	E(MMSIM_REFAULT_EXEC, "mmsim_refault_exec")                                                \
	E(MMSIM_REFAULT_FILE, "mmsim_refault_file")                                                \
	/* distinct file pages ever read in: the file footprint (exec, other) */                   \
	E(MMSIM_LOADED_EXEC, "mmsim_loaded_exec")                                                  \
	E(MMSIM_LOADED_FILE, "mmsim_loaded_file")                                                  \
	/* major faults on a file page reclaim had evicted (exec, other) */                        \
	E(MMSIM_MAJFAULT_EXEC_REFAULT, "mmsim_majfault_exec_refault")                              \
	E(MMSIM_MAJFAULT_FILE_REFAULT, "mmsim_majfault_file_refault")                              \
	/* the anon/file balance: pages shrink_inactive_list scanned and shrink_active_list */     \
	/* took, by type; get_scan_ratio's calls and the sum of its anon percent */                \
	E(MMSIM_PGSCAN_ANON, "mmsim_pgscan_anon")                                                  \
	E(MMSIM_PGSCAN_FILE, "mmsim_pgscan_file")                                                  \
	E(MMSIM_PGREFILL_ANON, "mmsim_pgrefill_anon")                                              \
	E(MMSIM_PGREFILL_FILE, "mmsim_pgrefill_file")                                              \
	E(MMSIM_SCAN_RATIO_CALLS, "mmsim_scan_ratio_calls")                                        \
	E(MMSIM_SCAN_RATIO_ANON_SUM, "mmsim_scan_ratio_anon_sum")

/* Expanders for the entry kinds an expansion ignores. */
#define VMSTAT_IGNORE(id, name)

#endif
