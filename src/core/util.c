/* util: see util.h. */
#include "util.h"
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static void (*fatal_hook)(void);

void util_on_fatal(void (*fn)(void)) { fatal_hook = fn; }

static void (*notice_hook)(const char *);

void util_on_notice(void (*fn)(const char *text)) { notice_hook = fn; }

void notice(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = NULL;
	int n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0) return;
	if (notice_hook) notice_hook(s);
	else { fputs("cudaclimb: ", stderr); fput_clean(stderr, s); fputc('\n', stderr); }
	free(s);
}

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
	return file_read_max(path, FILE_READ_MAX, 0, len);
}

char *file_read_max(const char *path, size_t max, int flags, size_t *len)
{
	/* O_NONBLOCK: opening a FIFO does not wait for a writer (and it is refused below). */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY | (flags & FILE_NOFOLLOW ? O_NOFOLLOW : 0));
	if (fd < 0) return NULL;
	struct stat st;
	if (fstat(fd, &st) != 0) { int e = errno; close(fd); errno = e; return NULL; }
	if (!S_ISREG(st.st_mode)) { close(fd); errno = S_ISDIR(st.st_mode) ? EISDIR : FILE_ENOTREG; return NULL; }
	if ((uint64_t)st.st_size > max) { close(fd); errno = EFBIG; return NULL; }
	/* st_size + 1 so that a file that grew is seen; it may grow up to max, not further. */
	size_t cap = (size_t)st.st_size + 1, got = 0;
	char *buf = xmalloc(cap + 1);
	for (;;) {
		if (got == cap) {
			if (got > max) { free(buf); close(fd); errno = EFBIG; return NULL; }
			cap = cap * 2 > max + 1 ? max + 1 : cap * 2;
			buf = xrealloc(buf, cap + 1);
		}
		ssize_t n = read(fd, buf + got, cap - got);
		if (n < 0 && errno == EINTR) continue;
		if (n < 0) { int e = errno; free(buf); close(fd); errno = e; return NULL; }
		if (n == 0) break;
		got += (size_t)n;
	}
	close(fd);
	if (got > max) { free(buf); errno = EFBIG; return NULL; }
	buf[got] = 0;
	if (len) *len = got;
	return buf;
}

const char *file_strerror(int e)
{
	if (e == FILE_ENOTREG) return "not a regular file (a FIFO, a device or a socket)";
	if (e == EFBIG) return "larger than the size limit for this kind of file";
	if (e == ELOOP) return "a symbolic link, which is not followed here";
	return strerror(e);
}

int file_write_atomic(const char *path, const void *data, size_t len)
{
	return file_write_atomic_mode(path, data, len, 0600);
}

/* A new file beside path under an unpredictable name (path.tmp.XXXXXXXXXXXX), created with O_EXCL and
 * O_NOFOLLOW: nothing planted at any name is followed or reused. The fd, or -1; the name in *tmp. */
static int open_temp(const char *path, int mode, char **tmp)
{
	static const char digits[] = "abcdefghijklmnopqrstuvwxyz0123456789";
	for (int tries = 0; tries < 64; tries++) {
		unsigned char rnd[12];
		if (getrandom(rnd, sizeof rnd, 0) != (ssize_t)sizeof rnd) {
			/* no entropy source: the time and the pid still change on each try */
			uint64_t h = fnv1a(FNV_OFFSET, &tries, sizeof tries);
			double t = now_ms();
			pid_t pid = getpid();
			h = fnv1a(fnv1a(h, &t, sizeof t), &pid, sizeof pid);
			for (size_t i = 0; i < sizeof rnd; i++) rnd[i] = (unsigned char)(h >> (i % 8 * 8));
		}
		char sfx[sizeof rnd + 1];
		for (size_t i = 0; i < sizeof rnd; i++) sfx[i] = digits[rnd[i] % (sizeof digits - 1)];
		sfx[sizeof rnd] = 0;
		*tmp = xasprintf("%s.tmp.%s", path, sfx);
		int fd = open(*tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, (mode_t)mode);
		if (fd >= 0) return fd;
		int e = errno;
		free(*tmp);
		*tmp = NULL;
		if (e != EEXIST) { errno = e; return -1; }
	}
	errno = EEXIST;
	return -1;
}

