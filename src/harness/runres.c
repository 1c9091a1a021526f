/* Reading one run's `mmsim run --json` document (docs/run-json.md) into a struct run_result. */
#include "harness/runres.h"
#include "sim/xalloc.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *dupstr(const char *s)
{
	char *r = xstrdup(s ? s : "");
	return r;
}

static double num(const cJSON *obj, const char *name, double dflt)
{
	const cJSON *x = cJSON_GetObjectItemCaseSensitive(obj, name);
	return cJSON_IsNumber(x) ? x->valuedouble : dflt;
}

static const char *str(const cJSON *obj, const char *name)
{
	const cJSON *x = cJSON_GetObjectItemCaseSensitive(obj, name);
	return cJSON_IsString(x) ? x->valuestring : NULL;
}

static int counter_cmp(const void *a, const void *b)
{
	return strcmp(((const struct counter *)a)->name, ((const struct counter *)b)->name);
}

int runres_parse(const char *text, struct run_result *r, char *err, size_t errlen)
{
	memset(r, 0, sizeof(*r));
	cJSON *j = cJSON_Parse(text);
	if (!j) {
		snprintf(err, errlen, "not valid JSON");
		return -1;
	}
	const char *schema = str(j, "schema");
	if (!schema || strcmp(schema, "mmsim-run/1")) {
		snprintf(err, errlen, "schema is not mmsim-run/1");
		goto fail;
	}
	const cJSON *scen = cJSON_GetObjectItemCaseSensitive(j, "scenario");
	const cJSON *seed = cJSON_GetObjectItemCaseSensitive(j, "seed");
	const cJSON *time = cJSON_GetObjectItemCaseSensitive(j, "time");
	const cJSON *result = cJSON_GetObjectItemCaseSensitive(j, "result");
	const cJSON *metrics = cJSON_GetObjectItemCaseSensitive(result, "metrics");
	if (!cJSON_IsObject(scen) || !str(scen, "file") || !cJSON_IsNumber(seed) ||
	    seed->valuedouble < 0 || !cJSON_IsObject(time) || !cJSON_IsArray(metrics) ||
	    !str(j, "mmsim_version")) {
		snprintf(err, errlen,
			 "missing scenario.file, seed, mmsim_version, time or result.metrics");
		goto fail;
	}
	r->scenario_file = dupstr(str(scen, "file"));
	r->scenario_name = dupstr(str(scen, "name"));
	r->version = dupstr(str(j, "mmsim_version"));
	r->workload = dupstr(str(result, "workload"));
	r->seed = (uint64_t)seed->valuedouble;
	r->completed = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j, "completed"));
	const cJSON *it;
	cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(j, "overrides"))
	{
		char buf[64];
		const char *v = it->valuestring;
		/* The schema says strings; accept numbers too, written the way --set had them. */
		if (cJSON_IsNumber(it)) {
			snprintf(buf, sizeof(buf), "%.17g", it->valuedouble);
			v = buf;
		}
		if (!v || overrides_add(&r->overrides, it->string, v)) {
			snprintf(err, errlen, "bad override '%s'", it->string ? it->string : "?");
			goto fail;
		}
	}
	r->elapsed_s = num(time, "elapsed_s", NAN);
	r->user_s = num(time, "user_s", NAN);
	r->sys_s = num(time, "sys_s", NAN);
	r->major_faults = num(time, "major_faults", NAN);
	r->minor_faults = num(time, "minor_faults", NAN);
	size_t nm = (size_t)cJSON_GetArraySize(metrics), nprimary = 0;
	r->metrics = xcalloc(nm ? nm : 1, sizeof(*r->metrics));
	cJSON_ArrayForEach(it, metrics)
	{
		const char *name = str(it, "name"), *better = str(it, "better");
		const cJSON *value = cJSON_GetObjectItemCaseSensitive(it, "value");
		if (!name || !cJSON_IsNumber(value)) {
			snprintf(err, errlen, "a result.metrics entry lacks name or value");
			goto fail;
		}
		struct metric *m = &r->metrics[r->nmetrics++];
		m->name = dupstr(name);
		m->unit = dupstr(str(it, "unit"));
		m->value = value->valuedouble;
		m->better = better && !strcmp(better, "higher") ? BETTER_HIGHER : BETTER_LOWER;
		m->primary = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(it, "primary"));
		nprimary += m->primary;
	}
	/* a run that did not finish (hackbench after an OOM kill prints no Time) may have no
	 * figure of merit at all */
	if (nprimary > 1 || (nprimary == 0 && r->completed)) {
		snprintf(err, errlen, "result.metrics has %zu primary metrics, want exactly one",
			 nprimary);
		goto fail;
	}
	const cJSON *host = cJSON_GetObjectItemCaseSensitive(j, "host");
	if (cJSON_IsObject(host)) {
		static const struct {
			const char *key, *name, *unit;
			double scale;
		} hf[] = {{"wall_s", "host_wall_s", "s", 1},
			  {"cpu_s", "host_cpu_s", "s", 1},
			  {"peak_rss_kb", "host_peak_rss_mb", "MiB", 1.0 / 1024}};
		for (size_t i = 0; i < sizeof(hf) / sizeof(hf[0]); i++) {
			const cJSON *v = cJSON_GetObjectItemCaseSensitive(host, hf[i].key);
			if (!cJSON_IsNumber(v))
				continue;
			struct metric *m = &r->host[r->nhost++];
			m->name = dupstr(hf[i].name);
			m->unit = dupstr(hf[i].unit);
			m->value = v->valuedouble * hf[i].scale;
			m->better = BETTER_LOWER;
		}
	}
	const cJSON *vm = cJSON_GetObjectItemCaseSensitive(j, "vmstat");
	size_t nv = (size_t)cJSON_GetArraySize(vm);
	r->vmstat = xcalloc(nv ? nv : 1, sizeof(*r->vmstat));
	cJSON_ArrayForEach(it, vm)
	{
		if (!cJSON_IsNumber(it) || !it->string)
			continue;
		r->vmstat[r->nvmstat].name = dupstr(it->string);
		r->vmstat[r->nvmstat++].value = it->valuedouble;
	}
	qsort(r->vmstat, r->nvmstat, sizeof(*r->vmstat), counter_cmp);
	const cJSON *rec = cJSON_GetObjectItemCaseSensitive(j, "reclaim");
	r->has_reclaim = cJSON_IsObject(rec);
	r->max_parallel_reclaimers = num(rec, "max_parallel_reclaimers", NAN);
	r->max_try_to_free_pages_s = num(rec, "max_try_to_free_pages_s", NAN);
	r->allocstall = num(rec, "allocstall", NAN);
	r->oom_kills = num(rec, "oom_kills", NAN);
	cJSON_Delete(j);
	return 0;
