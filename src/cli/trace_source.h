/* Installs the trace readers of src/trace as the trace workload's reference source. */
#ifndef MMSIM_CLI_TRACE_SOURCE_H
#define MMSIM_CLI_TRACE_SOURCE_H

void trace_source_register(void);

#endif
