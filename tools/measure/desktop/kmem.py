#!/usr/bin/python3
"""Summarises kmem.sh's trace (docs/desktop-measured.md, "The kernel's allocations (order > 0)").

usage: kmem.py OUTDIR DATADIR        (OUTDIR: kmem.sh's; DATADIR: data/measured/desktop)
       kmem.py --orders SIZE...      (2.6.30 SLUB's slab order of SIZE at 2 and 1 CPUs)

Reads OUTDIR/trace.zst, trace-all.zst, host.txt, trace-stats.txt, before/, after/ and
run/programs.csv.
Writes DATADIR/kmem-pagealloc.csv, kmem-kmalloc.csv, kmem-caches.csv, kmem-sockets.csv,
kmem-xsends.csv, kmem-steps.csv, kmem-host.txt and DATADIR/kmem-raw/ (the aggregates the
CSVs are cut from: every order > 0 stack, kmalloc per call site and size, cache allocations
per call site, allocations per process). The processes of the measurement itself (python3: run.sh's
smaps.py) are counted apart and left out of the CSVs.
"""
import bisect
import collections
import csv
import gzip
import io
import os
import re
import subprocess
import sys

PAGE_SHIFT = 12
PAGE_SIZE = 1 << PAGE_SHIFT
MEASUREMENT = {'python3'}

# ---- 2.6.30 mm/slub.c, calculate_order() and slab_order(), x86, 4 KiB pages ----
SLUB_MIN_ORDER = 0
SLUB_MAX_ORDER = 3  # PAGE_ALLOC_COSTLY_ORDER
MAX_ORDER = 11
MAX_OBJS_PER_PAGE = 65535
# 2.6.30 include/linux/slub_def.h: kmalloc caches 8..8192 (SLUB_MAX_SIZE = 2 * PAGE_SIZE),
# 96 and 192 besides the powers of two; above 8192 kmalloc_large() at get_order(size)
KMALLOC_2630 = [8, 16, 32, 64, 96, 128, 192, 256, 512, 1024, 2048, 4096, 8192]
SLUB_MAX_SIZE = 2 * PAGE_SIZE


def fls(x):
    return x.bit_length()


def get_order(size):
    order = 0
    size = (size - 1) >> PAGE_SHIFT
    while size:
        order += 1
        size >>= 1
    return order


def slab_order(size, min_objects, max_order, fract_leftover):
    min_order = SLUB_MIN_ORDER
    if (PAGE_SIZE << min_order) // size > MAX_OBJS_PER_PAGE:
        return get_order(size * MAX_OBJS_PER_PAGE) - 1
    order = max(min_order, fls(min_objects * size - 1) - PAGE_SHIFT)
    while order <= max_order:
        slab_size = PAGE_SIZE << order
        if slab_size >= min_objects * size:
            rem = slab_size % size
            if rem <= slab_size // fract_leftover:
                break
        order += 1
    return order


def calculate_order(size, nr_cpu_ids):
    min_objects = 4 * (fls(nr_cpu_ids) + 1)  # slub_min_objects = 0
    max_objects = (PAGE_SIZE << SLUB_MAX_ORDER) // size
    min_objects = min(min_objects, max_objects)
    while min_objects > 1:
        fraction = 16
        while fraction >= 4:
            order = slab_order(size, min_objects, SLUB_MAX_ORDER, fraction)
            if order <= SLUB_MAX_ORDER:
                return order
            fraction //= 2
        min_objects -= 1
    order = slab_order(size, 1, SLUB_MAX_ORDER, 1)
    if order <= SLUB_MAX_ORDER:
        return order
    order = slab_order(size, 1, MAX_ORDER, 1)
    return order if order < MAX_ORDER else None


def class_2630(req):
    """2.6.30's kmalloc class of a request: ('slab', size) or ('large', order)."""
    if req > SLUB_MAX_SIZE:
        return ('large', get_order(req))
    for c in KMALLOC_2630:
        if req <= c:
            return ('slab', c)
    return ('slab', 8192)


# 2.6.30 net/unix/af_unix.c unix_stream_sendmsg(): a send of LEN bytes is cut into skbs of
# at most SKB_MAX_ALLOC = SKB_MAX_ORDER(0, 2) = 4 pages - SKB_DATA_ALIGN(sizeof(struct
# skb_shared_info)) bytes (sk_sndbuf / 2 - 64 is larger with the default sndbuf), each with
# its data from kmalloc(SKB_DATA_ALIGN(size) + sizeof(struct skb_shared_info)) (__alloc_skb,
# net/core/skbuff.c). x86_64: sizeof(struct skb_shared_info) = 488 (18 frags of 16 bytes, 19
# dma_maps of 8, 48 bytes before them), SMP_CACHE_BYTES = 64.
SHINFO_2630 = 488
SMP_CACHE_BYTES = 64


def skb_data_align(x):
    return (x + SMP_CACHE_BYTES - 1) & ~(SMP_CACHE_BYTES - 1)


SKB_MAX_ALLOC_2630 = (PAGE_SIZE << 2) - skb_data_align(SHINFO_2630)


def unix_kmallocs_2630(length):
    """The kmalloc request sizes 2.6.30 makes for a unix stream send of LENGTH bytes."""
    out = []
    while length > 0:
        size = min(length, SKB_MAX_ALLOC_2630)
        out.append(skb_data_align(size) + SHINFO_2630)
        length -= size
    return out


# today's kmalloc of skb data (kmalloc_reserve, inlined): on 2.6.30 a unix send's data is
# sized as above instead
SKB_DATA_SITES = {'__alloc_skb', 'kmalloc_reserve', 'kmalloc_reserve.constprop.0'}


