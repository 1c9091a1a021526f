/* Seed 002 workloads end to end, with the invariant checker on: a small desktop run (a few
 * programs, small sizes) finishes, keeps every invariant and is the same twice; in a small
 * iotrace run the console's executable pages survive a 10%-hot stream with VM_EXEC
 * protection where they are evicted without it; and 2.6.31's inactive_file_is_low leaves a
 * small active file list alone (kernel-reclaim.md §3, §1.21). */
#include "util/testutil.h"

#include "cli/scenario_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *small_desktop = "machine.profile = x86_64-2009-nfsroot\n"
				   "machine.ram = 48M\n"
				   "machine.swap = 64M\n"
				   "workload = desktop\n"
				   "run.check_every = 20000\n"
				   "desktop.programs = 6\n"
				   "desktop.noop_steps = 1\n"
				   "desktop.size_scale = 4\n";

static void desktop_small_run_is_deterministic(void **state)
{
	(void)state;
	struct scenario_config cfg;
	struct run_result a, b;
	test_scenario(&cfg, small_desktop);
	test_run(&cfg, 1, &a);
	test_run(&cfg, 1, &b);
	assert_true(a.completed);
	assert_true(test_metric(&a, "last_step") > 0);
	assert_int_equal(test_metric(&a, "killed"), 0);
	/* memory is tight: the heaps went to swap and came back */
	assert_true(test_vmstat(&a, "pswpout") > 0);
	assert_true(test_vmstat(&a, "pswpin") > 0);
	assert_string_equal(a.wl.text, b.wl.text);
	assert_int_equal(a.elapsed, b.elapsed);
	assert_int_equal(a.nr_vmstat, b.nr_vmstat);
	for (int i = 0; i < a.nr_vmstat; i++)
		assert_int_equal(a.vmstat[i].value, b.vmstat[i].value);
	run_result_free(&a);
	run_result_free(&b);
}

static const char *small_iotrace = "machine.profile = x86_64-2008\n"
				   "machine.ram = 64M\n"
				   "workload = iotrace\n"
				   "run.check_every = 200000\n"
				   "iotrace.requests = 4000\n"
				   "iotrace.daemons = 4\n";

static double iotrace_faults(int protect)
{
	struct scenario_config cfg;
	struct run_result r;
	test_scenario(&cfg, small_iotrace);
	cfg.vm.reclaim_exec_protect = protect;
	test_run(&cfg, 1, &r);
	assert_true(r.completed);
	double f = test_metric(&r, "majfault_during_io");
	run_result_free(&r);
	return f;
}

/* The daemons' text is referenced between two scans of the active list but not within one
 * trip through the inactive list: with the switch off it is deactivated and evicted, with
 * it on it stays active. */
static void exec_pages_stay_active_with_protection(void **state)
{
	(void)state;
	double off = iotrace_faults(0), on = iotrace_faults(1);
	assert_true(off > 0);
	assert_true(on < off);
}

/* A referenced active file page stays put while the active file list is the smaller one
 * (2.6.31), and is deactivated by 2.6.28's unconditional aging. */
static void inactive_file_is_low_rule(int on, bool expect_active)
{
	test_machine_boot("x86_64-2008", 64ULL << 20, 0, 0);
	MM->sysctl.reclaim_inactive_file_is_low = on;
	mm_sysctl_apply();
	struct address_space *f = file_create("data", 4096, 4096, false);
	pfn_t act = NO_PFN;
	for (uint64_t i = 0; i < 64; i++) { /* two batches' worth, so the list gets scanned */
		pfn_t pfn = test_file_page(f, i);
		activate_page(pfn);
		if (i == 0)
			act = pfn;
	}
	for (uint64_t i = 64; i < 2048; i++)
		test_file_page(f, i);
	struct zone *z = page_zone(pfn_to_page(act));
	struct scan_control sc = test_direct_sc(0);
	shrink_zone(0, z, &sc); /* priority 0: every list is scanned in full */
	assert_int_equal(!!(pfn_to_page(act)->flags & PG_active), expect_active);
	MM->sysctl.reclaim_inactive_file_is_low = 0;
	test_machine_shutdown();
}

