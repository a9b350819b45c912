/* tui_sass: see tui_sass.h. */
#include "tui_sass.h"
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report_sass.h"
#include "tui_source.h"
#include "util.h"

/* The classes the header always shows, then those it shows when present (in class order). */
static const sass_class always[] = { SC_LDG, SC_STG, SC_LDS, SC_STS, SC_FFMA, SC_BAR };

static int is_always(int c)
{
	for (size_t i = 0; i < sizeof always / sizeof *always; i++)
		if ((int)always[i] == c) return 1;
	return 0;
}

/* The short name of class c, as report_sass tags it ("LDG", "HGMMA"); "" for the untagged ones. */
static const char *class_tag(int c, char *buf, size_t n)
{
	sass_insn in;
	memset(&in, 0, sizeof in);
	in.cls = (sass_class)c;
	return sass_tag(&in, buf, n);
}

/* The instructions of class c in fn that move width bits per thread. */
static int count_width(const sass_listing *l, const sass_func *fn, int c, int width)
{
	int k = 0;
	for (int i = fn->first; i < fn->first + fn->count && i < l->n; i++)
		k += (int)l->insn[i].cls == c && l->insn[i].width == width;
	return k;
}

/* printf at out + *o within n bytes (cut, never past the end). */
__attribute__((format(printf, 4, 5)))
static void add(char *out, size_t n, size_t *o, const char *fmt, ...)
{
	va_list ap;
	if (*o >= n) return;
	va_start(ap, fmt);
	int k = vsnprintf(out + *o, n - *o, fmt, ap);
	va_end(ap);
	if (k > 0) *o += (size_t)k < n - *o ? (size_t)k : n - *o - 1;
}

char *tui_sass_counts(const sass_listing *l, const sass_func *fn, char *out, size_t n)
{
	char tag[24];
	size_t o = 0;
	if (!n) return out;
	out[0] = 0;
	for (int pass = 0; pass < 2; pass++)
		for (int c = 0; c < SC_COUNT; c++) {
			if (is_always(c) != !pass || !class_tag(c, tag, sizeof tag)[0] || (pass && !fn->counts[c]))
				continue;
			add(out, n, &o, "%s%s %d", o ? "  " : "", tag, fn->counts[c]);
			int w128 = count_width(l, fn, c, 128), w64 = count_width(l, fn, c, 64);
			if (w128 && w64) add(out, n, &o, " (%dx128, %dx64)", w128, w64);
			else if (w128) add(out, n, &o, " (%dx128)", w128);
			else if (w64) add(out, n, &o, " (%dx64)", w64);
		}
	return out;
}

const sass_func *tui_sass_match(const sass_listing *prev, const sass_listing *l, const sass_func *fn)
{
	if (!prev || !prev->nfuncs) return NULL;
	const sass_func *same = sass_find_func(prev, fn->name);
	if (same) return same;
	int i = (int)(fn - l->funcs);
	return i >= 0 && i < prev->nfuncs ? &prev->funcs[i] : &prev->funcs[0];
}

int tui_sass_compare(const sass_listing *l, const sass_func *fn, const sass_listing *pl, const sass_func *prev,
                  tui_sass_cmp *rows, int max)
{
	char tag[24];
	int n = 0;
	for (int c = 0; c < SC_COUNT && n < max; c++) {
		int before = prev ? prev->counts[c] : 0;
		if (!class_tag(c, tag, sizeof tag)[0] || (!fn->counts[c] && !before)) continue;
		rows[n] = (tui_sass_cmp){ .now = fn->counts[c], .before = before };
		snprintf(rows[n].label, sizeof rows[n].label, "%s", tag);
		n++;
		for (int w = 128; w >= 64 && n < max; w /= 2) {
			int now = count_width(l, fn, c, w), was = prev ? count_width(pl, prev, c, w) : 0;
			if (!now && !was) continue;
			rows[n] = (tui_sass_cmp){ .now = now, .before = was };
			snprintf(rows[n].label, sizeof rows[n].label, "%s.%d", tag, w);
			n++;
		}
	}
	if (n < max) {
		rows[n] = (tui_sass_cmp){ .now = fn->count, .before = prev ? prev->count : 0 };
		snprintf(rows[n].label, sizeof rows[n].label, "total");
		n++;
	}
	return n;
}

/* The strings of l: each function's name, then its opcodes. */
static int opcodes(const sass_listing *l, char ***s, int **idx)
{
	int n = l->n + l->nfuncs, k = 0;
	*s = xmalloc((size_t)(n ? n : 1) * sizeof **s);
	*idx = xmalloc((size_t)(n ? n : 1) * sizeof **idx);
	for (int f = 0; f < l->nfuncs; f++) {
		const sass_func *fn = &l->funcs[f];
		(*s)[k] = (char *)fn->name;
		(*idx)[k++] = -1 - f;
		for (int i = fn->first; i < fn->first + fn->count && i < l->n; i++) {
			(*s)[k] = (char *)l->insn[i].op;
			(*idx)[k++] = i;
		}
	}
	return k;
}

int tui_sass_diff_make(tui_sass_diff *d, const sass_listing *prev, const sass_listing *cur)
{
	memset(d, 0, sizeof *d);
	d->na = opcodes(prev, &d->a, &d->ia);
	d->nb = opcodes(cur, &d->b, &d->ib);
	if (d->na < 0 || d->nb < 0 || (d->nops = diff_lines(d->a, d->na, d->b, d->nb, &d->ops)) < 0) {
		tui_sass_diff_free(d);
		return -1;
	}
	return 0;
}

