/* json: writes JSON (strings escaped per RFC 8259), objects from field tables. */
#ifndef CC_JSON_H
#define CC_JSON_H
#include <stdio.h>
#include "result.h"

/* The version of the CLI's JSON documents, their top-level "schema" member: raised when a member
 * changes meaning or goes (2 would be the first such change; 1: booleans true/false). */
enum { JSON_SCHEMA = 1 };

/* Writes s as a JSON string literal. */
void json_string(FILE *f, const char *s);
/* Writes obj as a JSON object with one member per field (non-finite numbers as null; a findings
 * field adds a "findings" array after its text); extra_key/
 * extra_value, when not NULL, add one more string member (e.g. "log"). */
void json_object(FILE *f, const field *fs, int n, const void *obj, const char *extra_key, const char *extra_value);
/* The members alone ("name": value, ...), for an object that adds members of its own. */
void json_members(FILE *f, const field *fs, int n, const void *obj);
/* r's steps as a JSON array of objects (run_step_fields), "[]" when it has none. */
void json_steps(FILE *f, const run_result *r);
#endif