static void inactive_file_is_low_off(void **state)
{
	(void)state;
	inactive_file_is_low_rule(0, false);
}

static void inactive_file_is_low_on(void **state)
{
	(void)state;
	inactive_file_is_low_rule(1, true);
}

/* 2.6.31 shrink_active_list on hand-built pages: a referenced page of an executable file
 * mapping goes back to the active list with the switch on and is deactivated with it off;
 * a referenced anonymous page of an executable mapping is deactivated either way (the
 * !PageAnon test), as is a referenced file page of a mapping without VM_EXEC. */
static void vm_exec_rule(int on)
{
	test_machine_boot("x86_64-2008", 64ULL << 20, 0, 0);
	MM->sysctl.reclaim_exec_protect = on;
	mm_sysctl_apply();
	struct address_space *f = file_create("prog", 4096, 2 * 4096, false);
	struct mm_struct *mm = mm_alloc();
	uint64_t text = do_mmap(mm, 1, VM_READ | VM_EXEC, f, 0);
	uint64_t data = do_mmap(mm, 1, VM_READ, f, 1);
	uint64_t jit = do_mmap(mm, 1, VM_READ | VM_WRITE | VM_EXEC, NULL, 0);
	pfn_t t = test_file_page(f, 0), d = test_file_page(f, 1);
	test_map(find_vma(mm, text), 0, t, true);
	test_map(find_vma(mm, data), 0, d, true);
	activate_page(t);
	activate_page(d);
	pfn_t a = test_anon_page(find_vma(mm, jit), 0, true, false);
	struct zone *z = page_zone(pfn_to_page(t));
	struct scan_control sc = test_direct_sc(0);
	shrink_active_list(32, z, &sc, 0, 1);
	shrink_active_list(32, z, &sc, 0, 0);
	assert_int_equal(!!(pfn_to_page(t)->flags & PG_active), on);
	assert_false(pfn_to_page(d)->flags & PG_active);
	assert_false(pfn_to_page(a)->flags & PG_active);
	exit_mmap(mm);
	MM->sysctl.reclaim_exec_protect = 0;
	test_machine_shutdown();
}

static void vm_exec_rule_off(void **state)
{
	(void)state;
	vm_exec_rule(0);
}

static void vm_exec_rule_on(void **state)
{
	(void)state;
	vm_exec_rule(1);
}

/* The measured page sets drive the references: with memory to spare (nothing reclaimed,
 * no PTE ever unmapped, no fault-around in the model), the pages present in xeyes's file
 * mappings after one launch and one switch round are exactly, mapping by mapping, its
 * measured start-up pages and switch pages (desktop_pages, decoded here independently of
 * desktop.c). */
#include "kernel/process.h"
#include "mm/task.h"
#include "workloads/desktop_measured.h"

static uint32_t number(const char **p)
{
	static const char b64[] =
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	uint32_t v = 0;
	for (int shift = 0;; shift += 5) {
		uint32_t d = (uint32_t)(strchr(b64, *(*p)++) - b64);
		v |= (d & 31) << shift;
		if (!(d & 32))
			return v;
	}
}

/* marks the pages of set `at` (if measured) in want[0..n) */
static void want_pages(uint32_t at, bool *want, uint64_t n)
{
	if (at == DESKTOP_NO_PAGES)
		return;
	const char *p = desktop_pages + at;
	uint64_t page = 0;
	for (uint32_t r = number(&p); r; r--) {
		page += number(&p);
		uint64_t len = (uint64_t)number(&p) + 1;
		for (uint64_t i = page; i < page + len && i < n; i++)
			want[i] = true;
		page += len;
	}
}

static int xeyes_maps, xeyes_measured, xeyes_mismatch;

/* the run's invariant checker: also compares xeyes's PTEs with its measured pages (the
 * last call, at the end of the run, is the one that counts) */
