/* Scenario files and --set overrides (see scenario_file.h): each line is parsed through the
 * scenario's parameter table, and an error names the file and line. */
#include "cli/scenario_file.h"
#include "sim/xalloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *trim(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	size_t n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		s[--n] = 0;
	return s;
}

/* Sets key to value, with a suggestion when the key is close to a known one. A scenario
 * file (in_file) may not set the command-line-only keys. */
static int set_key(struct scenario_config *cfg, const char *key, const char *value,
		   const char *where, int line, int *seen, char *err, size_t errlen)
{
	bool in_file = line > 0;
	size_t n;
	const struct param_desc *table = scenario_params(&n);
	const struct param_desc *d = param_find(table, n, key);
	if (!d) {
		const char *near = NULL;
		const char *dot = strrchr(key, '.');
		for (size_t i = 0; i < n && dot; i++) {
			const char *tdot = strrchr(table[i].name, '.');
			if (tdot && !strcmp(tdot, dot))
				near = table[i].name;
		}
		snprintf(err, errlen,
			 "%s: unknown key '%.100s'%s%s%s (mmsim run --keys lists them all)", where,
			 key, near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
		return -1;
	}
	if (in_file && scenario_key_is_override_only(key)) {
		snprintf(err, errlen,
			 "%s: '%.100s' may not be set in a scenario file: costs come from "
			 "machine.profile (use --set or --vary for a sensitivity study)",
			 where, key);
		return -1;
	}
	size_t idx = (size_t)(d - table);
	if (seen && seen[idx]) {
		/* the later line would silently win: say which two lines disagree */
		snprintf(err, errlen, "%s: '%.100s' is set twice: first at line %d, again here",
			 where, key, seen[idx]);
		return -1;
	}
	char msg[512];
	if (scenario_set(cfg, d, value, msg, sizeof(msg)) != 0) {
		snprintf(err, errlen, "%s: %s", where, msg);
		return -1;
	}
	cfg->origin[idx] = line;
	if (seen)
		seen[idx] = line;
	return 0;
}

const char *scenario_key_origin(const struct scenario_config *cfg, const char *key, int *line)
{
	size_t n;
	const struct param_desc *table = scenario_params(&n);
	const struct param_desc *d = key ? param_find(table, n, key) : NULL;
	*line = d ? cfg->origin[d - table] : 0;
	return d ? d->name : NULL;
}

int scenario_parse_text(struct scenario_config *cfg, const char *text, size_t len,
			const char *origin, char *err, size_t errlen)
{
	size_t pos = 0;
	int lineno = 0;
	char line[1024];
	int seen[SCENARIO_MAX_KEYS] = {0}; /* the line that set each key in this text */
	/* A UTF-8 byte order mark, as some editors write, is not part of the first key. */
	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3))
		pos = 3;
	while (pos < len) {
		/* Lines end in LF, CR LF or a lone CR (classic Mac OS): each one line. */
		size_t end = pos;
		while (end < len && text[end] != '\n' && text[end] != '\r')
			end++;
		lineno++;
		size_t l = end - pos;
		char where[600];
		snprintf(where, sizeof(where), "%s:%d", origin, lineno);
		if (l >= sizeof(line)) {
			snprintf(err, errlen, "%s: line longer than %zu characters", where,
				 sizeof(line) - 1);
			return -1;
		}
		memcpy(line, text + pos, l);
		line[l] = 0;
		pos = end + 1 + (end + 1 < len && text[end] == '\r' && text[end + 1] == '\n');
		if (memchr(line, 0, l)) {
			snprintf(err, errlen, "%s: NUL byte in a text file", where);
			return -1;
		}
		char *hash = strchr(line, '#');
		if (hash)
			*hash = 0;
		char *s = trim(line);
		if (!*s)
			continue;
		char *eq = strchr(s, '=');
		if (!eq) {
			snprintf(err, errlen, "%s: expected 'key = value', got '%.100s'", where, s);
			return -1;
		}
		*eq = 0;
		char *key = trim(s), *value = trim(eq + 1);
		if (!*key) {
			snprintf(err, errlen, "%s: expected a key before '='", where);
			return -1;
		}
		if (!*value) {
			snprintf(err, errlen, "%s: expected a value after '%.100s ='", where, key);
			return -1;
		}
		if (set_key(cfg, key, value, where, lineno, seen, err, errlen) != 0)
			return -1;
	}
	return 0;
}

int scenario_load_file(struct scenario_config *cfg, const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		snprintf(err, errlen, "%s:0: cannot open scenario file: %s", path, strerror(errno));
		return -1;
	}
	size_t cap = 4096, len = 0;
	char *buf = xmalloc(cap);
	size_t got;
	while ((got = fread(buf + len, 1, cap - len, f)) > 0) {
		len += got;
		if (len == cap) {
			if (cap >= (1u << 24)) {
				snprintf(err, errlen, "%s:0: scenario file larger than 16 MiB",
					 path);
				free(buf);
				fclose(f);
				return -1;
			}
			cap *= 2;
			buf = xrealloc(buf, cap);
		}
	}
	bool ioerr = ferror(f);
	fclose(f);
	if (ioerr) {
		snprintf(err, errlen, "%s:0: read error", path);
		free(buf);
		return -1;
	}
	int r = scenario_parse_text(cfg, buf, len, path, err, errlen);
	free(buf);
	return r;
}

int scenario_apply_override(struct scenario_config *cfg, const char *kv, const char *origin,
			    char *err, size_t errlen)
{
	const char *eq = strchr(kv, '=');
	if (!eq || eq == kv) {
		snprintf(err, errlen, "%s: expected key=value, got '%.100s'", origin, kv);
		return -1;
	}
	char key[256], value[512];
	size_t kl = (size_t)(eq - kv);
	if (kl >= sizeof(key) || strlen(eq + 1) >= sizeof(value)) {
		snprintf(err, errlen, "%s: override too long", origin);
		return -1;
	}
	memcpy(key, kv, kl);
	key[kl] = 0;
	strcpy(value, eq + 1);
	return set_key(cfg, trim(key), trim(value), origin, -1, NULL, err, errlen);
}

void scenario_override_canonical(const char *kv, char *out, size_t outlen)
{
	char buf[1024];
	snprintf(buf, sizeof(buf), "%s", kv);
	char *eq = strchr(buf, '=');
	if (!eq) {
		snprintf(out, outlen, "%s", trim(buf));
		return;
	}
	*eq = 0;
	char *key = trim(buf), *value = trim(eq + 1);
	snprintf(out, outlen, "%s=%s", key, value);
}

int scenario_check(const struct scenario_config *cfg, const char *file, char *err, size_t errlen)
{
	char msg[1024];
	const char *key = NULL;
	if (scenario_validate_key(cfg, msg, sizeof(msg), &key) == 0)
		return 0;
	scenario_key_error(cfg, file, key, msg, err, errlen);
	return -1;
}

void scenario_key_error(const struct scenario_config *cfg, const char *file, const char *key,
			const char *msg, char *err, size_t errlen)
{
	int line = 0;
	const char *name = scenario_key_origin(cfg, key, &line);
	if (line > 0)
		snprintf(err, errlen, "%s:%d: %s", file, line, msg);
	else if (line < 0)
		snprintf(err, errlen, "--set %s: %s", name, msg);
	else
		snprintf(err, errlen, "%s: %s", file, msg);
}
