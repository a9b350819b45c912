/* tui_state: the TUI's older names for the learner's progress, which src/engine/progress.h keeps. Only
 * tui_stage.c still uses them; new code calls progress_* directly. */
#ifndef CC_TUI_STATE_H
#define CC_TUI_STATE_H
#include "progress.h"

typedef progress_state tui_state;
typedef progress_stage tui_progress;

static inline tui_progress *tui_state_stage(tui_state *s, const char *lesson_id, const char *stage_id, int create)
{
	return progress_find(s, lesson_id, stage_id, create);
}
static inline const char *tui_state_get_setting(const tui_state *s, const char *lesson_id, const char *stage_id,
                                                const char *name)
{
	return progress_setting_get(s, lesson_id, stage_id, name);
}
static inline void tui_state_set_setting(tui_state *s, const char *lesson_id, const char *stage_id, const char *name,
                                         const char *value)
{
	progress_setting_set(s, lesson_id, stage_id, name, value);
}
static inline void tui_state_set_last(tui_state *s, const char *lesson_id, const char *stage_id)
{
	progress_set_last(s, lesson_id, stage_id);
}
#endif