static int check_xeyes(void)
{
	xeyes_maps = xeyes_measured = 0;
	xeyes_mismatch = -1;
	const struct desktop_program *prog = &desktop_programs[0];
	for_each_task(t) {
		if (strcmp(t->task.comm, "xeyes") || !t->mm || !t->proc || t->proc->exited)
			continue;
		/* the file mappings in the order they were made: exec's text, then map_all's */
		struct vm_area_struct *v[1024];
		int nv = 0;
		for (struct vm_area_struct *a = t->mm->mmap; a && nv < 1024; a = a->next)
			if (a->file && !a->dead)
				v[nv++] = a;
		for (int i = 1; i < nv; i++)
			for (int j = i; j > 0 && v[j - 1]->id > v[j]->id; j--) {
				struct vm_area_struct *x = v[j];
				v[j] = v[j - 1];
				v[j - 1] = x;
			}
		if (nv != (int)prog->nr_maps + 1)
			break;
		xeyes_maps = (int)prog->nr_maps;
		xeyes_mismatch = 0;
		for (uint32_t k = 0; k < prog->nr_maps; k++) {
			const struct desktop_map *m = &desktop_maps[prog->first_map + k];
			struct vm_area_struct *a = v[k + 1];
			if (m->start_pages == DESKTOP_NO_PAGES)
				continue;
			/* a switch part not measured (a mapping the zap could not register) is
			 * spread: then only the start-up pages are known to be there */
			bool exact = m->switch_pages != DESKTOP_NO_PAGES;
			xeyes_measured += exact;
			bool *want = calloc(a->npages, sizeof(bool));
			want_pages(m->start_pages, want, a->npages);
			want_pages(m->switch_pages, want, a->npages);
			for (uint64_t i = 0; i < a->npages; i++)
				if (exact ? !!(a->pte[i] & PTE_PRESENT) != want[i]
					  : want[i] && !(a->pte[i] & PTE_PRESENT))
					xeyes_mismatch++;
			free(want);
		}
		break;
	}
	return mm_check_invariants();
}

static void desktop_touches_measured_pages(void **state)
{
	(void)state;
	struct scenario_config cfg;
	struct run_result r;
	test_scenario(&cfg, "machine.profile = x86_64-2009-nfsroot\n"
			    "machine.ram = 2G\n"
			    "workload = desktop\n"
			    "run.check_every = 1000000\n"
			    "desktop.programs = 1\n"
			    "desktop.noop_steps = 0\n"
			    /* the one switch served before the run ends */
			    "desktop.switch_wait = 1\n"
			    /* the start-up and switch pages alone, not the idle periods' */
			    "desktop.background = 0\n");
	assert_int_equal(scenario_run(&cfg, 1, &r, check_xeyes), 0);
	assert_true(r.completed);
	assert_int_equal(test_vmstat(&r, "pgsteal_kswapd") + test_vmstat(&r, "pgsteal_direct"), 0);
	assert_int_equal(xeyes_maps, desktop_programs[0].nr_maps);
	/* xeyes was measured page by page: nearly every file it maps has both sets (not
	 * gconv-modules.cache, which glibc maps shared: touchmap.c) */
	assert_true(xeyes_measured >= xeyes_maps - 1);
	assert_int_equal(xeyes_mismatch, 0);
	run_result_free(&r);
}

/* 2009's x86-64 objects (hw elf_max_page_size 2 MiB): below every executable mapping of the
 * mmap area (top-down) lies a PROT_NONE hole of 2 MiB less a page and then the next mapping,
 * and no other mapping has one; the hole costs page-table pages, not memory. */
static int hole_execs, hole_ok, hole_bad;
static uint64_t xeyes_ptpages;

static int check_xeyes_holes(void)
{
	hole_execs = hole_ok = hole_bad = 0;
	for_each_task(t) {
		if (strcmp(t->task.comm, "xeyes") || !t->mm || !t->proc || t->proc->exited)
			continue;
		uint64_t want = MM->hw->elf_max_page_size / MM->page_size - 1;
		for (struct vm_area_struct *a = t->mm->mmap; a; a = a->next) {
			if (a->dead || !a->next)
				continue;
			struct vm_area_struct *b = a->next; /* above a: mapped just before it */
			bool hole = !a->file && !(a->flags & (VM_READ | VM_WRITE | VM_EXEC));
			if (b->file && (b->flags & VM_EXEC) &&
			    b->start > MM->hw->mmap_base / 2 / MM->page_size) {
				hole_execs++;
				if (hole && a->npages == want && a->start + a->npages == b->start)
					hole_ok++;
			} else if (hole) {
				hole_bad++;
			}
		}
		xeyes_ptpages = t->mm->nr_ptes;
		break;
	}
	return mm_check_invariants();
}

