/* stage_timing: how a stage's repetitions are timed (a stage's `timing:`, lessons/README.md "Timing a
 * stage another way"): the tool's own method by default (CUDA events, a warm-up, the median of many
 * runs, the L2 emptied before each), or a method a lesson shows in order to say why it misleads. */
#ifndef CC_STAGE_TIMING_H
#define CC_STAGE_TIMING_H
#include <stddef.h>

typedef enum { TIMING_EVENTS, TIMING_HOST } stage_timing_clock;
typedef enum { TIMING_MEDIAN, TIMING_FIRST, TIMING_MEAN } stage_timing_stat;

#define STAGE_TIMING_MAX_WARMUP 1000
#define STAGE_TIMING_MAX_RUNS 10000

typedef struct {
	int set;                    /* 0: the tool's method, every field below at its default */
	stage_timing_clock clock;   /* events (default) or host: clock_gettime(CLOCK_MONOTONIC) around the launches */
	int sync;                   /* host clock: 1 (default) synchronise before the second reading; 0 not */
	int warmup;                 /* warm-up runs; -1 (default): at least 3 and 25 ms */
	int runs;                   /* timed runs; 0 (default): as many as the time budget allows */
	int l2_warm;                /* 1: neither the L2 flush nor the outputs' poisoning before a timed run */
	stage_timing_stat stat;     /* which figure of the runs is reported as the stage's time */
} stage_timing;

/* The tool's own method (set 0). */
stage_timing stage_timing_default(void);
/* Names of the values, for messages and the plan's wire form: "events"/"host", "median"/"first"/"mean". */
const char *stage_timing_clock_name(stage_timing_clock c);
const char *stage_timing_stat_name(stage_timing_stat s);
/* The value named s, or -1. */
int stage_timing_clock_parse(const char *s);
int stage_timing_stat_parse(const char *s);
/* t in words, into buf (cut to n): "" for the tool's method, else e.g. "host clock, no sync, 1 run",
 * "CUDA events, no warm-up, 1 run", "CUDA events, L2 warm". Returns buf. */
const char *stage_timing_text(const stage_timing *t, char *buf, size_t n);
#endif
