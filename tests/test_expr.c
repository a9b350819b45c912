/* Tests for src/lesson/expr.c: parsing, evaluation, errors with columns, names, formatting. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr.h"

/* ---- helpers ---- */

typedef struct { const char *name; expr_value v; } binding;

static const binding bindings[] = {
	{"n", {EXPR_INT, 1000, 0}},       {"BLOCK", {EXPR_INT, 256, 0}}, {"sm_count", {EXPR_INT, 132, 0}},
	{"TM", {EXPR_INT, 8, 0}},         {"TN", {EXPR_INT, 8, 0}},      {"m", {EXPR_INT, 4096, 0}},
	{"k", {EXPR_INT, 64, 0}},         {"zero", {EXPR_INT, 0, 0}},    {"big", {EXPR_INT, INT64_MAX, 0}},
	{"small", {EXPR_INT, INT64_MIN, 0}}, {"scale", {EXPR_FLOAT, 0, 0.5}}, {"fzero", {EXPR_FLOAT, 0, 0.0}},
	{"notnum", {EXPR_FLOAT, 0, NAN}}, {"infin", {EXPR_FLOAT, 0, INFINITY}},
};

static int lookup_calls;

static int lookup(void *ctx, const char *name, size_t len, expr_value *out)
{
	(void)ctx;
	lookup_calls++;
	for (size_t i = 0; i < sizeof bindings / sizeof bindings[0]; i++)
		if (strlen(bindings[i].name) == len && !memcmp(bindings[i].name, name, len)) {
			*out = bindings[i].v;
			return 0;
		}
	return -1;
}

static expr_value eval_src(const char *src)
{
	expr_error err = { "", 0 };
	expr *e = expr_parse(src, &err);
	if (!e)
		fail_msg("parse of '%s' failed: %s (col %d)", src, err.msg, err.col);
	expr_value v = { EXPR_INT, -12345, 0 };
	if (expr_eval(e, lookup, NULL, &v, &err) != 0)
		fail_msg("eval of '%s' failed: %s (col %d)", src, err.msg, err.col);
	expr_free(e);
	return v;
}

static void check_int(const char *src, int64_t want)
{
	expr_value v = eval_src(src);
	if (v.kind != EXPR_INT || v.i != want)
		fail_msg("'%s': want int %lld, got kind %d i=%lld f=%g", src, (long long)want, v.kind, (long long)v.i, v.f);
}

static void check_float(const char *src, double want)
{
	expr_value v = eval_src(src);
	if (v.kind != EXPR_FLOAT || v.f != want)
		fail_msg("'%s': want float %.17g, got kind %d i=%lld f=%.17g", src, want, v.kind, (long long)v.i, v.f);
}

static void check_parse_error(const char *src, int col, const char *msg)
{
	expr_error err = { "", 0 };
	expr *e = expr_parse(src, &err);
	if (e) {
		expr_free(e);
		fail_msg("'%s' parsed, expected error '%s'", src, msg);
	}
	if (strcmp(err.msg, msg) != 0 || err.col != col)
		fail_msg("'%s': want '%s' at col %d, got '%s' at col %d", src, msg, col, err.msg, err.col);
}

static void check_eval_error(const char *src, int col, const char *msg)
{
	expr_error err = { "", 0 };
	expr *e = expr_parse(src, &err);
	if (!e)
		fail_msg("parse of '%s' failed: %s (col %d)", src, err.msg, err.col);
	expr_value v = { EXPR_INT, 0, 0 };
	int rc = expr_eval(e, lookup, NULL, &v, &err);
	expr_free(e);
	if (rc != -1)
		fail_msg("'%s' evaluated (kind %d, %lld, %g), expected error '%s'", src, v.kind, (long long)v.i, v.f, msg);
	if (strcmp(err.msg, msg) != 0 || err.col != col)
		fail_msg("'%s': want '%s' at col %d, got '%s' at col %d", src, msg, col, err.msg, err.col);
}

/* ---- tests ---- */

