/* The measured desktop programs (tools/measure/desktop/, data/measured/desktop/,
 * docs/desktop-measured.md): desktop.c replays them. Sizes in KiB. */
#ifndef MMSIM_WORKLOADS_DESKTOP_MEASURED_H
#define MMSIM_WORKLOADS_DESKTOP_MEASURED_H

#include <stdint.h>

/* A file some program maps: a binary, a shared library, a font, a cache. */
struct desktop_file {
	const char *path;
	uint32_t size_kb;
	int exec; /* mapped executable (the pages VM_EXEC protection is about) */
};

/* One program's use of one file: the part referenced from its start to its first window
 * settling, and the part referenced by one switch to its window: how much (smaps
 * Referenced, KiB) and, where measured, which pages (tools/measure/desktop/touchmap.c):
 * an offset into desktop_pages, or DESKTOP_NO_PAGES. */
struct desktop_map {
	uint16_t file;
	uint32_t start_kb, switch_kb;
	uint32_t start_pages, switch_pages;
};
#define DESKTOP_NO_PAGES UINT32_MAX

/* The measured page sets: at each offset a number of runs, then for each run the gap from
 * the end of the previous one (from page 0 for the first) and its length less one; a number
 * is written 5 bits a character, the least significant first, each character the base64
 * digit (A-Z a-z 0-9 + /) of those bits plus 32 if more follow. Pages are 4 KiB pages of
 * the model's file (desktop_files), whose page order is the file's mapped pages in file
 * order (data/measured/desktop/layout.csv). */
extern const char desktop_pages[];

struct desktop_program {
	const char *name;
	int same_as;	     /* >= 0: a further window of that (earlier) program's process */
	uint32_t anon_kb;    /* anonymous memory after start-up */
	uint32_t anon_sw_kb; /* anonymous memory one window switch references */
	uint32_t cpu_ms;     /* CPU from exec to its window settling */
	uint32_t sw_cpu_ms;  /* CPU of one switch to its window */
	uint32_t first_map, nr_maps;
};

extern const struct desktop_file desktop_files[];
extern const int desktop_nr_files;
extern const struct desktop_map desktop_maps[];
/* the thread's 45 programs in its order, then the X server, then the window manager */
extern const struct desktop_program desktop_programs[];
extern const int desktop_nr_programs;
/* `firefox URL` with firefox running: the second firefox that hands over the URL and exits */
extern const struct desktop_program desktop_firefox_remote;
extern const uint32_t desktop_firefox_tab_kb; /* firefox's anonymous growth per new tab */
extern const uint32_t desktop_x_window_kb;    /* the X server's anonymous growth per window */

/* The anonymous pages each measured switch to a program touched (tools/measure/desktop/
 * anonsets.sh, data/measured/desktop/anonsets.csv), one entry per desktop_programs entry:
 * the program had `pages` anonymous pages when measured; its switch k (k < nr_switches)
 * touched the pages whose ranks among those (in address order) are the set at
 * desktop_anon_pages + desktop_anon_sets[first + k], encoded as desktop_pages is.
 * nr_switches = 0: not measured. */
struct desktop_anon {
	uint32_t pages, nr_switches, first;
};
extern const struct desktop_anon desktop_anon[];
extern const uint32_t desktop_anon_sets[];
extern const char desktop_anon_pages[];

/* What each program did in the background, idle (tools/measure/desktop/idle.sh,
 * data/measured/desktop/idle.csv), one entry per desktop_programs entry: it had `pages`
 * anonymous pages when measured and nr_periods measured idle periods from
 * desktop_idle_periods[first]; nr_periods = 0: no background activity measured. A period
 * lasted ms milliseconds, used cpu_ms of CPU, touched the anonymous pages whose ranks among
 * those pages are the set at desktop_idle_pages + anon (encoded as desktop_pages is) and
 * referenced kb KiB of the file of each of its desktop_idle_maps[first_map ..] rows (map:
 * an index among the program's desktop_maps rows). */
struct desktop_idle {
	uint32_t pages, nr_periods, first;
};
struct desktop_idle_period {
	uint32_t ms, cpu_ms, anon, first_map, nr_maps;
};
struct desktop_idle_map {
	uint32_t map, kb;
};
extern const struct desktop_idle desktop_idle[];
extern const struct desktop_idle_period desktop_idle_periods[];
extern const struct desktop_idle_map desktop_idle_maps[];
extern const char desktop_idle_pages[];

/* The unix-socket messages (X protocol, D-Bus) a program's start-up and one switch to its
 * window sent, as far as 2.6.30 allocated them outside the slab caches: skbs above 8 KiB,
 * kmalloc_large at order 2 (tools/measure/desktop/kmem.py, kmem-xsends.csv): what the
 * program, the window manager and the X server (to either of them or to the bus) sent. A
 * program with no entry sent none that large. */
enum { XS_OWN, XS_WM, XS_X, XS_SENDERS }; /* the program, the window manager, X */
struct desktop_xsends {
	const char *name; /* the program's name in the thread */
	/* [0] the start-up, [1] a switch to its window; by sender */
	uint32_t skbs[2][XS_SENDERS], kb[2][XS_SENDERS];
};
extern const struct desktop_xsends desktop_xsends[];
extern const int desktop_nr_xsends;
/* The X server's reply to a connection's set-up (9,548 bytes measured: one order-2 skb),
 * which every wmctrl the script runs costs it. */
extern const uint32_t desktop_x_connection_kb;

#endif
