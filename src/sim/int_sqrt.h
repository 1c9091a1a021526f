/* Integer square root, floor(sqrt(x)), as the kernel's lib/int_sqrt.c computes it: the
 * watermark, inactive-ratio and OOM-badness rules are defined in these integer terms. */
#ifndef MMSIM_SIM_INT_SQRT_H
#define MMSIM_SIM_INT_SQRT_H

#include <stdint.h>

uint64_t int_sqrt(uint64_t x);

#endif
