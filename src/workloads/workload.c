/* The table of workloads a scenario's `workload` key names, and the figures of merit they
 * report. */
#include "workloads/workload.h"

#include "workloads/desktop.h"
#include "workloads/contest.h"
#include "workloads/filestream.h"
#include "workloads/fsmark.h"
#include "workloads/hackbench.h"
#include "workloads/kbuild.h"
#include "workloads/mapstream.h"
#include "workloads/iotrace.h"
#include "workloads/qsbench.h"
#include "workloads/tracereplay.h"
#include "workloads/usemem.h"

#include <stdarg.h>
#include <string.h>

static const struct workload *const all[] = {
    &usemem_workload,	 &filestream_workload, &hackbench_workload, &fsmark_workload,
    &mapstream_workload, &desktop_workload,    &iotrace_workload,   &qsbench_workload,
    &kbuild_workload,	 &contest_workload,    &trace_workload,	    NULL,
};

const struct workload *workload_find(const char *name)
{
	for (int i = 0; all[i]; i++)
		if (!strcmp(all[i]->name, name))
			return all[i];
	return NULL;
}

const struct workload *const *workload_all(void)
{
	return all;
}

void result_add_metric(struct workload_result *r, const char *name, double value, const char *unit,
		       bool higher_is_better, bool primary)
{
	if (r->nmetrics >= MAX_METRICS)
		return;
	struct metric *m = &r->metrics[r->nmetrics++];
	snprintf(m->name, sizeof(m->name), "%s", name);
	m->value = value;
	m->unit = unit;
	m->higher_is_better = higher_is_better;
	m->primary = primary;
}

void result_printf(struct workload_result *r, const char *fmt, ...)
{
	size_t used = strlen(r->text);
	if (used + 1 >= sizeof(r->text))
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->text + used, sizeof(r->text) - used, fmt, ap);
	va_end(ap);
}
