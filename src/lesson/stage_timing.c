/* stage_timing: a stage's timing method, its names and its words. */
#include "stage_timing.h"
#include <string.h>
#include "util.h"

static const char *const clock_names[] = { "events", "host" };
static const char *const stat_names[] = { "median", "first", "mean" };

stage_timing stage_timing_default(void)
{
	return (stage_timing){ .set = 0, .clock = TIMING_EVENTS, .sync = 1, .warmup = -1, .runs = 0, .l2_warm = 0, .stat = TIMING_MEDIAN };
}

const char *stage_timing_clock_name(stage_timing_clock c) { return (unsigned)c < 2 ? clock_names[c] : "?"; }
const char *stage_timing_stat_name(stage_timing_stat s) { return (unsigned)s < 3 ? stat_names[s] : "?"; }

int stage_timing_clock_parse(const char *s)
{
	for (int i = 0; i < 2; i++) if (!strcmp(s, clock_names[i])) return i;
	return -1;
}

int stage_timing_stat_parse(const char *s)
{
	for (int i = 0; i < 3; i++) if (!strcmp(s, stat_names[i])) return i;
	return -1;
}

const char *stage_timing_text(const stage_timing *t, char *buf, size_t n)
{
	if (!n) return buf;
	buf[0] = 0;
	if (!t->set) return buf;
#define ADD(...) strfmt(buf + strlen(buf), n - strlen(buf), __VA_ARGS__)
	if (t->clock == TIMING_HOST) ADD("host clock, %s", t->sync ? "sync" : "no sync");
	else ADD("CUDA events");
	if (t->warmup == 0) ADD(", no warm-up");
	else if (t->warmup > 0) ADD(", %d warm-up run%s", t->warmup, t->warmup == 1 ? "" : "s");
	if (t->runs > 0) ADD(", %d run%s", t->runs, t->runs == 1 ? "" : "s");
	if (t->l2_warm) ADD(", L2 warm");
	if (t->stat != TIMING_MEDIAN && t->runs != 1) ADD(", %s", t->stat == TIMING_FIRST ? "first run" : "mean");
#undef ADD
	return buf;
}
