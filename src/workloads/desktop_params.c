/* The desktop workload's keys and their defaults (desktop.h). */
#include "workloads/desktop_params.h"

#include "workloads/desktop.h"

#include <stddef.h>

#define DP(f) offsetof(struct scenario_config, desktop.f)
const struct param_desc desktop_param_table[DESKTOP_NR_PARAMS] = {
    {"desktop.programs", P_INT, DP(programs), 0, 45, NULL,
     "programs launched, from the thread's list (benchmarks.md §5)"},
    {"desktop.noop_steps", P_INT, DP(noop_steps), 0, 100, NULL,
     "steps with no launch after the programs (the commented-out oo* lines)"},
    {"desktop.size_scale", P_INT, DP(size_scale), 1, 100000, NULL,
     "percent: measured sizes to the model's (100 = as measured)"},
    {"desktop.cpu_scale", P_INT, DP(cpu_scale), 1, 100000, NULL,
     "percent: measured CPU to the machine's (host MHz / machine MHz)"},
    {"desktop.background", P_INT, DP(background), 0, 1, NULL,
     "1: programs replay their measured idle periods while waiting (0: purely reactive)"},
    {"desktop.idle_end", P_INT, DP(idle_end), 0, 3600, NULL,
     "seconds the script waits after its last step before it ends, everything open"},
    {"desktop.x_sends", P_INT, DP(x_sends), 0, 1, NULL,
     "1: start-ups and switches send their measured unix-socket messages above 8 KiB, "
     "order-2 allocations on 2.6.30 (0: none)"},
    {"desktop.pinned_kb", P_INT, DP(pinned_kb), 0, 4194304, NULL,
     "bounding experiment: KiB of swap-backed pages the X server holds pinned, unmapped, "
     "taken in equal shares at each start-up (on the anon LRU, never freed; "
     "docs/exec-protect.md) (0: none)"},
    {"desktop.switch_wait", P_INT, DP(switch_wait), 0, 1, NULL,
     "1: the script waits for each program to be up and each switch to be served by the "
     "program (0: as the thread's script, only for wmctrl and the X server)"},
};

void desktop_defaults(struct desktop_params *p)
{
	*p = (struct desktop_params){
	    .programs = 45,
	    .noop_steps = 6,
	    .size_scale = 100, /* today's sizes kept (docs/desktop-measured.md) */
	    /* measured on a 2596 MHz host; x86_64-2009-nfsroot is 2500 MHz: clock ratio */
	    .cpu_scale = 104,
	    .background = 1, /* as measured (docs/desktop-measured.md, "Background activity") */
	    .x_sends = 1, /* as measured (docs/desktop-measured.md, "The kernel's allocations") */
	};
}
