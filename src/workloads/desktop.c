/* desktop: Wu Fengguang's 2009 desktop test (benchmarks.md §5), modelled as programs.
 *
 * The script (run-many-x-apps.sh) is the `desktop-run` process. For every line of its
 * program list it prints the seconds since the start and "N <program>", starts the program
 * (fork + exec), lists the windows (`wmctrl -l`), then for every window runs
 * `wmctrl -a <title>` and lets the window come to the front, and finally runs
 * `firefox URL`, which makes the running firefox open a new tab. Nothing is ever closed.
 *
 * What a window switch costs in memory (benchmarks.md §5, "What switch between windows
 * means"): the X server touches its core and the window's pixmaps, the window manager runs,
 * and the application repaints: a part of its text and of the shared libraries (executable
 * file pages, the ones VM_EXEC protection is about) and a part of its heap. The script
 * waits for each switch to be served before the next one, standing in for the X server
 * serialising all of it; the real script did not wait, but X did (docs/exec-protect.md).
 *
 * Deterministic: which pages of a region a program touches is a fixed stride pattern,
 * not a random draw, so a run needs no RNG. */
#include "workloads/desktop.h"

#include "kernel/process.h"
#include "workloads/scenario.h"
#include "sim/xalloc.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KiB (1ULL << 10)
#define MiB (1ULL << 20)

#define DP(f) offsetof(struct scenario_config, desktop.f)
static const struct param_desc params[] = {
    {"desktop.programs", P_INT, DP(programs), 0, 45, NULL,
     "programs launched, from the thread's list (benchmarks.md §5)"},
    {"desktop.noop_steps", P_INT, DP(noop_steps), 0, 100, NULL,
     "steps with no launch after the programs (the commented-out oo* lines)"},
    {"desktop.lib_c", P_SIZE, DP(lib_c), 4096, 1LL << 32, NULL, "libc/ld.so text [estimate]"},
    {"desktop.lib_x11", P_SIZE, DP(lib_x11), 4096, 1LL << 32, NULL,
     "X11 libraries' text [estimate]"},
    {"desktop.lib_gtk", P_SIZE, DP(lib_gtk), 4096, 1LL << 32, NULL,
     "glib/gtk/pango/cairo text [estimate]"},
    {"desktop.lib_gnome", P_SIZE, DP(lib_gnome), 4096, 1LL << 32, NULL,
     "GNOME platform libraries' text [estimate]"},
    {"desktop.lib_xul", P_SIZE, DP(lib_xul), 4096, 1LL << 32, NULL,
     "firefox libxul text [estimate]"},
    {"desktop.app_text", P_SIZE, DP(app_text), 4096, 1LL << 32, NULL,
     "each program's own text [estimate]"},
    {"desktop.x_text", P_SIZE, DP(x_text), 4096, 1LL << 32, NULL, "X server text [estimate]"},
    {"desktop.app_heap", P_SIZE, DP(app_heap), 4096, 1LL << 32, NULL,
     "heap of a GTK/GNOME program [estimate]"},
    {"desktop.xapp_heap", P_SIZE, DP(xapp_heap), 4096, 1LL << 32, NULL,
     "heap of a plain X client [estimate]"},
    {"desktop.firefox_heap", P_SIZE, DP(firefox_heap), 4096, 1LL << 32, NULL,
     "firefox heap after start-up [estimate]"},
    {"desktop.firefox_tab", P_SIZE, DP(firefox_tab), 0, 1LL << 32, NULL,
     "firefox heap per further tab [estimate]"},
    {"desktop.x_heap", P_SIZE, DP(x_heap), 4096, 1LL << 32, NULL,
     "X server heap before the test [estimate]"},
    {"desktop.x_window", P_SIZE, DP(x_window), 0, 1LL << 32, NULL,
     "X server memory per window [estimate]"},
    {"desktop.app_data", P_SIZE, DP(app_data), 0, 1LL << 32, NULL,
     "data files read by a starting program [estimate]"},
    {"desktop.launch_pct", P_INT, DP(launch_pct), 0, 100, NULL,
     "% of text/library pages touched at start-up [estimate]"},
    {"desktop.switch_text_pct", P_INT, DP(switch_text_pct), 0, 100, NULL,
     "% of text/library pages a window switch runs [estimate]"},
    {"desktop.switch_heap_pct", P_INT, DP(switch_heap_pct), 0, 100, NULL,
     "% of the heap a window switch touches [estimate]"},
    {"desktop.switch_dirty_pct", P_INT, DP(switch_dirty_pct), 0, 100, NULL,
     "% of the touched heap pages written [estimate]"},
    {"desktop.launch_cpu", P_TIME, DP(launch_cpu), 0, 100LL * 1000000000, NULL,
     "CPU to start a program [estimate]"},
    {"desktop.switch_cpu", P_TIME, DP(switch_cpu), 0, 10LL * 1000000000, NULL,
     "CPU of one repaint [estimate]"},
};

