/* A run's results as the text report of `mmsim run` and as the JSON document of
 * docs/run-json.md. */
#include "cli/run_output.h"
#include "version.h"
#include "sim/xalloc.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

static double secs(uint64_t ns)
{
	return (double)ns / 1e9;
}

static const struct metric *primary_metric(const struct run_result *r)
{
	for (int i = 0; i < r->wl.nmetrics; i++)
		if (r->wl.metrics[i].primary)
			return &r->wl.metrics[i];
	return NULL;
}

static int cpu_percent(const struct run_result *r)
{
	if (!r->elapsed)
		return 0;
	return (int)((r->user_ns + r->sys_ns) * 100 / r->elapsed);
}

void run_print_text(FILE *out, const struct run_meta *meta, const struct scenario_config *cfg,
		    const struct run_result *r)
{
	fprintf(out, "mmsim %s: %s (%s), seed %llu\n", MMSIM_VERSION, meta->scenario_file,
		cfg->name, (unsigned long long)meta->seed);
	fprintf(out, "machine: %s, %llu MiB RAM, %d CPU(s), %llu MiB swap; workload %s\n",
		cfg->profile, (unsigned long long)(cfg->ram >> 20), cfg->cpus,
		(unsigned long long)(cfg->swap >> 20), cfg->workload);
	for (int i = 0; i < meta->noverrides; i++)
		fprintf(out, "override: %s\n", meta->overrides[i]);
	fprintf(out, "\n== %s ==\n%s", cfg->workload, r->wl.text);
	if (r->failed)
		fprintf(out, "*** the workload failed (see its report above) ***\n");
	else if (!r->completed)
		fprintf(out, "*** the workload did not finish within run.time_limit%s ***\n",
			r->panicked ? " (the kernel panicked: out of memory and nothing to kill)"
				    : "");
	const struct metric *m = primary_metric(r);
	if (m)
		fprintf(out, "figure of merit: %s = %.6f %s (%s is better)\n", m->name, m->value,
			m->unit, m->higher_is_better ? "higher" : "lower");

	fprintf(out, "\n== /usr/bin/time ==\n");
	fprintf(out, "\tElapsed (wall clock) time (seconds): %.6f\n", secs(r->elapsed));
	fprintf(out, "\tUser time (seconds): %.6f\n", secs(r->user_ns));
	fprintf(out, "\tSystem time (seconds): %.6f\n", secs(r->sys_ns));
	fprintf(out, "\tPercent of CPU this job got: %d%%\n", cpu_percent(r));
	fprintf(out, "\tMajor (requiring I/O) page faults: %llu\n",
		(unsigned long long)r->major_faults);
	fprintf(out, "\tMinor (reclaiming a frame) page faults: %llu\n",
		(unsigned long long)r->minor_faults);
	fprintf(out, "\tVoluntary context switches: %llu\n", (unsigned long long)r->nvcsw);
	fprintf(out, "\tInvoluntary context switches: %llu\n", (unsigned long long)r->nivcsw);

	fprintf(out, "\n== reclaim ==\n");
	/* three different "most reclaimers at once": say which is which */
	fprintf(out,
		"max concurrent reclaimers: %d direct (in try_to_free_pages), %d counting kswapd; "
		"%d in shrink_zone, kswapd included (the seed-000 patch's \"max parallel reclaim "
		"tasks\")\n",
		r->rstats.max_direct_reclaimers, r->rstats.max_reclaimers_incl_kswapd,
		r->rstats.max_shrinking);
	fprintf(out, "max consumption time of try_to_free_pages(): %.6f s\n",
		secs(r->rstats.max_ttfp_ns));
	uint64_t allocstall = 0;
	for (int i = 0; i < r->nr_vmstat; i++)
		if (!strcmp(r->vmstat[i].name, "allocstall"))
			allocstall = r->vmstat[i].value;
	fprintf(out, "allocstall: %llu\n", (unsigned long long)allocstall);
	fprintf(out, "zone lru_lock: %llu acquisitions, %llu contended, %.6f s spinning\n",
		(unsigned long long)r->rstats.lru_lock_acquisitions,
		(unsigned long long)r->rstats.lru_lock_contended, secs(r->rstats.lru_lock_spin_ns));
	fprintf(out, "OOM kills: %llu\n", (unsigned long long)r->rstats.oom_kills);
	for (unsigned i = 0; i < r->nr_oom; i++)
		fprintf(out, "  OOM victim: pid %d (%s) at %.6f s, badness %lu, rss %lu pages\n",
			r->oom[i].pid, r->oom[i].comm, secs(r->oom[i].time), r->oom[i].badness,
			r->oom[i].rss);

	fprintf(out, "\n== /proc/vmstat ==\n");
	for (int i = 0; i < r->nr_vmstat; i++)
		fprintf(out, "%s %llu\n", r->vmstat[i].name,
			(unsigned long long)r->vmstat[i].value);

	fprintf(out, "\n== /proc/buddyinfo ==\n");
	for (int i = 0; i < r->nr_buddyinfo; i++) {
		fprintf(out, "Node 0, zone %8s ", r->buddyinfo[i].zone);
		for (int o = 0; o < MAX_ORDER; o++)
			fprintf(out, "%6lu ", r->buddyinfo[i].nr_free[o]);
		fprintf(out, "\n");
	}
}