static uint64_t xeyes_holes_run(uint64_t max_page_size)
{
	struct scenario_config cfg;
	struct run_result r;
	char set[64], err[256];
	test_scenario(&cfg, "machine.profile = x86_64-2009-nfsroot\n"
			    "machine.ram = 2G\n"
			    "workload = desktop\n"
			    "desktop.programs = 1\n"
			    "desktop.switch_wait = 1\n"
			    "desktop.noop_steps = 0\n");
	snprintf(set, sizeof(set), "hw.elf_max_page_size=%llu", (unsigned long long)max_page_size);
	assert_int_equal(scenario_apply_override(&cfg, set, "--set", err, sizeof(err)), 0);
	assert_int_equal(scenario_run(&cfg, 1, &r, check_xeyes_holes), 0);
	assert_true(r.completed);
	run_result_free(&r);
	return xeyes_ptpages;
}

static void desktop_objects_have_the_era_text_data_hole(void **state)
{
	(void)state;
	uint64_t with = xeyes_holes_run(0x200000);
	/* xeyes maps its binary and 20-odd libraries executable */
	assert_true(hole_execs >= 10);
	assert_int_equal(hole_ok, hole_execs);
	assert_int_equal(hole_bad, 0);
	uint64_t without = xeyes_holes_run(4096); /* today's objects */
	assert_int_equal(hole_ok, 0);
	assert_int_equal(hole_bad, 0);
	/* each object's text now reaches a page-table page of its own */
	assert_true(with >= without + (uint64_t)hole_execs / 2);
}

/* The heap pages a switch touches are the measured ones (anonsets.sh), switch after switch:
 * desktop_anon_switch gives, for every measured program and switch, the set decoded here
 * independently, scaled 1:1, and the measured switches in turn again after the last one. */
#include "workloads/desktop.h"

struct pageset {
	bool *in;
	uint64_t n, count;
	int order_ok;
	uint64_t last;
};

static void add_page(void *arg, uint64_t q)
{
	struct pageset *s = arg;
	if (s->count && q <= s->last)
		s->order_ok = 0;
	s->last = q;
	if (q < s->n && !s->in[q]) {
		s->in[q] = true;
		s->count++;
	}
}

static void model_set(int pi, uint32_t k, struct pageset *s)
{
	uint64_t n = desktop_anon[pi].pages;
	*s = (struct pageset){calloc(n, sizeof(bool)), n, 0, 1, 0};
	assert_true(desktop_anon_switch(pi, k, n, add_page, s));
	assert_true(s->order_ok);
}

static uint64_t overlap(const struct pageset *a, const struct pageset *b)
{
	uint64_t c = 0;
	for (uint64_t i = 0; i < a->n; i++)
		c += a->in[i] && b->in[i];
	return c;
}

static void desktop_switches_touch_measured_heap_pages(void **state)
{
	(void)state;
	int measured = 0;
	for (int pi = 0; pi < desktop_nr_programs; pi++) {
		const struct desktop_anon *a = &desktop_anon[pi];
		if (!a->nr_switches) {
			assert_false(desktop_anon_switch(pi, 0, 100, add_page, NULL));
			continue;
		}
		measured++;
		for (uint32_t k = 0; k < 2 * a->nr_switches; k++) {
			struct pageset s;
			model_set(pi, k, &s);
			bool *want = calloc(a->pages, sizeof(bool));
			const char *p =
			    desktop_anon_pages + desktop_anon_sets[a->first + k % a->nr_switches];
			uint64_t page = 0, nwant = 0;
			for (uint32_t r = number(&p); r; r--) {
				page += number(&p);
				uint64_t len = (uint64_t)number(&p) + 1;
				for (uint64_t i = page; i < page + len; i++)
					assert_true(i < a->pages), want[i] = true, nwant++;
				page += len;
			}
			assert_int_equal(s.count, nwant);
			for (uint64_t i = 0; i < a->pages; i++)
				assert_int_equal(s.in[i], want[i]);
			free(want);
			free(s.in);
		}
	}
	assert_true(measured >= 30);
}

