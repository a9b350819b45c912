/* report_hotspots: a hotspot pass made readable. hot_view gathers what it needs (the samples of the
 * result, parsed and laid over the stage's SASS from nvdisasm and over its source lines); the CLI
 * prints it as text (cudaclimb run LESSON/STAGE --hotspots: the source with a heat column, the top
 * stall reasons under the hottest lines, the hottest instructions) or JSON, and the TUI draws the
 * same view beside its code (tui_heat). Text from files goes through fput_clean. */
#ifndef CC_REPORT_HOTSPOTS_H
#define CC_REPORT_HOTSPOTS_H
#include <stdio.h>
#include "hotspots_map.h"
#include "lesson.h"
#include "result.h"
#include "sass.h"

typedef struct {
	char why[640];                   /* why there is nothing to show; "" when there is */
	char note[256];                  /* the sampling's caveat (run_result.hotspots_note), may be "" */
	char cubin[256], arch[16];       /* the code sampled */
	hot_samples s;
	sass_listing sass;
	hot_map map;
	char *src, **lines; int nlines;  /* the stage's kernel file, split into lines (pointers into src) */
	char *src_path;
} hot_view;

/* Builds v from r, the result of a hotspot job of stage st: parses r->hotspots, disassembles
 * r->cubin (sass_disassemble: cached beside the cubin), reads st's kernel file and maps the samples.
 * Returns 0 when there is a view; else -1 with v->why in one line (the pass did not run, no
 * permission, no samples, no nvdisasm...). Free with hot_view_free either way. */
int hot_view_make(hot_view *v, const lesson_stage *st, const run_result *r);
void hot_view_free(hot_view *v);
/* The source line with the most samples (1-based), or 0 when none has any. */
int hot_view_hottest(const hot_view *v);

/* The text report: a heading naming what (e.g. "transpose/tile"), the samples, then every source
 * line with its share and a bar, the top stall reasons under each line of 5% or more, and the
 * hottest instructions. A view without data prints its why in one line. */
void report_hotspots(FILE *f, const hot_view *v, const char *what);
/* The same as one JSON object: samples, each line and instruction with samples (share, stall
 * reasons with their plain words), or {"why": ...}. */
void report_hotspots_json(FILE *f, const hot_view *v, const char *what);
/* Both at once for the CLI: the view of stage `stage` of l (-1, the baseline, has none) from its
 * result r, printed as text or (json) as the object, then freed. */
void report_hotspots_result(FILE *f, const lesson *l, int stage, const run_result *r, int json);
#endif
