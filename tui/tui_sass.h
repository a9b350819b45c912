/* tui_sass: the machine code views' text, from a parsed listing (src/engine/sass.h): the counts header,
 * the counts against the previous stage's, the opcodes' diff, the colour role of an instruction
 * and of a PTX line. The tags are report_sass's (sass_tag). Pure: no curses, unit-tested. */
#ifndef CC_TUI_SASS_H
#define CC_TUI_SASS_H
#include <stddef.h>
#include "diff.h"
#include "sass.h"
#include "tui_theme.h"

/* The header of fn: each class the lessons talk about with its count, "LDG 4 (2x128)  STG 2
 * LDS 0  STS 0  FFMA 5  BAR 0  HGMMA 4": global and shared loads and stores, FFMA and barriers
 * always, the others (ldmatrix, cp.async, TMA, local memory, tensor cores, shuffles, atomics) when
 * fn has some; the 128- and 64-bit loads and stores in parentheses. Returns out. */
char *tui_sass_counts(const sass_listing *l, const sass_func *fn, char *out, size_t n);

/* One row of the counts of fn against prev's: "LDG", then "LDG.128" for the 128-bit ones. */
typedef struct { char label[32]; int now, before; } tui_sass_cmp;
/* Rows for every class either function has (the tagged ones, the 128-bit loads and stores after
 * their class), then "total" (every instruction). prev may be NULL (its counts 0). Returns the
 * rows filled, at most max. */
int tui_sass_compare(const sass_listing *l, const sass_func *fn, const sass_listing *pl, const sass_func *prev,
                  tui_sass_cmp *rows, int max);
/* The function of prev that fn is compared with: the one of the same name, else the one at the
 * same index, else the first; NULL when prev has none. */
const sass_func *tui_sass_match(const sass_listing *prev, const sass_listing *l, const sass_func *fn);

/* The opcodes of two listings, each function's name before its instructions, and their line diff
 * (diff_lines): "LDG.E" against "LDG.E.128" shows as a deletion and an addition. */
typedef struct {
	char **a, **b; int na, nb;   /* the previous listing's strings and this one's (pointers into them) */
	int *ia, *ib;                /* each string's instruction, or -1 - f for function f's name */
	diff_op *ops; int nops;
} tui_sass_diff;
/* Fills d from prev and cur, which must outlive it. Returns 0, or -1 when out of memory (d empty). */
int tui_sass_diff_make(tui_sass_diff *d, const sass_listing *prev, const sass_listing *cur);
void tui_sass_diff_free(tui_sass_diff *d);

/* The colour role of an instruction: 128-bit global loads and stores, narrower ones, shared memory
 * (and ldmatrix, cp.async, TMA), local memory, FFMA, tensor cores, barriers; ROLE_NORMAL else. */
tui_role tui_sass_role(const sass_insn *in);
/* The same for a PTX instruction's opcode ("ld.global.v4.f32", "fma.rn.f32", "bar.sync"), or
 * ROLE_NORMAL. */
tui_role tui_sass_ptx_role(const char *op, size_t len);
/* Colours one PTX line like source_highlight (comments, numbers, strings), with directives (".entry",
 * ".reg") as keywords and each instruction's opcode in its tui_sass_ptx_role. */
void tui_sass_ptx_highlight(const char *line, size_t len, int *in_comment, unsigned char *roles);
#endif
