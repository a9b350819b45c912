/* expr: the lesson expression language - a recursive-descent parser to a small tree, and its evaluator.
 * Left-associative operator runs (a + b - c + ...) are one "chain" node evaluated in a loop, so long
 * input never makes a deep tree; only parentheses, calls, unary operators and ternaries nest, and they
 * are capped at EXPR_MAX_DEPTH. */
#include "expr.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util.h"

typedef enum { N_NUM, N_NAME, N_NEG, N_NOT, N_CHAIN, N_COND, N_CALL } expr_node_kind;
typedef enum {
	OP_NONE, OP_OR, OP_AND, OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE,
	OP_SHL, OP_SHR, OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MOD
} expr_op;
typedef enum { F_MIN, F_MAX, F_CEIL_DIV, F_ABS, F_INT, F_FLOAT, F_LOG2, F_EXP, F_SQRT, F_COUNT } expr_func;

static const struct { const char *name; int nargs; } expr_funcs[F_COUNT] = {
	{"min", 2}, {"max", 2}, {"ceil_div", 2}, {"abs", 1}, {"int", 1}, {"float", 1}, {"log2", 1},
	{"exp", 1}, {"sqrt", 1},
};
/* Binary operators by precedence level (0 binds loosest); two-character ones first for the lexer. */
enum { EXPR_LEVELS = 7 };
static const struct { const char *text; expr_op op; int level; } expr_ops[] = {
	{"||", OP_OR, 0}, {"&&", OP_AND, 1}, {"==", OP_EQ, 2}, {"!=", OP_NE, 2}, {"<=", OP_LE, 3},
	{">=", OP_GE, 3}, {"<<", OP_SHL, 4}, {">>", OP_SHR, 4}, {"<", OP_LT, 3}, {">", OP_GT, 3},
	{"+", OP_ADD, 5}, {"-", OP_SUB, 5}, {"*", OP_MUL, 6}, {"/", OP_DIV, 6}, {"%", OP_MOD, 6},
};

static const char *expr_op_text(expr_op op)
{
	for (size_t k = 0; k < sizeof expr_ops / sizeof expr_ops[0]; k++)
		if (expr_ops[k].op == op)
			return expr_ops[k].text;
	return "?";
}

typedef struct expr_node expr_node;
struct expr_node {
	expr_node_kind kind;
	int col;                /* 1-based column: of a value's first character, else of its operator */
	expr_op binop;          /* as an item of a chain after the first: the operator before it */
	int opcol;              /* ... and that operator's column */
	expr_func func;         /* N_CALL */
	expr_value val;         /* N_NUM */
	const char *name;       /* N_NAME, N_CALL: points into the owned source */
	size_t len;
	expr_node *kid, *next;  /* first child, next sibling */
	expr_node *all;         /* every node of the tree, for freeing without recursion */
};

struct expr { char *src; expr_node *root; expr_node *nodes; };

/* ---- errors ---- */

static int expr_col(size_t pos) { return pos >= (size_t)INT_MAX ? INT_MAX : (int)pos + 1; }
static int expr_clamp_len(size_t len) { return len > 40 ? 40 : (int)len; }

__attribute__((format(printf, 3, 4)))
static void expr_set_error(expr_error *err, int col, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof err->msg, fmt, ap);
	va_end(ap);
	err->col = col;
}

/* ---- lexer ---- */

enum { T_END = 256, T_NUM, T_NAME, T_OP };  /* other tokens are their character: ( ) ! ? : , */

typedef struct {
	const char *s;
	size_t pos;             /* next character to lex */
	int tok;                /* current token */
	size_t tpos, tlen;      /* its position and length */
	int op;                 /* T_OP: index into expr_ops */
	expr_value num;         /* T_NUM */
	int depth;              /* nesting, capped at EXPR_MAX_DEPTH */
	expr *e;
	expr_error *err;
} expr_parser;

/* ASCII only: ctype's isalpha depends on the locale. */
static bool expr_is_digit(char c) { return c >= '0' && c <= '9'; }
static bool expr_is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static bool expr_is_alnum(char c) { return expr_is_alpha(c) || expr_is_digit(c); }

