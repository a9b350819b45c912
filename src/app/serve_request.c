/* serve_request: one request line of the lab service's wire read into its parts (serve.h), with no
 * state and no I/O, so that it is tested and fuzzed alone. Every field is checked to its last byte:
 * numbers are digits only, names and ids have their own alphabets, and nothing may follow. */
#include <stdlib.h>
#include <string.h>
#include "labwire.h"
#include "serve.h"
#include "util.h"

/* The next space-separated word of *p into out (at most n - 1 bytes); -1 when there is none or it
 * is longer. */
static int word(const char **p, char *out, size_t n)
{
	const char *s = *p;
	if (*s != ' ') return -1;
	s++;
	size_t k = strcspn(s, " ");
	if (k == 0 || k >= n) return -1;
	memcpy(out, s, k);
	out[k] = 0;
	*p = s + k;
	return 0;
}

/* A whole number of at most max, digits only. */
static int whole(const char *s, unsigned long long max, unsigned long long *out)
{
	if (!*s || strlen(s) > 19 || strspn(s, "0123456789") != strlen(s)) return -1;
	*out = strtoull(s, NULL, 10);
	return *out <= max ? 0 : -1;
}

/* Seconds: digits, at most one '.', then digits; at most 1e6. */
static int seconds(const char *s, double *out)
{
	size_t d = strspn(s, "0123456789");
	if (d == 0 || d > 7) return -1;
	if (s[d] == '.') { size_t f = strspn(s + d + 1, "0123456789"); if (f == 0 || s[d + 1 + f]) return -1; }
	else if (s[d]) return -1;
	*out = strtod(s, NULL);
	return *out <= 1e6 ? 0 : -1;
}

static int ident(const char *s)
{
	return *s && strlen(s) <= 64 && strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_") == strlen(s);
}

static int fail(serve_request *r, const char *why)
{
	r->kind = SR_BAD;
	r->why = why;
	return -1;
}

int serve_request_parse(const char *line, int files, serve_request *r)
{
	memset(r, 0, sizeof *r);
	char w[LABWIRE_NAME_MAX + 8];
	unsigned long long v;
	if (files) {
		const char *p = line + 4;
		if (strncmp(line, "file", 4) || word(&p, w, sizeof w)) return fail(r, "expected: file NAME LENGTH");
		if (!labwire_name_ok(w))
			return fail(r, "a file's name is a relative path of letters, digits, '.', '_', '-' (no '..', no hidden files, two folders deep at most)");
		strfmt(r->name, sizeof r->name, "%s", w);
		if (word(&p, w, sizeof w) || *p || whole(w, 1ULL << 40, &v)) return fail(r, "expected: file NAME LENGTH");
		if (v > LABWIRE_FILE_MAX) return fail(r, "a file is over 256 KiB");
		r->len = (size_t)v;
		r->kind = SR_FILE;
		return 0;
	}
	if (!strcmp(line, "status")) { r->kind = SR_STATUS; return 0; }
	if (!strcmp(line, "ping")) { r->kind = SR_PING; return 0; }
	if (!strcmp(line, "done")) { r->kind = SR_DONE; return 0; }
	if (!strncmp(line, "length ", 7)) {
		const char *p = line + 6;
		if (word(&p, w, sizeof w) || *p || strlen(w) != 32 || strspn(w, "0123456789abcdef") != 32) return fail(r, "length takes a GPU's UUID (32 hex digits)");
		strfmt(r->uuid, sizeof r->uuid, "%s", w);
		r->kind = SR_LENGTH;
		return 0;
	}
	if (!strncmp(line, "lease ", 6)) {
		const char *p = line + 5;
		if (word(&p, w, sizeof w) || strlen(w) != 32 || strspn(w, "0123456789abcdef") != 32) return fail(r, "a GPU's UUID is 32 hex digits");
		strfmt(r->uuid, sizeof r->uuid, "%s", w);
		if (word(&p, w, sizeof w) || seconds(w, &r->expect_s))
			return fail(r, "lease takes a GPU's UUID and the seconds expected: lease UUID SECONDS");
		if (*p) {
			if (word(&p, w, sizeof w) || strcmp(w, "for") || word(&p, w, sizeof w) || *p || whole(w, 0xfffffffeULL, &v))
				return fail(r, "lease takes a GPU's UUID and the seconds expected, then at most: for UID");
			r->has_for = 1;
			r->for_uid = (unsigned)v;
		}
		r->kind = SR_LEASE;
		return 0;
	}
	if (!strncmp(line, "submit ", 7)) {
		const char *p = line + 6;
		if (word(&p, w, sizeof w) || !ident(w)) return fail(r, "submit takes COURSE LESSON/STAGE NFILES (a course id is [a-z0-9_])");
		strfmt(r->course, sizeof r->course, "%s", w);
		char *slash;
		if (word(&p, w, sizeof w) || !(slash = strchr(w, '/'))) return fail(r, "an exercise is LESSON/STAGE");
		*slash = 0;
		if (!ident(w) || !ident(slash + 1)) return fail(r, "an exercise is LESSON/STAGE, each [a-z0-9_]");
		*slash = '/';
		strfmt(r->exercise, sizeof r->exercise, "%s", w);
		if (word(&p, w, sizeof w) || *p || whole(w, 1000, &v)) return fail(r, "submit takes COURSE LESSON/STAGE NFILES");
		if (v < 1 || v > LABWIRE_FILES_MAX) return fail(r, "a submission has 1 to 16 files");
		r->nfiles = (int)v;
		r->kind = SR_SUBMIT;
		return 0;
	}
	return fail(r, "unknown request (lease, submit, status, length)");
}