static void test_literals(void **state)
{
	(void)state;
	check_int("42", 42);
	check_int("0", 0);
	check_int("007", 7);
	check_int("9223372036854775807", INT64_MAX);
	check_int("0x10", 16);
	check_int("0XfF", 255);
	check_int("0x7fffffffffffffff", INT64_MAX);
	check_float("2.5", 2.5);
	check_float(".5", 0.5);
	check_float("1.", 1.0);
	check_float("1e-6", 1e-6);
	check_float("3.0e8", 3.0e8);
	check_float("2E+3", 2000.0);
	check_float("1e-400", 0.0);  /* underflow to zero is fine */
	check_int("  \t 7 \n", 7);
}

static void test_precedence(void **state)
{
	(void)state;
	check_int("1 + 2 * 3", 7);
	check_int("(1 + 2) * 3", 9);
	check_int("2 * 3 + 4 * 5", 26);
	check_int("1 + 2 << 3", 24);          /* + binds tighter than << */
	check_int("1 << 3 < 5", 0);           /* << before < */
	check_int("1 < 2 == 1", 1);           /* < before == */
	check_int("1 == 1 && 2 == 3", 0);     /* == before && */
	check_int("1 || 0 && 0", 1);          /* && before || */
	check_int("-2 * 3", -6);
	check_int("!0 + 1", 2);               /* unary before binary */
	check_int("-(2 + 3)", -5);
	check_int("- - 3", 3);
	check_int("!!5", 1);
	check_int("!-0", 1);
	check_int("1 ? 2 : 3", 2);
	check_int("0 ? 2 : 3", 3);
	check_int("1 + 1 ? 10 : 20", 10);     /* ternary is lowest */
	check_int("0 ? 1 : 0 ? 2 : 3", 3);    /* right-associative */
	check_int("1 ? 0 ? 7 : 8 : 9", 8);
	check_int("(1)?(2):(3)", 2);
}

static void test_associativity(void **state)
{
	(void)state;
	check_int("10 - 3 - 2", 5);
	check_int("100 / 10 / 5", 2);
	check_int("100 % 7 % 3", 2);
	check_int("1 << 2 << 3", 32);
	check_int("256 >> 2 >> 1", 32);
	check_int("2 - 3 + 4", 3);
	check_int("3 > 2 > 1", 0);            /* (3 > 2) > 1 == 1 > 1 */
	check_int("1 == 1 == 1", 1);
	check_int("1!=2!=0", 1);
	check_int("3>=3<=1", 1);
}

static void test_int_float(void **state)
{
	(void)state;
	check_int("7 / 2", 3);
	check_float("7.0 / 2", 3.5);
	check_float("7 / 2.0", 3.5);
	check_float("1 + 0.5", 1.5);
	check_float("2.0 * m * 64 * k", 2.0 * 4096 * 64 * 64);
	check_int("3 * 4 * n", 12000);
	check_float("scale * 4", 2.0);
	check_int("scale < 1", 1);
	check_int("2.5 == 2.5", 1);
	check_int("1 == 1.0", 1);
	check_int("2 != 2.0", 0);
	check_int("1.5 > 1", 1);
	check_int("1.5 >= 1.5 && 0.1 <= 0.2", 1);
	check_int("0.0 || 0", 0);
	check_int("!0.0", 1);
	check_int("!scale", 0);
	check_float("-scale", -0.5);
	check_int("0.5 ? 1 : 2", 1);
	check_float("1 ? 2.5 : 3", 2.5);
	check_int("1 ? 2 : 3.5", 2);          /* only the taken branch decides the kind */
}

static void test_c_division(void **state)
{
	(void)state;
	check_int("-7 / 2", -3);
	check_int("7 / -2", -3);
	check_int("-7 / -2", 3);
	check_int("-7 % 2", -1);
	check_int("7 % -2", 1);
	check_int("-7 % -2", -1);
	check_int("small % -1", 0);
	check_int("small / 1", INT64_MIN);
	check_float("-7.0 / 2", -3.5);
}

static void test_shifts_and_hex(void **state)
{
	(void)state;
	check_int("1 << 26", 67108864);
	check_int("1 << 62", INT64_C(1) << 62);
	check_int("-1 << 63", INT64_MIN);
	check_int("0 << 63", 0);
	check_int("-3 << 2", -12);
	check_int("0x100 >> 4", 16);
	check_int("-8 >> 1", -4);
	check_int("-7 >> 1", -4);             /* floor, like an arithmetic shift */
	check_int("-1 >> 63", -1);
	check_int("big >> 63", 0);
	check_int("5 >> 0", 5);
	check_int("0xFF >> 4 << 4", 240);
	check_int("0x1F + 0x01", 32);
}

