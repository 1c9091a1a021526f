/* Kernel version strings as scenarios state them ("2.6.25-rc1", "2.6.25-mm1", "3.0-rc",
 * "2.6.8-rc2"), and the era that stands for a version. A release candidate or -mm tree of
 * release X counts as X: the patches merged for X are in its -rc1 already. */
#include "mm/era/era.h"

#include "mm/policy/policy.h"

#include <stdio.h>
#include <string.h>

static bool parse_number(const char **s, unsigned *out)
{
	const char *p = *s;
	unsigned v = 0;
	if (*p < '0' || *p > '9')
		return false;
	while (*p >= '0' && *p <= '9' && v < 1000)
		v = v * 10 + (unsigned)(*p++ - '0');
	if (v >= 256)
		return false;
	*s = p;
	*out = v;
	return true;
}

int kernel_version_parse(const char *text, kernel_version_t *out)
{
	const char *s = text;
	unsigned a, b, c = 0;
	if (!parse_number(&s, &a) || *s++ != '.' || !parse_number(&s, &b))
		return -1;
	if (*s == '.') {
		s++;
		if (!parse_number(&s, &c))
			return -1;
	} else if (a == 2) {
		return -1; /* 2.6 needs its third number; 3.0 has none */
	}
	if (*s == '-') { /* -rcN, -rc, -mmN, -gitN: a tree in X's cycle */
		s++;
		if (strncmp(s, "rc", 2) && strncmp(s, "mm", 2) && strncmp(s, "git", 3))
			return -1;
		s += s[0] == 'g' ? 3 : 2;
		while (*s >= '0' && *s <= '9')
			s++;
	}
	if (*s || a < 2 || (a == 2 && b != 6))
		return -1;
	*out = KERNEL_VERSION(a, b, c);
	return 0;
}

const struct kernel_era *kernel_era_for(kernel_version_t v)
{
	const struct kernel_era *best = NULL, *next = NULL;
	for (const struct kernel_era *const *e = kernel_eras; *e; e++) {
		if ((*e)->since > v) {
			if (!next || (*e)->since < next->since)
				next = *e;
		} else if (!best || (*e)->since > best->since) {
			best = *e;
		}
	}
	if (best && (!best->until || v < best->until))
		return best;
	return next ? next : best; /* no era stands for v: the next one after it */
}

void kernel_version_defaults(kernel_version_t v, struct vm_sysctl *s)
{
	kernel_era_for(v)->defaults(s, v);
	mm_policies_mainline(s, v);
}
