/* lackey_pages: the distinct pages in valgrind --tool=lackey --trace-mem=yes output (stdin),
 * one per line on stdout at EOF: "PAGE KIND", PAGE the address / 4096 in hex, KIND i
 * (instruction fetches only), d (data only) or b (both). validate.sh maps them to files. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t *key;
static unsigned char *kind;
static size_t cap = 1 << 20, used;

static void add(uint64_t p, unsigned char k);

static void grow(void)
{
	uint64_t *ok = key;
	unsigned char *oki = kind;
	size_t ocap = cap;
	cap *= 2;
	key = calloc(cap, sizeof(*key));
	kind = calloc(cap, 1);
	used = 0;
	for (size_t i = 0; i < ocap; i++)
		if (oki[i])
			add(ok[i], oki[i]);
	free(ok);
	free(oki);
}

static void add(uint64_t p, unsigned char k)
{
	size_t h = (size_t)(p * 0x9E3779B97F4A7C15ULL) & (cap - 1);
	while (kind[h] && key[h] != p)
		h = (h + 1) & (cap - 1);
	if (!kind[h]) {
		key[h] = p;
		used++;
	}
	kind[h] |= k;
	if (used * 2 > cap)
		grow();
}

int main(void)
{
	key = calloc(cap, sizeof(*key));
	kind = calloc(cap, 1);
	char line[256];
	while (fgets(line, sizeof(line), stdin)) {
		char *s = line;
		unsigned char k;
		if (s[0] == 'I')
			k = 1;
		else if (s[0] == ' ' && strchr("LSM", s[1]))
			k = 2;
		else
			continue;
		s += 2;
		while (*s == ' ')
			s++;
		char *e;
		uint64_t a = strtoull(s, &e, 16);
		if (*e != ',')
			continue;
		uint64_t n = strtoull(e + 1, NULL, 10);
		add(a >> 12, k);
		if (n)
			add((a + n - 1) >> 12, k);
	}
	for (size_t i = 0; i < cap; i++)
		if (kind[i])
			printf("%llx %c\n", (unsigned long long)key[i], "?idb"[kind[i]]);
	return 0;
}
