/* hotspots_map: the worker's program-counter samples (the text form of hotspots.h) read back, and
 * laid over the stage's machine code (src/engine/sass.h): per SASS instruction and per source line, the
 * samples and the count per stall reason; the stall reasons in plain words. Pure text and
 * arithmetic, no CUDA: the CLI, the TUI and the fuzz target use it alike. */
#ifndef CC_HOTSPOTS_MAP_H
#define CC_HOTSPOTS_MAP_H
#include <stddef.h>
#include <stdint.h>
#include "sass.h"

/* Counts above this are refused by the parser, so that no sum can overflow. */
#define HOT_MAX_COUNT 1000000000000ULL

typedef struct {
	int func;                  /* index into funcs */
	unsigned offset;           /* bytes from the function's start, as nvdisasm prints it */
	uint64_t samples;
	int first, n;              /* its reasons' counts: counts[first .. first + n) */
} hot_pc;

typedef struct { int reason; uint64_t count; } hot_count;   /* reason: index into reasons */

typedef struct {
	char **funcs; int nfuncs;          /* function names, in the order they first appear */
	char **reasons; int nreasons;      /* stall reasons as CUPTI names them ("short_scoreboard") */
	hot_pc *pc; int npc;
	hot_count *counts; int ncounts;
	uint64_t total, dropped, other;    /* the first item's (0 when it is absent) */
	uint64_t sampled;                  /* the samples of every PC listed */
} hot_samples;

/* Parses the text form. Returns 0, or -1 with err ("item 3: ...") and out empty. Free with
 * hot_samples_free (also after an error). */
int hot_parse(const char *text, hot_samples *out, char *err, size_t errlen);
void hot_samples_free(hot_samples *s);

/* The samples and the count per reason (reasons[0 .. nreasons)) of an instruction or a line. */
typedef struct { uint64_t samples; uint64_t *by; } hot_tally;

typedef struct {
	int nreasons;
	uint64_t total;              /* every PC's samples: the denominator of the shares */
	hot_tally *insn; int ninsn;  /* one per instruction of the listing, in its order */
	hot_tally *line; int nlines; /* line[i] for line i (1-based) of the stage's source; line[0] unused */
	hot_tally elsewhere;         /* instructions from other files (headers) or without a line */
	uint64_t unmatched;          /* samples at a PC the listing lacks (another function, an offset
	                              * that is no instruction's) */
	uint64_t max_line, max_insn; /* the largest line and instruction counts (for the bars) */
} hot_map;

/* Lays s over listing l: each PC goes to the instruction of the same function name and offset, and
 * on to its source line when that line is of the file at src_path (compared by name) and within
 * 1..nlines. Returns 0. Free with hot_map_free. */
int hot_map_make(hot_map *m, const hot_samples *s, const sass_listing *l, const char *src_path, int nlines);
void hot_map_free(hot_map *m);

/* t's share of all samples, 0..1 (0 when there are none). */
double hot_share(const hot_map *m, const hot_tally *t);
/* The k reasons with the most samples in t, most first (ties: the lower index), only those with
 * samples, into idx; returns how many. */
int hot_top(const hot_map *m, const hot_tally *t, int *idx, int k);
/* t's reason r as a share of t's reasons' samples, 0..1. */
double hot_reason_share(const hot_map *m, const hot_tally *t, int r);

/* A stall reason in plain words ("short scoreboard (shared memory / MIO result)"), and its short
 * label for narrow screens ("shared mem"); NULL for a name the table does not know (show the name). */
const char *hot_reason_words(const char *reason);
const char *hot_reason_label(const char *reason);
/* The top k reasons of t as "words 61%, words 22%" (labels instead of words when short), into out;
 * "" when t has none. Returns out. */
char *hot_reasons_text(const hot_samples *s, const hot_map *m, const hot_tally *t, int k, int short_names,
                       char *out, size_t n);
#endif
