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
