/* The measured page sets' encoding (desktop_measured.h, "desktop_pages"): numbers in
 * little-endian groups of five bits, one base-64 digit each, the sixth bit saying another
 * group follows. desktop_anon_switch and desktop_anon_idle (desktop.h) are built on it. */
#ifndef MMSIM_WORKLOADS_DESKTOP_PAGESETS_H
#define MMSIM_WORKLOADS_DESKTOP_PAGESETS_H

#include <stdint.h>

/* The number at *p, and *p moved past it. */
uint32_t desktop_page_number(const char **p);

#endif
