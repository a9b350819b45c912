/* tui_source: a kernel's source as lines and its syntax colouring (the line diff between two
 * sources is src/core/diff.h). Pure: no curses, unit-tested. */
#ifndef CC_TUI_SOURCE_H
#define CC_TUI_SOURCE_H
#include <stddef.h>
#include "diff.h"
#include "tui_theme.h"

typedef struct {
	char *buf;        /* owned: the text with tabs expanded, lines NUL-terminated in place */
	char **lines;     /* owned array; lines[i] points into buf */
	int n;
	long long mtime_ns, size;   /* of the file it was loaded from (-1: from a buffer) */
} source_text;

/* Loads path (tabs expanded to 4 columns). Returns 0, or -1 with a message; t is then empty. */
int source_load(source_text *t, const char *path, char *err, size_t errlen);
/* The same from a buffer (copied). Returns 0. */
int source_from_buffer(source_text *t, const char *buf, size_t len);
void source_free(source_text *t);
/* Whether path is no longer the file t was loaded from (its size or modification time changed,
 * or it cannot be read): then load it again. */
int source_stale(const source_text *t, const char *path);

/* An object-like macro definition, "#define NAME VALUE" (spaces allowed around '#'): the byte
 * spans of its name and of its value (the first word after the name, up to a space or a comment;
 * empty, at the end of the name, when there is none). */
typedef struct { size_t name_off, name_len, val_off, val_len; } source_macro;
/* Fills *d and returns 1 when line (len bytes) is such a definition; else 0. */
int source_define(const char *line, size_t len, source_macro *d);

/* Colours one line: roles[i] gets the role of byte i (ROLE_NORMAL, ROLE_KEYWORD, ROLE_COMMENT,
 * ROLE_STRING, ROLE_NUMBER, ROLE_PREPROC). *in_comment carries an open block comment from line to
 * line: start it at 0 for the first line. */
void source_highlight(const char *line, size_t len, int *in_comment, unsigned char *roles);

#endif
