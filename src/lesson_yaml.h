/* lesson_yaml: internal to the lesson loader (lesson.c, lesson_stage.c): the loading context and
 * helpers over libyaml's document nodes. Every helper returns -1 after recording the first error as
 * "file:line:col: message" (marks made 1-based), and 0 on success. */
#ifndef CC_LESSON_YAML_H
#define CC_LESSON_YAML_H
#include <yaml.h>
#include "lesson.h"

typedef struct {
	yaml_document_t doc;
	const char *file, *kroot;
	char *err; size_t errlen;
	int failed;
	lesson *l;
	const lesson_stage *stage;   /* the stage whose tunables are in scope, or NULL */
} ld;

#define LY_NLIBS 7
#define LY_MAX_LIB_ARGS 10   /* the name, the arguments, and room for the NULL */
/* library name, then its required args (NULL-terminated) */
extern const char *const ly_baseline_libs[LY_NLIBS][LY_MAX_LIB_ARGS + 1];
extern const char *const ly_dtype_names[DT_COUNT];
extern const size_t ly_dtype_sizes[DT_COUNT];

/* Loads buf into c->doc (c->file names it in messages); a syntax error gives "file:line:col: ...".
 * The helpers below need only c->doc, file, err and errlen (c->l for expressions): any YAML file of
 * ours (a lesson, a course) is read through them. */
int ly_load(ld *c, const char *buf, size_t len);
int ly_fail_at(ld *c, yaml_mark_t m, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
#define FAIL(c, n, ...) ly_fail_at((c), (n)->start_mark, __VA_ARGS__)
yaml_node_t *ly_node(ld *c, int id);
/* The scalar's text, or NULL (error: "<what> must be a single value"). */
const char *ly_scalar(ld *c, yaml_node_t *n, const char *what);
/* The value under key in a mapping, or NULL. */
yaml_node_t *ly_get(ld *c, yaml_node_t *map, const char *key);
/* map must be a mapping whose keys are all in allowed (NULL-terminated; "!key" = required). */
int ly_check_keys(ld *c, yaml_node_t *map, const char *what, const char *const *allowed);
int ly_get_str(ld *c, yaml_node_t *map, const char *key, char **out);     /* absent: *out untouched */
int ly_is_ident(const char *s);
int ly_name_known(ld *c, const char *name, size_t len);
/* Parses an expression and checks its names against the scope (params, derived, device, stage). */
int ly_parse_expr(ld *c, yaml_node_t *n, const char *what, lesson_expr *out);
int ly_get_expr(ld *c, yaml_node_t *map, const char *key, lesson_expr *out);
int ly_parse_dtype(ld *c, yaml_node_t *n, lesson_dtype *t);
int ly_parse_double(ld *c, yaml_node_t *n, const char *what, double *out);
int ly_parse_int(ld *c, yaml_node_t *n, const char *what, int64_t *out);
int ly_parse_bool(ld *c, yaml_node_t *n, const char *what, int *out);
int ly_parse_strings(ld *c, yaml_node_t *n, const char *what, char ***out, int *count);
/* Items of a sequence node: count, and the i-th node. */
int ly_seq_len(yaml_node_t *n);
yaml_node_t *ly_seq_at(ld *c, yaml_node_t *n, int i);
/* Buffers: parses a mapping of name -> {type, count, init, output} into *out. */
int ly_parse_buffers(ld *c, yaml_node_t *map, lesson_buffer **out, int *count);

/* tolerance: 'exact' or { rel: r, abs: a }. */
int ly_parse_tolerance(ld *c, yaml_node_t *t, int *exact, double *rel, double *abs);

/* lesson_stage.c */
int ly_parse_stage(ld *c, yaml_node_t *n, lesson_stage *s);
void ly_free_stage(lesson_stage *s);
void ly_free_expr(lesson_expr *e);
/* rel resolved inside kroot/<lesson id>/ (a path that leaves it, or a missing file, is an error at n);
 * *out is the new path. */
int ly_resolve_kernel_file(ld *c, yaml_node_t *n, const char *rel, char **out);
/* The entry must be defined in path or a header beside it in kroot/<lesson id>/. */
int ly_check_entry(ld *c, yaml_node_t *n, const char *path, const char *entry);

/* lesson_expect.c: the stage's expect: list (claims over a run's measurements). */
int ly_parse_expect(ld *c, yaml_node_t *n, lesson_stage *s);
void ly_free_expect(lesson_stage *s);

/* lesson_exercise.c: the stage's exercise: block (the stage's entries are known). */
int ly_parse_exercise(ld *c, yaml_node_t *n, lesson_stage *s);
void ly_free_exercise(lesson_exercise *x);
#endif
