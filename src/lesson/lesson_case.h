/* lesson_case: a lesson's cases (cases: in its file, lessons/README.md "Cases"): named settings of its
 * parameters, and of tunables for the stages that have them, that show a point the defaults do not
 * (a skewed matrix, an unaligned width). A case is applied as if its settings were given with --set,
 * before the learner's own: a --set of the same name wins. */
#ifndef CC_LESSON_CASE_H
#define CC_LESSON_CASE_H
#include <stddef.h>
#include "lesson.h"
#include "plan.h"

/* The case of l called name (any letter case): its index, or -1. "default" is no case: -1 too. */
int lesson_case_find(const lesson *l, const char *name);
/* Whether name ("default" in any letter case) names the lesson's own settings, no case. */
int lesson_case_is_default(const char *name);
/* "; did you mean 'x'?" and the list of l's cases, for a name that is none: "(its cases: a, b)" or
 * "(it has no cases)", into out. */
void lesson_case_suggest(const lesson *l, const char *typed, char *out, size_t len);
/* Adds case k's settings that apply to stage (a parameter, or a tunable stage has; stage -1 or a
 * baseline: parameters only; LESSON_CASE_ALL_STAGES: every one, the caller filters) and that sets[0..n)
 * does not name already (the learner's --set wins). Returns the new count, or -1 when max is
 * too small. */
#define LESSON_CASE_ALL_STAGES (-1000)
int lesson_case_merge(const lesson *l, int k, int stage, plan_setting *sets, int n, int max);
/* Setting i of case k as a number (its value is an expression of numbers): 0, or -1. */
int lesson_case_value(const lesson_case *k, int i, double *out);
/* "skew=0.6 cols=8191" into out. */
void lesson_case_describe(const lesson_case *k, char *out, size_t len);
#endif
