/* Tests for src/core/yamldoc.c: a syntax error at its file:line:col (1-based), an encoding error at its
 * real place, a wrong type, an unknown and a missing required key, numbers (the grammar, the range
 * of the type and the caller's range), booleans, lists of strings, one document only; and the bounds (depth, aliases, expanded size, duplicate and merge keys). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <float.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include "util.h"
#include "yamldoc.h"

static char err[512];

/* Loads text as "t.yaml"; the document's top node (the caller yd_done's c). */
static yaml_node_t *load(yd *c, const char *text)
{
	memset(c, 0, sizeof *c);
	c->file = "t.yaml";
	c->err = err;
	c->errlen = sizeof err;
	err[0] = 0;
	assert_int_equal(yd_load(c, text, strlen(text)), 0);
	return yd_root(c);
}

/* text does not load; the message is want. */
static void syntax_error(const char *text, const char *want)
{
	yd c = { .file = "t.yaml", .err = err, .errlen = sizeof err };
	assert_int_equal(yd_load(&c, text, strlen(text)), -1);
	assert_true(c.failed);
	assert_string_equal(err, want);
	yd_done(&c);   /* nothing held: a no-op */
}

static void test_syntax(void **state)
{
	(void)state;
	/* libyaml's common problems in plain words, its own in parentheses */
	syntax_error("a: 1\nb: 2: 3\n", "t.yaml:2:5: a second ': ' on line 2: YAML reads 'key: value: more' as a mapping inside a value; "
	             "put the value in quotes if it holds ': ' (libyaml: mapping values are not allowed in this context)");
	syntax_error("a: 1\nb: 2\n  c: 3\n", "t.yaml:3:4: line 3 is indented more than line 2, so YAML reads it as more of line 2's value: "
	             "YAML nests by indentation; line it up with the keys above it (libyaml: mapping values are not allowed in this context)");
	syntax_error("a:\n  b: 1\n  c: 2\n d: 3\n", "t.yaml:4:2: line 4 is indented differently from the lines around it: YAML nests by "
	             "indentation, and the keys of the mapping that starts on line 1 are at column 1; line it up with them, or indent it "
	             "under a key (libyaml: did not find expected key while parsing a block mapping (line 1))");
	syntax_error("a:\n  - 1\n  - 2\n   x: 3\n", "t.yaml:4:5: line 4 is indented more than line 3, so YAML reads it as more of line 3's "
	             "value: YAML nests by indentation; line it up with the keys above it (libyaml: mapping values are not allowed in this context)");
	syntax_error("a: 1\nb\nc: 2\n", "t.yaml:2:1: line 2 has no ': ' after its key: YAML reads 'key: value' lines (is a ':' missing, or a "
	             "value carried onto the next line without quotes?) (libyaml: could not find expected ':' while scanning a simple key (line 2))");
	syntax_error("a: 1\n\tb: 2\n", "t.yaml:2:1: line 2 has a tab where YAML wants spaces: YAML indents with spaces only (libyaml: found a "
	             "tab character that violates indentation while scanning a plain scalar (line 1))");
	syntax_error("a: - 1\n", "t.yaml:1:4: a list item ('- ') on line 1 cannot start on a key's line: put each item on a line of its own "
	             "below the key, indented (libyaml: block sequence entries are not allowed in this context)");
	syntax_error("a: \"x\nb: 1\n", "t.yaml:1:4: the quote opened on line 1 is never closed (libyaml: found unexpected end of stream "
	             "while scanning a quoted scalar (line 1))");
	syntax_error("a: [1,\n", "t.yaml:2:1: did not find expected node content while parsing a flow node (line 2)");
	/* encoding errors carry a byte offset: shown at their line and column */
	syntax_error("a: 1\nb: x\xff\n", "t.yaml:2:5: invalid leading UTF-8 octet");
	static const char nul[] = "a: 1\nbb: 9\0\n";
	yd c = { .file = "t.yaml", .err = err, .errlen = sizeof err };
	assert_int_equal(yd_load(&c, nul, sizeof nul - 1), -1);
	assert_string_equal(err, "t.yaml:2:6: control characters are not allowed");
}

