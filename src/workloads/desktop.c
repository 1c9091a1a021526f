/* desktop: Wu Fengguang's 2009 desktop test (benchmarks.md §5), replaying measured programs.
 *
 * The script (run-many-x-apps.sh) is the `desktop-run` process. For every line of its
 * program list it prints the seconds since the start and "N <program>", starts the program
 * (fork + exec), lists the windows (`wmctrl -l`), then for every window runs
 * `wmctrl -a <title>` and lets the window come to the front, and finally runs
 * `firefox URL`, which makes the running firefox open a new tab. Nothing is ever closed.
 *
 * Every program is a measured one (desktop_measured.c, docs/desktop-measured.md): today's
 * Debian counterpart run under Xvfb, its smaps read after its first window settled and again
 * after one switch to its window, and in a second run the pages of each file mapping it
 * touched at start-up and in one switch (tools/measure/desktop/touchmap.c: page tables read
 * with the kernel's fault-around off). A program maps the files it mapped, references at
 * start-up the pages of each it touched, builds its measured anonymous memory and uses its
 * measured CPU; a switch references, in the X server, the window manager and the program,
 * the pages each touched in the measured switch; in the program's heap, the anonymous pages
 * its measured switches touched (tools/measure/desktop/anonsets.sh: eight switches, pages
 * pushed to swap before each and read back after), the first switch to a window replaying
 * the first measured one, the next the second, and so on in turn. Where pages were not
 * measured (files the second run did not map, a switch's part of a mapping that could not
 * be watched, the X server's and the window manager's heaps) the part is a fixed spread
 * pattern of the size smaps gave, the same in every program mapping the file; a smaller part
 * is a subset of a larger one (touch_part).
 *
 * Who waits for whom (desktop.switch_wait = 0, the thread's script): the script starts a
 * program in the background and goes on; `wmctrl -l` lists the windows that are up;
 * `wmctrl -a` returns once the X server has served it; the window manager and then the
 * program serve the switch in their own time, from their request queues (desktop_queue.h),
 * while the script goes on to the next window; `firefox URL` returns once the running
 * firefox has taken the URL (its earlier requests served). With desktop.switch_wait = 1 the
 * script waits for each program to be up and each switch to be served by all three.
 *
 * Background activity (desktop.background): while up and waiting for requests, a program
 * (and the X server, the window manager) wakes at the end of each measured idle period
 * (tools/measure/desktop/idle.sh: today's programs left alone under Xvfb, the last one
 * focused) and does what it was measured doing in it: references the anonymous pages the
 * period touched (their ranks, as a switch's), the measured kB of each file mapping (a
 * spread part, as touch_part), and uses the period's CPU; the measured periods in turn.
 * A request is served as soon as the period's work is done.
 *
 * Deterministic: no RNG. */
#include "workloads/desktop.h"

#include "kernel/process.h"
#include "mm/shmem.h"
#include "workloads/desktop_measured.h"
#include "workloads/desktop_pagesets.h"
#include "workloads/desktop_params.h"
#include "workloads/desktop_queue.h"
#include "workloads/desktop_x.h"
#include "sim/xalloc.h"
#include "workloads/scenario.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NR_THREAD DESKTOP_NR_THREAD
#define X_PROG	  NR_THREAD
#define WM_PROG	  (NR_THREAD + 1)

/* REQ_XSEND: the X server's or the window manager's large messages for a program's start-up
 * (window = its desktop_programs index) */
/* REQ_PIN: the X server's buffers for a window just opened (desktop.pinned_kb) */
/* REQ_START: the start-up, done once the program is up; REQ_ACTIVATE: the window manager's
 * part of a switch, which then passes the switch on to the window's program */
enum dreq {
	REQ_START,
	REQ_SWITCH,
	REQ_NEWTAB,
	REQ_LIST,
	REQ_WINDOW,
	REQ_XSEND,
	REQ_PIN,
	REQ_ACTIVATE
};

struct region {
	uint64_t start, npages;
};

/* A long-lived program with a window (or the X server / window manager): it sleeps until
 * the script asks it to do something, does it, and says so. */
