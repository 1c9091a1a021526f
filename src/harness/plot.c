/* Graphs through the gnuplot binary: data and script files are kept beside the images so a
 * user can restyle a graph by editing the .gp file and running gnuplot on it. */
#include "harness/report.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness/vmstat.h"
#include "sim/xalloc.h"

/* Runs gnuplot with args in dir; exit status, or -1 when it could not be started. */
static int run_gnuplot(const char *dir, const char *const *args)
{
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (dir && chdir(dir))
			_exit(126);
		int null = open("/dev/null", O_RDWR);
		if (null >= 0) {
			dup2(null, 0);
			dup2(null, 1);
		}
		const char *argv[8] = {"gnuplot"};
		for (int i = 0; args[i] && i < 6; i++)
			argv[i + 1] = args[i];
		execvp("gnuplot", (char *const *)argv);
		_exit(127);
	}
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static const char *png_terminal(void)
{
	static const char *term;
	if (!term) {
		const char *probe[] = {"-e", "set terminal pngcairo", NULL};
		term = run_gnuplot(NULL, probe) == 0 ? "pngcairo" : "png";
	}
	return term;
}

/* gnuplot strings are single-quoted; a quote inside is doubled. */
void gp_quote(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputc('\'', f);
		fputc(*s, f);
	}
	fputc('\'', f);
}

/* An error bar: none where the spread is undefined (one run). */
static double bar(double stddev)
{
	return isnan(stddev) ? 0 : stddev;
}

static int all_numeric(const struct vary *v)
{
	for (size_t i = 0; i < v->n; i++) {
		char *end;
		strtod(v->values[i], &end);
		if (end == v->values[i] || *end)
			return 0;
	}
	return 1;
}

static void metric_label(FILE *f, const struct exp_results *r)
{
	char buf[256];
	snprintf(buf, sizeof(buf), "%s%s%s%s (%s, %s is better)", r->metric, *r->unit ? " [" : "",
		 r->unit, *r->unit ? "]" : "", r->better == BETTER_HIGHER ? "Hmean" : "Amean",
		 r->better == BETTER_HIGHER ? "higher" : "lower");
	gp_quote(f, buf);
}

static void gp_header(FILE *f, const struct exp_results *r, const char *title)
{
	char buf[512];
	snprintf(buf, sizeof(buf), "%s: %s", r->e->scenario_name, title);
	fputs("set title ", f);
	gp_quote(f, buf);
	fputs(" noenhanced\nset ylabel ", f);
	metric_label(f, r);
	fputs(" noenhanced\nset key outside right top noenhanced\nset grid ytics\n"
	      "set border 3\nset tics nomirror\nset yrange [0:*]\n",
	      f);
}

/* x is the first varied key with numeric values (else the first varied key); one line per
 * arm and combination of the other varied keys. */
