/* pagerefs: a Valgrind tool that measures which pages a program references per window of
 * executed instructions, without writing the reference string out (lackey's text trace of a
 * 100 ms cc1 is gigabytes; this tool keeps the counts in memory). Built and run by cc1refs.sh
 * against Debian's valgrind (3.19: /usr/include/valgrind, libcoregrind, libvex).
 *
 * Every guest instruction counts one and references its page (exec); every load and store
 * (plain, guarded, CAS, dirty helper) references the pages it spans. A page is classified at
 * its first reference from Valgrind's map of the client's address space:
 *   file  a file mapping (the executable, its libraries: text, rodata, data)
 *   brk   anonymous, the client's brk heap
 *   mmap  anonymous, any other mapping (malloc's large chunks, gcc's GC pages, .bss)
 *   stack the client's stack (the anonymous segment holding the stack pointer, and below)
 *   other anything else
 * Anonymous pages have a birth: a sequence number taken when the page is first referenced,
 * and again after munmap or madvise(MADV_DONTNEED/MADV_FREE) released it (the next reference
 * faults in a new page); "resident" anonymous pages are those born and not released since.
 *
 * Windows: for each of NW window sizes W_k = 2^16 * 2^(k/2) instructions (k = 0..24, up to
 * 2^28), the
 * instruction stream is cut into consecutive windows of W_k, and for each window one line:
 *   W k idx icount_end file fileX brk mmap stack other born resident births gc h0..h15
 * the distinct pages of each class referenced in the window (fileX: of the file pages, those
 * executed), anonymous pages born in the window, resident anonymous pages at its end, all
 * births so far, the GC events (see below) begun in it, and h: the window's distinct anonymous
 * pages born before it, by birth position (16 bins of birth / births-at-window-start: h0 the
 * oldest sixteenth, h15 the newest).
 *
 * GC events: when the program writes to fd 2 text containing "{GC" (gcc's ggc_collect does,
 * without -quiet: " {GC 4096k -> 2011k}"), one line "G icount text" records the position.
 * The write that closes it ("}") gives "g icount". At exit: "E icount" and one line per page ("P
 * class exec birth windows file offset", windows = the W_8 windows that referenced it). usage:
 * valgrind --tool=pagerefs --out=FILE PROGRAM ARGS */
#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_machine.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_clientstate.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_xarray.h"

#define NW	25
#define KBASE	8 /* W_8 = 2^20 */
#define NCLS	5
#define HBINS	16
#define PSHIFT	12
#define HBITS	18 /* hash table: 256k slots, at most half used (512 MB referenced) */
#define MAXFILE 64
#define NGAP	4096 /* reuse gaps counted exactly up to this many windows */

enum { C_FILE, C_BRK, C_MMAP, C_STACK, C_OTHER };
static const char *cls_name[NCLS] = {"file", "brk", "mmap", "stack", "other"};

struct pg {
	Addr page; /* page number + 1 (0: empty slot) */
	UChar seen, cls, exec, resident, file;
	UInt base_windows;
	ULong birth;
	ULong off;	   /* page offset in its file */
	ULong first, last; /* icount of the first and the last reference */
	ULong born_at;	   /* icount at its last birth */
	UInt lastwin[NW];  /* window index + 1 that last referenced it */
	UInt lastexec[NW];
	UInt lastfork; /* fork window index + 1 that last referenced it (--forks=yes) */
};

static const HChar *clo_out = "pagerefs.out";
static Bool clo_forks;
static struct pg **fwin; /* the pages referenced since the previous fork (--forks=yes) */
static ULong fwin_n, fwin_cap;
static UInt forkidx;
static Int out_fd = -1;
static HChar obuf[1 << 16];
static Int oused;

