/* yamldoc: see yamldoc.h. */
#include "yamldoc.h"
#include <errno.h>
#include <limits.h>
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util.h"

#define NUM_TEXT_MAX 64        /* the longest number text read, in bytes */

/* libyaml's own allocations failed: the allocation policy of util.h (end with a message). */
static void yd_oom(void)
{
	fprintf(stderr, "cudaclimb: out of memory (reading YAML)\n");
	abort();
}

/* ---- errors ---- */

void yd_errors_add(yd_errors *e, const char *file, size_t line, size_t col, const char *msg)
{
	char *text = xasprintf("%s:%zu:%zu: %s", file, line, col, msg);
	for (int i = 0; i < e->n; i++)
		if (!strcmp(e->v[i].text, text)) { free(text); return; }   /* a node shared through an alias */
	if (e->n == YD_ERRORS_MAX) { e->dropped++; free(text); return; }
	e->v = xrealloc(e->v, (size_t)(e->n + 1) * sizeof *e->v);
	e->v[e->n++] = (yd_error){ line, col, text };
}

void yd_errors_sort(yd_errors *e)
{
	for (int i = 1; i < e->n; i++) {   /* insertion: stable, and there are at most YD_ERRORS_MAX */
		yd_error x = e->v[i];
		int k = i;
		for (; k > 0 && (e->v[k - 1].line > x.line || (e->v[k - 1].line == x.line && e->v[k - 1].col > x.col)); k--) e->v[k] = e->v[k - 1];
		e->v[k] = x;
	}
}

void yd_errors_free(yd_errors *e)
{
	for (int i = 0; i < e->n; i++) free(e->v[i].text);
	free(e->v);
	*e = (yd_errors){0};
}

__attribute__((format(printf, 3, 0)))
static int yd_vfail(yd *c, yaml_mark_t m, const char *fmt, va_list ap)
{
	int first = !c->failed;
	c->failed = 1;
	if (!first && !c->all) return -1;
	char msg[400];
	vsnprintf(msg, sizeof msg, fmt, ap);
	if (c->all) yd_errors_add(c->all, c->file, m.line + 1, m.column + 1, msg);
	if (first && c->err && c->errlen) strfmt(c->err, c->errlen, "%s:%zu:%zu: %s", c->file, m.line + 1, m.column + 1, msg);
	return -1;
}

int yd_fail_at(yd *c, yaml_mark_t m, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	yd_vfail(c, m, fmt, ap);
	va_end(ap);
	return -1;
}

int yd_fail(yd *c, const yaml_node_t *n, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	yd_vfail(c, n->start_mark, fmt, ap);
	va_end(ap);
	return -1;
}

/* A reader error (bad UTF-8, a control character) carries a byte offset, not a mark. */
static yaml_mark_t yd_mark_of_offset(const char *buf, size_t len, size_t off)
{
	yaml_mark_t m = { off, 0, 0 };
	if (off > len) off = len;
	for (size_t i = 0; i < off; i++) {
		if (buf[i] == '\n') { m.line++; m.column = 0; }
		else m.column++;
	}
	return m;
}

/* ---- libyaml's syntax errors in plain words ---- */

/* The start of line k (0-based) of the text, or NULL past its end. */
static const char *yd_line_at(const yd *c, size_t k)
{
	const char *p = c->text, *end = c->text + c->len;
	for (size_t i = 0; i < k; i++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl) return NULL;
		p = nl + 1;
	}
	return p;
}

/* Line k's indentation in spaces, -1 when it is blank or a comment (or past the end); *first gets its
 * first other character (0 when none). */
static int yd_indent(const yd *c, size_t k, char *first)
{
	const char *p = yd_line_at(c, k), *end = c->text + c->len;
	*first = 0;
	if (!p) return -1;
	int n = 0;
	while (p < end && *p == ' ') p++, n++;
	if (p == end || *p == '\n' || *p == '\r' || *p == '#') return -1;
	*first = *p;
	return n;
}

/* Whether the line [s, e) is blank or a comment (as yd_indent says -1). */
static int yd_blank(const char *s, const char *e)
{
	while (s < e && *s == ' ') s++;
	return s == e || *s == '\n' || *s == '\r' || *s == '#';
}

