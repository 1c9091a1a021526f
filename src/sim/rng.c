/* xoshiro256** (Blackman and Vigna) seeded through splitmix64; one stream per (seed, consumer). */
#include "sim/rng.h"

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void rng_seed(struct rng *r, uint64_t seed, uint64_t stream)
{
	uint64_t x = seed ^ (stream * 0xd1b54a32d192ed03ULL);
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&x);
}

static inline uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t rng_next(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

uint64_t rng_below(struct rng *r, uint64_t bound)
{
	/* Lemire's multiply-shift with rejection of the biased low range. */
	uint64_t x = rng_next(r);
	__uint128_t m = (__uint128_t)x * bound;
	uint64_t l = (uint64_t)m;
	if (l < bound) {
		uint64_t t = -bound % bound;
		while (l < t) {
			x = rng_next(r);
			m = (__uint128_t)x * bound;
			l = (uint64_t)m;
		}
	}
	return (uint64_t)(m >> 64);
}
