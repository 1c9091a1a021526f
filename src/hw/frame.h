/* Physical memory as the machine has it: frames numbered 0.. in one array, a frame's number
 * its index (the mm's struct page array is indexed the same way). */
#ifndef MMSIM_HW_FRAME_H
#define MMSIM_HW_FRAME_H

#include <stdint.h>

typedef uint32_t pfn_t; /* frame number: index into the frame array */

#define NO_PFN UINT32_MAX

#endif