void desktop_defaults(struct desktop_params *p)
{
	*p = (struct desktop_params){
	    .programs = 45,
	    .noop_steps = 6,
	    .lib_c = 1536 * KiB,
	    .lib_x11 = 2 * MiB,
	    .lib_gtk = 10 * MiB,
	    .lib_gnome = 8 * MiB,
	    .lib_xul = 14 * MiB,
	    .app_text = 512 * KiB,
	    .x_text = 2 * MiB,
	    .app_heap = 6 * MiB,
	    .xapp_heap = 1 * MiB,
	    .firefox_heap = 40 * MiB,
	    .firefox_tab = 2 * MiB,
	    .x_heap = 24 * MiB,
	    .x_window = 1 * MiB,
	    .app_data = 1 * MiB,
	    .launch_pct = 50,
	    .switch_text_pct = 10,
	    .switch_heap_pct = 25,
	    .switch_dirty_pct = 25,
	    .launch_cpu = 200 * NSEC_PER_MSEC,
	    .switch_cpu = 10 * NSEC_PER_MSEC,
	};
}

/* Which libraries a program links, beyond libc. */
enum app_kind {
	KIND_X,	      /* plain X client: libc, X11 */
	KIND_GNOME,   /* GTK/GNOME program: libc, X11, GTK stack, GNOME libraries */
	KIND_FIREFOX, /* libc, X11, GTK stack, libxul */
};

/* The thread's program list, in order (benchmarks.md §5), with the libraries each links. */
static const struct {
	const char *name;
	enum app_kind kind;
} programs[] = {
    {"xeyes", KIND_X},
    {"firefox", KIND_FIREFOX},
    {"nautilus", KIND_GNOME},
    {"nautilus --browser", KIND_GNOME},
    {"gthumb", KIND_GNOME},
    {"gedit", KIND_GNOME},
    {"xpdf /usr/share/doc/shared-mime-info/shared-mime-info-spec.pdf", KIND_X},
    {"xterm", KIND_X},
    {"mlterm", KIND_X},
    {"gnome-terminal", KIND_GNOME},
    {"urxvt", KIND_X},
    {"gnome-system-monitor", KIND_GNOME},
    {"gnome-help", KIND_GNOME},
    {"gnome-dictionary", KIND_GNOME},
    {"/usr/games/sol", KIND_GNOME},
    {"/usr/games/gnometris", KIND_GNOME},
    {"/usr/games/gnect", KIND_GNOME},
    {"/usr/games/gtali", KIND_GNOME},
    {"/usr/games/iagno", KIND_GNOME},
    {"/usr/games/gnotravex", KIND_GNOME},
    {"/usr/games/mahjongg", KIND_GNOME},
    {"/usr/games/gnome-sudoku", KIND_GNOME},
    {"/usr/games/glines", KIND_GNOME},
    {"/usr/games/glchess", KIND_GNOME},
    {"/usr/games/gnomine", KIND_GNOME},
    {"/usr/games/gnotski", KIND_GNOME},
    {"/usr/games/gnibbles", KIND_GNOME},
    {"/usr/games/gnobots2", KIND_GNOME},
    {"/usr/games/blackjack", KIND_GNOME},
    {"/usr/games/same-gnome", KIND_GNOME},
    {"/usr/bin/gnome-window-properties", KIND_GNOME},
    {"/usr/bin/gnome-default-applications-properties", KIND_GNOME},
    {"/usr/bin/gnome-at-properties", KIND_GNOME},
    {"/usr/bin/gnome-typing-monitor", KIND_GNOME},
    {"/usr/bin/gnome-at-visual", KIND_GNOME},
    {"/usr/bin/gnome-sound-properties", KIND_GNOME},
    {"/usr/bin/gnome-at-mobility", KIND_GNOME},
    {"/usr/bin/gnome-keybinding-properties", KIND_GNOME},
    {"/usr/bin/gnome-about-me", KIND_GNOME},
    {"/usr/bin/gnome-display-properties", KIND_GNOME},
    {"/usr/bin/gnome-network-preferences", KIND_GNOME},
    {"/usr/bin/gnome-mouse-properties", KIND_GNOME},
    {"/usr/bin/gnome-appearance-properties", KIND_GNOME},
    {"/usr/bin/gnome-control-center", KIND_GNOME},
    {"/usr/bin/gnome-keyboard-properties", KIND_GNOME},
};
#define NR_PROGRAMS ((int)ARRAY_SIZE(programs))
static const char *const noop_names[] = {": oocalc", ": oodraw", ": ooimpress",
					 ": oomath", ": ooweb",	 ": oowriter"};

