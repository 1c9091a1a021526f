/* The results store in SQLite (see store.h): WAL with synchronous=FULL, a quick_check before
 * any write, a bounded wait on a locked file, one transaction per finished run. */
#include "harness/store.h"
#include "sim/xalloc.h"

#include <sqlite3.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct store {
	sqlite3 *db;
	char *path;
	char err[512];
	bool readonly; /* opened from a file this process may not write */
};

/* Fault injection, in the manner of SQLite's own I/O-error tests: MMSIM_STORE_FAULT=write:N
 * (or sync:N) makes the Nth xWrite (xSync) of this process on the store's files fail with
 * SQLITE_IOERR, through a VFS that otherwise passes every call to the default one. Tests
 * sweep N to check that whatever fails, every run committed before it stays intact. */
static struct {
	sqlite3_vfs vfs;
	sqlite3_vfs *real;
	int io_methods_version;
	long write_at, sync_at, writes, syncs;
	bool on;
} fault;

struct fault_file {
	sqlite3_file base;
	sqlite3_file *real; /* follows this struct in the same allocation */
};

static sqlite3_io_methods fault_methods;

static int f_close(sqlite3_file *f)
{
	struct fault_file *ff = (struct fault_file *)f;
	return ff->real->pMethods ? ff->real->pMethods->xClose(ff->real) : SQLITE_OK;
}
static int f_read(sqlite3_file *f, void *b, int n, sqlite3_int64 o)
{
	struct fault_file *ff = (struct fault_file *)f;
	return ff->real->pMethods->xRead(ff->real, b, n, o);
}
static int f_write(sqlite3_file *f, const void *b, int n, sqlite3_int64 o)
{
	struct fault_file *ff = (struct fault_file *)f;
	if (++fault.writes == fault.write_at)
		return SQLITE_IOERR_WRITE;
	return ff->real->pMethods->xWrite(ff->real, b, n, o);
}
static int f_truncate(sqlite3_file *f, sqlite3_int64 size)
{
	struct fault_file *ff = (struct fault_file *)f;
	return ff->real->pMethods->xTruncate(ff->real, size);
}
static int f_sync(sqlite3_file *f, int flags)
{
	struct fault_file *ff = (struct fault_file *)f;
	if (++fault.syncs == fault.sync_at)
		return SQLITE_IOERR_FSYNC;
	return ff->real->pMethods->xSync(ff->real, flags);
}
static int f_size(sqlite3_file *f, sqlite3_int64 *size)
{
	struct fault_file *ff = (struct fault_file *)f;
	return ff->real->pMethods->xFileSize(ff->real, size);
}
static int f_lock(sqlite3_file *f, int l)
{
	struct fault_file *ff = (struct fault_file *)f;
	return ff->real->pMethods->xLock(ff->real, l);
}
static int f_unlock(sqlite3_file *f, int l)
{
	struct fault_file *ff = (struct fault_file *)f;
	return ff->real->pMethods->xUnlock(ff->real, l);
}
static int f_check(sqlite3_file *f, int *out)
{
	struct fault_file *ff = (struct fault_file *)f;
	return ff->real->pMethods->xCheckReservedLock(ff->real, out);
}
static int f_fcntl(sqlite3_file *f, int op, void *arg)
{
	struct fault_file *ff = (struct fault_file *)f;
	return ff->real->pMethods->xFileControl(ff->real, op, arg);
}
static int f_sector(sqlite3_file *f)
{
	struct fault_file *ff = (struct fault_file *)f;
	return ff->real->pMethods->xSectorSize(ff->real);
}
static int f_devchar(sqlite3_file *f)
{
	struct fault_file *ff = (struct fault_file *)f;
	return ff->real->pMethods->xDeviceCharacteristics(ff->real);
}
static int f_shmmap(sqlite3_file *f, int pg, int sz, int ext, void volatile **pp)
{
	struct fault_file *ff = (struct fault_file *)f;
	return ff->real->pMethods->xShmMap(ff->real, pg, sz, ext, pp);
}
static int f_shmlock(sqlite3_file *f, int off, int n, int flags)
{
	struct fault_file *ff = (struct fault_file *)f;
	return ff->real->pMethods->xShmLock(ff->real, off, n, flags);
}
static void f_shmbarrier(sqlite3_file *f)
{
	struct fault_file *ff = (struct fault_file *)f;
	ff->real->pMethods->xShmBarrier(ff->real);
}
static int f_shmunmap(sqlite3_file *f, int del)
{
	struct fault_file *ff = (struct fault_file *)f;
	return ff->real->pMethods->xShmUnmap(ff->real, del);
}

