/* course: see course.h. Read through yamldoc, as a lesson is, so that its errors read like a lesson's:
 * "course.yaml:line:col: message". */
#include "course.h"
#include <float.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "yamldoc.h"
#include "util.h"

const char *course_runner_name(course_runner r) { return runner_kind_name(r); }

/* An error message quotes the course file (an id, a date, a path): its control characters (C0, DEL,
 * C1 in UTF-8, newlines too: a message is one line) become '?' so that it never drives a terminal. */
static void clean_message(char *s)
{
	for (unsigned char *p = (unsigned char *)s; p && *p; p++) {
		if (*p == 0xC2 && p[1] >= 0x80 && p[1] <= 0x9F) { *p++ = '?'; *p = '?'; continue; }
		if (*p < 0x20 || *p == 0x7F) *p = '?';
	}
}

/* "2026-12-01", "2026-12-01 23:59" or "2026-12-01T23:59", local time. 0 or -1. */
static int parse_due(const char *s, int64_t *out)
{
	static const char *const forms[] = { "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M", "%Y-%m-%d" };
	for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
		struct tm tm;
		memset(&tm, 0, sizeof tm);
		const char *end = strptime(s, forms[i], &tm);
		if (!end || *end) continue;
		if (i == 2) { tm.tm_hour = 23; tm.tm_min = 59; tm.tm_sec = 59; }   /* a day: to its end */
		tm.tm_isdst = -1;
		time_t t = mktime(&tm);
		if (t == (time_t)-1) return -1;
		*out = (int64_t)t;
		return 0;
	}
	return -1;
}

/* "lesson/stage" into the item's names; -1 when it is not of that form. */
static int split_exercise(const char *s, course_item *it)
{
	const char *slash = strchr(s, '/');
	if (!slash || slash == s || !slash[1] || strchr(slash + 1, '/')) return -1;
	it->lesson = xstrndup(s, (size_t)(slash - s));
	it->stage = xstrdup(slash + 1);
	return lesson_is_ident(it->lesson) && lesson_is_ident(it->stage) ? 0 : -1;
}

/* One assigned exercise into it; goes on after an error where it can (with the yd's all, each is
 * listed). it->lesson stays NULL when the exercise's name could not be read. */
static int parse_item(yd *c, yaml_node_t *n, course_item *it)
{
	it->at.line = (int)n->start_mark.line + 1;
	it->at.col = (int)n->start_mark.column + 1;
	yaml_node_t *name = n;
	int bad = 0;
	if (n->type == YAML_MAPPING_NODE) {
		static const char *const keys[] = { "!exercise", "pass", "due", NULL };
		bad = yd_check_keys(c, n, "an assigned exercise", keys);
		name = yd_get(c, n, "exercise");
		yaml_node_t *pn = yd_get(c, n, "pass"), *dn = yd_get(c, n, "due");
		if (pn && yd_double(c, pn, "pass", -DBL_MAX, DBL_MAX, &it->pass)) bad = -1;
		else if (pn && !(it->pass > 0 && it->pass <= 10))
			bad = yd_fail(c, pn, "pass is the fraction of the stage kernel's speed to reach, above 0 and at most 10");
		const char *d = dn ? yd_scalar(c, dn, "due") : NULL;
		if (dn && !d) bad = -1;
		else if (d && parse_due(d, &it->due)) bad = yd_fail(c, dn, "due '%s' is not a date: write 2026-12-01 or 2026-12-01 23:59 (local time)", d);
		else if (d) it->due_text = xstrdup(d);
	}
	const char *s = name ? yd_scalar(c, name, "an exercise") : NULL;   /* no name: yd_check_keys said so */
	if (!s) return -1;
	if (split_exercise(s, it)) {
		free(it->lesson); free(it->stage);
		it->lesson = it->stage = NULL;
		return yd_fail(c, name, "an exercise is LESSON/STAGE, e.g. bandwidth/coalesced, not '%s'", s);
	}
	return bad;
}

/* A runner setting goes on a command line (ssh's, srun's): refused at its key when it could be
 * taken for an option or split into words. */
static int check_setting(yd *c, yaml_node_t *map, const char *key, const char *value)
{
	runner_config rc = {0};
	char err[256];
	if (!value || !runner_config_set(&rc, key, value, "runner", err, sizeof err)) return 0;
	return yd_fail(c, yd_get(c, map, key), "%s", err);
}

