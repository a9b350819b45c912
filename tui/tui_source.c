/* Kernel sources: loading, syntax colouring and a line diff. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "tui_source.h"
#include "util.h"

int source_from_buffer(source_text *t, const char *buf, size_t len)
{
	size_t cap = len + 1, o = 0;
	int nlines = 1;
	memset(t, 0, sizeof *t);
	for (size_t i = 0; i < len; i++) {
		if (buf[i] == '\t') cap += 3;
		if (buf[i] == '\n') nlines++;
	}
	t->buf = xmalloc(cap);
	t->lines = xmalloc(sizeof *t->lines * (size_t)nlines);
	t->lines[t->n++] = t->buf;
	int col = 0;
	for (size_t i = 0; i < len; i++) {
		char c = buf[i];
		if (c == '\t') {
			do t->buf[o++] = ' '; while (++col % 4);
		} else if (c == '\n') {
			t->buf[o++] = 0;
			col = 0;
			t->lines[t->n++] = t->buf + o;
		} else if (c != '\r') {
			t->buf[o++] = c;
			col++;
		}
	}
	t->buf[o] = 0;
	if (t->n > 1 && t->lines[t->n - 1][0] == 0)   /* a final newline ends the last line */
		t->n--;
	t->mtime_ns = t->size = -1;
	return 0;
}

