/* tui_param: the lesson's parameters (its problem sizes: n; m n k; rows cols) as the stage view
 * edits them. A parameter's default and range are expressions over the device values and the
 * parameters declared before it; plan.c evaluates and checks them (plan_param_info_get,
 * plan_param_value), by the rules of plan_make. Pure: no curses, no engine. */
#ifndef CC_TUI_PARAM_H
#define CC_TUI_PARAM_H
#include <stddef.h>
#include "plan.h"

/* Fills pv[0..l->nparams) with the defaults. Returns 0, or -1 with a message. */
int param_defaults(const lesson *l, const plan_device *d, expr_value *pv, char *err, size_t errlen);
/* Sets pv[i] to v; the parameters after it that were at their defaults follow their defaults
 * (a default may name an earlier parameter). */
void param_set(const lesson *l, const plan_device *d, expr_value *pv, int i, expr_value v);
/* Whether pv[i] equals parameter i's default (a default that cannot be evaluated: yes). */
int param_is_default(const lesson *l, const plan_device *d, const expr_value *pv, int i);
/* pv[i] halved (dir < 0) or doubled (dir > 0) and clamped to its range, into *out. Returns 0, or -1
 * when it cannot move: a float parameter, or already at its bound. */
int param_step(const lesson *l, const plan_device *d, const expr_value *pv, int i, int dir,
               expr_value *out);
/* A saved value for parameter i: a value plan_make accepts for it ("4096", "2.5"). Returns 0 with
 * *out, or -1. */
int param_parse(const lesson *l, const plan_device *d, const expr_value *pv, int i, const char *text,
                expr_value *out);
/* Appends NAME=VALUE to sets[0..cap) for every parameter that differs from its default; parameter
 * ot (when >= 0) gets the text ov instead, whatever it is. Returns the number added, or -1 when
 * they do not fit. */
int param_sets(const lesson *l, const plan_device *d, const expr_value *pv, int ot, const char *ov,
               plan_setting *sets, int cap);
/* The range as "1..16384" (large powers of two as "1..2^30"), "1.." or "..8"; "" without one.
 * Returns buf. */
char *param_range_text(const plan_param_info *pi, char *buf, size_t len);
#endif