/* The last line before k that is neither blank nor a comment, or -1. One walk back from line k's
 * start: asking yd_indent line by line (each found from the text's start) was quadratic, 8 s for a
 * lesson of 40 000 blank lines before its error, over 60 s for 200 000 (a 16 MiB file has millions). */
static long yd_prev_line(const yd *c, size_t k)
{
	const char *p = yd_line_at(c, k), *end = c->text + c->len;
	long i = (long)k;
	if (!p) {   /* k is past the last line (N, after the last '\n'): that one is the first to look at */
		const char *s = c->text;
		i = 0;
		for (const char *q = c->text; (q = memchr(q, '\n', (size_t)(end - q))); q++) i++, s = q + 1;
		if (!yd_blank(s, end)) return i;
		p = s;
	}
	while (p > c->text) {   /* p starts line i; line i - 1 ends at p[-1], a '\n' */
		const char *e = p - 1, *s = e;
		while (s > c->text && s[-1] != '\n') s--;
		i--;
		if (!yd_blank(s, e)) return i;
		p = s;
	}
	return -1;
}

/* Whether line k (not blank) ends in ':' before any comment: a key whose value is nested below. */
static int yd_opens_block(const yd *c, size_t k)
{
	const char *p = yd_line_at(c, k), *end = c->text + c->len;
	const char *nl = memchr(p, '\n', (size_t)(end - p));
	const char *e = nl ? nl : end, *hash = memchr(p, '#', (size_t)(e - p));
	if (hash && hash > p && (hash[-1] == ' ' || hash[-1] == '\t')) e = hash;
	while (e > p && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r')) e--;
	return e > p && (e[-1] == ':' || e[-1] == '|' || e[-1] == '>');
}

/* libyaml's common problems (indentation above all) in plain words, into out with the mark to show
 * in *m; 0 when the problem is none of those. Line numbers are 1-based here. */
static int yd_plain(const yd *c, const yaml_parser_t *p, yaml_mark_t *m, char *out, size_t n)
{
	const char *pr = p->problem, *cx = p->context ? p->context : "";
	size_t line = p->problem_mark.line, cline = p->context_mark.line;
	char ch;
	int ind = yd_indent(c, line, &ch);
	const char *at = yd_line_at(c, line);
	int tab = at && p->problem_mark.index < c->len && c->text[p->problem_mark.index] == '\t';
	if (strstr(pr, "tab character") || (tab && !strcmp(pr, "found character that cannot start any token"))) {
		strfmt(out, n, "line %zu has a tab where YAML wants spaces: YAML indents with spaces only", line + 1);
		return 1;
	}
	if (!strcmp(pr, "mapping values are not allowed in this context")) {
		long prev = yd_prev_line(c, line);
		char pch;
		int pind = prev >= 0 ? yd_indent(c, (size_t)prev, &pch) : -1;
		if (prev >= 0 && (size_t)prev != line && ind > pind && !yd_opens_block(c, (size_t)prev))
			strfmt(out, n, "line %zu is indented more than line %ld, so YAML reads it as more of line %ld's value: YAML nests by "
			       "indentation; line it up with the keys above it", line + 1, prev + 1, prev + 1);
		else
			strfmt(out, n, "a second ': ' on line %zu: YAML reads 'key: value: more' as a mapping inside a value; put the value "
			       "in quotes if it holds ': '", line + 1);
		return 1;
	}
	if (!strcmp(pr, "did not find expected key") && !strcmp(cx, "while parsing a block mapping")) {
		if (ch == '-' && (size_t)ind == p->context_mark.column)
			strfmt(out, n, "line %zu is a list item ('- ') among the keys of the mapping that starts on line %zu: indent it under "
			       "the key it belongs to", line + 1, cline + 1);
		else
			strfmt(out, n, "line %zu is indented differently from the lines around it: YAML nests by indentation, and the keys "
			       "of the mapping that starts on line %zu are at column %zu; line it up with them, or indent it under a key",
			       line + 1, cline + 1, p->context_mark.column + 1);
		return 1;
	}
	if (!strcmp(pr, "did not find expected '-' indicator")) {
		strfmt(out, n, "line %zu is indented differently from the lines around it: YAML nests by indentation, and the items "
		       "('- ') of the list that starts on line %zu are at column %zu; line it up with them, or indent it under an item",
		       line + 1, cline + 1, p->context_mark.column + 1);
		return 1;
	}
	if (!strcmp(pr, "could not find expected ':'")) {
		*m = p->context_mark;   /* the key's line, not the one after it */
		strfmt(out, n, "line %zu has no ': ' after its key: YAML reads 'key: value' lines (is a ':' missing, or a value "
		       "carried onto the next line without quotes?)", cline + 1);
		return 1;
	}
	if (!strcmp(pr, "block sequence entries are not allowed in this context")) {
		strfmt(out, n, "a list item ('- ') on line %zu cannot start on a key's line: put each item on a line of its own "
		       "below the key, indented", line + 1);
		return 1;
	}
	if (!strcmp(pr, "found unexpected end of stream") && !strcmp(cx, "while scanning a quoted scalar")) {
		*m = p->context_mark;   /* where the quote opens, not the end of the text */
		strfmt(out, n, "the quote opened on line %zu is never closed", cline + 1);
		return 1;
	}
	return 0;
}

/* The parser's error as "file:line:col: plain words (libyaml: problem[ context (line N)])", or
 * libyaml's words alone where yd_plain has none. */
static int yd_parser_fail(yd *c)
{
	yaml_parser_t *p = &c->parser;
	if (p->error == YAML_MEMORY_ERROR) yd_oom();
	const char *problem = p->problem ? p->problem : "syntax error";
	yaml_mark_t m = p->error == YAML_READER_ERROR ? yd_mark_of_offset(c->text, c->len, p->problem_offset) : p->problem_mark;
	char said[300], plain[400];
	if (p->context) strfmt(said, sizeof said, "%s %s (line %zu)", problem, p->context, p->context_mark.line + 1);
	else strfmt(said, sizeof said, "%s", problem);
	if (p->error != YAML_READER_ERROR && p->problem && yd_plain(c, p, &m, plain, sizeof plain))
		return yd_fail_at(c, m, "%s (libyaml: %s)", plain, said);
	return yd_fail_at(c, m, "%s", said);
}

/* ---- loading: libyaml's events, built into a document with bounds ----
 * yaml_parser_load has none: nesting is unbounded (and quadratic in libyaml's scanner), an alias may
 * point at a node that contains it, and a few KB of aliases stand for billions of nodes once a reader
 * walks them. Here the document is built from the events: a node an alias names is shared (the
 * document stays a DAG), the depth is capped while parsing, and each node's expanded size (nodes and
 * scalar bytes, aliases counted in full) is kept, so that a document whose walk would be too large is
 * refused before anyone walks it. Duplicate keys and merge keys are refused at the end of their mapping. */

typedef struct { char *name; int id; } yd_anchor;
typedef struct { int id; int key; } yd_frame;   /* an open collection; key: a mapping's pending key */

typedef struct {
	yd *c;
	yaml_document_t *doc;
	yd_frame stack[YD_MAX_DEPTH];
	int depth;
	yd_anchor *anchors;
	int nanchors, acap;
	uint64_t *nodes, *bytes;   /* per node id (1-based): the expanded size; nodes[id] == 0 while open */
	size_t ncap;
	int naliases;
	int nnodes;                /* nodes made so far (an alias makes none) */
	uint64_t max_bytes;
} yd_loader;

/* One more node is about to be made: a document of more than YD_MAX_NODES nodes of its own is refused
 * before it is built, not at its collection's end (a 16 MiB flow list of 8 million items was 1.4 GB). */
static int yd_count_node(yd_loader *L, yaml_mark_t m)
{
	int max = L->c->max_nodes > 0 && L->c->max_nodes < YD_MAX_NODES ? L->c->max_nodes : YD_MAX_NODES;
	if (++L->nnodes > max) return yd_fail_at(L->c, m, "more than %d values in one document", max);
	return 0;
}

/* Records node id's place in the size tables. */
static void yd_track(yd_loader *L, int id)
{
	if ((size_t)id >= L->ncap) {
		size_t n = L->ncap ? L->ncap * 2 : 64;
		while (n <= (size_t)id) n *= 2;
		L->nodes = xrealloc(L->nodes, n * sizeof *L->nodes);
		L->bytes = xrealloc(L->bytes, n * sizeof *L->bytes);
		memset(L->nodes + L->ncap, 0, (n - L->ncap) * sizeof *L->nodes);
		memset(L->bytes + L->ncap, 0, (n - L->ncap) * sizeof *L->bytes);
		L->ncap = n;
	}
}

static yaml_node_t *yd_loader_node(yd_loader *L, int id) { return L->doc->nodes.start + id - 1; }

static int yd_add_anchor(yd_loader *L, const yaml_char_t *name, int id, yaml_mark_t m)
{
	if (!name) return 0;
	if (L->nanchors == YD_MAX_ANCHORS) return yd_fail_at(L->c, m, "more than %d anchors", YD_MAX_ANCHORS);
	if (L->nanchors == L->acap) {
		L->acap = L->acap ? L->acap * 2 : 16;
		L->anchors = xrealloc(L->anchors, (size_t)L->acap * sizeof *L->anchors);
	}
	L->anchors[L->nanchors].name = xstrdup((const char *)name);
	L->anchors[L->nanchors++].id = id;
	return 0;
}

typedef struct { const char *s; size_t len; int idx; } yd_keyref;

static int yd_keyref_cmp(const void *a, const void *b)
{
	const yd_keyref *x = a, *y = b;
	if (x->len != y->len) return x->len < y->len ? -1 : 1;
	int r = memcmp(x->s, y->s, x->len);
	return r ? r : (x->idx > y->idx) - (x->idx < y->idx);
}

/* A mapping's scalar keys, each once: "duplicate key 'k' (first at line L)" at the earliest repeat. */
static int yd_check_duplicates(yd_loader *L, int id)
{
	yaml_node_t *map = yd_loader_node(L, id);
	int n = (int)(map->data.mapping.pairs.top - map->data.mapping.pairs.start);
	if (n < 2) return 0;
	yd_keyref *k = xcalloc((size_t)n, sizeof *k);
	int m = 0;
	for (int i = 0; i < n; i++) {
		yaml_node_t *kn = yd_loader_node(L, map->data.mapping.pairs.start[i].key);
		if (kn->type != YAML_SCALAR_NODE) continue;   /* yd_check_keys refuses a key that is no scalar */
		k[m++] = (yd_keyref){ (const char *)kn->data.scalar.value, kn->data.scalar.length, i };
	}
	qsort(k, (size_t)m, sizeof *k, yd_keyref_cmp);
	int dup = -1, first = -1;
	for (int i = 0; i + 1 < m; i++) {
		if (k[i].len != k[i + 1].len || memcmp(k[i].s, k[i + 1].s, k[i].len)) continue;
		if (dup < 0 || k[i + 1].idx < dup) { dup = k[i + 1].idx; first = k[i].idx; }
		while (i + 1 < m && k[i + 1].len == k[i].len && !memcmp(k[i].s, k[i + 1].s, k[i].len)) i++;
	}
	free(k);
	if (dup < 0) return 0;
	yaml_node_t *d = yd_loader_node(L, map->data.mapping.pairs.start[dup].key);
	yaml_node_t *f = yd_loader_node(L, map->data.mapping.pairs.start[first].key);
	return yd_fail(L->c, d, "duplicate key '%s' (first at line %zu)", (const char *)d->data.scalar.value, f->start_mark.line + 1);
}

/* Node id is complete: its expanded size from its children's, within the caps. */
static int yd_finish(yd_loader *L, int id)
{
	yaml_node_t *n = yd_loader_node(L, id);
	uint64_t nodes = 1, bytes = 0;
	if (n->type == YAML_SCALAR_NODE) bytes = n->data.scalar.length;
	else if (n->type == YAML_SEQUENCE_NODE) {
		for (yaml_node_item_t *i = n->data.sequence.items.start; i < n->data.sequence.items.top; i++)
			nodes += L->nodes[*i], bytes += L->bytes[*i];
	} else {
		for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++)
			nodes += L->nodes[p->key] + L->nodes[p->value], bytes += L->bytes[p->key] + L->bytes[p->value];
	}
	/* each child is within the caps and a node has fewer children than the text has bytes: no wrap */
	if (nodes > YD_MAX_NODES)
		return yd_fail(L->c, n, "aliases expand this to more than %d nodes (an alias bomb?)", YD_MAX_NODES);
	if (bytes > L->max_bytes)
		return yd_fail(L->c, n, "aliases expand this to more than %llu bytes of text (an alias bomb?)", (unsigned long long)L->max_bytes);
	L->nodes[id] = nodes;
	L->bytes[id] = bytes;
	return n->type == YAML_MAPPING_NODE ? yd_check_duplicates(L, id) : 0;
}

