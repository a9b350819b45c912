/* hotspots_map: see hotspots_map.h. The text is checked strictly (names of a few characters, hex
 * offsets, bounded counts): it crosses a process boundary and may come from a recorded file. */
#include "hotspots_map.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fmt.h"
#include "util.h"

enum { MAX_NAME = 255, MAX_REASON = 63, MAX_FUNCS = 4096, MAX_REASONS = 256, MAX_PCS = 1 << 20, MAX_COUNTS = 1 << 22 };

/* The stall reasons CUPTI names, in plain words: the one table of them. */
static const struct { const char *name, *label, *words; } reason_table[] = {
	{ "long_scoreboard", "global mem", "long scoreboard (global/local memory)" },
	{ "short_scoreboard", "shared mem", "short scoreboard (shared memory / MIO result)" },
	{ "mio_throttle", "MIO queue", "MIO throttle (shared-memory / special-op queue full)" },
	{ "lg_throttle", "LSU queue", "LG throttle (global/local memory queue full)" },
	{ "barrier", "barrier", "barrier (__syncthreads)" },
	{ "membar", "fence", "memory barrier (a fence)" },
	{ "math_pipe_throttle", "math busy", "math pipe throttle (a math unit is busy)" },
	{ "wait", "fixed wait", "wait (a fixed-latency dependency)" },
	{ "not_selected", "not picked", "not selected (another warp issued)" },
	{ "selected", "issuing", "selected (issuing, not stalled)" },
	{ "dispatch_stall", "dispatch", "dispatch stall" },
	{ "drain", "drain", "drain (stores leaving at exit)" },
	{ "imc_miss", "const miss", "constant cache miss" },
	{ "no_instructions", "no instr", "no instruction (fetch or branch target)" },
	{ "no_instruction", "no instr", "no instruction (fetch or branch target)" },
	{ "branch_resolving", "branch", "branch resolving" },
	{ "sleeping", "sleeping", "sleeping (nanosleep or a yield)" },
	{ "tex_throttle", "TEX queue", "TEX throttle (texture queue full)" },
	{ "misc", "misc", "miscellaneous" },
};

const char *hot_reason_words(const char *reason)
{
	for (size_t i = 0; reason && i < sizeof reason_table / sizeof *reason_table; i++)
		if (!strcmp(reason, reason_table[i].name)) return reason_table[i].words;
	return NULL;
}

const char *hot_reason_label(const char *reason)
{
	for (size_t i = 0; reason && i < sizeof reason_table / sizeof *reason_table; i++)
		if (!strcmp(reason, reason_table[i].name)) return reason_table[i].label;
	return NULL;
}

/* ---- the text form ---- */

static int bad(char *err, size_t n, int item, const char *what)
{
	strfmt(err, n, "item %d: %s", item, what);
	return -1;
}

/* Decimal digits s[0..len) into *v (at most HOT_MAX_COUNT); 0 or -1. */
static int decimal(const char *s, size_t len, uint64_t *v)
{
	if (!len || len > 13) return -1;
	uint64_t x = 0;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9') return -1;
		x = x * 10 + (uint64_t)(s[i] - '0');
	}
	if (x > HOT_MAX_COUNT) return -1;
	*v = x;
	return 0;
}

static int hex(const char *s, size_t len, unsigned *v)
{
	if (!len || len > 8) return -1;
	unsigned x = 0;
	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
		if (d < 0) return -1;
		x = x * 16 + (unsigned)d;
	}
	*v = x;
	return 0;
}

static int name_ok(const char *s, size_t len, size_t max, int punct)
{
	if (!len || len > max) return 0;
	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || (punct && (c == '$' || c == '.'));
		if (!ok) return 0;
	}
	return 1;
}

/* The index of name s[0..len) in names (added when new, up to max); -1 when full. */
static int intern(char ***names, int *n, const char *s, size_t len, int max)
{
	for (int i = 0; i < *n; i++)
		if (strlen((*names)[i]) == len && !strncmp((*names)[i], s, len)) return i;
	if (*n >= max) return -1;
	*names = xrealloc(*names, (size_t)(*n + 1) * sizeof **names);
	(*names)[*n] = xstrndup(s, len);
	return (*n)++;
}

