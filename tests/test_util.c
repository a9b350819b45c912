/* Tests for src/core/util.c's file functions (issue #30): file_read never blocks on a FIFO, never reads
 * a device, keeps to its size limit and can refuse links; file_write_atomic follows nothing planted
 * beside its target and writes private files; dir_private; no shared /tmp fallback without HOME. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

static char root[64];

static char *in_root(const char *name) { return xasprintf("%s/%s", root, name); }

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_read_fifo(void **state)
{
	(void)state;
	char *p = in_root("fifo");
	assert_int_equal(mkfifo(p, 0600), 0);
	double t0 = now_ms();
	errno = 0;
	assert_null(file_read(p, NULL));   /* no writer: a blocking open would wait for ever */
	assert_int_equal(errno, FILE_ENOTREG);
	assert_true(now_ms() - t0 < 1000);
	assert_non_null(strstr(file_strerror(errno), "not a regular file"));
	free(p);
}

static void test_read_dev_zero(void **state)
{
	(void)state;
	char *p = in_root("zero.yaml");
	assert_int_equal(symlink("/dev/zero", p), 0);
	double t0 = now_ms();
	assert_null(file_read(p, NULL));
	assert_int_equal(errno, FILE_ENOTREG);
	assert_true(now_ms() - t0 < 1000);
	assert_null(file_read(root, NULL));   /* a folder */
	assert_int_equal(errno, EISDIR);
	free(p);
}

static void test_read_limits(void **state)
{
	(void)state;
	char *p = in_root("big"), *l = in_root("link");
	put(p, "0123456789");
	size_t len = 0;
	char *t = file_read_max(p, 10, 0, &len);
	assert_non_null(t);
	assert_int_equal(len, 10);
	assert_string_equal(t, "0123456789");
	free(t);
	assert_null(file_read_max(p, 9, 0, &len));   /* one byte over */
	assert_int_equal(errno, EFBIG);
	assert_int_equal(symlink(p, l), 0);
	t = file_read(l, NULL);   /* links are followed by default (an installed lesson may be one) */
	assert_non_null(t);
	free(t);
	assert_null(file_read_max(l, 100, FILE_NOFOLLOW, NULL));
	assert_int_equal(errno, ELOOP);
	/* the default limit is 16 MiB: a sparse file of 17 MiB is refused without being read */
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	assert_int_equal(fseek(f, 17L << 20, SEEK_SET), 0);
	fputc('x', f);
	fclose(f);
	assert_null(file_read(p, NULL));
	assert_int_equal(errno, EFBIG);
	free(p); free(l);
}

/* Symbolic links planted at the names a writer used to pick (PATH.tmp.PID) and at a name of the new
 * form are not followed: the victim file they point at keeps its text. */