static struct pg *tab;
static ULong npages;
static ULong icount, births, resident;
static ULong wsize[NW], wend[NW], next_min;
static UInt widx[NW];
static ULong cnt[NW][NCLS], cntx[NW], born[NW], gcs[NW], hist[NW][HBINS], hbase[NW];
static ULong gap[NW][NGAP], gap_first[NW];
static Addr last_ipage = ~(Addr)0;
static Addr stack_lo, stack_hi;
static Bool stack_known;
static HChar *files[MAXFILE];
static Int nfiles;
static Bool in_gc;
static ULong epoch, last_epoch; /* windows closed so far; when last_ipg was counted */

static void flush_out(void)
{
	if (oused && out_fd >= 0)
		VG_(write)(out_fd, obuf, oused);
	oused = 0;
}

static void emit(const HChar *s)
{
	Int n = VG_(strlen)(s);
	if (oused + n > (Int)sizeof(obuf))
		flush_out();
	VG_(memcpy)(obuf + oused, s, n);
	oused += n;
}

static void close_window(Int k)
{
	HChar line[512];
	Int n =
	    VG_(sprintf)(line, "W %d %u %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu", k,
			 widx[k], icount, cnt[k][C_FILE], cntx[k], cnt[k][C_BRK], cnt[k][C_MMAP],
			 cnt[k][C_STACK], cnt[k][C_OTHER], born[k], resident, births, gcs[k]);
	for (Int b = 0; b < HBINS; b++)
		n += VG_(sprintf)(line + n, " %llu", hist[k][b]);
	VG_(sprintf)(line + n, "\n");
	emit(line);
	for (Int c = 0; c < NCLS; c++)
		cnt[k][c] = 0;
	cntx[k] = born[k] = gcs[k] = 0;
	for (Int b = 0; b < HBINS; b++)
		hist[k][b] = 0;
	widx[k]++;
	wend[k] += wsize[k];
	epoch++;
	hbase[k] = births;
}

static void check_windows(void)
{
	next_min = ~0ULL;
	for (Int k = 0; k < NW; k++) {
		if (icount >= wend[k])
			close_window(k);
		if (wend[k] < next_min)
			next_min = wend[k];
	}
}

static struct pg *lookup(Addr page)
{
	ULong mask = (1ULL << HBITS) - 1, h = (page * 0x9E3779B97F4A7C15ULL) >> (64 - HBITS);
	for (;;) {
		struct pg *e = &tab[h];
		if (e->page == page + 1)
			return e;
		if (e->page == 0) {
			tl_assert(npages < (mask + 1) / 2);
			npages++;
			e->page = page + 1;
			return e;
		}
		h = (h + 1) & mask;
	}
}

static Int file_index(const HChar *name)
{
	for (Int i = 0; i < nfiles; i++)
		if (VG_(strcmp)(files[i], name) == 0)
			return i;
	if (nfiles == MAXFILE)
		return MAXFILE - 1;
	files[nfiles] = VG_(strdup)("pagerefs.file", name);
	return nfiles++;
}

static void classify(struct pg *e, Addr a)
{
	if (!stack_known) {
		Addr sp = VG_(get_SP)(1);
		NSegment const *s = VG_(am_find_nsegment)(sp);
		if (s) {
			stack_lo = s->start > (64UL << 20) ? s->start - (64UL << 20) : 0;
			stack_hi = s->end;
			stack_known = True;
		}
	}
	NSegment const *s = VG_(am_find_nsegment)(a);
	e->cls = C_OTHER;
	if (s && s->kind == SkFileC) {
		const HChar *f = VG_(am_get_filename)(s);
		e->cls = C_FILE;
		e->file = (UChar)file_index(f ? f : "?");
		e->off = (ULong)(s->offset + (a - s->start)) >> PSHIFT;
	} else if (stack_known && a >= stack_lo && a <= stack_hi) {
		e->cls = C_STACK;
	} else if (s && s->kind == SkAnonC) {
		e->cls = s->isCH ? C_BRK : C_MMAP;
	}
}

