/* The linear scans of the OPT priority stack (opt_stack.h) over contiguous 32-bit words: first
 * word above a value, first word equal to one, first step that is not an increase. Each returns
 * an index into the piece it is given (len when there is none). With SSE2 (every x86-64) four
 * words are compared per instruction and sixteen tested per branch, unsigned order coming from
 * signed compares of words with the top bit flipped; with AVX2 (opt_mrc_avx2.c) the search
 * for a larger word compares eight and tests thirty-two; elsewhere plain loops give the same
 * answers. */
#ifndef MMSIM_REPLAY_OPT_SCAN_H
#define MMSIM_REPLAY_OPT_SCAN_H

#include <stdint.h>
#include <string.h>

/* The arrays scanned are padded with OPT_PAD readable words before and after, so that the
 * vector loops read whole sixteen- or thirty-two-word pieces and mask off what lies outside the
 * range instead of finishing word by word. */
#define OPT_PAD 32u

#if defined(__AVX2__)
#include <immintrin.h>
#elif defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__SSE2__)

static inline __m128i opt_load_flip(const uint32_t *p)
{
	return _mm_xor_si128(_mm_loadu_si128((const __m128i *)(const void *)p),
			     _mm_set1_epi32(INT32_MIN));
}

/* One bit per word of four all-ones-or-zero compare results, in order. */
static inline unsigned opt_mask16(__m128i a, __m128i b, __m128i c, __m128i d)
{
	return (unsigned)_mm_movemask_epi8(
	    _mm_packs_epi16(_mm_packs_epi32(a, b), _mm_packs_epi32(c, d)));
}

/* Bits j with p[j] > w (w flipped). */
static inline unsigned opt_gt16(const uint32_t *p, __m128i w)
{
	return opt_mask16(
	    _mm_cmpgt_epi32(opt_load_flip(p), w), _mm_cmpgt_epi32(opt_load_flip(p + 4), w),
	    _mm_cmpgt_epi32(opt_load_flip(p + 8), w), _mm_cmpgt_epi32(opt_load_flip(p + 12), w));
}

/* The low n bits (n >= 1). */
static inline unsigned opt_low(uint32_t n)
{
	return n >= 16 ? 0xffffu : (1u << n) - 1;
}
#endif

/* memmove of k >= 1 words between ranges one word apart (a shift by one), in padded arrays.
 * Up to sixteen words go as four loads and four stores of four words, the words past k stored
 * back as they were read (all are read before any is written): cheaper than a call. */
static inline void opt_shift_words(uint32_t *dst, const uint32_t *src, uint32_t k)
{
#if defined(__SSE2__)
	if (k <= 16) {
		__m128i s0 = _mm_loadu_si128((const __m128i *)(const void *)src),
			s1 = _mm_loadu_si128((const __m128i *)(const void *)(src + 4)),
			s2 = _mm_loadu_si128((const __m128i *)(const void *)(src + 8)),
			s3 = _mm_loadu_si128((const __m128i *)(const void *)(src + 12)),
			d0 = _mm_loadu_si128((const __m128i *)(const void *)dst),
			d1 = _mm_loadu_si128((const __m128i *)(const void *)(dst + 4)),
			d2 = _mm_loadu_si128((const __m128i *)(const void *)(dst + 8)),
			d3 = _mm_loadu_si128((const __m128i *)(const void *)(dst + 12));
		const __m128i kk = _mm_set1_epi32((int32_t)k), four = _mm_set1_epi32(4);
		__m128i lane = _mm_setr_epi32(0, 1, 2, 3), m;
		m = _mm_cmpgt_epi32(kk, lane);
		d0 = _mm_or_si128(_mm_and_si128(m, s0), _mm_andnot_si128(m, d0));
		lane = _mm_add_epi32(lane, four);
		m = _mm_cmpgt_epi32(kk, lane);
		d1 = _mm_or_si128(_mm_and_si128(m, s1), _mm_andnot_si128(m, d1));
		lane = _mm_add_epi32(lane, four);
		m = _mm_cmpgt_epi32(kk, lane);
		d2 = _mm_or_si128(_mm_and_si128(m, s2), _mm_andnot_si128(m, d2));
		lane = _mm_add_epi32(lane, four);
		m = _mm_cmpgt_epi32(kk, lane);
		d3 = _mm_or_si128(_mm_and_si128(m, s3), _mm_andnot_si128(m, d3));
		_mm_storeu_si128((__m128i *)(void *)dst, d0);
		_mm_storeu_si128((__m128i *)(void *)(dst + 4), d1);
		_mm_storeu_si128((__m128i *)(void *)(dst + 8), d2);
		_mm_storeu_si128((__m128i *)(void *)(dst + 12), d3);
		return;
	}
#endif
	memmove(dst, src, (size_t)k * sizeof(*dst));
}