static void test_write_planted_links(void **state)
{
	(void)state;
	char *victim = in_root("victim"), *target = in_root("out");
	put(victim, "precious\n");
	char *old = xasprintf("%s.tmp.%ld", target, (long)getpid());
	assert_int_equal(symlink(victim, old), 0);
	assert_int_equal(file_write_atomic(target, "new\n", 4), 0);
	char *t = file_read(victim, NULL);
	assert_string_equal(t, "precious\n");
	free(t);
	t = file_read(target, NULL);
	assert_string_equal(t, "new\n");
	free(t);
	struct stat st;
	assert_int_equal(lstat(target, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(st.st_mode & 0777, 0600);   /* private by default */
	assert_int_equal(file_write_atomic_mode(target, "x", 1, 0644), 0);
	assert_int_equal(stat(target, &st), 0);
	mode_t u = umask(0);
	umask(u);
	assert_int_equal(st.st_mode & 0777, 0644 & ~u);
	/* a link at the target itself is replaced, not followed */
	unlink(target);
	assert_int_equal(symlink(victim, target), 0);
	assert_int_equal(file_write_atomic(target, "new\n", 4), 0);
	t = file_read(victim, NULL);
	assert_string_equal(t, "precious\n");
	free(t);
	assert_int_equal(lstat(target, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	free(victim); free(target); free(old);
}

static void test_dir_private(void **state)
{
	(void)state;
	char *d = in_root("private/a/b"), *loose = in_root("loose"), *link = in_root("dlink"), why[600];
	int tight = -1;
	assert_int_equal(dir_private(d, 0, &tight, why, sizeof why), 0);
	assert_int_equal(tight, 0);
	struct stat st;
	assert_int_equal(stat(d, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0700);
	assert_int_equal(mkdir(loose, 0755), 0);
	assert_int_equal(chmod(loose, 0755), 0);
	assert_int_equal(dir_private(loose, 0, &tight, why, sizeof why), 0);
	assert_int_equal(tight, 1);
	assert_int_equal(stat(loose, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0700);
	assert_int_equal(symlink(loose, link), 0);
	assert_int_equal(dir_private(link, 0, NULL, why, sizeof why), -1);
	assert_non_null(strstr(why, "not a folder"));
	assert_int_equal(dir_private(link, DIR_FOLLOW, NULL, why, sizeof why), 0);
	if (geteuid() == 0) {
		assert_int_equal(chown(loose, 2001, 2001), 0);
		assert_int_equal(dir_private(loose, 0, NULL, why, sizeof why), -1);
		assert_non_null(strstr(why, "uid 2001"));
	} else printf("SKIP dir_private of another uid: needs root\n");
	free(d); free(loose); free(link);
}

static void test_no_shared_tmp(void **state)
{
	(void)state;
	char *home = getenv("HOME") ? xstrdup(getenv("HOME")) : NULL, *xdg = getenv("XDG_CACHE_HOME") ? xstrdup(getenv("XDG_CACHE_HOME")) : NULL;
	unsetenv("HOME");
	unsetenv("XDG_CACHE_HOME");
	char *p = xdg_path("XDG_CACHE_HOME", ".cache");
	if (!strncmp(p, "/tmp/.cache", 11)) fail_msg("a shared folder without HOME: %s", p);
	if (p[0] != '/') fail_msg("not an absolute path: %s", p);
	free(p);
	if (home) setenv("HOME", home, 1);
	if (xdg) setenv("XDG_CACHE_HOME", xdg, 1);
	free(home); free(xdg);
}

static int setup(void **state)
{
	(void)state;
	snprintf(root, sizeof root, "/tmp/cc_test_util.XXXXXX");
	return mkdtemp(root) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	char *cmd = xasprintf("rm -rf '%s'", root);
	if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", root);
	free(cmd);
	return 0;
}

/* util_pick_shortest: the shortest line wins whatever the salt; among equals, every tied index (and
 * no other) is chosen by some salt, in about equal shares over consecutive process ids. */
static void test_pick_shortest(void **state)
{
	(void)state;
	int one[] = {3, 1, 2};
	for (unsigned salt = 0; salt < 100; salt++) assert_int_equal(util_pick_shortest(one, 3, salt), 1);
	int solo[] = {5};
	assert_int_equal(util_pick_shortest(solo, 1, 7), 0);
	int tied[] = {0, 4, 0, 0};
	int count[4] = {0};
	for (unsigned pid = 1000; pid < 1300; pid++) count[util_pick_shortest(tied, 4, pid)]++;
	assert_int_equal(count[1], 0);
	const int tied_at[] = {0, 2, 3};
	for (int t = 0; t < 3; t++) assert_true(count[tied_at[t]] >= 60 && count[tied_at[t]] <= 140);   /* 100 each when even */
	int two[] = {2, 2};
	int c2[2] = {0};
	for (unsigned pid = 4000; pid < 4030; pid += 2) c2[util_pick_shortest(two, 2, pid)]++;   /* even ids only */
	assert_true(c2[0] > 0 && c2[1] > 0);
}

/* fput_clean: the bidi controls (Trojan Source: a learner's line that reads backwards), the zero-width
 * characters (a name that looks like another's) and the line separators are '?' like the control
 * characters; other UTF-8 (a lesson's "\u00d7", an emoji) as it is; a cut sequence is not read past. */
static void test_clean_invisible(void **state)
{
	(void)state;
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	fput_clean(f, "if (ok) \xe2\x80\xae{ pass(); }\xe2\x81\xa6 al\xe2\x80\x8bice \xd8\x9c\xef\xbb\xbf\xe2\x80\xa8 \x1b[2J \xc3\x97\xf0\x9f\x98\x80 \xe2\x80\xaf\xe2\x80");
	fclose(f);
	assert_string_equal(out, "if (ok) ?{ pass(); }? al?ice ??? ?[2J \xc3\x97\xf0\x9f\x98\x80 \xe2\x80\xaf\xe2\x80");
	free(out);
	assert_int_equal(util_invisible_len("\xe2\x80\xae"), 3);
	assert_int_equal(util_invisible_len("\xe2\x80"), 0);
	assert_int_equal(util_invisible_len("\xe2\x80\xaf"), 0);   /* U+202F, a narrow space: seen */
	assert_int_equal(util_invisible_len("x"), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read_fifo), cmocka_unit_test(test_read_dev_zero), cmocka_unit_test(test_read_limits),
		cmocka_unit_test(test_write_planted_links), cmocka_unit_test(test_dir_private), cmocka_unit_test(test_no_shared_tmp),
		cmocka_unit_test(test_pick_shortest), cmocka_unit_test(test_clean_invisible),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