static void test_empty_and_end(void **state)
{
	(void)state;
	yd c;
	assert_null(load(&c, "# only a comment\n"));
	assert_int_equal(c.end.line, 1);   /* where the text ends: line 2, column 1 */
	assert_int_equal(c.end.column, 0);
	assert_int_equal(yd_end(&c, "one only"), 0);
	yd_done(&c);
	assert_non_null(load(&c, "a: 1\n"));
	assert_int_equal(yd_end(&c, "one only"), 0);
	yd_done(&c);
	assert_non_null(load(&c, "a: 1\n---\nb: 2\n"));
	assert_int_equal(yd_end(&c, "one document only"), -1);
	assert_string_equal(err, "t.yaml:3:1: one document only");
	yd_done(&c);
	assert_non_null(load(&c, "a: 1\n---\nb: [\n"));
	assert_int_equal(yd_end(&c, "one document only"), -1);
	assert_string_equal(err, "t.yaml:4:1: did not find expected node content while parsing a flow node (line 4)");
	yd_done(&c);
	yd_done(&c);   /* twice is harmless */
}

static void test_types_and_keys(void **state)
{
	(void)state;
	yd c;
	yaml_node_t *root = load(&c, "name: x\nlist: [a, b]\nmap: { k: v }\n");
	assert_string_equal(yd_scalar(&c, yd_get(&c, root, "name"), "name"), "x");
	assert_null(yd_get(&c, root, "absent"));
	assert_null(yd_scalar(&c, yd_get(&c, root, "list"), "list"));
	assert_string_equal(err, "t.yaml:2:7: list must be a single value");
	/* the first error stays */
	assert_int_equal(yd_fail(&c, root, "later"), -1);
	assert_string_equal(err, "t.yaml:2:7: list must be a single value");
	yd_done(&c);

	root = load(&c, "name: x\nlist: [a, b]\n");
	static const char *const keys[] = { "!name", "list", NULL };
	assert_int_equal(yd_check_keys(&c, root, "a thing", keys), 0);
	static const char *const fewer[] = { "!name", "size", NULL };
	assert_int_equal(yd_check_keys(&c, root, "a thing", fewer), -1);
	assert_string_equal(err, "t.yaml:2:1: unknown key 'list' in a thing (expected one of: name, size)");
	yd_done(&c);

	root = load(&c, "list: [a, b]\n");
	assert_int_equal(yd_check_keys(&c, root, "a thing", keys), -1);
	assert_string_equal(err, "t.yaml:1:1: a thing needs 'name'");
	yd_done(&c);

	/* with all: every unknown key, the nearest name, in order of place; a needed key misspelt is not
	 * also said to be missing; the first error still goes to err */
	yd_errors all = {0};
	c = (yd){ .file = "t.yaml", .err = err, .errlen = sizeof err, .all = &all };
	static const char two[] = "nmae: x\n\nsise: 2\n";
	assert_int_equal(yd_load(&c, two, sizeof two - 1), 0);
	assert_int_equal(yd_check_keys(&c, yd_root(&c), "a thing", fewer), -1);
	assert_int_equal(all.n, 2);
	assert_string_equal(all.v[0].text, "t.yaml:1:1: unknown key 'nmae' in a thing (expected one of: name, size); did you mean 'name'?");
	assert_string_equal(all.v[1].text, "t.yaml:3:1: unknown key 'sise' in a thing (expected one of: name, size); did you mean 'size'?");
	assert_string_equal(err, all.v[0].text);
	yd_fail_at(&c, (yaml_mark_t){ 0, 1, 0 }, "line two");
	yd_fail_at(&c, (yaml_mark_t){ 0, 1, 0 }, "line two");   /* the same twice is kept once */
	yd_errors_sort(&all);
	assert_int_equal(all.n, 3);
	assert_string_equal(all.v[1].text, "t.yaml:2:1: line two");
	yd_done(&c);
	yd_errors_free(&all);

	root = load(&c, "- a\n- b\n");
	assert_null(yd_get(&c, root, "a"));   /* not a mapping: yd_check_keys says so */
	assert_int_equal(yd_check_keys(&c, root, "a thing", keys), -1);
	assert_string_equal(err, "t.yaml:1:1: a thing must be a mapping (key: value)");
	yd_done(&c);

	root = load(&c, "[x]: 1\n");
	assert_int_equal(yd_check_keys(&c, root, "a thing", keys), -1);
	assert_string_equal(err, "t.yaml:1:1: a key must be a single value");
	yd_done(&c);
}

