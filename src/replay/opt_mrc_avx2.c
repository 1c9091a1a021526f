/* The OPT curve's pass with AVX2 scans (opt_scan.h): this file alone is compiled with -mavx2
 * where the compiler targets x86-64 (CMakeLists.txt defines MMSIM_OPT_AVX2 then), and
 * opt_mrc.c calls it only on a CPU that has AVX2. */
#if defined(MMSIM_OPT_AVX2) && defined(__AVX2__)
#define OPT_VARIANT avx2
#include "replay/opt_mrc_pass.h"
#else
typedef int opt_mrc_avx2_unused; /* ISO C wants something in a translation unit */
#endif
