/* The command lines of a planned job: the argv the harness runs, the `mmsim run` command a
 * user retypes to reproduce it, and the dry run of every arm and point before any job. */
#include "harness/jobcmd.h"
#include "harness/exec.h"
#include "sim/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void shell_quote(FILE *f, const char *s)
{
	if (*s && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
			    "_-+=./:,@%") == strlen(s)) {
		fputs(s, f);
		return;
	}
	fputc('\'', f);
	for (; *s; s++)
		fputs(*s == '\'' ? "'\\''" : (char[]){*s, 0}, f);
	fputc('\'', f);
}

/* The `mmsim run` command line of one job, shell-quoted, as a user would retype it. */
char *job_command(const struct experiment *e, const struct job *j)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		abort();
	fputs("mmsim run ", f);
	shell_quote(f, e->scenario_file);
	for (size_t k = 0; k < j->ov.n; k++) {
		fputs(" --set ", f);
		char *kv;
		if (asprintf(&kv, "%s=%s", j->ov.v[k].key, j->ov.v[k].val) < 0)
			abort();
		shell_quote(f, kv);
		free(kv);
	}
	fprintf(f, " --seed %llu", (unsigned long long)j->seed);
	fclose(f);
	return buf;
}

char **job_argv(char **runner, const struct experiment *e, const struct job *j, const char *sample)
{
	size_t nr = 0;
	while (runner[nr])
		nr++;
	char **argv = xcalloc(nr + 2 * j->ov.n + 8, sizeof(*argv));
	size_t k = 0;
	for (size_t i = 0; i < nr; i++)
		argv[k++] = xstrdup(runner[i]);
	argv[k++] = xstrdup("run");
	argv[k++] = xstrdup(e->scenario_file);
	for (size_t i = 0; i < j->ov.n; i++) {
		argv[k++] = xstrdup("--set");
		if (asprintf(&argv[k++], "%s=%s", j->ov.v[i].key, j->ov.v[i].val) < 0)
			abort();
	}
	argv[k++] = xstrdup("--seed");
	if (asprintf(&argv[k++], "%llu", (unsigned long long)j->seed) < 0)
		abort();
	if (sample) {
		argv[k++] = xstrdup("--sample");
		argv[k++] = xstrdup(sample);
	}
	return argv;
}

/* Bad input is refused before any run starts: every arm at every point of the jobs to run
 * goes through `mmsim run --dry-run` (the seed changes no check, so one job per pair).
 * Returns 0, or 2 after printing each refusal. */
int validate_points(const struct experiment *e, char **runner, struct job **todo, size_t ntodo)
{
	size_t npairs = plan_npoints(e) * e->narms;
	bool *seen = xcalloc(npairs + 1, sizeof(*seen));
	int bad = 0;
	for (size_t i = 0; i < ntodo; i++) {
		const struct job *j = todo[i];
		size_t pair = j->point * e->narms + j->arm;
		if (pair < npairs && seen[pair])
			continue;
		if (pair < npairs)
			seen[pair] = true;
		char **argv = job_argv(runner, e, j, NULL);
		size_t k = 0;
		while (argv[k])
			k++;
		argv = xreallocarray(argv, k + 2, sizeof(*argv));
		argv[k] = xstrdup("--dry-run");
		argv[k + 1] = NULL;
		char errtext[2048];
		int status = exec_check(argv, errtext, sizeof(errtext));
		exec_free_argv(argv);
		if (status == 0)
			continue;
		char how[160];
		if (status < 0)
			snprintf(how, sizeof(how), "could not be started");
		else
			exec_describe_status(status, how, sizeof(how));
		fprintf(stderr, "mmsim: arm %s", e->arms[j->arm].name);
		char *ov = overrides_text(&j->ov);
		if (*ov)
			fprintf(stderr, " (%s)", ov);
		free(ov);
		fprintf(stderr, " is refused (%s): %s%s", how, errtext,
			*errtext && errtext[strlen(errtext) - 1] == '\n' ? "" : "\n");
		bad = 1;
	}
	free(seen);
	if (bad)
		fprintf(stderr, "mmsim: nothing was run: fix the input above and rerun\n");
	return bad ? 2 : 0;
}
