/* sigcheck: a compiled kernel against the stage that launches it; see sigcheck.h. */
#include "sigcheck.h"
#include <stdlib.h>
#include <string.h>
#include "util.h"

static const char *arg_kind_text(const plan_arg *a, char *buf, size_t n)
{
	static const char *const names[] = { "i32", "u32", "i64", "u64", "f32", "f64" };
	if (a->kind == ARG_TENSORMAP) strfmt(buf, n, "a 128-byte tensor map over %s", a->buffer);
	else if (a->kind == ARG_BUFFER) strfmt(buf, n, "a pointer to %s (8 bytes)", a->buffer);
	else if (a->kind == ARG_PITCH) strfmt(buf, n, "the pitch of %s in bytes (a long long, 8 bytes)", a->buffer);
	else if (a->kind == ARG_TEXTURE) strfmt(buf, n, "a texture object over %s (8 bytes)", a->buffer);
	else strfmt(buf, n, "an %s value (%d bytes)", names[a->type], a->type == AT_I32 || a->type == AT_U32 || a->type == AT_F32 ? 4 : 8);
	return buf;
}

int sigcheck_interface(const plan *p, const compile_result *cr, const char *file, char *issue, size_t ilen, char *msg, size_t mlen)
{
	const char *slash = strrchr(file, '/');
	file = slash ? slash + 1 : file;
	char a[96];
	for (int i = 0; i < p->nlaunches; i++) {
		const plan_launch *L = &p->launches[i];
		if (L->kind != STEP_LAUNCH) continue;
		const compile_entry *ce = compile_find_entry(cr, L->entry);
		if (!ce) {
			sb found = {0};
			for (int k = 0; k < cr->nentries && k < 3; k++) sb_addf(&found, "%s%s", k ? ", " : "", cr->entries[k].name);
			strfmt(msg, mlen, "%s has no kernel named %s: the stage launches extern \"C\" __global__ void %s(...)%s%s%s", file,
			       L->entry, L->entry, found.s ? " (it defines " : "", found.s ? found.s : "",
			       found.s ? (strncmp(found.s, "_Z", 2) ? ")" : "; a name starting _Z lacks extern \"C\")") : "");
			sb_free(&found);
			strfmt(issue, ilen, "no_kernel");
			return -1;
		}
		if (ce->nparams < 0) continue;   /* no PTX kept (an older cache entry): the driver will tell */
		if (ce->nparams != L->nargs) {
			strfmt(msg, mlen, "%s takes %d parameter%s, but the stage passes %d: check the signature in %s against the stage's kernel",
			       L->entry, ce->nparams, ce->nparams == 1 ? "" : "s", L->nargs, file);
			strfmt(issue, ilen, "signature");
			return -1;
		}
		for (int k = 0; k < L->nargs; k++) {
			const plan_arg *pa = &L->args[k];
			const compile_param *cp = &ce->params[k];
			int size;
			char kind;
			plan_arg_abi(pa, &size, &kind);
			if (cp->size == size && cp->kind == kind) continue;
			strfmt(msg, mlen, "parameter %d of %s is %s of %d bytes, but the stage passes %s: check the signature in %s",
			       k + 1, L->entry, cp->kind == 'f' ? "a float" : cp->kind == 'b' ? "a struct" : "an integer or pointer", cp->size,
			       arg_kind_text(pa, a, sizeof a), file);
			strfmt(issue, ilen, "signature");
			return -1;
		}
	}
	return 0;
}

/* The variables the PTX declares at module scope (".const .align 4 .b8 weights[36];", ".global ...
 * gd;"), names as the module has them (mangled in a namespace), comma-separated into names. */
static void ptx_variables(const char *ptx, sb *names)
{
	for (const char *p = ptx; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		size_t len = strcspn(p, "\n");
		const char *q = p;
		while (*q == '.' && (!strncmp(q, ".visible ", 9) || !strncmp(q, ".extern ", 8) || !strncmp(q, ".weak ", 6))) q = strchr(q, ' ') + 1;
		if (strncmp(q, ".const ", 7) && strncmp(q, ".global ", 8)) continue;
		const char *end = q;
		while (end < p + len && *end != '[' && *end != ';' && *end != '=') end++;
		while (end > q && end[-1] == ' ') end--;
		const char *start = end;
		while (start > q && start[-1] != ' ' && start[-1] != '\t') start--;
		if (end > start) sb_addf(names, "%s%.*s", names->len ? ", " : "", (int)(end - start), start);
	}
}