static void test_items(void **state)
{
	(void)state;
	yd c;
	yaml_node_t *root = load(&c, "one: a\nmany: [a, b, c]\nmap: { k: v, l: w }\n");
	assert_int_equal(yd_map_len(root), 3);
	yaml_node_t *k, *v;
	yd_pair(&c, root, 1, &k, &v);
	assert_string_equal((const char *)k->data.scalar.value, "many");
	assert_int_equal(yd_seq_len(v), 3);
	assert_string_equal((const char *)yd_seq_at(&c, v, 2)->data.scalar.value, "c");
	assert_int_equal(yd_seq_len(root), 0);
	assert_int_equal(yd_map_len(v), 0);
	char **s = NULL;
	int n = 0;
	assert_int_equal(yd_strings(&c, v, "many", &s, &n), 0);
	assert_int_equal(n, 3);
	assert_string_equal(s[1], "b");
	for (int i = 0; i < n; i++) free(s[i]);
	free(s);
	s = NULL;
	n = 0;
	assert_int_equal(yd_strings(&c, yd_get(&c, root, "one"), "one", &s, &n), 0);
	assert_int_equal(n, 1);
	assert_string_equal(s[0], "a");
	free(s[0]);
	free(s);
	s = NULL;
	n = 0;
	assert_int_equal(yd_strings(&c, yd_get(&c, root, "map"), "map", &s, &n), -1);
	assert_string_equal(err, "t.yaml:3:6: map must be a list");
	yd_done(&c);
	char *str = NULL;
	root = load(&c, "a: x\nb: [y]\n");
	assert_int_equal(yd_get_str(&c, root, "none", &str), 0);
	assert_null(str);
	assert_int_equal(yd_get_str(&c, root, "a", &str), 0);
	assert_string_equal(str, "x");
	free(str);
	assert_int_equal(yd_get_str(&c, root, "b", &str), -1);
	assert_string_equal(err, "t.yaml:2:4: b must be a single value");
	yd_done(&c);
}

static void test_text_numbers(void **state)
{
	(void)state;
	long long i;
	double d;
	assert_int_equal(yd_text_int("-42", 3, &i), 0);
	assert_int_equal(i, -42);
	assert_int_equal(yd_text_int("+7", 2, &i), 0);
	assert_int_equal(i, 7);
	assert_int_equal(yd_text_int("9223372036854775807", 19, &i), 0);
	assert_true(i == INT64_MAX);
	assert_int_equal(yd_text_int("-9223372036854775808", 20, &i), 0);
	assert_true(i == INT64_MIN);
	assert_int_equal(yd_text_int("9223372036854775808", 19, &i), -2);
	assert_int_equal(yd_text_int("99999999999999999999x", 21, &i), -1);
	assert_int_equal(yd_text_int("", 0, &i), -1);
	assert_int_equal(yd_text_int("-", 1, &i), -1);
	assert_int_equal(yd_text_int("0x10", 4, &i), -1);
	assert_int_equal(yd_text_int("1 ", 2, &i), -1);
	assert_int_equal(yd_text_double("2.5e3", 5, &d), 0);
	assert_true(d == 2500.0);
	assert_int_equal(yd_text_double(".5", 2, &d), 0);
	assert_true(d == 0.5);
	assert_int_equal(yd_text_double("1e999", 5, &d), -2);
	assert_int_equal(yd_text_double("nan", 3, &d), -1);
	assert_int_equal(yd_text_double("1e", 2, &d), -1);
	assert_int_equal(yd_text_double(".", 1, &d), -1);
	/* the decimal point is '.' whatever the locale */
	if (setlocale(LC_NUMERIC, "de_DE.UTF-8") || setlocale(LC_NUMERIC, "fr_FR.UTF-8")) {
		assert_int_equal(yd_text_double("0.25", 4, &d), 0);
		assert_true(d == 0.25);
		setlocale(LC_NUMERIC, "C");
	}
}

