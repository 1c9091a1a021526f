/* The results store in SQLite (see store.h): WAL with synchronous=FULL, a quick_check before
 * any write, a bounded wait on a locked file, one transaction per finished run. */
#include "harness/store.h"
#include "sim/xalloc.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct store {
	sqlite3 *db;
	char *path;
	char err[512];
};

static const char schema_sql[] =
    "CREATE TABLE IF NOT EXISTS meta(k TEXT PRIMARY KEY, v TEXT NOT NULL);"
    "INSERT OR IGNORE INTO meta VALUES('format', 'mmsim-results/1');"
    "CREATE TABLE IF NOT EXISTS runs("
    " key TEXT PRIMARY KEY, canon TEXT NOT NULL, scenario_hash TEXT NOT NULL,"
    " scenario_file TEXT NOT NULL, overrides TEXT NOT NULL, seed INTEGER NOT NULL,"
    " version TEXT NOT NULL, completed INTEGER NOT NULL, json TEXT NOT NULL);"
    "CREATE TABLE IF NOT EXISTS experiments("
    " id INTEGER PRIMARY KEY, kind TEXT NOT NULL, spec TEXT NOT NULL UNIQUE,"
    " used INTEGER NOT NULL);";

/* Turns an SQLite failure into a sentence that says what happened to the user's data. */
static void set_err(struct store *s, int rc, const char *doing)
{
	int base = rc & 0xff;
	const char *msg = s->db ? sqlite3_errmsg(s->db) : sqlite3_errstr(rc);
	if (base == SQLITE_BUSY || base == SQLITE_LOCKED)
		snprintf(s->err, sizeof(s->err),
			 "results store '%s' is locked by another process (%s while %s); "
			 "nothing was changed, try again when it is done",
			 s->path, msg, doing);
	else if (base == SQLITE_NOTADB || base == SQLITE_CORRUPT)
		snprintf(s->err, sizeof(s->err),
			 "results store '%s' is corrupt or not an SQLite database (%s while %s); "
			 "it was left untouched: move it aside or pick another with --db",
			 s->path, msg, doing);
	else
		snprintf(s->err, sizeof(s->err), "results store '%s': %s while %s", s->path, msg,
			 doing);
}

static int exec_sql(struct store *s, const char *sql, const char *doing)
{
	int rc = sqlite3_exec(s->db, sql, NULL, NULL, NULL);
	if (rc != SQLITE_OK) {
		set_err(s, rc, doing);
		return -1;
	}
	return 0;
}

static int quick_check(struct store *s)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(s->db, "PRAGMA quick_check", -1, &st, NULL);
	if (rc != SQLITE_OK) {
		set_err(s, rc, "checking it");
		return -1;
	}
	rc = sqlite3_step(st);
	if (rc != SQLITE_ROW) {
		set_err(s, rc, "checking it");
		sqlite3_finalize(st);
		return -1;
	}
	const char *res = (const char *)sqlite3_column_text(st, 0);
	if (!res || strcmp(res, "ok")) {
		/* The check lists every damaged cell; the first problem is enough to say why. */
		char first[160];
		snprintf(first, sizeof(first), "%s", res ? res : "?");
		for (char *p = first; *p; p++)
			if (*p == '\n')
				*p = ' ';
		snprintf(s->err, sizeof(s->err),
			 "results store '%s' is corrupt (integrity check: %.100s...); it was "
			 "left untouched: move it aside or pick another with --db",
			 s->path, first);
		sqlite3_finalize(st);
		return -1;
	}
	sqlite3_finalize(st);
	return 0;
}

struct store *store_open(const char *path, char *err, size_t errlen)
{
	struct store *s = xcalloc(1, sizeof(*s));
	s->path = xstrdup(path);
	int rc = sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
	if (rc != SQLITE_OK) {
		set_err(s, rc, "opening it");
		goto fail;
	}
	const char *to = getenv("MMSIM_DB_BUSY_TIMEOUT_MS");
	sqlite3_busy_timeout(s->db, to ? atoi(to) : 5000);
	sqlite3_extended_result_codes(s->db, 1);
	/* Read-only checks first: a damaged or foreign file must come out byte-identical. */
	if (quick_check(s))
		goto fail;
	/* WAL: a commit is one append, so a kill at any moment keeps every committed run;
	 * synchronous=FULL also keeps them across a power cut. */
	if (exec_sql(s, "PRAGMA journal_mode=WAL", "switching it to WAL mode") ||
	    exec_sql(s, "PRAGMA synchronous=FULL", "configuring it"))
		goto fail;
	/* Taking the write lock now reports a busy store before any run is started. */
	if (exec_sql(s, "BEGIN IMMEDIATE", "locking it for writing"))
		goto fail;
	if (exec_sql(s, schema_sql, "creating its tables")) {
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
		goto fail;
	}
	if (exec_sql(s, "COMMIT", "creating its tables"))
		goto fail;
	return s;
fail:
	snprintf(err, errlen, "%s", s->err);
	store_close(s);
	return NULL;
}

void store_close(struct store *s)
{
	if (!s)
		return;
	sqlite3_close(s->db);
	free(s->path);
	free(s);
}

const char *store_error(const struct store *s)
{
	return s->err;
}

static sqlite3_stmt *prep(struct store *s, const char *sql)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);
	if (rc != SQLITE_OK) {
		set_err(s, rc, "preparing a query");
		return NULL;
	}
	return st;
}

