/* Host memory per simulated object: what one frame, task, VMA and replayed page cost the
 * simulator, from the structures' sizes and the allocations made per object.
 *
 *   bench_memory [TRACE ...]
 *
 * System mode: sizeof of each structure plus the arrays allocated with it (a VMA's PTE array and
 * the index of each PTE's rmap entry are 4 bytes per page each, its page-table-page array 4 bytes
 * per 512 pages; a mapped page costs an rmap entry per PTE). Replay: for each TRACE, the
 * page-number -> id map's bytes and the LRU replay's per-id arrays divided by the distinct pages,
 * after reading the whole trace. */
#include "kernel/process.h"
#include "mm/mm_types.h"
#include "mm/task.h"
#include "replay/replay.h"
#include "trace/trace.h"

#include <stdio.h>

static void replay_bytes(const char *path)
{
	char err[1024];
	struct trace *t = trace_open(path, NULL, err, sizeof(err));
	if (!t) {
		fprintf(stderr, "%s\n", err);
		return;
	}
	enum { B = 4096 };
	static uint32_t ids[B];
	struct replay_sim *s = replay_sim_new(REPLAY_LRU, 1024, NULL);
	long k;
	while ((k = trace_next_batch(t, ids, NULL, B)) > 0)
		for (long i = 0; i < k; i++)
			replay_sim_access(s, ids[i], 0, REPLAY_NEVER);
	if (k < 0)
		fprintf(stderr, "%s\n", trace_error(t));
	double nd = trace_distinct(t) ? (double)trace_distinct(t) : 1;
	printf("replay %-44s %9u distinct pages: id map %5.1f, lru replay %5.1f bytes per page\n",
	       path, trace_distinct(t), (double)trace_map_bytes(t) / nd,
	       (double)replay_sim_bytes(s) / nd);
	replay_sim_free(s);
	trace_close(t);
}

int main(int argc, char **argv)
{
	printf("frame: struct page %zu bytes; each PTE mapping it adds an rmap entry of %zu\n",
	       sizeof(struct page), sizeof(struct rmap_item));
	printf("task: struct task_struct %zu (the core's struct task %zu in it) + struct process "
	       "%zu bytes, plus its coroutine stack (address space reserved per task, resident as "
	       "far as it is touched)\n",
	       sizeof(struct task_struct), sizeof(struct task), sizeof(struct process));
	printf("mm: struct mm_struct %zu bytes per address space\n", sizeof(struct mm_struct));
	printf("vma: struct vm_area_struct %zu bytes + %zu per page (PTE and its rmap entry's "
	       "index) + %zu per 512 pages (page-table page) + %zu in the VMA table\n",
	       sizeof(struct vm_area_struct), 2 * sizeof(uint32_t), sizeof(pfn_t),
	       sizeof(struct vm_area_struct *));
	printf("file: struct address_space %zu bytes + %zu per page of capacity (page cache "
	       "index)\n",
	       sizeof(struct address_space), sizeof(pfn_t));
	for (int i = 1; i < argc; i++)
		replay_bytes(argv[i]);
	return 0;
}
