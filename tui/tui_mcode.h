/* tui_mcode: what the code pane's machine code views show: the PTX and the parsed SASS of the
 * current stage's compiled code at its values now (stage_code), and for the SASS diff the previous
 * stage's SASS with the opcodes' diff (tui_sass). Each is loaded once per cubin, when a view first
 * needs it (nvdisasm runs synchronously then: sass_disassemble keeps its output beside the cubin,
 * so a cubin seen before opens at once), and dropped when the stage, its values or its cubin
 * change. No curses. */
#ifndef CC_TUI_MCODE_H
#define CC_TUI_MCODE_H
#include "sass.h"
#include "tui_sass.h"
#include "tui_source.h"
#include "tui_stage.h"

typedef enum { MC_PTX, MC_SASS, MC_SASS_DIFF } mcode_want;

/* One stage's code. */
typedef struct {
	stage_code_state state; char why[640];   /* stage_code's answer; NONE: why */
	char cubin[256], arch[16];               /* the code loaded below; "" none */
	int ptx_loaded; source_text ptx; int ptx_entry; char ptx_err[512];   /* ptx_entry: its first .entry line */
	int sass_loaded; sass_listing sass; char sass_err[512];              /* an error: nvdisasm's message */
} mcode_unit;

typedef struct {
	const lesson *lesson; int stage;         /* what cur is of; stage -1: nothing */
	mcode_unit cur, prev;                    /* this stage's, the previous stage's (for the diff) */
	int diff_made; tui_sass_diff diff;          /* prev's opcodes against cur's */
	char diff_of[2][256];                    /* the cubins the diff was made from */
} tui_mcode;

void mcode_init(tui_mcode *c);
/* Frees what is loaded; c is then as after mcode_init. */
void mcode_free(tui_mcode *c);
/* Brings c up to date for the view want: asks the model for the current stage's code (submitting a
 * compile when there is none; see stage_code), and for MC_SASS_DIFF the previous stage's too, and
 * loads what the view shows and is not loaded yet. Returns non-zero when anything changed. */
int mcode_sync(tui_mcode *c, tui_stage *m, mcode_want want, double now);
#endif
