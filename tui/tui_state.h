/* tui_state: what the learner has done, kept between runs in $XDG_STATE_HOME/cudaclimb/progress
 * (default ~/.local/state/cudaclimb/progress): where they left off, per stage whether it was opened,
 * compiled, ran correctly or failed, the best numbers, and the tunable values they chose.
 * The file is lines of words; it is written atomically (a temporary file, then rename) under an
 * exclusive lock on PATH.lock, merged with what another session wrote since (two sessions of one
 * learner lose nothing). */
#ifndef CC_TUI_STATE_H
#define CC_TUI_STATE_H
#include <stddef.h>

typedef struct {
	char lesson[64], stage[64];
	int seen, compiled, passed, failed;      /* failed: the last run was wrong or faulted */
	double best_ms, best_gbps, best_gflops;  /* 0 when none */
} tui_progress;

typedef struct { char lesson[64], stage[64], name[64], value[64]; } tui_saved_setting;

typedef struct {
	char last_lesson[64], last_stage[64];    /* where to reopen; "" for the lesson list */
	tui_progress *st; int nst;
	tui_saved_setting *sets; int nsets;
	int dirty;                               /* changed since loaded or saved */
} tui_state;

/* The file's path: $XDG_STATE_HOME/cudaclimb/progress, or ~/.local/state/... Returns 0 or -1. */
int tui_state_path(char *buf, size_t len);
void tui_state_init(tui_state *s);
/* Reads path into s (a missing file leaves s empty and is not an error; unknown lines are
 * skipped). Returns 0, or -1 with a message when the file exists but cannot be read. */
int tui_state_load(tui_state *s, const char *path, char *err, size_t errlen);
/* Writes s to path atomically, creating the folders: under an exclusive flock on path.lock it
 * reads the file again, merges it into s (tui_state_merge: s then holds what both sessions did)
 * and writes s. Returns 0, or -1 with a message. */
int tui_state_save(tui_state *s, const char *path, char *err, size_t errlen);
/* Merges other into s: per stage the furthest state (seen, compiled, passed, failed: any) and the
 * best numbers (the least time, the most GB/s and GFLOP/s); stages only other has are added;
 * settings are s's, with other's for names s has not set; the last position stays s's. */
void tui_state_merge(tui_state *s, const tui_state *other);
void tui_state_free(tui_state *s);

/* The record of one stage; with create, added when missing (NULL only when out of memory or
 * without create). The pointer is valid until the next call that creates. */
tui_progress *tui_state_stage(tui_state *s, const char *lesson, const char *stage, int create);
/* A saved tunable value, or NULL. */
const char *tui_state_get_setting(const tui_state *s, const char *lesson, const char *stage,
                                  const char *name);
/* Remembers a tunable value (replacing any earlier one). */
void tui_state_set_setting(tui_state *s, const char *lesson, const char *stage, const char *name,
                           const char *value);
void tui_state_set_last(tui_state *s, const char *lesson, const char *stage);
#endif