static void ref_page(Addr page, Bool exec)
{
	struct pg *e = lookup(page);
	e->last = icount;
	if (!e->seen) {
		e->seen = 1;
		e->first = icount;
		classify(e, page << PSHIFT);
		if (e->cls != C_BRK && e->cls != C_MMAP)
			e->resident = 1;
	}
	Bool anon = e->cls == C_BRK || e->cls == C_MMAP;
	if (anon && !e->resident) {
		e->resident = 1;
		e->birth = ++births;
		e->born_at = icount;
		resident++;
		for (Int k = 0; k < NW; k++)
			born[k]++;
	}
	if (exec && !e->exec)
		e->exec = 1;
	if (clo_forks && e->lastfork != forkidx + 1) {
		e->lastfork = forkidx + 1;
		if (fwin_n == fwin_cap) {
			fwin_cap = fwin_cap ? 2 * fwin_cap : 4096;
			fwin = VG_(realloc)("pagerefs.fwin", fwin, fwin_cap * sizeof(*fwin));
		}
		fwin[fwin_n++] = e;
	}
	for (Int k = 0; k < NW; k++) {
		if (e->lastwin[k] != widx[k] + 1) {
			cnt[k][e->cls]++;
			if (k == KBASE)
				e->base_windows++;
			if (anon) {
				/* reuse gap in windows since its previous window, or its first
				 * window since birth */
				if (e->lastwin[k] == 0 ||
				    e->lastwin[k] - 1 < e->born_at / wsize[k]) {
					gap_first[k]++;
				} else {
					ULong g = widx[k] + 1 - e->lastwin[k];
					gap[k][g < NGAP ? g : NGAP - 1]++;
				}
			}
			if (anon && e->birth <= hbase[k]) {
				ULong b = hbase[k] ? (e->birth - 1) * HBINS / hbase[k] : 0;
				hist[k][b < HBINS ? b : HBINS - 1]++;
			}
			e->lastwin[k] = widx[k] + 1;
		}
		if (exec && e->lastexec[k] != widx[k] + 1) {
			e->lastexec[k] = widx[k] + 1;
			cntx[k]++;
		}
	}
}

static VG_REGPARM(1) void on_instr(Addr a)
{
	icount++;
	if (icount >= next_min)
		check_windows();
	Addr p = a >> PSHIFT;
	if (p == last_ipage && epoch == last_epoch)
		return; /* the previous instruction's page, counted in every current window */
	ref_page(p, True);
	last_ipage = p;
	last_epoch = epoch;
}

static VG_REGPARM(2) void on_data(Addr a, SizeT size)
{
	Addr p0 = a >> PSHIFT, p1 = (a + (size ? size : 1) - 1) >> PSHIFT;
	for (Addr p = p0; p <= p1; p++)
		ref_page(p, False);
}

static void release(Addr a, SizeT len)
{
	Addr p0 = a >> PSHIFT, p1 = (a + len + (1 << PSHIFT) - 1) >> PSHIFT;
	if (p1 - p0 > (1UL << 24))
		return; /* a huge reservation: scan the table instead */
	for (Addr p = p0; p < p1; p++) {
		ULong mask = (1ULL << HBITS) - 1, h = (p * 0x9E3779B97F4A7C15ULL) >> (64 - HBITS);
		for (;;) {
			struct pg *e = &tab[h];
			if (e->page == 0)
				break;
			if (e->page == p + 1) {
				if ((e->cls == C_BRK || e->cls == C_MMAP) && e->resident) {
					e->resident = 0;
					resident--;
				}
				break;
			}
			h = (h + 1) & mask;
		}
	}
}

static Bool forked_child;

static void child_after_fork(ThreadId tid)
{
	(void)tid;
	out_fd = -1;
	oused = 0;
	forked_child = True;
}

/* With --forks=yes a forked child that execs writes what it runs to OUT.x (OUT named for the
 * child's pid): "P parent_pid fork_window program args", fork_window the number of the
 * parent's K line that this fork closed (0 the first). */
