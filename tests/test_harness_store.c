/* The results store under a lock held by another process and with a damaged file: the
 * commands must stop with a clear message and exit 2, and what was stored must survive. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include <sqlite3.h>

#include "harness/store.h"

static char dir[256];
static const char *bin, *src;

static int sh(const char *fmt, ...)
{
	char cmd[4096];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	int st = system(cmd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	rewind(f);
	char *buf = malloc((size_t)n + 1);
	*len = fread(buf, 1, (size_t)n, f);
	buf[*len] = 0;
	fclose(f);
	return buf;
}

static int setup(void **state)
{
	(void)state;
	bin = getenv("MMSIM_BIN");
	src = getenv("MMSIM_SRC");
	if (!src)
		src = ".";
	snprintf(dir, sizeof(dir), "/tmp/mmsim-store-test-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	return sh("printf 'workload = fake\\n' > %s/s.conf", dir);
}

static int teardown(void **state)
{
	(void)state;
	sh("rm -rf %s", dir);
	return 0;
}

/* Runs mmsim in the test directory with the fake runner. */
static int mmsim(const char *args)
{
	return sh(
	    "cd %s && MMSIM_DB_BUSY_TIMEOUT_MS=100 MMSIM_RUN_CMD=%s/tests/fixtures/fake-run.sh "
	    "FAKE_RUN_LOG=%s/runs.log %s %s > out.txt 2> err.txt",
	    dir, src, dir, bin, args);
}

static int err_has(const char *needle)
{
	char path[512];
	size_t len;
	snprintf(path, sizeof(path), "%s/err.txt", dir);
	char *e = slurp(path, &len);
	int found = e && strstr(e, needle);
	if (!found)
		fprintf(stderr, "stderr was: %s\n", e ? e : "(none)");
	free(e);
	return found;
}

static int stored_runs(const char *db)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", dir, db);
	sqlite3 *h;
	int n = -1;
	if (sqlite3_open_v2(path, &h, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK) {
		sqlite3_stmt *st;
		if (sqlite3_prepare_v2(h, "SELECT count(*) FROM runs", -1, &st, NULL) ==
			SQLITE_OK &&
		    sqlite3_step(st) == SQLITE_ROW)
			n = sqlite3_column_int(st, 0);
		sqlite3_finalize(st);
	}
	sqlite3_close(h);
	return n;
}

static void test_locked(void **state)
{
	(void)state;
	if (!bin)
		skip();
	assert_int_equal(mmsim("sweep s.conf --vary g=1,2 --runs 2 --db l.db"), 0);
	assert_int_equal(stored_runs("l.db"), 4);
	sh("rm -f %s/runs.log", dir);

	char path[512];
	snprintf(path, sizeof(path), "%s/l.db", dir);
	sqlite3 *h;
	assert_int_equal(sqlite3_open(path, &h), SQLITE_OK);
	assert_int_equal(sqlite3_exec(h, "BEGIN EXCLUSIVE", NULL, NULL, NULL), SQLITE_OK);

	assert_int_equal(mmsim("sweep s.conf --vary g=1,2,3 --runs 2 --db l.db"), 2);
	assert_true(err_has("locked by another process"));
	/* Refused before running anything. */
	assert_int_equal(access(strcat(strcpy((char[512]){0}, dir), "/runs.log"), F_OK), -1);
	assert_int_equal(mmsim("results --db l.db"), 2);
	assert_true(err_has("locked"));
	assert_int_equal(mmsim("compare s.conf --arm a --arm b:x=1 --db l.db"), 2);
	assert_int_equal(mmsim("report --db l.db"), 2);

	sqlite3_exec(h, "ROLLBACK", NULL, NULL, NULL);
	sqlite3_close(h);
	assert_int_equal(stored_runs("l.db"), 4);
	assert_int_equal(mmsim("sweep s.conf --vary g=1,2,3 --runs 2 --db l.db"), 0);
	assert_int_equal(stored_runs("l.db"), 6);
}

static void expect_untouched_on_error(const char *db, const char *what)
{
	char path[512], wal[520];
	size_t n0, n1;
	snprintf(path, sizeof(path), "%s/%s", dir, db);
	char *before = slurp(path, &n0);
	assert_non_null(before);
	assert_int_equal(mmsim(strcat(strcpy((char[256]){0}, "results --db "), db)), 2);
	assert_true(err_has(what));
	assert_true(err_has("left untouched"));
	char sweep[256];
	snprintf(sweep, sizeof(sweep), "sweep s.conf --vary g=1,2 --runs 1 --db %s", db);
	assert_int_equal(mmsim(sweep), 2);
	char *after = slurp(path, &n1);
	assert_int_equal(n0, n1);
	assert_memory_equal(before, after, n0);
	snprintf(wal, sizeof(wal), "%s-wal", path);
	size_t wl = 0;
	char *w = slurp(wal, &wl);
	assert_true(!w || wl == 0);
	free(w);
	free(before);
	free(after);
}

static void test_corrupt(void **state)
{
	(void)state;
	if (!bin)
		skip();
	/* Not a database at all. */
	sh("cd %s && for i in $(seq 200); do echo 'these are not the results you are looking "
	   "for'; done > notdb.db",
	   dir);
	expect_untouched_on_error("notdb.db", "corrupt or not an SQLite database");

	/* A real store whose b-tree pages were overwritten. */
	assert_int_equal(mmsim("sweep s.conf --vary g=1:20:1 --runs 3 --db bad.db"), 0);
	assert_int_equal(stored_runs("bad.db"), 60);
	sh("cd %s && printf 'XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX' | "
	   "dd of=bad.db bs=1 seek=8200 conv=notrunc status=none && "
	   "printf 'YYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYY' | "
	   "dd of=bad.db bs=1 seek=16400 conv=notrunc status=none",
	   dir);
	expect_untouched_on_error("bad.db", "corrupt");
}

static void test_store_api(void **state)
{
	(void)state;
	char path[512], err[600];
	snprintf(path, sizeof(path), "%s/api.db", dir);
	struct store *s = store_open(path, err, sizeof(err));
	assert_non_null(s);
	struct stored_run r = {.key = "k1",
			       .canon = "c",
			       .scenario_hash = "h",
			       .scenario_file = "f",
			       .overrides = "",
			       .version = "v",
			       .json = "{}",
			       .seed = 1,
			       .completed = true};
	assert_int_equal(store_put(s, &r), 0);
	char *json = NULL;
	assert_int_equal(store_get(s, "k1", &json), 1);
	assert_string_equal(json, "{}");
	free(json);
	assert_int_equal(store_get(s, "k2", NULL), 0);
	int64_t id1, id2, id3, found;
	assert_int_equal(store_put_experiment(s, "sweep", "{\"a\":1}", &id1), 0);
	assert_int_equal(store_put_experiment(s, "sweep", "{\"a\":2}", &id2), 0);
	assert_int_equal(store_put_experiment(s, "sweep", "{\"a\":1}", &id3), 0);
	assert_true(id1 == id3 && id1 != id2);
	char *spec;
	/* The repeated experiment becomes the most recent one. */
	assert_int_equal(store_get_experiment(s, 0, &found, &spec), 1);
	assert_true(found == id1);
	free(spec);
	store_close(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_store_api),
	    cmocka_unit_test(test_locked),
	    cmocka_unit_test(test_corrupt),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
