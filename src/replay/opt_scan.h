/* The linear scans of the OPT priority stack (opt_stack.h) over contiguous 32-bit words: first
 * word above a value, first word equal to one, first step that is not an increase. Each returns
 * an index into the piece it is given (len when there is none). With SSE2 (every x86-64) four
 * words are compared per instruction and sixteen tested per branch, unsigned order coming from
 * signed compares of words with the top bit flipped; elsewhere plain loops give the same
 * answers. */
#ifndef MMSIM_REPLAY_OPT_SCAN_H
#define MMSIM_REPLAY_OPT_SCAN_H

#include <stdint.h>

#if defined(__SSE2__)
#include <emmintrin.h>

static inline __m128i opt_load_flip(const uint32_t *p)
{
	return _mm_xor_si128(_mm_loadu_si128((const __m128i *)(const void *)p),
			     _mm_set1_epi32(INT32_MIN));
}

static inline unsigned opt_mask4(__m128i m)
{
	return (unsigned)_mm_movemask_ps(_mm_castsi128_ps(m));
}
#endif

/* First j < len with p[j] > v. */
static inline uint32_t opt_first_gt(const uint32_t *p, uint32_t len, uint32_t v)
{
	uint32_t j = 0;
#if defined(__SSE2__)
	const __m128i w = _mm_set1_epi32((int32_t)(v ^ 0x80000000u));
	for (; j + 16 <= len; j += 16) {
		__m128i a = _mm_cmpgt_epi32(opt_load_flip(p + j), w),
			b = _mm_cmpgt_epi32(opt_load_flip(p + j + 4), w),
			c = _mm_cmpgt_epi32(opt_load_flip(p + j + 8), w),
			d = _mm_cmpgt_epi32(opt_load_flip(p + j + 12), w);
		if (_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(a, b), _mm_or_si128(c, d))))
			return j + (uint32_t)__builtin_ctz(opt_mask4(a) | opt_mask4(b) << 4 |
							   opt_mask4(c) << 8 | opt_mask4(d) << 12);
	}
	for (; j + 4 <= len; j += 4) {
		unsigned m = opt_mask4(_mm_cmpgt_epi32(opt_load_flip(p + j), w));
		if (m)
			return j + (uint32_t)__builtin_ctz(m);
	}
#endif
	for (; j < len; j++)
		if (p[j] > v)
			return j;
	return len;
}

/* First j < len with p[j] == x. */
static inline uint32_t opt_find_eq(const uint32_t *p, uint32_t len, uint32_t x)
{
	uint32_t j = 0;
#if defined(__SSE2__)
	const __m128i w = _mm_set1_epi32((int32_t)x);
	for (; j + 16 <= len; j += 16) {
		const __m128i *q = (const __m128i *)(const void *)(p + j);
		__m128i a = _mm_cmpeq_epi32(_mm_loadu_si128(q), w),
			b = _mm_cmpeq_epi32(_mm_loadu_si128(q + 1), w),
			c = _mm_cmpeq_epi32(_mm_loadu_si128(q + 2), w),
			d = _mm_cmpeq_epi32(_mm_loadu_si128(q + 3), w);
		if (_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(a, b), _mm_or_si128(c, d))))
			return j + (uint32_t)__builtin_ctz(opt_mask4(a) | opt_mask4(b) << 4 |
							   opt_mask4(c) << 8 | opt_mask4(d) << 12);
	}
#endif
	for (; j < len; j++)
		if (p[j] == x)
			return j;
	return len;
}

/* First j in 1..len-1 with p[j] <= p[j - 1] (len >= 1). */
static inline uint32_t opt_first_descent(const uint32_t *p, uint32_t len)
{
	uint32_t j = 1;
#if defined(__SSE2__)
	for (; j + 8 <= len; j += 8) {
		/* a lane is set where the word is above the one before it */
		unsigned m =
		    opt_mask4(_mm_cmpgt_epi32(opt_load_flip(p + j), opt_load_flip(p + j - 1))) |
		    opt_mask4(_mm_cmpgt_epi32(opt_load_flip(p + j + 4), opt_load_flip(p + j + 3)))
			<< 4;
		if (m != 0xff)
			return j + (uint32_t)__builtin_ctz(~m);
	}
#endif
	for (; j < len; j++)
		if (p[j] <= p[j - 1])
			return j;
	return len;
}

#endif
