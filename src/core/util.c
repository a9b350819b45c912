/* util: see util.h. */
#include "util.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static void (*fatal_hook)(void);

void util_on_fatal(void (*fn)(void)) { fatal_hook = fn; }

static void oom(size_t n)
{
	if (fatal_hook) fatal_hook();   /* e.g. the TUI gives the terminal back first */
	fprintf(stderr, "cudaclimb: out of memory (%zu bytes)\n", n);
	abort();
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p) oom(n);
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p) oom(n * size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p) oom(n);
	return p;
}

char *xstrdup(const char *s)
{
	return s ? xstrndup(s, strlen(s)) : NULL;
}

char *xstrndup(const char *s, size_t n)
{
	char *d = xmalloc(n + 1);
	memcpy(d, s, n);
	d[n] = 0;
	return d;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = NULL;
	if (vasprintf(&s, fmt, ap) < 0) oom(strlen(fmt));
	va_end(ap);
	return s;
}

void sb_addn(sb *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		b->cap = (b->len + n + 1) * 2;
		b->s = xrealloc(b->s, b->cap);
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = 0;
}

void sb_add(sb *b, const char *s)
{
	sb_addn(b, s, strlen(s));
}

void sb_addf(sb *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = NULL;
	int n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0) oom(strlen(fmt));
	sb_addn(b, s, (size_t)n);
	free(s);
}

char *sb_take(sb *b)
{
	char *s = b->s ? b->s : xstrdup("");
	b->s = NULL;
	b->len = b->cap = 0;
	return s;
}

void sb_free(sb *b)
{
	free(b->s);
	b->s = NULL;
	b->len = b->cap = 0;
}

void strfmt(char *dst, size_t n, const char *fmt, ...)
{
	if (!n) return;
	va_list ap;
	va_start(ap, fmt);
	int r = vsnprintf(dst, n, fmt, ap);
	va_end(ap);
	if (r < 0) dst[0] = 0;
}

char *file_read(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f) return NULL;
	sb b = {0};
	char buf[65536];
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, f)) > 0) sb_addn(&b, buf, n);
	int bad = ferror(f);
	fclose(f);
	if (bad) { sb_free(&b); errno = EIO; return NULL; }
	if (len) *len = b.len;
	return sb_take(&b);
}

int file_write_atomic(const char *path, const void *data, size_t len)
{
	return file_write_atomic_mode(path, data, len, 0644);
}

int file_write_atomic_mode(const char *path, const void *data, size_t len, int mode)
{
	char *tmp = xasprintf("%s.tmp.%ld", path, (long)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, (mode_t)mode);
	if (fd < 0) { free(tmp); return -1; }
	const char *p = data;
	size_t left = len;
	while (left) {
		ssize_t w = write(fd, p, left);
		if (w < 0) {
			if (errno == EINTR) continue;
			int e = errno; close(fd); unlink(tmp); free(tmp); errno = e;
			return -1;
		}
		p += w;
		left -= (size_t)w;
	}
	if (fsync(fd) != 0 || close(fd) != 0 || rename(tmp, path) != 0) {
		int e = errno; unlink(tmp); free(tmp); errno = e;
		return -1;
	}
	free(tmp);
	return 0;
}

int mkdir_p(const char *path, int mode)
{
	char buf[PATH_MAX];
	strfmt(buf, sizeof buf, "%s", path);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/') continue;
		*p = 0;
		if (mkdir(buf, (mode_t)mode) != 0 && errno != EEXIST) return -1;
		*p = '/';
	}
	if (mkdir(buf, (mode_t)mode) != 0 && errno != EEXIST) return -1;
	return 0;
}

int file_exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

int dir_exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

char *xdg_path(const char *env, const char *fallback)
{
	const char *base = getenv(env);
	if (base && base[0] == '/') return xasprintf("%s/cudaclimb", base);
	const char *home = getenv("HOME");
	return xasprintf("%s/%s/cudaclimb", home && *home ? home : "/tmp", fallback);
}

char *xdg_dir(const char *env, const char *fallback)
{
	char *dir = xdg_path(env, fallback);
	mkdir_p(dir, 0755);
	return dir;
}

uint64_t fnv1a(uint64_t h, const void *data, size_t len)
{
	const unsigned char *p = data;
	for (size_t i = 0; i < len; i++) {
		h ^= p[i];
		h *= 1099511628211ULL;
	}
	return h;
}

double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

char *exe_dir(void)
{
	char buf[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
	if (n <= 0) return NULL;
	buf[n] = 0;
	char *slash = strrchr(buf, '/');
	if (!slash) return NULL;
	*slash = 0;
	return xstrdup(buf);
}

void rtrim(char *s)
{
	size_t n = strlen(s);
	while (n && (s[n - 1] == '\n' || s[n - 1] == '\r' || s[n - 1] == ' ' || s[n - 1] == '\t')) s[--n] = 0;
}

void fput_clean(FILE *f, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
		if (*p == 0xC2 && p[1] >= 0x80 && p[1] <= 0x9F) { fputc('?', f); p++; continue; }   /* C1 as UTF-8 */
		fputc((*p < 0x20 && *p != '\n' && *p != '\t') || *p == 0x7F ? '?' : *p, f);
	}
}