# ---- gfp flags as the tracepoint prints them ----
RECLAIMING = {'GFP_KERNEL', 'GFP_KERNEL_ACCOUNT', 'GFP_USER', 'GFP_HIGHUSER',
              'GFP_HIGHUSER_MOVABLE', 'GFP_NOFS', 'GFP_NOIO', 'GFP_TRANSHUGE',
              '__GFP_RECLAIM', '__GFP_DIRECT_RECLAIM'}


def can_reclaim(gfp):
    return any(f in RECLAIMING for f in gfp.split('|'))


def gfp_class(gfp, order):
    fl = set(gfp.split('|'))
    if fl & {'GFP_TRANSHUGE', 'GFP_TRANSHUGE_LIGHT'}:
        return 'transhuge'
    movable = bool(fl & {'GFP_HIGHUSER_MOVABLE', '__GFP_MOVABLE'})
    kind = 'movable' if movable else 'kernel'
    return kind + ('' if can_reclaim(gfp) else ' no-direct-reclaim')


# ---- where an order > 0 page allocation comes from, by its stack ----
SOURCES = [  # (frame substring, source), first match in this order
    ('allocate_slab', 'slab: new slab'),
    ('kmalloc_large', 'kmalloc_large'),
    ('pgd_alloc', 'page tables: pgd (PTI)'),
    ('alloc_skb_with_frags', 'skb: alloc_skb_with_frags (socket send)'),
    ('page_frag', 'skb: page_frag'),
    ('do_huge_pmd_anonymous_page', 'THP: anonymous'),
    ('vma_alloc_anon_folio_pmd', 'THP: anonymous'),
    ('alloc_anon_folio', 'anonymous large folio (mTHP)'),
    ('page_cache_ra_order', 'page cache: large folio, readahead'),
    ('__filemap_get_folio', 'page cache: large folio, write/fault'),
    ('filemap_alloc_folio', 'page cache: large folio'),
    ('alloc_thread_stack', 'kernel stack'),
    ('__vmalloc', 'vmalloc'),
    ('pipe_write', 'pipe'),
    ('kvmalloc', 'kvmalloc'),
    ('dma_', 'dma'),
]
INTERNAL = re.compile(
    r'^(trace_event_raw_event_mm_page_alloc|__traceiter_\w+|'
    r'__alloc_frozen_pages_noprof|alloc_pages_mpol|'
    r'alloc_pages_noprof|alloc_frozen_pages_noprof|__alloc_pages_noprof|folio_alloc\w*|'
    r'__folio_alloc\w*|alloc_pages_node\w*|__get_free_pages\w*|get_free_pages\w*|'
    r'alloc_slab_page|allocate_slab|new_slab|___slab_alloc|__slab_alloc\S*|'
    r'slab_alloc_node\S*|__kmalloc\w*|kmalloc\w*|kmem_cache_alloc\w*|__kmem_cache_alloc\w*|'
    r'___kmalloc_large_node|__kmalloc_large\w*|kmalloc_large\w*|kvmalloc\w*|__kvmalloc\w*|'
    r'alloc_pages_bulk\w*|__alloc_pages_bulk\w*|kmalloc_reserve\S*)$')


def source_of(stack):
    src = 'other'
    for sub, name in SOURCES:
        if any(sub in f for f in stack):
            src = name
            break
    caller = next((f for f in stack if not INTERNAL.match(f)), '?')
    return src, caller


# ---- the trace ----
STACK = re.compile(r'^\s*.*-\d+\s+\[(\d+)\]\s+\S+\s+[\d.]+: <stack trace>')
SOCK = re.compile(r'family = (\S+) protocol = \S+ length = (\d+)')
SK = re.compile(r'sk address = (\w+)')
EVENT = re.compile(r'^\s*(.*)-(\d+)\s+\[(\d+)\]\s+\S+\s+([\d.]+): (\w+): (.*)$')
FIELD = re.compile(r'(\w+)=(\S+)')


def sym(call_site):
    return call_site.split('+')[0]


def zopen(path):
    p = subprocess.Popen(['zstd', '-dc', path], stdout=subprocess.PIPE)
    return io.TextIOWrapper(p.stdout, errors='replace'), p


class Counts:
    def __init__(self):
        self.page = collections.Counter()  # (order, gfp)
        self.page_src = collections.Counter()  # (order, gfp, source)
        self.stacks = collections.Counter()  # (order, gfp, stack)
        self.callers = collections.Counter()  # (order, source, caller)
        self.kmalloc = collections.Counter()  # (bytes_req, bytes_alloc, site, atomic)
        self.cache = collections.Counter()  # (name, bytes_alloc, site, atomic)
        self.newslab = collections.Counter()  # (order, cache)
        self.comm = collections.Counter()  # (comm, event, order>0)
        self.sends = collections.Counter()  # (family, bytes) of socket sends


class Tasks:
    """What xsends() needs of the trace: every task (pid as the trace gives it, i.e. the
    thread's id) with its first and last event and its names in order, the desktop's unix
    sends with their socket, and the markers."""
    def __init__(self):
        self.tasks = {}  # pid -> [first ts, last ts, [comm, ...]]
        self.sends = []  # (ts, pid, sk, length): the desktop's unix sends of length > 0
        self.marks = []  # (ts, text)