static char *dupcol(sqlite3_stmt *st, int col)
{
	const char *t = (const char *)sqlite3_column_text(st, col);
	char *r = xstrdup(t ? t : "");
	return r;
}

int store_get(struct store *s, const char *key, char **json)
{
	sqlite3_stmt *st = prep(s, "SELECT json FROM runs WHERE key = ?1");
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	int rc = sqlite3_step(st), ret;
	if (rc == SQLITE_ROW) {
		if (json)
			*json = dupcol(st, 0);
		ret = 1;
	} else if (rc == SQLITE_DONE) {
		ret = 0;
	} else {
		set_err(s, rc, "reading a run");
		ret = -1;
	}
	sqlite3_finalize(st);
	return ret;
}

int store_put(struct store *s, const struct stored_run *r)
{
	sqlite3_stmt *st = prep(s, "INSERT OR REPLACE INTO runs(key, canon, scenario_hash, "
				   "scenario_file, overrides, seed, version, completed, json) "
				   "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)");
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, r->key, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, r->canon ? r->canon : "", -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, r->scenario_hash, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, r->scenario_file, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, r->overrides, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 6, (sqlite3_int64)r->seed);
	sqlite3_bind_text(st, 7, r->version, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 8, r->completed);
	sqlite3_bind_text(st, 9, r->json, -1, SQLITE_STATIC);
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		set_err(s, rc, "storing a run");
		return -1;
	}
	return 0;
}

int store_begin(struct store *s)
{
	return exec_sql(s, "BEGIN IMMEDIATE", "starting a transaction");
}

int store_commit(struct store *s)
{
	if (exec_sql(s, "COMMIT", "committing")) {
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
		return -1;
	}
	return 0;
}

int store_put_experiment(struct store *s, const char *kind, const char *spec, int64_t *id)
{
	sqlite3_stmt *st = prep(s, "INSERT INTO experiments(kind, spec, used) VALUES(?1, ?2, "
				   "(SELECT coalesce(max(used), 0) + 1 FROM experiments)) "
				   "ON CONFLICT(spec) DO UPDATE SET used = "
				   "(SELECT max(used) + 1 FROM experiments) RETURNING id");
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, kind, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, spec, -1, SQLITE_STATIC);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*id = sqlite3_column_int64(st, 0);
		rc = sqlite3_step(st);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		set_err(s, rc, "recording the experiment");
		return -1;
	}
	return 0;
}

int store_get_experiment(struct store *s, int64_t id, int64_t *found_id, char **spec)
{
	sqlite3_stmt *st = prep(s, id > 0 ? "SELECT id, spec FROM experiments WHERE id = ?1"
					  : "SELECT id, spec FROM experiments ORDER BY used DESC "
					    "LIMIT 1");
	if (!st)
		return -1;
	if (id > 0)
		sqlite3_bind_int64(st, 1, id);
	int rc = sqlite3_step(st), ret;
	if (rc == SQLITE_ROW) {
		*found_id = sqlite3_column_int64(st, 0);
		*spec = dupcol(st, 1);
		ret = 1;
	} else if (rc == SQLITE_DONE) {
		ret = 0;
	} else {
		set_err(s, rc, "reading an experiment");
		ret = -1;
	}
	sqlite3_finalize(st);
	return ret;
}

int store_each_run(struct store *s, int (*fn)(const struct stored_run *r, void *arg), void *arg)
{
	sqlite3_stmt *st = prep(s, "SELECT key, canon, scenario_hash, scenario_file, overrides, "
				   "seed, version, completed, json FROM runs ORDER BY "
				   "scenario_file, scenario_hash, overrides, seed, key");
	if (!st)
		return -1;
	int rc, ret = 0;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct stored_run r = {
		    .key = (const char *)sqlite3_column_text(st, 0),
		    .canon = (const char *)sqlite3_column_text(st, 1),
		    .scenario_hash = (const char *)sqlite3_column_text(st, 2),
		    .scenario_file = (const char *)sqlite3_column_text(st, 3),
		    .overrides = (const char *)sqlite3_column_text(st, 4),
		    .seed = (uint64_t)sqlite3_column_int64(st, 5),
		    .version = (const char *)sqlite3_column_text(st, 6),
		    .completed = sqlite3_column_int(st, 7) != 0,
		    .json = (const char *)sqlite3_column_text(st, 8),
		};
		if ((ret = fn(&r, arg)))
			break;
	}
	if (!ret && rc != SQLITE_DONE) {
		set_err(s, rc, "listing runs");
		ret = -1;
	}
	sqlite3_finalize(st);
	return ret;
}

int store_each_experiment(struct store *s,
			  int (*fn)(int64_t id, const char *kind, const char *spec, void *arg),
			  void *arg)
{
	sqlite3_stmt *st = prep(s, "SELECT id, kind, spec FROM experiments ORDER BY id");
	if (!st)
		return -1;
	int rc, ret = 0;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if ((ret = fn(sqlite3_column_int64(st, 0), (const char *)sqlite3_column_text(st, 1),
			      (const char *)sqlite3_column_text(st, 2), arg)))
			break;
	if (!ret && rc != SQLITE_DONE) {
		set_err(s, rc, "listing experiments");
		ret = -1;
	}
	sqlite3_finalize(st);
	return ret;
}
