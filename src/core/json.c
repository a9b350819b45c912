/* json: see json.h. */
#include "json.h"
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include "util.h"

static void json_number(FILE *f, double d)
{
	if (isfinite(d)) fprintf(f, "%.17g", d);
	else fputs("null", f);
}

/* A findings field: its text form under its own name (what older readers know), then the
 * structures as "findings": [{"rule", "severity", "title", "text", "evidence": {name: value}}]. */
static void json_findings(FILE *f, const run_findings *fs)
{
	char *text = run_findings_text(fs);
	json_string(f, text);
	free(text);
	fputs(", \"findings\": [", f);
	for (int i = 0; i < fs->n && i < RUN_FINDINGS_MAX; i++) {
		const diag_finding *d = &fs->f[i];
		fputs(i ? ", {\"rule\": " : "{\"rule\": ", f);
		json_string(f, d->rule);
		fputs(", \"severity\": ", f);
		json_string(f, diag_severity_name(d->severity));
		fputs(", \"title\": ", f);
		json_string(f, d->title);
		fputs(", \"text\": ", f);
		json_string(f, d->text);
		fputs(", \"evidence\": {", f);
		for (int k = 0; k < d->nevidence && k < DIAG_EVIDENCE_MAX; k++) {
			if (k) fputs(", ", f);
			json_string(f, d->evidence[k].name);
			fputs(": ", f);
			json_number(f, d->evidence[k].value);
		}
		fputs("}}", f);
	}
	fputc(']', f);
}

/* The length of the well-formed UTF-8 sequence of a non-ASCII character at p (RFC 3629: no overlong
 * form, no surrogate, nothing past U+10FFFF), else 0. */
static int utf8_len(const unsigned char *p)
{
	int n = p[0] >= 0xc2 && p[0] <= 0xdf ? 2 : p[0] >= 0xe0 && p[0] <= 0xef ? 3 : p[0] >= 0xf0 && p[0] <= 0xf4 ? 4 : 0;
	unsigned lo = 0x80, hi = 0xbf;   /* the bounds of the second byte */
	if (p[0] == 0xe0) lo = 0xa0;
	else if (p[0] == 0xed) hi = 0x9f;
	else if (p[0] == 0xf0) lo = 0x90;
	else if (p[0] == 0xf4) hi = 0x8f;
	if (!n || p[1] < lo || p[1] > hi) return 0;
	for (int i = 2; i < n; i++) if ((p[i] & 0xc0) != 0x80) return 0;
	return n;
}

void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"': fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\n': fputs("\\n", f); break;
		case '\r': fputs("\\r", f); break;
		case '\t': fputs("\\t", f); break;
		default:
			/* C0, DEL and C1 (U+0080-U+009F in UTF-8) as escapes: JSON read in a terminal drives nothing */
			if (*p < 0x20 || *p == 0x7f) { fprintf(f, "\\u%04x", *p); break; }
			if (*p < 0x80) { fputc(*p, f); break; }
			int n = utf8_len(p);
			if (!n) { fputs("\\ufffd", f); break; }   /* not UTF-8 (a learner's bytes in a compile log): JSON must be */
			if (n == 2 && *p == 0xc2 && p[1] <= 0x9f) fprintf(f, "\\u%04x", p[1]);
			else if (n == 2 && util_invisible_len((const char *)p)) fprintf(f, "\\u%04x", (unsigned)(*p & 0x1f) << 6 | (p[1] & 0x3f));
			else if (n == 3 && util_invisible_len((const char *)p)) fprintf(f, "\\u%04x", (unsigned)(*p & 0x0f) << 12 | (unsigned)(p[1] & 0x3f) << 6 | (p[2] & 0x3f));
			else fwrite(p, 1, (size_t)n, f);
			p += n - 1;
		}
	}
	fputc('"', f);
}

void json_object(FILE *f, const field *fs, int n, const void *obj, const char *extra_key, const char *extra_value)
{
	fputc('{', f);
	json_members(f, fs, n, obj);
	if (extra_key && extra_value) {
		fputs(", ", f);
		json_string(f, extra_key);
		fputs(": ", f);
		json_string(f, extra_value);
	}
	fputc('}', f);
}

void json_members(FILE *f, const field *fs, int n, const void *obj)
{
	const char *base = obj;
	for (int i = 0; i < n; i++) {
		const void *p = base + fs[i].offset;
		if (i) fputs(", ", f);
		json_string(f, fs[i].name);
		fputs(": ", f);
		switch (fs[i].type) {
		case FT_INT: fprintf(f, "%d", *(const int *)p); break;
		case FT_BOOL: fputs(*(const int *)p ? "true" : "false", f); break;
		case FT_I64: fprintf(f, "%lld", (long long)*(const int64_t *)p); break;
		case FT_U64: fprintf(f, "%llu", (unsigned long long)*(const uint64_t *)p); break;
		case FT_DBL: json_number(f, *(const double *)p); break;
		case FT_STR: json_string(f, (const char *)p); break;
		case FT_FINDINGS: json_findings(f, p); break;
		case FT_STATUS: json_string(f, run_status_name(*(const run_status *)p)); break;
		case FT_U3: {
			const unsigned *u = p;
			fprintf(f, "\"%u,%u,%u\"", u[0], u[1], u[2]);
			break;
		}
		}
	}
}

void json_steps(FILE *f, const run_result *r)
{
	fputc('[', f);
	for (int i = 0; i < r->nsteps; i++) {
		if (i) fputs(", ", f);
		json_object(f, run_step_fields, run_step_nfields, &r->steps[i], NULL, NULL);
	}
	fputc(']', f);
}
