/* expr: the lesson expression language (integer/float arithmetic over named values).
 *
 * Grammar (C precedence):  ternary  a ? b : c
 *   ||  &&  == != < <= > >=  << >>  + -  * / %  unary - ! ,  calls, parentheses,
 *   integer literals (decimal, 0x hex), float literals (2.5, 1e-6), identifiers [A-Za-z_][A-Za-z0-9_]*.
 * Functions: min(a,b) max(a,b) ceil_div(a,b) abs(a) int(a) float(a) log2(a) (integer floor log2),
 * exp(a) sqrt(a) (float results; sqrt of a negative number is an error).
 * Values are int64 unless a float literal, float() or a float operand is involved. int/int
 * divides as C does (truncating); % and << >> need integers. Division or modulo by zero, shifts
 * outside 0..63 and int64 overflow are errors, never undefined behaviour. */
#ifndef CC_EXPR_H
#define CC_EXPR_H
#include <stddef.h>
#include <stdint.h>

/* Deepest nesting of parentheses, call arguments, unary operators and ternary branches; deeper
 * input is a parse error, so neither parsing nor evaluation can run out of stack. */
#define EXPR_MAX_DEPTH 64

typedef enum { EXPR_INT, EXPR_FLOAT } expr_kind;
typedef struct { expr_kind kind; int64_t i; double f; } expr_value;

/* Error: msg is a sentence without position; col is the 1-based column in the expression text. */
typedef struct { char msg[160]; int col; } expr_error;

/* Name lookup: return 0 and fill *out when name (not NUL-terminated, len bytes) is known, -1 otherwise.
 * A float that is not finite (inf, NaN) is rejected by expr_eval. */
typedef int (*expr_lookup_fn)(void *ctx, const char *name, size_t len, expr_value *out);

typedef struct expr expr;

/* Parse src; returns a new tree owned by the caller (free with expr_free), or NULL and fills *err
 * (err may be NULL here and in expr_eval). */
expr *expr_parse(const char *src, expr_error *err);
/* Evaluate; returns 0 and fills *out, or -1 and fills *err (unknown name, division by zero, int64
 * overflow, a float result that is not finite, ...). lookup may be NULL (no names known). */
int expr_eval(const expr *e, expr_lookup_fn lookup, void *ctx, expr_value *out, expr_error *err);
/* Calls fn for every identifier that is not a function name; stops and returns fn's value if non-zero. */
int expr_names(const expr *e, int (*fn)(void *ctx, const char *name, size_t len, int col), void *ctx);
/* The source text the tree was parsed from (owned by e). */
const char *expr_source(const expr *e);
/* Frees the tree and its source copy; NULL is allowed. */
void expr_free(expr *e);

/* Helpers: value as double / as int64 (floats truncate toward zero, saturating; NaN gives 0). */
double expr_as_double(expr_value v);
int64_t expr_as_int(expr_value v);
/* Formats v into buf ("42", "2.5"; floats in the fewest digits, at least 6, that read back exactly); returns buf. */
char *expr_format(expr_value v, char *buf, size_t len);
#endif
