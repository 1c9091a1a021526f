/* libCacheSim's one-pass LRU miss-ratio profiler (get_lru_obj_miss_ratio, a splay tree of
 * stack distances) on a trace in one of libCacheSim's formats: oracleGeneral (its fastest reader)
 * when the name says so, else txt (one numeric object id per line).
 *
 *   lru_profile TRACE MAX_SIZE [SIZE ...]
 *
 * Prints the miss count at each SIZE, to check against `mmsim mrc`. Built by bench/compare.sh
 * against a libCacheSim build (see bench/README.md); not part of mmsim's build. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libCacheSim.h"

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: lru_profile TRACE MAX_SIZE [SIZE ...]\n");
		return 2;
	}
	reader_init_param_t p = {.obj_id_is_num = true};
	int oracle = strstr(argv[1], "oracleGeneral") != NULL;
	reader_t *r = open_trace(argv[1], oracle ? ORACLE_GENERAL_TRACE : PLAIN_TXT_TRACE, &p);
	long max = atol(argv[2]);
	double n = (double)get_num_of_req(r);
	double *mr = get_lru_obj_miss_ratio(r, max);
	for (int i = 3; i < argc; i++) {
		long s = atol(argv[i]);
		if (s >= 0 && s <= max)
			printf("%ld %.0f\n", s, mr[s] * n);
	}
	g_free(mr);
	close_trace(r);
	return 0;
}