int file_write_atomic_mode(const char *path, const void *data, size_t len, int mode)
{
	char *tmp;
	int fd = open_temp(path, mode, &tmp);
	if (fd < 0) return -1;
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
	if (strlen(path) >= sizeof buf) { errno = ENAMETOOLONG; return -1; }
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

int dir_private(const char *path, int flags, int *tightened, char *why, size_t whylen)
{
	if (tightened) *tightened = 0;
	if (mkdir_p(path, 0700) != 0) { strfmt(why, whylen, "cannot create %s: %s", path, strerror(errno)); return -1; }
	/* checked and tightened through one fd: no swap of the name between the check and the chmod */
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NONBLOCK | (flags & DIR_FOLLOW ? 0 : O_NOFOLLOW));
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0) {
		int e = errno;
		if (fd >= 0) close(fd);
		if (e == ELOOP || e == ENOTDIR) strfmt(why, whylen, "%s is not a folder (a symbolic link or a file is there)", path);
		else strfmt(why, whylen, "cannot open %s: %s", path, strerror(e));
		return -1;
	}
	if (st.st_uid != geteuid()) {
		close(fd);
		struct passwd *pw = getpwuid(st.st_uid);
		strfmt(why, whylen, "%s belongs to %s (uid %ld), not to you", path, pw && pw->pw_name ? pw->pw_name : "another user", (long)st.st_uid);
		return -1;
	}
	if (st.st_mode & 077) {
		if (fchmod(fd, 0700) != 0) {
			int e = errno;
			close(fd);
			strfmt(why, whylen, "%s is open to other users (mode %03o) and cannot be made private: %s", path, (unsigned)(st.st_mode & 0777), strerror(e));
			return -1;
		}
		if (tightened) *tightened = 1;
	}
	close(fd);
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

/* The user's home folder: $HOME when it is an absolute path, else the password database's entry
 * for the effective uid; NULL when neither says. */
static const char *home_dir(void)
{
	const char *home = getenv("HOME");
	if (home && home[0] == '/') return home;
	struct passwd *pw = getpwuid(geteuid());
	return pw && pw->pw_dir && pw->pw_dir[0] == '/' ? pw->pw_dir : NULL;
}

char *xdg_path(const char *env, const char *fallback)
{
	const char *base = getenv(env);
	if (base && base[0] == '/') return xasprintf("%s/cudaclimb", base);
	const char *home = home_dir();
	if (home) return xasprintf("%s/%s/cudaclimb", home, fallback);
	/* No home at all: a folder of this uid's own, never one shared by all users. */
	const char *leaf = strrchr(fallback, '/');
	return xasprintf("/tmp/cudaclimb-%ld/%s", (long)geteuid(), leaf ? leaf + 1 : fallback[0] == '.' ? fallback + 1 : fallback);
}

int dir_group_mine(gid_t gid)
{
	struct group *g = getgrgid(gid);
	struct passwd *pw = getpwuid(geteuid());
	if (!g || !pw || strcmp(g->gr_name, pw->pw_name)) return 0;
	for (char **m = g->gr_mem; m && *m; m++)
		if (strcmp(*m, pw->pw_name)) return 0;
	return 1;
}

/* A folder of another user's on the way (XDG_CACHE_HOME=/tmp/x, x theirs) lets them rename ours away
 * and put theirs, with entries of their making, in its place. */
int dir_trusted(const char *path, char *why, size_t whylen)
{
	char buf[PATH_MAX], cwd[PATH_MAX];
	if (path[0] != '/' && !getcwd(cwd, sizeof cwd)) { strfmt(why, whylen, "the working folder: %s", strerror(errno)); return -1; }
	int n = path[0] == '/' ? snprintf(buf, sizeof buf, "%s", path) : snprintf(buf, sizeof buf, "%s/%s", cwd, path);
	if (n < 0 || (size_t)n >= sizeof buf) { strfmt(why, whylen, "%s: the path is too long", path); return -1; }
	for (char *p = buf + 1;; p++) {
		if (*p && *p != '/') continue;
		char c = *p;
		*p = 0;
		struct stat st;
		int r = p[-1] == '/' ? 0 : lstat(buf, &st);   /* an empty part ("//") is the folder before it */
		if (r == 0 && p[-1] != '/' && S_ISLNK(st.st_mode) && (st.st_uid == 0 || st.st_uid == geteuid())) r = stat(buf, &st);
		if (r != 0) { strfmt(why, whylen, "cannot look at %s: %s", buf, strerror(errno)); return -1; }
		if (p[-1] != '/' && (S_ISLNK(st.st_mode) || (st.st_uid != 0 && st.st_uid != geteuid()) ||
		                     (((st.st_mode & 002) || ((st.st_mode & 020) && !dir_group_mine(st.st_gid))) && !(st.st_mode & S_ISVTX)))) {
			strfmt(why, whylen, "%s %s, so another user could swap what is in it", buf,
			       S_ISLNK(st.st_mode) ? "is another user's symbolic link" : st.st_uid != 0 && st.st_uid != geteuid() ? "belongs to another user"
			                                                                  : "is writable by others without the sticky bit");
			return -1;
		}
		*p = c;
		if (!c) return 0;
	}
}