void tui_sass_diff_free(tui_sass_diff *d)
{
	free(d->a);
	free(d->b);
	free(d->ia);
	free(d->ib);
	free(d->ops);
	memset(d, 0, sizeof *d);
}

tui_role tui_sass_role(const sass_insn *in)
{
	switch (in->cls) {
	case SC_LDG: case SC_STG: return in->width == 128 ? ROLE_SASS_WIDE : ROLE_SASS_GLOBAL;
	case SC_LDS: case SC_STS: case SC_LDSM: case SC_LDGSTS: case SC_TMA: return ROLE_SASS_SHARED;
	case SC_LOCAL: return ROLE_BAD;
	case SC_FFMA: return ROLE_SASS_FMA;
	case SC_MMA: case SC_WGMMA: return ROLE_SASS_TENSOR;
	case SC_BAR: return ROLE_SASS_BAR;
	default: return ROLE_NORMAL;
	}
}

/* Whether op (len bytes) is p or starts with p followed by a '.'. */
static int op_is(const char *op, size_t len, const char *p)
{
	size_t k = strlen(p);
	return len >= k && !memcmp(op, p, k) && (len == k || op[k] == '.');
}

/* Whether op has the modifier m (".v4"). */
static int has_mod(const char *op, size_t len, const char *m)
{
	size_t k = strlen(m);
	for (size_t i = 0; i + k <= len; i++)
		if (!memcmp(op + i, m, k) && (i + k == len || op[i + k] == '.')) return 1;
	return 0;
}

/* Bits per thread of a PTX load or store: its element type times its vector length. */
static int ptx_width(const char *op, size_t len)
{
	static const struct { const char *m; int bits; } types[] = {
		{ ".f64", 64 }, { ".b64", 64 }, { ".u64", 64 }, { ".s64", 64 }, { ".f32", 32 }, { ".b32", 32 }, { ".u32", 32 },
		{ ".s32", 32 }, { ".f16", 16 }, { ".b16", 16 }, { ".u16", 16 }, { ".s16", 16 }, { ".b8", 8 }, { ".u8", 8 }, { ".s8", 8 },
	};
	int bits = 32, vec = has_mod(op, len, ".v4") ? 4 : has_mod(op, len, ".v2") ? 2 : has_mod(op, len, ".v8") ? 8 : 1;
	for (size_t i = 0; i < sizeof types / sizeof *types; i++)
		if (has_mod(op, len, types[i].m)) { bits = types[i].bits; break; }
	return bits * vec;
}

tui_role tui_sass_ptx_role(const char *op, size_t len)
{
	if (op_is(op, len, "ld") || op_is(op, len, "st")) {
		if (has_mod(op, len, ".local")) return ROLE_BAD;
		if (has_mod(op, len, ".shared")) return ROLE_SASS_SHARED;
		if (has_mod(op, len, ".global")) return ptx_width(op, len) == 128 ? ROLE_SASS_WIDE : ROLE_SASS_GLOBAL;
		return ROLE_NORMAL;
	}
	if (op_is(op, len, "ldmatrix") || op_is(op, len, "stmatrix") || op_is(op, len, "cp.async")) return ROLE_SASS_SHARED;
	if (op_is(op, len, "fma")) return ROLE_SASS_FMA;
	if (op_is(op, len, "mma") || op_is(op, len, "wmma") || op_is(op, len, "wgmma")) return ROLE_SASS_TENSOR;
	if (op_is(op, len, "bar") || op_is(op, len, "barrier") || op_is(op, len, "mbarrier")) return ROLE_SASS_BAR;
	return ROLE_NORMAL;
}

static int word_char(char c) { return isalnum((unsigned char)c) || c == '_' || c == '$' || c == '.' || c == ':'; }

void tui_sass_ptx_highlight(const char *s, size_t len, int *in_comment, unsigned char *roles)
{
	source_highlight(s, len, in_comment, roles);
	size_t i = 0;
	while (i < len && (s[i] == ' ' || s[i] == '\t')) i++;
	if (i < len && s[i] == '@') {                  /* a predicate: "@%p1 " or "@!%p1 " */
		while (i < len && s[i] != ' ' && s[i] != '\t') i++;
		while (i < len && (s[i] == ' ' || s[i] == '\t')) i++;
	}
	size_t st = i;
	while (i < len && word_char(s[i])) i++;
	int opcode = i > st && s[st] != '.' && s[i - 1] != ':' && isalpha((unsigned char)s[st]) && roles[st] == ROLE_NORMAL;
	if (opcode) {
		tui_role r = tui_sass_ptx_role(s + st, i - st);
		if (r != ROLE_NORMAL) memset(roles + st, r, i - st);
	}
	/* directives: a word that starts with '.' after a space or at the line's start (".visible .entry") */
	for (size_t k = 0; k < len; k++) {
		if (s[k] != '.' || (k > 0 && s[k - 1] != ' ' && s[k - 1] != '\t') || k + 1 >= len || !isalpha((unsigned char)s[k + 1]) ||
		    roles[k] == ROLE_COMMENT || roles[k] == ROLE_STRING)
			continue;
		size_t e = k + 1;
		while (e < len && (isalnum((unsigned char)s[e]) || s[e] == '_')) e++;
		memset(roles + k, ROLE_KEYWORD, e - k);
		k = e - 1;
	}
}