/* What the measurement found (docs/desktop-measured.md, "Which anonymous pages"): firefox's
 * switches do not touch the same heap pages each time (less than 90 % of a switch's pages
 * were touched by the switch before, and eight switches touch more than twice what the
 * median one does), while gedit's set stays (95 % or more). A fixed set fails the first, a
 * set drawn afresh each time the second. */
/* Of the pages of switches 2, 3, … of program pi, the share that the switch before touched. */
static double shared_with_previous(int pi)
{
	uint64_t in = 0, all = 0;
	for (uint32_t k = 1; k < desktop_anon[pi].nr_switches; k++) {
		struct pageset a, b;
		model_set(pi, k - 1, &a);
		model_set(pi, k, &b);
		in += overlap(&b, &a);
		all += b.count;
		free(a.in);
		free(b.in);
	}
	return all ? (double)in / (double)all : 1.0;
}

static void desktop_heap_sets_drift_as_measured(void **state)
{
	(void)state;
	int ff = -1, ge = -1;
	for (int pi = 0; pi < desktop_nr_programs; pi++) {
		if (!strcmp(desktop_programs[pi].name, "firefox"))
			ff = pi;
		if (!strcmp(desktop_programs[pi].name, "gedit"))
			ge = pi;
	}
	assert_true(ff >= 0 && ge >= 0);
	uint32_t nf = desktop_anon[ff].nr_switches;
	assert_true(nf >= 8);
	struct pageset s[16], uni;
	model_set(ff, 0, &uni);
	uint64_t sizes[16], below = 0;
	for (uint32_t k = 0; k < nf; k++) {
		model_set(ff, k, &s[k]);
		sizes[k] = s[k].count;
		for (uint64_t i = 0; i < uni.n; i++)
			if (s[k].in[i] && !uni.in[i])
				uni.in[i] = true, uni.count++;
		if (k && overlap(&s[k], &s[k - 1]) < s[k].count)
			below++;
	}
	assert_true(below > 0);
	uint64_t med = 0; /* the median switch's size: the lower middle one */
	for (uint32_t k = 0; k < nf; k++) {
		uint32_t less = 0;
		for (uint32_t j = 0; j < nf; j++)
			less += sizes[j] < sizes[k];
		if (less == (nf - 1) / 2)
			med = sizes[k];
	}
	assert_true(med > 0 && uni.count > 2 * med);
	for (uint32_t k = 0; k < nf; k++)
		free(s[k].in);
	free(uni.in);
	assert_true(shared_with_previous(ff) * 10 < 9);
	assert_true(shared_with_previous(ge) * 100 >= 95);
}

/* In a run, firefox's heap pages referenced after its start-up are those of its measured
 * switches taken in turn: its heap's young bits are cleared the moment the heap is built
 * (the test looks after every event, so before its first switch; with memory to spare
 * nothing else clears them), and once the script is done, after ten switches to it (a round
 * and a new tab each step), the young pages are the union of all its measured sets. A model
 * that replayed one set at every switch fails this. */
static int ff_cleared, ff_counted;
static uint64_t ff_young, ff_heap_pages, ff_calls;

static struct vm_area_struct *firefox_heap(void)
{
	for_each_task(t) {
		if (strcmp(t->task.comm, "firefox") || !t->mm || !t->proc || t->proc->exited)
			continue;
		struct vm_area_struct *big = NULL;
		for (struct vm_area_struct *a = t->mm->mmap; a; a = a->next)
			if (!a->file && !a->dead && (!big || a->npages > big->npages))
				big = a;
		return big;
	}
	return NULL;
}

