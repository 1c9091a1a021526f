/* A table of text cells, printed aligned for a terminal or as HTML. */
#ifndef MMSIM_HARNESS_TABLE_H
#define MMSIM_HARNESS_TABLE_H

#include <stddef.h>
#include <stdio.h>

enum row_kind { ROW_DATA, ROW_HEADER, ROW_RULE };

struct table {
	char *title;
	char *note; /* printed under the table, may be NULL */
	size_t ncols;
	size_t label_cols; /* leading columns that are left-aligned labels */
	size_t nrows;
	enum row_kind *kind;
	char **cells; /* nrows * ncols, NULL is empty */
};

struct table *table_new(const char *title, size_t ncols, size_t label_cols);
size_t table_add_row(struct table *t, enum row_kind kind);
void table_set(struct table *t, size_t row, size_t col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void table_set_note(struct table *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
const char *table_get(const struct table *t, size_t row, size_t col);
void table_free(struct table *t);

void table_print_text(FILE *out, const struct table *t);
void table_print_html(FILE *out, const struct table *t);
/* HTML-escapes s into out. */
void html_escape(FILE *out, const char *s);

#endif