/* Lexes the number at s[start] into p->num; returns its length, or 0 after an error. */
static size_t expr_lex_number(expr_parser *p, size_t start)
{
	const char *s = p->s + start;
	bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X'), is_float = false;
	size_t i = hex ? 2 : 0;
	if (hex) {
		while (isxdigit((unsigned char)s[i]))
			i++;
	} else {
		while (expr_is_digit(s[i]))
			i++;
		if (s[i] == '.')
			for (is_float = true, i++; expr_is_digit(s[i]); i++) {}
		size_t j = i + 1 + (s[i] && (s[i + 1] == '+' || s[i + 1] == '-'));
		if ((s[i] == 'e' || s[i] == 'E') && expr_is_digit(s[j]))
			for (is_float = true, i = j; expr_is_digit(s[i]); i++) {}
	}
	char *end;
	errno = 0;
	if (is_float)
		p->num = (expr_value){ .kind = EXPR_FLOAT, .f = strtod(s, &end) };
	else
		p->num = (expr_value){ .kind = EXPR_INT, .i = strtoll(s, &end, hex ? 16 : 10) };
	if ((hex && i == 2) || expr_is_alnum(s[i]) || s[i] == '.' || end != s + i) {
		size_t n = 0;
		while (expr_is_alnum(s[n]) || s[n] == '.')
			n++;
		expr_set_error(p->err, expr_col(start), "malformed number '%.*s'", expr_clamp_len(n), s);
		return 0;
	}
	if (errno == ERANGE && (!is_float || fabs(p->num.f) > 1.0)) {  /* float underflow is fine */
		expr_set_error(p->err, expr_col(start), "number is out of range");
		return 0;
	}
	return i;
}

/* Moves to the next token; returns -1 after a lexical error. */
static int expr_next(expr_parser *p)
{
	while (p->s[p->pos] && strchr(" \t\n\r\f\v", p->s[p->pos]))
		p->pos++;
	const char *s = p->s + p->pos;
	p->tpos = p->pos;
	p->tlen = 1;
	if (!*s) {
		p->tok = T_END;
		p->tlen = 0;
	} else if (expr_is_digit(s[0]) || (s[0] == '.' && expr_is_digit(s[1]))) {
		p->tok = T_NUM;
		if (!(p->tlen = expr_lex_number(p, p->pos)))
			return -1;
	} else if (expr_is_alpha(s[0])) {
		p->tok = T_NAME;
		for (p->tlen = 0; expr_is_alnum(s[p->tlen]); p->tlen++) {}
	} else if (strchr("()!?:,", s[0]) && !(s[0] == '!' && s[1] == '=')) {
		p->tok = s[0];
	} else {
		for (p->op = 0; p->op < (int)(sizeof expr_ops / sizeof expr_ops[0]); p->op++)
			if (!strncmp(s, expr_ops[p->op].text, strlen(expr_ops[p->op].text)))
				break;
		if (p->op == (int)(sizeof expr_ops / sizeof expr_ops[0])) {
			unsigned char u = (unsigned char)s[0];
			if (u > ' ' && u < 127)
				expr_set_error(p->err, expr_col(p->pos), "unexpected character '%c'", u);
			else
				expr_set_error(p->err, expr_col(p->pos), "unexpected byte 0x%02x", u);
			return -1;
		}
		p->tok = T_OP;
		p->tlen = strlen(expr_ops[p->op].text);
	}
	p->pos += p->tlen;
	return 0;
}

/* ---- parser ---- */

static expr_node *expr_fail(expr_parser *p, const char *what)
{
	if (p->tok == T_END)
		expr_set_error(p->err, expr_col(p->tpos), "%s, found the end of the expression", what);
	else
		expr_set_error(p->err, expr_col(p->tpos), "%s, found '%.*s'", what, expr_clamp_len(p->tlen), p->s + p->tpos);
	return NULL;
}

static expr_node *expr_new_node(expr_parser *p, expr_node_kind kind, size_t pos)
{
	expr_node *n = xcalloc(1, sizeof *n);
	n->kind = kind;
	n->col = expr_col(pos);
	n->all = p->e->nodes;
	p->e->nodes = n;
	return n;
}

static expr_node *expr_parse_ternary(expr_parser *p);

static bool expr_enter(expr_parser *p)
{
	if (++p->depth <= EXPR_MAX_DEPTH)
		return true;
	expr_set_error(p->err, expr_col(p->tpos), "expression is nested more than %d levels deep", EXPR_MAX_DEPTH);
	return false;
}

