/* Integer square root, floor(sqrt(x)), as the kernel's lib/int_sqrt.c computes it: the
 * kernel's rules that use it (in the layers above) are defined by its integer answers. */
#ifndef MMSIM_SIM_INT_SQRT_H
#define MMSIM_SIM_INT_SQRT_H

#include <stdint.h>

uint64_t int_sqrt(uint64_t x);

#endif