static void test_functions(void **state)
{
	(void)state;
	check_int("min(3, 5)", 3);
	check_int("min(5, 3)", 3);
	check_int("max(3, 5)", 5);
	check_int("max(-3, -5)", -3);
	check_float("min(1, 0.5)", 0.5);
	check_float("max(1, 0.5)", 1.0);      /* mixed arguments give a float */
	check_float("max(2.5, 1.5)", 2.5);
	check_int("ceil_div(10, 3)", 4);
	check_int("ceil_div(9, 3)", 3);
	check_int("ceil_div(0, 7)", 0);
	check_int("ceil_div(1, 1)", 1);
	check_int("ceil_div(-7, 2)", -3);     /* ceil(-3.5) */
	check_int("ceil_div(-6, 2)", -3);
	check_int("ceil_div(big, 2)", INT64_C(4611686018427387904));
	check_int("ceil_div(small, 1)", INT64_MIN);
	check_int("ceil_div(n, BLOCK)", 4);
	check_int("abs(-4)", 4);
	check_int("abs(4)", 4);
	check_float("abs(-2.5)", 2.5);
	check_int("int(2.9)", 2);
	check_int("int(-2.9)", -2);
	check_int("int(7)", 7);
	check_int("int(-9223372036854775808.0)", INT64_MIN);
	check_float("float(3)", 3.0);
	check_float("float(3) / 2", 1.5);
	check_float("float(2.5)", 2.5);
	check_int("log2(1)", 0);
	check_int("log2(2)", 1);
	check_int("log2(1000)", 9);
	check_int("log2(1 << 26)", 26);
	check_int("log2(big)", 62);
	check_float("exp(0)", 1.0);
	check_float("exp(1)", exp(1.0));
	check_float("exp(-float(2 * 2) / 2.0)", exp(-2.0));
	check_float("sqrt(16)", 4.0);
	check_float("sqrt(2.25)", 1.5);
	check_float("sqrt(0)", 0.0);
	check_int("min(sm_count * 8, ceil_div(n, BLOCK * 4))", 1);
	check_int("max ( 1 , min(2, 3) )", 2);
	check_int("BLOCK % 32 == 0 && TM * TN <= 64", 1);
}

static void test_short_circuit(void **state)
{
	(void)state;
	check_int("0 && 1 / 0", 0);
	check_int("1 || 1 / 0", 1);
	check_int("0 && undefined_name", 0);
	check_int("1 || 1 << 99", 1);
	check_int("1 ? 5 : 1 / 0", 5);
	check_int("0 ? 1 / 0 : 6", 6);
	check_int("0 && 1 || 1", 1);
	check_int("2 && 3", 1);
	check_int("0 || 7", 1);
	check_int("0.5 && 1", 1);
	lookup_calls = 0;
	check_int("zero && n", 0);
	assert_int_equal(lookup_calls, 1);
	lookup_calls = 0;
	check_int("n || zero || BLOCK", 1);
	assert_int_equal(lookup_calls, 1);
	check_eval_error("1 && 1 / 0", 8, "division by zero");
	check_eval_error("0 || 1 / 0", 8, "division by zero");
}

static void test_overflow(void **state)
{
	(void)state;
	check_eval_error("big + 1", 5, "integer overflow in '+'");
	check_eval_error("small - 1", 7, "integer overflow in '-'");
	check_eval_error("big * 2", 5, "integer overflow in '*'");
	check_eval_error("-small", 1, "integer overflow in unary '-'");
	check_eval_error("small / -1", 7, "integer overflow in '/'");
	check_eval_error("1 << 63", 3, "integer overflow in '<<'");
	check_eval_error("3 << 62", 3, "integer overflow in '<<'");
	check_eval_error("-2 << 63", 4, "integer overflow in '<<'");
	check_eval_error("abs(small)", 1, "integer overflow in abs()");
	check_eval_error("1e300 * 1e300", 7, "floating-point overflow in '*'");
	check_eval_error("1e308 + 1e308", 7, "floating-point overflow in '+'");
	check_eval_error("1e300 / 1e-300", 7, "floating-point overflow in '/'");
	check_int("big + small", -1);
	check_int("big - big", 0);
	check_int("-9223372036854775807 - 1", INT64_MIN);
	check_parse_error("9223372036854775808", 1, "number is out of range");
	check_parse_error("1 + 99999999999999999999", 5, "number is out of range");
	check_parse_error("0x8000000000000000", 1, "number is out of range");
	check_parse_error("0xffffffffffffffffff", 1, "number is out of range");
	check_parse_error("2 * 1e999", 5, "number is out of range");
}

