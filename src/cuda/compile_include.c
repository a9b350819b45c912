/* compile_include: every file a compile would include, found as NVRTC's preprocessor finds it,
 * checked and read once (see compile.h). Three passes over a text: line splices out (with a map back
 * to the lines as written), comments out (strings, raw strings, character literals, numbers with
 * digit separators and <header-names> kept whole, so that no text hides an #include from the scan),
 * then the directives #include, #include_next, #import and __has_include followed. */
#include "compile.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "util.h"

enum { SCAN_MAX_DEPTH = 32 };

/* ---- text: splices and comments out ---- */

/* A text as the preprocessor's directives see it: logical lines, no comments; line[k] is the line as
 * written where logical line k starts. */
typedef struct { char *s; size_t len; int *line; int nlines; } clean_text;

static int ident_char(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; }

/* Copies from t[i] a literal closed by q (a string or a character literal: backslash escapes, ends at
 * the quote or before a newline); returns the index after it. */
static size_t copy_literal(sb *b, const char *t, size_t n, size_t i, char q)
{
	size_t s = i++;
	while (i < n && t[i] != '\n' && t[i] != q) i += t[i] == '\\' && i + 1 < n && t[i + 1] != '\n' ? 2 : 1;
	if (i < n && t[i] == q) i++;
	sb_addn(b, t + s, i - s);
	return i;
}

/* Copies from t[i] (at the quote of R"d(...)d") a raw string; returns the index after it. Its
 * newlines are kept, so the line map stays right. */
static size_t copy_raw(sb *b, const char *t, size_t n, size_t i)
{
	size_t s = i, d = i + 1;
	while (d < n && d - i <= 17 && t[d] != '(' && t[d] != '\n') d++;
	if (d >= n || t[d] != '(') return copy_literal(b, t, n, i, '"');
	size_t dl = d - i - 1;
	for (size_t k = d + 1; k < n; k++)
		if (t[k] == ')' && k + dl + 1 < n && !memcmp(t + k + 1, t + i + 1, dl) && t[k + dl + 1] == '"') {
			sb_addn(b, t + s, k + dl + 2 - s);
			return k + dl + 2;
		}
	sb_addn(b, t + s, n - s);
	return n;
}

