/* libFuzzer target for the lesson loader (src/lesson/lesson.c, lesson_stage.c, lesson_yaml.c, over expr.c):
 * any bytes either load into a lesson whose invariants hold, or fail with "fuzz.yaml:line:col: ...".
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -Isrc/core -Isrc/lesson -Isrc/cuda -Isrc/engine -Isrc/runner -Isrc/worker -Isrc/app -I/usr/local/cuda/include tests/fuzz/fuzz_lesson.c \
 *     src/lesson/lesson.c src/lesson/lesson_yaml.c src/core/yamldoc.c src/lesson/lesson_stage.c src/lesson/lesson_exercise.c src/lesson/lesson_expect.c src/lesson/lesson_case.c src/engine/claims.c \
 *     src/engine/diagnose.c src/lesson/claim_names.c src/core/result.c src/lesson/expr.c src/core/util.c -lyaml -lm -o build-fuzz/fuzz_lesson
 *   build-fuzz/fuzz_lesson -max_total_time=60 NEW_CORPUS_DIR tests/fuzz/corpus/lesson */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lesson.h"
#include "lesson_case.h"
#include "plan.h"

/* "fuzz.yaml:L:C: " with L, C >= 1 */
static int has_position(const char *err)
{
	const char *p = err + strlen("fuzz.yaml:");
	if (strncmp(err, "fuzz.yaml:", strlen("fuzz.yaml:")) != 0) return 0;
	for (int field = 0; field < 2; field++) {
		char *end;
		long v = strtol(p, &end, 10);
		if (end == p || v < 1 || *end != ':') return 0;
		p = end + 1;
	}
	return *p == ' ';
}

static int is_device(const lesson *l, const lesson_stage *s, const char *name)
{
	const lesson_buffer *b = lesson_find_buffer(l, s, name);
	return b && b->memory == MEM_DEVICE;
}

/* Steps, repeat blocks' bodies too: every kind holds what it needs. */
static void check_steps(const lesson *l, const lesson_stage *s, const lesson_launch *steps, int n)
{
	for (int i = 0; i < n; i++) {
		const lesson_launch *L = &steps[i];
		if (L->body) {
			if (L->nbody < 1 || !L->repeat_var || !lesson_is_ident(L->repeat_var) || !L->repeat_count.e) abort();
			check_steps(l, s, L->body, L->nbody);
			continue;
		}
		if (L->kind == STEP_COPY) {
			const lesson_buffer *d = lesson_find_buffer(l, s, L->copy_dst), *sr = lesson_find_buffer(l, s, L->copy_src);
			if (!d || !sr || d == sr || d->type != sr->type || (d->memory != MEM_DEVICE && sr->memory != MEM_DEVICE)) abort();
			continue;
		}
		if (L->kind == STEP_MEMSET) {
			if (!is_device(l, s, L->memset_buffer) || L->memset_value < 0 || L->memset_value > 255) abort();
			continue;
		}
		if (L->kind == STEP_RECORD || L->kind == STEP_WAIT) {   /* an event the stage names */
			if (L->event < 0 || L->event >= s->nevents || s->nevents > LESSON_MAX_EVENTS || !lesson_is_ident(s->events[L->event])) abort();
			continue;
		}
		if (L->kind == STEP_LIBRARY) {   /* a known library, each argument a buffer in scope or an expression */
			const lesson_baseline *c = L->call;
			if (!c || !c->library || c->nargs < 1) abort();
			for (int a = 0; a < c->nargs; a++)
				if (!c->arg_names[a] || !c->arg_strings[a] || (!c->arg_values[a].e && !lesson_find_buffer(l, s, c->arg_strings[a]))) abort();
			continue;
		}
		if (L->kind != STEP_LAUNCH || !L->grid[0].e || !L->block[0].e) abort();
		for (int a = 0; a < L->nargs; a++) {
			const lesson_arg *g = &L->args[a];
			if (g->kind == ARG_VALUE) { if (!g->value.e) abort(); continue; }
			if (!lesson_find_buffer(l, s, g->buffer)) abort();
			if (g->kind == ARG_TEXTURE) {
				if (!is_device(l, s, g->buffer) || g->rank < 1 || g->rank > 2 || (g->rank == 1 && (g->pitch.e || g->filter != TEX_POINT))) abort();
				if ((g->address == TEX_WRAP || g->address == TEX_MIRROR) && !g->normalized_coords) abort();
				for (int d = 0; d < LESSON_TMA_MAX_RANK; d++) if (!g->dims[d].e != (d >= g->rank)) abort();
				continue;
			}
			if (g->kind != ARG_TENSORMAP) continue;
			if (!is_device(l, s, g->buffer)) abort();
			if (g->rank < 1 || g->rank > LESSON_TMA_MAX_RANK || (g->swizzle && g->swizzle != 32 && g->swizzle != 64 && g->swizzle != 128))
				abort();
			for (int d = 0; d < LESSON_TMA_MAX_RANK; d++)
				if (!g->dims[d].e != (d >= g->rank) || !g->box[d].e != (d >= g->rank)) abort();   /* exactly rank of each */
		}
	}
}

static int not_device(void *ctx, const char *name, size_t len, int col)
{
	(void)ctx; (void)col;
	return !plan_device_var(NULL, name, len, NULL);
}