/* Node id goes into the open collection (or is the top node). */
static int yd_attach(yd_loader *L, int id)
{
	if (!L->depth) return 0;
	yd_frame *f = &L->stack[L->depth - 1];
	yaml_node_t *parent = yd_loader_node(L, f->id);
	if (parent->type == YAML_SEQUENCE_NODE) {
		if (!yaml_document_append_sequence_item(L->doc, f->id, id)) yd_oom();
		return 0;
	}
	if (!f->key) {
		yaml_node_t *k = yd_loader_node(L, id);
		if (k->type == YAML_SCALAR_NODE && k->data.scalar.style == YAML_PLAIN_SCALAR_STYLE &&
		    !strcmp((const char *)k->data.scalar.value, "<<"))
			return yd_fail(L->c, k, "merge keys (<<) are not supported; repeat the keys or use an anchor on the whole mapping");
		f->key = id;
		return 0;
	}
	if (!yaml_document_append_mapping_pair(L->doc, f->id, f->key, id)) yd_oom();
	f->key = 0;
	return 0;
}

static yaml_char_t *yd_tag(yaml_char_t *tag) { return tag && strcmp((const char *)tag, "!") ? tag : NULL; }

/* One event into the document: 1 at the document's end, 0 to go on, -1 on an error (recorded). */
static int yd_event(yd_loader *L, yaml_event_t *e)
{
	int id;
	switch (e->type) {
	case YAML_DOCUMENT_END_EVENT: return 1;
	case YAML_ALIAS_EVENT: {
		if (++L->naliases > YD_MAX_ALIASES) return yd_fail_at(L->c, e->start_mark, "more than %d aliases (an alias bomb?)", YD_MAX_ALIASES);
		const char *name = (const char *)e->data.alias.anchor;
		id = 0;
		for (int i = L->nanchors - 1; i >= 0 && !id; i--) if (!strcmp(L->anchors[i].name, name)) id = L->anchors[i].id;
		if (!id) return yd_fail_at(L->c, e->start_mark, "unknown anchor '%s' (an alias *%s needs an &%s before it)", name, name, name);
		if (!L->nodes[id]) return yd_fail_at(L->c, e->start_mark, "alias *%s is inside the node it names (a loop)", name);
		return yd_attach(L, id);
	}
	case YAML_SCALAR_EVENT:
		if (yd_count_node(L, e->start_mark)) return -1;
		id = yaml_document_add_scalar(L->doc, yd_tag(e->data.scalar.tag), e->data.scalar.value, (int)e->data.scalar.length,
		                              e->data.scalar.style);
		if (!id) yd_oom();
		yd_track(L, id);
		yd_loader_node(L, id)->start_mark = e->start_mark;
		yd_loader_node(L, id)->end_mark = e->end_mark;
		if (yd_add_anchor(L, e->data.scalar.anchor, id, e->start_mark) || yd_finish(L, id)) return -1;
		return yd_attach(L, id);
	case YAML_SEQUENCE_START_EVENT:
	case YAML_MAPPING_START_EVENT: {
		if (L->depth == YD_MAX_DEPTH) return yd_fail_at(L->c, e->start_mark, "nested more than %d levels deep", YD_MAX_DEPTH);
		if (yd_count_node(L, e->start_mark)) return -1;
		int seq = e->type == YAML_SEQUENCE_START_EVENT;
		id = seq ? yaml_document_add_sequence(L->doc, yd_tag(e->data.sequence_start.tag), e->data.sequence_start.style)
		         : yaml_document_add_mapping(L->doc, yd_tag(e->data.mapping_start.tag), e->data.mapping_start.style);
		if (!id) yd_oom();
		yd_track(L, id);
		yd_loader_node(L, id)->start_mark = e->start_mark;
		if (yd_add_anchor(L, seq ? e->data.sequence_start.anchor : e->data.mapping_start.anchor, id, e->start_mark) ||
		    yd_attach(L, id)) return -1;
		L->stack[L->depth++] = (yd_frame){ id, 0 };
		return 0;
	}
	case YAML_SEQUENCE_END_EVENT:
	case YAML_MAPPING_END_EVENT:
		id = L->stack[--L->depth].id;
		yd_loader_node(L, id)->end_mark = e->end_mark;
		return yd_finish(L, id) ? -1 : 0;
	default: return 0;
	}
}