/* The text without splices, comments; see clean_text. */
static void clean_make(const char *t, size_t n, clean_text *c)
{
	/* pass 1: backslash-newline out; starts[k] = the written line of the k-th line left */
	char *s1 = xmalloc(n + 1);
	int *starts = xmalloc(sizeof(int) * (n + 2)), n1 = 0, line = 1;
	size_t m = 0;
	starts[n1++] = 1;
	for (size_t i = 0; i < n; i++) {
		if (t[i] == '\\' && i + 1 < n && t[i + 1] == '\n') { i++; line++; continue; }
		if (t[i] == '\\' && i + 2 < n && t[i + 1] == '\r' && t[i + 2] == '\n') { i += 2; line++; continue; }
		s1[m++] = t[i];
		if (t[i] == '\n') starts[n1++] = ++line;
	}
	/* pass 2: comments become a space; logical line k starts at starts[l1] */
	sb b = {0};
	c->line = xmalloc(sizeof(int) * (size_t)(n1 + 1));
	c->nlines = 0;
	c->line[c->nlines++] = starts[0];
	int l1 = 0, bol = 1;   /* l1: the pass-1 line at i; bol: only blanks since the logical line began */
	for (size_t i = 0; i < m;) {
		char ch = s1[i];
		if (ch == '\n') { sb_addn(&b, "\n", 1); c->line[c->nlines++] = starts[++l1]; i++; bol = 1; continue; }
		if (ch == '/' && i + 1 < m && s1[i + 1] == '*') {
			for (i += 2; i < m && !(s1[i] == '*' && i + 1 < m && s1[i + 1] == '/'); i++) if (s1[i] == '\n') l1++;
			i = i < m ? i + 2 : m;
			sb_addn(&b, " ", 1);
			continue;
		}
		if (ch == '/' && i + 1 < m && s1[i + 1] == '/') { while (i < m && s1[i] != '\n') i++; continue; }
		if (ch == '"') { i = copy_literal(&b, s1, m, i, '"'); bol = 0; continue; }
		if (ch == '\'') { i = copy_literal(&b, s1, m, i, '\''); bol = 0; continue; }
		if ((ch >= '0' && ch <= '9') || (ch == '.' && i + 1 < m && s1[i + 1] >= '0' && s1[i + 1] <= '9')) {
			size_t s = i++;   /* a pp-number: 1'000'000, 0x1p-3 */
			while (i < m && (ident_char(s1[i]) || s1[i] == '.' || (s1[i] == '\'' && i + 1 < m && ident_char(s1[i + 1])) ||
			                 ((s1[i] == '+' || s1[i] == '-') && strchr("eEpP", s1[i - 1]))))
				i++;
			sb_addn(&b, s1 + s, i - s);
			bol = 0;
			continue;
		}
		if (ident_char(ch)) {
			size_t s = i;
			while (i < m && ident_char(s1[i])) i++;
			size_t il = i - s;
			sb_addn(&b, s1 + s, il);
			if (i < m && s1[i] == '"' && s1[i - 1] == 'R' && (il == 1 || (il == 2 && strchr("uUL", s1[s])) || (il == 3 && !memcmp(s1 + s, "u8", 2))))
				i = copy_raw(&b, s1, m, i);
			else if (i < m && (s1[i] == '"' || s1[i] == '\'')) i = copy_literal(&b, s1, m, i, s1[i]);
			else if ((il == 13 && !memcmp(s1 + s, "__has_include", 13)) || (il == 18 && !memcmp(s1 + s, "__has_include_next", 18)) ||
			         (bol && ((il == 7 && !memcmp(s1 + s, "include", 7)) || (il == 12 && !memcmp(s1 + s, "include_next", 12)) ||
			                  (il == 6 && !memcmp(s1 + s, "import", 6))))) {
				/* a <header-name> may follow (after blanks, comments, a parenthesis): kept whole, a
				 * comment opener in it too, as the preprocessor reads it */
				size_t k = i;
				int nl = 0, paren = 0;
				for (;;) {
					if (k < m && (s1[k] == ' ' || s1[k] == '\t' || s1[k] == '(')) { paren |= s1[k] == '('; k++; continue; }
					if (k + 1 < m && s1[k] == '/' && s1[k + 1] == '*') {
						for (k += 2; k < m && !(s1[k] == '*' && k + 1 < m && s1[k + 1] == '/'); k++) nl += s1[k] == '\n';
						k = k < m ? k + 2 : m;
						continue;
					}
					break;
				}
				if (k < m && s1[k] == '<') {
					sb_addn(&b, paren ? " (" : " ", paren ? 2 : 1);
					size_t s2 = k;
					while (k < m && s1[k] != '>' && s1[k] != '\n') k++;
					if (k < m && s1[k] == '>') k++;
					sb_addn(&b, s1 + s2, k - s2);
					l1 += nl;
					i = k;
				}
			}
			bol = 0;
			continue;
		}
		if (ch != ' ' && ch != '\t' && ch != '\r' && ch != '\f' && ch != '\v' && ch != '#' && ch != '%' && ch != ':') bol = 0;
		sb_addn(&b, &ch, 1);
		i++;
	}
	free(s1);
	free(starts);
	c->s = b.s ? b.s : xstrdup("");
	c->len = b.len;
}

/* ---- the scan ---- */

typedef struct {
	const compile_request *rq;
	const char *const *dirs; int ndirs, ntool;
	char *roots[COMPILE_MAX_PARAMS + 8]; int nroots;   /* an untrusted compile's files must be under one */
	char *paths[COMPILE_INCLUDE_MAX_FILES]; int npaths;   /* the files read, as found */
	compile_includes *out;
} scan;

static void scan_text(scan *sc, const char *shown, const char *from_dir, const char *text, size_t len, int depth);

/* The folder part of path ("." for a bare name), a new string. */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? xstrndup(path, slash == path ? 1 : (size_t)(slash - path)) : xstrdup(".");
}

/* 1 when name has a ".." part. */
static int has_dotdot(const char *name)
{
	for (const char *p = name; (p = strstr(p, "..")); p += 2)
		if ((p == name || p[-1] == '/') && (p[2] == 0 || p[2] == '/')) return 1;
	return 0;
}

/* Records the first refusal: "shown:line: #include "name": why: refused" (open: '"', '<', or 0 for a
 * macro's name). */
static void refuse(scan *sc, const char *shown, int line, const char *name, char open, const char *why)
{
	if (sc->out->error) return;
	if (!open) { sc->out->error = xasprintf("%s:%d: #include %s: %s: refused", shown, line, name, why); return; }   /* a macro */
	char close = open == '<' ? '>' : '"';
	sc->out->error = xasprintf("%s:%d: #include %c%s%c: %s: refused", shown, line, open, name, close, why);
}

