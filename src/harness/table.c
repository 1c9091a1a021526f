/* Text tables: cells set by row and column, printed aligned for a terminal or as HTML. */
#include "harness/table.h"
#include "sim/xalloc.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

struct table *table_new(const char *title, size_t ncols, size_t label_cols)
{
	struct table *t = xcalloc(1, sizeof(*t));
	t->title = xstrdup(title ? title : "");
	t->ncols = ncols;
	t->label_cols = label_cols;
	return t;
}

size_t table_add_row(struct table *t, enum row_kind kind)
{
	enum row_kind *k = xrealloc(t->kind, (t->nrows + 1) * sizeof(*k));
	char **c = xrealloc(t->cells, (t->nrows + 1) * t->ncols * sizeof(*c));
	t->kind = k;
	t->cells = c;
	t->kind[t->nrows] = kind;
	memset(&t->cells[t->nrows * t->ncols], 0, t->ncols * sizeof(*c));
	return t->nrows++;
}

static char *vfmt(const char *fmt, va_list ap)
{
	char *s = NULL;
	if (vasprintf(&s, fmt, ap) < 0)
		abort();
	return s;
}

void table_set(struct table *t, size_t row, size_t col, const char *fmt, ...)
{
	if (row >= t->nrows || col >= t->ncols)
		return;
	va_list ap;
	va_start(ap, fmt);
	char **cell = &t->cells[row * t->ncols + col];
	free(*cell);
	*cell = vfmt(fmt, ap);
	va_end(ap);
}

void table_set_note(struct table *t, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	free(t->note);
	t->note = vfmt(fmt, ap);
	va_end(ap);
}

const char *table_get(const struct table *t, size_t row, size_t col)
{
	const char *c = t->cells[row * t->ncols + col];
	return c ? c : "";
}

void table_free(struct table *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nrows * t->ncols; i++)
		free(t->cells[i]);
	free(t->cells);
	free(t->kind);
	free(t->title);
	free(t->note);
	free(t);
}

void table_print_text(FILE *out, const struct table *t)
{
	size_t *w = xcalloc(t->ncols, sizeof(*w)), total = 0;
	for (size_t r = 0; r < t->nrows; r++)
		for (size_t c = 0; c < t->ncols; c++) {
			size_t len = strlen(table_get(t, r, c));
			if (len > w[c])
				w[c] = len;
		}
	for (size_t c = 0; c < t->ncols; c++)
		total += w[c] + (c ? 3 : 0);
	if (*t->title)
		fprintf(out, "%s\n\n", t->title);
	for (size_t r = 0; r < t->nrows; r++) {
		if (t->kind[r] == ROW_RULE) {
			for (size_t i = 0; i < total; i++)
				fputc('-', out);
			fputc('\n', out);
			continue;
		}
		/* Trailing blanks are trimmed so the output diffs cleanly. */
		char *line = xmalloc(total + 1), *p = line;
		for (size_t c = 0; c < t->ncols; c++) {
			const char *s = table_get(t, r, c);
			int left = c < t->label_cols;
			p += sprintf(p, c ? "   " : "");
			p += sprintf(p, left ? "%-*s" : "%*s", (int)w[c], s);
		}
		while (p > line && p[-1] == ' ')
			p--;
		*p = 0;
		fprintf(out, "%s\n", line);
		free(line);
	}
	if (t->note)
		fprintf(out, "%s\n", t->note);
	fputc('\n', out);
	free(w);
}

void html_escape(FILE *out, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '<':
			fputs("&lt;", out);
			break;
		case '>':
			fputs("&gt;", out);
			break;
		case '&':
			fputs("&amp;", out);
			break;
		case '"':
			fputs("&quot;", out);
			break;
		default:
			fputc(*s, out);
		}
	}
}

void table_print_html(FILE *out, const struct table *t)
{
	if (*t->title) {
		fputs("<h3>", out);
		html_escape(out, t->title);
		fputs("</h3>\n", out);
	}
	fputs("<table>\n", out);
	for (size_t r = 0; r < t->nrows; r++) {
		if (t->kind[r] == ROW_RULE)
			continue;
		const char *tag = t->kind[r] == ROW_HEADER ? "th" : "td";
		fputs("<tr>", out);
		for (size_t c = 0; c < t->ncols; c++) {
			fprintf(out, "<%s class=\"%s\">", tag, c < t->label_cols ? "l" : "n");
			html_escape(out, table_get(t, r, c));
			fprintf(out, "</%s>", tag);
		}
		fputs("</tr>\n", out);
	}
	fputs("</table>\n", out);
	if (t->note) {
		fputs("<p class=\"note\">", out);
		html_escape(out, t->note);
		fputs("</p>\n", out);
	}
}
