/*
 * kprof: a QEMU TCG plugin (QEMU 7.2's plugin API, version 1) that counts the
 * guest instructions executed in each translation block and writes them out
 * whenever the guest executes a marker instruction, 'orr ip, ip, ip'
 * (0xe18cc00c, a no-op no compiler emits), at a user address.
 *
 * Every marker writes one dump and zeroes the counters, so a guest program
 * brackets a phase with two markers and the second dump holds exactly the
 * instructions executed in between, kernel and user, every process
 * (kcost.c). A dump is
 *     dump N
 *     VADDR NINSNS COUNT       (one line per block executed since the last)
 *     end N
 * with VADDR the block's first guest address (hex), NINSNS its length in
 * instructions and COUNT how often it was entered. Blocks cut short by an
 * exception count whole; blocks retranslated at the same address are summed
 * by the reader (kcost.py), which maps addresses to kernel functions with
 * System.map.
 *
 * Usage: qemu-system-arm ... -plugin ./kprof.so,out=FILE
 * Build: gcc -O2 -shared -fPIC -o kprof.so kprof.c
 *
 * The declarations below are the subset of QEMU's include/qemu/qemu-plugin.h
 * (version 1, QEMU 6.0-7.2) this plugin calls, written from the API's
 * documentation; no QEMU development package exists in Debian.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t qemu_plugin_id_t;
typedef struct qemu_info_t qemu_info_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;
enum qemu_plugin_cb_flags { QEMU_PLUGIN_CB_NO_REGS };
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index, void *userdata);
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_tb_trans_cb_t cb);
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb, enum qemu_plugin_op op,
					      void *ptr, uint64_t imm);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn,
					    qemu_plugin_vcpu_udata_cb_t cb,
					    enum qemu_plugin_cb_flags flags, void *userdata);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, qemu_plugin_udata_cb_t cb, void *userdata);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t idx);
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

#define MARKER	 0xe18cc00cu
#define USER_TOP 0xc0000000u

struct block {
	uint64_t count; /* first: the inline add's target */
	uint64_t vaddr;
	uint32_t ninsns;
};

static struct block **blocks;
static size_t nblocks, capblocks;
static FILE *out;
static unsigned dumps;

static void dump(void)
{
	fprintf(out, "dump %u\n", dumps);
	for (size_t i = 0; i < nblocks; i++) {
		struct block *b = blocks[i];
		if (b->count)
			fprintf(out, "%" PRIx64 " %u %" PRIu64 "\n", b->vaddr, b->ninsns, b->count);
		b->count = 0;
	}
	fprintf(out, "end %u\n", dumps++);
	fflush(out);
}

static void on_marker(unsigned int vcpu, void *udata)
{
	(void)vcpu;
	(void)udata;
	dump();
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	(void)id;
	struct block *b = calloc(1, sizeof(*b));
	if (!b)
		abort();
	b->vaddr = qemu_plugin_tb_vaddr(tb);
	b->ninsns = (uint32_t)qemu_plugin_tb_n_insns(tb);
	if (nblocks == capblocks) {
		capblocks = capblocks ? 2 * capblocks : 65536;
		blocks = realloc(blocks, capblocks * sizeof(*blocks));
		if (!blocks)
			abort();
	}
	blocks[nblocks++] = b;
	qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, &b->count, 1);
	if (b->vaddr >= USER_TOP)
		return;
	for (size_t i = 0; i < b->ninsns; i++) {
		struct qemu_plugin_insn *in = qemu_plugin_tb_get_insn(tb, i);
		uint32_t word;
		if (qemu_plugin_insn_size(in) != 4)
			continue;
		memcpy(&word, qemu_plugin_insn_data(in), 4);
		if (word == MARKER)
			qemu_plugin_register_vcpu_insn_exec_cb(in, on_marker,
							       QEMU_PLUGIN_CB_NO_REGS, NULL);
	}
}

static void at_exit(qemu_plugin_id_t id, void *udata)
{
	(void)id;
	(void)udata;
	dump();
	fclose(out);
}

__attribute__((visibility("default"))) int
qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc, char **argv)
{
	(void)info;
	const char *path = "kprof.out";
	for (int i = 0; i < argc; i++)
		if (!strncmp(argv[i], "out=", 4))
			path = argv[i] + 4;
	out = fopen(path, "w");
	if (!out)
		return -1;
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
