/* plan_result: what a plan puts in a run's result: its steps, their kinds' names, its inputs in words.
 * See plan.h. */
#include "plan.h"
#include <stdlib.h>
#include <string.h>
#include "util.h"

void plan_result_steps(const plan *p, run_result *r)
{
	r->nsteps = 0;
	for (int i = 0; p->stage >= 0 && i < p->nlaunches && r->nsteps < RUN_MAX_STEPS; i++) {
		const plan_launch *L = &p->launches[i];
		run_step *s = &r->steps[r->nsteps++];
		run_step_init(s);
		strfmt(s->kind, sizeof s->kind, "%s", plan_result_step_name(L->kind));
		s->stream = L->stream;
		if (L->kind == STEP_COPY) {
			const plan_buffer *d = plan_buffer_get(p, L->buffer), *sr = plan_buffer_get(p, L->src);
			int dh = d && d->memory != MEM_DEVICE, sh = sr && sr->memory != MEM_DEVICE;
			strfmt(s->entry, sizeof s->entry, "%s>%s", L->src, L->buffer);
			strfmt(s->dir, sizeof s->dir, "%s", sh ? "h2d" : dh ? "d2h" : "d2d");
			s->bytes = (int64_t)L->bytes;
			continue;
		}
		if (L->kind == STEP_MEMSET) {
			const plan_buffer *b = plan_buffer_get(p, L->buffer);
			strfmt(s->entry, sizeof s->entry, "%s", L->buffer);
			s->bytes = b ? b->count * (int64_t)lesson_dtype_size(b->type) : 0;
			continue;
		}
		strfmt(s->entry, sizeof s->entry, "%s", L->entry);
		if (L->kind == STEP_LIBRARY || L->kind == STEP_RECORD || L->kind == STEP_WAIT) continue;   /* no grid of ours; an event's name */
		memcpy(s->grid, L->grid, sizeof s->grid);
		memcpy(s->block, L->block, sizeof s->block);
		s->dynamic_smem = (int64_t)L->shared;
	}
}

const char *plan_result_step_name(lesson_step_kind k)
{
	static const char *const names[STEP_KIND_COUNT] = { [STEP_LAUNCH] = "launch", [STEP_MEMSET] = "memset", [STEP_COPY] = "copy", [STEP_LIBRARY] = "library",
	                                                     [STEP_RECORD] = "record", [STEP_WAIT] = "wait" };
	return (unsigned)k < STEP_KIND_COUNT ? names[k] : "?";
}

/* One input buffer's values in words: "f32, uniform in [-1, 1]". */
static void input_words(const plan_buffer *b, char *out, size_t n)
{
	const char *t = lesson_dtype_name(b->type);
	switch (b->init) {
	case INIT_RANDOM:
		strfmt(out, n, lesson_dtype_is_float(b->type) ? "%s, uniform in [%g, %g]" : "%s, uniform integers in [%g, %g]", t, b->a, b->b);
		if (b->hot > 0) strfmt(out + strlen(out), n - strlen(out), ", %g%% of them %g", 100 * b->hot, b->a);
		break;
	case INIT_CONSTANT: strfmt(out, n, "%s, every element %g", t, b->a); break;
	case INIT_IOTA: strfmt(out, n, "%s, 0, 1, 2, ... (the index)", t); break;
	case INIT_EXPR: strfmt(out, n, "%s, from its init expression", t); break;
	case INIT_COPY:
		if (b->rows > 0) strfmt(out, n, "%s, %s's values in rows of %lld, pitched", t, b->copy_of ? b->copy_of : "?", (long long)b->cols);
		else strfmt(out, n, "%s, %s's values", t, b->copy_of ? b->copy_of : "?");
		break;
	case INIT_CYCLE: strfmt(out, n, "%s, the next index on a random cycle through all %lld", t, (long long)b->count); break;
	case INIT_ZERO: case INIT_NONE: strfmt(out, n, "%s, zero", t); break;
	case INIT_CSR_ROWS: strfmt(out, n, "%s, a CSR row pointer: %lld rows, %.0f nonzeros over %.0f columns, row lengths of skew %g", t,
	                           (long long)(b->count - 1), b->a, b->b, b->skew); break;
	case INIT_CSR_COLS: strfmt(out, n, "%s, the CSR matrix's column indices, ascending within each row", t); break;
	}
}

void plan_result_inputs(const plan *p, uint64_t seed, char *out, size_t n)
{
	sb b = {0};
	sb_add(&b, "");
	int random = 0;
	char *done = xcalloc((size_t)p->nbuffers + 1, 1);
	for (int i = 0; i < p->nbuffers; i++) {
		const plan_buffer *x = &p->buffers[i];
		if (done[i] || x->output || x->scratch) continue;
		char w[128], v[128];
		input_words(x, w, sizeof w);
		sb_addf(&b, "%s%s", b.len ? "; " : "", x->name);
		for (int k = i + 1; k < p->nbuffers; k++) {   /* the buffers filled alike, named together */
			const plan_buffer *y = &p->buffers[k];
			if (done[k] || y->output || y->scratch) continue;
			input_words(y, v, sizeof v);
			if (!strcmp(v, w)) { sb_addf(&b, ", %s", y->name); done[k] = 1; }
		}
		sb_addf(&b, ": %s", w);
		random |= x->init == INIT_RANDOM || x->init == INIT_CYCLE || x->init == INIT_CSR_ROWS || x->init == INIT_CSR_COLS;
	}
	if (random) sb_addf(&b, "; seed %llu", (unsigned long long)seed);
	strfmt(out, n, "%s", b.len ? b.s : "no inputs");
	free(done);
	sb_free(&b);
}
