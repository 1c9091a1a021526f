/* filestream: streaming reads or writes of files larger than memory, with optional
 * re-reads of a hot part (a file server's index, a database's hot table). */
#ifndef MMSIM_WORKLOADS_FILESTREAM_H
#define MMSIM_WORKLOADS_FILESTREAM_H

#include "sim/types.h"

enum filestream_mode { FILESTREAM_READ, FILESTREAM_WRITE };

struct filestream_params {
	int processes; /* each streams its own file */
	uint64_t size; /* bytes per file */
	int mode;      /* enum filestream_mode */
	int passes;
	uint64_t chunk;	       /* bytes per read()/write() call */
	uint64_t hot_size;     /* bytes at the start of the file re-read... */
	uint64_t hot_every;    /* ...after every this many bytes streamed (0 = never) */
	bool fsync;	       /* fsync after writing */
	uint64_t per_chunk_ns; /* user work per chunk */
};

extern const struct workload filestream_workload;

#endif