/* Skips the opening token ('(', ',', '?', ':') and parses a ternary one nesting level deeper. */
static expr_node *expr_parse_nested(expr_parser *p)
{
	if (!expr_enter(p) || expr_next(p))
		return NULL;
	expr_node *n = expr_parse_ternary(p);
	p->depth--;
	return n;
}

static expr_node *expr_parse_call(expr_parser *p, size_t pos, size_t len)
{
	int f = 0;
	while (f < F_COUNT && !(strlen(expr_funcs[f].name) == len && !memcmp(expr_funcs[f].name, p->s + pos, len)))
		f++;
	if (f == F_COUNT) {
		expr_set_error(p->err, expr_col(pos), "unknown function '%.*s'", expr_clamp_len(len), p->s + pos);
		return NULL;
	}
	expr_node *n = expr_new_node(p, N_CALL, pos);
	if (!n)
		return NULL;
	n->func = (expr_func)f;
	n->name = p->s + pos;
	n->len = len;
	expr_node **tail = &n->kid;
	int nargs = 0;
	do {  /* p->tok is '(' or ',' */
		if (!expr_enter(p) || expr_next(p))
			return NULL;
		if (nargs == 0 && p->tok == ')')
			break;
		if (!(*tail = expr_parse_ternary(p)))
			return NULL;
		tail = &(*tail)->next;
		nargs++;
		p->depth--;
	} while (p->tok == ',');
	if (p->tok != ')')
		return expr_fail(p, "expected ',' or ')'");
	if (nargs != expr_funcs[f].nargs) {
		expr_set_error(p->err, n->col, "%s() takes %d argument%s, not %d", expr_funcs[f].name,
		               expr_funcs[f].nargs, expr_funcs[f].nargs == 1 ? "" : "s", nargs);
		return NULL;
	}
	return expr_next(p) ? NULL : n;
}

static expr_node *expr_parse_primary(expr_parser *p)
{
	size_t pos = p->tpos, len = p->tlen;
	expr_node *n;
	switch (p->tok) {
	case T_NUM:
		if (!(n = expr_new_node(p, N_NUM, pos)))
			return NULL;
		n->val = p->num;
		return expr_next(p) ? NULL : n;
	case T_NAME:
		if (expr_next(p))
			return NULL;
		if (p->tok == '(')
			return expr_parse_call(p, pos, len);
		if (!(n = expr_new_node(p, N_NAME, pos)))
			return NULL;
		n->name = p->s + pos;
		n->len = len;
		return n;
	case '(':
		if (!(n = expr_parse_nested(p)))
			return NULL;
		if (p->tok != ')')
			return expr_fail(p, "expected ')'");
		return expr_next(p) ? NULL : n;
	default:
		return expr_fail(p, "expected a value");
	}
}


static expr_node *expr_parse_unary(expr_parser *p)
{
	bool neg = p->tok == T_OP && expr_ops[p->op].op == OP_SUB;
	if (!neg && p->tok != '!')
		return expr_parse_primary(p);
	expr_node *n = expr_new_node(p, neg ? N_NEG : N_NOT, p->tpos);
	if (!n || !expr_enter(p) || expr_next(p) || !(n->kid = expr_parse_unary(p)))
		return NULL;
	p->depth--;
	return n;
}

/* The binary operator at the current token if it has precedence level, else OP_NONE. */
static expr_op expr_binop(const expr_parser *p, int level)
{
	return p->tok == T_OP && expr_ops[p->op].level == level ? expr_ops[p->op].op : OP_NONE;
}

static expr_node *expr_parse_binary(expr_parser *p, int level)
{
	if (level == EXPR_LEVELS)
		return expr_parse_unary(p);
	expr_node *first = expr_parse_binary(p, level + 1);
	if (!first || expr_binop(p, level) == OP_NONE)
		return first;
	expr_node *chain = expr_new_node(p, N_CHAIN, p->tpos), *last = first;
	if (!chain)
		return NULL;
	chain->kid = first;
	for (expr_op op; (op = expr_binop(p, level)) != OP_NONE; last = last->next) {
		int opcol = expr_col(p->tpos);
		if (expr_next(p) || !(last->next = expr_parse_binary(p, level + 1)))
			return NULL;
		last->next->binop = op;
		last->next->opcol = opcol;
	}
	return chain;
}