static void note_exec(UWord *args)
{
	HChar line[600];
	Int n = VG_(snprintf)(line, sizeof(line), "P %d %u %s", VG_(getppid)(), forkidx - 1,
			      (const HChar *)args[0]);
	const HChar *const *argv = (const HChar *const *)args[1];
	for (Int i = 1; argv && argv[i] && n < 500; i++)
		n += VG_(snprintf)(line + n, sizeof(line) - n, " %s", argv[i]);
	VG_(snprintf)(line + n, sizeof(line) - n, "\n");
	HChar name[512];
	VG_(snprintf)(name, sizeof(name), "%s.x", VG_(expand_file_name)("--out", clo_out));
	Int fd = VG_(fd_open)(name, 0x241, 0644);
	if (fd >= 0) {
		VG_(write)(fd, line, VG_(strlen)(line));
		VG_(close)(fd);
	}
}

/* One fork window: "K icount n" and its n pages, "k class exec vpage" (vpage in hex). */
static void close_fork_window(const HChar *tag)
{
	HChar line[96];
	VG_(sprintf)(line, "%s %llu %llu\n", tag, icount, fwin_n);
	emit(line);
	for (ULong i = 0; i < fwin_n; i++) {
		struct pg *e = fwin[i];
		VG_(sprintf)
		(line, "k %s %d %llx\n", cls_name[e->cls], e->exec, (ULong)(e->page - 1));
		emit(line);
	}
	fwin_n = 0;
	forkidx++;
}

static void pre_syscall(ThreadId tid, UInt no, UWord *args, UInt nargs)
{
	(void)tid;
	(void)nargs;
	if (clo_forks && (no == 56 /* clone */ || no == 57 /* fork */ || no == 58 /* vfork */)) {
		/* a thread's clone would count too (make has no threads); not clone3: Valgrind 3.19
		 * refuses it (ENOSYS) and glibc falls back to clone, which is counted */
		close_fork_window("K");
		return;
	}
	if (clo_forks && forked_child && no == 59 /* execve */) {
		note_exec(args);
		forked_child = False;
		return;
	}
	if (no == 1 /* write */ && args[0] == 2 && args[2] > 0) {
		const HChar *buf = (const HChar *)args[1];
		SizeT n = args[2];
		if (in_gc)
			for (SizeT i = 0; i < n; i++)
				if (buf[i] == '}') {
					HChar line[64];
					VG_(sprintf)(line, "g %llu\n", icount);
					emit(line);
					in_gc = False;
					break;
				}
		for (SizeT i = 0; i + 3 < n; i++)
			if (buf[i] == '{' && buf[i + 1] == 'G' && buf[i + 2] == 'C') {
				HChar line[160];
				SizeT m = n - i < 100 ? n - i : 100;
				Int l = VG_(sprintf)(line, "G %llu ", icount);
				for (SizeT j = 0; j < m; j++)
					line[l++] = buf[i + j] == '\n' ? ' ' : buf[i + j];
				line[l++] = '\n';
				line[l] = 0;
				emit(line);
				for (Int k = 0; k < NW; k++)
					gcs[k]++;
				in_gc = True;
				break;
			}
	}
}

static void post_syscall(ThreadId tid, UInt no, UWord *args, UInt nargs, SysRes res)
{
	(void)tid;
	(void)nargs;
	if (sr_isError(res))
		return;
	if (no == 11 /* munmap */)
		release(args[0], args[1]);
	else if (no == 28 /* madvise */ && (args[2] == 4 /* DONTNEED */ || args[2] == 8 /* FREE */))
		release(args[0], args[1]);
	else if (no == 25 /* mremap: the old range goes; the new one is born on reference */)
		release(args[0], args[1]);
	else if (no == 12 /* brk shrinking is rare in cc1: not tracked */)
		return;
}

static void add_call(IRSB *sb, const HChar *name, void *fn, Int regparms, IRExpr **args,
		     IRExpr *guard)
{
	IRDirty *d = unsafeIRDirty_0_N(regparms, name, VG_(fnptr_to_fnentry)(fn), args);
	if (guard)
		d->guard = guard;
	addStmtToIRSB(sb, IRStmt_Dirty(d));
}

