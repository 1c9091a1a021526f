/* The queue of requests a desktop process serves (desktop_queue.h): first in, first out
 * across its growth, each request numbered as posted, `done` counting those served. */
#include "workloads/desktop_queue.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

static void desktop_queue_is_fifo_with_sequence_numbers(void **state)
{
	(void)state;
	struct desktop_queue q = {0};
	struct desktop_request r;
	assert_false(desktop_queue_head(&q, &r));
	int next = 0; /* the next window number expected at the head */
	for (int i = 0; i < 5; i++)
		assert_int_equal(desktop_queue_post(&q, 1, i), (uint64_t)i + 1);
	for (int i = 0; i < 3; i++, next++) { /* the head moves: the next posts wrap */
		assert_true(desktop_queue_head(&q, &r));
		assert_int_equal(r.window, next);
		desktop_queue_done(&q);
	}
	for (int i = 5; i < 40; i++) /* grows from 8 while wrapped, twice */
		assert_int_equal(desktop_queue_post(&q, 2, i), (uint64_t)i + 1);
	assert_int_equal(q.n, 37);
	assert_int_equal(q.done, 3);
	for (; desktop_queue_head(&q, &r); next++) {
		assert_int_equal(r.window, next);
		assert_int_equal(r.req, next < 5 ? 1 : 2);
		desktop_queue_done(&q);
	}
	assert_int_equal(next, 40);
	assert_int_equal(q.done, q.posted);
	desktop_queue_done(&q); /* nothing to drop: no change */
	assert_int_equal(q.done, 40);
	desktop_queue_free(&q);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(desktop_queue_is_fifo_with_sequence_numbers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
