/* Tests for src/engine/progress.c: the learner's progress file (its format, which existing files must keep
 * loading in), the merge of two sessions under the lock, and the scoring of a run into it. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "progress.h"
#include "util.h"

static void test_round_trip(void **st)
{
	(void)st;
	char dir[] = "/tmp/cc-progress-test-XXXXXX", path[256], err[256];
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/sub/cudaclimb/progress", dir);
	progress_state s, r;
	progress_init(&s);
	progress_set_last(&s, "bandwidth", "coalesced");
	progress_stage *p = progress_find(&s, "bandwidth", "strided", 1);
	p->seen = p->compiled = p->passed = 1;
	p->best_ms = 4.25; p->best_gbps = 189.5;
	progress_find(&s, "bandwidth", "coalesced", 1)->failed = 1;
	progress_setting_set(&s, "bandwidth", "strided", "STRIDE", "8");
	progress_setting_set(&s, "bandwidth", "strided", "STRIDE", "4");   /* replaces */
	assert_int_equal(progress_save(&s, path, err, sizeof err), 0);
	assert_int_equal(s.dirty, 0);

	progress_init(&r);
	assert_int_equal(progress_load(&r, path, err, sizeof err), 0);
	assert_string_equal(r.last_lesson, "bandwidth");
	assert_string_equal(r.last_stage, "coalesced");
	const progress_stage *q = progress_find(&r, "bandwidth", "strided", 0);
	assert_non_null(q);
	assert_int_equal(q->passed, 1);
	assert_true(q->best_ms == 4.25 && q->best_gbps == 189.5);
	assert_int_equal(progress_find(&r, "bandwidth", "coalesced", 0)->failed, 1);
	assert_null(progress_find(&r, "bandwidth", "vectorized", 0));
	assert_string_equal(progress_setting_get(&r, "bandwidth", "strided", "STRIDE"), "4");
	assert_int_equal(r.nsets, 1);
	assert_int_equal(r.dirty, 0);

	/* no temporary file is left behind; a missing file is an empty state */
	char tmp[300];
	DIR *dd = opendir(dir);
	assert_non_null(dd);
	for (struct dirent *de; (de = readdir(dd));) if (strstr(de->d_name, ".tmp.")) fail_msg("a temporary file was left: %s", de->d_name);
	closedir(dd);
	struct stat pst;
	assert_int_equal(stat(path, &pst), 0);
	assert_int_equal(pst.st_mode & 0777, 0600);   /* private */
	progress_free(&r);
	progress_init(&r);
	snprintf(tmp, sizeof tmp, "%s/none", dir);
	assert_int_equal(progress_load(&r, tmp, err, sizeof err), 0);
	assert_int_equal(r.nst, 0);
	progress_free(&r);
	progress_free(&s);
	unlink(path);
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

/* Two sessions' records merged: per stage the furthest state and the best numbers; settings and
 * the last position are this session's (issue #19). */