static expr_node *expr_parse_ternary(expr_parser *p)
{
	expr_node *cond = expr_parse_binary(p, 0), *n;
	if (!cond || p->tok != '?')
		return cond;
	if (!(n = expr_new_node(p, N_COND, p->tpos)) || !(cond->next = expr_parse_nested(p)))
		return NULL;
	n->kid = cond;
	if (p->tok != ':')
		return expr_fail(p, "expected ':'");
	return (cond->next->next = expr_parse_nested(p)) ? n : NULL;
}

expr *expr_parse(const char *src, expr_error *err)
{
	expr_error spare;
	if (!err)
		err = &spare;
	size_t n = strlen(src);
	expr *e = xcalloc(1, sizeof *e);
	e->src = xmalloc(n + 1);
	memcpy(e->src, src, n + 1);
	expr_parser p = { .s = e->src, .e = e, .err = err };
	if (!expr_next(&p)) {
		if (p.tok == T_END)
			expr_set_error(err, 1, "empty expression");
		else if ((e->root = expr_parse_ternary(&p)) && (p.tok == T_END || expr_fail(&p, "expected an operator")))
			return e;
	}
	expr_free(e);
	return NULL;
}

const char *expr_source(const expr *e) { return e->src; }

void expr_free(expr *e)
{
	if (!e)
		return;
	for (expr_node *n = e->nodes, *next; n; n = next) {
		next = n->all;
		free(n);
	}
	free(e->src);
	free(e);
}

/* ---- evaluation ---- */

typedef struct { expr_lookup_fn lookup; void *ctx; expr_error *err; } expr_evaluator;

#define EXPR_FAIL(v, col, ...) (expr_set_error((v)->err, (col), __VA_ARGS__), -1)

static expr_value expr_int(int64_t i) { return (expr_value){ .kind = EXPR_INT, .i = i }; }
static expr_value expr_float(double f) { return (expr_value){ .kind = EXPR_FLOAT, .f = f }; }
static bool expr_truthy(expr_value v) { return v.kind == EXPR_INT ? v.i != 0 : v.f != 0.0; }

double expr_as_double(expr_value v) { return v.kind == EXPR_INT ? (double)v.i : v.f; }

int64_t expr_as_int(expr_value v)
{
	if (v.kind == EXPR_INT)
		return v.i;
	if (isnan(v.f))
		return 0;
	return v.f >= 0x1p63 ? INT64_MAX : v.f < -0x1p63 ? INT64_MIN : (int64_t)v.f;
}

/* a << b for 0 <= b <= 63, as a * 2^b; returns false on overflow. */
static bool expr_shl(int64_t a, int64_t b, int64_t *out)
{
	if (b == 63) {
		*out = a == -1 ? INT64_MIN : 0;
		return a == 0 || a == -1;
	}
	return !__builtin_mul_overflow(a, (int64_t)1 << b, out);
}