/* "total=N,dropped=N,other=N", keys in any order, each at most once and optional. */
static int header(hot_samples *s, const char *p, size_t len, int item, char *err, size_t errlen)
{
	int seen = 0;
	while (len) {
		size_t k = strcspn(p, ","), eq;
		if (k > len) k = len;
		for (eq = 0; eq < k && p[eq] != '='; eq++) {}
		static const char *const keys[] = { "total", "dropped", "other" };
		uint64_t *vals[] = { &s->total, &s->dropped, &s->other };
		int which = -1;
		for (int i = 0; i < 3; i++)
			if (eq == strlen(keys[i]) && !strncmp(p, keys[i], eq)) which = i;
		if (which < 0 || eq == k) return bad(err, errlen, item, "the totals are total=N,dropped=N,other=N");
		if (seen & (1 << which)) return bad(err, errlen, item, "a total given twice");
		seen |= 1 << which;
		if (decimal(p + eq + 1, k - eq - 1, vals[which])) return bad(err, errlen, item, "a total that is not a count");
		p += k;
		len -= k;
		if (len) { p++; len--; if (!len) return bad(err, errlen, item, "a trailing ','"); }
	}
	return 0;
}

/* "OFF:N:r=c,r=c" for function func. */
static int pc_item(hot_samples *s, int func, const char *p, size_t len, int item, int *cap_pc, int *cap_c, char *err, size_t errlen)
{
	const char *c1 = memchr(p, ':', len), *c2 = c1 ? memchr(c1 + 1, ':', len - (size_t)(c1 + 1 - p)) : NULL;
	if (!c2) return bad(err, errlen, item, "an instruction is OFFSET:SAMPLES:REASON=COUNT,...");
	if (func < 0) return bad(err, errlen, item, "an instruction before any @function");
	if (s->npc >= MAX_PCS) return bad(err, errlen, item, "too many instructions");
	hot_pc pc = { .func = func, .first = s->ncounts };
	if (hex(p, (size_t)(c1 - p), &pc.offset)) return bad(err, errlen, item, "the offset is not a hex number of 8 digits at most");
	if (decimal(c1 + 1, (size_t)(c2 - c1 - 1), &pc.samples)) return bad(err, errlen, item, "the samples are not a count");
	const char *r = c2 + 1, *end = p + len;
	while (r < end) {
		const char *comma = memchr(r, ',', (size_t)(end - r)), *stop = comma ? comma : end;
		const char *eq = memchr(r, '=', (size_t)(stop - r));
		if (!eq) return bad(err, errlen, item, "a reason is NAME=COUNT");
		if (!name_ok(r, (size_t)(eq - r), MAX_REASON, 0)) return bad(err, errlen, item, "a reason's name is letters, digits and '_'");
		hot_count hc;
		if (decimal(eq + 1, (size_t)(stop - eq - 1), &hc.count)) return bad(err, errlen, item, "a reason's count is not a count");
		if ((hc.reason = intern(&s->reasons, &s->nreasons, r, (size_t)(eq - r), MAX_REASONS)) < 0) return bad(err, errlen, item, "too many reasons");
		if (s->ncounts >= MAX_COUNTS) return bad(err, errlen, item, "too many reason counts");
		if (s->ncounts == *cap_c) {
			*cap_c = *cap_c ? 2 * *cap_c : 64;
			s->counts = xrealloc(s->counts, (size_t)*cap_c * sizeof *s->counts);
		}
		s->counts[s->ncounts++] = hc;
		pc.n++;
		r = comma ? comma + 1 : end;
		if (comma && r == end) return bad(err, errlen, item, "a trailing ','");
	}
	if (s->npc == *cap_pc) {
		*cap_pc = *cap_pc ? 2 * *cap_pc : 64;
		s->pc = xrealloc(s->pc, (size_t)*cap_pc * sizeof *s->pc);
	}
	s->pc[s->npc++] = pc;
	s->sampled += pc.samples;
	return 0;
}

