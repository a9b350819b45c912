/* cache: the compile cache's folder ($XDG_CACHE_HOME/cudaclimb), its size, and a cap on it. An entry
 * is every regular file whose name shares a stem (the name up to its first '.': KEY.cubin, KEY.ptx,
 * KEY.log, KEY.sass...), so that pruning never leaves half of one whatever the entry's layout; its
 * age is the newest access or change of any of its files. */
#ifndef CC_CACHE_H
#define CC_CACHE_H
#include <stddef.h>

#define CACHE_DEFAULT_MAX (512LL << 20)   /* the cap without CUDACLIMB_CACHE_MAX */

typedef struct {
	long long bytes;   /* on disk (allocated blocks) */
	int entries, files;
} cache_usage;

/* The cache folder (a new string), without creating it. */
char *cache_dir(void);
/* The cap: CUDACLIMB_CACHE_MAX (a size, see cache_parse_size) or CACHE_DEFAULT_MAX. */
long long cache_max(void);
/* "512M", "2G", "100k", "4096" (bytes; K, M, G, T are powers of 1024, an optional "iB" or "B"
 * after them) into *out: 0, or -1 for anything else. */
int cache_parse_size(const char *s, long long *out);
/* What dir holds (zero for a folder that does not exist): 0, or -1 with errno. */
int cache_usage_of(const char *dir, cache_usage *u);
/* Deletes whole entries of dir, least recently used first, until it holds at most max bytes; an
 * entry touched in the last 10 seconds (a compile in flight) is kept. *removed gets what went, *left
 * what stays. 0, or -1 with errno when dir cannot be read. */
int cache_prune(const char *dir, long long max, cache_usage *removed, cache_usage *left);
/* After a new compile landed in the cache: on this process's first and every 32nd call, measures the
 * cache and prunes it to cache_max() when it is over. Errors are ignored (the cache is an aid). */
void cache_after_compile(void);
/* n bytes as fmt_bytes says them ("12.3 MiB", "0 B") into buf. */
void cache_format_size(long long n, char *buf, size_t len);
#endif