static void test_merge(void **st)
{
	(void)st;
	progress_state mine, disk;
	progress_init(&mine);
	progress_init(&disk);
	progress_set_last(&mine, "sgemm", "naive");
	progress_set_last(&disk, "bandwidth", "strided");
	progress_stage *p = progress_find(&mine, "bandwidth", "strided", 1);
	p->seen = 1; p->best_ms = 5; p->best_gbps = 100;
	p = progress_find(&disk, "bandwidth", "strided", 1);
	p->seen = p->compiled = p->passed = 1; p->best_ms = 4; p->best_gbps = 90; p->best_gflops = 15;
	p = progress_find(&disk, "bandwidth", "coalesced", 1);         /* only the other session's */
	p->seen = p->failed = 1;
	p = progress_find(&mine, "sgemm", "naive", 1);
	p->seen = p->compiled = 1; p->best_ms = 0;
	p = progress_find(&disk, "sgemm", "naive", 1);
	p->seen = 1; p->best_ms = 275; p->best_gflops = 500;
	progress_setting_set(&mine, "bandwidth", "strided", "STRIDE", "4");
	progress_setting_set(&disk, "bandwidth", "strided", "STRIDE", "8");
	progress_setting_set(&disk, "bandwidth", "strided", "BLOCK", "512");
	progress_merge(&mine, &disk);
	assert_string_equal(mine.last_lesson, "sgemm");
	assert_string_equal(mine.last_stage, "naive");
	assert_int_equal(mine.nst, 3);
	const progress_stage *q = progress_find(&mine, "bandwidth", "strided", 0);
	assert_true(q->seen && q->compiled && q->passed && !q->failed);
	assert_true(q->best_ms == 4 && q->best_gbps == 100 && q->best_gflops == 15);
	q = progress_find(&mine, "bandwidth", "coalesced", 0);
	assert_non_null(q);
	assert_true(q->seen && q->failed && !q->passed);
	q = progress_find(&mine, "sgemm", "naive", 0);
	assert_true(q->compiled && q->best_ms == 275 && q->best_gflops == 500);   /* 0 is "none" */
	assert_string_equal(progress_setting_get(&mine, "bandwidth", "strided", "STRIDE"), "4");
	assert_string_equal(progress_setting_get(&mine, "bandwidth", "strided", "BLOCK"), "512");
	progress_free(&mine);
	progress_free(&disk);
}