/* The check hook, after every event: the invariants every 2000th. new_heap writes the heap
 * front to back, so it is built when its last page is present. */
static int check_firefox_heap(void)
{
	if (!ff_cleared) {
		struct vm_area_struct *h = firefox_heap();
		if (h && (h->pte[h->npages - 1] & PTE_PRESENT)) {
			for (uint64_t i = 0; i < h->npages; i++) {
				assert_true(h->pte[i] & PTE_PRESENT);
				h->pte[i] &= ~PTE_YOUNG;
			}
			ff_cleared = 1;
		}
	} else if (!ff_counted && desktop_workload.finished()) {
		struct vm_area_struct *h = firefox_heap();
		assert_non_null(h);
		ff_heap_pages = h->npages;
		ff_young = 0;
		for (uint64_t i = 0; i < h->npages; i++)
			ff_young += !!(h->pte[i] & PTE_YOUNG);
		ff_counted = 1;
	}
	return ++ff_calls % 2000 ? 0 : mm_check_invariants();
}

static void desktop_firefox_switches_replay_measured_sets_in_turn(void **state)
{
	(void)state;
	struct scenario_config cfg;
	struct run_result r;
	test_scenario(&cfg, "machine.profile = x86_64-2009-nfsroot\n"
			    "machine.ram = 2G\n"
			    "workload = desktop\n"
			    "run.check_every = 1\n"
			    "desktop.programs = 2\n"
			    "desktop.noop_steps = 4\n"
			    /* the switches' pages alone, not the idle periods' */
			    "desktop.background = 0\n");
	ff_cleared = ff_counted = 0;
	ff_calls = 0;
	assert_int_equal(scenario_run(&cfg, 1, &r, check_firefox_heap), 0);
	assert_true(r.completed);
	assert_int_equal(test_vmstat(&r, "pgsteal_kswapd") + test_vmstat(&r, "pgsteal_direct"), 0);
	assert_true(ff_cleared && ff_counted);
	int ff = 1;
	assert_string_equal(desktop_programs[ff].name, "firefox");
	struct pageset uni = {calloc(ff_heap_pages, sizeof(bool)), ff_heap_pages, 0, 1, 0};
	for (uint32_t k = 0; k < desktop_anon[ff].nr_switches; k++)
		assert_true(desktop_anon_switch(ff, k, ff_heap_pages, add_page, &uni)),
		    uni.count = 0, uni.order_ok = 1;
	uint64_t want = 0, first = 0;
	for (uint64_t i = 0; i < ff_heap_pages; i++)
		want += uni.in[i];
	struct pageset one = {calloc(ff_heap_pages, sizeof(bool)), ff_heap_pages, 0, 1, 0};
	desktop_anon_switch(ff, 0, ff_heap_pages, add_page, &one);
	first = one.count;
	assert_true(want > first);
	assert_int_equal(ff_young, want);
	free(uni.in);
	free(one.in);
	run_result_free(&r);
}

/* Background activity (idle.sh): a program left alone references its measured idle sets,
 * period after period, in turn. A run with one program and memory to spare (nothing but
 * this test clears a young bit) whose script, done with its one step in a few seconds,
 * then waits (desktop.idle_end) long enough for every measured period to come round twice
 * more: the test clears the young bits of the X server's (or, if it has no measured
 * background activity, the window manager's) heap once, at the first check after 100 s,
 * and at the end its young heap pages are the union of its measured idle sets
 * (desktop_anon_idle, scaled to the heap). With desktop.background = 0 none is young. */
static const char *bg_comm;
static uint64_t bg_heap_npages, bg_young, bg_cleared;

static int check_background_heap(void)
{
	for_each_task(t) {
		if (strcmp(t->task.comm, bg_comm) || !t->mm || !t->proc || t->proc->exited)
			continue;
		for (struct vm_area_struct *a = t->mm->mmap; a; a = a->next) {
			if (a->file || a->dead || a->npages != bg_heap_npages)
				continue;
			if (!bg_cleared && sim_clock >= 100 * NSEC_PER_SEC) {
				for (uint64_t i = 0; i < a->npages; i++)
					a->pte[i] &= ~PTE_YOUNG;
				bg_cleared = 1;
			}
			bg_young = 0;
			for (uint64_t i = 0; i < a->npages; i++)
				bg_young += !!(a->pte[i] & PTE_YOUNG);
		}
	}
	return mm_check_invariants();
}

