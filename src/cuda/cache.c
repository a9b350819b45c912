/* cache: see cache.h. */
#include "cache.h"
#include "fmt.h"
#include "util.h"
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define RECENT_S 10       /* an entry this fresh may be a compile in flight */
#define CHECK_EVERY 32    /* new compiles between two measurements of the cache */
#define MAX_FILES 1000000 /* a bound on what one pass reads */

typedef struct { char *name; size_t stem; long long bytes; time_t used; } file_info;
typedef struct { size_t first, count; long long bytes; time_t used; } entry_info;

char *cache_dir(void) { return xdg_path("XDG_CACHE_HOME", ".cache"); }

long long cache_max(void)
{
	const char *env = getenv("CUDACLIMB_CACHE_MAX");
	long long v;
	return env && *env && !cache_parse_size(env, &v) ? v : CACHE_DEFAULT_MAX;
}

int cache_parse_size(const char *s, long long *out)
{
	char *end;
	errno = 0;
	if (!s || !isdigit((unsigned char)*s)) return -1;
	double v = strtod(s, &end);
	if (errno || end == s) return -1;
	int shift = 0;
	switch (toupper((unsigned char)*end)) {
	case 'K': shift = 10; end++; break;
	case 'M': shift = 20; end++; break;
	case 'G': shift = 30; end++; break;
	case 'T': shift = 40; end++; break;
	}
	if (shift && (!strcmp(end, "iB") || !strcmp(end, "ib"))) end += 2;
	else if (*end == 'B' || *end == 'b') end++;
	if (*end) return -1;
	v *= (double)(1LL << shift);
	if (v < 0 || v > 9e18) return -1;
	*out = (long long)v;
	return 0;
}

void cache_format_size(long long n, char *buf, size_t len)
{
	fmt_bytes(buf, len, (double)n);
}

/* By stem alone, so that the files of one entry lie together ("a.x", "a.y" around "a-b.x" by name). */
static int by_stem(const void *a, const void *b)
{
	const file_info *x = a, *y = b;
	int c = memcmp(x->name, y->name, x->stem < y->stem ? x->stem : y->stem);
	return c ? c : (x->stem > y->stem) - (x->stem < y->stem);
}

static int by_age(const void *a, const void *b)
{
	const entry_info *x = a, *y = b;
	return x->used < y->used ? -1 : x->used > y->used ? 1 : (x->first > y->first) - (x->first < y->first);
}

/* Every regular file of dir (never following a link), grouped into entries by stem. 0, or -1 with
 * errno; a folder that does not exist is empty. */
static int scan(const char *dir, file_info **files, size_t *nfiles, entry_info **entries, size_t *nentries)
{
	*files = NULL; *entries = NULL; *nfiles = *nentries = 0;
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) return errno == ENOENT ? 0 : -1;
	DIR *d = fdopendir(fd);
	if (!d) { int e = errno; close(fd); errno = e; return -1; }
	size_t cap = 0;
	struct dirent *de;
	while ((de = readdir(d)) && *nfiles < MAX_FILES) {
		struct stat st;
		if (de->d_name[0] == '.' || fstatat(fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) || !S_ISREG(st.st_mode)) continue;
		if (*nfiles == cap) { cap = cap ? 2 * cap : 256; *files = xrealloc(*files, cap * sizeof **files); }
		file_info *f = &(*files)[(*nfiles)++];
		f->name = xstrdup(de->d_name);
		f->stem = strcspn(f->name, ".");
		f->bytes = (long long)st.st_blocks * 512;
		f->used = st.st_atime > st.st_mtime ? st.st_atime : st.st_mtime;
	}
	closedir(d);
	if (*nfiles) qsort(*files, *nfiles, sizeof **files, by_stem);
	*entries = xcalloc(*nfiles ? *nfiles : 1, sizeof **entries);
	for (size_t i = 0; i < *nfiles; i++) {
		file_info *f = &(*files)[i];
		entry_info *e = *nentries ? &(*entries)[*nentries - 1] : NULL;
		if (!e || by_stem(&(*files)[e->first], f)) {
			e = &(*entries)[(*nentries)++];
			e->first = i;
		}
		e->count++;
		e->bytes += f->bytes;
		if (f->used > e->used) e->used = f->used;
	}
	return 0;
}

static void scan_free(file_info *files, size_t nfiles, entry_info *entries)
{
	for (size_t i = 0; i < nfiles; i++) free(files[i].name);
	free(files);
	free(entries);
}

int cache_usage_of(const char *dir, cache_usage *u)
{
	file_info *files; entry_info *entries; size_t nf, ne;
	*u = (cache_usage){0};
	if (scan(dir, &files, &nf, &entries, &ne)) return -1;
	for (size_t i = 0; i < ne; i++) u->bytes += entries[i].bytes;
	u->entries = (int)ne;
	u->files = (int)nf;
	scan_free(files, nf, entries);
	return 0;
}

int cache_prune(const char *dir, long long max, cache_usage *removed, cache_usage *left)
{
	file_info *files; entry_info *entries; size_t nf, ne;
	*removed = *left = (cache_usage){0};
	if (scan(dir, &files, &nf, &entries, &ne)) return -1;
	long long total = 0;
	for (size_t i = 0; i < ne; i++) total += entries[i].bytes;
	if (ne) qsort(entries, ne, sizeof *entries, by_age);
	int fd = total > max ? open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) : -1;
	time_t now = time(NULL);
	for (size_t i = 0; i < ne; i++) {
		entry_info *e = &entries[i];
		int gone = 0;
		if (fd >= 0 && total > max && e->used < now - RECENT_S) {
			gone = 1;
			for (size_t k = e->first; k < e->first + e->count; k++)
				if (unlinkat(fd, files[k].name, 0) == 0 || errno == ENOENT) removed->files++;
				else gone = 0;
		}
		if (gone) { removed->entries++; removed->bytes += e->bytes; total -= e->bytes; }
		else { left->entries++; left->files += (int)e->count; left->bytes += e->bytes; }
	}
	if (fd >= 0) close(fd);
	scan_free(files, nf, entries);
	return 0;
}

void cache_after_compile(void)
{
	static unsigned compiles;
	if (compiles++ % CHECK_EVERY) return;
	char *dir = cache_dir();
	long long max = cache_max();
	cache_usage u, gone, left;
	if (!cache_usage_of(dir, &u) && u.bytes > max) cache_prune(dir, max, &gone, &left);
	free(dir);
}
