/* tui_mcode: see tui_mcode.h. */
#include "tui_mcode.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void unit_init(mcode_unit *u)
{
	memset(u, 0, sizeof *u);
	u->state = STAGE_CODE_NONE;
}

static void unit_drop(mcode_unit *u)
{
	source_free(&u->ptx);
	sass_free(&u->sass);
	u->ptx_loaded = u->sass_loaded = 0;
	u->ptx_entry = 0;
	u->cubin[0] = u->arch[0] = u->ptx_err[0] = u->sass_err[0] = 0;
}

void mcode_init(tui_mcode *c)
{
	memset(c, 0, sizeof *c);
	c->stage = -1;
	unit_init(&c->cur);
	unit_init(&c->prev);
}

void mcode_free(tui_mcode *c)
{
	tui_sass_diff_free(&c->diff);
	unit_drop(&c->cur);
	unit_drop(&c->prev);
	mcode_init(c);
}

/* The PTX kept beside the cubin (NAME.cubin: NAME.ptx); its first .entry line. */
static void load_ptx(mcode_unit *u)
{
	char path[300], err[400];
	size_t n = strlen(u->cubin);
	if (n > 6 && !strcmp(u->cubin + n - 6, ".cubin")) n -= 6;
	snprintf(path, sizeof path, "%.*s.ptx", (int)n, u->cubin);
	u->ptx_loaded = 1;
	if (source_load(&u->ptx, path, err, sizeof err) < 0) {
		snprintf(u->ptx_err, sizeof u->ptx_err, "No PTX was kept for this compile: %s", err);
		return;
	}
	for (int i = 0; i < u->ptx.n; i++)
		if (strstr(u->ptx.lines[i], ".entry ")) { u->ptx_entry = i; break; }
}

static void load_sass(mcode_unit *u)
{
	char err[512];
	u->sass_loaded = 1;
	char *text = sass_disassemble(u->cubin, err, sizeof err);
	if (!text) {
		snprintf(u->sass_err, sizeof u->sass_err, "%s", err);
		return;
	}
	if (sass_parse(text, &u->sass) < 0)
		snprintf(u->sass_err, sizeof u->sass_err, "out of memory reading nvdisasm's listing");
	free(text);
}

/* The code of stage s as the model has it now, and what the view needs of it loaded. */
static int unit_sync(mcode_unit *u, tui_stage *m, int s, int want_ptx, int want_sass, double now)
{
	const char *cubin, *arch, *why;
	stage_code_state st = stage_code(m, s, now, &cubin, &arch, &why);
	int changed = st != u->state || strcmp(why, u->why);
	u->state = st;
	snprintf(u->why, sizeof u->why, "%s", why);
	if (st != STAGE_CODE_READY) {
		if (u->cubin[0]) { unit_drop(u); changed = 1; }
		return changed;
	}
	if (strcmp(u->cubin, cubin)) {
		unit_drop(u);
		snprintf(u->cubin, sizeof u->cubin, "%s", cubin);
		snprintf(u->arch, sizeof u->arch, "%s", arch);
		changed = 1;
	}
	if (want_ptx && !u->ptx_loaded) { load_ptx(u); changed = 1; }
	if (want_sass && !u->sass_loaded) { load_sass(u); changed = 1; }
	return changed;
}

static int sass_ok(const mcode_unit *u)
{
	return u->state == STAGE_CODE_READY && u->sass_loaded && !u->sass_err[0];
}

int mcode_sync(tui_mcode *c, tui_stage *m, mcode_want want, double now)
{
	int changed = 0;
	if (c->stage != m->cur || c->lesson != m->l) {
		mcode_free(c);
		c->lesson = m->l;
		c->stage = m->cur;
		changed = 1;
	}
	changed |= unit_sync(&c->cur, m, m->cur, want == MC_PTX, want != MC_PTX, now);
	if (want != MC_SASS_DIFF || m->cur == 0)
		return changed;
	changed |= unit_sync(&c->prev, m, m->cur - 1, 0, 1, now);
	if (c->diff_made && (strcmp(c->diff_of[0], c->prev.cubin) || strcmp(c->diff_of[1], c->cur.cubin))) {
		tui_sass_diff_free(&c->diff);            /* its strings were the listings', now dropped */
		c->diff_made = 0;
		changed = 1;
	}
	if (!c->diff_made && sass_ok(&c->cur) && sass_ok(&c->prev)) {
		c->diff_made = tui_sass_diff_make(&c->diff, &c->prev.sass, &c->cur.sass) == 0;
		snprintf(c->diff_of[0], sizeof c->diff_of[0], "%s", c->prev.cubin);
		snprintf(c->diff_of[1], sizeof c->diff_of[1], "%s", c->cur.cubin);
		changed = 1;
	}
	return changed;
}