struct dproc {
	const char *name;
	const struct desktop_program *prog;
	struct process *proc;
	uint64_t *map_start; /* where each of prog's maps (and its windows' maps) is mapped */
	struct region heap;
	struct region heap2;	/* a further window's heap (nautilus --browser), or none */
	sim_time_t next_idle;	/* when its current idle period ends (background activity) */
	uint32_t idle_periods;	/* idle periods replayed so far */
	bool up;		/* launched and waiting for requests */
	struct desktop_queue q; /* requests posted to it, oldest first */
	int window;		/* which window the request being served is about */
	int first_window;	/* its own window's index in D.win */
	struct waitqueue wq, done_wq;
};

/* A window: the program record it was measured as, and the process showing it. */
struct window {
	const struct desktop_program *prog;
	struct dproc *owner;
	uint64_t *map_start;
	struct region heap; /* what this window added to the owner's heap */
	uint32_t switches;  /* switches to it served so far */
	bool shown;	    /* mapped: its program is up (and has opened it) */
	bool listed;	    /* in the last `wmctrl -l` */
};

static struct {
	struct desktop_params p;
	struct address_space **file; /* one per desktop_files entry */
	struct dproc xserver, wm;
	struct dproc *apps; /* p.programs of them (a further window's entry stays unused) */
	struct window *win;
	int nwin;
	int nsteps;
	sim_time_t *step_time; /* seconds since start at which each step began, in ns */
	sim_time_t start, end;
	struct region *xwin; /* the X server's memory per window */
	bool done;
	int killed;
	uint64_t switches_asked;      /* wmctrl -a runs */
	uint64_t switches_served;     /* switches the windows' programs have served */
	uint64_t x_skbs;	      /* large unix-socket messages sent (desktop_x.c) */
	struct address_space *pinned; /* desktop.pinned_kb's object */
	uint64_t nr_pinned;
	uint64_t *client_starts; /* run_client's, freed here if the run stops while it waits */
} D;

static uint64_t pages_kb(uint64_t kb)
{
	uint64_t bytes = kb * 1024 * (uint64_t)D.p.size_scale / 100;
	return (bytes + MM->page_size - 1) / MM->page_size;
}

static sim_time_t cpu_of(uint32_t ms)
{
	return (sim_time_t)ms * NSEC_PER_MSEC * (sim_time_t)D.p.cpu_scale / 100;
}

/* Page i of an n-page file is in the part of part_kb out of size_kb when a fixed spread
 * pattern says so: (i · 7919) mod 10000 < the part in basis points (7919 is prime to 10000,
 * so the part has no long gaps, and a smaller part is a subset of a larger one). */
static void touch_part(uint64_t start, uint64_t n, uint32_t part_kb, uint32_t size_kb, int kind)
{
	if (!n || !part_kb || !size_kb)
		return;
	uint64_t bp = (uint64_t)MIN(part_kb, size_kb) * 10000 / size_kb;
	if (!bp)
		bp = 1;
	for (uint64_t i = 0; i < n; i++)
		if ((i * 7919) % 10000 < bp)
			sys_touch(start + i, kind);
}

struct touch_at {
	uint64_t start;
	int kind;
};

static void touch_at(void *arg, uint64_t q)
{
	const struct touch_at *t = arg;
	sys_touch(t->start + q, t->kind);
}

/* References the measured pages of an n-page file mapped at start: the runs at
 * desktop_pages[at], in 4 KiB pages of the measured file, scaled as the file's size is. */
static void touch_pages(uint64_t start, uint64_t n, uint32_t at, int kind)
{
	struct touch_at t = {start, kind};
	desktop_for_runs(desktop_pages + at, 4096 * (uint64_t)D.p.size_scale,
			 100 * (uint64_t)MM->page_size, n, touch_at, &t);
}

/* The heap of a switch: one region, or a process's first region followed by a further
 * window's (nautilus --browser: its measured pages are the whole process's). */
struct heap_pair {
	const struct region *a, *b;
};