enum { LIB_C, LIB_X11, LIB_GTK, LIB_GNOME, LIB_XUL, NR_LIBS };

enum dreq { REQ_NONE, REQ_SWITCH, REQ_NEWTAB, REQ_LIST };

/* A mapping a long-lived program keeps, and the part of it a switch touches. */
struct region {
	uint64_t start, npages;
};

/* A long-lived program with a window (or the X server / window manager): it sleeps until
 * the script asks it to do something, does it, and says so. */
struct dproc {
	const char *name;
	enum app_kind kind;
	struct process *proc;
	struct address_space *text, *data;
	uint64_t heap_bytes;
	struct region text_map, libs[NR_LIBS], heap, tabs;
	bool up;	   /* launched and waiting for requests */
	enum dreq pending; /* set by the script, cleared when served */
	int window;	   /* REQ_SWITCH: which window the X server draws */
	struct waitqueue wq, done_wq;
};

static struct {
	struct desktop_params p;
	struct address_space *lib[NR_LIBS];
	struct address_space *wmctrl_text, *ff_remote_text, *x_text, *wm_text;
	struct dproc xserver, wm;
	struct dproc *apps; /* p.programs of them */
	int nsteps;
	sim_time_t *step_time; /* seconds since start at which each step began, in ns */
	sim_time_t start, end;
	struct region *xwin; /* the X server's memory per window */
	int nwin;
	bool done;
	int killed;
} D;

static uint64_t pages_of(uint64_t bytes)
{
	return (bytes + MM->page_size - 1) / MM->page_size;
}

/* A fixed, spread-out pct% of a region's pages: page i is in if (i * 37) % 100 < pct.
 * The same pages for every program mapping a library: the code a repaint runs is the same
 * code in everybody's copy. 37 is prime to 100, so the pattern has no long gaps. */
static bool in_subset(uint64_t i, int pct)
{
	return (int)((i * 37) % 100) < pct;
}

static void touch_region(const struct region *r, int pct, int kind, int dirty_pct)
{
	for (uint64_t i = 0; i < r->npages; i++) {
		if (!in_subset(i, pct))
			continue;
		int k = kind;
		if (kind == TOUCH_WRITE && !in_subset(i / 7, dirty_pct))
			k = TOUCH_READ;
		sys_touch(r->start + i, k);
	}
}

static void map_libs(struct dproc *d, enum app_kind kind)
{
	bool want[NR_LIBS] = {[LIB_C] = true, [LIB_X11] = true};
	want[LIB_GTK] = kind != KIND_X;
	want[LIB_GNOME] = kind == KIND_GNOME;
	want[LIB_XUL] = kind == KIND_FIREFOX;
	for (int l = 0; l < NR_LIBS; l++) {
		d->libs[l].npages = 0;
		if (!want[l])
			continue;
		d->libs[l].npages = D.lib[l]->size_pages;
		d->libs[l].start =
		    sys_mmap_file(D.lib[l], 0, D.lib[l]->size_pages, VM_READ | VM_EXEC);
	}
}

