/* Wu Fengguang's "make mapped executable pages the first class citizen" (2.6.31;
 * kernel-reclaim.md §3), as the switch vm.reclaim_exec_protect: shrink_active_list keeps a
 * referenced, mapped, file-backed page of a VM_EXEC mapping on the active list for one more
 * trip instead of deactivating it. Anonymous VM_EXEC pages are not protected (a JVM makes
 * many). Every referenced page still counts as rotated, as in the patch, so get_scan_ratio
 * sees the same balance. */
#include "mm/vmscan.h"

static bool keep_exec_active(pfn_t pfn, unsigned long vm_flags, int file)
{
	(void)pfn;
	return file && (vm_flags & VM_EXEC);
}

void exec_protect_setup(void)
{
	reclaim_hooks.keep_active = MM->sysctl.reclaim_exec_protect ? keep_exec_active : NULL;
}