int hot_parse(const char *text, hot_samples *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof *out);
	if (err && errlen) err[0] = 0;
	int item = 0, func = -1, cap_pc = 0, cap_c = 0;
	for (const char *p = text ? text : ""; *p;) {
		size_t len = strcspn(p, ";");
		item++;
		int rc = 0;
		if (len == 0) {
			/* an empty item: nothing */
		} else if (!strncmp(p, "total=", 6) || !strncmp(p, "dropped=", 8) || !strncmp(p, "other=", 6)) {
			rc = item == 1 ? header(out, p, len, item, err, errlen) : bad(err, errlen, item, "the totals come first");
		} else if (*p == '@') {
			if (!name_ok(p + 1, len - 1, MAX_NAME, 1)) rc = bad(err, errlen, item, "a function's name is letters, digits, '_', '$' and '.'");
			else if ((func = intern(&out->funcs, &out->nfuncs, p + 1, len - 1, MAX_FUNCS)) < 0) rc = bad(err, errlen, item, "too many functions");
		} else {
			rc = pc_item(out, func, p, len, item, &cap_pc, &cap_c, err, errlen);
		}
		if (rc) {
			hot_samples_free(out);
			return -1;
		}
		p += len;
		if (*p == ';') p++;
	}
	return 0;
}

void hot_samples_free(hot_samples *s)
{
	for (int i = 0; i < s->nfuncs; i++) free(s->funcs[i]);
	for (int i = 0; i < s->nreasons; i++) free(s->reasons[i]);
	free(s->funcs);
	free(s->reasons);
	free(s->pc);
	free(s->counts);
	memset(s, 0, sizeof *s);
}

/* ---- over the listing ---- */

/* The listing's function called name (its names are cut to the size of sass_func.name). */
static const sass_func *find_func(const sass_listing *l, const char *name)
{
	for (int i = 0; i < l->nfuncs; i++) {
		const char *fn = l->funcs[i].name;
		size_t cut = sizeof l->funcs[i].name - 1;
		if (!strcmp(fn, name) || (strlen(fn) == cut && !strncmp(fn, name, cut))) return &l->funcs[i];
	}
	return NULL;
}

/* Whether fn's offsets ascend, as nvdisasm lists them. */
static int ascending(const sass_listing *l, const sass_func *fn)
{
	for (int i = fn->first; i + 1 < fn->first + fn->count && i + 1 < l->n; i++)
		if (l->insn[i].offset >= l->insn[i + 1].offset) return 0;
	return 1;
}

/* The instruction of fn at offset, or -1 (a binary search when fn's offsets ascend). */
static int find_insn(const sass_listing *l, const sass_func *fn, int sorted, unsigned offset)
{
	int lo = fn->first, hi = fn->first + fn->count - 1;
	if (hi >= l->n) hi = l->n - 1;
	if (!sorted) {
		for (int i = lo; i <= hi; i++) if ((unsigned)l->insn[i].offset == offset) return i;
		return -1;
	}
	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2;
		unsigned o = (unsigned)l->insn[mid].offset;
		if (o == offset) return mid;
		if (o < offset) lo = mid + 1;
		else hi = mid - 1;
	}
	return -1;
}

static void add(hot_tally *t, const hot_samples *s, const hot_pc *pc)
{
	t->samples += pc->samples;
	for (int k = 0; k < pc->n; k++) t->by[s->counts[pc->first + k].reason] += s->counts[pc->first + k].count;
}