def parse(path):
    """Returns (counts of the desktop, counts of the measurement, steps, Tasks)."""
    desk, meas = Counts(), Counts()
    tk = Tasks()
    steps = []  # [step, program, t_end, Counter]
    step_c = collections.Counter()
    pending = {}  # cpu -> [order, gfp, comm, pid, stack list, counts]: its stack follows
    slabwait = {}  # pid -> [order, counts, stack frames, misses]: a new slab's object to come
    f, proc = zopen(path)
    cur = None  # the pending entry whose stack is being read
    t_prev = None
    for line in f:
        if line.startswith(' => '):
            if cur is not None:
                cur[4].append(line[4:].strip())
            continue
        if cur is not None:
            finish_stack(cur, slabwait)
            cur = None
        m = STACK.match(line)
        if m:
            cur = pending.pop(m.group(1), None)
            continue
        m = EVENT.match(line)
        if not m:
            continue
        comm, pid, cpu, ts, ev, rest = m.groups()
        t = tk.tasks.get(pid)
        if t is None:
            tk.tasks[pid] = t = [float(ts), 0.0, []]
        t[1] = float(ts)
        if not t[2] or t[2][-1] != comm.strip():
            t[2].append(comm.strip())
        if ev == 'tracing_mark_write':
            tk.marks.append((float(ts), rest))
            if 'mmsim: start' in rest:
                t_prev = float(ts)
            mm = re.match(r'mmsim: step (\d+) (.*): window after', rest)
            if mm:
                steps.append((int(mm.group(1)), mm.group(2), float(ts) - t_prev, step_c))
                t_prev = float(ts)
                step_c = collections.Counter()
            continue
        c = meas if comm.strip() in MEASUREMENT else desk
        fl = dict(FIELD.findall(rest))
        if ev in ('kmalloc', 'kmem_cache_alloc') and 'gfp_flags' not in fl:
            continue  # a cut line (a trace whose end was lost)
        if ev == 'mm_page_alloc':
            order = int(fl['order'])
            gfp = fl.get('gfp_flags', 'none')
            c.page[(order, gfp)] += 1
            c.comm[(comm.strip(), 'page', order > 0)] += 1
            if c is desk:
                step_c['order%d' % min(order, 9)] += 1
            if order > 0:
                pending[cpu] = [order, gfp, comm, pid, [], c]
        elif ev == 'sock_send_length':
            mm = SOCK.search(rest)
            if mm and int(mm.group(2)) > 0:
                fam = {'0x1': 'unix', '1': 'unix', 'AF_INET': 'inet', 'AF_INET6': 'inet6'}.get(
                    mm.group(1), mm.group(1))
                c.sends[(fam, int(mm.group(2)))] += 1
                if fam == 'unix' and c is desk:
                    tk.sends.append((float(ts), int(pid), SK.search(rest).group(1),
                                     int(mm.group(2))))
                c.comm[(comm.strip(), 'send-' + fam, False)] += 1
        elif ev in ('kmalloc', 'kmem_cache_alloc'):
            req, alloc = int(fl['bytes_req']), int(fl['bytes_alloc'])
            gfp = fl.get('gfp_flags', 'none')
            atomic = not can_reclaim(gfp)
            site = sym(fl['call_site'])
            if ev == 'kmalloc':
                c.kmalloc[(req, alloc, site, atomic)] += 1
                name = 'kmalloc-%d' % alloc if alloc <= SLUB_MAX_SIZE else 'kmalloc_large'
                if c is desk:
                    k, v = class_2630(req)
                    step_c['kmalloc'] += 1
                    o = get_order(v) if k == 'large' else ORDER_2630_2CPU[v]
                    if o > 0:
                        step_c['kmalloc_2630_order%d' % o] += 1
            else:
                name = rest.split('name=')[1].split()[0]
                c.cache[(name, alloc, site, atomic)] += 1
                if c is desk:
                    step_c['cache'] += 1
            c.comm[(comm.strip(), ev, False)] += 1
            w = slabwait.get(pid)
            if w:
                # the object the new slab was allocated for: the next allocation of the task
                # from a function on the slab page's stack (on the way, SLUB's own kmallocs
                # of the slab's memcg vector, alloc_slab_obj_exts, and of sheaves)
                if site in w[2]:
                    w[1].newslab[(w[0], name)] += 1
                    del slabwait[pid]
                else:
                    w[3] += 1
                    if w[3] > 50:
                        w[1].newslab[(w[0], '?')] += 1
                        del slabwait[pid]
    if cur is not None:
        finish_stack(cur, slabwait)
    proc.wait()
    tk.tasks = {int(p): v for p, v in tk.tasks.items()}
    return desk, meas, steps, tk


ORDER_2630_2CPU = {c: calculate_order(c, 2) for c in KMALLOC_2630}


def finish_stack(p, slabwait):
    order, gfp, comm, pid, stack, c = p
    src, caller = source_of(stack)
    c.page_src[(order, gfp, src)] += 1
    c.stacks[(order, gfp, ' <- '.join(stack[1:]))] += 1
    c.callers[(order, src, caller)] += 1
    if src == 'slab: new slab':
        slabwait[pid] = [order, c, set(stack), 0]


def parse_all(path):
    """trace-all.zst: every order > 0 allocation of the machine: (order, source, comm)."""
    cnt = collections.Counter()
    f, proc = zopen(path)
    cur = None
    for line in f:
        if line.startswith(' => '):
            if cur is not None:
                cur[2].append(line[4:].strip())
            continue
        if STACK.match(line):
            continue
        m = EVENT.match(line)
        if not m:
            continue
        comm, pid, cpu, ts, ev, rest = m.groups()
        if ev == 'mm_page_alloc':
            if cur is not None:
                cnt[(cur[0], source_of(cur[2])[0], cur[1])] += 1
            cur = [int(dict(FIELD.findall(rest))['order']), comm.strip(), []]
    if cur is not None:
        cnt[(cur[0], source_of(cur[2])[0], cur[1])] += 1
    proc.wait()
    return cnt


