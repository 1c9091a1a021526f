/* int_sqrt as lib/int_sqrt.c computes it: the bit-by-bit method, floor(sqrt(x)). */
#include "sim/int_sqrt.h"

uint64_t int_sqrt(uint64_t x)
{
	uint64_t r = 0, bit = 1ULL << 62;
	while (bit > x)
		bit >>= 2;
	while (bit) {
		if (x >= r + bit) {
			x -= r + bit;
			r = (r >> 1) + bit;
		} else {
			r >>= 1;
		}
		bit >>= 2;
	}
	return r;
}