/* 1 when the real path rp is under one of the untrusted compile's roots. */
static int under_root(const scan *sc, const char *rp)
{
	for (int i = 0; i < sc->nroots; i++) {
		size_t l = strlen(sc->roots[i]);
		if (!strncmp(rp, sc->roots[i], l) && (rp[l] == '/' || rp[l] == 0 || (l == 1 && sc->roots[i][0] == '/'))) return 1;
	}
	return 0;
}

/* Opens and reads the file at p, refused unless it is a regular file within the bounds (and for an
 * untrusted compile, under a root). The text (NUL-terminated) or NULL with why. */
static char *read_checked(scan *sc, const char *p, size_t *len, char *why, size_t wn)
{
	int fd = open(p, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ELOOP) strfmt(why, wn, "a symbolic link, not followed");
		else strfmt(why, wn, "cannot be opened: %s", strerror(errno));
		return NULL;
	}
	struct stat st;
	char *buf = NULL;
	if (fstat(fd, &st) != 0) { strfmt(why, wn, "cannot be read: %s", strerror(errno)); goto out; }
	if (S_ISFIFO(st.st_mode)) { strfmt(why, wn, "a FIFO, not a regular file"); goto out; }
	if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) { strfmt(why, wn, "a device, not a regular file"); goto out; }
	if (S_ISSOCK(st.st_mode)) { strfmt(why, wn, "a socket, not a regular file"); goto out; }
	if (S_ISDIR(st.st_mode)) { strfmt(why, wn, "a folder, not a regular file"); goto out; }
	if (!S_ISREG(st.st_mode)) { strfmt(why, wn, "not a regular file"); goto out; }
	if ((uint64_t)st.st_size > COMPILE_INCLUDE_MAX_BYTES) {
		strfmt(why, wn, "%lld bytes, over the %d MiB an included file may have", (long long)st.st_size, (int)(COMPILE_INCLUDE_MAX_BYTES >> 20));
		goto out;
	}
	if (sc->out->total + (size_t)st.st_size > COMPILE_INCLUDE_MAX_TOTAL) {
		strfmt(why, wn, "the included files pass %d MiB in all", (int)(COMPILE_INCLUDE_MAX_TOTAL >> 20));
		goto out;
	}
	if (sc->rq->untrusted) {   /* where the open file really is (a folder on the way may be a link) */
		char fdp[64], rp[PATH_MAX];
		strfmt(fdp, sizeof fdp, "/proc/self/fd/%d", fd);
		ssize_t rl = readlink(fdp, rp, sizeof rp - 1);
		if (rl <= 0) { strfmt(why, wn, "where it is cannot be told: %s", strerror(errno)); goto out; }
		rp[rl] = 0;
		if (!under_root(sc, rp)) { strfmt(why, wn, "%s is outside your folder, the lesson tree and the toolkit", rp); goto out; }
	}
	size_t cap = (size_t)st.st_size + 1, got = 0;
	buf = xmalloc(cap + 1);
	for (;;) {
		ssize_t r = read(fd, buf + got, cap - got);
		if (r < 0 && errno == EINTR) continue;
		if (r < 0) { strfmt(why, wn, "cannot be read: %s", strerror(errno)); free(buf); buf = NULL; goto out; }
		if (r == 0) break;
		got += (size_t)r;
		if (got == cap) { strfmt(why, wn, "grew while it was read"); free(buf); buf = NULL; goto out; }
	}
	buf[got] = 0;
	*len = got;
	sc->out->total += got;
out:
	close(fd);
	return buf;
}

/* Adds the header text under name (NVRTC's in-memory headers are named as the #include writes them).
 * 0, or -1 when name already stands for another file. */
static int add_header(scan *sc, const char *name, const char *path, const char *text, size_t len)
{
	compile_includes *o = sc->out;
	for (int i = 0; i < o->nheaders; i++)
		if (!strcmp(o->headers[i].name, name)) return strcmp(o->headers[i].path, path) ? -1 : 0;
	if (o->nheaders % 16 == 0) o->headers = xrealloc(o->headers, (size_t)(o->nheaders + 16) * sizeof *o->headers);
	compile_header *h = &o->headers[o->nheaders++];
	h->name = xstrdup(name);
	h->path = xstrdup(path);
	h->text = xstrndup(text, len);
	h->len = len;
	return 0;
}

