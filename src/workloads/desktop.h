/* desktop: Wu Fengguang's 2009 memory-tight GNOME desktop test (benchmarks.md §5;
 * kernel-reclaim.md §3). A script launches 45 programs one after another, and after each
 * launch switches to every open window in turn (one wmctrl per window) and makes the running
 * firefox open one more tab. Program text and shared libraries are private executable file
 * mappings shared between programs; heaps are anonymous. The figure of merit is the
 * "progress timing": the time at which each step of the script starts.
 *
 * benchmarks.md §5 gives the structure of the test but no sizes; every size, fraction and
 * CPU time below is therefore our own estimate of a 2009 GNOME desktop, marked [estimate],
 * and a parameter (desktop.*). */
#ifndef MMSIM_WORKLOADS_DESKTOP_H
#define MMSIM_WORKLOADS_DESKTOP_H

#include "sim/types.h"

struct desktop_params {
	int programs;	/* programs launched, from the thread's list (45) */
	int noop_steps; /* the commented-out ": oocalc" ... lines: a step without a launch (6) */
	/* text of the shared libraries, mapped VM_EXEC by every program that links them */
	uint64_t lib_c;	  /* libc, ld.so, libm, libpthread [estimate] */
	uint64_t lib_x11; /* libX11, Xext, Xrender, Xft, Xt... [estimate] */
	uint64_t lib_gtk; /* glib/gobject, gtk/gdk, pango, cairo, pixman, freetype... [estimate] */
	uint64_t lib_gnome; /* libgnomeui, bonobo, ORBit, GConf, gnome-vfs, libxml2... [estimate] */
	uint64_t lib_xul;   /* firefox's libxul, nspr, nss [estimate] */
	uint64_t app_text;  /* each program's own binary and private libraries [estimate] */
	uint64_t x_text;    /* the X server's binary and its modules [estimate] */
	/* anonymous memory */
	uint64_t app_heap;     /* a GTK/GNOME program after start-up [estimate] */
	uint64_t xapp_heap;    /* a plain X client (xeyes, xterm, xpdf...) [estimate] */
	uint64_t firefox_heap; /* firefox after start-up [estimate] */
	uint64_t firefox_tab;  /* each further tab (the `firefox URL` of every step) [estimate] */
	uint64_t x_heap;       /* the X server before the test [estimate] */
	uint64_t x_window;     /* X server memory per window: pixmaps, window state [estimate] */
	uint64_t app_data;     /* data files a program reads while starting [estimate] */
	/* how much of its memory a program touches */
	int launch_pct;	       /* % of its text and library pages touched while starting [est.] */
	int switch_text_pct;   /* % of text and library pages a window switch runs [estimate] */
	int switch_heap_pct;   /* % of the heap a window switch touches [estimate] */
	int switch_dirty_pct;  /* % of those heap pages written [estimate] */
	sim_time_t launch_cpu; /* CPU to start one program, besides faults [estimate] */
	sim_time_t switch_cpu; /* CPU of one repaint in the application [estimate] */
};

void desktop_defaults(struct desktop_params *p);
extern const struct workload desktop_workload;

#endif