static int parse_runner(yd *c, yaml_node_t *root, course *co)
{
	yaml_node_t *rn = yd_get(c, root, "runner"), *sn = yd_get(c, root, "ssh"), *ln = yd_get(c, root, "slurm");
	if (rn) {
		const char *r = yd_scalar(c, rn, "runner");
		if (!r) return -1;
		int k = 0;
		while (k <= RUNNER_SLURM && strcmp(r, runner_kind_name((runner_kind)k))) k++;
		if (k > RUNNER_SLURM) return yd_fail(c, rn, "runner is local, ssh or slurm, not '%s'", r);
		co->runner = (course_runner)k;
	}
	if (sn) {
		static const char *const keys[] = { "!host", "worker", NULL };
		if (yd_check_keys(c, sn, "ssh", keys) || yd_get_str(c, sn, "host", &co->ssh_host) || yd_get_str(c, sn, "worker", &co->ssh_worker) ||
		    check_setting(c, sn, "host", co->ssh_host) || check_setting(c, sn, "worker", co->ssh_worker)) return -1;
	}
	if (ln) {
		static const char *const keys[] = { "partition", "gres", "time", "account", NULL };
		if (yd_check_keys(c, ln, "slurm", keys) || yd_get_str(c, ln, "partition", &co->slurm_partition) ||
		    yd_get_str(c, ln, "gres", &co->slurm_gres) || yd_get_str(c, ln, "time", &co->slurm_time) ||
		    yd_get_str(c, ln, "account", &co->slurm_account) || check_setting(c, ln, "partition", co->slurm_partition) ||
		    check_setting(c, ln, "gres", co->slurm_gres) || check_setting(c, ln, "time", co->slurm_time) ||
		    check_setting(c, ln, "account", co->slurm_account)) return -1;
	}
	if (co->runner == RUNNER_SSH && !co->ssh_host) return yd_fail(c, rn, "runner ssh needs ssh: { host: NAME }");
	return 0;
}

/* service: { socket: PATH, store: PATH }: the lab service that queues the GPU and judges tries (both
 * absolute paths: a student's relative path would name a folder of their own). */
static int parse_service(yd *c, yaml_node_t *root, course *co)
{
	yaml_node_t *sn = yd_get(c, root, "service");
	if (!sn) return 0;
	static const char *const keys[] = { "!socket", "!store", NULL };
	if (yd_check_keys(c, sn, "service", keys) || yd_get_str(c, sn, "socket", &co->service_socket) ||
	    yd_get_str(c, sn, "store", &co->service_store)) return -1;
	if (co->service_socket[0] != '/' || strlen(co->service_socket) >= 100)
		return yd_fail(c, yd_get(c, sn, "socket"), "service's socket is an absolute path of under 100 bytes, e.g. /run/cudaclimb/cudaclimb.sock");
	if (co->service_store[0] != '/')
		return yd_fail(c, yd_get(c, sn, "store"), "service's store is an absolute path, e.g. /var/lib/cudaclimb/%s", co->id ? co->id : "COURSE");
	return 0;
}

/* The course file into co; goes on after an error where it can (each top-level key and each
 * exercise on its own), so that with the yd's all every error is listed. */
