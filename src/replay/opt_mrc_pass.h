/* The instances of the blocked OPT stack (opt_stack.h) for each block size, and the pass that
 * picks one, under names ending in OPT_VARIANT: opt_mrc.c includes this with the scans of
 * the baseline instruction set, opt_mrc_avx2.c with AVX2 ones (opt_scan.h). Both give the
 * same curve. */
#include "replay/ops.h"

#define OPT_CAT3_(a, b, c) a##b##c
#define OPT_CAT3(a, b, c)  OPT_CAT3_(a, b, c)

#define OPT_BLOCK 128u
#define OPT(name) OPT_CAT3(name, _b128_, OPT_VARIANT)
#include "replay/opt_stack.h"
#undef OPT
#undef OPT_BLOCK
#define OPT_BLOCK 512u
#define OPT(name) OPT_CAT3(name, _b512_, OPT_VARIANT)
#include "replay/opt_stack.h"
#undef OPT
#undef OPT_BLOCK

int OPT_CAT3(opt_pass, _, OPT_VARIANT)(const uint32_t *ids, const uint32_t *next, uint64_t n,
				       uint32_t nd, struct mrc *out, uint64_t check_every,
				       unsigned block)
{
	switch (block) {
	case 512:
		return OPT_CAT3(pass, _b512_, OPT_VARIANT)(ids, next, n, nd, out, check_every);
	default:
		return OPT_CAT3(pass, _b128_, OPT_VARIANT)(ids, next, n, nd, out, check_every);
	}
}
