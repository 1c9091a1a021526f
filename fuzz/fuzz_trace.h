/* Shared body of the trace-reader fuzz targets: read an input as one format (or detected),
 * consume every reference, and check what the reader promises: no crash, an error message
 * after -1, dense ids in first-appearance order. */
#ifndef MMSIM_FUZZ_TRACE_H
#define MMSIM_FUZZ_TRACE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "trace/trace.h"

/* One record may expand to many references (an ARC line, a wide lackey access); stop early
 * so a single input cannot run for minutes. */
#define FUZZ_MAX_REFS 20000

static inline int fuzz_trace(const uint8_t *data, size_t size, enum trace_format fmt)
{
	char err[1024];
	struct trace_opts o = {.format = fmt};
	struct trace *t = trace_open_mem(data, size, "fuzz", &o, err, sizeof(err));
	if (!t) {
		if (!err[0])
			abort();
		return 0;
	}
	struct trace_ref r;
	uint32_t next_new = 0;
	long k = 0;
	if (size & 1) {
		/* odd sizes go through the batched reader, which has its own fast path */
		uint32_t ids[64];
		uint8_t kinds[64];
		while (trace_count(t) < FUZZ_MAX_REFS &&
		       (k = trace_next_batch(t, ids, kinds, 64)) > 0)
			for (long i = 0; i < k; i++) {
				if (ids[i] > next_new || kinds[i] > TRACE_EXEC)
					abort();
				if (ids[i] == next_new)
					next_new++;
			}
	} else {
		while (trace_count(t) < FUZZ_MAX_REFS && (k = trace_next(t, &r)) > 0) {
			if (r.id > next_new || r.kind > TRACE_EXEC ||
			    trace_page_of(t, r.id) != r.page)
				abort();
			if (r.id == next_new)
				next_new++;
		}
	}
	if (trace_distinct(t) != next_new)
		abort();
	if (k < 0 && !trace_error(t)[0])
		abort();
	trace_close(t);
	return 0;
}

#endif
