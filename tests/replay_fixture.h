/* replay_answer for the tests: a recording's result for an engine job (replay.h's replay_find by the
 * job's lesson, stage and setting names). The engine itself asks through the replay runner
 * (runner_replay.h), so this lives with the tests. */
#ifndef CC_REPLAY_FIXTURE_H
#define CC_REPLAY_FIXTURE_H
#include "engine.h"
#include "replay.h"

/* Fills r with the recorded result for the job's lesson, stage and settings, compared as the values
 * of p, the job's plan: replay_find's answer; 0, or -1 when none matches. */
static inline int replay_answer(const replay *rp, const engine_job *j, const plan *p, run_result *r)
{
	const char *names[16];
	int n = 0;
	for (int k = 0; k < j->nsets && k < 16; k++) names[n++] = j->sets[k].name;
	return replay_find(rp, j->lesson->id, j->stage >= 0 ? j->lesson->stages[j->stage].id : "baseline", names, n, p, r);
}
#endif
