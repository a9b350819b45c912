/* util: allocation that cannot fail quietly, growable strings, files, hashing, folders. */
#ifndef CC_UTIL_H
#define CC_UTIL_H
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The allocation policy, for all C code here (engine, TUI, parsers): allocate with these, which end
 * the program with a message when memory runs out, so no caller carries an out-of-memory path.
 * Sizes that come from input are bounded by the reader before they are allocated (a lesson, an
 * arch table or a replay has a size limit), never by an allocation failing. C++ (counters,
 * hotspots) follows the same rule through std:: containers. xstrdup(NULL) is NULL. */
void *xmalloc(size_t n);
/* fn runs before the out-of-memory message (the TUI ends curses there); NULL for none. */
void util_on_fatal(void (*fn)(void));
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* printf into a new string the caller frees. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A growable NUL-terminated string. Zero-initialise; sb_take hands the buffer to the caller. */
typedef struct { char *s; size_t len, cap; } sb;
void sb_add(sb *b, const char *s);
void sb_addn(sb *b, const char *s, size_t n);
void sb_addf(sb *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
char *sb_take(sb *b);
void sb_free(sb *b);

/* snprintf that always terminates and never warns about truncation. */
void strfmt(char *dst, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Reads a whole file into a new NUL-terminated buffer; NULL with errno set on failure. */
char *file_read(const char *path, size_t *len);
/* Writes data to path through a temporary file and rename(2): readers never see half a file.
 * Returns 0 or -1 with errno set. */
int file_write_atomic(const char *path, const void *data, size_t len);
/* The same with the file's permissions (before the umask) given: 0600 for a private file. */
int file_write_atomic_mode(const char *path, const void *data, size_t len, int mode);
/* mkdir -p; 0 or -1 with errno. */
int mkdir_p(const char *path, int mode);
int file_exists(const char *path);
int dir_exists(const char *path);

/* $XDG_CACHE_HOME/cudaclimb or ~/.cache/cudaclimb (likewise XDG_STATE_HOME, ~/.local/state);
 * a new string, the folder created. */
char *xdg_dir(const char *env, const char *fallback);
/* The same path without creating anything (a new string). */
char *xdg_path(const char *env, const char *fallback);

/* FNV-1a 64-bit over data, continuing from h (start with FNV_OFFSET). */
#define FNV_OFFSET 1469598103934665603ULL
uint64_t fnv1a(uint64_t h, const void *data, size_t len);

/* Monotonic milliseconds. */
double now_ms(void);
/* The folder the running executable is in (new string), or NULL. */
char *exe_dir(void);
/* Writes s to f with its control characters (C0 but tab and newline, DEL, C1 in UTF-8) as '?': text
 * that someone else wrote (a learner's compile log, a replay file) never drives the terminal. */
void fput_clean(FILE *f, const char *s);
/* Removes trailing spaces and newlines in place. */
void rtrim(char *s);
#endif
