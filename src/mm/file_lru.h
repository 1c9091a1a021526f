/* Lists of files (the dentry LRU, inode_unused): add at the head, take from the tail, as
 * the kernel's list_add and list_entry(head->prev). The links live in the file, one pair
 * per list, found by their offset in struct address_space. */
#ifndef MMSIM_FS_FILE_LRU_H
#define MMSIM_FS_FILE_LRU_H

#include "mm/mm.h"

#include <stddef.h>

struct file_lru {
	struct address_space *head, *tail;
	size_t link; /* offsetof(struct address_space, <its struct file_link>) */
};

static inline struct file_link *file_link(const struct file_lru *l, struct address_space *f)
{
	return (struct file_link *)((char *)f + l->link);
}

static inline void file_lru_add_head(struct file_lru *l, struct address_space *f)
{
	struct file_link *k = file_link(l, f);
	k->prev = NULL;
	k->next = l->head;
	if (l->head)
		file_link(l, l->head)->prev = f;
	else
		l->tail = f;
	l->head = f;
	k->on = true;
}

static inline void file_lru_add_tail(struct file_lru *l, struct address_space *f)
{
	struct file_link *k = file_link(l, f);
	k->next = NULL;
	k->prev = l->tail;
	if (l->tail)
		file_link(l, l->tail)->next = f;
	else
		l->head = f;
	l->tail = f;
	k->on = true;
}

static inline void file_lru_del(struct file_lru *l, struct address_space *f)
{
	struct file_link *k = file_link(l, f);
	if (k->prev)
		file_link(l, k->prev)->next = k->next;
	else
		l->head = k->next;
	if (k->next)
		file_link(l, k->next)->prev = k->prev;
	else
		l->tail = k->prev;
	k->next = k->prev = NULL;
	k->on = false;
}

/* list_splice(from, to): every file of `from`, in its order, ahead of `to`'s head. */
static inline void file_lru_splice_head(struct file_lru *from, struct file_lru *to)
{
	if (!from->head)
		return;
	file_link(to, from->tail)->next = to->head;
	if (to->head)
		file_link(to, to->head)->prev = from->tail;
	else
		to->tail = from->tail;
	to->head = from->head;
	from->head = from->tail = NULL;
}

#endif