/* The next document of c's parser into doc (initialised here; empty at the stream's end). 0, or -1 with
 * the error recorded and doc freed. */
static int yd_load_next(yd *c, yaml_document_t *doc)
{
	if (!yaml_document_initialize(doc, NULL, NULL, NULL, 1, 1)) yd_oom();
	if (c->stream_done) return 0;
	yd_loader L = { .c = c, .doc = doc };
	L.max_bytes = (uint64_t)c->len * 8 > YD_MIN_BYTES ? (uint64_t)c->len * 8 : YD_MIN_BYTES;
	int r = 0, started = 0;
	for (;;) {
		yaml_event_t e;
		if (!yaml_parser_parse(&c->parser, &e)) { r = yd_parser_fail(c); break; }
		if (e.type == YAML_STREAM_END_EVENT) { c->stream_done = 1; c->end = e.end_mark; yaml_event_delete(&e); break; }
		if (e.type == YAML_DOCUMENT_START_EVENT) started = 1;
		r = started ? yd_event(&L, &e) : 0;
		yaml_event_delete(&e);
		if (r) break;
	}
	if (r > 0) r = 0;
	for (int i = 0; i < L.nanchors; i++) free(L.anchors[i].name);
	free(L.anchors); free(L.nodes); free(L.bytes);
	if (r) yaml_document_delete(doc);
	return r;
}