static uint64_t background_young(int pi, int background, uint32_t idle_end)
{
	struct scenario_config cfg;
	struct run_result r;
	char text[512];
	snprintf(text, sizeof(text),
		 "machine.profile = x86_64-2009-nfsroot\n"
		 "machine.ram = 2G\n"
		 "workload = desktop\n"
		 "run.check_every = 100\n"
		 "desktop.programs = 1\n"
		 "desktop.noop_steps = 0\n"
		 "desktop.background = %d\n"
		 "desktop.idle_end = %u\n",
		 background, idle_end);
	test_scenario(&cfg, text);
	bg_comm = pi == desktop_nr_programs - 2 ? "Xorg" : "metacity";
	/* x86_64: 4 KiB pages; the heap is new_heap(anon_kb) */
	bg_heap_npages = (desktop_programs[pi].anon_kb * 1024ULL + 4096 - 1) / 4096;
	bg_young = bg_cleared = 0;
	assert_int_equal(scenario_run(&cfg, 1, &r, check_background_heap), 0);
	assert_true(r.completed);
	assert_int_equal(test_vmstat(&r, "pgsteal_kswapd") + test_vmstat(&r, "pgsteal_direct"), 0);
	assert_true(bg_cleared);
	run_result_free(&r);
	return bg_young;
}

static void desktop_background_replays_measured_idle_sets(void **state)
{
	(void)state;
	int pi = desktop_nr_programs - 2; /* the X server, else the window manager */
	if (!desktop_idle[pi].nr_periods)
		pi++;
	const struct desktop_idle *a = &desktop_idle[pi];
	assert_true(a->nr_periods > 0);
	uint32_t max_ms = 0;
	for (uint32_t k = 0; k < a->nr_periods; k++)
		max_ms = MAX(max_ms, desktop_idle_periods[a->first + k].ms);
	uint32_t idle_end = 100 + 2 * (a->nr_periods + 1) * (max_ms / 1000 + 1);
	uint64_t n = (desktop_programs[pi].anon_kb * 1024ULL + 4096 - 1) / 4096;
	struct pageset uni = {calloc(n, sizeof(bool)), n, 0, 1, 0};
	for (uint32_t k = 0; k < a->nr_periods; k++)
		assert_true(desktop_anon_idle(pi, k, n, add_page, &uni)), uni.order_ok = 1;
	assert_true(uni.count > 0);
	assert_int_equal(background_young(pi, 1, idle_end), uni.count);
	assert_int_equal(background_young(pi, 0, idle_end), 0);
	free(uni.in);
}

/* The large unix-socket messages (desktop_x.c): two programs and one no-op step send what
 * their measured start-ups and switches sent, each sender its part. xeyes's window is
 * switched to in all three steps, firefox's in the last two (by the program, the window
 * manager and the X server), and firefox serves a new tab in each of them (the program
 * alone); the X server answers 8 wmctrl connections (a `wmctrl -l` a step, one wmctrl a
 * switch) with one set-up reply each. */
static const struct desktop_xsends *xsends_of(const char *name)
{
	for (int k = 0; k < desktop_nr_xsends; k++)
		if (!strcmp(desktop_xsends[k].name, name))
			return &desktop_xsends[k];
	return NULL;
}

static uint64_t all_senders(const struct desktop_xsends *x, int sw)
{
	return (uint64_t)x->skbs[sw][XS_OWN] + x->skbs[sw][XS_WM] + x->skbs[sw][XS_X];
}