static void data_ref(IRSB *sb, IRExpr *addr, Int size, IRExpr *guard)
{
	add_call(sb, "on_data", on_data, 2, mkIRExprVec_2(addr, mkIRExpr_HWord((HWord)size)),
		 guard);
}

static IRSB *pr_instrument(VgCallbackClosure *closure, IRSB *in, const VexGuestLayout *layout,
			   const VexGuestExtents *vge, const VexArchInfo *archinfo, IRType gw,
			   IRType hw)
{
	(void)closure;
	(void)layout;
	(void)vge;
	(void)archinfo;
	(void)gw;
	(void)hw;
	IRSB *out = deepCopyIRSBExceptStmts(in);
	IRTypeEnv *env = in->tyenv;
	Int i = 0;
	while (i < in->stmts_used && in->stmts[i]->tag != Ist_IMark)
		addStmtToIRSB(out, in->stmts[i++]);
	for (; i < in->stmts_used; i++) {
		IRStmt *st = in->stmts[i];
		if (!st || st->tag == Ist_NoOp)
			continue;
		switch (st->tag) {
		case Ist_IMark:
			add_call(out, "on_instr", on_instr, 1,
				 mkIRExprVec_1(mkIRExpr_HWord((HWord)st->Ist.IMark.addr)), NULL);
			break;
		case Ist_WrTmp:
			if (st->Ist.WrTmp.data->tag == Iex_Load)
				data_ref(out, st->Ist.WrTmp.data->Iex.Load.addr,
					 sizeofIRType(st->Ist.WrTmp.data->Iex.Load.ty), NULL);
			break;
		case Ist_Store:
			data_ref(out, st->Ist.Store.addr,
				 sizeofIRType(typeOfIRExpr(env, st->Ist.Store.data)), NULL);
			break;
		case Ist_StoreG: {
			IRStoreG *g = st->Ist.StoreG.details;
			data_ref(out, g->addr, sizeofIRType(typeOfIRExpr(env, g->data)), g->guard);
			break;
		}
		case Ist_LoadG: {
			IRLoadG *g = st->Ist.LoadG.details;
			IRType ty = Ity_INVALID, wide = Ity_INVALID;
			typeOfIRLoadGOp(g->cvt, &wide, &ty);
			data_ref(out, g->addr, sizeofIRType(ty), g->guard);
			break;
		}
		case Ist_Dirty: {
			IRDirty *d = st->Ist.Dirty.details;
			if (d->mFx != Ifx_None)
				data_ref(out, d->mAddr, d->mSize, NULL);
			break;
		}
		case Ist_CAS: {
			IRCAS *c = st->Ist.CAS.details;
			Int sz = sizeofIRType(typeOfIRExpr(env, c->dataLo)) * (c->dataHi ? 2 : 1);
			data_ref(out, c->addr, sz, NULL);
			break;
		}
		case Ist_LLSC:
			data_ref(out, st->Ist.LLSC.addr,
				 st->Ist.LLSC.storedata
				     ? sizeofIRType(typeOfIRExpr(env, st->Ist.LLSC.storedata))
				     : sizeofIRType(typeOfIRTemp(env, st->Ist.LLSC.result)),
				 NULL);
			break;
		default:
			break;
		}
		addStmtToIRSB(out, st);
	}
	return out;
}

static Bool pr_option(const HChar *arg)
{
	if (VG_STR_CLO(arg, "--out", clo_out)) {
	} else if (VG_BOOL_CLO(arg, "--forks", clo_forks)) {
	} else
		return False;
	return True;
}

static void pr_usage(void)
{
	VG_(printf)("    --out=FILE   where the window counts go, %%p the pid [pagerefs.out]\n");
	VG_(printf)("    --forks=yes  also the pages referenced between forks [no]\n");
}

static void pr_debug_usage(void)
{
}

