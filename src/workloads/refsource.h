/* A stream of page references for the trace workload. The simulation core reads no file
 * formats (it depends on libc only): whoever links a trace reader installs ref_source_open
 * (the command line does, from src/trace), and the workload pulls references through it. */
#ifndef MMSIM_WORKLOADS_REFSOURCE_H
#define MMSIM_WORKLOADS_REFSOURCE_H

#include <stddef.h>
#include <stdint.h>

enum ref_kind { REF_READ = 0, REF_WRITE = 1, REF_EXEC = 2 };

struct ref_source {
	void *ctx;
	/* Up to max references: dense page ids (0, 1, 2... in order of first appearance) and
	 * kinds. Returns how many, 0 at the end, -1 on an error. */
	long (*next)(void *ctx, uint32_t *ids, uint8_t *kinds, size_t max);
	const char *(*error)(void *ctx);
	void (*close)(void *ctx);
};

/* Opens path as a reference stream; 0, or -1 with a message in err. NULL until installed. */
extern int (*ref_source_open)(const char *path, struct ref_source *src, char *err, size_t errlen);

#endif