char *xdg_cache_dir(char *why, size_t whylen)
{
	char *dir = xdg_path("XDG_CACHE_HOME", ".cache");
	if (!strncmp(dir, "/tmp/", 5)) {
		char top[64];
		strfmt(top, sizeof top, "/tmp/cudaclimb-%ld", (long)geteuid());
		if (dir_private(top, 0, NULL, why, whylen) != 0) { free(dir); return NULL; }
	}
	if (dir_private(dir, 0, NULL, why, whylen) != 0 || dir_trusted(dir, why, whylen) != 0) { free(dir); return NULL; }
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

char *data_root(void)
{
	char *dir = exe_dir();
	const char *cands[] = { "%s/..", "%s/../share/cudaclimb", "%s", "%s/../.." };
	for (size_t i = 0; dir && i < sizeof cands / sizeof cands[0]; i++) {
		char *root = xasprintf(cands[i], dir);
		char *probe = xasprintf("%s/assets/arch.yaml", root);
		int ok = file_exists(probe);
		free(probe);
		if (ok) { free(dir); return root; }
		free(root);
	}
	free(dir);
#ifdef CC_DATADIR
	if (dir_exists(CC_DATADIR)) return xstrdup(CC_DATADIR);
#endif
	return NULL;
}

void rtrim(char *s)
{
	size_t n = strlen(s);
	while (n && (s[n - 1] == '\n' || s[n - 1] == '\r' || s[n - 1] == ' ' || s[n - 1] == '\t')) s[--n] = 0;
}

int util_invisible_len(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	if (p[0] == 0xd8 && p[1] == 0x9c) return 2;                                     /* U+061C */
	if (p[0] == 0xef && p[1] == 0xbb && p[2] == 0xbf) return 3;                     /* U+FEFF */
	if (p[0] != 0xe2 || (p[1] != 0x80 && p[1] != 0x81)) return 0;
	unsigned cp = 0x2000 | (unsigned)(p[1] & 0x3f) << 6 | (p[2] & 0x3f);
	if ((p[2] & 0xc0) != 0x80) return 0;
	return (cp >= 0x200b && cp <= 0x200f) || (cp >= 0x2028 && cp <= 0x202e) || (cp >= 0x2060 && cp <= 0x2064) ||
	       (cp >= 0x2066 && cp <= 0x2069) ? 3 : 0;
}

/* s to f with control characters as '?'; newline and tab kept, or (one_line) they and CR as spaces. */
static void put_clean(FILE *f, const char *s, int one_line)
{
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
		if (one_line && (*p == '\n' || *p == '\r' || *p == '\t')) { fputc(' ', f); continue; }
		if (*p == 0xC2 && p[1] >= 0x80 && p[1] <= 0x9F) { fputc('?', f); p++; continue; }   /* C1 as UTF-8 */
		int inv = util_invisible_len((const char *)p);
		if (inv) { fputc('?', f); p += inv - 1; continue; }   /* bidi and zero-width: Trojan Source, look-alike names */
		fputc((*p < 0x20 && *p != '\n' && *p != '\t') || *p == 0x7F ? '?' : *p, f);
	}
}

void fput_clean(FILE *f, const char *s) { put_clean(f, s, 0); }
void fput_clean_line(FILE *f, const char *s) { put_clean(f, s, 1); }

/* Edit distance between a and b, ignoring case, a swap of two neighbours counting as one (so that
 * "lsit" is one from "list"); 99 for names over 63 characters. */
static int edit_distance(const char *a, const char *b)
{
	size_t m = strlen(a), n = strlen(b);
	if (m > 63 || n > 63) return 99;
	int d[64][64];
	for (size_t i = 0; i <= m; i++) d[i][0] = (int)i;
	for (size_t j = 0; j <= n; j++) d[0][j] = (int)j;
	for (size_t i = 1; i <= m; i++)
		for (size_t j = 1; j <= n; j++) {
			int ai = tolower((unsigned char)a[i - 1]), bj = tolower((unsigned char)b[j - 1]);
			int best = d[i - 1][j - 1] + (ai != bj);
			if (d[i - 1][j] + 1 < best) best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best) best = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && ai == tolower((unsigned char)b[j - 2]) && tolower((unsigned char)a[i - 2]) == bj && d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	return d[m][n];
}

/* "; did you mean 'x'?" for the nearest of n names when it is near enough (a third of the typed
 * name's letters wrong at most), else "". */
void util_suggest_name(const char *typed, const char *const *names, int n, char *out, size_t len)
{
	int best = -1, bd = 99, limit = (int)strlen(typed) / 3 > 1 ? (int)strlen(typed) / 3 : 1;
	for (int i = 0; i < n; i++) {
		int d = edit_distance(typed, names[i]);
		if (d < bd) { bd = d; best = i; }
	}
	if (best >= 0 && bd <= limit) strfmt(out, len, "; did you mean '%s'?", names[best]);
	else strfmt(out, len, "%s", "");
}

int util_pick_shortest(const int *lengths, int n, unsigned salt)
{
	int ties = 0, min = 0;
	for (int i = 0; i < n; i++)
		if (i == 0 || lengths[i] < min) { min = lengths[i]; ties = 1; }
		else if (lengths[i] == min) ties++;
	/* Runs that start together all see equal lines: a multiplicative hash of the salt (the process id)
	 * spreads them over the tied GPUs instead of sending every one to the first (k is 0 for one). */
	unsigned k = (unsigned)(((unsigned long long)(salt * 2654435761u) * (unsigned)ties) >> 32);
	for (int i = 0; i < n; i++)
		if (lengths[i] == min && k-- == 0) return i;
	return 0;
}