int yd_load(yd *c, const char *buf, size_t len)
{
	c->text = buf ? buf : "";
	c->len = buf ? len : 0;
	c->stream_done = 0;
	if (!yaml_parser_initialize(&c->parser)) yd_oom();
	yaml_parser_set_input_string(&c->parser, (const unsigned char *)c->text, c->len);
	yaml_parser_set_encoding(&c->parser, YAML_UTF8_ENCODING);
	if (yd_load_next(c, &c->doc)) {
		yaml_parser_delete(&c->parser);
		return -1;
	}
	c->live = 1;
	c->end = c->parser.mark;
	return 0;
}

int yd_end(yd *c, const char *msg)
{
	if (!c->live || !yd_root(c)) return c->failed ? -1 : 0;
	yaml_document_t more;
	if (yd_load_next(c, &more)) return -1;
	yaml_node_t *extra = yaml_document_get_root_node(&more);
	int r = extra ? yd_fail(c, extra, "%s", msg) : 0;
	yaml_document_delete(&more);
	return r;
}

void yd_done(yd *c)
{
	if (!c->live) return;
	yaml_document_delete(&c->doc);
	yaml_parser_delete(&c->parser);
	c->live = 0;
}

yaml_node_t *yd_root(yd *c) { return c->live ? yaml_document_get_root_node(&c->doc) : NULL; }