/* Runs the code of a program: its own text and every library it maps, pct% of each. */
static void run_code(struct dproc *d, int pct)
{
	touch_region(&d->text_map, pct, TOUCH_EXEC, 0);
	for (int l = 0; l < NR_LIBS; l++)
		touch_region(&d->libs[l], pct, TOUCH_EXEC, 0);
}

static void served(struct dproc *d)
{
	d->pending = REQ_NONE;
	wake_up_all(&d->done_wq);
}

/* The event loop of a long-lived program. */
static void dproc_loop(struct dproc *d)
{
	const struct desktop_params *p = &D.p;
	d->up = true;
	served(d);
	for (;;) {
		while (d->pending == REQ_NONE)
			sleep_on(&d->wq, 0, true), check_fatal_signal();
		run_code(d, p->switch_text_pct);
		if (d == &D.xserver) {
			if (d->pending == REQ_SWITCH && d->window < D.nwin)
				touch_region(&D.xwin[d->window], 100, TOUCH_WRITE, 100);
			touch_region(&d->heap, p->switch_heap_pct, TOUCH_WRITE,
				     p->switch_dirty_pct);
		} else if (d->pending == REQ_NEWTAB && p->firefox_tab) {
			/* a new tab: more heap, all of it written while rendering */
			uint64_t n = pages_of(p->firefox_tab);
			struct region tab = {sys_mmap_anon(n, VM_READ | VM_WRITE), n};
			touch_region(&tab, 100, TOUCH_WRITE, 100);
			touch_region(&d->heap, p->switch_heap_pct, TOUCH_WRITE,
				     p->switch_dirty_pct);
		} else {
			touch_region(&d->heap, p->switch_heap_pct, TOUCH_WRITE,
				     p->switch_dirty_pct);
		}
		sys_compute(p->switch_cpu);
		served(d);
	}
}

/* Start-up of a program after exec: map the libraries, run the start-up code, read the data
 * files, build the heap, then wait for events. */
static void dproc_main(void *arg)
{
	struct dproc *d = arg;
	const struct desktop_params *p = &D.p;
	map_libs(d, d->kind);
	run_code(d, p->launch_pct);
	if (d->data)
		for (uint64_t off = 0; off < d->data->size_pages; off += 32)
			sys_read(d->data, off, MIN(32, d->data->size_pages - off));
	uint64_t n = pages_of(d->heap_bytes);
	d->heap = (struct region){sys_mmap_anon(n, VM_READ | VM_WRITE), n};
	touch_region(&d->heap, 100, TOUCH_WRITE, 100);
	sys_compute(p->launch_cpu);
	dproc_loop(d);
}

static void dproc_exec(void *arg)
{
	struct dproc *d = arg;
	sys_exec(d->name, d->text, &d->text_map.start, dproc_main, d);
}

/* Asks d to serve a request and waits until it has; false if d has died (OOM-killed). */
static bool request(struct dproc *d, enum dreq r, int window)
{
	if (!d->proc || d->proc->exited)
		return false;
	d->window = window;
	d->pending = r;
	wake_up_all(&d->wq);
	while (d->pending != REQ_NONE) {
		if (d->proc->exited)
			return false;
		sleep_on(&d->done_wq, NSEC_PER_SEC, true);
		check_fatal_signal();
	}
	return true;
}

/* fork + exec of a long-lived program; returns once it is up (or dead). */
static struct process *start_dproc(struct dproc *d, void (*exec_fn)(void *))
{
	d->text_map.npages = d->text->size_pages;
	d->pending = REQ_LIST; /* cleared when the program is up */
	d->proc = sys_fork(d->name, exec_fn, d);
	if (!d->proc)
		return NULL;
	while (d->pending != REQ_NONE && !d->proc->exited)
		sleep_on(&d->done_wq, NSEC_PER_SEC, true), check_fatal_signal();
	return d->proc;
}

/* A short-lived client: wmctrl, or firefox's remote-control instance. It maps its
 * libraries, runs its code, and exits. */
struct client {
	struct address_space *text;
	enum app_kind kind;
	struct dproc self;
};

