/* Deterministic pseudo-random numbers: xoshiro256** seeded through splitmix64.
 * One generator per source of randomness, so adding a consumer never shifts another's stream. */
#ifndef MMSIM_SIM_RNG_H
#define MMSIM_SIM_RNG_H

#include <stdint.h>

struct rng {
	uint64_t s[4];
};

void rng_seed(struct rng *r, uint64_t seed, uint64_t stream);
uint64_t rng_next(struct rng *r);
/* Uniform in [0, bound) without modulo bias; bound > 0. */
uint64_t rng_below(struct rng *r, uint64_t bound);

#endif
