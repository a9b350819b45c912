/* Tests for the lab service's pure parts: the order of turns (src/app/serve_queue.c: 30 runs of one
 * user delay another's first by the run in progress only; turns alternate; each user's own in
 * order; the order shown to waiters is the order served) and its request lines
 * (src/app/serve_request.c: every form, and what is refused). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>
#include "serve.h"

static void test_turns(void **state)
{
	(void)state;
	serve_queue q = {0};
	for (int i = 0; i < 30; i++) serve_queue_add(&q, i, 2001);
	assert_int_equal(serve_queue_next(&q), 0);            /* alice's first runs */
	serve_queue_add(&q, 100, 2002);                       /* bob asks behind 29 of hers */
	assert_int_equal(serve_queue_next(&q), 100);          /* and goes next */
	assert_int_equal(serve_queue_next(&q), 1);
	serve_queue_add(&q, 101, 2002);
	serve_queue_add(&q, 102, 2002);
	serve_queue_add(&q, 200, 2003);
	/* carol has never been served: first; then bob (served longer ago than alice); then alice */
	int order[64];
	serve_queue_order(&q, order);
	assert_int_equal(q.w[order[0]].conn, 200);
	assert_int_equal(q.w[order[1]].conn, 101);
	assert_int_equal(q.w[order[2]].conn, 2);
	assert_int_equal(q.w[order[3]].conn, 102);
	assert_int_equal(q.w[order[4]].conn, 3);
	int want[] = { 200, 101, 2, 102, 3, 4 };
	for (int i = 0; i < 6; i++) assert_int_equal(serve_queue_next(&q), want[i]);
	assert_int_equal(serve_queue_remove(&q, 5), 1);       /* a waiter that went away */
	assert_int_equal(serve_queue_remove(&q, 5), 0);
	assert_int_equal(serve_queue_next(&q), 6);
	serve_queue_free(&q);
	assert_int_equal(serve_queue_next(&q), -1);
	/* a line keeps a cool-down while one lasts (the service never reuses such a line for another GPU) */
	assert_int_equal(serve_queue_any_cooling(&q, 0), 0);
	serve_queue_add(&q, 1, 2001);
	assert_int_equal(serve_queue_any_cooling(&q, 5), 0);
	serve_queue_cool(&q, 2004, 30);
	assert_int_equal(serve_queue_any_cooling(&q, 5), 1);
	assert_int_equal(serve_queue_any_cooling(&q, 31), 0);
	serve_queue_free(&q);
}

static void test_requests(void **state)
{
	(void)state;
	serve_request r;
	const char *uuid = "5f3e1a2b000011112222333344445555";
	char line[200];
	snprintf(line, sizeof line, "lease %s 0.6", uuid);
	assert_int_equal(serve_request_parse(line, 0, &r), 0);
	assert_int_equal(r.kind, SR_LEASE);
	assert_string_equal(r.uuid, uuid);
	assert_true(r.expect_s > 0.59 && r.expect_s < 0.61);
	assert_int_equal(r.has_for, 0);
	snprintf(line, sizeof line, "lease %s 12 for 2002", uuid);
	assert_int_equal(serve_request_parse(line, 0, &r), 0);
	assert_int_equal(r.has_for, 1);
	assert_int_equal(r.for_uid, 2002);
	assert_int_equal(serve_request_parse("submit lab1 demo/scale 3", 0, &r), 0);
	assert_int_equal(r.kind, SR_SUBMIT);
	assert_string_equal(r.course, "lab1");
	assert_string_equal(r.exercise, "demo/scale");
	assert_int_equal(r.nfiles, 3);
	assert_int_equal(serve_request_parse("file sub/my.cuh 1024", 1, &r), 0);
	assert_int_equal(r.kind, SR_FILE);
	assert_string_equal(r.name, "sub/my.cuh");
	assert_int_equal(r.len, 1024);
	snprintf(line, sizeof line, "length %s", uuid);
	assert_int_equal(serve_request_parse(line, 0, &r), 0);
	assert_int_equal(r.kind, SR_LENGTH);
	assert_string_equal(r.uuid, uuid);
	assert_int_equal(serve_request_parse("length 12", 0, &r), -1);
	assert_int_equal(serve_request_parse("status", 0, &r), 0);
	assert_int_equal(r.kind, SR_STATUS);
	assert_int_equal(serve_request_parse("done", 0, &r), 0);
	assert_int_equal(r.kind, SR_DONE);
	static const char *const bad[] = {
		"lease 5F3E1A2B000011112222333344445555 1", "lease 5f3e1a2b 1", "lease %s", "lease %s -1", "lease %s nan", "lease %s 1e9",
		"lease %s 1 for", "lease %s 1 for -5", "lease %s 1 for 99999999999", "lease %s 1 to 2002", "lease %s 1 for 2002 x",
		"lease  %s 1", "submit lab1 demo/scale 0", "submit lab1 demo/scale 17", "submit lab1 demo 1", "submit Lab1 demo/scale 1",
		"submit lab1 demo/scale/x 1", "submit lab1 demo/scale 1 x", "submit lab1 demo/scale +1", "gimme", "", "statusx",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		snprintf(line, sizeof line, bad[i], uuid);
		assert_int_equal(serve_request_parse(line, 0, &r), -1);
		assert_int_equal(r.kind, SR_BAD);
		assert_non_null(r.why);
	}
	static const char *const badfile[] = {
		"file ../x.cu 3", "file /etc/passwd 3", "file .hidden 3", "file a/b/c/d.cu 3", "file a//b.cu 3", "file x;rm.cu 3",
		"file x.cu 262145", "file x.cu -1", "file x.cu", "file x.cu 3 4", "lease x 1", "file x.cu 0x10",
	};
	for (size_t i = 0; i < sizeof badfile / sizeof badfile[0]; i++) {
		assert_int_equal(serve_request_parse(badfile[i], 1, &r), -1);
		assert_non_null(r.why);
	}
	assert_int_equal(serve_request_parse("file x.cu 262144", 1, &r), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(test_turns), cmocka_unit_test(test_requests) };
	return cmocka_run_group_tests(tests, NULL, NULL);
}
