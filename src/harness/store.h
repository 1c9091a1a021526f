/* The results store: one SQLite file holding every run's JSON under its key, and the
 * experiments (compare/sweep definitions) that were asked for. */
#ifndef MMSIM_HARNESS_STORE_H
#define MMSIM_HARNESS_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define STORE_DEFAULT_PATH "mmsim-results.db"

struct store;

struct stored_run {
	const char *key, *canon, *scenario_hash, *scenario_file, *overrides, *version, *json;
	uint64_t seed;
	bool completed;
};

/* Opens (creating if absent) and checks the store; on failure returns NULL with a message
 * fit for the user in err. The file is never modified when it is corrupt or locked. */
struct store *store_open(const char *path, char *err, size_t errlen);
void store_close(struct store *s);
const char *store_error(const struct store *s);

/* 1 present, 0 absent, -1 error. *json (if asked) is malloc'd. */
int store_get(struct store *s, const char *key, char **json);
/* Inserts or replaces one run in its own transaction: durable once this returns 0. */
int store_put(struct store *s, const struct stored_run *r);

/* A run that failed: never a result, but the store keeps why (its last failure; storing
 * the run later removes it). */
struct stored_failure {
	const char *key, *scenario_file, *overrides, *version, *reason, *stderr_tail, *command;
	uint64_t seed;
};
int store_put_failure(struct store *s, const struct stored_failure *f);
/* 1 recorded (*reason malloc'd if asked), 0 none, -1 error. */
int store_get_failure(struct store *s, const char *key, char **reason);
/* Visits the recorded failures ordered by scenario file, overrides, seed. Stops on non-zero. */
int store_each_failure(struct store *s, int (*fn)(const struct stored_failure *f, void *arg),
		       void *arg);

int store_begin(struct store *s);
int store_commit(struct store *s);

/* Records an experiment (the same spec twice keeps one id, marked most recent). */
int store_put_experiment(struct store *s, const char *kind, const char *spec, int64_t *id);
/* id <= 0: the most recent. 1 found, 0 none, -1 error; *spec malloc'd. */
int store_get_experiment(struct store *s, int64_t id, int64_t *found_id, char **spec);

/* Visits runs ordered by scenario file, overrides, seed, key. Stops on non-zero return. */
int store_each_run(struct store *s, int (*fn)(const struct stored_run *r, void *arg), void *arg);
int store_each_experiment(struct store *s,
			  int (*fn)(int64_t id, const char *kind, const char *spec, void *arg),
			  void *arg);

#endif