fail:
	cJSON_Delete(j);
	runres_free(r);
	return -1;
}

void runres_free(struct run_result *r)
{
	free(r->scenario_file);
	free(r->scenario_name);
	free(r->version);
	free(r->workload);
	overrides_free(&r->overrides);
	for (size_t i = 0; i < r->nmetrics; i++) {
		free(r->metrics[i].name);
		free(r->metrics[i].unit);
	}
	free(r->metrics);
	for (size_t i = 0; i < r->nhost; i++) {
		free(r->host[i].name);
		free(r->host[i].unit);
	}
	for (size_t i = 0; i < r->nvmstat; i++)
		free(r->vmstat[i].name);
	free(r->vmstat);
	memset(r, 0, sizeof(*r));
}

const struct metric *runres_metric(const struct run_result *r, const char *name)
{
	for (size_t i = 0; i < r->nmetrics; i++)
		if (!strcmp(r->metrics[i].name, name))
			return &r->metrics[i];
	for (size_t i = 0; i < r->nhost; i++)
		if (!strcmp(r->host[i].name, name))
			return &r->host[i];
	return NULL;
}

const struct metric *runres_primary(const struct run_result *r)
{
	for (size_t i = 0; i < r->nmetrics; i++)
		if (r->metrics[i].primary)
			return &r->metrics[i];
	return NULL;
}

double runres_counter(const struct run_result *r, const char *name)
{
	struct counter k = {.name = (char *)name};
	const struct counter *c =
	    bsearch(&k, r->vmstat, r->nvmstat, sizeof(*r->vmstat), counter_cmp);
	return c ? c->value : NAN;
}