/* Follows one include of name (open: '"' looks in from_dir first, '<' not) on line of the file shown. */
static void scan_include(scan *sc, const char *shown, int line, const char *name, char open, int probe, const char *from_dir, int depth)
{
	compile_includes *o = sc->out;
	int untrusted = sc->rq->untrusted, odd = name[0] == '/' || has_dotdot(name);
	if (untrusted && name[0] == '/') { refuse(sc, shown, line, name, open, "an absolute path (a kernel includes only files beside it, the lesson's and the toolkit's)"); return; }
	if (untrusted && odd) { refuse(sc, shown, line, name, open, "a path with \"..\" (a kernel includes only files beside it, the lesson's and the toolkit's)"); return; }
	for (int i = open == '"' ? -1 : 0; i < sc->ndirs; i++) {
		const char *d = i < 0 ? from_dir : sc->dirs[i];
		char *p = name[0] == '/' ? xstrdup(name) : xasprintf("%s/%s", d, name);
		struct stat st;
		if (lstat(p, &st) != 0) { free(p); if (name[0] == '/') break; continue; }
		if ((i == sc->ntool || i == sc->ntool + 1) && !odd) {   /* the toolkit's: NVRTC's version stands for it */
			compile_include_key_add(o->key, "|tool|", 6);
			compile_include_key_add(o->key, name, strlen(name));
			free(p);
			return;
		}
		compile_include_key_add(o->key, "|file|", 6);
		compile_include_key_add(o->key, p, strlen(p));
		for (int k = 0; k < sc->npaths; k++)
			if (!strcmp(sc->paths[k], p)) {   /* read already: the same text under this name too */
				for (int h = 0; h < o->nheaders; h++)
					if (!strcmp(o->headers[h].path, p)) {
						char *t = xstrndup(o->headers[h].text, o->headers[h].len);
						if (add_header(sc, name, p, t, o->headers[h].len))
							refuse(sc, shown, line, name, open, "another file is included under the same name");
						free(t);
						break;
					}
				free(p);
				return;
			}
		char why[PATH_MAX + 128];
		if (sc->npaths == COMPILE_INCLUDE_MAX_FILES) strfmt(why, sizeof why, "more than %d files included", COMPILE_INCLUDE_MAX_FILES);
		else if (depth >= SCAN_MAX_DEPTH) strfmt(why, sizeof why, "includes nested deeper than %d", SCAN_MAX_DEPTH);
		else why[0] = 0;
		size_t len = 0;
		char *text = why[0] ? NULL : read_checked(sc, p, &len, why, sizeof why);
		if (!text) { refuse(sc, shown, line, name, open, why); free(p); return; }
		sc->paths[sc->npaths++] = p;
		compile_include_key_add(o->key, text, len);
		if (add_header(sc, name, p, text, len)) refuse(sc, shown, line, name, open, "another file is included under the same name");
		char *dir = dir_of(p);
		scan_text(sc, p, dir, text, len, depth + 1);
		free(dir);
		free(text);
		return;
	}
	compile_include_key_add(o->key, "|missing|", 9);
	compile_include_key_add(o->key, name, strlen(name));
	if (open == '"') compile_include_key_add(o->key, from_dir, strlen(from_dir));
	/* NVRTC would look for it again, in the includer's folder: in a learner's compile, that look must
	 * not find what the scan did not check */
	if (untrusted && open == '"' && !probe) refuse(sc, shown, line, name, open, "not found beside the file, in the lesson's folder or in the toolkit");
}

/* The operand at p (after the directive's name, or __has_include's parenthesis) followed; p at the
 * operand's first character. */
static void scan_operand(scan *sc, const char *shown, int line, const char *p, const char *le, int probe, const char *from_dir, int depth)
{
	while (p < le && (*p == ' ' || *p == '\t' || *p == '(')) p++;
	if (p == le || (*p != '"' && *p != '<')) {
		const char *e = p;
		while (e < le && e - p < 64 && !strchr(" \t\r", *e)) e++;
		char *what = xstrndup(p, (size_t)(e - p));
		if (sc->rq->untrusted) refuse(sc, shown, line, what, 0, "an #include of a macro cannot be checked");
		free(what);
		return;
	}
	char close = *p == '"' ? '"' : '>';
	const char *q = memchr(p + 1, close, (size_t)(le - p - 1));
	if (!q || q == p + 1) return;
	if (q - p > 1024) { refuse(sc, shown, line, "...", *p, "a name over 1024 characters"); return; }
	char *name = xstrndup(p + 1, (size_t)(q - p - 1));
	scan_include(sc, shown, line, name, *p, probe, from_dir, depth);
	free(name);
}