static int sweep_graph(const void *ctx, FILE *gp, FILE *dat)
{
	const struct exp_results *r = ctx;
	const struct experiment *e = r->e;
	size_t xd = 0;
	for (size_t d = 0; d < e->nvary; d++)
		if (all_numeric(&e->vary[d]) && e->vary[d].n > 1) {
			xd = d;
			break;
		}
	const struct vary *xv = &e->vary[xd];
	int numeric = all_numeric(xv);
	size_t stride = 1; /* points between neighbouring x values: later keys vary faster */
	for (size_t d = xd + 1; d < e->nvary; d++)
		stride *= e->vary[d].n;
	double *v = xcalloc(e->nseeds + 1, sizeof(double));
	gp_header(gp, r, "sweep");
	fputs("set xlabel ", gp);
	gp_quote(gp, xv->key);
	fputs(" noenhanced\n", gp);
	if (!numeric)
		fputs("set xtics rotate by -30\nset offsets 0.5, 0.5, 0, 0\n", gp);
	else
		fputs("set offsets graph 0.04, graph 0.04, 0, 0\n", gp);
	fputs("plot ", gp);
	size_t block = 0;
	for (size_t a = 0; a < e->narms; a++)
		for (size_t p0 = 0; p0 < r->npoints; p0++) {
			if ((p0 / stride) % xv->n)
				continue; /* not the first x of a line */
			fprintf(dat, "# arm %s\n", e->arms[a].name);
			for (size_t x = 0; x < xv->n; x++) {
				size_t p = p0 + x * stride;
				struct summary s;
				size_t n = cell_values(results_cell(r, p, a), r->metric, v);
				stats_summarise(v, n, r->better, &s);
				if (!n)
					continue;
				if (numeric)
					fprintf(dat, "%s %.10g %.10g\n", xv->values[x], s.mean,
						bar(s.stddev));
				else
					fprintf(dat, "%zu %.10g %.10g \"%s\"\n", x, s.mean,
						bar(s.stddev), xv->values[x]);
			}
			fputs("\n\n", dat);
			char label[512];
			int len = snprintf(label, sizeof(label), "%s", e->arms[a].name);
			for (size_t d = 0; d < e->nvary && len < (int)sizeof(label); d++)
				if (d != xd)
					len += snprintf(label + len, sizeof(label) - (size_t)len,
							" %s=%s", e->vary[d].key,
							plan_point_value(e, p0, d));
			fprintf(gp, "%s$data index %zu using 1:2:3%s with yerrorlines lw 2 title ",
				block ? ", \\\n     " : "", block, numeric ? "" : ":xtic(4)");
			gp_quote(gp, label);
			block++;
		}
	fputc('\n', gp);
	free(v);
	return 0;
}

/* Bars: the figure of merit per arm with its stddev. */
static int compare_graph(const void *ctx, FILE *gp, FILE *dat)
{
	const struct exp_results *r = ctx;
	const struct experiment *e = r->e;
	double *v = xcalloc(e->nseeds + 1, sizeof(double));
	for (size_t a = 0; a < e->narms; a++) {
		struct summary s;
		size_t n = cell_values(results_cell(r, 0, a), r->metric, v);
		stats_summarise(v, n, r->better, &s);
		fprintf(dat, "\"%s\" %.10g %.10g\n", e->arms[a].name, n ? s.mean : 0,
			n ? bar(s.stddev) : 0);
	}
	free(v);
	gp_header(gp, r, "compare");
	fputs("set style fill solid 0.5 border -1\nset boxwidth 0.6\nset xrange [-0.6:*]\n"
	      "set offsets 0, 0.6, 0, 0\nset key off\n"
	      "plot $data using 0:2:3:xtic(1) with boxerrorbars lc rgb '#4477aa'\n",
	      gp);
	return 0;
}

/* Clustered bars: pages scanned by direct reclaim and by kswapd, per arm. */
static int scan_graph(const void *ctx, FILE *gp, FILE *dat)
{
	const struct exp_results *r = ctx;
	const struct experiment *e = r->e;
	for (size_t a = 0; a < e->narms; a++) {
		struct vmstat_summary vs;
		const struct cell *c = results_cell(r, 0, a);
		vmstat_summarise(c->runs, c->n, &vs);
		double d = vs.v[VMS_DIRECT_SCANNED], k = vs.v[VMS_KSWAPD_SCANNED];
		fprintf(dat, "\"%s\" %.10g %.10g\n", e->arms[a].name, isnan(d) ? 0 : d,
			isnan(k) ? 0 : k);
	}
	char buf[256];
	snprintf(buf, sizeof(buf), "%s: pages scanned (mean per run)", e->scenario_name);
	fputs("set title ", gp);
	gp_quote(gp, buf);
	fputs(" noenhanced\nset ylabel 'pages'\nset key outside right top\nset grid ytics\n"
	      "set border 3\nset tics nomirror\nset yrange [0:*]\n"
	      "set style data histograms\nset style histogram clustered gap 1\n"
	      "set style fill solid 0.6 border -1\n"
	      "plot $data using 2:xtic(1) title 'direct' lc rgb '#cc6677', "
	      "'' using 3 title 'kswapd' lc rgb '#4477aa'\n",
	      gp);
	return 0;
}