static void touch_heap_page(void *arg, uint64_t q)
{
	const struct heap_pair *h = arg;
	if (q < h->a->npages)
		sys_touch(h->a->start + q, TOUCH_READ);
	else
		sys_touch(h->b->start + (q - h->a->npages), TOUCH_READ);
}

static uint64_t file_pages(int f)
{
	return D.file[f]->size_pages;
}

static uint64_t map_file(int f)
{
	unsigned prot = VM_READ | (desktop_files[f].exec ? VM_EXEC : 0);
	uint64_t start = sys_mmap_file(D.file[f], 0, file_pages(f), prot);
	/* the era's hole between an object's text and its data (hw elf_max_page_size): ld.so
	 * maps MAXPAGESIZE less a page PROT_NONE; nothing touches it, but what follows it is
	 * 2 MiB further on and so in other page-table pages */
	uint64_t hole = MM->hw->elf_max_page_size / MM->page_size;
	if (desktop_files[f].exec && hole > 1)
		sys_mmap_anon(hole - 1, 0);
	return start;
}

/* Maps every file of prog into the calling process (starts[k] for prog's map k). */
static void map_all(const struct desktop_program *prog, uint64_t *starts)
{
	for (uint32_t k = 0; k < prog->nr_maps; k++)
		starts[k] = map_file(desktop_maps[prog->first_map + k].file);
}

/* References the start-up (or switch) part of every file of prog: the measured pages, or
 * where they were not measured a spread part of the measured size. */
static void run_code(const struct desktop_program *prog, const uint64_t *starts, bool sw)
{
	for (uint32_t k = 0; k < prog->nr_maps; k++) {
		const struct desktop_map *m = &desktop_maps[prog->first_map + k];
		int kind = desktop_files[m->file].exec ? TOUCH_EXEC : TOUCH_READ;
		uint32_t at = sw ? m->switch_pages : m->start_pages;
		if (at != DESKTOP_NO_PAGES)
			touch_pages(starts[k], file_pages(m->file), at, kind);
		else
			touch_part(starts[k], file_pages(m->file), sw ? m->switch_kb : m->start_kb,
				   desktop_files[m->file].size_kb, kind);
	}
}

static void x_send(const struct desktop_program *prog, bool sw, int sender)
{
	if (D.p.x_sends)
		D.x_skbs += desktop_x_send((int)(prog - desktop_programs), sw, sender);
}

static bool request(struct dproc *d, enum dreq r, int window);
static bool post(struct dproc *d, enum dreq r, int window);
static void pin_buffers(int started);

/* A start-up's large messages: the program's own, then (each in its own task, the program
 * waiting as for a reply) the window manager's and the X server's. */
static void x_start(const struct desktop_program *prog)
{
	x_send(prog, false, XS_OWN);
	if (D.p.x_sends) {
		request(&D.wm, REQ_XSEND, (int)(prog - desktop_programs));
		request(&D.xserver, REQ_XSEND, (int)(prog - desktop_programs));
	}
}

static void served(struct dproc *d)
{
	desktop_queue_done(&d->q);
	wake_up_all(&d->done_wq);
}

static struct region new_heap(uint32_t kb)
{
	uint64_t n = pages_kb(kb);
	struct region r = {n ? sys_mmap_anon(n, VM_READ | VM_WRITE) : 0, n};
	for (uint64_t i = 0; i < n; i++)
		sys_touch(r.start + i, TOUCH_WRITE);
	return r;
}