# ---- kmem-xsends.csv: the unix sends per step, phase and sender, as 2.6.30's skbs ----
# run.sh's own processes (and kmem.sh's): "measure"
MEASURE_COMMS = {'run.sh', 'kmem.sh', 'wmctrl', 'xdotool', 'python3', 'awk', 'sort', 'comm',
                 'head', 'seq', 'sleep', 'date', 'bc', 'getconf', 'tee', 'cat', 'mkfifo',
                 'zstd', 'sed', 'xargs', 'kill', 'rm', 'mktemp', 'dirname', 'pgrep',
                 'dbus-update-act', 'mkdir', 'grep'}
# the X server (and the keymap compiler it runs) and the window manager
FIXED_KIND = {'Xvfb': 'xserver', 'xkbcomp': 'xserver', 'openbox': 'wm'}
SCRIPTS = {'run.sh', 'kmem.sh', '<...>'}
# D-Bus: the session bus (and the accessibility bus at-spi-bus-launcher starts) and the
# services started on the desktop's behalf
DBUS_COMMS = {'dbus-daemon', 'dbus-run-sessio', 'gvfsd', 'gvfsd-trash', 'gvfsd-metadata',
              'gvfsd-fuse', 'gvfsd-recent', 'gvfs-udisks2-vo', 'dconf-service',
              'at-spi-bus-laun', 'at-spi2-registr', 'tracker-miner-f', 'xdg-desktop-por',
              'xdg-document-po', 'xdg-permission-'}
# thread names that many programs' threads carry (GLib's, Mesa's)
GENERIC_THREAD = re.compile(
    r'^(gdbus|gmain|pool|dconf worker|llvmpipe|gvfs|threaded-ml|\[pango\]|.*:disk\$|\?$)')
XSEND_PHASES = ['setup', 'start', 'away', 'switch', 'tabs']


def unix_skbs_2630(length):
    """(class, data bytes) of each skb 2.6.30 makes for a unix stream send of LENGTH."""
    out = []
    for req in unix_kmallocs_2630(length):
        size = min(length, SKB_MAX_ALLOC_2630)
        k, v = class_2630(req)
        out.append(('kmalloc-%d' % v if k == 'slab' else 'large-order-%d' % v, size))
        length -= size
    return out


def task_groups(tk, wpids):
    """Each task's process group (the pid of its group's leader) and each group's kind:
    'xserver', 'wm', 'dbus', 'measure', 'program' or 'other'. Names are what the trace
    prints, which may lag behind an exec or a thread's rename. A leader is a task that
    run.sh or kmem.sh forked (its names: the script's, then its own), that the D-Bus daemon
    forked (dbus-daemon, then the service), a window's pid of programs.csv, or a task first
    and last named as one of the measurement's, the X server's or D-Bus's programs. Every
    other task (threads, and the processes a program forks itself) joins, in pid order, the
    first of: the nearest leader below it, alive then, whose name is its first name (a
    thread starts under its process's name, then renames itself; GLib's pool-PRGNAME
    threads by PRGNAME); for a name that is not a library's (GLib's gdbus, gmain, pool,
    Mesa's llvmpipe), the group of the nearest task below it that had that name, alive then
    if there is one (firefox's 'IPC Launch', 'Sandbox Forked', 'StreamTrans #5'); the group
    of the program task that sent on the socket of its first send before it and after it;
    the nearest leader below it that is alive then, of any kind but the measurement's for a
    library's thread name, else a program's."""
    group, kind, name = {}, {}, {}
    first_send = {}
    by_sk = collections.defaultdict(list)
    for ts, pid, sk, ln in tk.sends:
        first_send.setdefault(pid, (ts, sk))
        by_sk[sk].append((ts, pid))
    tasks = tk.tasks

    def names(pid):
        return [c for c in tasks[pid][2] if c != '<...>'] or ['?']
    for pid in sorted(tasks):
        comms = names(pid)
        own = [c for c in comms if c not in SCRIPTS]
        by_dbus = comms[0] == 'dbus-daemon' and len(own) > 1
        if pid in wpids or comms[0] in SCRIPTS:
            nm = own[-1] if own else comms[0]
        elif by_dbus:
            nm = own[1]
        elif any(comms[0] in cl and own[-1] in cl for cl in (MEASURE_COMMS, FIXED_KIND,
                                                             DBUS_COMMS)):
            nm = own[-1]
        else:
            continue
        group[pid], name[pid] = pid, nm
        if pid in wpids:
            kind[pid] = 'program'
        elif nm in FIXED_KIND:
            kind[pid] = FIXED_KIND[nm]
        elif nm in MEASURE_COMMS or nm in SCRIPTS:
            kind[pid] = 'measure'
        elif nm in DBUS_COMMS or by_dbus:
            kind[pid] = 'dbus'
        else:
            kind[pid] = 'program'
    leaders = sorted(group)

    def nearest(pid, first, ok):
        for lp in reversed(leaders[:bisect.bisect_left(leaders, pid)]):
            if tasks[lp][1] >= first and ok(lp):
                return lp
        return None
    for pid in sorted(tasks):
        if pid in group:
            continue
        first = tasks[pid][0]
        c0 = names(pid)[0]
        generic = GENERIC_THREAD.match(c0)
        g = nearest(pid, first, lambda lp: name[lp] == c0)
        if g is None and c0.startswith('pool-') and len(c0) > 5:
            g = nearest(pid, first, lambda lp: name[lp].startswith(c0[5:]))
        if g is None and not generic:
            for alive in (True, False):
                q = next((q for q in range(pid - 1, leaders[0], -1) if q in group and
                          c0 in tasks[q][2] and (tasks[q][1] >= first or not alive)), None)
                if q is not None:
                    g = group[q]
                    break
        if g is None and pid in first_send:
            ts, sk = first_send[pid]
            us = by_sk[sk]
            i = bisect.bisect_left(us, (ts, 0))
            before = [q for t, q in us[:i] if q != pid]
            after = {q for t, q in us[i:] if q != pid}
            if before and before[-1] in group and before[-1] in after and \
                    kind[group[before[-1]]] == 'program':
                g = group[before[-1]]
        if g is None:
            g = nearest(pid, first, lambda lp: kind[lp] in (
                ('program', 'dbus', 'wm', 'xserver') if generic else ('program',)))
        if g is None:
            g = pid
            name[pid], kind[pid] = c0, 'other'
        group[pid] = g
    return group, kind, name


