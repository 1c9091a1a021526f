/* Large-array allocation (sim/xalloc.h): zeroed blocks on both sides of the 1 MiB line, with
 * and without the fixed mapping threshold, 2 MiB alignment from 1 MiB on, and contents kept
 * through growth across the line and back. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sim/xalloc.h"

#define MIB ((size_t)1 << 20)

static int all_zero(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return 0;
	return 1;
}

/* Allocate, dirty and free blocks of each size, then check that new ones come back zero. */
static void check_zeroed_after_reuse(void)
{
	const size_t sizes[] = {100, 256 * 1024, MIB - 1, MIB, 3 * MIB + 123, 8 * MIB};
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		for (int round = 0; round < 3; round++) {
			unsigned char *p = xbig_alloc(sizes[k]);
			assert_true(all_zero(p, sizes[k]));
			if (sizes[k] >= MIB)
				assert_int_equal((uintptr_t)p % (2 * MIB), 0);
			memset(p, 0xab, sizes[k]);
			free(p);
		}
	}
}

static void test_zeroed_without_init(void **state)
{
	(void)state;
	check_zeroed_after_reuse();
}

static void test_zeroed_with_init(void **state)
{
	(void)state;
	xalloc_init();
	check_zeroed_after_reuse();
}

static void test_realloc_keeps_contents(void **state)
{
	(void)state;
	size_t sizes[] = {4096, 512 * 1024, 3 * MIB, 9 * MIB, 20 * MIB, 700 * 1024};
	uint32_t *p = NULL;
	size_t have = 0; /* words written so far, all i -> i * 2654435761 */
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		size_t words = sizes[k] / sizeof(uint32_t);
		p = xbig_realloc(p, sizes[k]);
		if (sizes[k] >= MIB)
			assert_int_equal((uintptr_t)p % (2 * MIB), 0);
		size_t keep = have < words ? have : words;
		for (size_t i = 0; i < keep; i++)
			assert_int_equal(p[i], (uint32_t)(i * 2654435761u));
		for (size_t i = keep; i < words; i++)
			p[i] = (uint32_t)(i * 2654435761u);
		have = words;
	}
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_zeroed_without_init),
	    cmocka_unit_test(test_zeroed_with_init),
	    cmocka_unit_test(test_realloc_keeps_contents),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
