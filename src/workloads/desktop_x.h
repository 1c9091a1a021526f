/* The desktop's large unix-socket messages (docs/desktop-measured.md, "The kernel's
 * allocations (order > 0)"): what a program's start-up or a switch to its window sent that
 * 2.6.30 allocated straight from the page allocator. */
#ifndef MMSIM_WORKLOADS_DESKTOP_X_H
#define MMSIM_WORKLOADS_DESKTOP_X_H

#include <stdbool.h>
#include <stdint.h>

/* Finds each of desktop_programs' entries in desktop_xsends (by name), once per run. */
void desktop_x_init(void);
/* What `sender` (XS_OWN, XS_WM, XS_X of desktop_measured.h) sent for program pi's start-up
 * (sw false) or for one switch to its window (sw true): each skb an order-2 block allocated
 * GFP_KERNEL by the calling task, the sender (so it may reclaim, at order 2), its bytes
 * copied in, and freed when the receiver has read it, at once. Returns the skbs sent. */
uint32_t desktop_x_send(int pi, bool sw, int sender);
/* The X server's reply to a new connection's set-up (a wmctrl's): one order-2 skb, by the
 * calling task (the X server). Returns 1. */
uint32_t desktop_x_connection(void);

#endif