def x_peers(tk, group):
    """Xvfb's connections: each of its sockets, from each connection set-up reply sent on it
    (the 8-byte prefix, then the rest), belongs to the client connection whose 12-byte set-up
    request (the first send of a task on a socket) came last before it and was not answered
    yet. Returns {Xvfb's sk: [(from ts, client pid), ...]}."""
    seen = set()
    waiting = []  # (ts, pid) of set-up requests not answered yet
    conns = collections.defaultdict(list)
    xpids = {p for p, g in group.items() if tk.tasks[p][2][-1] == 'Xvfb'}
    last8 = {}  # Xvfb's sk -> ts of an 8-byte send (a set-up prefix, or a reply's)
    for ts, pid, sk, ln in tk.sends:
        if pid in xpids:
            if ln == 8:
                last8[sk] = ts
            else:
                if sk in last8 and ln > 1024 and waiting:
                    conns[sk].append((last8[sk], waiting.pop(0)[1]))
                last8.pop(sk, None)
            continue
        if (pid, sk) not in seen:
            seen.add((pid, sk))
            if ln == 12:
                waiting.append((ts, pid))
                waiting = [w for w in waiting if ts - w[0] < 1.0]
    return conns


def xsends(tk, wpids_by_step, sk_totals, data):
    """kmem-xsends.csv: the desktop's unix sends per (step, program, phase, sender, peer,
    of_step, class), as 2.6.30 would have cut them into skbs and kmalloced them
    (docs/desktop-measured.md, "The kernel's allocations (order > 0)"). Checks that they sum
    to kmem-sockets.csv's unix rows (SK_TOTALS: skbs per class, and bytes)."""
    marks = [(ts, re.match(r'mmsim: step (\d+) (.*): window after', txt))
             for ts, txt in tk.marks]
    t_start = next(ts for ts, txt in tk.marks if 'mmsim: start' in txt)
    ends = [(ts, int(m.group(1)), m.group(2)) for ts, m in marks if m]
    progs = {st: prog for ts, st, prog in ends}
    wpids = set(wpids_by_step.values())
    group, kind, name = task_groups(tk, wpids)
    first = {}
    for p, g in group.items():
        first[g] = min(first.get(g, 1e18), tk.tasks[p][0])
    # the phases: the step's launch (after the previous step's marker) to run.sh's `wmctrl
    # -ia` of the previous window (the first wmctrl after the step's first smaps.py), that
    # one to the `wmctrl -ia` of the program's window, that one to the step's marker
    def named(p, nm):
        return nm in tk.tasks[p][2]
    bounds = []  # (from ts, step, program, phase)
    t_prev = t_start
    for i, (t_end, st, prog) in enumerate(ends):
        inside = sorted((tk.tasks[p][0], p) for p in tk.tasks
                        if t_prev < tk.tasks[p][0] <= t_end)
        wm = [(t, p) for t, p in inside if named(p, 'wmctrl')]
        if i == 0:  # run.sh's set-up (Xvfb, openbox) before the step's first window poll
            bounds.append((t_prev, 0, '-', 'setup'))
            t_prev = wm[0][0]
        bounds.append((t_prev, st, prog, 'start'))
        py = [t for t, p in inside if named(p, 'python3') and t > t_prev]
        sw = [t for t, p in wm if py and t > py[0]]
        if len(sw) == 2:
            bounds.append((sw[0], st, prog, 'away'))
        if sw:
            bounds.append((sw[-1], st, prog, 'switch'))
        if len(sw) > 2:
            sys.exit('kmem.py: step %d has %d wmctrl after its smaps.py' % (st, len(sw)))
        t_prev = t_end
    bounds.append((t_prev, 99, 'firefox', 'tabs'))
    bstarts = [b[0] for b in bounds]
    owner = {g: bounds[max(0, bisect.bisect_right(bstarts, first[g]) - 1)][1]
             for g in set(group.values())}
    wgroup = {st: group.get(p) for st, p in wpids_by_step.items()}
    # after the last step: run.sh's three `firefox URL`, handed to the running firefox
    ffgroup = {wgroup[st] for st, prog in progs.items() if prog == 'firefox'}

    def who(pid, st):
        """The sender class of a task in step ST, and the step of its program."""
        g = group.get(pid)
        if g is None:
            return 'other', '-'
        k = kind[g]
        if k in ('xserver', 'wm', 'dbus', 'measure', 'other'):
            return k, '-'
        if owner[g] == st or wgroup.get(st) == g or (st == 99 and g in ffgroup):
            return 'client', st
        return 'earlier', min((s for s, wg in wgroup.items() if wg == g), default=owner[g])

    conns = x_peers(tk, group)
    rows = collections.defaultdict(lambda: [0, 0])
    for ts, pid, sk, ln in tk.sends:
        b = bounds[max(0, bisect.bisect_right(bstarts, ts) - 1)]
        st = b[1]
        snd, of = who(pid, st)
        peer = '-'
        if snd == 'xserver':
            c = conns.get(sk)
            j = bisect.bisect_right([t for t, q in c], ts) - 1 if c else -1
            peer, of = who(c[j][1], st) if j >= 0 else ('?', '-')
        for cls, size in unix_skbs_2630(ln):
            r = rows[(b[1], b[2], b[3], snd, peer, of, cls)]
            r[0] += 1
            r[1] += size
    order_ph = {p: i for i, p in enumerate(XSEND_PHASES)}
    order_s = {p: i for i, p in enumerate(['client', 'xserver', 'wm', 'dbus', 'earlier',
                                            'measure', 'other'])}
    order_p = dict(order_s, **{'-': -1, '?': 99})
    with open(os.path.join(data, 'kmem-xsends.csv'), 'w', newline='') as f:
        w = csv.writer(f, lineterminator='\n')
        w.writerow(['step', 'program', 'phase', 'sender', 'peer', 'of_step', 'class', 'skbs',
                    'bytes'])
        for k in sorted(rows, key=lambda k: (k[0], order_ph[k[2]], order_s[k[3]],
                                              order_p[k[4]], str(k[5]).zfill(3),
                                              cls_key(k[6]))):
            w.writerow(list(k) + rows[k])
    # the check against kmem-sockets.csv
    tot = collections.Counter()
    for k, (n, b) in rows.items():
        tot[k[6]] += n
        tot['bytes'] += b
    print('kmem-xsends.csv: skbs per class %s, bytes %d; kmem-sockets.csv: %s, bytes %d' % (
        ', '.join('%s %d' % (c, tot[c]) for c in sorted(sk_totals) if c != 'bytes'),
        tot['bytes'], ', '.join('%s %d' % (c, sk_totals[c]) for c in sorted(sk_totals)
                                if c != 'bytes'), sk_totals['bytes']))
    if any(tot[c] != sk_totals[c] for c in set(tot) | set(sk_totals)):
        sys.exit('kmem.py: kmem-xsends.csv does not sum to kmem-sockets.csv')
    return rows