static void test_eval_errors(void **state)
{
	(void)state;
	check_eval_error("1 / 0", 3, "division by zero");
	check_eval_error("1.0 / 0", 5, "division by zero");
	check_eval_error("1 / fzero", 3, "division by zero");
	check_eval_error("n % zero", 3, "modulo by zero");
	check_eval_error("5 % 2.0", 3, "operator '%' needs integer operands");
	check_eval_error("1.5 << 1", 5, "operator '<<' needs integer operands");
	check_eval_error("8 >> 1.0", 3, "operator '>>' needs integer operands");
	check_eval_error("1 << 64", 3, "shift count 64 is outside 0..63");
	check_eval_error("1 >> -1", 3, "shift count -1 is outside 0..63");
	check_eval_error("1 << big", 3, "shift count 9223372036854775807 is outside 0..63");
	check_eval_error("BLCK * 2", 1, "unknown name 'BLCK'");
	check_eval_error("n + (2 * nope)", 10, "unknown name 'nope'");
	check_eval_error("notnum + 1", 1, "'notnum' does not have a finite value");
	check_eval_error("1 + infin", 5, "'infin' does not have a finite value");
	check_eval_error("ceil_div(5, 0)", 1, "ceil_div() needs a positive divisor, not 0");
	check_eval_error("2 + ceil_div(5, -1)", 5, "ceil_div() needs a positive divisor, not -1");
	check_eval_error("ceil_div(5.0, 2)", 1, "ceil_div() needs integer arguments");
	check_eval_error("ceil_div(5, scale)", 1, "ceil_div() needs integer arguments");
	check_eval_error("int(1e19)", 1, "int() argument is out of the int64 range");
	check_eval_error("int(-1e19)", 1, "int() argument is out of the int64 range");
	check_eval_error("int(9223372036854775808.0)", 1, "int() argument is out of the int64 range");
	check_eval_error("log2(0)", 1, "log2() needs a positive integer");
	check_eval_error("log2(-8)", 1, "log2() needs a positive integer");
	check_eval_error("log2(8.0)", 1, "log2() needs a positive integer");
	check_eval_error("1 + sqrt(-1)", 5, "sqrt() of a negative number");
	check_eval_error("exp(1000)", 1, "exp() overflows a double");
	check_eval_error("min(1, 1 / 0)", 10, "division by zero");  /* errors inside arguments keep their column */
	check_eval_error("(0 ? 1 : 2) / zero", 13, "division by zero");

	/* no lookup at all: every name is unknown */
	expr_error err = { "", 0 };
	expr *e = expr_parse("1 + x", &err);
	assert_non_null(e);
	expr_value v;
	assert_int_equal(expr_eval(e, NULL, NULL, &v, &err), -1);
	assert_string_equal(err.msg, "unknown name 'x'");
	assert_int_equal(err.col, 5);
	assert_int_equal(expr_eval(e, NULL, NULL, &v, NULL), -1);  /* err may be NULL */
	expr_free(e);
}