static int expr_apply(const expr_evaluator *v, expr_op op, int col, expr_value a, expr_value b, expr_value *out)
{
	bool ints = a.kind == EXPR_INT && b.kind == EXPR_INT;
	double x = expr_as_double(a), y = expr_as_double(b), f = 0;
	int64_t r = 0;
	switch (op) {
	case OP_EQ: *out = expr_int(ints ? a.i == b.i : x == y); return 0;
	case OP_NE: *out = expr_int(ints ? a.i != b.i : x != y); return 0;
	case OP_LT: *out = expr_int(ints ? a.i < b.i : x < y); return 0;
	case OP_LE: *out = expr_int(ints ? a.i <= b.i : x <= y); return 0;
	case OP_GT: *out = expr_int(ints ? a.i > b.i : x > y); return 0;
	case OP_GE: *out = expr_int(ints ? a.i >= b.i : x >= y); return 0;
	case OP_MOD: case OP_SHL: case OP_SHR:
		if (!ints)
			return EXPR_FAIL(v, col, "operator '%s' needs integer operands", expr_op_text(op));
		if (op == OP_MOD) {
			if (b.i == 0)
				return EXPR_FAIL(v, col, "modulo by zero");
			*out = expr_int(b.i == -1 ? 0 : a.i % b.i);
			return 0;
		}
		if (b.i < 0 || b.i > 63)
			return EXPR_FAIL(v, col, "shift count %lld is outside 0..63", (long long)b.i);
		if (op == OP_SHR)
			*out = expr_int(a.i >= 0 ? a.i >> b.i : ~(~a.i >> b.i));  /* floor, like an arithmetic shift */
		else if (!expr_shl(a.i, b.i, &r))
			return EXPR_FAIL(v, col, "integer overflow in '<<'");
		else
			*out = expr_int(r);
		return 0;
	case OP_DIV:
		if (ints ? b.i == 0 : y == 0.0)
			return EXPR_FAIL(v, col, "division by zero");
		if (ints && a.i == INT64_MIN && b.i == -1)
			return EXPR_FAIL(v, col, "integer overflow in '/'");
		if (ints) {
			*out = expr_int(a.i / b.i);
			return 0;
		}
		f = x / y;
		break;
	case OP_ADD: case OP_SUB: case OP_MUL:
		if (ints) {
			bool over = op == OP_ADD ? __builtin_add_overflow(a.i, b.i, &r)
			          : op == OP_SUB ? __builtin_sub_overflow(a.i, b.i, &r)
			          : __builtin_mul_overflow(a.i, b.i, &r);
			if (over)
				return EXPR_FAIL(v, col, "integer overflow in '%s'", expr_op_text(op));
			*out = expr_int(r);
			return 0;
		}
		f = op == OP_ADD ? x + y : op == OP_SUB ? x - y : x * y;
		break;
	default:  /* OP_OR / OP_AND are short-circuited by the caller */
		return EXPR_FAIL(v, col, "internal error: bad operator");
	}
	if (!isfinite(f))
		return EXPR_FAIL(v, col, "floating-point overflow in '%s'", expr_op_text(op));
	*out = expr_float(f);
	return 0;
}

static int expr_ev(const expr_evaluator *v, const expr_node *n, expr_value *out);

static int expr_call(const expr_evaluator *v, const expr_node *n, expr_value *out)
{
	expr_value a[2] = {{0}};
	int k = 0;
	for (const expr_node *arg = n->kid; arg && k < 2; arg = arg->next)
		if (expr_ev(v, arg, &a[k++]))
			return -1;
	bool ints = a[0].kind == EXPR_INT && a[1].kind == EXPR_INT;
	switch (n->func) {
	case F_MIN: case F_MAX: {
		bool first = ints ? (a[0].i < a[1].i) : (expr_as_double(a[0]) < expr_as_double(a[1]));
		expr_value r = a[(n->func == F_MIN) == first ? 0 : 1];
		*out = ints ? r : expr_float(expr_as_double(r));
		return 0;
	}
	case F_CEIL_DIV:
		if (!ints)
			return EXPR_FAIL(v, n->col, "ceil_div() needs integer arguments");
		if (a[1].i <= 0)
			return EXPR_FAIL(v, n->col, "ceil_div() needs a positive divisor, not %lld", (long long)a[1].i);
		*out = expr_int(a[0].i / a[1].i + (a[0].i > 0 && a[0].i % a[1].i != 0));
		return 0;
	case F_ABS:
		if (a[0].kind == EXPR_FLOAT)
			*out = expr_float(fabs(a[0].f));
		else if (a[0].i == INT64_MIN)
			return EXPR_FAIL(v, n->col, "integer overflow in abs()");
		else
			*out = expr_int(a[0].i < 0 ? -a[0].i : a[0].i);
		return 0;
	case F_INT:
		if (a[0].kind == EXPR_FLOAT && !(a[0].f >= -0x1p63 && a[0].f < 0x1p63))
			return EXPR_FAIL(v, n->col, "int() argument is out of the int64 range");
		*out = expr_int(expr_as_int(a[0]));
		return 0;
	case F_FLOAT:
		*out = expr_float(expr_as_double(a[0]));
		return 0;
	case F_LOG2:
		if (a[0].kind != EXPR_INT || a[0].i <= 0)
			return EXPR_FAIL(v, n->col, "log2() needs a positive integer");
		*out = expr_int(63 - __builtin_clzll((unsigned long long)a[0].i));
		return 0;
	case F_EXP: {
		double f = exp(expr_as_double(a[0]));
		if (!isfinite(f))
			return EXPR_FAIL(v, n->col, "exp() overflows a double");
		*out = expr_float(f);
		return 0;
	}
	case F_SQRT:
		if (expr_as_double(a[0]) < 0)
			return EXPR_FAIL(v, n->col, "sqrt() of a negative number");
		*out = expr_float(sqrt(expr_as_double(a[0])));
		return 0;
	default:
		return EXPR_FAIL(v, n->col, "internal error: bad function");
	}
}

