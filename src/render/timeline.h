/* timeline: a run's steps laid out in time, one row per stream, from the events that timed each step
 * (run_step start_ms/end_ms): copies host to device, device to host and device to device, kernels
 * and memsets each drawn with their own glyph, so that a pipeline's copies are seen running under
 * its kernels. Beside it the stage's bound: max(copy time at the measured copy bandwidth, the
 * kernels' time alone), which resource sets it, and how far the run is from it. The chart is a grid
 * of cells (a glyph and a role each), rendered without curses: the TUI colours the roles, the CLI
 * prints the text. Pure functions over a run_result and a device_info. */
#ifndef CC_TIMELINE_H
#define CC_TIMELINE_H
#include <stddef.h>
#include <stdio.h>
#include "cellgrid.h"
#include "result.h"

typedef enum { TL_H2D, TL_D2H, TL_D2D, TL_KERNEL, TL_MEMSET, TL_KIND_COUNT } timeline_kind;

/* What a step is on the chart: a copy by its direction (a copy with no known direction counts as
 * d2d: it does not cross the host link), a launch a kernel, a memset a memset. */
timeline_kind timeline_kind_of(const run_step *s);
/* "h2d", "d2h", "d2d", "kernel", "memset". */
const char *timeline_kind_name(timeline_kind k);

/* Which resource sets the bound. */
typedef enum { TL_BY_H2D, TL_BY_D2H, TL_BY_KERNELS } timeline_limiter;

typedef struct {
	double bound_ms;          /* the run's bound_ms (> 0) */
	double ms;                /* the run's median time; 0 when it was not timed */
	double ratio;             /* ms / bound_ms; 0 when not timed */
	timeline_limiter by;
	double bytes, gbps;       /* by a copy direction: its bytes and bandwidth (the device's calibration,
	                           * or bytes / bound when the device has none) */
	double h2d_ms, d2h_ms;    /* each direction's copies alone at the device's bandwidth; -1 unknown */
	double kernel_ms;         /* the kernels alone, one after another (the run's kernel_ms) */
} timeline_bound;

/* The bound of r on d (d may be NULL): 0, or -1 when the stage has none (it copies nothing to or from
 * the host, or the worker did not work it out: bound_ms 0). The resource is the one whose time alone
 * is the bound; without the device's copy bandwidths it is the kernels when kernel_ms is the bound,
 * else the direction with more bytes. */
int timeline_bound_of(const run_result *r, const device_info *d, timeline_bound *b);
/* What sets the bound: "h2d 268 MB at 52.1 GB/s", "the kernels alone, one after another". */
void timeline_bound_what(const timeline_bound *b, char *buf, size_t n);
/* "bound 5.15 ms (h2d 268 MB at 52.1 GB/s); 1.08x the bound", or "bound 3.20 ms (the kernels alone,
 * one after another); ..." (no ratio when the run was not timed). */
void timeline_bound_text(const timeline_bound *b, char *buf, size_t n);

enum { TIMELINE_MAX_ROWS = 16 };

/* The steps' times in numbers. Only steps with both times measured (>= 0, end not before start)
 * count; a step's stream beyond the first TIMELINE_MAX_ROWS distinct ones is left out. */
typedef struct {
	int nsteps;               /* steps in the record (at most RUN_MAX_STEPS) */
	int ntimed;               /* of them with times */
	int nstreams;             /* distinct streams among the timed steps */
	int streams[TIMELINE_MAX_ROWS];   /* ascending */
	int count[TL_KIND_COUNT]; /* timed steps of each kind */
	double span_ms;           /* the last end (times are from the stage's start) */
	double busy_ms[TL_KIND_COUNT];    /* durations summed */
	double overlap_ms;        /* time when a host copy (h2d or d2h) and a kernel run at once */
	double overlap_frac;      /* overlap_ms / span_ms */
	double copies_ms;         /* time when copies both ways (h2d and d2h) run at once */
	double copies_frac;       /* copies_ms / span_ms */
} timeline_stats;

void timeline_stats_of(const run_result *r, timeline_stats *s);

/* The summary under the chart, one sentence each (into a and b, "" when there is nothing to say):
 * the run's time, the timeline's span and the overlaps (copy and kernel; h2d and d2h when any);
 * then the bound. A stage with no copies on
 * one stream says so first in a. */
void timeline_summary(const run_result *r, const device_info *d, char *a, size_t na, char *b, size_t nb);

/* Roles of the cells, mapped to colours by the screen. */
typedef enum {
	TLR_BLANK, TLR_AXIS, TLR_TEXT, TLR_LABEL, TLR_H2D, TLR_D2H, TLR_D2D, TLR_KERNEL, TLR_MEMSET, TLR_OVERLAP,
	TLR_SUMMARY, TLR_DIM, TLR_ROLE_COUNT
} timeline_role;

/* The role that draws kind k. */
timeline_role timeline_role_of(timeline_kind k);


/* Flags: UTF-8 glyphs (else ASCII); the rows left under the chart filled with a list of the steps. */
enum { TIMELINE_UTF8 = 1, TIMELINE_STEPS = 2 };

/* Rows the chart of r needs at width w with nothing left out (the steps list not counted). */
int timeline_height(const run_result *r, const device_info *d, int w);
/* Renders r into a new w x h grid (free with cellgrid_free): a row per stream ("s1"), each step
 * a span of its kind's glyph (one cell at least, where a cell is to be had), on more than one stream
 * a row marking where a host copy and a kernel run at once, the time axis in ms, the glyphs' legend
 * and the summary. When h is short the legend goes first, then the overlap row, then the last
 * streams (a note says how many); under 30 columns or with no timed step, the summary alone. With
 * TIMELINE_STEPS the list of the steps starts at step first (from 0; clamped), a line above and
 * below it counting those out of view. */
void timeline_render(const run_result *r, const device_info *d, int w, int h, int flags, int first, cellgrid *g);
/* The step the list of the steps starts at when r is rendered at w x h with TIMELINE_STEPS and first:
 * first clamped so that the last page ends at the last step (for scrolling). */
int timeline_first_step(const run_result *r, const device_info *d, int w, int h, int first);
/* Renders r at width w and its own height and prints every line to f. */
void timeline_print(FILE *f, const run_result *r, const device_info *d, int w, int flags);
#endif