/* One switch to window w, as the owning program (or X, or the window manager) served it. */
static void serve_switch(struct dproc *d, int w)
{
	const struct desktop_program *prog = d->prog;
	const uint64_t *starts = d->map_start;
	const struct region *heap = &d->heap;
	static const struct region none;
	struct heap_pair pair = {&d->heap, &none};
	uint32_t k = 0;
	if (d != &D.xserver && d != &D.wm && w >= 0 && w < D.nwin) {
		prog = D.win[w].prog;
		starts = D.win[w].map_start;
		k = D.win[w].switches++;
		if (prog->same_as >= 0) {
			heap = &D.win[w].heap;
			pair.b = heap;
		}
	}
	run_code(prog, starts, true);
	/* the switch's large messages, each by its sender; the X server's first, the set-up
	 * reply to the wmctrl that asked */
	if (d != &D.xserver && d != &D.wm)
		x_send(prog, true, XS_OWN);
	else if (w >= 0 && w < D.nwin)
		x_send(D.win[w].prog, true, d == &D.wm ? XS_WM : XS_X);
	if (d == &D.xserver && D.p.x_sends)
		D.x_skbs += desktop_x_connection();
	/* the heap: the pages the measured switches touched, switch after switch, in turn
	 * (anonsets.sh); where not measured (the X server, the window manager) a fixed spread
	 * part of the Referenced size. Read: the measurement cannot tell which were written. */
	int pi = (int)(prog - desktop_programs);
	if (d == &D.xserver || d == &D.wm ||
	    !desktop_anon_switch(pi, k, pair.a->npages + pair.b->npages, touch_heap_page, &pair))
		touch_part(heap->start, heap->npages, prog->anon_sw_kb, MAX(prog->anon_kb, 1),
			   TOUCH_READ);
	if (d == &D.xserver && w >= 0 && w < D.nwin)
		touch_part(D.xwin[w].start, D.xwin[w].npages, 1, 1, TOUCH_WRITE);
	sys_compute(cpu_of(prog->sw_cpu_ms));
}

/* A further window of this process (nautilus --browser): map what it maps, run its
 * start-up part, add its heap. */
static void serve_window(struct dproc *d, int w)
{
	struct window *win = &D.win[w];
	map_all(win->prog, win->map_start);
	run_code(win->prog, win->map_start, false);
	x_start(win->prog);
	win->heap = new_heap(win->prog->anon_kb);
	d->heap2 = win->heap;
	sys_compute(cpu_of(win->prog->cpu_ms));
}

/* The measured idle period of d's program that is due: NULL if it has none (or background
 * activity is off). */
static const struct desktop_idle_period *idle_period(const struct dproc *d)
{
	const struct desktop_idle *a = &desktop_idle[d->prog - desktop_programs];
	if (!D.p.background || !a->nr_periods)
		return NULL;
	return &desktop_idle_periods[a->first + d->idle_periods % a->nr_periods];
}

/* The end of an idle period: what the program did in it (idle.sh), in the process's heap
 * (a further window's after its first one: the measured pages are the whole process's) and
 * its start-up mappings. */
static void serve_idle(struct dproc *d, const struct desktop_idle_period *per)
{
	const struct desktop_program *prog = d->prog;
	struct heap_pair pair = {&d->heap, &d->heap2};
	desktop_anon_idle((int)(prog - desktop_programs), d->idle_periods,
			  d->heap.npages + d->heap2.npages, touch_heap_page, &pair);
	for (uint32_t i = 0; i < per->nr_maps; i++) {
		const struct desktop_idle_map *im = &desktop_idle_maps[per->first_map + i];
		const struct desktop_map *m = &desktop_maps[prog->first_map + im->map];
		int kind = desktop_files[m->file].exec ? TOUCH_EXEC : TOUCH_READ;
		touch_part(d->map_start[im->map], file_pages(m->file), im->kb,
			   desktop_files[m->file].size_kb, kind);
	}
	sys_compute(cpu_of(per->cpu_ms));
	d->idle_periods++;
}

/* Waits for a request; with background activity, ends each idle period on time meanwhile. */
static void wait_request(struct dproc *d)
{
	const struct desktop_idle_period *per = idle_period(d);
	if (per && !d->next_idle)
		d->next_idle = local_now() + (sim_time_t)per->ms * NSEC_PER_MSEC;
	while (!d->q.n) {
		per = idle_period(d);
		if (!per) {
			sleep_on(&d->wq, 0, true), check_fatal_signal();
			continue;
		}
		sim_time_t now = local_now();
		if (now < d->next_idle) {
			sleep_on(&d->wq, d->next_idle - now, true), check_fatal_signal();
			continue;
		}
		serve_idle(d, per);
		/* the next period starts when this one's work is done */
		per = idle_period(d);
		d->next_idle = local_now() + (sim_time_t)per->ms * NSEC_PER_MSEC;
	}
}

