/* Fuzz target: the oracle trace reader. */
#include "fuzz_trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_trace(data, size, TRACE_FMT_ORACLE);
}