int sigcheck_constants(const lesson *l, int stage, const compile_result *cr, char *issue, size_t ilen, char *msg, size_t mlen)
{
	const lesson_stage *s = &l->stages[stage];
	if (!s->nconstants || !cr->ptx_path[0]) return 0;
	char *ptx = file_read(cr->ptx_path, NULL);
	if (!ptx) return 0;
	sb names = {0};
	ptx_variables(ptx, &names);
	free(ptx);
	int bad = 0;
	for (int i = 0; i < s->nconstants && !bad; i++) {
		const lesson_constant *k = &s->constants[i];
		size_t n = strlen(k->symbol);
		int found = 0;
		for (const char *p = names.s; p && *p && !found;) {
			size_t w = strcspn(p, ",");
			found = w == n && !memcmp(p, k->symbol, n);
			p += w;
			while (*p == ',' || *p == ' ') p++;
		}
		if (found) continue;
		strfmt(msg, mlen, "%s:%d:%d: constant '%s' is not in the compiled module (a typo, a namespace, or no kernel reads it); it has: %s",
		       l->path, k->at.line, k->at.col, k->symbol, names.len ? names.s : "no variables");
		strfmt(issue, ilen, "constant");
		bad = 1;
	}
	sb_free(&names);
	return bad ? -1 : 0;
}

/* ---- pointer element types ---- */

/* src with its comments and string literals blanked (same length, lines kept), owned by the caller. */
static char *blank_comments(const char *src)
{
	char *t = xstrdup(src);
	for (char *p = t; *p; p++) {
		if (p[0] == '/' && p[1] == '/') { while (*p && *p != '\n') *p++ = ' '; if (!*p) break; }
		else if (p[0] == '/' && p[1] == '*') {
			while (*p && !(p[0] == '*' && p[1] == '/')) { if (*p != '\n') *p = ' '; p++; }
			if (!*p) break;
			p[0] = p[1] = ' ';
			p++;
		} else if (*p == '"') {
			for (p++; *p && *p != '"' && *p != '\n'; p++) { if (*p == '\\' && p[1]) *p++ = ' '; *p = ' '; }
			if (!*p) break;
		}
	}
	return t;
}

static int ident_char(char c) { return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }

/* The parameter list of the __global__ definition of entry in t (blanked): [*open, *close) inside the
 * parentheses; 0, or -1 when t has none (declared in a header, or a declaration only). Linear in t's
 * length: the last separator and the last __global__ before each mention are carried forward, not
 * looked for again, and a parameter list is at most PARAMS_MAX bytes (a learner's file of 256 KiB
 * naming the kernel thousands of times took seconds when each mention scanned back and ahead), and so
 * is what may stand between it and the body's '{'. */
