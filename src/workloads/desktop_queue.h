/* desktop_queue: the requests waiting for one desktop process (a program's X event queue,
 * as the model sees it). First in, first out; every request posted gets a sequence number,
 * and `done` counts the requests served, so a poster that waits for its own request waits
 * until `done` reaches its number. Growing the queue allocates; serving does not. */
#ifndef MMSIM_WORKLOADS_DESKTOP_QUEUE_H
#define MMSIM_WORKLOADS_DESKTOP_QUEUE_H

#include <stdbool.h>
#include <stdint.h>

struct desktop_request {
	int req;    /* what to do (desktop.c's enum dreq) */
	int window; /* which window it is about, or -1 */
};

struct desktop_queue {
	struct desktop_request *items;
	uint32_t cap, head, n;
	uint64_t posted; /* requests ever posted: the last one's sequence number */
	uint64_t done;	 /* requests served */
};

/* Appends a request; returns its sequence number (1 for the first). */
uint64_t desktop_queue_post(struct desktop_queue *q, int req, int window);
/* The oldest request not yet served; false if there is none. */
bool desktop_queue_head(const struct desktop_queue *q, struct desktop_request *out);
/* The oldest request has been served: drop it and count it done. */
void desktop_queue_done(struct desktop_queue *q);
void desktop_queue_free(struct desktop_queue *q);

#endif