static void test_numbers(void **state)
{
	(void)state;
	yd c;
	yaml_node_t *root = load(&c, "n: 12\nf: 0.5\nbig: 99999999999999999999\nword: ten\nhuge: 1e999\nlist: [1]\n");
	int64_t i;
	double d;
	assert_int_equal(yd_int(&c, yd_get(&c, root, "n"), "n", INT64_MIN, INT64_MAX, &i), 0);
	assert_int_equal(i, 12);
	assert_int_equal(yd_double(&c, yd_get(&c, root, "f"), "f", 0, 1, &d), 0);
	assert_true(d == 0.5);
	assert_int_equal(yd_int(&c, yd_get(&c, root, "n"), "n", 1, 10, &i), -1);
	assert_string_equal(err, "t.yaml:1:4: n must be from 1 to 10, not '12'");
	c.failed = 0;
	assert_int_equal(yd_double(&c, yd_get(&c, root, "f"), "f", 1, 10, &d), -1);
	assert_string_equal(err, "t.yaml:2:4: f must be from 1 to 10, not '0.5'");
	c.failed = 0;
	assert_int_equal(yd_int(&c, yd_get(&c, root, "big"), "big", INT64_MIN, INT64_MAX, &i), -1);
	assert_string_equal(err, "t.yaml:3:6: big must be a whole number, not '99999999999999999999'");
	c.failed = 0;
	assert_int_equal(yd_int(&c, yd_get(&c, root, "f"), "f", INT64_MIN, INT64_MAX, &i), -1);
	assert_string_equal(err, "t.yaml:2:4: f must be a whole number, not '0.5'");
	c.failed = 0;
	assert_int_equal(yd_double(&c, yd_get(&c, root, "word"), "word", -DBL_MAX, DBL_MAX, &d), -1);
	assert_string_equal(err, "t.yaml:4:7: word must be a number, not 'ten'");
	c.failed = 0;
	assert_int_equal(yd_double(&c, yd_get(&c, root, "huge"), "huge", -DBL_MAX, DBL_MAX, &d), -1);
	assert_string_equal(err, "t.yaml:5:7: huge must be a number, not '1e999'");
	c.failed = 0;
	assert_int_equal(yd_int(&c, yd_get(&c, root, "list"), "list", 0, 1, &i), -1);
	assert_string_equal(err, "t.yaml:6:7: list must be a single value");
	yd_done(&c);
}