/* The event loop of a long-lived program. */
static void dproc_loop(struct dproc *d)
{
	d->up = true;
	if (d != &D.xserver && d != &D.wm)
		D.win[d->first_window].shown = true;
	served(d); /* REQ_START */
	for (;;) {
		wait_request(d);
		struct desktop_request r;
		desktop_queue_head(&d->q, &r);
		d->window = r.window;
		if (r.req == REQ_WINDOW) {
			serve_window(d, d->window);
			D.win[d->window].shown = true;
		} else if (r.req == REQ_PIN) {
			pin_buffers(d->window + 1);
		} else if (r.req == REQ_XSEND) {
			x_send(&desktop_programs[d->window], false, d == &D.wm ? XS_WM : XS_X);
		} else if (r.req == REQ_NEWTAB) {
			/* a new tab: more heap, all of it written while rendering */
			new_heap(desktop_firefox_tab_kb);
			serve_switch(d, d->window);
		} else {
			serve_switch(d, r.req == REQ_LIST ? -1 : d->window);
			if (r.req == REQ_SWITCH && d != &D.xserver && d != &D.wm)
				D.switches_served++;
			if (r.req == REQ_ACTIVATE)
				post(D.win[d->window].owner, REQ_SWITCH, d->window);
		}
		served(d);
	}
}

/* Start-up after exec: map the files, run the start-up part, build the heap, then wait. */
static void dproc_main(void *arg)
{
	struct dproc *d = arg;
	map_all(d->prog, d->map_start);
	run_code(d->prog, d->map_start, false);
	if (d != &D.xserver && d != &D.wm)
		x_start(d->prog);
	d->heap = new_heap(d->prog->anon_kb);
	sys_compute(cpu_of(d->prog->cpu_ms));
	dproc_loop(d);
}

static void xserver_main(void *arg);

/* The file exec maps as the program's text: its first executable file. map_all maps it once
 * more with the rest, and the references go there; exec's own mapping is the entry only. */
static struct address_space *exec_file(const struct desktop_program *prog)
{
	for (uint32_t k = 0; k < prog->nr_maps; k++)
		if (desktop_files[desktop_maps[prog->first_map + k].file].exec)
			return D.file[desktop_maps[prog->first_map + k].file];
	return D.file[0];
}

static void dproc_exec(void *arg)
{
	struct dproc *d = arg;
	uint64_t entry;
	sys_exec(d->name, exec_file(d->prog), &entry, d == &D.xserver ? xserver_main : dproc_main,
		 d);
}

static bool alive(const struct dproc *d)
{
	return d->proc && !d->proc->exited;
}

/* Waits until d has served its first `seq` requests; false if d has died (OOM-killed). */
static bool wait_served(struct dproc *d, uint64_t seq)
{
	while (d->q.done < seq) {
		if (!alive(d))
			return false;
		sleep_on(&d->done_wq, NSEC_PER_SEC, true);
		check_fatal_signal();
	}
	return true;
}

/* Queues a request for d without waiting; false if d has died. */
static bool post(struct dproc *d, enum dreq r, int window)
{
	if (!alive(d))
		return false;
	desktop_queue_post(&d->q, r, window);
	wake_up_all(&d->wq);
	return true;
}

/* Asks d to serve a request and waits until it has; false if d has died. */
static bool request(struct dproc *d, enum dreq r, int window)
{
	return post(d, r, window) && wait_served(d, d->q.posted);
}

/* fork + exec of a long-lived program; with `wait`, returns once it is up (or dead). */
static void start_dproc(struct dproc *d, bool wait)
{
	desktop_queue_post(&d->q, REQ_START, -1); /* served when the program is up */
	d->proc = sys_fork(d->name, dproc_exec, d);
	if (wait)
		wait_served(d, d->q.posted);
}

