/* exercise_kind: the names of a try's verdicts (exercise.h), apart from the judging itself, so that
 * the class results (results.c) can check a record's verdict without the engine. */
#include "exercise.h"

static const char *const kind_names[EXV_COUNT] = {
	"passed", "slow", "wrong", "unwritten", "out_of_bounds", "wrong_later", "fault", "hang",
	"compile_error", "no_kernel", "signature", "crash", "refused", "no_gpu",
};

const char *ex_kind_name(ex_kind k) { return (unsigned)k < EXV_COUNT ? kind_names[k] : "?"; }