int hot_map_make(hot_map *m, const hot_samples *s, const sass_listing *l, const char *src_path, int nlines)
{
	memset(m, 0, sizeof *m);
	m->nreasons = s->nreasons;
	m->total = s->sampled;
	m->ninsn = l ? l->n : 0;
	m->nlines = nlines > 0 ? nlines : 0;
	size_t slots = (size_t)m->ninsn + (size_t)m->nlines + 2, per = (size_t)(s->nreasons ? s->nreasons : 1);
	uint64_t *by = xcalloc(slots * per, sizeof *by);
	m->insn = xcalloc((size_t)m->ninsn + 1, sizeof *m->insn);
	m->line = xcalloc((size_t)m->nlines + 1, sizeof *m->line);
	const sass_func **fns = xcalloc((size_t)s->nfuncs + 1, sizeof *fns);
	int *sorted = xcalloc((size_t)s->nfuncs + 1, sizeof *sorted);
	/* one block for every tally's counts: elsewhere first, then the lines, then the instructions */
	m->elsewhere.by = by;
	for (int i = 0; i <= m->nlines; i++) m->line[i].by = by + per * (1 + (size_t)i);
	for (int i = 0; i < m->ninsn; i++) m->insn[i].by = by + per * (2 + (size_t)m->nlines + (size_t)i);
	for (int f = 0; f < s->nfuncs; f++) {
		fns[f] = l ? find_func(l, s->funcs[f]) : NULL;
		sorted[f] = fns[f] && ascending(l, fns[f]);
	}
	for (int i = 0; i < s->npc; i++) {
		const hot_pc *pc = &s->pc[i];
		const sass_func *fn = fns[pc->func];
		int at = fn ? find_insn(l, fn, sorted[pc->func], pc->offset) : -1;
		if (at < 0) { m->unmatched += pc->samples; continue; }
		add(&m->insn[at], s, pc);
		const sass_insn *in = &l->insn[at];
		if (in->line >= 1 && in->line <= m->nlines && sass_file_is(l, in->file, src_path)) add(&m->line[in->line], s, pc);
		else add(&m->elsewhere, s, pc);
	}
	for (int i = 1; i <= m->nlines; i++) if (m->line[i].samples > m->max_line) m->max_line = m->line[i].samples;
	for (int i = 0; i < m->ninsn; i++) if (m->insn[i].samples > m->max_insn) m->max_insn = m->insn[i].samples;
	free(fns);
	free(sorted);
	return 0;
}

void hot_map_free(hot_map *m)
{
	free(m->elsewhere.by);
	free(m->insn);
	free(m->line);
	memset(m, 0, sizeof *m);
}

double hot_share(const hot_map *m, const hot_tally *t)
{
	return m->total ? (double)t->samples / (double)m->total : 0;
}

int hot_top(const hot_map *m, const hot_tally *t, int *idx, int k)
{
	int n = 0;
	if (!t->by) return 0;
	while (n < k) {
		int best = -1;
		for (int r = 0; r < m->nreasons; r++) {
			int taken = 0;
			for (int j = 0; j < n; j++) taken |= idx[j] == r;
			if (!taken && t->by[r] && (best < 0 || t->by[r] > t->by[best])) best = r;
		}
		if (best < 0) break;
		idx[n++] = best;
	}
	return n;
}

double hot_reason_share(const hot_map *m, const hot_tally *t, int r)
{
	uint64_t sum = 0;
	if (!t->by || r < 0 || r >= m->nreasons) return 0;
	for (int i = 0; i < m->nreasons; i++) sum += t->by[i];
	return sum ? (double)t->by[r] / (double)sum : 0;
}

char *hot_reasons_text(const hot_samples *s, const hot_map *m, const hot_tally *t, int k, int short_names, char *out, size_t n)
{
	int idx[8];
	if (k > 8) k = 8;
	int got = hot_top(m, t, idx, k);
	size_t o = 0;
	if (n) out[0] = 0;
	for (int i = 0; i < got && o + 1 < n; i++) {
		const char *name = s->reasons[idx[i]];
		const char *w = short_names ? hot_reason_label(name) : hot_reason_words(name);
		char plain[MAX_REASON + 1];
		if (!w) {                       /* a reason the table does not know: its name, in words */
			strfmt(plain, sizeof plain, "%s", name);
			for (char *c = plain; *c; c++) if (*c == '_') *c = ' ';
			w = plain;
		}
		char pct[16];
		int len = snprintf(out + o, n - o, "%s%s %s", i ? ", " : "", w, fmt_pct(pct, sizeof pct, hot_reason_share(m, t, idx[i])));
		if (len < 0 || (size_t)len >= n - o) { out[o] = 0; break; }
		o += (size_t)len;
	}
	return out;
}