static void check_stage(const lesson *l, const lesson_stage *s)
{
	if (!s->id || !s->entry || !s->kernel_rel || s->nlaunches < 1 || s->kernel_path) abort();
	if (lesson_stage_index(l, s->id) != s - l->stages) abort();   /* ids are unique */
	for (int i = 0; i < s->ntunables; i++) {
		const lesson_tunable *t = &s->tunables[i];
		int found = 0;
		if (t->nvalues < 1 || lesson_find_tunable(s, t->name) == NULL) abort();
		for (int k = 0; k < t->nvalues; k++) {
			if (k && t->values[k - 1] > t->values[k]) abort();   /* ascending */
			found |= t->values[k] == t->def_num;
		}
		if (!found && !t->def_expr.e) abort();   /* a number among the values, or an expression */
		if (t->def_expr.e && expr_names(t->def_expr.e, not_device, NULL)) abort();   /* over the device only */
	}
	check_steps(l, s, s->launches, s->nlaunches);
	for (int i = 0; i < s->nbuffers; i++) if (s->buffers[i].memory != MEM_DEVICE) abort();   /* scratch is device memory */
	for (int i = 0; i < s->nconstants; i++) {
		const lesson_constant *k = &s->constants[i];
		if (!k->symbol || !lesson_is_ident(k->symbol) || !k->buffer == !k->value.e) abort();   /* a buffer or a value */
		if (k->buffer && (!lesson_find_buffer(l, s, k->buffer) || lesson_find_buffer(l, s, k->buffer)->memory != MEM_DEVICE)) abort();
	}
	for (int i = 0; i < s->nmemory; i++) {
		const lesson_buffer *b = lesson_find_buffer(l, NULL, s->memory_buffers[i]);
		if (!b || b->memory == MEM_DEVICE || s->memory_kinds[i] == MEM_DEVICE) abort();
	}
}
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[1024];
	err[0] = 0;
	lesson *l = lesson_load_buffer("fuzz.yaml", (const char *)data, size, NULL, err, sizeof err);
	if (!l) {
		if (!has_position(err)) abort();   /* every failure says where */
		return 0;
	}
	if (!l->id || !l->title || !l->summary || !l->bytes.e || l->nstages < 1 || l->kernel_dir) abort();
	for (int i = 0; i < l->nparams; i++)
		if (lesson_find_param(l, l->params[i].name) == NULL || !l->params[i].def.e) abort();
	for (int i = 0; i < l->nbuffers; i++) {
		const lesson_buffer *b = &l->buffers[i];
		/* a packed buffer has a count; a pitched one rows and cols instead; a copy has a source declared
		 * before it, of its type; a cycle holds integer indices */
		if (!b->count.e == !b->pitch_rows.e || !b->pitch_rows.e != !b->pitch_cols.e) abort();
		if ((b->init == INIT_COPY) != (b->copy_of != NULL)) abort();
		if (b->init == INIT_COPY) {
			const lesson_buffer *src = NULL;
			for (int k = 0; k < i; k++) if (!strcmp(l->buffers[k].name, b->copy_of)) src = &l->buffers[k];
			if (!src || src->type != b->type || src->output || src->pitch_rows.e) abort();
		}
		if (b->init == INIT_CYCLE && (b->type != DT_I32 && b->type != DT_U32 && b->type != DT_I64 && b->type != DT_U64)) abort();
		if ((unsigned)b->type >= DT_COUNT || lesson_dtype_size(b->type) == 0) abort();
		if (b->output && b->init != INIT_NONE) abort();
		if ((b->init == INIT_EXPR) != (b->init_expr.e != NULL) || (unsigned)b->memory >= MEM_KIND_COUNT) abort();
	}
	for (int i = 0; i < l->ncompare; i++) {
		const lesson_buffer *b = lesson_find_buffer(l, NULL, l->compare[i]);
		if (!b || !b->output) abort();
	}
	if (l->reference && strcmp(l->reference, "baseline") && lesson_stage_index(l, l->reference) < 0) abort();
	if (l->reference && !strcmp(l->reference, "baseline") && !l->baseline) abort();
	if (l->rel_tol < 0 || l->abs_tol < 0) abort();
	for (int i = 0; i < l->nstages; i++) check_stage(l, &l->stages[i]);
	/* cases: identifiers, each setting a parameter or some stage's tunable to a number; a claim's case is one of them */
	for (int i = 0; i < l->ncases; i++) {
		const lesson_case *k = &l->cases[i];
		if (!k->name || !lesson_is_ident(k->name) || lesson_case_is_default(k->name) || k->n < 1 || k->n > LESSON_CASE_SETS_MAX) abort();
		for (int j = 0; j < k->n; j++) {
			double v;
			int tunable = 0;
			for (int s = 0; s < l->nstages; s++) tunable |= lesson_find_tunable(&l->stages[s], k->names[j]) != NULL;
			if ((!lesson_find_param(l, k->names[j]) && !tunable) || lesson_case_value(k, j, &v)) abort();
		}
	}
	for (int i = 0; i < l->nstages; i++)
		for (int j = 0; j < l->stages[i].nclaims; j++)
			if (l->stages[i].claims[j].when_case >= l->ncases || l->stages[i].claims[j].when_case < -1) abort();
	lesson_free(l);
	return 0;
}