/* A short-lived client: wmctrl, or firefox's remote-control instance. It maps the files of
 * the program it stands in for, runs that program's part (`sw`: its switch part, else its
 * start-up part with its heap and CPU), and exits. */
struct client {
	const struct desktop_program *prog;
	bool sw;
	uint64_t *starts;
};

static void client_main(void *arg)
{
	struct client *c = arg;
	map_all(c->prog, c->starts);
	run_code(c->prog, c->starts, c->sw);
	if (!c->sw) {
		new_heap(c->prog->anon_kb);
		sys_compute(cpu_of(c->prog->cpu_ms));
	}
	sys_exit(0);
}

static void client_exec(void *arg)
{
	struct client *c = arg;
	uint64_t entry;
	sys_exec(c->prog->name, exec_file(c->prog), &entry, client_main, c);
}

static void run_client(const struct desktop_program *prog, bool sw)
{
	struct client c = {.prog = prog, .sw = sw};
	c.starts = xcalloc(MAX(prog->nr_maps, 1), sizeof(*c.starts));
	D.client_starts = c.starts;
	/* waitpid on the client: a program OOM-killed meanwhile is a zombie of the script too,
	 * and c must outlive the client that reads it */
	struct process *child = sys_fork("client", client_exec, &c);
	if (child) {
		int pid = child->task->task.pid, r;
		do
			r = sys_wait(NULL);
		while (r >= 0 && r != pid);
	}
	free(c.starts);
	D.client_starts = NULL;
}

/* wmctrl is not measured: xeyes, the smallest X client measured, stands in (its switch
 * part: a short X conversation). `firefox URL` is measured: the second firefox maps firefox's
 * binary and libraries, touches a sixth of the file pages firefox's own start-up did, hands
 * the URL to the running one and exits (tools/measure/desktop/remote.sh, remote_pages.sh). */
#define WMCTRL	  (&desktop_programs[0])
#define FF_REMOTE (&desktop_firefox_remote)

/* One window switch: `wmctrl -a`, then the X server, the window manager and the program. */
static void switch_to(int w)
{
	run_client(WMCTRL, true);
	D.switches_asked++;
	request(&D.xserver, REQ_SWITCH, w);
	if (!D.p.switch_wait) {
		post(&D.wm, REQ_ACTIVATE, w);
		return;
	}
	request(&D.wm, REQ_SWITCH, w);
	struct dproc *o = D.win[w].owner;
	if (!request(o, REQ_SWITCH, w) && !alive(o))
		o->up = false;
}

/* run-many-x-apps.sh */
static void desktop_script(void *arg)
{
	(void)arg;
	const struct desktop_params *p = &D.p;
	/* the session the test starts in: X and the window manager are running */
	start_dproc(&D.xserver, true);
	start_dproc(&D.wm, true);
	D.start = local_now();
	for (int s = 0; s < D.nsteps; s++) {
		D.step_time[s] = local_now() - D.start;
		if (s < p->programs) {
			const struct desktop_program *prog = &desktop_programs[s];
			struct window *win = &D.win[D.nwin];
			win->prog = prog;
			if (prog->same_as >= 0 && prog->same_as < s) {
				win->owner = &D.apps[prog->same_as];
				win->map_start = xcalloc(MAX(prog->nr_maps, 1), sizeof(uint64_t));
				if (p->switch_wait)
					request(win->owner, REQ_WINDOW, D.nwin);
				else
					post(win->owner, REQ_WINDOW, D.nwin);
			} else {
				win->owner = &D.apps[s];
				win->owner->first_window = D.nwin;
				win->map_start = win->owner->map_start;
				start_dproc(win->owner, p->switch_wait);
			}
			D.nwin++;
			if (p->pinned_kb)
				request(&D.xserver, REQ_PIN, s);
		}
		run_client(WMCTRL, true); /* wmctrl -l */
		request(&D.xserver, REQ_LIST, -1);
		for (int w = 0; w < D.nwin; w++)
			D.win[w].listed = p->switch_wait ? D.win[w].owner->up
							 : D.win[w].shown && alive(D.win[w].owner);
		for (int w = 0; w < D.nwin; w++)
			if (D.win[w].listed)
				switch_to(w);
		/* firefox /usr/share/doc/debian/FAQ/index.html: the remote waits until the
		 * running firefox has taken the URL, after its earlier requests */
		if (p->programs > 1 && (p->switch_wait ? D.apps[1].up : alive(&D.apps[1]))) {
			run_client(FF_REMOTE, false);
			if (p->switch_wait)
				request(&D.apps[1], REQ_NEWTAB, 1);
			else if (post(&D.apps[1], REQ_NEWTAB, 1))
				wait_served(&D.apps[1], D.apps[1].q.posted - 1);
		}
	}
	D.end = local_now();
	/* programs dead at the end, or never forked (a further window's entry is not a program) */
	for (int i = 0; i < p->programs; i++)
		D.killed += D.win[i].owner == &D.apps[i] && !alive(&D.apps[i]);
	/* the desktop left alone (idle.sh's idle periods): only background activity runs */
	if (p->idle_end)
		schedule_timeout((sim_time_t)p->idle_end * NSEC_PER_SEC);
	D.done = true;
	sys_exit(0);
}

