/* The page cache index (mm/page_index.h): sparse chunks, allocated on the first store or
 * shadow write of their range, lookups that never allocate, and walks that step over the
 * chunks never used; a file of 2^26 pages costs a pointer per chunk until it is used. */
#include "mm/page_index.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

static uint64_t chunks_used(const struct address_space *f)
{
	uint64_t n = 0;
	for (uint64_t k = 0; k < (f->cap_pages + PAGE_INDEX_CHUNK - 1) / PAGE_INDEX_CHUNK; k++)
		n += f->index[k] != NULL;
	return n;
}

static void page_index_is_sparse(void **state)
{
	(void)state;
	struct address_space f = {.cap_pages = 1ull << 26};
	page_index_init(&f, f.cap_pages);
	assert_int_equal(chunks_used(&f), 0);
	/* lookups and removals of absent pages allocate nothing */
	assert_int_equal(page_index_lookup(&f, 12345), NO_PFN);
	assert_int_equal(page_index_shadow(&f, 12345), 0);
	page_index_store(&f, 12345, NO_PFN);
	assert_int_equal(chunks_used(&f), 0);
	assert_int_equal(page_index_next(&f, 0), f.cap_pages);
	/* a store allocates its chunk, and only it */
	uint64_t a = 3 * PAGE_INDEX_CHUNK + 7, b = (1ull << 26) - 1;
	page_index_store(&f, a, 42);
	assert_int_equal(chunks_used(&f), 1);
	assert_int_equal(page_index_lookup(&f, a), 42);
	assert_int_equal(page_index_lookup(&f, a + 1), NO_PFN);
	assert_int_equal(page_index_lookup(&f, a - 7 + PAGE_INDEX_CHUNK), NO_PFN);
	/* a shadow write allocates too, and the slot stays where it is */
	uint8_t *sh = page_index_shadow_slot(&f, b);
	*sh = 0x3;
	assert_int_equal(chunks_used(&f), 2);
	page_index_store(&f, b - 1, 7);
	assert_ptr_equal(page_index_shadow_slot(&f, b), sh);
	assert_int_equal(page_index_shadow(&f, b), 0x3);
	assert_int_equal(page_index_shadow(&f, b - 1), 0);
	/* the walk: the first offset of each used chunk, every offset inside it, then the end */
	assert_int_equal(page_index_next(&f, 0), 3 * PAGE_INDEX_CHUNK);
	assert_int_equal(page_index_next(&f, a), a);
	assert_int_equal(page_index_next(&f, 4 * PAGE_INDEX_CHUNK),
			 (1ull << 26) - PAGE_INDEX_CHUNK);
	assert_int_equal(page_index_next(&f, b), b);
	assert_int_equal(page_index_next(&f, b + 1), f.cap_pages);
	/* removing the page leaves the chunk (its shadow bits outlive it) */
	page_index_store(&f, a, NO_PFN);
	assert_int_equal(page_index_lookup(&f, a), NO_PFN);
	assert_int_equal(chunks_used(&f), 2);
	page_index_free(&f);
	assert_null(f.index);
}

/* A size that is not a whole number of chunks: the last chunk covers the tail. */
static void page_index_tail_chunk(void **state)
{
	(void)state;
	struct address_space f = {.cap_pages = PAGE_INDEX_CHUNK + 3};
	page_index_init(&f, f.cap_pages);
	page_index_store(&f, PAGE_INDEX_CHUNK + 2, 9);
	assert_int_equal(page_index_next(&f, 0), PAGE_INDEX_CHUNK);
	assert_int_equal(page_index_lookup(&f, PAGE_INDEX_CHUNK + 2), 9);
	assert_int_equal(page_index_next(&f, PAGE_INDEX_CHUNK + 3), f.cap_pages);
	page_index_free(&f);
	struct address_space empty = {.cap_pages = 0};
	page_index_init(&empty, 0);
	assert_int_equal(page_index_next(&empty, 0), 0);
	page_index_free(&empty);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(page_index_is_sparse),
	    cmocka_unit_test(page_index_tail_chunk),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