yaml_node_t *yd_node(yd *c, int id) { return yaml_document_get_node(&c->doc, id); }

const char *yd_scalar(yd *c, yaml_node_t *n, const char *what)
{
	if (n->type != YAML_SCALAR_NODE) { yd_fail(c, n, "%s must be a single value", what); return NULL; }
	return (const char *)n->data.scalar.value;
}

yaml_node_t *yd_get(yd *c, yaml_node_t *map, const char *key)
{
	if (map->type != YAML_MAPPING_NODE) return NULL;   /* the caller's yd_check_keys reports it */
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
		yaml_node_t *k = yd_node(c, p->key);
		if (k->type == YAML_SCALAR_NODE && !strcmp((const char *)k->data.scalar.value, key)) return yd_node(c, p->value);
	}
	return NULL;
}

int yd_check_keys(yd *c, yaml_node_t *map, const char *what, const char *const *allowed)
{
	if (map->type != YAML_MAPPING_NODE) return yd_fail(c, map, "%s must be a mapping (key: value)", what);
	int bad = 0, n = 0;
	while (allowed[n]) n++;
	const char **names = xcalloc((size_t)n + 1, sizeof *names);
	char *meant = xcalloc((size_t)n + 1, 1);   /* names a misspelt key was taken for: not "needed" as well */
	for (int i = 0; i < n; i++) names[i] = allowed[i] + (allowed[i][0] == '!');
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
		yaml_node_t *k = yd_node(c, p->key);
		const char *ks = yd_scalar(c, k, "a key");
		if (!ks) { bad = -1; continue; }
		int ok = 0;
		for (int i = 0; i < n && !ok; i++) ok = !strcmp(ks, names[i]);
		if (!ok) {
			sb b = {0};
			char near[160];
			for (int i = 0; i < n; i++) sb_addf(&b, "%s%s", i ? ", " : "", names[i]);
			util_suggest_name(ks, names, n, near, sizeof near);
			bad = yd_fail(c, k, "unknown key '%s' in %s (expected one of: %s)%s", ks, what, b.s, near);
			for (int i = 0; i < n; i++) {
				char said[160];
				strfmt(said, sizeof said, "; did you mean '%s'?", names[i]);
				if (!strcmp(near, said)) meant[i] = 1;
			}
			sb_free(&b);
		}
	}
	for (int i = 0; i < n; i++)
		if (allowed[i][0] == '!' && !yd_get(c, map, names[i]) && !(bad && meant[i])) bad = yd_fail(c, map, "%s needs '%s'", what, names[i]);
	free(names);
	free(meant);
	return bad;
}