def cls_key(c):
    return (c.startswith('large'), int(c.rsplit('-', 1)[1]))


# ---- the slab caches ----
def read_slab(path):
    rows = {}
    with open(path) as f:
        for r in csv.DictReader(f):
            rows[r['name']] = r
    return rows


def host_info(out):
    h = {}
    with open(os.path.join(out, 'host.txt')) as f:
        for line in f:
            k, _, v = line.strip().partition(' ')
            h[k] = v
    return h


def top(counter, n, fmt='%s (%d)'):
    return '; '.join(fmt % (k, v) for k, v in counter.most_common(n))


def write_raw(path, text):
    data = text.encode()
    if len(data) > 200_000:
        with gzip.open(path + '.gz', 'wb', compresslevel=9, mtime=0) as f:
            f.write(data)
        if os.path.exists(path):
            os.remove(path)
    else:
        with open(path, 'wb') as f:
            f.write(data)


def main(out, data):
    h = host_info(out)
    wall = float(h['wall_s'])
    desk, meas, steps, tk = parse(os.path.join(out, 'trace.zst'))
    allm = parse_all(os.path.join(out, 'trace-all.zst')) \
        if os.path.exists(os.path.join(out, 'trace-all.zst')) else collections.Counter()
    before = read_slab(os.path.join(out, 'before', 'slab.csv'))
    after = read_slab(os.path.join(out, 'after', 'slab.csv'))
    raw = os.path.join(data, 'kmem-raw')
    os.makedirs(raw, exist_ok=True)

    # kmem-pagealloc.csv
    srcs = collections.defaultdict(collections.Counter)
    for (o, g, s), n in desk.page_src.items():
        srcs[(o, g)][s] += n
    with open(os.path.join(data, 'kmem-pagealloc.csv'), 'w', newline='') as f:
        w = csv.writer(f, lineterminator='\n')
        w.writerow(['order', 'gfp_flags', 'gfp_class', 'count', 'per_s', 'sources'])
        for (o, g), n in sorted(desk.page.items(), key=lambda kv: (kv[0][0], -kv[1])):
            w.writerow([o, g, gfp_class(g, o), n, '%.2f' % (n / wall),
                        top(srcs[(o, g)], 6) if o > 0 else ''])

    # kmem-kmalloc.csv: per size class (this kernel's bytes_alloc)
    by_cls = collections.defaultdict(lambda: [0, 0, collections.Counter(), collections.Counter()])
    for (req, alloc, site, atomic), n in desk.kmalloc.items():
        e = by_cls[alloc]
        e[0] += n
        e[1] += n if atomic else 0
        e[2][site] += n
        k, v = class_2630(req)
        e[3]['%s-%d' % ('kmalloc' if k == 'slab' else 'large-order', v)] += n
    with open(os.path.join(data, 'kmem-kmalloc.csv'), 'w', newline='') as f:
        w = csv.writer(f, lineterminator='\n')
        w.writerow(['bytes_alloc', 'count', 'per_s', 'atomic', 'classes_2630', 'order_2630_2cpu',
                    'order_2630_1cpu', 'order_here', 'call_sites'])
        for alloc in sorted(by_cls):
            n, a, sites, cls = by_cls[alloc]
            if alloc <= SLUB_MAX_SIZE:
                o2, o1 = calculate_order(alloc, 2), calculate_order(alloc, 1)
                here = before.get('kmalloc-%s' % kname(alloc), {}).get('order', '?')
            else:
                o2 = o1 = here = get_order(alloc)
            w.writerow([alloc, n, '%.2f' % (n / wall), a, top(cls, 4), o2, o1, here,
                        top(sites, 6)])

    # 2.6.30: the kmalloc traffic by the order of the slab (or page) it comes from
    t2630 = collections.Counter()
    for (req, alloc, site, atomic), n in desk.kmalloc.items():
        k, v = class_2630(req)
        for cpus in (2, 1):
            o = get_order(v) if k == 'large' else calculate_order(v, cpus)
            t2630[(cpus, k, o)] += n
            t2630[(cpus, k, o, 'atomic')] += n if atomic else 0
            if site not in SKB_DATA_SITES:
                t2630[(cpus, k, o, 'noskb')] += n

    # kmem-caches.csv
    cache_n = collections.Counter()
    cache_atomic = collections.Counter()
    for (name, alloc, site, atomic), n in desk.cache.items():
        cache_n[name] += n
        cache_atomic[name] += n if atomic else 0
    for (req, alloc, site, atomic), n in desk.kmalloc.items():
        if alloc <= SLUB_MAX_SIZE:
            cache_n['kmalloc-%s' % kname(alloc)] += n
            cache_atomic['kmalloc-%s' % kname(alloc)] += n if atomic else 0
    newslab = collections.Counter()
    for (o, name), n in desk.newslab.items():
        if name.startswith('kmalloc-') and name[8:].isdigit():
            name = 'kmalloc-%s' % kname(int(name[8:]))
        newslab[(name, o)] += n
    names = set(cache_n) | {nm for nm, _ in newslab}
    with open(os.path.join(data, 'kmem-caches.csv'), 'w', newline='') as f:
        w = csv.writer(f, lineterminator='\n')
        w.writerow(['cache', 'merged_into', 'object_size', 'slab_size', 'order_here',
                    'objs_per_slab', 'allocs', 'per_s', 'atomic', 'new_slabs_order_gt0_here',
                    'slabs_before', 'slabs_after', 'order_2630_2cpu', 'order_2630_1cpu'])
        for name in sorted(names, key=lambda nm: (-cache_n[nm], nm)):
            b = before.get(name) or after.get(name) or {}
            a = after.get(name, {})
            size = int(b['slab_size']) if b else 0
            ns = sum(v for (nm, o), v in newslab.items() if nm == name)
            w.writerow([name, b.get('cache', '?'), b.get('object_size', '?'),
                        b.get('slab_size', '?'), b.get('order', '?'),
                        b.get('objs_per_slab', '?'), cache_n[name],
                        '%.2f' % (cache_n[name] / wall), cache_atomic[name], ns,
                        b.get('slabs', '?'), a.get('slabs', '?'),
                        calculate_order(size, 2) if size else '?',
                        calculate_order(size, 1) if size else '?'])

    # kmem-sockets.csv: socket sends; a unix send as 2.6.30 would allocate its skbs' data
    sk = collections.defaultdict(lambda: [0, 0, 0])  # (family, class) -> sends, bytes, skbs
    for (fam, length), n in desk.sends.items():
        if fam == 'unix':
            for req in unix_kmallocs_2630(length):
                k, v = class_2630(req)
                key = (fam, 'kmalloc-%d' % v if k == 'slab' else 'large-order-%d' % v)
                sk[key][2] += n
            # the send itself under the class of its first skb
            k, v = class_2630(unix_kmallocs_2630(length)[0])
            key = (fam, 'kmalloc-%d' % v if k == 'slab' else 'large-order-%d' % v)
        else:
            key = (fam, '-')
        sk[key][0] += n
        sk[key][1] += n * length
    unix2630 = collections.Counter()  # (cpus, order) -> skb data kmallocs
    with open(os.path.join(data, 'kmem-sockets.csv'), 'w', newline='') as f:
        w = csv.writer(f, lineterminator='\n')
        w.writerow(['family', 'skb_data_2630', 'sends', 'bytes', 'skbs_2630', 'skbs_2630_per_s',
                    'order_2630_2cpu', 'order_2630_1cpu'])
        for (fam, cls), (n, b, skbs) in sorted(sk.items()):
            if cls.startswith('kmalloc-'):
                o2, o1 = (calculate_order(int(cls[8:]), cpus) for cpus in (2, 1))
            elif cls.startswith('large-order-'):
                o2 = o1 = int(cls[12:])
            else:
                o2 = o1 = ''
            if fam == 'unix':
                unix2630[(2, o2)] += skbs
                unix2630[(1, o1)] += skbs
            w.writerow([fam, cls, n, b, skbs if fam == 'unix' else '',
                        '%.2f' % (skbs / wall) if fam == 'unix' else '', o2, o1])

    # kmem-xsends.csv: the unix sends per step, phase and sender, summing to the above
    with open(os.path.join(out, 'run', 'programs.csv')) as f:
        wpids = {int(r['step']): int(r['pid']) for r in csv.DictReader(f)}
    sk_totals = collections.Counter()
    for (fam, cls), (n, b, skbs) in sk.items():
        if fam == 'unix':
            sk_totals[cls] += skbs
            sk_totals['bytes'] += b
    xsends(tk, wpids, sk_totals, data)

    # kmem-steps.csv
    with open(os.path.join(data, 'kmem-steps.csv'), 'w', newline='') as f:
        w = csv.writer(f, lineterminator='\n')
        keys = ['order0', 'order1', 'order2', 'order3', 'order4', 'order9', 'kmalloc',
                'kmalloc_2630_order1', 'kmalloc_2630_order2', 'kmalloc_2630_order3', 'cache']
        w.writerow(['step', 'program', 'seconds'] + keys)
        for st, prog, secs, c in steps:
            w.writerow([st, prog, '%.1f' % secs] + [c.get(k, 0) for k in keys])

    # kmem-raw/
    lines = ['# order > 0 page allocations of the desktop by stack: count order gfp stack']
    for (o, g, s), n in desk.stacks.most_common():
        lines.append('%d %d %s %s' % (n, o, g, s))
    write_raw(os.path.join(raw, 'pagealloc-stacks.txt'), '\n'.join(lines) + '\n')
    lines = ['# order > 0 page allocations by source and first caller outside the allocators:'
             ' count order source | caller']
    for (o, s, cl), n in desk.callers.most_common():
        lines.append('%d %d %s | %s' % (n, o, s, cl))
    write_raw(os.path.join(raw, 'pagealloc-callers.txt'), '\n'.join(lines) + '\n')
    lines = ['# kmalloc of the desktop: count bytes_req bytes_alloc atomic call_site']
    for (req, alloc, site, atomic), n in desk.kmalloc.most_common():
        lines.append('%d %d %d %d %s' % (n, req, alloc, atomic, site))
    write_raw(os.path.join(raw, 'kmalloc-sites.txt'), '\n'.join(lines) + '\n')
    lines = ['# kmem_cache_alloc of the desktop: count cache bytes_alloc atomic call_site']
    for (nm, alloc, site, atomic), n in desk.cache.most_common():
        lines.append('%d %s %d %d %s' % (n, nm, alloc, atomic, site))
    write_raw(os.path.join(raw, 'cache-sites.txt'), '\n'.join(lines) + '\n')
    lines = ['# new slabs of order > 0 (the cache of the next allocation from a function'
             ' on the slab page stack): count order cache']
    for (o, nm), n in desk.newslab.most_common():
        lines.append('%d %d %s' % (n, o, nm))
    write_raw(os.path.join(raw, 'newslab.txt'), '\n'.join(lines) + '\n')
    lines = ['# events per process name: count comm event order>0 (desktop, then measurement)']
    for cc in (desk, meas):
        for (cm, ev, big), n in cc.comm.most_common():
            lines.append('%d %s %s %d' % (n, cm, ev, big))
    write_raw(os.path.join(raw, 'comm.txt'), '\n'.join(lines) + '\n')
    lines = ['# every order > 0 page allocation of the machine (all processes, kernel threads):'
             ' count order source comm']
    for (o, s, cm), n in allm.most_common():
        lines.append('%d %d %s | %s' % (n, o, s, cm))
    write_raw(os.path.join(raw, 'machine-order-gt0.txt'), '\n'.join(lines) + '\n')

    # kmem-host.txt
    def buddy(p):
        with open(p) as f:
            return f.read().rstrip('\n')
    lost = []
    sp = os.path.join(out, 'trace-stats.txt')
    if os.path.exists(sp):
        with open(sp) as f:
            for line in f:
                if re.search(r'(overrun|dropped events): [1-9]', line):
                    lost.append(line.strip())
    mtot = sum(meas.page.values()), sum(meas.kmalloc.values()), sum(meas.cache.values())
    with open(os.path.join(data, 'kmem-host.txt'), 'w') as f:
        p = lambda *a: print(*a, file=f)
        p('kernel', h.get('kernel'))
        p('nproc', h.get('nproc'))
        p('MemTotal', h.get('MemTotal:'))
        p('thp_enabled', h.get('thp_enabled'))
        p('cmdline', h.get('cmdline'))
        p('wall_s', '%.1f' % wall)
        p('steps', len(steps))
        p('events_lost', 'none' if not lost else '; '.join(lost))
        p('desktop page allocations', sum(desk.page.values()),
          'order>0', sum(n for (o, g), n in desk.page.items() if o > 0))
        p('desktop kmalloc', sum(desk.kmalloc.values()),
          'kmem_cache_alloc', sum(desk.cache.values()))
        p('measurement (python3) page allocations %d, kmalloc %d, kmem_cache_alloc %d '
          '(left out)' % mtot)
        for cpus in (2, 1):
            p('2.6.30 at %d CPUs, the desktop kmalloc traffic by the order it comes from:' % cpus)
            for k in ('slab', 'large'):
                for o in range(0, 11):
                    n = t2630.get((cpus, k, o), 0)
                    if n:
                        p('  %s order %d: %d (%.2f/s, %d atomic; %d without skb data)' % (
                            k, o, n, n / wall, t2630[(cpus, k, o, 'atomic')],
                            t2630[(cpus, k, o, 'noskb')]))
        p('unix-socket sends %d (%d bytes); 2.6.30 would kmalloc their skb data as:' % (
            sum(n for (fm, ln), n in desk.sends.items() if fm == 'unix'),
            sum(n * ln for (fm, ln), n in desk.sends.items() if fm == 'unix')))
        for cpus in (2, 1):
            p('  at %d CPUs: ' % cpus + ', '.join(
                'order %d: %d (%.2f/s)' % (o, unix2630[(cpus, o)], unix2630[(cpus, o)] / wall)
                for o in range(4) if unix2630[(cpus, o)]))
        p('order > 0 page allocations of the whole machine by source (trace-all):')
        tot = collections.Counter()
        for (o, s, cm), n in allm.items():
            tot[(o, s)] += n
        for (o, s), n in sorted(tot.items(), key=lambda kv: (kv[0][0], -kv[1])):
            p('  order %d %s: %d' % (o, s, n))
        p('buddyinfo before:')
        p(buddy(os.path.join(out, 'before', 'buddyinfo')))
        p('buddyinfo after:')
        p(buddy(os.path.join(out, 'after', 'buddyinfo')))
    print(open(os.path.join(data, 'kmem-host.txt')).read())


def kname(alloc):
    return '%dk' % (alloc // 1024) if alloc >= 1024 else str(alloc)


if __name__ == '__main__':
    if len(sys.argv) > 1 and sys.argv[1] == '--orders':
        for s in sys.argv[2:]:
            print(s, calculate_order(int(s), 2), calculate_order(int(s), 1))
    elif len(sys.argv) == 3:
        main(sys.argv[1], sys.argv[2])
    else:
        sys.exit(__doc__)
