/* The priority-stack OPT curve: since `mmsim mrc --policy opt` uses the on-line critical
 * markers of opt_mrc_tree.c (O(log n) per reference), this one is kept as the tests' cross-check
 * (the two must agree at every distance).
 *
 * One-pass OPT (Belady MIN) miss-ratio curve: the stack distance of every reference, so every
 * cache size at once (Mattson, Gecsei, Slutz and Traiger, "Evaluation techniques for storage
 * hierarchies", IBM Systems Journal 9(2), 1970: priority stack processing, with next use as
 * the priority).
 *
 * The update. When page x is referenced at depth d, x goes to the top; going down from the old
 * top to depth d - 1, a carried page is compared with each page in turn and the one needed
 * later (larger next use) is carried on. The pages that move are exactly the left-to-right
 * maxima of next use above d, and they come in runs of consecutive positions: within a run
 * each page moves down by one, the last one of the run is carried to the start of the next
 * run, and the last carried page takes depth d. So the update is a few rotations by one of
 * contiguous ranges of the stack. On the ARC traces there are 1.2 (P12) to 3.3 (OLTP) runs per
 * reference, but the runs are thousands of pages long: moving every page of a run, as a flat
 * array must, is what made the curve superlinear.
 *
 * The structure. The stack is cut into blocks of OPT_BLOCK positions, each a circular buffer
 * with its own head. Rotations never change a block's size, so a page's depth is its block
 * number times OPT_BLOCK plus its index inside the block, and only the page that crosses into
 * a block needs its link (the slot it is written to) changed. Rotating a whole block by one is
 * O(1): step the head back and write the incoming page where the outgoing one was. Each block
 * keeps upper bounds on its largest next use and its count of descents (neighbours not
 * strictly increasing), both updated in O(1) by a whole-block rotation, so a run is followed
 * block by block (a block with no descent that continues the run is skipped whole) and the
 * next maximum is found from the block bounds: the next 32 read in a row, a segment tree over
 * them beyond. A reference costs O(B) for the blocks at the ends of each run and O(1) for
 * each block in between, plus O(log n) per run for the tree. The results are those of the flat
 * priority stack exactly (tests compare both with single-size OPT replays). */
#include "replay/ops.h"

#define OPT_VARIANT plain
#include "replay/opt_mrc_pass.h"

/* Block sizes, measured with the scans each variant has (alternated runs, CPU). With SSE2
 * scans, 128-slot blocks are fastest on OLTP (187 k distinct pages; 512: 1.02 times the CPU);
 * P2, P3 and P6 (0.76 M to 0.91 M) take 0.51 to 0.62 of the CPU with 512 as with 128, P12
 * (3.2 M) is fastest with 512 (256: 1.2 times, 1024: 1.16 times), and the P traces' first
 * 200 k distinct pages already favour 512 (0.57 to 0.73): the larger blocks from 256 Ki
 * distinct pages on. Whole-block rotations cost a cache miss per block a run spans, the
 * blocks at a run's ends O(B) each, and runs grow with the footprint. With the AVX2 scans the
 * same sizes hold: 256-slot blocks take 0.985 times the CPU of 128 on OLTP and 1.10 times that
 * of 512 on P6. Every size gives the same curve. */
#define LARGE_FOOTPRINT (1u << 18)

int opt_mrc_have_avx2(void)
{
#if defined(MMSIM_OPT_AVX2)
	return __builtin_cpu_supports("avx2");
#else
	return 0;
#endif
}

int opt_mrc(const uint32_t *ids, const uint32_t *next, uint64_t n, uint32_t nd, struct mrc *out)
{
	return opt_mrc_checked(ids, next, n, nd, out, 0, 0);
}

int opt_mrc_checked(const uint32_t *ids, const uint32_t *next, uint64_t n, uint32_t nd,
		    struct mrc *out, uint64_t check_every, unsigned block)
{
	return opt_mrc_variant(ids, next, n, nd, out, check_every, block, opt_mrc_have_avx2());
}

int opt_mrc_variant(const uint32_t *ids, const uint32_t *next, uint64_t n, uint32_t nd,
		    struct mrc *out, uint64_t check_every, unsigned block, int avx2)
{
	if (!block)
		block = nd >= LARGE_FOOTPRINT ? 512 : 128;
#if defined(MMSIM_OPT_AVX2)
	if (avx2)
		return opt_pass_avx2(ids, next, n, nd, out, check_every, block);
#else
	(void)avx2;
#endif
	return opt_pass_plain(ids, next, n, nd, out, check_every, block);
}
