/* util: allocation that cannot fail quietly, growable strings, files, hashing, folders. */
#ifndef CC_UTIL_H
#define CC_UTIL_H
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/* The allocation policy, for all C code here (engine, TUI, parsers): allocate with these, which end
 * the program with a message when memory runs out, so no caller carries an out-of-memory path.
 * Sizes that come from input are bounded by the reader before they are allocated (a lesson, an
 * arch table or a replay has a size limit), never by an allocation failing. C++ (counters,
 * hotspots) follows the same rule through std:: containers. xstrdup(NULL) is NULL. */
void *xmalloc(size_t n);
/* fn runs before the out-of-memory message (the TUI ends curses there); NULL for none. */
void util_on_fatal(void (*fn)(void));
/* A one-line notice for the user that is not an error (a folder made private, a corrupt cache entry
 * rebuilt): to stderr as "cudaclimb: text" with control characters shown as '?', or to fn when one is
 * set (the TUI shows it in its status line); NULL restores stderr. */
void util_on_notice(void (*fn)(const char *text));
void notice(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
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

/* The size limit of file_read: lessons, courses, kernel sources and headers, workspace files. */
#define FILE_READ_MAX ((size_t)16 << 20)
/* file_read_max's flags: FILE_NOFOLLOW refuses a symbolic link as the last part of path (ELOOP); ask
 * for it where the file sits in a folder another user can write (workspace, cache, results, queue). */
enum { FILE_NOFOLLOW = 1 };
/* errno of file_read for a FIFO, a device or a socket (file_strerror says "not a regular file"). */
#define FILE_ENOTREG ENODEV
/* Reads a whole regular file (of at most FILE_READ_MAX bytes) into a new NUL-terminated buffer;
 * NULL with errno set on failure: FILE_ENOTREG, EISDIR, EFBIG (too big), or open's. Never blocks on
 * a FIFO, never reads a device. */
char *file_read(const char *path, size_t *len);
/* The same with a size limit of max bytes and flags (FILE_NOFOLLOW). A file that grows past max
 * while it is read fails with EFBIG. */
char *file_read_max(const char *path, size_t max, int flags, size_t *len);
/* The words for a file_read errno: "not a regular file ...", "larger than the size limit ...",
 * else strerror's. */
const char *file_strerror(int e);
/* Writes data to path through a temporary file and rename(2): readers never see half a file. The
 * temporary name is random and created with O_EXCL|O_NOFOLLOW, so nothing planted beside path is
 * followed. The file is 0600 (private). Returns 0 or -1 with errno set. */
int file_write_atomic(const char *path, const void *data, size_t len);
/* The same with the file's permissions (before the umask) given: 0644 for a file others may read. */
int file_write_atomic_mode(const char *path, const void *data, size_t len, int mode);
/* mkdir -p; 0 or -1 with errno. */
int mkdir_p(const char *path, int mode);
/* dir_private's flags: DIR_FOLLOW accepts a symbolic link to a folder (a workspace the user named). */
enum { DIR_FOLLOW = 1 };
/* Makes path (mkdir -p, 0700) a private folder of the effective user: 0 when it is a real folder
 * (lstat: no symbolic link, unless DIR_FOLLOW) owned by the euid, tightened to 0700 if group or
 * others had any access (*tightened set to 1 then; may be NULL); -1 with why otherwise (someone
 * else's folder, a link, a file). */
int dir_private(const char *path, int flags, int *tightened, char *why, size_t whylen);
/* 0 when nobody but root and this user can swap any folder on path's way (a relative path starts at
 * the working folder, whose folders count too): each one (lstat; a symbolic link root's or ours is
 * followed) root's or the euid's, and writable by others
 * (or by a group other than the user's private one) only with the sticky bit; -1 with why otherwise. */
int dir_trusted(const char *path, char *why, size_t whylen);
/* Whether gid is this user's private group (as useradd -U makes them): named as the user, with no
 * other member listed. Its write or read bit lets no one else in (under umask 002, as some systems set
 * for such users, ~/.cache and ~/.local are made 0775). */
int dir_group_mine(gid_t gid);
int file_exists(const char *path);
int dir_exists(const char *path);

/* $XDG_CACHE_HOME/cudaclimb or ~/.cache/cudaclimb (likewise XDG_STATE_HOME, ~/.local/state), where
 * ~ is $HOME, else the password database's home of the euid, else /tmp/cudaclimb-UID/cache (a folder
 * of this uid's own, never a shared one); a new string, nothing created or checked. */
char *xdg_path(const char *env, const char *fallback);
/* The cache folder (xdg_path's for XDG_CACHE_HOME: compiles, the worker's code, calibration, picks),
 * created and checked with dir_private, and with no folder on its way that a user other than root
 * and this one owns, or may write without the sticky bit: a new string, or NULL with why (then work
 * without a cache). */
char *xdg_cache_dir(char *why, size_t whylen);

/* FNV-1a 64-bit over data, continuing from h (start with FNV_OFFSET). */
#define FNV_OFFSET 1469598103934665603ULL
uint64_t fnv1a(uint64_t h, const void *data, size_t len);

/* Monotonic milliseconds. */
double now_ms(void);
/* The folder the running executable is in (new string), or NULL. */
char *exe_dir(void);
/* The folder with this installation's data (assets/arch.yaml, kernels/, lessons/): beside the
 * executable, or the installed share folder; a new string, or NULL. */
char *data_root(void);
/* The bytes of the invisible format character s starts with (UTF-8: the bidi controls U+061C,
 * U+200E-F, U+202A-E, U+2066-9; the zero-width U+200B-D, U+2060-4, U+FEFF; the line and paragraph
 * separators U+2028-9), else 0: what can reverse or hide text, or make one name look like another. */
int util_invisible_len(const char *s);
/* Writes s to f with its control characters (C0 but tab and newline, DEL, C1 in UTF-8) and invisible
 * format characters (util_invisible_len) as '?': text that someone else wrote (a learner's compile
 * log, a replay file) never drives the terminal nor reorders or hides what it shows. */
void fput_clean(FILE *f, const char *s);
/* The same on one line: a newline, carriage return or tab is a space too (a field of a line that
 * scripts read, such as list's titles, cannot start a line of its own). */
void fput_clean_line(FILE *f, const char *s);
/* Removes trailing spaces and newlines in place. */
void rtrim(char *s);
/* "; did you mean 'x'?" into out for the nearest of n names when near enough (a third of the typed
 * name's letters wrong at most, ignoring case; a swap of two neighbours counts as one), else "". */
void util_suggest_name(const char *typed, const char *const *names, int n, char *out, size_t len);
/* The index of the shortest of n queue lengths; among equals, one chosen by salt (a process id), so
 * that runs starting together spread over the GPUs instead of all taking the first. n > 0. */
int util_pick_shortest(const int *lengths, int n, unsigned salt);

#endif
