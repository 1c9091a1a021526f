/* Parameter descriptors (see param.h): lookup, parsing with size and time suffixes and range
 * checks, the "expected" text of an error, and formatting a value back. */
#include "sim/param.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const struct param_desc *param_find(const struct param_desc *table, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(table[i].name, name))
			return &table[i];
	return NULL;
}

void param_expected(const struct param_desc *d, char *buf, size_t len)
{
	switch (d->type) {
	case P_INT:
	case P_U64:
		snprintf(buf, len, "an integer in %" PRId64 "..%" PRId64, d->min, d->max);
		break;
	case P_SIZE:
		snprintf(buf, len,
			 "a size in bytes (suffix k, M or G allowed) in %" PRId64 "..%" PRId64,
			 d->min, d->max);
		break;
	case P_TIME:
		snprintf(buf, len,
			 "a time (suffix ns, us, ms or s; plain numbers are seconds) in "
			 "%" PRId64 "..%" PRId64 " ns",
			 d->min, d->max);
		break;
	case P_BOOL:
		snprintf(buf, len, "a boolean (0/1, yes/no, on/off, true/false)");
		break;
	case P_ENUM: {
		size_t o = (size_t)snprintf(buf, len, "one of:");
		for (int i = 0; d->choices[i] && o < len; i++)
			o += (size_t)snprintf(buf + o, len - o, " %s", d->choices[i]);
		break;
	}
	case P_STRING:
		snprintf(buf, len, "a string of at most %d characters", PARAM_STRING_MAX - 1);
		break;
	}
}

/* Whole-string unsigned decimal; rejects signs, blanks, overflow. */
static bool parse_u64(const char *s, size_t n, uint64_t *out)
{
	if (n == 0 || n > 20)
		return false;
	uint64_t v = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		uint64_t d = (uint64_t)(s[i] - '0');
		if (v > (UINT64_MAX - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*out = v;
	return true;
}

static bool mul_ok(uint64_t a, uint64_t b, uint64_t *out)
{
	if (a && b > UINT64_MAX / a)
		return false;
	*out = a * b;
	return true;
}

static bool parse_suffixed(const char *s, enum param_type t, uint64_t *out)
{
	size_t n = strlen(s);
	size_t digits = 0;
	while (digits < n && s[digits] >= '0' && s[digits] <= '9')
		digits++;
	uint64_t v;
	if (!parse_u64(s, digits, &v))
		return false;
	const char *suf = s + digits;
	uint64_t mult = 1;
	if (t == P_SIZE) {
		if (!*suf)
			mult = 1;
		else if (!strcmp(suf, "k") || !strcmp(suf, "K"))
			mult = 1024;
		else if (!strcmp(suf, "M"))
			mult = 1024 * 1024;
		else if (!strcmp(suf, "G"))
			mult = 1024ULL * 1024 * 1024;
		else
			return false;
	} else {
		if (!*suf || !strcmp(suf, "s"))
			mult = 1000000000ULL;
		else if (!strcmp(suf, "ms"))
			mult = 1000000ULL;
		else if (!strcmp(suf, "us"))
			mult = 1000ULL;
		else if (!strcmp(suf, "ns"))
			mult = 1;
		else
			return false;
	}
	return mul_ok(v, mult, out);
}

int param_parse(const struct param_desc *d, void *base, const char *text, char *err, size_t errlen)
{
	char *field = (char *)base + d->offset;
	char exp[256];
	param_expected(d, exp, sizeof(exp));
	switch (d->type) {
	case P_INT:
	case P_U64: {
		bool neg = text[0] == '-';
		uint64_t v;
		if (!parse_u64(text + neg, strlen(text + neg), &v) || (neg && d->type == P_U64) ||
		    v > (uint64_t)INT64_MAX)
			goto bad;
		int64_t sv = neg ? -(int64_t)v : (int64_t)v;
		if (sv < d->min || sv > d->max)
			goto bad;
		if (d->type == P_INT)
			*(int *)field = (int)sv;
		else
			*(uint64_t *)field = (uint64_t)sv;
		return 0;
	}
	case P_SIZE:
	case P_TIME: {
		uint64_t v;
		if (!parse_suffixed(text, d->type, &v) || v > (uint64_t)INT64_MAX ||
		    (int64_t)v < d->min || (int64_t)v > d->max)
			goto bad;
		*(uint64_t *)field = v;
		return 0;
	}
	case P_BOOL: {
		static const char *yes[] = {"1", "yes", "on", "true"};
		static const char *no[] = {"0", "no", "off", "false"};
		for (int i = 0; i < 4; i++) {
			if (!strcasecmp(text, yes[i])) {
				*(bool *)field = true;
				return 0;
			}
			if (!strcasecmp(text, no[i])) {
				*(bool *)field = false;
				return 0;
			}
		}
		goto bad;
	}
	case P_ENUM:
		for (int i = 0; d->choices[i]; i++) {
			if (!strcmp(text, d->choices[i])) {
				*(int *)field = i;
				return 0;
			}
		}
		goto bad;
	case P_STRING:
		if (strlen(text) >= PARAM_STRING_MAX || !*text)
			goto bad;
		strcpy(field, text);
		return 0;
	}
bad:
	snprintf(err, errlen, "bad value '%.80s' for %s: expected %s", text, d->name, exp);
	return -1;
}

void param_format(const struct param_desc *d, const void *base, char *buf, size_t len)
{
	const char *field = (const char *)base + d->offset;
	switch (d->type) {
	case P_INT:
		snprintf(buf, len, "%d", *(const int *)field);
		break;
	case P_U64:
	case P_SIZE:
		snprintf(buf, len, "%" PRIu64, *(const uint64_t *)field);
		break;
	case P_TIME:
		snprintf(buf, len, "%" PRIu64 "ns", *(const uint64_t *)field);
		break;
	case P_BOOL:
		snprintf(buf, len, "%d", *(const bool *)field ? 1 : 0);
		break;
	case P_ENUM:
		snprintf(buf, len, "%s", d->choices[*(const int *)field]);
		break;
	case P_STRING:
		snprintf(buf, len, "%s", field);
		break;
	}
}