int yd_get_str(yd *c, yaml_node_t *map, const char *key, char **out)
{
	yaml_node_t *n = yd_get(c, map, key);
	if (!n) return 0;
	const char *s = yd_scalar(c, n, key);
	if (!s) return -1;
	*out = xstrdup(s);
	return 0;
}

int yd_strings(yd *c, yaml_node_t *n, const char *what, char ***out, int *count)
{
	if (n->type == YAML_SCALAR_NODE) {
		*out = xcalloc(1, sizeof(char *));
		(*out)[0] = xstrdup((const char *)n->data.scalar.value);
		*count = 1;
		return 0;
	}
	if (n->type != YAML_SEQUENCE_NODE) return yd_fail(c, n, "%s must be a list", what);
	int k = yd_seq_len(n);
	*out = xcalloc((size_t)k, sizeof(char *));
	for (int i = 0; i < k; i++) {
		const char *s = yd_scalar(c, yd_seq_at(c, n, i), what);
		if (!s) return -1;
		(*out)[i] = xstrdup(s);
		(*count)++;
	}
	return 0;
}

int yd_seq_len(const yaml_node_t *n)
{
	return n->type == YAML_SEQUENCE_NODE ? (int)(n->data.sequence.items.top - n->data.sequence.items.start) : 0;
}

yaml_node_t *yd_seq_at(yd *c, yaml_node_t *n, int i) { return yd_node(c, n->data.sequence.items.start[i]); }

int yd_map_len(const yaml_node_t *n)
{
	return n->type == YAML_MAPPING_NODE ? (int)(n->data.mapping.pairs.top - n->data.mapping.pairs.start) : 0;
}