static void add_u64(cJSON *o, const char *k, uint64_t v)
{
	cJSON_AddNumberToObject(o, k, (double)v);
}

/* The top and iostat rows, each {"t": seconds, ...} in time order, one a line (written by
 * hand for the same reason as the samples). */
static void task_samples_json(FILE *f, const struct proc_series *p)
{
	fputs(",\n\t\"task_samples\":\t[", f);
	for (size_t i = 0; i < p->ntasks; i++) {
		const struct task_sample *r = &p->tasks[i];
		fprintf(f, "%s\n\t\t{\"t\": %.9f, \"pid\": %d, \"comm\": \"", i ? "," : "",
			secs(r->t), r->pid);
		for (const char *c = r->comm; *c; c++) /* comm is the workload's, printable */
			fputc(*c == '"' || *c == '\\' || (unsigned char)*c < 0x20 ? '_' : *c, f);
		fprintf(f,
			"\", \"state\": \"%c\", \"utime_s\": %.9f, \"stime_s\": %.9f, "
			"\"rss_anon\": %lu, \"rss_file\": %lu, \"majflt\": %lu, \"minflt\": %lu}",
			r->state, secs(r->utime), secs(r->stime), r->rss_anon, r->rss_file,
			r->maj_flt, r->min_flt);
	}
	fputs("]", f);
}

static void disk_samples_json(FILE *f, const struct proc_series *p)
{
	fputs(",\n\t\"disk_samples\":\t[", f);
	for (size_t i = 0; i < p->ndisks; i++) {
		const struct disk_sample *r = &p->disks[i];
		fprintf(
		    f,
		    "%s\n\t\t{\"t\": %.9f, \"dev\": \"%s\", \"reads\": %llu, \"writes\": %llu, "
		    "\"sectors_read\": %llu, \"sectors_written\": %llu, \"reads_merged\": %llu, "
		    "\"writes_merged\": %llu, \"busy_s\": %.9f, \"in_flight\": %u}",
		    i ? "," : "", secs(r->t), r->name, (unsigned long long)r->ios[0],
		    (unsigned long long)r->ios[1], (unsigned long long)r->sectors[0],
		    (unsigned long long)r->sectors[1], (unsigned long long)r->merges[0],
		    (unsigned long long)r->merges[1], secs(r->busy_ns), r->in_flight);
	}
	fputs("]", f);
}

/* Time-ordered rows, each {"t": seconds, counter: value, ...} (docs/run-json.md), one a
 * line. Written by hand, not through cJSON: a long run has ~10^5 values, and cJSON's
 * number printing (print, then parse back to check) would cost more than the run. */