static int parse_course(yd *c, yaml_node_t *root, course *co)
{
	static const char *const keys[] = { "!course", "!title", "!exercises", "lessons", "results", "share", "verify", "runner", "ssh", "slurm", "service", NULL };
	if (root->type != YAML_MAPPING_NODE) return yd_fail(c, root, "a course file is a mapping: course, title, exercises, ...");
	int bad = yd_check_keys(c, root, "a course", keys);
	if (yd_get_str(c, root, "course", &co->id) || yd_get_str(c, root, "title", &co->title)) bad = -1;
	if (co->id && !lesson_is_ident(co->id)) bad = yd_fail(c, yd_get(c, root, "course"), "course id '%s' must be an identifier ([a-z0-9_])", co->id);
	yaml_node_t *ln = yd_get(c, root, "lessons"), *en = yd_get(c, root, "exercises"), *rn = yd_get(c, root, "results"),
	            *sh = yd_get(c, root, "share"), *vn = yd_get(c, root, "verify");
	if (ln && yd_strings(c, ln, "lessons", &co->lessons, &co->nlessons)) bad = -1;
	else if (ln) {
		co->lessons_at = xcalloc((size_t)co->nlessons + 1, sizeof *co->lessons_at);
		for (int i = 0; i < co->nlessons; i++) {
			yaml_node_t *at = ln->type == YAML_SEQUENCE_NODE ? yd_seq_at(c, ln, i) : ln;
			co->lessons_at[i] = (lesson_mark){ .line = (int)at->start_mark.line + 1, .col = (int)at->start_mark.column + 1 };
		}
	}
	if (en && (en->type != YAML_SEQUENCE_NODE || yd_seq_len(en) < 1)) bad = yd_fail(c, en, "exercises is a list of LESSON/STAGE (at least one)");
	else if (en) {
		co->items = xcalloc((size_t)yd_seq_len(en), sizeof *co->items);
		for (int i = 0; i < yd_seq_len(en); i++) {
			yaml_node_t *in = yd_seq_at(c, en, i);
			course_item *it = &co->items[co->nitems++];
			if (parse_item(c, in, it)) bad = -1;
			for (int k = 0; it->lesson && k < co->nitems - 1; k++)
				if (co->items[k].lesson && !strcmp(co->items[k].lesson, it->lesson) && !strcmp(co->items[k].stage, it->stage))
					bad = yd_fail(c, in, "%s/%s is assigned twice", it->lesson, it->stage);
		}
	} else {
		bad = -1;   /* yd_check_keys said it is needed */
	}
	char *results = NULL;
	if (rn && yd_get_str(c, root, "results", &results)) bad = -1;
	if (results && !*results) { free(results); results = NULL; bad = yd_fail(c, rn, "results names a folder"); }
	co->results = !results ? xasprintf("%s/results", co->dir) : results[0] == '/' ? results : xasprintf("%s/%s", co->dir, results);
	if (results && results[0] != '/') free(results);
	if (sh && yd_bool(c, sh, "share", &co->share)) bad = -1;
	if (vn && yd_bool(c, vn, "verify", &co->verify)) bad = -1;
	if (parse_service(c, root, co)) bad = -1;
	if (parse_runner(c, root, co)) bad = -1;
	if (co->service_socket && co->runner != RUNNER_LOCAL)
		bad = yd_fail(c, yd_get(c, root, "service"), "a lab service orders the GPUs of its own box: it cannot go with runner %s",
		              runner_kind_name(co->runner));
	return bad;
}

/* The file's text into a course: NULL with the first error in err; or, with all, every error added
 * there and the course as far as it could be read (NULL only when the text is no YAML or empty). */
static course *load_text(const char *name, const char *dir, const char *buf, size_t len, char *err, size_t errlen, yd_errors *all)
{
	int from = all ? all->n : 0;
	yd c = { .file = name, .err = err, .errlen = errlen, .all = all };
	course *co = NULL;
	if (!yd_load(&c, buf, len)) {
		co = xcalloc(1, sizeof *co);
		co->dir = xstrdup(dir);
		co->path = xstrdup(name);
		yaml_node_t *root = yd_root(&c);
		int bad = !root ? yd_fail_at(&c, (yaml_mark_t){0, 0, 0}, "the file is empty") : parse_course(&c, root, co);
		if (bad && (!all || !root)) { course_free(co); co = NULL; }
		yd_done(&c);
	}
	if (!co || c.failed) clean_message(err);
	for (int i = from; all && i < all->n; i++) clean_message(all->v[i].text);
	return co;
}

course *course_load_buffer(const char *name, const char *dir, const char *buf, size_t len, char *err, size_t errlen)
{
	return load_text(name, dir, buf, len, err, errlen, NULL);
}

/* DIR/course.yaml's text into load_text. */
static course *load_file(const char *dir, char *err, size_t errlen, yd_errors *all)
{
	char *path = xasprintf("%s/course.yaml", dir);
	size_t len;
	char *buf = file_read(path, &len);
	course *co = NULL;
	if (buf) co = load_text(path, dir, buf, len, err, errlen, all);
	else if (all) yd_errors_add(all, path, 1, 1, "cannot read the course file (a course folder holds course.yaml)");
	else { strfmt(err, errlen, "%s:1:1: cannot read the course file (a course folder holds course.yaml)", path); clean_message(err); }
	if (!buf && all && all->n) clean_message(all->v[all->n - 1].text);
	free(buf);
	free(path);
	return co;
}

course *course_load(const char *dir, char *err, size_t errlen) { return load_file(dir, err, errlen, NULL); }

course *course_load_all(const char *dir, yd_errors *all) { return load_file(dir, NULL, 0, all); }