static void test_parse_errors(void **state)
{
	(void)state;
	check_parse_error("", 1, "empty expression");
	check_parse_error("   ", 1, "empty expression");
	check_parse_error("(1 + 2", 7, "expected ')', found the end of the expression");
	check_parse_error("(1 + 2 3", 8, "expected ')', found '3'");
	check_parse_error("1 +", 4, "expected a value, found the end of the expression");
	check_parse_error("1 + * 2", 5, "expected a value, found '*'");
	check_parse_error(")", 1, "expected a value, found ')'");
	check_parse_error("1 2", 3, "expected an operator, found '2'");
	check_parse_error("n m", 3, "expected an operator, found 'm'");
	check_parse_error("(1))", 4, "expected an operator, found ')'");
	check_parse_error("1 $ 2", 3, "unexpected character '$'");
	check_parse_error("a = 2", 3, "unexpected character '='");
	check_parse_error("a & b", 3, "unexpected character '&'");
	check_parse_error("a | b", 3, "unexpected character '|'");
	check_parse_error("1 + .", 5, "unexpected character '.'");
	check_parse_error("1 +\x01", 4, "unexpected byte 0x01");
	check_parse_error("\xc3\xa9", 1, "unexpected byte 0xc3");
	check_parse_error("1 ? 2", 6, "expected ':', found the end of the expression");
	check_parse_error("1 ? 2 , 3", 7, "expected ':', found ','");
	check_parse_error("foo(1)", 1, "unknown function 'foo'");
	check_parse_error("2 * BLCK(3)", 5, "unknown function 'BLCK'");
	check_parse_error("min(1)", 1, "min() takes 2 arguments, not 1");
	check_parse_error("1 + max(1, 2, 3)", 5, "max() takes 2 arguments, not 3");
	check_parse_error("abs()", 1, "abs() takes 1 argument, not 0");
	check_parse_error("log2(1, 2)", 1, "log2() takes 1 argument, not 2");
	check_parse_error("min(1 2)", 7, "expected ',' or ')', found '2'");
	check_parse_error("min(1,", 7, "expected a value, found the end of the expression");
	check_parse_error("min(1, 2", 9, "expected ',' or ')', found the end of the expression");
	check_parse_error("min(,2)", 5, "expected a value, found ','");
	check_parse_error("12abc", 1, "malformed number '12abc'");
	check_parse_error("1 + 0x", 5, "malformed number '0x'");
	check_parse_error("0xfg", 1, "malformed number '0xfg'");
	check_parse_error("1.2.3", 1, "malformed number '1.2.3'");
	check_parse_error("1e", 1, "malformed number '1e'");
	check_parse_error("2e+", 1, "malformed number '2e'");
	check_parse_error("0x1.8", 1, "malformed number '0x1.8'");
	check_parse_error("+1", 1, "expected a value, found '+'");
	check_parse_error("(=1)", 2, "unexpected character '='");
	check_parse_error("1 != = 2", 6, "unexpected character '='");
	check_parse_error("1 ! 2", 3, "expected an operator, found '!'");
	check_parse_error("1e5x", 1, "malformed number '1e5x'");

	expr *e = expr_parse("(", NULL);  /* err may be NULL */
	assert_null(e);
}

static void test_nesting_limit(void **state)
{
	(void)state;
	const char *too_deep = "expression is nested more than 64 levels deep";
	char buf[1024];
	for (int extra = 0; extra <= 1; extra++) {  /* EXPR_MAX_DEPTH parentheses are fine, one more is not */
		int depth = EXPR_MAX_DEPTH + extra;
		size_t len = 0;
		for (int i = 0; i < depth; i++)
			buf[len++] = '(';
		buf[len++] = '7';
		for (int i = 0; i < depth; i++)
			buf[len++] = ')';
		buf[len] = '\0';
		if (extra)
			check_parse_error(buf, EXPR_MAX_DEPTH + 1, too_deep);
		else
			check_int(buf, 7);
	}

	/* unary operators nest too: 64 are fine, the 65th fails at its column */
	memset(buf, '-', 64);
	strcpy(buf + 64, "1");
	check_int(buf, 1 - 1 + 1);
	memset(buf, '-', 200);
	strcpy(buf + 200, "1");
	check_parse_error(buf, EXPR_MAX_DEPTH + 1, too_deep);

	/* so do call arguments and ternary branches */
	size_t len = 0;
	for (int i = 0; i < 40; i++)
		len += (size_t)sprintf(buf + len, "abs(");
	strcpy(buf + len, "-1");
	len += 2;
	for (int i = 0; i < 40; i++)
		buf[len++] = ')';
	buf[len] = '\0';
	check_int(buf, 1);
	len = 0;
	for (int i = 0; i < 65; i++)
		len += (size_t)sprintf(buf + len, "min(1,");
	strcpy(buf + len, "1");
	check_parse_error(buf, 6 * 64 + 4, too_deep);  /* the 65th call's '(' */
	len = 0;
	for (int i = 0; i < 64; i++)
		len += (size_t)sprintf(buf + len, "0?1:");
	strcpy(buf + len, "5");
	check_int(buf, 5);
	strcpy(buf + len, "0?1:5");
	check_parse_error(buf, 4 * 64 + 2, too_deep);

	/* far deeper input is rejected without exhausting the stack */
	size_t big = 1000000;
	char *deep = malloc(big + 1);
	assert_non_null(deep);
	memset(deep, '(', big);
	deep[big] = '\0';
	expr_error err;
	assert_null(expr_parse(deep, &err));
	assert_string_equal(err.msg, too_deep);
	assert_int_equal(err.col, EXPR_MAX_DEPTH + 1);
	free(deep);
}