/* Every directive of text (the file shown so in messages, in from_dir) followed. */
static void scan_text(scan *sc, const char *shown, const char *from_dir, const char *text, size_t len, int depth)
{
	clean_text c;
	clean_make(text, len, &c);
	const char *end = c.s + c.len;
	int k = 0;
	for (const char *line = c.s; line < end && !sc->out->error; k++) {
		const char *nl = memchr(line, '\n', (size_t)(end - line));
		const char *le = nl ? nl : end, *p = line;
		int at = c.line[k < c.nlines ? k : c.nlines - 1];
		line = nl ? nl + 1 : end;
		for (const char *h = p; (h = memmem(h, (size_t)(le - h), "__has_include", 13)); h += 13) {
			if (h > p && ident_char(h[-1])) continue;
			const char *a = h + 13;
			if (le - a >= 5 && !memcmp(a, "_next", 5)) a += 5;
			if (a < le && ident_char(*a)) continue;
			const char *ie = a;                  /* the identifier's end */
			while (a < le && (*a == ' ' || *a == '\t')) a++;
			if (a < le && *a == '(') scan_operand(sc, shown, at, a + 1, le, 1, from_dir, depth);
			else if (sc->rq->untrusted && !sc->out->error)   /* `#define P __has_include`, then P("/abs"): unseen */
				sc->out->error = xasprintf("%s:%d: %.*s without its parenthesis (behind a macro) cannot be checked: refused", shown, at,
				                           (int)(ie - h), h);
		}
		while (p < le && strchr(" \t\r\f\v", *p)) p++;
		if (p < le && *p == '#') p++;
		else if (le - p >= 2 && p[0] == '%' && p[1] == ':') p += 2;
		else continue;
		while (p < le && strchr(" \t\r\f\v", *p)) p++;
		const char *w = p;
		while (p < le && ident_char(*p)) p++;
		size_t wl = (size_t)(p - w);
		if ((wl == 7 && !memcmp(w, "include", 7)) || (wl == 12 && !memcmp(w, "include_next", 12)) || (wl == 6 && !memcmp(w, "import", 6)))
			scan_operand(sc, shown, at, p, le, 0, from_dir, depth);
	}
	free(c.s);
	free(c.line);
}

void compile_include_scan(const compile_request *rq, const char *const *dirs, int ndirs, int ntool, const char *src, size_t len,
                          compile_includes *out)
{
	scan sc = { .rq = rq, .dirs = dirs, .ndirs = ndirs, .ntool = ntool, .out = out };
	if (rq->untrusted) {   /* the learner's folder, the lesson tree, the toolkit, the stage's -I folders */
		char *own = dir_of(rq->kernel_path), *tree = dir_of(rq->include_dir);
		const char *cand[COMPILE_MAX_PARAMS + 8];
		int nc = 0;
		cand[nc++] = own;
		cand[nc++] = tree;
		/* the shared folders after the kernel's (kernels/common; the shipped one for an added tree's lesson) */
		for (int i = 1; i < ntool && nc < (int)(sizeof cand / sizeof *cand); i++) cand[nc++] = dirs[i];
		for (int i = ntool; i < ndirs && nc < (int)(sizeof cand / sizeof *cand); i++) cand[nc++] = dirs[i];
		for (int i = 0; i < nc; i++) {
			char *r = realpath(cand[i], NULL);
			if (r) sc.roots[sc.nroots++] = r;
		}
		free(own);
		free(tree);
	}
	char *from = dir_of(rq->kernel_path);
	scan_text(&sc, rq->kernel_path, from, src, len, 0);
	free(from);
	for (int i = 0; i < sc.npaths; i++) free(sc.paths[i]);
	for (int i = 0; i < sc.nroots; i++) free(sc.roots[i]);
}

void compile_include_key_add(sha256_ctx *c, const void *p, size_t n)
{
	if (!c) return;
	unsigned char len[8];
	for (int i = 0; i < 8; i++) len[i] = (unsigned char)((uint64_t)n >> (8 * i));
	sha256_update(c, len, sizeof len);
	sha256_update(c, p, n);
}

void compile_include_free(compile_includes *inc)
{
	for (int i = 0; i < inc->nheaders; i++) { free(inc->headers[i].name); free(inc->headers[i].path); free(inc->headers[i].text); }
	free(inc->headers);
	free(inc->error);
	memset(inc, 0, sizeof *inc);
}