static char *samples_json(const struct sample_series *s, const struct proc_series *p, unsigned what)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		abort();
	fputs(",\n\t\"samples\":\t[", f);
	for (size_t i = 0; i < s->n; i++) {
		fprintf(f, "%s\n\t\t{\"t\": %.9f", i ? "," : "", secs(s->t[i]));
		const uint64_t *row = s->v + i * (size_t)s->ncols;
		for (int c = 0; c < s->ncols; c++)
			fprintf(f, ", \"%s\": %llu", s->names[c], (unsigned long long)row[c]);
		fputc('}', f);
	}
	fputs("]", f);
	if (what & SAMPLE_TASKS)
		task_samples_json(f, p);
	if (what & SAMPLE_DISKS)
		disk_samples_json(f, p);
	fputs("\n}", f);
	if (fclose(f) != 0)
		abort();
	return buf;
}

char *run_to_json(const struct run_meta *meta, const struct scenario_config *cfg,
		  const struct run_result *r)
{
	cJSON *root = cJSON_CreateObject();
	cJSON_AddStringToObject(root, "schema", "mmsim-run/1");
	cJSON_AddStringToObject(root, "mmsim_version", MMSIM_VERSION);
	cJSON *sc = cJSON_AddObjectToObject(root, "scenario");
	cJSON_AddStringToObject(sc, "file", meta->scenario_file);
	cJSON_AddStringToObject(sc, "name", cfg->name);
	cJSON_AddStringToObject(sc, "seed_ref", cfg->reproduces);
	add_u64(root, "seed", meta->seed);
	cJSON *ov = cJSON_AddObjectToObject(root, "overrides");
	for (int i = 0; i < meta->noverrides; i++) {
		const char *kv = meta->overrides[i];
		const char *eq = strchr(kv, '=');
		char key[256];
		size_t kl = eq ? (size_t)(eq - kv) : strlen(kv);
		if (kl >= sizeof(key))
			kl = sizeof(key) - 1;
		memcpy(key, kv, kl);
		key[kl] = 0;
		cJSON_DeleteItemFromObjectCaseSensitive(ov, key);
		cJSON_AddStringToObject(ov, key, eq ? eq + 1 : "");
	}
	cJSON *conf = cJSON_AddObjectToObject(root, "config");
	size_t n;
	const struct param_desc *table = scenario_params(&n);
	for (size_t i = 0; i < n; i++) {
		char buf[PARAM_STRING_MAX + 64];
		if (scenario_key_is_host_only(table[i].name))
			continue;
		param_format(&table[i], cfg, buf, sizeof(buf));
		cJSON_AddStringToObject(conf, table[i].name, buf);
	}
	struct hw_profile hw;
	if (scenario_profile(cfg, &hw)) { /* the costs the run used, hw.* overrides applied */
		cJSON *prof = cJSON_AddObjectToObject(root, "profile");
		cJSON_AddStringToObject(prof, "name", hw.name);
		add_u64(prof, "cpu_mhz", hw.cpu_mhz); /* what the clock-scaled costs assume */
#define HW_COST_JSON(f) add_u64(prof, #f, hw.f);
		HW_PROFILE_COSTS(HW_COST_JSON)
#undef HW_COST_JSON
#define HW_DISK_JSON(f) add_u64(prof, "disk." #f, hw.disk.f);
		HW_DISK_COSTS(HW_DISK_JSON)
#undef HW_DISK_JSON
		if (hw.swap_own_disk && hw.swap_disk) { /* a swap disk of another kind */
			struct disk_params sd = disk_params_with_writes(*hw.swap_disk);
#define HW_SWAP_DISK_JSON(f) add_u64(prof, "swap_disk." #f, sd.f);
			HW_DISK_COSTS(HW_SWAP_DISK_JSON)
#undef HW_SWAP_DISK_JSON
		}
	}
	cJSON_AddBoolToObject(root, "completed", r->completed);
	cJSON_AddBoolToObject(root, "failed", r->failed);
	cJSON_AddBoolToObject(root, "panicked", r->panicked);
	cJSON *t = cJSON_AddObjectToObject(root, "time");
	cJSON_AddNumberToObject(t, "elapsed_s", secs(r->elapsed));
	cJSON_AddNumberToObject(t, "user_s", secs(r->user_ns));
	cJSON_AddNumberToObject(t, "sys_s", secs(r->sys_ns));
	add_u64(t, "cpu_percent", (uint64_t)cpu_percent(r));
	add_u64(t, "major_faults", r->major_faults);
	add_u64(t, "minor_faults", r->minor_faults);
	add_u64(t, "voluntary_context_switches", r->nvcsw);
	add_u64(t, "involuntary_context_switches", r->nivcsw);
	cJSON *res = cJSON_AddObjectToObject(root, "result");
	cJSON_AddStringToObject(res, "workload", cfg->workload);
	cJSON *ms = cJSON_AddArrayToObject(res, "metrics");
	for (int i = 0; i < r->wl.nmetrics; i++) {
		const struct metric *m = &r->wl.metrics[i];
		cJSON *mo = cJSON_CreateObject();
		cJSON_AddStringToObject(mo, "name", m->name);
		cJSON_AddNumberToObject(mo, "value", m->value);
		cJSON_AddStringToObject(mo, "unit", m->unit);
		cJSON_AddStringToObject(mo, "better", m->higher_is_better ? "higher" : "lower");
		cJSON_AddBoolToObject(mo, "primary", m->primary);
		cJSON_AddItemToArray(ms, mo);
	}
	cJSON_AddStringToObject(res, "text", r->wl.text);
	cJSON *vm = cJSON_AddObjectToObject(root, "vmstat");
	for (int i = 0; i < r->nr_vmstat; i++)
		add_u64(vm, r->vmstat[i].name, r->vmstat[i].value);
	cJSON *bi = cJSON_AddObjectToObject(root, "buddyinfo");
	for (int i = 0; i < r->nr_buddyinfo; i++) {
		char key[40];
		snprintf(key, sizeof(key), "Node 0, zone %s", r->buddyinfo[i].zone);
		cJSON *orders = cJSON_AddArrayToObject(bi, key);
		for (int o = 0; o < MAX_ORDER; o++)
			cJSON_AddItemToArray(
			    orders, cJSON_CreateNumber((double)r->buddyinfo[i].nr_free[o]));
	}
	cJSON *rc = cJSON_AddObjectToObject(root, "reclaim");
	add_u64(rc, "max_parallel_reclaimers", (uint64_t)r->rstats.max_direct_reclaimers);
	add_u64(rc, "max_parallel_reclaimers_incl_kswapd",
		(uint64_t)r->rstats.max_reclaimers_incl_kswapd);
	cJSON_AddNumberToObject(rc, "max_try_to_free_pages_s", secs(r->rstats.max_ttfp_ns));
	add_u64(rc, "lru_lock_acquisitions", r->rstats.lru_lock_acquisitions);
	add_u64(rc, "lru_lock_contended", r->rstats.lru_lock_contended);
	cJSON_AddNumberToObject(rc, "lru_lock_spin_s", secs(r->rstats.lru_lock_spin_ns));
	uint64_t allocstall = 0;
	for (int i = 0; i < r->nr_vmstat; i++)
		if (!strcmp(r->vmstat[i].name, "allocstall"))
			allocstall = r->vmstat[i].value;
	add_u64(rc, "allocstall", allocstall);
	add_u64(rc, "oom_kills", r->rstats.oom_kills);
	cJSON *vs = cJSON_AddArrayToObject(rc, "oom_victims");
	for (unsigned i = 0; i < r->nr_oom; i++) {
		cJSON *v = cJSON_CreateObject();
		add_u64(v, "pid", (uint64_t)r->oom[i].pid);
		cJSON_AddStringToObject(v, "comm", r->oom[i].comm);
		cJSON_AddNumberToObject(v, "time_s", secs(r->oom[i].time));
		add_u64(v, "badness", r->oom[i].badness);
		add_u64(v, "rss_pages", r->oom[i].rss);
		cJSON_AddItemToArray(vs, v);
	}
	char *txt = cJSON_Print(root);
	cJSON_Delete(root);
	size_t l = strlen(txt);
	char *extra = NULL;
	size_t el = 0;
	if (r->samples.n) { /* in place of the closing brace */
		extra = samples_json(&r->samples, &r->procs, cfg->sample_what);
		el = strlen(extra);
		l--;
	}
	char *out = xmalloc(l + el + 2);
	memcpy(out, txt, l);
	if (el)
		memcpy(out + l, extra, el);
	out[l + el] = '\n';
	out[l + el + 1] = 0;
	cJSON_free(txt);
	free(extra);
	return out;
}
