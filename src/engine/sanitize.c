/* sanitize: see sanitize.h. The report is read loosely (its wording moved between toolkit versions):
 * an error block starts at a line that is not indented after the "=========" prefix; its location
 * is the first "FILE.cu:LINE" in the block, its thread the "by thread (...) in block (...)" line. */
#include "sanitize.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "util.h"

#ifndef CUDA_BIN
#define CUDA_BIN "/usr/local/cuda/bin"
#endif

static const char *const names[] = { "none", "memcheck", "racecheck" };
const char *san_tool_name(san_tool t) { return (unsigned)t <= SAN_RACECHECK ? names[t] : "?"; }

int san_find(char *out, size_t n)
{
	const char *home = getenv("CUDA_HOME");
	char cand[1024];
	if (home && *home) {
		strfmt(cand, sizeof cand, "%s/bin/compute-sanitizer", home);
		if (access(cand, X_OK) == 0) { strfmt(out, n, "%s", cand); return 0; }
	}
	strfmt(cand, sizeof cand, "%s/compute-sanitizer", CUDA_BIN);
	if (access(cand, X_OK) == 0) { strfmt(out, n, "%s", cand); return 0; }
	const char *path = getenv("PATH");
	char *copy = xstrdup(path ? path : "");
	int found = -1;
	for (char *save, *d = strtok_r(copy, ":", &save); d && found; d = strtok_r(NULL, ":", &save)) {
		strfmt(cand, sizeof cand, "%s/compute-sanitizer", d);
		if (*d && access(cand, X_OK) == 0) { strfmt(out, n, "%s", cand); found = 0; }
	}
	free(copy);
	return found;
}

int san_argv(const char *tool_path, san_tool t, const char *log_path, char **argv, int cap)
{
	static char log_opt[1100];
	strfmt(log_opt, sizeof log_opt, "%s", log_path);
	char *words[] = { (char *)tool_path, "--tool", (char *)san_tool_name(t), "--log-file", log_opt, "--print-limit", "20",
	                  "--show-backtrace", "no", "--error-exitcode", "0", NULL };
	int n = 0;
	for (; words[n] && n < cap - 1; n++) argv[n] = words[n];
	argv[n] = NULL;
	return n;
}

/* The line's text after the "=========" prefix (and one space), or NULL when it has none. */
static const char *body(const char *line)
{
	if (strncmp(line, "=========", 9)) return NULL;
	line += 9;
	return *line == ' ' ? line + 1 : line;
}

/* The first "NAME.cu:LINE" or "NAME.cuh:LINE" in s (NAME without folders) into out; 0 or -1. */
static int location(const char *s, char *out, size_t n)
{
	for (const char *p = strstr(s, ".cu"); p; p = strstr(p + 1, ".cu")) {
		const char *q = p + 3;
		if (*q == 'h') q++;
		if (*q != ':' || q[1] < '0' || q[1] > '9') continue;
		const char *start = p;
		while (start > s && start[-1] != ' ' && start[-1] != '\t' && start[-1] != '(') start--;
		for (const char *k = start; k < p; k++) if (*k == '/') start = k + 1;
		size_t len = (size_t)(q + 1 + strspn(q + 1, "0123456789") - start);
		strfmt(out, n, "%.*s", (int)len, start);
		return 0;
	}
	return -1;
}

typedef struct { char head[256], loc[2][160], thread[96], addr[160], access[2][24]; int nloc, in_file; } block;

/* The first word of s, lower case ("Write" -> "write"). */
static void word(const char *s, char *out, size_t n)
{
	strfmt(out, n, "%.*s", (int)strcspn(s, " "), s);
	for (char *k = out; *k; k++) if (*k >= 'A' && *k <= 'Z') *k = (char)(*k - 'A' + 'a');
}

