/* yamldoc: one YAML (or JSON) text read as a libyaml document, and the first error found in it as
 * "file:line:col: message" (lines and columns 1-based). Every YAML reader of ours goes through it: a
 * lesson, a course, the arch table, a results line. Helpers that can fail record the error (the first
 * one stays) and return -1 or NULL; they return 0 or the node on success. */
#ifndef CC_YAMLDOC_H
#define CC_YAMLDOC_H
#include <stdint.h>
#include <yaml.h>

/* Every error of a text, for a reader that goes on after the first (course init lists them all):
 * each "file:line:col: message" with its place (1-based), at most YD_ERRORS_MAX (the rest counted). */
#define YD_ERRORS_MAX 100
typedef struct { size_t line, col; char *text; } yd_error;
typedef struct { yd_error *v; int n; int dropped; } yd_errors;
/* Adds "file:line:col: msg" unless the same text is there already (or counts it in dropped when full). */
void yd_errors_add(yd_errors *e, const char *file, size_t line, size_t col, const char *msg);
/* Orders them by place (line, then column; the order they came in on a tie). */
void yd_errors_sort(yd_errors *e);
void yd_errors_free(yd_errors *e);

/* Zero it and set file, err and errlen; yd_load fills the rest; yd_done frees what it holds. */
typedef struct {
	const char *file;          /* names the text in messages */
	char *err;                 /* the first error (may be NULL: errors are then only counted as failed) */
	size_t errlen;
	yd_errors *all;            /* when set, every error is also added here, not only the first (the caller
	                            * owns it); a reader then goes on after an error where it can */
	int failed;                /* an error is recorded */
	yaml_document_t doc;       /* the first document, after yd_load */
	yaml_parser_t parser;      /* kept after yd_load, for yd_end */
	int live;                  /* doc and parser are held (yd_done frees them) */
	yaml_mark_t end;           /* where the text ends, when it holds no document */
	const char *text;          /* the text yd_load was given, for the marks of encoding errors */
	size_t len;
	int stream_done;           /* the parser has read the text's end */
	int max_nodes;             /* when above 0, a document of more nodes of its own is refused at the
	                            * first one too many (a flat record needs a few dozen): else YD_MAX_NODES */
} yd;

/* The bounds of a document (yd_load refuses more, at file:line:col): collections nested at most
 * YD_MAX_DEPTH deep; at most YD_MAX_ALIASES aliases and YD_MAX_ANCHORS anchors; walked with every
 * alias expanded, at most YD_MAX_NODES nodes and max(8 x the text, YD_MIN_BYTES) bytes of scalars.
 * A mapping's keys are distinct ("duplicate key 'k' (first at line L)"), and merge keys (<<) are
 * refused. An alias shares its node (the document is a DAG, never a loop). */
#define YD_MAX_DEPTH 64
#define YD_MAX_ALIASES 10000
#define YD_MAX_ANCHORS 10000
#define YD_MAX_NODES 1000000
#define YD_MIN_BYTES (1u << 20)

/* Loads the first document of buf (UTF-8), within the bounds above; -1 with "file:line:col: problem[ context
 * (line N)]" or the bound it passes. */
int yd_load(yd *c, const char *buf, size_t len);
/* After yd_load: 0 when no second document follows; -1 with its syntax error, or with msg at the
 * second document's top node. */
int yd_end(yd *c, const char *msg);
/* Frees the document and the parser; c may be loaded, failed or untouched. */
void yd_done(yd *c);

/* Records "file:line:col: message" at mark m unless an error is recorded already (with all set, adds
 * it there in any case); returns -1. */
int yd_fail_at(yd *c, yaml_mark_t m, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The same at n's start. */
int yd_fail(yd *c, const yaml_node_t *n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* The document's top node, or NULL when the text holds none (comments only, or nothing). */
yaml_node_t *yd_root(yd *c);
/* The node with that id (from a pair or an item). */
yaml_node_t *yd_node(yd *c, int id);
/* The scalar's text, or NULL with "<what> must be a single value". */
const char *yd_scalar(yd *c, yaml_node_t *n, const char *what);
/* The value under key in a mapping, or NULL (also when map is no mapping: yd_check_keys says so). */
yaml_node_t *yd_get(yd *c, yaml_node_t *map, const char *key);
/* map must be a mapping whose keys are all in allowed (NULL-terminated; "!key" = required):
 * "<what> must be a mapping (key: value)", "unknown key 'k' in <what> (expected one of: ...)[; did you
 * mean 'x'?]", "<what> needs 'k'"; every key is looked at (with all set, each bad one is listed). */
int yd_check_keys(yd *c, yaml_node_t *map, const char *what, const char *const *allowed);
/* The scalar under key, copied into *out (the caller frees it); absent: 0 and *out untouched. */
int yd_get_str(yd *c, yaml_node_t *map, const char *key, char **out);
/* A list of scalars, or one scalar as a list of one: *out (new), *count items; "<what> must be a list". */
int yd_strings(yd *c, yaml_node_t *n, const char *what, char ***out, int *count);

/* Items of a sequence: the count (0 for anything else), and the i-th (0 <= i < count). */
int yd_seq_len(const yaml_node_t *n);
yaml_node_t *yd_seq_at(yd *c, yaml_node_t *n, int i);
/* Pairs of a mapping: the count (0 for anything else), and the i-th key and value. */
int yd_map_len(const yaml_node_t *n);
void yd_pair(yd *c, yaml_node_t *map, int i, yaml_node_t **key, yaml_node_t **value);

/* Number text of len bytes, in any locale: [+-]digits, and for yd_text_double also [.digits] and
 * [(e|E)[+-]digits]. 0, -1 when it is not such a number, -2 when it is beyond the type's range. */
int yd_text_int(const char *s, size_t len, long long *out);
int yd_text_double(const char *s, size_t len, double *out);
/* A scalar as a number from lo to hi: "<what> must be a number, not 's'" ("a whole number" for
 * yd_int; also beyond the type's range), or "<what> must be from lo to hi, not 's'". */
int yd_double(yd *c, yaml_node_t *n, const char *what, double lo, double hi, double *out);
int yd_int(yd *c, yaml_node_t *n, const char *what, int64_t lo, int64_t hi, int64_t *out);
/* true/yes or false/no: "<what> must be true or false, not 's'". */
int yd_bool(yd *c, yaml_node_t *n, const char *what, int *out);
#endif