/* First j < len with p[j] > v. */
static inline uint32_t opt_first_gt(const uint32_t *p, uint32_t len, uint32_t v)
{
#if defined(__AVX2__)
	/* eight words a compare, thirty-two a branch (sixteen a branch were 1.05 times the CPU) */
	const __m256i w = _mm256_set1_epi32((int32_t)(v ^ 0x80000000u)),
		      flip = _mm256_set1_epi32(INT32_MIN);
	for (uint32_t j = 0; j < len; j += 32) {
		uint64_t m = 0;
		for (unsigned k = 0; k < 32; k += 8) {
			__m256i x = _mm256_xor_si256(
			    _mm256_loadu_si256((const __m256i *)(const void *)(p + j + k)), flip);
			m |= (uint64_t)(unsigned)_mm256_movemask_ps(
				 _mm256_castsi256_ps(_mm256_cmpgt_epi32(x, w)))
			     << k;
		}
		if (len - j < 32)
			m &= (1ull << (len - j)) - 1;
		if (m)
			return j + (uint32_t)__builtin_ctzll(m);
	}
	return len;
#elif defined(__SSE2__)
	const __m128i w = _mm_set1_epi32((int32_t)(v ^ 0x80000000u));
	for (uint32_t j = 0; j < len; j += 16) {
		unsigned m = opt_gt16(p + j, w) & opt_low(len - j);
		if (m)
			return j + (uint32_t)__builtin_ctz(m);
	}
	return len;
#else
	for (uint32_t j = 0; j < len; j++)
		if (p[j] > v)
			return j;
	return len;
#endif
}

/* First j < len with p[j] == x. */
static inline uint32_t opt_find_eq(const uint32_t *p, uint32_t len, uint32_t x)
{
#if defined(__SSE2__)
	const __m128i w = _mm_set1_epi32((int32_t)x);
	for (uint32_t j = 0; j < len; j += 16) {
		const __m128i *q = (const __m128i *)(const void *)(p + j);
		unsigned m = opt_mask16(_mm_cmpeq_epi32(_mm_loadu_si128(q), w),
					_mm_cmpeq_epi32(_mm_loadu_si128(q + 1), w),
					_mm_cmpeq_epi32(_mm_loadu_si128(q + 2), w),
					_mm_cmpeq_epi32(_mm_loadu_si128(q + 3), w)) &
			     opt_low(len - j);
		if (m)
			return j + (uint32_t)__builtin_ctz(m);
	}
	return len;
#else
	for (uint32_t j = 0; j < len; j++)
		if (p[j] == x)
			return j;
	return len;
#endif
}

/* First j in 1..len-1 with p[j] <= p[j - 1] (len >= 1). */
static inline uint32_t opt_first_descent(const uint32_t *p, uint32_t len)
{
#if defined(__SSE2__)
	for (uint32_t j = 1; j < len; j += 16) {
		/* a bit is set where the word is above the one before it */
		const uint32_t *q = p + j;
		unsigned up =
		    opt_mask16(_mm_cmpgt_epi32(opt_load_flip(q), opt_load_flip(q - 1)),
			       _mm_cmpgt_epi32(opt_load_flip(q + 4), opt_load_flip(q + 3)),
			       _mm_cmpgt_epi32(opt_load_flip(q + 8), opt_load_flip(q + 7)),
			       _mm_cmpgt_epi32(opt_load_flip(q + 12), opt_load_flip(q + 11)));
		unsigned down = ~up & opt_low(len - j);
		if (down)
			return j + (uint32_t)__builtin_ctz(down);
	}
	return len;
#else
	for (uint32_t j = 1; j < len; j++)
		if (p[j] <= p[j - 1])
			return j;
	return len;
#endif
}

#endif