static void client_main(void *arg)
{
	struct client *c = arg;
	c->self.text_map.npages = c->text->size_pages;
	map_libs(&c->self, c->kind);
	run_code(&c->self, D.p.switch_text_pct);
	sys_exit(0);
}

static void client_exec(void *arg)
{
	struct client *c = arg;
	sys_exec(c->text->name, c->text, &c->self.text_map.start, client_main, c);
}

static void run_client(struct address_space *text, enum app_kind kind)
{
	struct client c = {.text = text, .kind = kind};
	if (sys_fork(text->name, client_exec, &c))
		sys_wait(NULL);
}

/* One window switch: `wmctrl -a`, then the X server, the window manager and the program. */
static void switch_to(int w)
{
	run_client(D.wmctrl_text, KIND_X);
	request(&D.xserver, REQ_SWITCH, w);
	request(&D.wm, REQ_SWITCH, w);
	if (!request(&D.apps[w], REQ_SWITCH, w) && D.apps[w].proc && D.apps[w].proc->exited)
		D.apps[w].up = false;
}

static void xserver_exec(void *arg);

/* run-many-x-apps.sh */
static void desktop_script(void *arg)
{
	(void)arg;
	const struct desktop_params *p = &D.p;
	/* the session the test starts in: X and the window manager are running */
	start_dproc(&D.xserver, xserver_exec);
	start_dproc(&D.wm, dproc_exec);
	D.start = local_now();
	for (int s = 0; s < D.nsteps; s++) {
		D.step_time[s] = local_now() - D.start;
		if (s < p->programs) {
			struct dproc *a = &D.apps[s];
			start_dproc(a, dproc_exec);
			if (!a->up)
				D.killed++;
			D.nwin++;
		}
		run_client(D.wmctrl_text, KIND_X); /* wmctrl -l */
		request(&D.xserver, REQ_LIST, -1);
		for (int w = 0; w < D.nwin; w++)
			if (D.apps[w].up)
				switch_to(w);
		/* firefox /usr/share/doc/debian/FAQ/index.html */
		if (p->programs > 1 && D.apps[1].up) {
			run_client(D.ff_remote_text, KIND_FIREFOX);
			request(&D.apps[1], REQ_NEWTAB, 1);
		}
	}
	D.end = local_now();
	D.done = true;
	sys_exit(0);
}

static void xserver_main(void *arg)
{
	struct dproc *d = arg;
	/* all window memory is reserved up front (touched only when used), so the X
	 * server's address space does not change under the script */
	for (int w = 0; w < D.p.programs; w++) {
		uint64_t n = pages_of(D.p.x_window);
		D.xwin[w].npages = n;
		D.xwin[w].start = n ? sys_mmap_anon(n, VM_READ | VM_WRITE) : 0;
	}
	dproc_main(d);
}

static void xserver_exec(void *arg)
{
	struct dproc *d = arg;
	sys_exec(d->name, d->text, &d->text_map.start, xserver_main, d);
}

static struct address_space *text_file(const char *name, uint64_t bytes)
{
	uint64_t n = MAX(pages_of(bytes), 1);
	return file_create(name, n, n, true);
}