/* desktop.pinned_kb: the X server's buffer objects, as 2.6.30's i915 keeps a bound GEM
 * object (a shmem file, shmem_file_setup) with a reference on each of its pages
 * (i915_gem_object_get_pages) and nothing mapping them. The pages are swap-backed and on
 * the anon LRU, dirty (the GPU draws into them); reclaim scans them, and pageout's
 * is_page_cache_freeable refuses them, so they go back to the list every time. Each
 * start-up's window adds an equal share, in the X server's task. */
static void pin_buffers(int started)
{
	/* a size of the experiment's, not a measured one: desktop.size_scale does not apply */
	uint64_t n = ((uint64_t)D.p.pinned_kb * 1024 + MM->page_size - 1) / MM->page_size;
	if (!n || D.p.programs <= 0)
		return;
	if (!D.pinned)
		D.pinned = shmem_file_setup("i915-gem", n, 0);
	uint64_t target = n * (uint64_t)started / (uint64_t)D.p.programs;
	while (D.nr_pinned < target) {
		pfn_t pfn;
		if (shmem_getpage(D.pinned, D.nr_pinned, &pfn, NULL))
			return;
		set_page_dirty(pfn);
		pfn_to_page(pfn)->pins++;
		D.nr_pinned++;
	}
}

static void xserver_main(void *arg)
{
	struct dproc *d = arg;
	/* all window memory is reserved up front (touched only when used), so the X
	 * server's address space does not change under the script */
	for (int w = 0; w < D.p.programs; w++) {
		uint64_t n = pages_kb(desktop_x_window_kb);
		D.xwin[w].npages = n;
		D.xwin[w].start = n ? sys_mmap_anon(n, VM_READ | VM_WRITE) : 0;
	}
	dproc_main(d);
}

static void dproc_init(struct dproc *d, const char *name, const struct desktop_program *prog)
{
	*d = (struct dproc){.name = name, .prog = prog};
	d->map_start = xcalloc(MAX(prog->nr_maps, 1), sizeof(*d->map_start));
}

