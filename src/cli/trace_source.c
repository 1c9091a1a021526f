/* The trace workload's reference source: the readers of src/trace behind the ref_source hooks
 * of workloads/refsource.h, so the simulation core links no trace format. */
#include "cli/trace_source.h"

#include "trace/trace.h"
#include "workloads/refsource.h"

static long next(void *ctx, uint32_t *ids, uint8_t *kinds, size_t max)
{
	return trace_next_batch(ctx, ids, kinds, max);
}

static const char *error(void *ctx)
{
	return trace_error(ctx);
}

static void close_trace(void *ctx)
{
	trace_close(ctx);
}

static int open_trace(const char *path, struct ref_source *src, char *err, size_t errlen)
{
	struct trace *t = trace_open(path, NULL, err, errlen);
	if (!t)
		return -1;
	src->ctx = t;
	src->next = next;
	src->error = error;
	src->close = close_trace;
	return 0;
}

void trace_source_register(void)
{
	ref_source_open = open_trace;
}