static void block_line(block *b, const char *text, const char *hint)
{
	char loc[160];
	const char *p = text;
	while (*p && b->nloc < 2 && location(p, loc, sizeof loc) == 0) {
		strfmt(b->loc[b->nloc++], sizeof b->loc[0], "%s", loc);
		if (hint && !strncmp(loc, hint, strlen(hint)) && loc[strlen(hint)] == ':') b->in_file = 1;
		p = strstr(p, loc) + strlen(loc);
	}
	const char *t = strstr(text, "by thread (");
	if (t && !b->thread[0]) strfmt(b->thread, sizeof b->thread, "%.*s", (int)strcspn(t + 3, "\n"), t + 3);
	const char *between = strstr(text, "between ");
	if (between && !b->access[0][0]) word(between + 8, b->access[0], sizeof b->access[0]);
	if (!strncmp(text, "and ", 4) && !b->access[1][0]) word(text + 4, b->access[1], sizeof b->access[1]);
	if (!strncmp(text, "Address ", 8) && !b->addr[0]) {
		const char *is = strstr(text, " is ");
		strfmt(b->addr, sizeof b->addr, "the address%s", is ? is : "");
	}
}

int san_parse(san_tool t, const char *report, const char *file_hint, char *out, size_t n)
{
	const char *hint = NULL;
	if (file_hint) { hint = strrchr(file_hint, '/'); hint = hint ? hint + 1 : file_hint; }
	block cur, best;
	int have_cur = 0, have_best = 0, seen = 0, summary = 0;
	char *copy = xstrdup(report ? report : "");
	memset(&best, 0, sizeof best);
	for (char *save, *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		const char *b = body(line);
		if (!b) continue;
		seen = 1;
		if (strstr(b, "SUMMARY:")) { summary = 1; continue; }
		int indented = *b == ' ' || *b == '\t';
		if (!indented && *b && strncmp(b, "COMPUTE-SANITIZER", 17) && strncmp(b, "Program hit", 11) && strncmp(b, "Target application", 18)) {
			if (have_cur && (!have_best || (cur.in_file && !best.in_file))) { best = cur; have_best = 1; }
			memset(&cur, 0, sizeof cur);
			strfmt(cur.head, sizeof cur.head, "%s", b);
			have_cur = 1;
			block_line(&cur, b, hint);
		} else if (have_cur && indented) {
			while (*b == ' ' || *b == '\t') b++;
			block_line(&cur, b, hint);
		}
	}
	if (have_cur && (!have_best || (cur.in_file && !best.in_file))) { best = cur; have_best = 1; }
	free(copy);
	if (!seen) { strfmt(out, n, "%s produced no report", san_tool_name(t)); return -1; }
	if (!have_best) {
		strfmt(out, n, t == SAN_RACECHECK ? "racecheck found no race in shared memory%s" : "memcheck found no invalid access%s",
		       summary ? "" : " (its report has no summary: it may have stopped early)");
		return 0;
	}
	if (t == SAN_RACECHECK && strstr(best.head, "Race reported between")) {
		strfmt(out, n, "racecheck: a race in shared memory between a %s at %s and a %s at %s (a barrier missing between them?)",
		       best.access[0][0] ? best.access[0] : "access", best.nloc > 0 ? best.loc[0] : "?",
		       best.access[1][0] ? best.access[1] : "access", best.nloc > 1 ? best.loc[1] : best.nloc ? best.loc[0] : "?");
		return 1;
	}
	char head[256];
	strfmt(head, sizeof head, "%s", best.head);
	if (head[0] >= 'A' && head[0] <= 'Z' && head[1] >= 'a' && head[1] <= 'z') head[0] = (char)(head[0] - 'A' + 'a');
	strfmt(out, n, "%s: %s%s%s%s%s%s%s", san_tool_name(t), head, best.nloc ? " at " : "", best.nloc ? best.loc[0] : "",
	       best.thread[0] ? ", " : "", best.thread, best.addr[0] ? ": " : "", best.addr);
	return 1;
}
