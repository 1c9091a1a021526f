#include "workloads/desktop_queue.h"

#include "sim/xalloc.h"

#include <stdlib.h>

uint64_t desktop_queue_post(struct desktop_queue *q, int req, int window)
{
	if (q->n == q->cap) {
		uint32_t cap = q->cap ? q->cap * 2 : 8;
		struct desktop_request *items = xcalloc(cap, sizeof(*items));
		for (uint32_t i = 0; i < q->n; i++)
			items[i] = q->items[(q->head + i) % q->cap];
		free(q->items);
		q->items = items;
		q->cap = cap;
		q->head = 0;
	}
	q->items[(q->head + q->n) % q->cap] = (struct desktop_request){req, window};
	q->n++;
	return ++q->posted;
}

bool desktop_queue_head(const struct desktop_queue *q, struct desktop_request *out)
{
	if (!q->n)
		return false;
	*out = q->items[q->head];
	return true;
}

void desktop_queue_done(struct desktop_queue *q)
{
	if (!q->n)
		return;
	q->head = (q->head + 1) % q->cap;
	q->n--;
	q->done++;
}

void desktop_queue_free(struct desktop_queue *q)
{
	free(q->items);
	*q = (struct desktop_queue){0};
}
