/* compile_parse: the compiler's reports read back (see compile.h): the ptxas --verbose log for each
 * entry's resources (and, after an -rdc link, nvJitLink's report of them as linked), and the PTX's
 * .entry signatures for its parameters. Pure text, no NVRTC: the fuzz target links this alone. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compile.h"
#include "util.h"

void compile_parse_ptxas(const char *log, compile_result *r)
{
	r->nentries = 0;
	compile_entry *cur = NULL;
	int mine = 0;   /* the lines being read are about cur (not a device function's "Function properties") */
	int linked = 0; /* cur is named by nvJitLink's report: its "used" line comes next */
	for (const char *line = log; line && *line;) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		char buf[512];
		strfmt(buf, sizeof buf, "%.*s", (int)(len < 511 ? len : 511), line);
		char name[96];
		const char *p;
		if (sscanf(buf, "ptxas info : Compiling entry function '%95[^']'", name) == 1 ||
		    ((p = strstr(buf, "Compiling entry function '")) && sscanf(p, "Compiling entry function '%95[^']'", name) == 1)) {
			cur = NULL;
			mine = 1;
			if (r->nentries < COMPILE_MAX_ENTRIES) {
				cur = &r->entries[r->nentries++];
				memset(cur, 0, sizeof *cur);
				cur->nparams = -1;
				strfmt(cur->name, sizeof cur->name, "%s", name);
			}
		} else if ((p = strstr(buf, "Function properties for '"))) {
			/* nvJitLink's report of the linked program: the entry ptxas named, if it is one */
			p += strlen("Function properties for '");
			size_t nl2 = strcspn(p, "'");
			cur = NULL;
			mine = 0;
			for (int i = 0; i < r->nentries && p[nl2] == '\'' && !cur; i++)
				if (nl2 == strlen(r->entries[i].name) && !strncmp(p, r->entries[i].name, nl2)) cur = &r->entries[i];
			linked = cur != NULL;
		} else if (cur && linked && (p = strstr(buf, "used ")) && strstr(p, " registers")) {
			/* "used 24 registers, used 0 barriers, 16 stack, 1024 bytes smem, 556 bytes cmem[0], 0 bytes lmem" */
			sscanf(p, "used %d registers", &cur->regs);
			const char *q = strstr(p, " stack");
			if (q) {
				while (q > p && q[-1] >= '0' && q[-1] <= '9') q--;
				cur->stack_bytes = atoi(q);
			}
			if ((q = strstr(p, " bytes smem"))) {
				while (q > p && q[-1] >= '0' && q[-1] <= '9') q--;
				cur->static_smem = atoll(q);
			}
			linked = 0;
		} else if ((p = strstr(buf, "Function properties for "))) {
			p += strlen("Function properties for ");
			size_t nl2 = strcspn(p, " \t\r");
			mine = cur && nl2 == strlen(cur->name) && !strncmp(p, cur->name, nl2);
		} else if (cur && mine && (p = strstr(buf, "bytes stack frame"))) {
			const char *q = p;
			while (q > buf && (q[-1] == ' ' || (q[-1] >= '0' && q[-1] <= '9'))) q--;
			cur->stack_bytes = atoi(q);
			if ((p = strstr(buf, "bytes stack frame, "))) sscanf(p, "bytes stack frame, %d bytes spill stores, %d bytes spill loads",
			                                                     &cur->spill_stores, &cur->spill_loads);
		} else if (cur && mine && (p = strstr(buf, "Used "))) {
			sscanf(p, "Used %d registers", &cur->regs);
			const char *s = strstr(p, " bytes smem");
			if (s) {
				while (s > p && s[-1] >= '0' && s[-1] <= '9') s--;
				cur->static_smem = atoll(s);
			}
		}
		line = nl ? nl + 1 : NULL;
	}
}

/* One ".param" declaration: ".param .u64 .ptr .align 1 k_param_0" or ".param .align 64 .b8 k_param_0[128]". */
static int parse_param(const char *decl, compile_param *p)
{
	int size = 0, count = 1;
	char kind = 0;
	for (const char *t = decl; *t;) {
		while (*t == ' ' || *t == '\t') t++;
		size_t n = strcspn(t, " \t");
		if (n >= 3 && n <= 5 && t[0] == '.' && strchr("usbf", t[1]) && t[2] >= '0' && t[2] <= '9' && strspn(t + 2, "0123456789") == n - 2) {
			size = atoi(t + 2) / 8;
			kind = t[1] == 'f' ? 'f' : t[1] == 'b' ? 'b' : 'i';
		}
		t += n;
	}
	const char *br = strchr(decl, '[');
	if (br) count = atoi(br + 1);
	/* at most .b128 elements, and a kernel's parameters are at most 32 KB in all */
	if (size < 1 || size > 16 || count < 1 || count > 32768 || (long long)size * count > 32768) return -1;
	p->size = size * count;
	p->kind = br ? 'b' : kind == 'b' ? 'i' : kind;
	return 0;
}

/* The thread limit an entry's directives set between from and its body: .maxntid or .reqntid X, Y, Z
 * (__launch_bounds__) as X*Y*Z; 0 when there is none. */
static int launch_bound(const char *from, const char *body)
{
	const char *keys[] = { ".maxntid", ".reqntid" };
	for (int k = 0; k < 2 && body; k++) {
		const char *d = strstr(from, keys[k]);
		if (!d || d > body) continue;
		long long dims[3] = { 1, 1, 1 }, product = 1;
		int n = sscanf(d + 8, " %lld , %lld , %lld", &dims[0], &dims[1], &dims[2]);
		for (int i = 0; i < (n > 0 ? n : 0); i++) product = dims[i] > 0 && dims[i] <= 65536 && product * dims[i] <= 65536 ? product * dims[i] : 0;
		if (n > 0 && product > 0) return (int)product;
	}
	return 0;
}

void compile_parse_ptx_params(const char *ptx, compile_result *r)
{
	for (const char *p = ptx ? strstr(ptx, ".entry ") : NULL; p; p = strstr(p, ".entry ")) {
		p += 7;
		char name[96];
		size_t nl = strcspn(p, "( \t\n");
		strfmt(name, sizeof name, "%.*s", (int)(nl < 95 ? nl : 95), p);
		const char *open = strchr(p, '('), *body = strchr(p, '{');
		compile_entry *e = (compile_entry *)compile_find_entry(r, name);
		if (!e && r->nentries < COMPILE_MAX_ENTRIES) {
			e = &r->entries[r->nentries++];
			memset(e, 0, sizeof *e);
			strfmt(e->name, sizeof e->name, "%s", name);
		}
		if (!e) continue;
		e->nparams = 0;
		e->max_threads = launch_bound(open && (!body || open < body) && strchr(open, ')') ? strchr(open, ')') : p, body);
		if (!open || (body && open > body)) continue;   /* no parameters */
		const char *close = strchr(open, ')');
		for (const char *q = open + 1; q && close && q < close && e->nparams < COMPILE_MAX_PARAMS;) {
			const char *decl = strstr(q, ".param");
			if (!decl || decl > close) break;
			size_t dl = strcspn(decl, ",)");
			char buf[256];
			strfmt(buf, sizeof buf, "%.*s", (int)(dl < 255 ? dl : 255), decl + 6);
			if (parse_param(buf, &e->params[e->nparams]) == 0) e->nparams++;
			q = decl + dl;
		}
	}
}

const compile_entry *compile_find_entry(const compile_result *r, const char *name)
{
	for (int i = 0; i < r->nentries; i++) if (!strcmp(r->entries[i].name, name)) return &r->entries[i];
	return NULL;
}