static void test_long_input(void **state)
{
	(void)state;
	/* long flat chains are fine: they are evaluated in a loop, not by recursion */
	size_t terms = 200000;
	char *s = malloc(terms * 2 + 1);
	assert_non_null(s);
	for (size_t i = 0; i < terms; i++) {
		s[2 * i] = '1';
		s[2 * i + 1] = '+';
	}
	s[terms * 2 - 1] = '\0';
	check_int(s, (int64_t)terms);
	for (size_t i = 0; i < terms; i++)
		s[2 * i + 1] = '*';
	s[terms * 2 - 1] = '\0';
	check_int(s, 1);
	for (size_t i = 0; i < terms; i++)
		s[2 * i + 1] = '-';
	s[terms * 2 - 1] = '\0';
	check_int(s, 1 - (int64_t)(terms - 1));
	free(s);
}

typedef struct { int count; char names[8][16]; int cols[8]; int stop_at; } name_log;

static int collect(void *ctx, const char *name, size_t len, int col)
{
	name_log *log = ctx;
	assert_true(log->count < 8 && len < 16);
	memcpy(log->names[log->count], name, len);
	log->names[log->count][len] = '\0';
	log->cols[log->count] = col;
	log->count++;
	return log->count == log->stop_at ? 99 : 0;
}

static void test_names(void **state)
{
	(void)state;
	const char *src = "min(sm_count * 8, ceil_div(n, BLOCK * 4)) + (x ? y : -z) + !w";
	expr *e = expr_parse(src, NULL);
	assert_non_null(e);
	assert_string_equal(expr_source(e), src);
	name_log log = { 0 };
	assert_int_equal(expr_names(e, collect, &log), 0);
	const char *want[] = { "sm_count", "n", "BLOCK", "x", "y", "z", "w" };
	assert_int_equal(log.count, 7);
	for (int i = 0; i < 7; i++) {
		assert_string_equal(log.names[i], want[i]);
		assert_int_equal(log.cols[i], (int)(strstr(src, i == 1 ? "n, " : want[i]) - src) + 1);
	}

	/* a non-zero return stops the walk and is passed back */
	name_log stop = { .stop_at = 2 };
	assert_int_equal(expr_names(e, collect, &stop), 99);
	assert_int_equal(stop.count, 2);
	expr_free(e);

	/* function names are not visited; a function name without '(' is a plain name */
	e = expr_parse("log2(max) + abs(1)", NULL);
	assert_non_null(e);
	name_log only = { 0 };
	assert_int_equal(expr_names(e, collect, &only), 0);
	assert_int_equal(only.count, 1);
	assert_string_equal(only.names[0], "max");
	assert_int_equal(only.cols[0], 6);
	expr_free(e);

	/* repeated names are visited every time; no names means no calls */
	e = expr_parse("n * n - 2", NULL);
	name_log rep = { 0 };
	assert_int_equal(expr_names(e, collect, &rep), 0);
	assert_int_equal(rep.count, 2);
	assert_int_equal(rep.cols[0], 1);
	assert_int_equal(rep.cols[1], 5);
	expr_free(e);
	e = expr_parse("1 + 2", NULL);
	name_log none = { 0 };
	assert_int_equal(expr_names(e, collect, &none), 0);
	assert_int_equal(none.count, 0);
	expr_free(e);
}

