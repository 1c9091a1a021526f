/* An experiment (a compare or a sweep) and the runs it expands to. */
#ifndef MMSIM_HARNESS_PLAN_H
#define MMSIM_HARNESS_PLAN_H

#include <stddef.h>
#include <stdint.h>

struct cJSON;

struct kv {
	char *key, *val;
};

/* A set of --set overrides, kept sorted by key so the canonical text is unique. */
struct overrides {
	struct kv *v;
	size_t n;
};

struct arm {
	char *name;
	struct overrides set;
};

struct vary {
	char *key;
	char **values;
	size_t n;
};

enum exp_kind { EXP_COMPARE, EXP_SWEEP };

struct experiment {
	enum exp_kind kind;
	char *scenario_file;
	char *scenario_name;
	char scenario_hash[17]; /* FNV-1a 64 of the file's bytes, hex */
	struct arm *arms;
	size_t narms;
	struct vary *vary;
	size_t nvary;
	uint64_t *seeds;
	size_t nseeds;
	char *metric; /* figure of merit to tabulate; NULL means the run's primary metric */
	char *version;
};

struct job {
	size_t point; /* index into the cross product of the vary lists (0 for a compare) */
	size_t arm;
	uint64_t seed;
	struct overrides ov;
	char key[17];
	char *canon; /* the canonical text the key hashes */
};

uint64_t fnv1a64(const void *data, size_t len, uint64_t h);
#define FNV1A64_INIT 0xcbf29ce484222325ULL

/* Reads the scenario file, fills scenario_file/name/hash. -1 with a message in err. */
int plan_load_scenario(struct experiment *e, const char *path, char *err, size_t errlen);
/* Hash of a scenario file's content; -1 when unreadable. */
int plan_hash_file(const char *path, char out[17], char *err, size_t errlen);

/* "NAME" or "NAME:key=value[,key=value...]" */
int plan_parse_arm(const char *spec, struct arm *arm, char *err, size_t errlen);
/* "key=v1,v2,..." or "key=a:b:step" */
int plan_parse_vary(const char *spec, struct vary *v, char *err, size_t errlen);

int overrides_add(struct overrides *o, const char *key, const char *val);
const char *overrides_get(const struct overrides *o, const char *key);
void overrides_free(struct overrides *o);
/* "k=v,k=v" in key order; caller frees. */
char *overrides_text(const struct overrides *o);

size_t plan_npoints(const struct experiment *e);
/* Value of vary dimension d at point p. */
const char *plan_point_value(const struct experiment *e, size_t point, size_t d);

/* Canonical run key: scenario hash, sorted overrides, seed, version. */
void plan_key(const char *scenario_hash, const struct overrides *ov, uint64_t seed,
	      const char *version, char key[17], char **canon);

/* All runs of the experiment, point-major, then arm, then seed. -1 with err on a clash. */
int plan_jobs(const struct experiment *e, struct job **jobs, size_t *njobs, char *err,
	      size_t errlen);
void plan_jobs_free(struct job *jobs, size_t n);

struct cJSON *plan_to_json(const struct experiment *e);
int plan_from_json(const struct cJSON *j, struct experiment *e, char *err, size_t errlen);
void plan_free(struct experiment *e);

#endif