static int f_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *f, int flags, int *out)
{
	(void)vfs;
	struct fault_file *ff = (struct fault_file *)f;
	ff->real = (sqlite3_file *)(ff + 1);
	int rc = fault.real->xOpen(fault.real, name, ff->real, flags, out);
	if (rc != SQLITE_OK) {
		f->pMethods = NULL;
		return rc;
	}
	f->pMethods = &fault_methods;
	return SQLITE_OK;
}

static void fault_install(void)
{
	const char *spec = getenv("MMSIM_STORE_FAULT");
	if (fault.on || !spec || !*spec)
		return;
	if (!strncmp(spec, "write:", 6))
		fault.write_at = atol(spec + 6);
	else if (!strncmp(spec, "sync:", 5))
		fault.sync_at = atol(spec + 5);
	else
		return;
	fault.real = sqlite3_vfs_find(NULL);
	fault.vfs = *fault.real;
	fault.vfs.zName = "mmsim-fault";
	fault.vfs.szOsFile = (int)sizeof(struct fault_file) + fault.real->szOsFile;
	fault.vfs.xOpen = f_open;
	fault_methods = (sqlite3_io_methods){
	    .iVersion = 2,
	    .xClose = f_close,
	    .xRead = f_read,
	    .xWrite = f_write,
	    .xTruncate = f_truncate,
	    .xSync = f_sync,
	    .xFileSize = f_size,
	    .xLock = f_lock,
	    .xUnlock = f_unlock,
	    .xCheckReservedLock = f_check,
	    .xFileControl = f_fcntl,
	    .xSectorSize = f_sector,
	    .xDeviceCharacteristics = f_devchar,
	    .xShmMap = f_shmmap,
	    .xShmLock = f_shmlock,
	    .xShmBarrier = f_shmbarrier,
	    .xShmUnmap = f_shmunmap,
	};
	sqlite3_vfs_register(&fault.vfs, 1);
	fault.on = true;
}

static const char schema_sql[] =
    "CREATE TABLE IF NOT EXISTS meta(k TEXT PRIMARY KEY, v TEXT NOT NULL);"
    "INSERT OR IGNORE INTO meta VALUES('format', 'mmsim-results/1');"
    "CREATE TABLE IF NOT EXISTS runs("
    " key TEXT PRIMARY KEY, canon TEXT NOT NULL, scenario_hash TEXT NOT NULL,"
    " scenario_file TEXT NOT NULL, overrides TEXT NOT NULL, seed INTEGER NOT NULL,"
    " version TEXT NOT NULL, completed INTEGER NOT NULL, json TEXT NOT NULL);"
    "CREATE TABLE IF NOT EXISTS experiments("
    " id INTEGER PRIMARY KEY, kind TEXT NOT NULL, spec TEXT NOT NULL UNIQUE,"
    " used INTEGER NOT NULL);"
    /* Runs that failed: never results, but the store says why (the last failure of each
     * key; a later success removes it). */
    "CREATE TABLE IF NOT EXISTS failures("
    " key TEXT PRIMARY KEY, scenario_file TEXT NOT NULL, overrides TEXT NOT NULL,"
    " seed INTEGER NOT NULL, version TEXT NOT NULL, reason TEXT NOT NULL,"
    " stderr TEXT NOT NULL, command TEXT NOT NULL);";

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

/* file:PATH?immutable=1, PATH percent-escaped as RFC 3986 and SQLite's URI parser want. */
static char *readonly_uri(const char *path)
{
	char *u = xmalloc(strlen(path) * 3 + 32), *p = u;
	p += sprintf(p, "file:");
	for (const unsigned char *c = (const unsigned char *)path; *c; c++)
		if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
		    (*c >= '0' && *c <= '9') || strchr("-._~/", *c))
			*p++ = (char)*c;
		else
			p += sprintf(p, "%%%02X", *c);
	strcpy(p, "?immutable=1");
	return u;
}