static void test_reuse(void **state)
{
	(void)state;
	/* one tree evaluates many times; lookup context is passed through */
	expr *e = expr_parse("ceil_div(n, BLOCK)", NULL);
	assert_non_null(e);
	expr_value v;
	expr_error err;
	for (int i = 0; i < 3; i++) {
		assert_int_equal(expr_eval(e, lookup, NULL, &v, &err), 0);
		assert_int_equal(v.kind, EXPR_INT);
		assert_int_equal(v.i, 4);
	}
	expr_free(e);
	expr_free(NULL);
}

static void test_format(void **state)
{
	(void)state;
	char buf[64];
	assert_string_equal(expr_format((expr_value){ EXPR_INT, 42, 0 }, buf, sizeof buf), "42");
	assert_string_equal(expr_format((expr_value){ EXPR_INT, -7, 0 }, buf, sizeof buf), "-7");
	assert_string_equal(expr_format((expr_value){ EXPR_INT, INT64_MIN, 0 }, buf, sizeof buf), "-9223372036854775808");
	assert_string_equal(expr_format((expr_value){ EXPR_FLOAT, 0, 2.5 }, buf, sizeof buf), "2.5");
	assert_string_equal(expr_format((expr_value){ EXPR_FLOAT, 0, 1e-6 }, buf, sizeof buf), "1e-06");
	assert_string_equal(expr_format((expr_value){ EXPR_FLOAT, 0, 3.0e8 }, buf, sizeof buf), "3e+08");
	assert_string_equal(expr_format((expr_value){ EXPR_FLOAT, 0, 2.0 }, buf, sizeof buf), "2");
	assert_string_equal(expr_format((expr_value){ EXPR_FLOAT, 0, 268435456.0 }, buf, sizeof buf), "268435456");
	assert_string_equal(expr_format((expr_value){ EXPR_FLOAT, 0, 0.1 + 0.2 }, buf, sizeof buf), "0.30000000000000004");
	assert_string_equal(expr_format((expr_value){ EXPR_FLOAT, 0, 1.0 / 3 }, buf, sizeof buf), "0.3333333333333333");
	assert_string_equal(expr_format((expr_value){ EXPR_FLOAT, 0, 0.1 }, buf, sizeof buf), "0.1");
	char small[4];
	assert_string_equal(expr_format((expr_value){ EXPR_INT, 123456, 0 }, small, sizeof small), "123");
	assert_ptr_equal(expr_format((expr_value){ EXPR_INT, 1, 0 }, buf, 0), buf);
}

static void test_conversions(void **state)
{
	(void)state;
	assert_true(expr_as_double((expr_value){ EXPR_INT, 3, 0 }) == 3.0);
	assert_true(expr_as_double((expr_value){ EXPR_FLOAT, 0, 2.5 }) == 2.5);
	assert_int_equal(expr_as_int((expr_value){ EXPR_INT, -9, 0 }), -9);
	assert_int_equal(expr_as_int((expr_value){ EXPR_FLOAT, 0, 2.9 }), 2);
	assert_int_equal(expr_as_int((expr_value){ EXPR_FLOAT, 0, -2.9 }), -2);
	assert_true(expr_as_int((expr_value){ EXPR_FLOAT, 0, 1e30 }) == INT64_MAX);
	assert_true(expr_as_int((expr_value){ EXPR_FLOAT, 0, -1e30 }) == INT64_MIN);
	assert_int_equal(expr_as_int((expr_value){ EXPR_FLOAT, 0, NAN }), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_literals),       cmocka_unit_test(test_precedence),
		cmocka_unit_test(test_associativity),  cmocka_unit_test(test_int_float),
		cmocka_unit_test(test_c_division),     cmocka_unit_test(test_shifts_and_hex),
		cmocka_unit_test(test_functions),      cmocka_unit_test(test_short_circuit),
		cmocka_unit_test(test_overflow),       cmocka_unit_test(test_eval_errors),
		cmocka_unit_test(test_parse_errors),   cmocka_unit_test(test_nesting_limit),
		cmocka_unit_test(test_long_input),     cmocka_unit_test(test_names),
		cmocka_unit_test(test_reuse),          cmocka_unit_test(test_format),
		cmocka_unit_test(test_conversions),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
