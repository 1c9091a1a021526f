/* Experiments and their runs: parsing --arm and --vary, expanding arms x points x seeds into
 * jobs, the FNV-1a run key of docs/harness.md, and the experiment's JSON form for the store. */
#include "harness/plan.h"
#include "sim/xalloc.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_VARY_VALUES 100000

uint64_t fnv1a64(const void *data, size_t len, uint64_t h)
{
	const unsigned char *p = data;
	for (size_t i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

/* Trimmed copy of [s, s+n). */
static char *trimdup(const char *s, size_t n)
{
	while (n && (*s == ' ' || *s == '\t')) {
		s++;
		n--;
	}
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	return xstrndup(s, n);
}

int plan_hash_file(const char *path, char out[17], char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		snprintf(err, errlen, "cannot read scenario %s: %s", path, strerror(errno));
		return -1;
	}
	uint64_t h = FNV1A64_INIT;
	char buf[65536];
	size_t n;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		h = fnv1a64(buf, n, h);
	int bad = ferror(f);
	fclose(f);
	if (bad) {
		snprintf(err, errlen, "error reading scenario %s", path);
		return -1;
	}
	snprintf(out, 17, "%016llx", (unsigned long long)h);
	return 0;
}

int plan_load_scenario(struct experiment *e, const char *path, char *err, size_t errlen)
{
	if (plan_hash_file(path, e->scenario_hash, err, errlen))
		return -1;
	e->scenario_file = xstrdup(path);
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	size_t n = strlen(base);
	if (n > 5 && !strcmp(base + n - 5, ".conf"))
		n -= 5;
	e->scenario_name = xstrndup(base, n);
	return 0;
}

static int kv_cmp(const void *a, const void *b)
{
	return strcmp(((const struct kv *)a)->key, ((const struct kv *)b)->key);
}

int overrides_add(struct overrides *o, const char *key, const char *val)
{
	if (overrides_get(o, key))
		return -1;
	struct kv *v = xrealloc(o->v, (o->n + 1) * sizeof(*v));
	o->v = v;
	o->v[o->n].key = xstrdup(key);
	o->v[o->n].val = xstrdup(val);
	o->n++;
	qsort(o->v, o->n, sizeof(*o->v), kv_cmp);
	return 0;
}

const char *overrides_get(const struct overrides *o, const char *key)
{
	for (size_t i = 0; i < o->n; i++)
		if (!strcmp(o->v[i].key, key))
			return o->v[i].val;
	return NULL;
}

void overrides_free(struct overrides *o)
{
	for (size_t i = 0; i < o->n; i++) {
		free(o->v[i].key);
		free(o->v[i].val);
	}
	free(o->v);
	o->v = NULL;
	o->n = 0;
}

char *overrides_text(const struct overrides *o)
{
	size_t len = 1;
	for (size_t i = 0; i < o->n; i++)
		len += strlen(o->v[i].key) + strlen(o->v[i].val) + 2;
	char *s = xmalloc(len), *p = s;
	*p = 0;
	for (size_t i = 0; i < o->n; i++)
		p += sprintf(p, "%s%s=%s", i ? "," : "", o->v[i].key, o->v[i].val);
	return s;
}

/* Parses "key=value" (trimmed) into the overrides. */
static int add_assignment(struct overrides *o, const char *s, size_t n, char *err, size_t errlen)
{
	const char *eq = memchr(s, '=', n);
	if (!eq) {
		snprintf(err, errlen, "'%.*s' is not key=value", (int)n, s);
		return -1;
	}
	char *k = trimdup(s, (size_t)(eq - s)), *v = trimdup(eq + 1, n - (size_t)(eq - s) - 1);
	int rc = 0;
	if (!*k) {
		snprintf(err, errlen, "'%.*s' has an empty key", (int)n, s);
		rc = -1;
	} else if (overrides_add(o, k, v)) {
		snprintf(err, errlen, "key '%s' given twice", k);
		rc = -1;
	}
	free(k);
	free(v);
	return rc;
}

int plan_parse_arm(const char *spec, struct arm *arm, char *err, size_t errlen)
{
	memset(arm, 0, sizeof(*arm));
	const char *colon = strchr(spec, ':');
	size_t nlen = colon ? (size_t)(colon - spec) : strlen(spec);
	arm->name = trimdup(spec, nlen);
	if (!*arm->name || strpbrk(arm->name, " \t,=")) {
		snprintf(err, errlen, "bad arm '%s': want NAME:key=value[,key=value...]", spec);
		goto fail;
	}
	if (colon && colon[1]) {
		const char *p = colon + 1;
		for (;;) {
			const char *comma = strchr(p, ',');
			size_t n = comma ? (size_t)(comma - p) : strlen(p);
			if (add_assignment(&arm->set, p, n, err, errlen))
				goto fail;
			if (!comma)
				break;
			p = comma + 1;
		}
	}
	return 0;
fail:
	free(arm->name);
	overrides_free(&arm->set);
	memset(arm, 0, sizeof(*arm));
	return -1;
}

static void vary_push(struct vary *v, char *val)
{
	char **nv = xrealloc(v->values, (v->n + 1) * sizeof(*nv));
	v->values = nv;
	v->values[v->n++] = val;
}

static int parse_num(const char *s, double *out)
{
	char *end;
	errno = 0;
	*out = strtod(s, &end);
	return (end == s || *end || errno || !isfinite(*out)) ? -1 : 0;
}

static int is_integer_text(const char *s)
{
	if (*s == '-' || *s == '+')
		s++;
	if (!*s)
		return 0;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return 0;
	return 1;
}

static int parse_range(const char *spec, const char *r, struct vary *v, char *err, size_t errlen)
{
	char *a = NULL, *b = NULL, *c = NULL;
	const char *c1 = strchr(r, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
	if (!c1 || !c2 || strchr(c2 + 1, ':'))
		goto bad;
	a = trimdup(r, (size_t)(c1 - r));
	b = trimdup(c1 + 1, (size_t)(c2 - c1 - 1));
	c = trimdup(c2 + 1, strlen(c2 + 1));
	double da, db, dc;
	if (parse_num(a, &da) || parse_num(b, &db) || parse_num(c, &dc) || !(dc > 0) || db < da)
		goto bad;
	double count = floor((db - da) / dc + 1e-9) + 1;
	if (count > MAX_VARY_VALUES) {
		snprintf(err, errlen, "--vary %s: %.0f values, more than %d", spec, count,
			 MAX_VARY_VALUES);
		goto fail;
	}
	int ints = is_integer_text(a) && is_integer_text(b) && is_integer_text(c);
	for (long i = 0; i < (long)count; i++) {
		char buf[64];
		if (ints)
			snprintf(buf, sizeof(buf), "%lld",
				 strtoll(a, NULL, 10) + i * strtoll(c, NULL, 10));
		else
			/* From the start each time, so steps like 0.1 do not accumulate error. */
			snprintf(buf, sizeof(buf), "%.10g", da + (double)i * dc);
		vary_push(v, xstrdup(buf));
	}
	free(a);
	free(b);
	free(c);
	return 0;
bad:
	snprintf(err, errlen, "bad range in --vary %s: want key=START:END:STEP with STEP > 0",
		 spec);
fail:
	free(a);
	free(b);
	free(c);
	return -1;
}

int plan_parse_vary(const char *spec, struct vary *v, char *err, size_t errlen)
{
	memset(v, 0, sizeof(*v));
	const char *eq = strchr(spec, '=');
	if (!eq) {
		snprintf(err, errlen, "bad --vary '%s': want key=v1,v2,... or key=a:b:step", spec);
		return -1;
	}
	v->key = trimdup(spec, (size_t)(eq - spec));
	const char *r = eq + 1;
	if (!*v->key || !*r) {
		snprintf(err, errlen, "bad --vary '%s': want key=v1,v2,... or key=a:b:step", spec);
		goto fail;
	}
	if (strchr(r, ':') && !strchr(r, ',')) {
		if (parse_range(spec, r, v, err, errlen))
			goto fail;
	} else {
		for (;;) {
			const char *comma = strchr(r, ',');
			size_t n = comma ? (size_t)(comma - r) : strlen(r);
			char *val = trimdup(r, n);
			if (!*val) {
				free(val);
				snprintf(err, errlen, "empty value in --vary '%s'", spec);
				goto fail;
			}
			for (size_t i = 0; i < v->n; i++)
				if (!strcmp(v->values[i], val)) {
					snprintf(err, errlen, "value '%s' repeated in --vary '%s'",
						 val, spec);
					free(val);
					goto fail;
				}
			vary_push(v, val);
			if (!comma)
				break;
			r = comma + 1;
		}
	}
	return 0;
fail:
	free(v->key);
	for (size_t i = 0; i < v->n; i++)
		free(v->values[i]);
	free(v->values);
	memset(v, 0, sizeof(*v));
	return -1;
}

size_t plan_npoints(const struct experiment *e)
{
	size_t n = 1;
	for (size_t d = 0; d < e->nvary; d++)
		n *= e->vary[d].n;
	return n;
}

const char *plan_point_value(const struct experiment *e, size_t point, size_t d)
{
	/* The last dimension varies fastest, like nested loops written in --vary order. */
	for (size_t k = e->nvary; k-- > d + 1;)
		point /= e->vary[k].n;
	return e->vary[d].values[point % e->vary[d].n];
}

void plan_key(const char *scenario_hash, const struct overrides *ov, uint64_t seed,
	      const char *version, char key[17], char **canon)
{
	size_t len = 128 + strlen(scenario_hash) + strlen(version);
	for (size_t i = 0; i < ov->n; i++)
		len += strlen(ov->v[i].key) + strlen(ov->v[i].val) + 8;
	char *s = xmalloc(len), *p = s;
	p += sprintf(p, "mmsim-run-key/1\nscenario-fnv1a64=%s\nversion=%s\nseed=%llu\n",
		     scenario_hash, version, (unsigned long long)seed);
	for (size_t i = 0; i < ov->n; i++)
		p += sprintf(p, "set %s=%s\n", ov->v[i].key, ov->v[i].val);
	/* FNV's last bytes barely reach the high bits; a bijective mixer spreads them so keys of
	 * neighbouring seeds do not look alike (and collide no more often). */
	uint64_t h = fnv1a64(s, strlen(s), FNV1A64_INIT);
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 33;
	snprintf(key, 17, "%016llx", (unsigned long long)h);
	if (canon)
		*canon = s;
	else
		free(s);
}

int plan_jobs(const struct experiment *e, struct job **jobs, size_t *njobs, char *err,
	      size_t errlen)
{
	size_t np = plan_npoints(e), n = np * e->narms * e->nseeds, k = 0;
	struct job *j = xcalloc(n ? n : 1, sizeof(*j));
	for (size_t p = 0; p < np; p++)
		for (size_t a = 0; a < e->narms; a++)
			for (size_t s = 0; s < e->nseeds; s++, k++) {
				struct job *jb = &j[k];
				jb->point = p;
				jb->arm = a;
				jb->seed = e->seeds[s];
				const struct overrides *set = &e->arms[a].set;
				for (size_t i = 0; i < set->n; i++)
					overrides_add(&jb->ov, set->v[i].key, set->v[i].val);
				for (size_t d = 0; d < e->nvary; d++)
					if (overrides_add(&jb->ov, e->vary[d].key,
							  plan_point_value(e, p, d))) {
						snprintf(err, errlen,
							 "key '%s' is both varied and set by arm "
							 "'%s'",
							 e->vary[d].key, e->arms[a].name);
						plan_jobs_free(j, k + 1);
						return -1;
					}
				plan_key(e->scenario_hash, &jb->ov, jb->seed, e->version, jb->key,
					 &jb->canon);
			}
	*jobs = j;
	*njobs = n;
	return 0;
}

void plan_jobs_free(struct job *jobs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		overrides_free(&jobs[i].ov);
		free(jobs[i].canon);
	}
	free(jobs);
}

static cJSON *overrides_json(const struct overrides *o)
{
	cJSON *j = cJSON_CreateObject();
	for (size_t i = 0; i < o->n; i++)
		cJSON_AddStringToObject(j, o->v[i].key, o->v[i].val);
	return j;
}

cJSON *plan_to_json(const struct experiment *e)
{
	cJSON *j = cJSON_CreateObject();
	cJSON_AddStringToObject(j, "kind", e->kind == EXP_SWEEP ? "sweep" : "compare");
	cJSON_AddStringToObject(j, "scenario_file", e->scenario_file);
	cJSON_AddStringToObject(j, "scenario_name", e->scenario_name);
	cJSON_AddStringToObject(j, "scenario_hash", e->scenario_hash);
	cJSON_AddStringToObject(j, "version", e->version);
	if (e->metric)
		cJSON_AddStringToObject(j, "metric", e->metric);
	cJSON *arms = cJSON_AddArrayToObject(j, "arms");
	for (size_t a = 0; a < e->narms; a++) {
		cJSON *arm = cJSON_CreateObject();
		cJSON_AddStringToObject(arm, "name", e->arms[a].name);
		cJSON_AddItemToObject(arm, "set", overrides_json(&e->arms[a].set));
		cJSON_AddItemToArray(arms, arm);
	}
	cJSON *vary = cJSON_AddArrayToObject(j, "vary");
	for (size_t d = 0; d < e->nvary; d++) {
		cJSON *v = cJSON_CreateObject();
		cJSON_AddStringToObject(v, "key", e->vary[d].key);
		cJSON *vals = cJSON_AddArrayToObject(v, "values");
		for (size_t i = 0; i < e->vary[d].n; i++)
			cJSON_AddItemToArray(vals, cJSON_CreateString(e->vary[d].values[i]));
		cJSON_AddItemToArray(vary, v);
	}
	cJSON *seeds = cJSON_AddArrayToObject(j, "seeds");
	for (size_t s = 0; s < e->nseeds; s++)
		cJSON_AddItemToArray(seeds, cJSON_CreateNumber((double)e->seeds[s]));
	return j;
}

static const char *jstr(const cJSON *j, const char *name)
{
	const cJSON *x = cJSON_GetObjectItemCaseSensitive(j, name);
	return cJSON_IsString(x) ? x->valuestring : NULL;
}

int plan_from_json(const cJSON *j, struct experiment *e, char *err, size_t errlen)
{
	memset(e, 0, sizeof(*e));
	const char *kind = jstr(j, "kind"), *file = jstr(j, "scenario_file"),
		   *name = jstr(j, "scenario_name"), *hash = jstr(j, "scenario_hash"),
		   *ver = jstr(j, "version"), *metric = jstr(j, "metric");
	const cJSON *arms = cJSON_GetObjectItemCaseSensitive(j, "arms");
	const cJSON *vary = cJSON_GetObjectItemCaseSensitive(j, "vary");
	const cJSON *seeds = cJSON_GetObjectItemCaseSensitive(j, "seeds");
	if (!kind || !file || !name || !hash || strlen(hash) != 16 || !ver ||
	    !cJSON_IsArray(arms) || !cJSON_IsArray(vary) || !cJSON_IsArray(seeds)) {
		snprintf(err, errlen, "malformed experiment record");
		return -1;
	}
	e->kind = !strcmp(kind, "sweep") ? EXP_SWEEP : EXP_COMPARE;
	e->scenario_file = xstrdup(file);
	e->scenario_name = xstrdup(name);
	memcpy(e->scenario_hash, hash, 17);
	e->version = xstrdup(ver);
	e->metric = metric ? xstrdup(metric) : NULL;
	e->narms = (size_t)cJSON_GetArraySize(arms);
	e->arms = xcalloc(e->narms ? e->narms : 1, sizeof(*e->arms));
	size_t a = 0;
	const cJSON *it;
	cJSON_ArrayForEach(it, arms)
	{
		const char *an = jstr(it, "name");
		e->arms[a].name = xstrdup(an ? an : "?");
		const cJSON *kv;
		cJSON_ArrayForEach(
		    kv, cJSON_GetObjectItemCaseSensitive(it, "set")) if (cJSON_IsString(kv))
		    overrides_add(&e->arms[a].set, kv->string, kv->valuestring);
		a++;
	}
	e->nvary = (size_t)cJSON_GetArraySize(vary);
	e->vary = xcalloc(e->nvary ? e->nvary : 1, sizeof(*e->vary));
	size_t d = 0;
	cJSON_ArrayForEach(it, vary)
	{
		const char *k = jstr(it, "key");
		e->vary[d].key = xstrdup(k ? k : "?");
		const cJSON *v;
		cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(it, "values"))
		    vary_push(&e->vary[d], xstrdup(cJSON_IsString(v) ? v->valuestring : "?"));
		if (!e->vary[d].n)
			vary_push(&e->vary[d], xstrdup("?"));
		d++;
	}
	e->nseeds = (size_t)cJSON_GetArraySize(seeds);
	e->seeds = xcalloc(e->nseeds ? e->nseeds : 1, sizeof(*e->seeds));
	size_t s = 0;
	cJSON_ArrayForEach(it, seeds) e->seeds[s++] = (uint64_t)cJSON_GetNumberValue(it);
	return 0;
}

void plan_free(struct experiment *e)
{
	free(e->scenario_file);
	free(e->scenario_name);
	for (size_t a = 0; a < e->narms; a++) {
		free(e->arms[a].name);
		overrides_free(&e->arms[a].set);
	}
	free(e->arms);
	for (size_t d = 0; d < e->nvary; d++) {
		free(e->vary[d].key);
		for (size_t i = 0; i < e->vary[d].n; i++)
			free(e->vary[d].values[i]);
		free(e->vary[d].values);
	}
	free(e->vary);
	free(e->seeds);
	free(e->metric);
	free(e->version);
	memset(e, 0, sizeof(*e));
}