/* The file's stamp: modification time in ns and size; -1 when it cannot be read. */
static int stamp(const char *path, long long *mtime_ns, long long *size)
{
	struct stat st;
	if (stat(path, &st) < 0)
		return -1;
	*mtime_ns = (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec;
	*size = (long long)st.st_size;
	return 0;
}

int source_stale(const source_text *t, const char *path)
{
	long long m, n;
	if (stamp(path, &m, &n) < 0)
		return 1;
	return m != t->mtime_ns || n != t->size;
}

int source_define(const char *s, size_t len, source_macro *d)
{
	size_t i = 0;
	while (i < len && (s[i] == ' ' || s[i] == '\t')) i++;
	if (i >= len || s[i++] != '#')
		return 0;
	while (i < len && (s[i] == ' ' || s[i] == '\t')) i++;
	if (len - i < 7 || strncmp(s + i, "define", 6) || (s[i + 6] != ' ' && s[i + 6] != '\t'))
		return 0;
	i += 6;
	while (i < len && (s[i] == ' ' || s[i] == '\t')) i++;
	if (i >= len || !(isalpha((unsigned char)s[i]) || s[i] == '_'))
		return 0;
	d->name_off = i;
	while (i < len && (isalnum((unsigned char)s[i]) || s[i] == '_')) i++;
	d->name_len = i - d->name_off;
	if (i < len && s[i] == '(')                   /* a function-like macro */
		return 0;
	size_t end = i;
	while (i < len && (s[i] == ' ' || s[i] == '\t')) i++;
	if (i >= len || (s[i] == '/' && i + 1 < len && (s[i + 1] == '/' || s[i + 1] == '*'))) {
		d->val_off = end;                         /* no value */
		d->val_len = 0;
		return 1;
	}
	d->val_off = i;
	while (i < len && s[i] != ' ' && s[i] != '\t' &&
	       !(s[i] == '/' && i + 1 < len && (s[i + 1] == '/' || s[i + 1] == '*')))
		i++;
	d->val_len = i - d->val_off;
	return 1;
}

int source_load(source_text *t, const char *path, char *err, size_t errlen)
{
	memset(t, 0, sizeof *t);
	FILE *f = fopen(path, "rb");
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	struct stat st;                               /* before reading: a later change is seen */
	long long mtime_ns = -1, size = -1;
	if (fstat(fileno(f), &st) == 0) {
		mtime_ns = (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec;
		size = (long long)st.st_size;
	}
	size_t cap = 4096, len = 0, n;
	char *buf = xmalloc(cap);
	int big = 0;
	while ((n = fread(buf + len, 1, cap - len, f)) > 0) {
		len += n;
		if (len == cap) {
			if (cap >= (64u << 20)) { big = 1; break; }   /* a kernel file is KiB; 64 MiB is not one */
			buf = xrealloc(buf, cap *= 2);
		}
	}
	fclose(f);
	if (big || source_from_buffer(t, buf, len) < 0) {
		free(buf);
		snprintf(err, errlen, "%s: too large to show", path);
		return -1;
	}
	free(buf);
	t->mtime_ns = mtime_ns;
	t->size = size;
	return 0;
}

void source_free(source_text *t)
{
	free(t->buf);
	free(t->lines);
	memset(t, 0, sizeof *t);
}

/* C, C++ and CUDA words worth a colour, sorted for bsearch. */
static const char *const keywords[] = {
	"__constant__", "__device__", "__forceinline__", "__global__", "__host__", "__launch_bounds__",
	"__ldg", "__nv_bfloat16", "__restrict__", "__shared__", "__shfl_down_sync", "__shfl_sync",
	"__shfl_xor_sync", "__syncthreads", "__syncwarp", "asm", "atomicAdd", "auto", "blockDim",
	"blockIdx", "bool", "break", "case", "char", "class", "const", "constexpr", "continue",
	"default", "do", "double", "else", "enum", "extern", "false", "float", "float2", "float4",
	"for", "goto", "gridDim", "half", "if", "inline", "int", "int4", "int64_t", "long", "namespace",
	"nullptr", "register", "restrict", "return", "short", "signed", "size_t", "sizeof", "static",
	"static_cast", "struct", "switch", "template", "threadIdx", "true", "typedef", "typename",
	"uint32_t", "uint64_t", "union", "unsigned", "using", "void", "volatile", "warpSize", "while",
};

static int kw_cmp(const void *k, const void *e) { return strcmp(k, *(const char *const *)e); }

static int is_keyword(const char *s, size_t len)
{
	char w[32];
	if (len >= sizeof w)
		return 0;
	memcpy(w, s, len);
	w[len] = 0;
	return bsearch(w, keywords, sizeof keywords / sizeof *keywords, sizeof *keywords, kw_cmp) != NULL;
}

static int ident_start(char c) { return isalpha((unsigned char)c) || c == '_'; }
static int ident_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

void source_highlight(const char *s, size_t len, int *in_comment, unsigned char *roles)
{
	size_t i = 0;
	memset(roles, ROLE_NORMAL, len);
	if (!*in_comment) {
		size_t j = 0;
		while (j < len && s[j] == ' ') j++;
		if (j < len && s[j] == '#') {
			memset(roles + j, ROLE_PREPROC, len - j);
			/* a comment after a directive is still a comment */
			for (size_t k = j; k + 1 < len; k++)
				if (s[k] == '/' && (s[k + 1] == '/' || s[k + 1] == '*')) { i = k; break; }
			if (!i) return;
		}
	}
	while (i < len) {
		size_t st = i;
		if (*in_comment) {
			while (i < len && !(s[i] == '*' && i + 1 < len && s[i + 1] == '/')) i++;
			if (i < len) { i += 2; *in_comment = 0; }
			memset(roles + st, ROLE_COMMENT, i - st);
		} else if (s[i] == '/' && i + 1 < len && s[i + 1] == '/') {
			memset(roles + i, ROLE_COMMENT, len - i);
			return;
		} else if (s[i] == '/' && i + 1 < len && s[i + 1] == '*') {
			*in_comment = 1;
			i += 2;
			while (i < len && !(s[i] == '*' && i + 1 < len && s[i + 1] == '/')) i++;
			if (i < len) { i += 2; *in_comment = 0; }
			memset(roles + st, ROLE_COMMENT, i - st);
		} else if (s[i] == '"' || s[i] == '\'') {
			char q = s[i++];
			while (i < len && s[i] != q) i += s[i] == '\\' && i + 1 < len ? 2 : 1;
			if (i < len) i++;
			memset(roles + st, ROLE_STRING, i - st);
		} else if (isdigit((unsigned char)s[i]) ||
		           (s[i] == '.' && i + 1 < len && isdigit((unsigned char)s[i + 1]))) {
			int hex = s[i] == '0' && i + 1 < len && (s[i + 1] == 'x' || s[i + 1] == 'X');
			while (i < len) {
				if (ident_char(s[i]) || s[i] == '.')
					i++;
				else if ((s[i] == '+' || s[i] == '-') && strchr(hex ? "pP" : "eE", s[i - 1]))
					i++;            /* an exponent's sign: 1e-6, 0x1p+3 */
				else
					break;
			}
			memset(roles + st, ROLE_NUMBER, i - st);
		} else if (ident_start(s[i])) {
			while (i < len && ident_char(s[i])) i++;
			if (is_keyword(s + st, i - st))
				memset(roles + st, ROLE_KEYWORD, i - st);
		} else {
			i++;
		}
	}
}