int plot_draw(const void *ctx, const char *dir, const char *name,
	      int (*fn)(const void *ctx, FILE *gp, FILE *dat))
{
	char path[4096];
	/* The data goes in a separate file too, but the script carries its own copy as a
	 * datablock so it can be run from anywhere. */
	snprintf(path, sizeof(path), "%s/%s.dat", dir, name);
	FILE *dat = fopen(path, "w+");
	snprintf(path, sizeof(path), "%s/%s.gp.body", dir, name);
	FILE *body = fopen(path, "w+");
	if (!dat || !body) {
		fprintf(stderr, "mmsim: cannot write %s: %s\n", path, strerror(errno));
		if (dat)
			fclose(dat);
		if (body)
			fclose(body);
		return -1;
	}
	fn(ctx, body, dat);
	snprintf(path, sizeof(path), "%s/%s.gp", dir, name);
	FILE *gp = fopen(path, "w");
	if (!gp) {
		fclose(dat);
		fclose(body);
		return -1;
	}
	fprintf(gp,
		"# mmsim graph; render with: gnuplot -e \"set terminal svg; set output "
		"'x.svg'\" %s.gp\n$data << EOD\n",
		name);
	rewind(dat);
	int ch;
	while ((ch = fgetc(dat)) != EOF)
		fputc(ch, gp);
	fputs("EOD\n", gp);
	rewind(body);
	while ((ch = fgetc(body)) != EOF)
		fputc(ch, gp);
	fclose(gp);
	fclose(dat);
	fclose(body);
	snprintf(path, sizeof(path), "%s/%s.gp.body", dir, name);
	unlink(path);

	char svg[512], png[512], gpfile[512];
	snprintf(svg, sizeof(svg),
		 "set terminal svg size 720,420 dynamic noenhanced font 'sans,11' "
		 "background rgb 'white'; set output '%s.svg'",
		 name);
	snprintf(png, sizeof(png),
		 "set terminal %s size 960,560 noenhanced font 'sans,11' background rgb "
		 "'white'; set output '%s.png'",
		 png_terminal(), name);
	snprintf(gpfile, sizeof(gpfile), "%s.gp", name);
	const char *a1[] = {"-e", svg, gpfile, NULL}, *a2[] = {"-e", png, gpfile, NULL};
	int rc1 = run_gnuplot(dir, a1);
	if (rc1 == 127) {
		fprintf(stderr, "mmsim: gnuplot not found; graphs skipped (install gnuplot-nox)\n");
		return -1;
	}
	int rc2 = run_gnuplot(dir, a2);
	if (rc1 || rc2) {
		fprintf(stderr, "mmsim: gnuplot failed on %s/%s.gp\n", dir, name);
		return -1;
	}
	return 0;
}

void plot_add_svg(char ***svgs, size_t *n, const char *dir, const char *name)
{
	char **nv = xrealloc(*svgs, (*n + 1) * sizeof(*nv));
	*svgs = nv;
	if (asprintf(&(*svgs)[(*n)++], "%s/%s.svg", dir, name) < 0)
		abort();
}

int plot_experiment(const struct exp_results *r, const char *dir, const char *prefix, char ***svgs,
		    size_t *nsvgs)
{
	char name[512];
	int drawn = 0;
	*svgs = NULL;
	*nsvgs = 0;
	if (!r->found)
		return 0;
	if (r->e->kind == EXP_SWEEP) {
		snprintf(name, sizeof(name), "%s-sweep", prefix);
		if (plot_draw(r, dir, name, sweep_graph))
			return -1;
		plot_add_svg(svgs, nsvgs, dir, name);
		return 1;
	}
	snprintf(name, sizeof(name), "%s-metric", prefix);
	if (plot_draw(r, dir, name, compare_graph))
		return -1;
	plot_add_svg(svgs, nsvgs, dir, name);
	drawn++;
	snprintf(name, sizeof(name), "%s-scanned", prefix);
	if (plot_draw(r, dir, name, scan_graph))
		return -1;
	plot_add_svg(svgs, nsvgs, dir, name);
	return drawn + 1;
}
