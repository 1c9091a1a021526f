/* Parameter descriptors: a table of named, typed, range-checked settings stored at an
 * offset in a struct. Scenario files, --set overrides and the JSON "config" block all go
 * through these tables, so every setting has one name, one type and one range. */
#ifndef MMSIM_SIM_PARAM_H
#define MMSIM_SIM_PARAM_H

#include <stddef.h>
#include <stdint.h>

enum param_type {
	P_INT,	  /* int, decimal */
	P_U64,	  /* uint64_t, decimal */
	P_SIZE,	  /* uint64_t bytes; accepts suffixes k, M, G (powers of 1024) */
	P_TIME,	  /* uint64_t ns; accepts suffixes ns, us, ms, s */
	P_BOOL,	  /* bool: 0/1, yes/no, on/off, true/false */
	P_ENUM,	  /* int index into choices */
	P_STRING, /* char[64] */
};

struct param_desc {
	const char *name;
	enum param_type type;
	size_t offset;
	int64_t min, max; /* inclusive range for numbers (sizes and times in base units) */
	const char *const *choices; /* P_ENUM: NULL-terminated */
	const char *help;
};

#define PARAM_STRING_MAX 256

/* Parses text into the field; on error returns -1 and writes a message naming what was
 * expected into err. */
int param_parse(const struct param_desc *d, void *base, const char *text, char *err, size_t errlen);
/* Formats the field's current value (canonical form) into buf. */
void param_format(const struct param_desc *d, const void *base, char *buf, size_t len);
/* Describes the accepted values, e.g. "an integer in 0..100". */
void param_expected(const struct param_desc *d, char *buf, size_t len);
const struct param_desc *param_find(const struct param_desc *table, size_t n, const char *name);

#endif