static int expr_ev(const expr_evaluator *v, const expr_node *n, expr_value *out)
{
	expr_value a;
	switch (n->kind) {
	case N_NUM:
		*out = n->val;
		return 0;
	case N_NAME:
		if (!v->lookup || v->lookup(v->ctx, n->name, n->len, &a) != 0)
			return EXPR_FAIL(v, n->col, "unknown name '%.*s'", expr_clamp_len(n->len), n->name);
		if ((a.kind != EXPR_INT && a.kind != EXPR_FLOAT) || (a.kind == EXPR_FLOAT && !isfinite(a.f)))
			return EXPR_FAIL(v, n->col, "'%.*s' does not have a finite value", expr_clamp_len(n->len), n->name);
		*out = a;
		return 0;
	case N_NEG:
		if (expr_ev(v, n->kid, &a))
			return -1;
		if (a.kind == EXPR_INT && a.i == INT64_MIN)
			return EXPR_FAIL(v, n->col, "integer overflow in unary '-'");
		*out = a.kind == EXPR_INT ? expr_int(-a.i) : expr_float(-a.f);
		return 0;
	case N_NOT:
		if (expr_ev(v, n->kid, &a))
			return -1;
		*out = expr_int(!expr_truthy(a));
		return 0;
	case N_COND:
		if (expr_ev(v, n->kid, &a))
			return -1;
		return expr_ev(v, expr_truthy(a) ? n->kid->next : n->kid->next->next, out);
	case N_CALL:
		return expr_call(v, n, out);
	case N_CHAIN:
		if (expr_ev(v, n->kid, &a))
			return -1;
		for (const expr_node *k = n->kid->next; k; k = k->next) {
			expr_value b;
			if (k->binop == OP_AND || k->binop == OP_OR) {
				bool t = expr_truthy(a);
				if (t == (k->binop == OP_OR)) {  /* decided: skip the right operand */
					a = expr_int(t);
					continue;
				}
				if (expr_ev(v, k, &b))
					return -1;
				a = expr_int(expr_truthy(b));
			} else if (expr_ev(v, k, &b) || expr_apply(v, k->binop, k->opcol, a, b, &a)) {
				return -1;
			}
		}
		*out = a;
		return 0;
	}
	return EXPR_FAIL(v, n->col, "internal error: bad node");
}

int expr_eval(const expr *e, expr_lookup_fn lookup, void *ctx, expr_value *out, expr_error *err)
{
	expr_error spare;
	expr_evaluator v = { lookup, ctx, err ? err : &spare };
	expr_value r;
	if (expr_ev(&v, e->root, &r))
		return -1;
	*out = r;
	return 0;
}

typedef int (*expr_name_fn)(void *ctx, const char *name, size_t len, int col);

static int expr_walk_names(const expr_node *n, expr_name_fn fn, void *ctx)
{
	if (n->kind == N_NAME)
		return fn(ctx, n->name, n->len, n->col);
	for (const expr_node *k = n->kid; k; k = k->next) {
		int r = expr_walk_names(k, fn, ctx);
		if (r)
			return r;
	}
	return 0;
}

int expr_names(const expr *e, expr_name_fn fn, void *ctx) { return expr_walk_names(e->root, fn, ctx); }

char *expr_format(expr_value v, char *buf, size_t len)
{
	if (!buf || len == 0)
		return buf;
	if (v.kind == EXPR_INT) {
		snprintf(buf, len, "%lld", (long long)v.i);
		return buf;
	}
	char tmp[64];
	for (int prec = 6; prec <= 17; prec++) {
		snprintf(tmp, sizeof tmp, "%.*g", prec, v.f);
		if (strtod(tmp, NULL) == v.f)
			break;
	}
	snprintf(buf, len, "%s", tmp);
	return buf;
}
