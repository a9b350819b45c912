/* baseline_pick: see baseline_pick.h. */
#include "baseline_pick.h"
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "util.h"

#define PICK_FILE "baseline-picks.txt"

typedef struct {
	char key[BASELINE_PICK_KEY_MAX];
	long long value;
	char desc[BASELINE_PICK_DESC_MAX];
} pick;

static pick *picks;
static int npicks, cap;
static int file_read_once;

static int repick(void)
{
	const char *v = getenv("CUDACLIMB_BASELINE_REPICK");
	return v && *v && strcmp(v, "0");
}

/* Copies s into out (n bytes), each byte of bad replaced by with. */
static void clean(char *out, size_t n, const char *s, const char *bad, char with)
{
	strfmt(out, n, "%s", s ? s : "");
	for (char *c = out; *c; c++) if (strchr(bad, *c)) *c = with;
}

int baseline_pick_key(char *out, size_t n, const char *what, long long version, const long long *dims, int ndims,
                      const char *device)
{
	char w[96], d[96];
	clean(w, sizeof w, what, " \t\n\r", '_');
	clean(d, sizeof d, device && *device ? device : "unknown", " \t\n\r", '_');
	size_t len = (size_t)snprintf(out, n, "%s v%lld ", w, version);
	for (int i = 0; i < ndims && len < n; i++) len += (size_t)snprintf(out + len, n - len, "%s%lld", i ? "," : "", dims[i]);
	if (len < n) len += (size_t)snprintf(out + len, n - len, " @%s", d);
	return len < n ? 0 : -1;
}

static pick *find(const char *key)
{
	for (int i = npicks - 1; i >= 0; i--) if (!strcmp(picks[i].key, key)) return &picks[i];
	return NULL;
}

/* Keeps value under key in memory (replacing). */
static void remember(const char *key, long long value, const char *desc)
{
	pick *p = find(key);
	if (!p) {
		if (npicks == cap) {
			cap = cap ? 2 * cap : 16;
			picks = xrealloc(picks, (size_t)cap * sizeof *picks);
		}
		p = &picks[npicks++];
		strfmt(p->key, sizeof p->key, "%s", key);
	}
	p->value = value;
	clean(p->desc, sizeof p->desc, desc, "\t\n\r", ' ');
}

/* The file's path in the cache folder (xdg_cache_dir's, private as the calibration's), or NULL when
 * there is none (the picks are then measured, not kept). */
static char *file_path(void)
{
	char why[600];
	char *dir = xdg_cache_dir(why, sizeof why);
	if (!dir) return NULL;
	char *path = xasprintf("%s/%s", dir, PICK_FILE);
	free(dir);
	return path;
}

/* The file's lines into memory, once; a malformed line is skipped. */
static void load_file(void)
{
	if (file_read_once) return;
	file_read_once = 1;
	char *path = file_path();
	char *text = path ? file_read_max(path, 4 << 20, FILE_NOFOLLOW, NULL) : NULL;
	free(path);
	if (!text) return;
	for (char *line = text, *next; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next) *next++ = 0;
		char *t1 = strchr(line, '\t'), *t2 = t1 ? strchr(t1 + 1, '\t') : NULL, *end;
		if (!t1 || !t2 || t1 == line || (size_t)(t1 - line) >= BASELINE_PICK_KEY_MAX) continue;
		*t1 = *t2 = 0;
		long long v = strtoll(t1 + 1, &end, 10);
		if (end == t1 + 1 || *end) continue;
		remember(line, v, t2 + 1);
	}
	free(text);
}

int baseline_pick_get(const char *key, long long *value, char *desc, size_t desclen)
{
	if (repick()) return 0;
	load_file();
	const pick *p = find(key);
	if (!p) return 0;
	*value = p->value;
	if (desc && desclen) strfmt(desc, desclen, "%s", p->desc);
	return 1;
}

void baseline_pick_put(const char *key, long long value, const char *desc)
{
	load_file();
	remember(key, value, desc);
	const pick *p = find(key);
	char *path = file_path();
	/* one short line in one write (O_APPEND: workers appending at once do not interleave); never
	 * through a link, never blocking on a FIFO, private to the user */
	int fd = !path ? -1 : open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0600);
	if (fd >= 0) {
		struct stat st;
		char line[BASELINE_PICK_KEY_MAX + BASELINE_PICK_DESC_MAX + 32];
		int len = snprintf(line, sizeof line, "%s\t%lld\t%s\n", p->key, p->value, p->desc);
		if (!fstat(fd, &st) && S_ISREG(st.st_mode) && len > 0 && (size_t)len < sizeof line && write(fd, line, (size_t)len) < 0) {
			/* a failure to write is ignored: the file is an aid */
		}
		close(fd);
	}
	free(path);
}

static int cmp_float(const void *a, const void *b)
{
	float x = *(const float *)a, y = *(const float *)b;
	return (x > y) - (x < y);
}

int baseline_pick_fastest(const float *ms, int ncand, int trials, float *best_ms)
{
	int best = -1;
	float best_med = 0, first_med = -1;
	float *v = trials > 0 ? xcalloc((size_t)trials, sizeof *v) : NULL;
	for (int c = 0; c < ncand && trials > 0; c++) {
		int ok = 1;
		for (int t = 0; t < trials; t++) {
			v[t] = ms[(size_t)c * (size_t)trials + (size_t)t];
			if (!(v[t] >= 0)) ok = 0;   /* negative or NaN: a failed trial */
		}
		if (!ok) continue;
		qsort(v, (size_t)trials, sizeof *v, cmp_float);
		float med = trials % 2 ? v[trials / 2] : (v[trials / 2 - 1] + v[trials / 2]) / 2;
		if (c == 0) first_med = med;
		if (best < 0 || med < best_med) best = c, best_med = med;
	}
	free(v);
	if (best > 0 && first_med >= 0 && best_med >= first_med * (1 - BASELINE_PICK_MARGIN)) best = 0, best_med = first_med;
	if (best >= 0 && best_ms) *best_ms = best_med;
	return best;
}

void baseline_pick_reset(void)
{
	free(picks);
	picks = NULL;
	npicks = cap = 0;
	file_read_once = 0;
}
