/* cli_cache: `cudaclimb cache` (the compile cache's folder and size) and `cudaclimb cache --prune
 * [--max SIZE]` (the least recently used entries deleted until it is under SIZE). */
#include "cli.h"
#include "cli_cmd.h"
#include "cache.h"
#include "util.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cache_usage_error(const char *fmt, const char *arg)
{
	fputs("cudaclimb cache: ", stderr);
	fprintf(stderr, fmt, arg);
	fputs("\nusage: cudaclimb cache [--prune [--max SIZE]]   (SIZE in bytes, or with K, M, G: 512M)\n", stderr);
	return EXIT_USAGE;
}

int cmd_cache(int argc, char **argv)
{
	int prune = 0;
	long long max = cache_max();
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = NULL;
		if (!strcmp(a, "--prune")) { prune = 1; continue; }
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			printf("usage: cudaclimb cache                     the compile cache's folder and size\n"
			       "       cudaclimb cache --prune [--max SIZE] delete the least recently used compiles until\n"
			       "                                          under SIZE (default the cap, 512M; CUDACLIMB_CACHE_MAX)\n"
			       "The cache also prunes itself to its cap after a compile when it has grown past it.\n");
			return EXIT_OK;
		}
		if (!strcmp(a, "--max")) { if (i + 1 == argc) return cache_usage_error("--max needs a size%s", ""); v = argv[++i]; }
		else if (!strncmp(a, "--max=", 6)) v = a + 6;
		else return cache_usage_error("unknown argument '%s'", a);
		if (cache_parse_size(v, &max)) return cache_usage_error("--max takes a size (4096, 100K, 512M, 2G), not '%s'", v);
		prune = prune ? prune : 2;   /* --max alone is a prune too, said below */
	}
	if (prune == 2) return cache_usage_error("--max is for --prune (cudaclimb cache --prune --max SIZE)%s", "");
	char *dir = cache_dir();
	char size[32], cap[32];
	cache_format_size(cache_max(), cap, sizeof cap);
	int code = EXIT_OK;
	if (!prune) {
		cache_usage u;
		if (cache_usage_of(dir, &u)) {
			fputs("cudaclimb cache: cannot read ", stderr); fput_clean(stderr, dir); fprintf(stderr, ": %s\n", strerror(errno));
			code = EXIT_FAILED;
		} else {
			cache_format_size(u.bytes, size, sizeof size);
			fput_clean(stdout, dir);
			printf("\n%s in %d entries (%d files); cap %s, kept by pruning after compiles; cudaclimb cache --prune [--max SIZE]\n",
			       size, u.entries, u.files, cap);
		}
	} else {
		cache_usage gone, left;
		if (cache_prune(dir, max, &gone, &left)) {
			fputs("cudaclimb cache: cannot prune ", stderr); fput_clean(stderr, dir); fprintf(stderr, ": %s\n", strerror(errno));
			code = EXIT_FAILED;
		} else {
			char freed[32], lim[32];
			cache_format_size(gone.bytes, freed, sizeof freed);
			cache_format_size(left.bytes, size, sizeof size);
			cache_format_size(max, lim, sizeof lim);
			printf("removed %d entries (%s); %s in %d entries left in ", gone.entries, freed, size, left.entries);
			fput_clean(stdout, dir);
			putchar('\n');
			if (left.bytes > max) printf("(over %s still: the rest was used in the last seconds or could not be deleted)\n", lim);
		}
	}
	free(dir);
	return code;
}