void yd_pair(yd *c, yaml_node_t *map, int i, yaml_node_t **key, yaml_node_t **value)
{
	*key = yd_node(c, map->data.mapping.pairs.start[i].key);
	*value = yd_node(c, map->data.mapping.pairs.start[i].value);
}

/* ---- numbers ---- */

int yd_text_int(const char *s, size_t len, long long *out)
{
	size_t i = 0;
	int neg = 0;
	unsigned long long v = 0, lim = (unsigned long long)LLONG_MAX;
	if (i < len && (s[i] == '+' || s[i] == '-')) neg = s[i++] == '-';
	if (i == len) return -1;
	int over = 0;
	for (; i < len; i++) {
		if (s[i] < '0' || s[i] > '9') return -1;
		unsigned d = (unsigned)(s[i] - '0');
		if (v > (lim + (unsigned)neg - d) / 10) over = 1;   /* keep scanning: "1e99" is no number at all */
		else v = v * 10 + d;
	}
	if (over) return -2;
	*out = neg ? (long long)(0 - v) : (long long)v;
	return 0;
}

/* Read with '.' whatever the locale says (strtod wants the locale's decimal point). */
int yd_text_double(const char *s, size_t len, double *out)
{
	char tmp[NUM_TEXT_MAX + 16];
	size_t i = 0, o = 0, digits = 0;
	const char *dp = localeconv()->decimal_point;
	if (!dp || !*dp || strlen(dp) > 8) dp = ".";
	if (len > NUM_TEXT_MAX) return -1;
	/* tmp holds at most len - 1 + strlen(dp) + 1 bytes */
	if (i < len && (s[i] == '+' || s[i] == '-')) tmp[o++] = s[i++];
	while (i < len && s[i] >= '0' && s[i] <= '9') tmp[o++] = s[i++], digits++;
	if (i < len && s[i] == '.') {
		i++;
		for (const char *d = dp; *d; d++) tmp[o++] = *d;
		while (i < len && s[i] >= '0' && s[i] <= '9') tmp[o++] = s[i++], digits++;
	}
	if (!digits) return -1;
	if (i < len && (s[i] == 'e' || s[i] == 'E')) {
		size_t ed = 0;
		tmp[o++] = s[i++];
		if (i < len && (s[i] == '+' || s[i] == '-')) tmp[o++] = s[i++];
		while (i < len && s[i] >= '0' && s[i] <= '9') tmp[o++] = s[i++], ed++;
		if (!ed) return -1;
	}
	if (i != len) return -1;
	tmp[o] = 0;
	errno = 0;
	*out = strtod(tmp, NULL);
	return errno == ERANGE ? -2 : 0;
}

int yd_double(yd *c, yaml_node_t *n, const char *what, double lo, double hi, double *out)
{
	const char *s = yd_scalar(c, n, what);
	if (!s) return -1;
	double v;
	if (yd_text_double(s, n->data.scalar.length, &v)) return yd_fail(c, n, "%s must be a number, not '%s'", what, s);
	if (v < lo || v > hi) return yd_fail(c, n, "%s must be from %g to %g, not '%s'", what, lo, hi, s);
	*out = v;
	return 0;
}

int yd_int(yd *c, yaml_node_t *n, const char *what, int64_t lo, int64_t hi, int64_t *out)
{
	const char *s = yd_scalar(c, n, what);
	if (!s) return -1;
	long long v;
	if (yd_text_int(s, n->data.scalar.length, &v)) return yd_fail(c, n, "%s must be a whole number, not '%s'", what, s);
	if (v < lo || v > hi) return yd_fail(c, n, "%s must be from %lld to %lld, not '%s'", what, (long long)lo, (long long)hi, s);
	*out = v;
	return 0;
}

int yd_bool(yd *c, yaml_node_t *n, const char *what, int *out)
{
	const char *s = yd_scalar(c, n, what);
	if (!s) return -1;
	if (!strcmp(s, "true") || !strcmp(s, "yes")) *out = 1;
	else if (!strcmp(s, "false") || !strcmp(s, "no")) *out = 0;
	else return yd_fail(c, n, "%s must be true or false, not '%s'", what, s);
	return 0;
}