static int desktop_start(const struct scenario_config *cfg, uint64_t seed)
{
	(void)seed;
	memset(&D, 0, sizeof(D));
	D.p = cfg->desktop;
	desktop_x_init();
	const struct desktop_params *p = &D.p;
	if (p->programs > NR_THREAD || desktop_nr_programs != NR_THREAD + 2)
		return -1;
	D.file = xcalloc((size_t)desktop_nr_files, sizeof(*D.file));
	for (int f = 0; f < desktop_nr_files; f++) {
		uint64_t n = MAX(pages_kb(desktop_files[f].size_kb), 1);
		D.file[f] = file_create(desktop_files[f].path, n, n, desktop_files[f].exec);
	}
	D.nsteps = p->programs + p->noop_steps;
	D.step_time = xcalloc((size_t)MAX(D.nsteps, 1), sizeof(*D.step_time));
	D.apps = xcalloc((size_t)MAX(p->programs, 1), sizeof(*D.apps));
	D.win = xcalloc((size_t)MAX(p->programs, 1), sizeof(*D.win));
	D.xwin = xcalloc((size_t)MAX(p->programs, 1), sizeof(*D.xwin));
	dproc_init(&D.xserver, "Xorg", &desktop_programs[X_PROG]);
	dproc_init(&D.wm, "metacity", &desktop_programs[WM_PROG]);
	for (int i = 0; i < p->programs; i++)
		dproc_init(&D.apps[i], desktop_cmdline[i], &desktop_programs[i]);
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
		result_printf(r, "%9.2f    N %s\n", (double)D.step_time[s] / 1e9,
			      desktop_step_name(s, D.p.programs));
		last = s;
	}
	if (!D.done) {
		result_printf(r, "desktop: did not finish\n");
		return;
	}
	result_printf(r, "desktop: end of the last switch round at %.2f s, %d program(s) killed\n",
		      (double)(D.end - D.start) / 1e9, D.killed);
	result_printf(r, "desktop: %llu switches asked (wmctrl -a), %llu served by the programs\n",
		      (unsigned long long)D.switches_asked, (unsigned long long)D.switches_served);
	/* the thread's "last step" is the time its last line was printed */
	result_add_metric(r, "last_step", (double)D.step_time[last] / 1e9, "s", false, true);
	static const int marks[] = {7, 14, 29, 43, 44};
	for (size_t i = 0; i < ARRAY_SIZE(marks); i++) {
		int s = marks[i];
		if (s >= D.p.programs)
			continue;
		const char *n = strrchr(desktop_cmdline[s], '/');
		char key[48];
		snprintf(key, sizeof(key), "t_%s", n ? n + 1 : desktop_cmdline[s]);
		result_add_metric(r, key, (double)D.step_time[s] / 1e9, "s", false, false);
	}
	result_add_metric(r, "pgmajfault", (double)vm_events[PGMAJFAULT], "faults", false, false);
	result_add_metric(r, "pswpin", (double)vm_events[PSWPIN], "pages", false, false);
	result_add_metric(r, "nr_vmscan_write", (double)global_page_state(NR_VMSCAN_WRITE), "pages",
			  false, false);
	result_add_metric(r, "killed", D.killed, "programs", false, false);
	result_add_metric(r, "switches_asked", (double)D.switches_asked, "switches", false, false);
	result_add_metric(r, "switches_served", (double)D.switches_served, "switches", false,
			  false);
	result_add_metric(r, "x_order2_skbs", (double)D.x_skbs, "skbs", false, false);
	if (D.p.pinned_kb)
		result_add_metric(r, "pinned_pages", (double)D.nr_pinned, "pages", false, false);
}

static void desktop_cleanup(void)
{
	for (int i = 0; D.apps && i < D.p.programs; i++)
		free(D.apps[i].map_start);
	for (int w = 0; D.win && w < D.nwin; w++)
		if (D.win[w].prog->same_as >= 0)
			free(D.win[w].map_start);
	for (int i = 0; D.apps && i < D.p.programs; i++)
		desktop_queue_free(&D.apps[i].q);
	desktop_queue_free(&D.xserver.q);
	desktop_queue_free(&D.wm.q);
	free(D.xserver.map_start);
	free(D.wm.map_start);
	free(D.file);
	free(D.step_time);
	free(D.apps);
	free(D.win);
	free(D.xwin);
	free(D.client_starts);
	memset(&D, 0, sizeof(D));
}

const struct workload desktop_workload = {
    .name = "desktop",
    .description = "Wu Fengguang's 2009 GNOME desktop: launch 45 measured programs, switch "
		   "windows",
    .params = desktop_param_table,
    .nparams = DESKTOP_NR_PARAMS,
    .start = desktop_start,
    .finished = desktop_finished,
    .report = desktop_report,
    .cleanup = desktop_cleanup,
};
