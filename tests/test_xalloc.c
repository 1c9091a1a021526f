/* Large-array allocation (sim/xalloc.h): zeroed blocks on both sides of the XBIG_MAPPED_MIN
 * line, each a 2 MiB-aligned mapping from there on (but under AddressSanitizer, where all come
 * from malloc),
 * contents kept through growth across the line, by moving a mapping, and back. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sim/xalloc.h"

#define MIB ((size_t)1 << 20)

#if defined(__SANITIZE_ADDRESS__)
#define MAPPED 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MAPPED 0
#endif
#endif
#if !defined(MAPPED) && defined(__linux__)
#define MAPPED 1
#elif !defined(MAPPED)
#define MAPPED 0
#endif

static int all_zero(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return 0;
	return 1;
}

/* A mapped block's data starts 64 bytes (its header) into a 2 MiB-aligned mapping. */
static void check_placed(const void *p, size_t size)
{
	assert_int_equal((uintptr_t)p % 16, 0);
	if (MAPPED && size >= XBIG_MAPPED_MIN)
		assert_int_equal(((uintptr_t)p - 64) % (2 * MIB), 0);
}

static void test_zeroed_after_reuse(void **state)
{
	(void)state;
	const size_t sizes[] = {1,	    100, XBIG_MAPPED_MIN - 1, XBIG_MAPPED_MIN,
				256 * 1024, MIB, 3 * MIB + 123,	      8 * MIB};
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		for (int round = 0; round < 3; round++) {
			unsigned char *p = xbig_alloc(sizes[k]);
			check_placed(p, sizes[k]);
			assert_true(all_zero(p, sizes[k]));
			memset(p, 0xab, sizes[k]);
			xbig_free(p);
		}
	}
	xbig_free(NULL);
}

static void test_realloc_keeps_contents(void **state)
{
	(void)state;
	size_t sizes[] = {4096,	     XBIG_MAPPED_MIN - 8, 512 * 1024, 3 * MIB,
			  9 * MIB,   9 * MIB + 5,	  20 * MIB,   4 * MIB,
			  700 * 1024};
	uint32_t *p = NULL;
	size_t have = 0; /* words written so far, all i -> i * 2654435761 */
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		size_t words = sizes[k] / sizeof(uint32_t);
		p = xbig_realloc(p, sizes[k]);
		check_placed(p, sizes[k]);
		size_t keep = have < words ? have : words;
		for (size_t i = 0; i < keep; i++)
			assert_int_equal(p[i], (uint32_t)(i * 2654435761u));
		for (size_t i = keep; i < words; i++)
			p[i] = (uint32_t)(i * 2654435761u);
		have = words;
	}
	xbig_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_zeroed_after_reuse),
	    cmocka_unit_test(test_realloc_keeps_contents),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