void course_free(course *c)
{
	if (!c) return;
	free(c->id); free(c->title); free(c->dir); free(c->path); free(c->results);
	free(c->service_socket); free(c->service_store);
	for (int i = 0; i < c->nlessons; i++) free(c->lessons[i]);
	free(c->lessons); free(c->lessons_at);
	for (int i = 0; i < c->nitems; i++) { free(c->items[i].lesson); free(c->items[i].stage); free(c->items[i].due_text); }
	free(c->items);
	free(c->ssh_host); free(c->ssh_worker); free(c->slurm_partition); free(c->slurm_gres); free(c->slurm_time); free(c->slurm_account);
	free(c);
}

int course_check(const course *c, const lesson_set *ls, char *err, size_t errlen)
{
	for (int i = 0; i < c->nlessons; i++)
		if (!lesson_set_find(ls, c->lessons[i])) {
			strfmt(err, errlen, "%s:%d:%d: lessons: no lesson '%s' in the lesson tree", c->path, c->lessons_at[i].line, c->lessons_at[i].col, c->lessons[i]);
			clean_message(err);
			return -1;
		}
	for (int i = 0; i < c->nitems; i++) {
		const course_item *it = &c->items[i];
		const lesson *l = lesson_set_find(ls, it->lesson);
		int s = l ? lesson_stage_index(l, it->stage) : -1;
		const char *why = !l ? "no such lesson" : s < 0 ? "no such stage" : !l->stages[s].exercise ? "that stage has no exercise" : NULL;
		if (why) {
			strfmt(err, errlen, "%s:%d:%d: %s/%s: %s", c->path, it->at.line, it->at.col, it->lesson, it->stage, why);
			clean_message(err);
			return -1;
		}
	}
	return 0;
}

int course_check_all(const course *c, const lesson_set *ls, yd_errors *all)
{
	int before = all->n + all->dropped;
	char near[160], msg[512];
	const char **names = xcalloc((size_t)ls->count + 1, sizeof *names);
	for (int i = 0; i < ls->count; i++) names[i] = ls->items[i]->id;
	for (int i = 0; i < c->nlessons; i++) {
		if (lesson_set_find(ls, c->lessons[i])) continue;
		util_suggest_name(c->lessons[i], names, ls->count, near, sizeof near);
		strfmt(msg, sizeof msg, "lessons: no lesson '%s' in the lesson tree%s", c->lessons[i], near);
		yd_errors_add(all, c->path, (size_t)c->lessons_at[i].line, (size_t)c->lessons_at[i].col, msg);
	}
	for (int i = 0; i < c->nitems; i++) {
		const course_item *it = &c->items[i];
		if (!it->lesson) continue;   /* its name could not be read: course_load_all said so */
		const lesson *l = lesson_set_find(ls, it->lesson);
		int s = l ? lesson_stage_index(l, it->stage) : -1;
		near[0] = 0;
		if (!l) {
			util_suggest_name(it->lesson, names, ls->count, near, sizeof near);
			strfmt(msg, sizeof msg, "%s/%s: no lesson '%s'%s", it->lesson, it->stage, it->lesson, near);
		} else if (s < 0) {
			const char **st = xcalloc((size_t)l->nstages + 1, sizeof *st);
			for (int k = 0; k < l->nstages; k++) st[k] = l->stages[k].id;
			util_suggest_name(it->stage, st, l->nstages, near, sizeof near);
			free(st);
			strfmt(msg, sizeof msg, "no stage '%s' in %s%s", it->stage, l->id, near);
		} else if (!l->stages[s].exercise) {
			strfmt(msg, sizeof msg, "%s/%s: that stage has no exercise (cudaclimb exercises %s lists its exercises)", it->lesson, it->stage, l->id);
		} else {
			continue;
		}
		yd_errors_add(all, c->path, (size_t)it->at.line, (size_t)it->at.col, msg);
	}
	free(names);
	for (int i = 0; i < all->n; i++) clean_message(all->v[i].text);
	return all->n + all->dropped - before;
}

const course_item *course_find(const course *c, const char *lid, const char *sid)
{
	for (int i = 0; c && i < c->nitems; i++)
		if (!strcmp(c->items[i].lesson, lid) && !strcmp(c->items[i].stage, sid)) return &c->items[i];
	return NULL;
}

int course_shows(const course *c, const char *lid)
{
	if (!c) return 1;
	for (int i = 0; i < c->nlessons; i++) if (!strcmp(c->lessons[i], lid)) return 1;
	if (c->nlessons) return 0;
	for (int i = 0; i < c->nitems; i++) if (!strcmp(c->items[i].lesson, lid)) return 1;
	return 0;
}