struct store *store_open(const char *path, char *err, size_t errlen)
{
	fault_install();
	struct store *s = xcalloc(1, sizeof(*s));
	s->path = xstrdup(path);
	/* A store this process may only read (a colleague's, a read-only mount) is opened
	 * read-only: its runs can be listed and reported, and a write says why it fails. */
	s->readonly = access(path, F_OK) == 0 && access(path, W_OK) != 0;
	int rc;
	if (s->readonly) {
		/* A WAL store read without write access has no -shm to share: open it as
		 * immutable (what is committed now is what is read). */
		char *uri = readonly_uri(path);
		rc = sqlite3_open_v2(uri, &s->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL);
		free(uri);
	} else {
		rc =
		    sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
	}
	if (rc != SQLITE_OK) {
		set_err(s, rc, "opening it");
		goto fail;
	}
	if (s->readonly) {
		const char *to = getenv("MMSIM_DB_BUSY_TIMEOUT_MS");
		sqlite3_busy_timeout(s->db, to ? atoi(to) : 5000);
		sqlite3_extended_result_codes(s->db, 1);
		if (quick_check(s))
			goto fail;
		return s;
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
	if (s->readonly) {
		snprintf(s->err, sizeof(s->err),
			 "results store '%s' is read-only: it can be listed and reported, not "
			 "added to (copy it, or pick another with --db)",
			 s->path);
		return -1;
	}
	/* the run and the end of its failure record, in one transaction (a savepoint, so
	 * that an import's enclosing transaction holds it too) */
	if (exec_sql(s, "SAVEPOINT put", "storing a run"))
		return -1;
	sqlite3_stmt *del = prep(s, "DELETE FROM failures WHERE key = ?1");
	if (!del)
		goto undo;
	sqlite3_bind_text(del, 1, r->key, -1, SQLITE_STATIC);
	int drc = sqlite3_step(del);
	sqlite3_finalize(del);
	if (drc != SQLITE_DONE) {
		set_err(s, drc, "storing a run");
		goto undo;
	}
	sqlite3_stmt *st = prep(s, "INSERT OR REPLACE INTO runs(key, canon, scenario_hash, "
				   "scenario_file, overrides, seed, version, completed, json) "
				   "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)");
	if (!st)
		goto undo;
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
		goto undo;
	}
	if (exec_sql(s, "RELEASE put", "committing a run"))
		goto undo;
	return 0;
undo:
	sqlite3_exec(s->db, "ROLLBACK TO put", NULL, NULL, NULL);
	sqlite3_exec(s->db, "RELEASE put", NULL, NULL, NULL);
	return -1;
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

int store_put_failure(struct store *s, const struct stored_failure *f)
{
	if (s->readonly) {
		snprintf(s->err, sizeof(s->err), "results store '%s' is read-only", s->path);
		return -1;
	}
	sqlite3_stmt *st = prep(s, "INSERT OR REPLACE INTO failures(key, scenario_file, overrides, "
				   "seed, version, reason, stderr, command) "
				   "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)");
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, f->key, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, f->scenario_file, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, f->overrides, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, (sqlite3_int64)f->seed);
	sqlite3_bind_text(st, 5, f->version, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 6, f->reason, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 7, f->stderr_tail ? f->stderr_tail : "", -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 8, f->command, -1, SQLITE_STATIC);
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		set_err(s, rc, "recording a failed run");
		return -1;
	}
	return 0;
}

int store_get_failure(struct store *s, const char *key, char **reason)
{
	sqlite3_stmt *st = prep(s, "SELECT reason FROM failures WHERE key = ?1");
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	int rc = sqlite3_step(st), ret;
	if (rc == SQLITE_ROW) {
		if (reason)
			*reason = dupcol(st, 0);
		ret = 1;
	} else if (rc == SQLITE_DONE) {
		ret = 0;
	} else {
		set_err(s, rc, "reading a failure");
		ret = -1;
	}
	sqlite3_finalize(st);
	return ret;
}

int store_each_failure(struct store *s, int (*fn)(const struct stored_failure *f, void *arg),
		       void *arg)
{
	sqlite3_stmt *st = prep(s, "SELECT key, scenario_file, overrides, seed, version, reason, "
				   "stderr, command FROM failures ORDER BY scenario_file, "
				   "overrides, seed, key");
	if (!st)
		return -1;
	int rc, ret = 0;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct stored_failure f = {
		    .key = (const char *)sqlite3_column_text(st, 0),
		    .scenario_file = (const char *)sqlite3_column_text(st, 1),
		    .overrides = (const char *)sqlite3_column_text(st, 2),
		    .seed = (uint64_t)sqlite3_column_int64(st, 3),
		    .version = (const char *)sqlite3_column_text(st, 4),
		    .reason = (const char *)sqlite3_column_text(st, 5),
		    .stderr_tail = (const char *)sqlite3_column_text(st, 6),
		    .command = (const char *)sqlite3_column_text(st, 7),
		};
		if ((ret = fn(&f, arg)))
			break;
	}
	if (!ret && rc != SQLITE_DONE) {
		set_err(s, rc, "listing failures");
		ret = -1;
	}
	sqlite3_finalize(st);
	return ret;
}
