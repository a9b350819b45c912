/* lesson_yaml: internal to the lesson loader (lesson.c, lesson_stage.c, ...): the loading context and
 * the lesson's own helpers (names in scope, expressions, types, buffers, stages); the generic ones are
 * yamldoc's. Every helper returns -1 after recording the first error as "file:line:col: message"
 * (yd_fail), and 0 on success. */
#ifndef CC_LESSON_YAML_H
#define CC_LESSON_YAML_H
#include <yaml.h>
#include "lesson.h"
#include "yamldoc.h"

/* Names a part of the file may bind at once (nested repeat blocks and i). */
#define LESSON_YAML_MAX_BOUND 16

typedef struct {
	yd y;                        /* the document, the file's name and the first error */
	const char *kroot;
	lesson *l;
	const lesson_stage *stage;   /* the stage whose tunables are in scope, or NULL */
	/* Names bound for a part of the file only: a repeat block's variable, an element's index i. */
	const char *bound[LESSON_YAML_MAX_BOUND]; int nbound;
	int model_scope;             /* the lesson's model: a stage's tunables and derived values are in scope too */
} ld;

#define LESSON_YAML_NLIBS 21
#define LESSON_YAML_MAX_LIB_ARGS 10   /* the name, the arguments, and room for the NULL */
/* library name, then its required args (NULL-terminated) */
extern const char *const lesson_yaml_baseline_libs[LESSON_YAML_NLIBS][LESSON_YAML_MAX_LIB_ARGS + 1];
extern const char *const lesson_yaml_dtype_names[DT_COUNT];
extern const size_t lesson_yaml_dtype_sizes[DT_COUNT];

/* A library run from the mapping n (keys library: and args:) into b: a known library, each argument
 * one it takes and given once, every one it needs; an argument is a buffer (the lesson's, or stage s's
 * when s is not NULL) or an expression. 0, or -1 with the error at the node (file:line:col). */
int lesson_yaml_parse_library(ld *c, lesson_stage *s, yaml_node_t *n, lesson_baseline *b);
/* Frees b and what it owns; NULL is fine. */
void lesson_yaml_free_library(lesson_baseline *b);
/* At most LESSON_NAME_MAX bytes: "<what> 'abc...' is N characters long (at most 64)" at n otherwise. */
int lesson_yaml_check_length(ld *c, yaml_node_t *n, const char *what, const char *name);
/* Whether name (len bytes) is in scope: a device value, a parameter, a derived value, a tunable, a
 * bound name. */
int lesson_yaml_name_known(ld *c, const char *name, size_t len);
/* Whether name is one of stage s's tunables or derived values. */
int lesson_yaml_stage_name(const lesson_stage *s, const char *name);
/* Parses an expression and checks its names against the scope (params, derived, device, stage). */
int lesson_yaml_parse_expr(ld *c, yaml_node_t *n, const char *what, lesson_expr *out);
/* lesson_yaml_parse_expr with name also in scope (a repeat block's variable, an element's index). */
int lesson_yaml_parse_expr_with(ld *c, yaml_node_t *n, const char *what, const char *name, lesson_expr *out);
/* pageable or pinned ("<what> is pageable or pinned, not 'x'"). */
int lesson_yaml_parse_memory(ld *c, yaml_node_t *n, const char *what, lesson_memory *m);
/* The expression under key (absent: 0, *out untouched). */
int lesson_yaml_get_expr(ld *c, yaml_node_t *map, const char *key, lesson_expr *out);
/* f32, f64, ...: "unknown type" otherwise. */
int lesson_yaml_parse_dtype(ld *c, yaml_node_t *n, lesson_dtype *t);
/* Buffers: parses a mapping of name -> {type, count, init, output} into *out. */
int lesson_yaml_parse_buffers(ld *c, yaml_node_t *map, lesson_buffer **out, int *count);
/* Frees what an expression owns; frees n buffers and what they own. */
void lesson_yaml_free_expr(lesson_expr *e);
void lesson_yaml_free_buffers(lesson_buffer *b, int n);

/* tolerance: 'exact' or { rel: r, abs: a, norm: n } (each optional; norm 0 when absent, abs infinite when
 * norm comes alone). With exprs (3: rel, abs, norm), a value that is not a number is an expression of
 * the names in scope ("1e-8 * n"), kept there for the plan to evaluate (its number then 0); without,
 * numbers only. 0, or -1 with the error at file:line:col. */
int lesson_yaml_parse_tolerance(ld *c, yaml_node_t *t, int *exact, double *rel, double *abs, double *norm, lesson_expr *exprs);

/* lesson_stage.c */
int lesson_stage_parse(ld *c, yaml_node_t *n, lesson_stage *s);
void lesson_stage_free(lesson_stage *s);
/* Calls fn for every kernel launch among the steps, inside repeat blocks too; stops at a non-zero answer. */
int lesson_stage_each_launch(lesson_launch *steps, int n, int (*fn)(void *ctx, lesson_launch *L), void *ctx);
/* rel resolved inside kroot/<lesson id>/ (a path that leaves it, or a missing file, is an error at n);
 * *out is the new path. */
int lesson_stage_resolve_kernel_file(ld *c, yaml_node_t *n, const char *rel, char **out);
/* The entry must be defined in path or a header beside it in kroot/<lesson id>/. */
int lesson_stage_check_entry(ld *c, yaml_node_t *n, const char *path, const char *entry);

/* lesson_expect.c: the stage's expect: list (claims over a run's measurements). */
int lesson_expect_parse(ld *c, yaml_node_t *n, lesson_stage *s);
void lesson_expect_free(lesson_stage *s);
/* Once every stage is read: each time_vs_ID / speedup_vs_ID of a claim names a stage of the lesson. */
int lesson_expect_check_claim_stages(ld *c);
/* A stage text's placeholders ({gbps}: lessons/README.md, "Numbers in the text") name claims'
 * measurements: 0, or -1 with the error at node n. */
int lesson_expect_check_text(ld *c, yaml_node_t *n, const char *text);
/* Once every stage is read: each {time_vs_ID} and {speedup_vs_ID} of a text names a stage of the
 * lesson; else the error at node n, with the nearest stage's name. */
int lesson_expect_check_text_stages(ld *c, yaml_node_t *n, const char *text);

/* lesson_exercise.c: the stage's exercise: block (the stage's entries are known). */
/* lesson_case.c: cases: (lesson_case.h), read before the stages (their claims may name a case); the
 * names that are no parameter checked as tunables after them. */
int lesson_case_parse(ld *c, yaml_node_t *map);
int lesson_case_check_tunables(ld *c);
void lesson_case_free(lesson *l);
int lesson_exercise_parse(ld *c, yaml_node_t *n, lesson_stage *s);
void lesson_exercise_free(lesson_exercise *x);
#endif