/* A forked child writes nothing of the parent's: it execs (and a new instance opens its own
 * file) or exits. */
static void pr_post_clo_init(void)
{
	out_fd = VG_(fd_open)(VG_(expand_file_name)("--out", clo_out),
			      0x241 /* O_WRONLY|O_CREAT|O_TRUNC */, 0644);
	if (out_fd < 0)
		VG_(tool_panic)("pagerefs: cannot open --out");
	tab = VG_(calloc)("pagerefs.tab", 1ULL << HBITS, sizeof(*tab));
	ULong w = 1ULL << 16;
	for (Int k = 0; k < NW; k++) {
		/* 2^16 * sqrt(2)^k, rounded */
		wsize[k] = (k & 1) ? (w * 46341ULL + 16384) / 32768 : w;
		if (k & 1)
			w *= 2;
		wend[k] = wsize[k];
	}
	next_min = wsize[0];
	VG_(atfork)(NULL, NULL, child_after_fork);
	{
		HChar line[600];
		Int n = VG_(snprintf)(line, sizeof(line), "X %s", VG_(args_the_exename));
		for (Word i = 0; i < VG_(sizeXA)(VG_(args_for_client)) && n < 500; i++)
			n += VG_(snprintf)(line + n, sizeof(line) - n, " %s",
					   *(HChar **)VG_(indexXA)(VG_(args_for_client), i));
		VG_(snprintf)(line + n, sizeof(line) - n, "\n");
		emit(line);
	}
	emit("# pagerefs: W k idx icount_end file fileX brk mmap stack other born resident births "
	     "gc h0..h15\n");
	HChar line[64];
	for (Int k = 0; k < NW; k++) {
		VG_(sprintf)(line, "S %d %llu\n", k, wsize[k]);
		emit(line);
	}
}

static void pr_fini(Int code)
{
	HChar line[600];
	if (clo_forks)
		close_fork_window("Z");
	VG_(sprintf)(line, "E %llu %d\n", icount, code);
	emit(line);
	for (Int k = 0; k < NW; k++)
		if (icount > wend[k] - wsize[k])
			close_window(k);
	for (Int k = 0; k < NW; k++) {
		VG_(sprintf)(line, "Q %d %llu", k, gap_first[k]);
		emit(line);
		for (Int g = 1; g < NGAP; g++)
			if (gap[k][g]) {
				VG_(sprintf)(line, " %d:%llu", g, gap[k][g]);
				emit(line);
			}
		emit("\n");
	}
	for (Int f = 0; f < nfiles; f++) {
		VG_(snprintf)(line, sizeof(line), "F %d %s\n", f, files[f]);
		emit(line);
	}
	for (ULong h = 0; h < (1ULL << HBITS); h++) {
		struct pg *e = &tab[h];
		if (!e->page)
			continue;
		if (e->cls == C_FILE)
			VG_(sprintf)
		(line, "P %s %d %u %llu %llu %d %llu\n", cls_name[e->cls], e->exec, e->base_windows,
		 e->first, e->last, e->file, e->off);
		else VG_(sprintf)(line, "P %s %d %u %llu %llu %llu %d\n", cls_name[e->cls], e->exec,
				  e->base_windows, e->first, e->last, e->birth, e->resident);
		emit(line);
	}
	flush_out();
	VG_(close)(out_fd);
}

static void pr_pre_clo_init(void)
{
	VG_(details_name)("pagerefs");
	VG_(details_version)("1");
	VG_(details_description)("distinct pages referenced per instruction window");
	VG_(details_copyright_author)("mmsim tools/measure/kbuild");
	VG_(details_bug_reports_to)("-");
	VG_(basic_tool_funcs)(pr_post_clo_init, pr_instrument, pr_fini);
	VG_(needs_command_line_options)(pr_option, pr_usage, pr_debug_usage);
	VG_(needs_syscall_wrapper)(pre_syscall, post_syscall);
}

VG_DETERMINE_INTERFACE_VERSION(pr_pre_clo_init)
