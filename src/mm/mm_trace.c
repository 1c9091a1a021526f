/* ftrace's trace_pipe for the reclaim tracepoints of mm_trace.h. */
#include "mm/mm_trace.h"

#include "mm/mm.h"
#include "sim/sched.h"

#include <fnmatch.h>
#include <stdarg.h>
#include <string.h>

bool mm_trace_enabled[NR_MM_TRACE_EVENTS];

#define MM_TRACE_NAME(name) #name,
static const char *const event_names[NR_MM_TRACE_EVENTS] = {MM_TRACE_EVENTS(MM_TRACE_NAME)};
#undef MM_TRACE_NAME

static FILE *trace_out;

static void valid_names(char *err, size_t len, const char *glob)
{
	size_t o =
	    (size_t)snprintf(err, len, "--trace-filter: '%s' matches no event; the events:", glob);
	for (int i = 0; i < NR_MM_TRACE_EVENTS && o < len; i++)
		o += (size_t)snprintf(err + o, len - o, " %s", event_names[i]);
}

int mm_trace_start(FILE *out, const char *filter, char *err, size_t errlen)
{
	bool on[NR_MM_TRACE_EVENTS] = {false};
	char buf[1024];
	snprintf(buf, sizeof(buf), "%s", filter ? filter : "*");
	for (char *save = NULL, *g = strtok_r(buf, ",", &save); g; g = strtok_r(NULL, ",", &save)) {
		bool any = false;
		for (int i = 0; i < NR_MM_TRACE_EVENTS; i++)
			if (!fnmatch(g, event_names[i], 0))
				on[i] = any = true;
		if (!any) {
			valid_names(err, errlen, g);
			return -1;
		}
	}
	trace_out = out;
	memcpy(mm_trace_enabled, on, sizeof(on));
	return 0;
}

void mm_trace_stop(void)
{
	memset(mm_trace_enabled, 0, sizeof(mm_trace_enabled));
	if (trace_out)
		fflush(trace_out);
	trace_out = NULL;
}

void mm_trace_printf(enum mm_trace_event ev, const char *fmt, ...)
{
	sim_time_t now = local_now();
	const char *comm = sim_current ? sim_current->comm : "<idle>";
	int pid = sim_current ? sim_current->pid : 0;
	/* print_trace_fmt of 2.6.36: "%16s-%-5d [%03d] %5lu.%06lu: name: " */
	fprintf(trace_out, "%16s-%-5d [%03d] %5lu.%06lu: %s: ", comm, pid, this_cpu(),
		(unsigned long)(now / 1000000000ULL), (unsigned long)(now % 1000000000ULL / 1000),
		event_names[ev]);
	va_list ap;
	va_start(ap, fmt);
	vfprintf(trace_out, fmt, ap);
	va_end(ap);
	fputc('\n', trace_out);
}

const char *mm_trace_gfp_flags(unsigned gfp, char *buf, size_t len)
{
	/* show_gfp_flags names the composite masks first, then the bits left over */
	static const struct {
		unsigned mask;
		const char *name;
	} names[] = {
	    {GFP_HIGHUSER_MOVABLE, "GFP_HIGHUSER_MOVABLE"},
	    {GFP_KERNEL, "GFP_KERNEL"},
	    {GFP_NOFS, "GFP_NOFS"},
	    {GFP_ATOMIC, "GFP_ATOMIC"},
	    {GFP_NOIO, "GFP_NOIO"},
	    {__GFP_HIGH, "GFP_HIGH"},
	    {__GFP_WAIT, "GFP_WAIT"},
	    {__GFP_IO, "GFP_IO"},
	    {__GFP_FS, "GFP_FS"},
	    {__GFP_HIGHMEM, "GFP_HIGHMEM"},
	    {__GFP_NOFAIL, "GFP_NOFAIL"},
	    {__GFP_NORETRY, "GFP_NORETRY"},
	    {__GFP_REPEAT, "GFP_REPEAT"},
	    {__GFP_NOMEMALLOC, "GFP_NOMEMALLOC"},
	    {__GFP_DMA32, "GFP_DMA32"},
	    {__GFP_DMA, "GFP_DMA"},
	};
	size_t o = 0;
	buf[0] = 0;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]) && o < len; i++)
		if ((gfp & names[i].mask) == names[i].mask) {
			o +=
			    (size_t)snprintf(buf + o, len - o, "%s%s", o ? "|" : "", names[i].name);
			gfp &= ~names[i].mask;
		}
	if (!o)
		snprintf(buf, len, "GFP_NOWAIT");
	return buf;
}