/* Saving merges with what another session wrote meanwhile, under a lock file beside it. */
static void test_save_merges(void **st)
{
	(void)st;
	char dir[] = "/tmp/cc-progress-test-XXXXXX", path[256], lock[300], err[256];
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/cudaclimb/progress", dir);
	snprintf(lock, sizeof lock, "%s.lock", path);
	progress_state a, b, r;
	progress_init(&a);
	progress_init(&b);
	assert_int_equal(progress_load(&a, path, err, sizeof err), 0);   /* both start from nothing */
	assert_int_equal(progress_load(&b, path, err, sizeof err), 0);
	progress_find(&a, "bandwidth", "strided", 1)->passed = 1;
	progress_find(&b, "bandwidth", "coalesced", 1)->passed = 1;
	progress_set_last(&b, "bandwidth", "coalesced");
	assert_int_equal(progress_save(&a, path, err, sizeof err), 0);
	assert_int_equal(progress_save(&b, path, err, sizeof err), 0);
	assert_int_equal(access(lock, F_OK), 0);
	assert_non_null(progress_find(&b, "bandwidth", "strided", 0));   /* b now sees a's too */
	progress_init(&r);
	assert_int_equal(progress_load(&r, path, err, sizeof err), 0);
	assert_int_equal(progress_find(&r, "bandwidth", "strided", 0)->passed, 1);
	assert_int_equal(progress_find(&r, "bandwidth", "coalesced", 0)->passed, 1);
	assert_string_equal(r.last_stage, "coalesced");
	progress_free(&a);
	progress_free(&b);
	progress_free(&r);
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

static void test_path(void **st)
{
	(void)st;
	char buf[256];
	setenv("XDG_STATE_HOME", "/x/state", 1);
	assert_int_equal(progress_path(buf, sizeof buf), 0);
	assert_string_equal(buf, "/x/state/cudaclimb/progress");
	assert_false(dir_exists("/x/state"));             /* the path alone creates nothing */
	unsetenv("XDG_STATE_HOME");
	setenv("HOME", "/home/u", 1);
	assert_int_equal(progress_path(buf, sizeof buf), 0);
	assert_string_equal(buf, "/home/u/.local/state/cudaclimb/progress");
	unsetenv("HOME");                                 /* nowhere of the learner's own */
	assert_int_equal(progress_path(buf, sizeof buf), -1);
	setenv("HOME", "/home/u", 1);
	assert_int_equal(progress_path(buf, 10), -1);     /* too long for the buffer */
}


/* A file as earlier versions wrote it loads as it is, odd lines skipped; written again it keeps
 * the same lines. */
static void test_existing_file(void **st)
{
	(void)st;
	static const char old[] =
		"cudaclimb-progress 1\n"
		"last sgemm smem\n"
		"stage bandwidth coalesced seen=1 compiled=1 passed=1 failed=0 best_ms=0.41 best_gbps=2900 best_gflops=0\n"
		"stage sgemm smem seen=1 compiled=1 passed=0 failed=1 best_ms=0 best_gbps=0 best_gflops=0\n"
		"set sgemm smem BM 64\n"
		"set sgemm * m 2048\n";
	progress_state p;
	progress_init(&p);
	progress_parse(&p, old, strlen(old));
	static const char odd[] = "future line of words\nset too few\nstage x\n\n";
	progress_parse(&p, odd, strlen(odd));
	assert_string_equal(p.last_lesson, "sgemm");
	assert_string_equal(p.last_stage, "smem");
	assert_int_equal(p.nst, 2);
	const progress_stage *s = progress_get(&p, "bandwidth", "coalesced");
	assert_non_null(s);
	assert_true(s->passed && !s->failed && s->best_ms == 0.41 && s->best_gbps == 2900);
	assert_true(progress_get(&p, "sgemm", "smem")->failed);
	assert_string_equal(progress_setting_get(&p, "sgemm", "*", "m"), "2048");
	char *again = progress_format(&p);
	assert_string_equal(again, old);
	free(again);
	/* "last - -" is the lesson list */
	progress_parse(&p, "last - -\n", 9);
	assert_string_equal(p.last_lesson, "");
	char *list = progress_format(&p);
	assert_non_null(strstr(list, "\nlast - -\n"));
	free(list);
	progress_free(&p);
}

/* The file is the learner's alone: 0600 in a folder made 0700. */
static void test_private(void **st)
{
	(void)st;
	char dir[] = "/tmp/cc-progress-test-XXXXXX", path[256], err[256];
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/state/cudaclimb/progress", dir);
	progress_state p;
	progress_init(&p);
	progress_set_last(&p, "bandwidth", "strided");
	assert_int_equal(progress_save(&p, path, err, sizeof err), 0);
	struct stat sf, sd;
	assert_int_equal(stat(path, &sf), 0);
	assert_int_equal(sf.st_mode & 077, 0);
	snprintf(path, sizeof path, "%s/state/cudaclimb", dir);
	assert_int_equal(stat(path, &sd), 0);
	assert_int_equal(sd.st_mode & 077, 0);
	/* a file that cannot be written: an error with the path, p still dirty */
	snprintf(path, sizeof path, "%s/state/cudaclimb/progress/below", dir);
	progress_set_last(&p, "sgemm", "naive");
	assert_int_equal(progress_save(&p, path, err, sizeof err), -1);
	assert_non_null(strstr(err, "below"));
	assert_int_equal(p.dirty, 1);
	progress_free(&p);
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

static run_result result_of(run_status st, double ms, double gbps, double gflops)
{
	run_result r;
	run_result_init(&r);
	r.status = st;
	r.ms_median = ms;
	r.gbps = gbps;
	r.gflops = gflops;
	return r;
}

/* How a run counts: a refusal or a compile error only opens the stage; a wrong run fails it until a
 * right, timed one passes it; the best figures only improve. */
static void test_record(void **st)
{
	(void)st;
	progress_state p;
	progress_init(&p);
	run_result r = result_of(RUN_REFUSED, 0, 0, 0);
	progress_record(&p, "sgemm", "smem", &r);
	const progress_stage *s = progress_get(&p, "sgemm", "smem");
	assert_true(s->seen && !s->compiled && !s->passed && !s->failed);
	assert_int_equal(p.dirty, 1);
	r = result_of(RUN_COMPILE_ERROR, 0, 0, 0);
	progress_record(&p, "sgemm", "smem", &r);
	assert_false(s->compiled);
	r = result_of(RUN_WRONG, 2.0, 50, 900);
	progress_record(&p, "sgemm", "smem", &r);
	assert_true(s->compiled && s->failed && !s->passed);
	assert_true(s->best_ms == 0 && s->best_gflops == 0);    /* a wrong run sets no record */
	r = result_of(RUN_OK, 1.5, 60, 1000);
	progress_record(&p, "sgemm", "smem", &r);
	assert_true(s->passed && !s->failed && s->best_ms == 1.5 && s->best_gflops == 1000);
	r = result_of(RUN_OK, 1.8, 70, 800);                    /* slower, but more GB/s */
	progress_record(&p, "sgemm", "smem", &r);
	assert_true(s->best_ms == 1.5 && s->best_gbps == 70 && s->best_gflops == 1000);
	assert_true(progress_best(s, SCORE_GFLOPS) == 1000 && progress_best(s, SCORE_GBPS) == 70);
	assert_true(progress_best(NULL, SCORE_GBPS) == 0);
	r = result_of(RUN_OK, 0, 0, 0);                         /* compiled only: not timed, not passed */
	progress_record(&p, "sgemm", "naive", &r);
	assert_false(progress_get(&p, "sgemm", "naive")->passed);
	r = result_of(RUN_FAULT, 0, 0, 0);
	progress_record(&p, "sgemm", "smem", &r);
	s = progress_get(&p, "sgemm", "smem");
	assert_true(s->failed && s->passed);                    /* passed once stays */
	progress_free(&p);
}

/* tune --save: the best tunables per GPU model, kept through a save, a merge and a reset. */
static void test_tuned(void **st)
{
	(void)st;
	char dir[] = "/tmp/cc-progress-test-XXXXXX", path[256], err[256], key[64];
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/progress", dir);
	progress_gpu_key("NVIDIA H200 (MIG 1g.18gb)", key, sizeof key);
	assert_string_equal(key, "NVIDIA_H200__MIG_1g.18gb_");
	progress_gpu_key("", key, sizeof key);
	assert_string_equal(key, "-");
	progress_state s, r, o;
	progress_init(&s);
	progress_tuned_set(&s, "NVIDIA H200", "sgemm", "warptile", "BM=128,BN=64");
	assert_string_equal(progress_tuned_get(&s, "NVIDIA H200", "sgemm", "warptile"), "BM=128,BN=64");
	assert_null(progress_tuned_get(&s, "NVIDIA H100 80GB HBM3", "sgemm", "warptile"));   /* per GPU model */
	assert_int_equal(progress_save(&s, path, err, sizeof err), 0);
	progress_init(&r);
	assert_int_equal(progress_load(&r, path, err, sizeof err), 0);
	assert_string_equal(progress_tuned_get(&r, "NVIDIA H200", "sgemm", "warptile"), "BM=128,BN=64");
	/* a reset is a record: merged with the older file, the values do not come back */
	progress_tuned_set(&r, "NVIDIA H200", "sgemm", "warptile", NULL);
	assert_int_equal(r.dirty, 1);
	assert_null(progress_tuned_get(&r, "NVIDIA H200", "sgemm", "warptile"));
	progress_init(&o);
	assert_int_equal(progress_load(&o, path, err, sizeof err), 0);
	progress_merge(&r, &o);
	assert_null(progress_tuned_get(&r, "NVIDIA H200", "sgemm", "warptile"));
	char *text = progress_format(&r);
	assert_non_null(strstr(text, "tuned NVIDIA_H200 sgemm warptile -\n"));
	free(text);
	progress_free(&s); progress_free(&r); progress_free(&o);
	unlink(path);
	char lock[300];
	snprintf(lock, sizeof lock, "%s.lock", path);
	unlink(lock);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_save_merges),
		cmocka_unit_test(test_path),
		cmocka_unit_test(test_existing_file),
		cmocka_unit_test(test_private),
		cmocka_unit_test(test_record),
		cmocka_unit_test(test_tuned),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