#define PARAMS_MAX 8192
static int find_params(const char *t, const char *entry, const char **open, const char **close)
{
	size_t n = strlen(entry);
	const char *scanned = t, *sep = t, *global = NULL;
	for (const char *p = strstr(t, entry); p; p = strstr(p + 1, entry)) {
		for (; scanned < p; scanned++) {   /* the declaration starts after the previous ';', '}' or '{' */
			if (*scanned == ';' || *scanned == '}' || *scanned == '{') sep = scanned + 1;
			else if (*scanned == '_' && !strncmp(scanned, "__global__", 10)) global = scanned;
		}
		if ((p > t && ident_char(p[-1])) || ident_char(p[n])) continue;
		const char *q = p + n;
		while (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r') q++;
		if (*q != '(') continue;
		if (!global || global < sep) continue;
		int depth = 0, matched = 0;
		const char *e = q;
		for (; *e && e - q < PARAMS_MAX; e++) {
			if (*e == '(') depth++;
			else if (*e == ')' && --depth == 0) { matched = 1; break; }
		}
		if (!*e) return -1;
		if (!matched) continue;            /* longer than any parameter list */
		const char *after = e + 1;        /* a definition, not a declaration: '{' before any ';' */
		while (*after && *after != '{' && *after != ';' && after - e < PARAMS_MAX) after++;
		if (*after != '{') continue;
		*open = q + 1;
		*close = e;
		return 0;
	}
	return -1;
}

/* The buffer types a pointee type name may point into: 0 for raw bytes (any buffer), -1 unknown (not
 * judged), else a bit per lesson_dtype. */
static int pointee_types(const char *name)
{
	static const struct { const char *name; int types; } known[] = {
		{ "void", 0 }, { "char", 0 }, { "signed char", 0 }, { "unsigned char", 0 }, { "int8_t", 0 }, { "uint8_t", 0 },
		{ "char2", 0 }, { "char4", 0 }, { "uchar2", 0 }, { "uchar4", 0 },
		{ "int2", 0 }, { "int4", 0 }, { "uint2", 0 }, { "uint4", 0 }, { "longlong2", 0 }, { "ulonglong2", 0 },
		{ "float", 1 << DT_F32 }, { "float2", 1 << DT_F32 }, { "float4", 1 << DT_F32 },
		{ "double", 1 << DT_F64 }, { "double2", 1 << DT_F64 },
		{ "__half", 1 << DT_F16 }, { "half", 1 << DT_F16 }, { "__half2", 1 << DT_F16 }, { "half2", 1 << DT_F16 },
		{ "__nv_bfloat16", 1 << DT_BF16 }, { "nv_bfloat16", 1 << DT_BF16 }, { "__nv_bfloat162", 1 << DT_BF16 }, { "nv_bfloat162", 1 << DT_BF16 },
		{ "int", 1 << DT_I32 | 1 << DT_U32 }, { "unsigned", 1 << DT_I32 | 1 << DT_U32 }, { "unsigned int", 1 << DT_I32 | 1 << DT_U32 },
		{ "signed int", 1 << DT_I32 | 1 << DT_U32 }, { "int32_t", 1 << DT_I32 | 1 << DT_U32 }, { "uint32_t", 1 << DT_I32 | 1 << DT_U32 },
		{ "long long", 1 << DT_I64 | 1 << DT_U64 }, { "long long int", 1 << DT_I64 | 1 << DT_U64 },
		{ "unsigned long long", 1 << DT_I64 | 1 << DT_U64 }, { "unsigned long long int", 1 << DT_I64 | 1 << DT_U64 },
		{ "int64_t", 1 << DT_I64 | 1 << DT_U64 }, { "uint64_t", 1 << DT_I64 | 1 << DT_U64 },
		{ "size_t", 1 << DT_I64 | 1 << DT_U64 }, { "long long unsigned", 1 << DT_I64 | 1 << DT_U64 },
	};
	for (size_t i = 0; i < sizeof known / sizeof *known; i++) if (!strcmp(known[i].name, name)) return known[i].types;
	return -1;
}

/* One parameter's text [b, e): its pointee type name (qualifiers and the parameter's name left out)
 * into out, when it is a pointer to a plain type; 0, or -1 (not a single pointer). */
static int pointee_name(const char *b, const char *e, char *out, size_t n)
{
	const char *star = NULL;
	int stars = 0;
	for (const char *p = b; p < e; p++) {
		if (*p == '*') { star = p; stars++; }
		if (*p == '&' || *p == '<' || *p == '[' || *p == '(') return -1;
	}
	if (stars != 1) return -1;
	out[0] = 0;
	size_t len = 0;
	for (const char *p = b; p < star;) {
		while (p < star && !ident_char(*p)) p++;
		const char *w = p;
		while (p < star && ident_char(*p)) p++;
		size_t wl = (size_t)(p - w);
		if (!wl) break;
		static const char *const quals[] = { "const", "volatile", "__restrict__", "__restrict", "restrict", "struct", "__grid_constant__", NULL };
		int qual = 0;
		for (int k = 0; quals[k] && !qual; k++) qual = strlen(quals[k]) == wl && !memcmp(quals[k], w, wl);
		if (qual) continue;
		if (len + wl + 2 > n) return -1;
		if (len) out[len++] = ' ';
		memcpy(out + len, w, wl);
		len += wl;
		out[len] = 0;
	}
	return len ? 0 : -1;
}

int sigcheck_pointer_types(const plan *p, const char *src, const char *file, char *issue, size_t ilen, char *msg, size_t mlen)
{
	if (!src) return 0;
	const char *slash = strrchr(file, '/');
	file = slash ? slash + 1 : file;
	char *t = blank_comments(src);
	int bad = 0;
	for (int i = 0; i < p->nlaunches && !bad; i++) {
		const plan_launch *L = &p->launches[i];
		const char *open, *close;
		if (L->kind != STEP_LAUNCH || find_params(t, L->entry, &open, &close)) continue;
		const char *b = open;
		for (int k = 0; k < L->nargs && b < close && !bad; k++) {
			const char *e = b;
			for (int depth = 0; e < close && (depth || *e != ','); e++) depth += *e == '(' || *e == '<' ? 1 : *e == ')' || *e == '>' ? -1 : 0;
			const plan_arg *a = &L->args[k];
			const plan_buffer *pb = a->kind == ARG_BUFFER ? plan_buffer_get(p, a->buffer) : NULL;
			char name[64];
			int types = pb && !pointee_name(b, e, name, sizeof name) ? pointee_types(name) : -1;
			if (types > 0 && !(types & 1 << pb->type)) {
				int line = 1;
				for (const char *q = t; q < b; q++) line += *q == '\n';
				strfmt(msg, mlen, "%s:%d: parameter %d of %s is a %s *, but the stage passes buffer %s of %s (%s *): check the signature in %s against the stage's kernel",
				       file, line, k + 1, L->entry, name, a->buffer, lesson_dtype_name(pb->type), pb->type == DT_F32 ? "float" :
				       pb->type == DT_F64 ? "double" : pb->type == DT_F16 ? "__half" : pb->type == DT_BF16 ? "__nv_bfloat16" :
				       pb->type == DT_I32 ? "int" : pb->type == DT_U32 ? "unsigned" : pb->type == DT_I64 ? "long long" :
				       pb->type == DT_U64 ? "unsigned long long" : pb->type == DT_I8 ? "signed char" : "unsigned char", file);
				strfmt(issue, ilen, "signature");
				bad = 1;
			}
			b = e + 1;
		}
	}
	free(t);
	return bad ? -1 : 0;
}
