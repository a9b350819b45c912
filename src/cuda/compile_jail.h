/* compile_jail: the compile of a learner's file closed in with Landlock (Linux 5.13 and later), so
 * that what NVRTC opens by itself can tell nothing of the machine's other files. The include scan
 * (compile_include.c) checks every #include it can see; a name built by the preprocessor
 * (`#define CAT(a, b) a##b` and `#if CAT(__has_, include)("/home/x/secret")`, with a toolkit
 * header's own pasting macro just as well) it cannot, and NVRTC would answer whether that file
 * exists, as the account compiling (the lab service's judge, the instructor's report --verify). */
#ifndef CC_COMPILE_JAIL_H
#define CC_COMPILE_JAIL_H
#include <stddef.h>

/* Closes this process (and what it starts) in: files under the nread folders or files of read may
 * be read and run, those under write read, made, written, renamed and removed (not run); nothing else
 * can be opened; no TCP, and no abstract Unix socket or signal outside (where the ABI has them).
 * A path that does not exist is passed over. Returns 0 when closed in; 1 when this kernel has no
 * Landlock (nothing done, why says so); -1 with why when it could not be done. */
int compile_jail_enter(const char *const *read, int nread, const char *const *write, int nwrite, char *why, size_t n);
/* Whether this kernel has Landlock: its ABI version, or 0. */
int compile_jail_abi(void);
#endif
