/* The desktop workload's keys (desktop_params.c), for its descriptor. */
#ifndef MMSIM_WORKLOADS_DESKTOP_PARAMS_H
#define MMSIM_WORKLOADS_DESKTOP_PARAMS_H

#include "workloads/scenario.h"

#define DESKTOP_NR_PARAMS 9
extern const struct param_desc desktop_param_table[DESKTOP_NR_PARAMS];

#endif