static int desktop_start(const struct scenario_config *cfg, uint64_t seed)
{
	(void)seed;
	memset(&D, 0, sizeof(D));
	D.p = cfg->desktop;
	const struct desktop_params *p = &D.p;
	if (p->programs > NR_PROGRAMS)
		return -1;
	uint64_t libsz[NR_LIBS] = {p->lib_c, p->lib_x11, p->lib_gtk, p->lib_gnome, p->lib_xul};
	static const char *const libname[NR_LIBS] = {"libc", "libX11", "libgtk", "libgnome",
						     "libxul"};
	for (int l = 0; l < NR_LIBS; l++)
		D.lib[l] = text_file(libname[l], libsz[l]);
	D.wmctrl_text = text_file("wmctrl", 32 * KiB);
	D.ff_remote_text = text_file("firefox-remote", 64 * KiB);
	D.nsteps = p->programs + p->noop_steps;
	D.step_time = xcalloc((size_t)MAX(D.nsteps, 1), sizeof(*D.step_time));
	D.apps = xcalloc((size_t)MAX(p->programs, 1), sizeof(*D.apps));
	D.xwin = xcalloc((size_t)MAX(p->programs, 1), sizeof(*D.xwin));
	D.xserver = (struct dproc){.name = "Xorg", .kind = KIND_X, .heap_bytes = p->x_heap};
	D.xserver.text = text_file("Xorg", p->x_text);
	D.wm = (struct dproc){.name = "metacity", .kind = KIND_GNOME, .heap_bytes = p->xapp_heap};
	D.wm.text = text_file("metacity", p->app_text);
	for (int i = 0; i < p->programs; i++) {
		struct dproc *a = &D.apps[i];
		char name[64];
		a->name = programs[i].name;
		a->kind = programs[i].kind;
		snprintf(name, sizeof(name), "text%d", i);
		a->text = text_file(name, p->app_text);
		if (p->app_data) {
			uint64_t n = pages_of(p->app_data);
			snprintf(name, sizeof(name), "data%d", i);
			a->data = file_create(name, n, n, false);
		}
		a->heap_bytes = a->kind == KIND_FIREFOX ? p->firefox_heap
				: a->kind == KIND_X	? p->xapp_heap
							: p->app_heap;
	}
	struct process *init = process_spawn("desktop-run", desktop_script, NULL);
	if (!init)
		return -1;
	init->is_init = true;
	return 0;
}

static bool desktop_finished(void)
{
	return D.done;
}

static const char *step_name(int s)
{
	if (s < D.p.programs)
		return programs[s].name;
	int k = s - D.p.programs;
	return k < (int)ARRAY_SIZE(noop_names) ? noop_names[k] : ": (no-op)";
}

static void desktop_report(const struct scenario_config *cfg, struct workload_result *r)
{
	(void)cfg;
	r->completed = D.done;
	result_printf(r, "desktop: %d programs, %d no-op steps; progress timing (seconds):\n",
		      D.p.programs, D.p.noop_steps);
	int last = -1;
	for (int s = 0; s < D.nsteps; s++) {
		if (s > 0 && !D.step_time[s])
			break;
		result_printf(r, "%9.2f    N %s\n", (double)D.step_time[s] / 1e9, step_name(s));
		last = s;
	}
	if (!D.done) {
		result_printf(r, "desktop: did not finish\n");
		return;
	}
	result_printf(r, "desktop: end of the last switch round at %.2f s, %d program(s) killed\n",
		      (double)(D.end - D.start) / 1e9, D.killed);
	/* the thread's "last step" is the time its last line was printed */
	result_add_metric(r, "last_step", (double)D.step_time[last] / 1e9, "s", false, true);
	static const int marks[] = {7, 14, 29, 43, 44};
	for (size_t i = 0; i < ARRAY_SIZE(marks); i++) {
		int s = marks[i];
		if (s >= D.p.programs)
			continue;
		const char *n = strrchr(programs[s].name, '/');
		char key[48];
		snprintf(key, sizeof(key), "t_%s", n ? n + 1 : programs[s].name);
		result_add_metric(r, key, (double)D.step_time[s] / 1e9, "s", false, false);
	}
	result_add_metric(r, "pgmajfault", (double)vm_events[PGMAJFAULT], "faults", false, false);
	result_add_metric(r, "pswpin", (double)vm_events[PSWPIN], "pages", false, false);
	result_add_metric(r, "nr_vmscan_write", (double)global_page_state(NR_VMSCAN_WRITE), "pages",
			  false, false);
	result_add_metric(r, "killed", D.killed, "programs", false, false);
}

static void desktop_cleanup(void)
{
	free(D.step_time);
	free(D.apps);
	free(D.xwin);
	D.step_time = NULL;
	D.apps = NULL;
	D.xwin = NULL;
}

const struct workload desktop_workload = {
    .name = "desktop",
    .description = "Wu Fengguang's 2009 GNOME desktop: launch 45 programs, switch windows",
    .params = params,
    .nparams = sizeof(params) / sizeof(params[0]),
    .start = desktop_start,
    .finished = desktop_finished,
    .report = desktop_report,
    .cleanup = desktop_cleanup,
};