static void test_bools(void **state)
{
	(void)state;
	yd c;
	yaml_node_t *root = load(&c, "a: yes\nb: false\nc: maybe\n");
	int v = -1;
	assert_int_equal(yd_bool(&c, yd_get(&c, root, "a"), "a", &v), 0);
	assert_int_equal(v, 1);
	assert_int_equal(yd_bool(&c, yd_get(&c, root, "b"), "b", &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(yd_bool(&c, yd_get(&c, root, "c"), "c", &v), -1);
	assert_string_equal(err, "t.yaml:3:4: c must be true or false, not 'maybe'");
	yd_done(&c);
}

/* Without a place for the message, errors are only counted. */
static void test_no_err(void **state)
{
	(void)state;
	yd c = { .file = "t.yaml" };
	assert_int_equal(yd_load(&c, "a: [", 4), -1);
	assert_true(c.failed);
	yd c2 = { .file = "t.yaml" };
	assert_int_equal(yd_load(&c2, "a: b", 4), 0);
	assert_null(yd_scalar(&c2, yd_root(&c2), "top"));
	assert_true(c2.failed);
	yd_done(&c2);
}

/* A heap text of n copies of unit, then tail. */
static char *repeat(const char *head, const char *unit, int n, const char *tail)
{
	size_t hl = strlen(head), ul = strlen(unit), tl = strlen(tail);
	char *b = malloc(hl + ul * (size_t)n + tl + 1), *o = b;
	memcpy(o, head, hl); o += hl;
	for (int i = 0; i < n; i++) { memcpy(o, unit, ul); o += ul; }
	memcpy(o, tail, tl + 1);
	return b;
}

/* The bounds: depth, aliases, the expanded size, loops; each refused at file:line:col. */
static void test_bounds(void **state)
{
	(void)state;
	yd c;
	/* 64 levels load, 65 do not: refused while parsing, at the 65th '[' */
	char *t = repeat("a: ", "[", 63, "");
	char *u = repeat(t, "]", 63, "\n");
	assert_non_null(load(&c, u));
	yd_done(&c);
	free(t); free(u);
	t = repeat("a: ", "[", 64, "");
	u = repeat(t, "]", 64, "\n");
	syntax_error(u, "t.yaml:1:67: nested more than 64 levels deep");
	free(t); free(u);
	/* 100 000 levels: refused at once (libyaml's own walk of them is quadratic) */
	t = repeat("", "[", 100000, "");
	syntax_error(t, "t.yaml:1:65: nested more than 64 levels deep");
	free(t);
	t = repeat("", "- ", 100, "x\n");
	syntax_error(t, "t.yaml:1:129: nested more than 64 levels deep");
	free(t);
	/* billion laughs: each level ten aliases of the one before */
	sb b = {0};
	sb_addf(&b, "l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
	for (int i = 1; i < 9; i++) {
		sb_addf(&b, "l%d: &l%d [", i, i);
		for (int k = 0; k < 10; k++) sb_addf(&b, "%s*l%d", k ? ", " : "", i - 1);
		sb_addf(&b, "]\n");
	}
	syntax_error(b.s, "t.yaml:6:5: aliases expand this to more than 1000000 nodes (an alias bomb?)");
	sb_free(&b);
	/* a long scalar aliased: the expanded bytes, 8x the text (1 MiB at least) */
	t = repeat("s: &s ", "x", 1 << 16, "\nl: [");
	u = repeat(t, "*s, ", 20, "*s]\n");
	syntax_error(u, "t.yaml:2:4: aliases expand this to more than 1048576 bytes of text (an alias bomb?)");
	free(t); free(u);
	/* many aliases of a small node */
	t = repeat("x: &x 1\nl: [", "*x, ", 10000, "*x]\n");
	syntax_error(t, "t.yaml:2:40005: more than 10000 aliases (an alias bomb?)");
	free(t);
	/* an alias is the node it names, shared */
	yaml_node_t *r = load(&c, "a: &a { k: 1 }\nb: *a\n");
	assert_ptr_equal(yd_get(&c, r, "a"), yd_get(&c, r, "b"));
	yd_done(&c);
	syntax_error("a: &a [1, *a]\n", "t.yaml:1:11: alias *a is inside the node it names (a loop)");
	syntax_error("a: *nope\n", "t.yaml:1:4: unknown anchor 'nope' (an alias *nope needs an &nope before it)");
}

/* Keys: once per mapping; merge keys refused. */
static void test_duplicate_keys(void **state)
{
	(void)state;
	yd c;
	syntax_error("a: 1\nb: 2\na: 3\n", "t.yaml:3:1: duplicate key 'a' (first at line 1)");
	syntax_error("x:\n  k: 1\n  j: 2\n  j: 3\n  k: 4\n", "t.yaml:4:3: duplicate key 'j' (first at line 3)");
	syntax_error("{ a: 1, \"a\": 2 }\n", "t.yaml:1:9: duplicate key 'a' (first at line 1)");
	syntax_error("b: &b { a: 1 }\nc: { <<: *b, d: 2 }\n",
	             "t.yaml:2:6: merge keys (<<) are not supported; repeat the keys or use an anchor on the whole mapping");
	/* the same key in two mappings, and a quoted "<<", are fine */
	assert_non_null(load(&c, "a: { k: 1 }\nb: { k: 1, \"<<\": 2 }\n"));
	yd_done(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_syntax), cmocka_unit_test(test_empty_and_end), cmocka_unit_test(test_types_and_keys),
		cmocka_unit_test(test_items), cmocka_unit_test(test_text_numbers), cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_bools), cmocka_unit_test(test_no_err), cmocka_unit_test(test_bounds),
		cmocka_unit_test(test_duplicate_keys),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