static void desktop_x_sends_replay_the_measured_counts(void **state)
{
	(void)state;
	const struct desktop_xsends *xe = xsends_of("xeyes"), *ff = xsends_of("firefox");
	assert_non_null(xe);
	assert_non_null(ff);
	uint64_t want = all_senders(xe, 0) + all_senders(ff, 0) + 3 * all_senders(xe, 1) +
			2 * all_senders(ff, 1) + 2ull * ff->skbs[1][XS_OWN];
	assert_true(want > 0);
	want += 3 + 5;
	static const char *conf = "machine.profile = x86_64-2009-nfsroot\n"
				  "machine.ram = 1G\n"
				  "workload = desktop\n"
				  "run.check_every = 20000\n"
				  "desktop.programs = 2\n"
				  "desktop.noop_steps = 1\n"
				  /* the switches counted above: each program up in its own step */
				  "desktop.switch_wait = 1\n";
	struct scenario_config cfg;
	struct run_result r;
	test_scenario(&cfg, conf);
	test_run(&cfg, 1, &r);
	assert_true(r.completed);
	assert_int_equal(test_metric(&r, "killed"), 0);
	assert_int_equal((uint64_t)test_metric(&r, "x_order2_skbs"), want);
	run_result_free(&r);
	cfg.desktop.x_sends = 0;
	test_run(&cfg, 1, &r);
	assert_int_equal(test_metric(&r, "x_order2_skbs"), 0);
	run_result_free(&r);
}

/* desktop.pinned_kb: the X server takes an equal share of the pinned buffers at each
 * start-up (all of them once every program is up); reclaim scans them on the anon LRU and
 * frees none, so at the end the anon LRU holds them beside the mapped anonymous pages. */
static void desktop_pinned_buffers_stay_on_the_anon_lru(void **state)
{
	(void)state;
	struct scenario_config cfg;
	struct run_result r, base;
	test_scenario(&cfg, small_desktop);
	test_run(&cfg, 1, &base);
	cfg.desktop.pinned_kb = 4096;
	test_run(&cfg, 1, &r);
	assert_true(r.completed);
	assert_int_equal(test_metric(&r, "killed"), 0);
	assert_int_equal(test_metric(&r, "pinned_pages"), 1024);
	long lru = (long)(test_vmstat(&r, "nr_inactive_anon") + test_vmstat(&r, "nr_active_anon"));
	long unmapped = lru - (long)test_vmstat(&r, "nr_anon_pages");
	long base_unmapped =
	    (long)(test_vmstat(&base, "nr_inactive_anon") + test_vmstat(&base, "nr_active_anon")) -
	    (long)test_vmstat(&base, "nr_anon_pages");
	/* the anon LRU's pages that no process maps: the 1024 pinned ones and the swap cache
	 * (the base run's unmapped ones, whose number differs between the runs) */
	assert_true(unmapped >= 1024);
	assert_true(base_unmapped < 1024);
	assert_true(test_vmstat(&r, "nr_file_pages") >= 1024);
	/* scanned and refused: more scanning for the same work */
	assert_true(
	    test_vmstat_zones(&r, "pgscan_kswapd") + test_vmstat_zones(&r, "pgscan_direct") >
	    test_vmstat_zones(&base, "pgscan_kswapd") + test_vmstat_zones(&base, "pgscan_direct"));
	run_result_free(&r);
	run_result_free(&base);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(desktop_small_run_is_deterministic),
	    cmocka_unit_test(exec_pages_stay_active_with_protection),
	    cmocka_unit_test(inactive_file_is_low_off),
	    cmocka_unit_test(vm_exec_rule_off),
	    cmocka_unit_test(vm_exec_rule_on),
	    cmocka_unit_test(inactive_file_is_low_on),
	    cmocka_unit_test(desktop_touches_measured_pages),
	    cmocka_unit_test(desktop_objects_have_the_era_text_data_hole),
	    cmocka_unit_test(desktop_switches_touch_measured_heap_pages),
	    cmocka_unit_test(desktop_heap_sets_drift_as_measured),
	    cmocka_unit_test(desktop_firefox_switches_replay_measured_sets_in_turn),
	    cmocka_unit_test(desktop_background_replays_measured_idle_sets),
	    cmocka_unit_test(desktop_x_sends_replay_the_measured_counts),
	    cmocka_unit_test(desktop_pinned_buffers_stay_on_the_anon_lru),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
