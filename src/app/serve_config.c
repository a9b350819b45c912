/* serve_config: the lab service's configuration (serve.h), read through yamldoc as a lesson is, so
 * its errors read "file:line:col: message". An example with every key: assets/cudaclimb-serve.yaml. */
#include <stdlib.h>
#include <string.h>
#include "serve.h"
#include "util.h"
#include "yamldoc.h"

static int abs_path(yd *c, yaml_node_t *map, const char *key, char **out)
{
	if (yd_get_str(c, map, key, out)) return -1;
	if (*out && (*out)[0] != '/') return yd_fail(c, yd_get(c, map, key), "%s must be an absolute path, not '%s'", key, *out);
	return 0;
}

static int number(yd *c, yaml_node_t *map, const char *key, int64_t lo, int64_t hi, int64_t *out)
{
	yaml_node_t *n = yd_get(c, map, key);
	return n ? yd_int(c, n, key, lo, hi, out) : 0;
}

static int parse_limits(yd *c, yaml_node_t *ln, serve_config *s)
{
	static const char *const keys[] = { "memory_mb", "cpu_s", "file_mb", "files", "wall_s", "compile_s", NULL };
	int64_t wall = (int64_t)s->judge_s;
	if (yd_check_keys(c, ln, "judge", keys) || number(c, ln, "memory_mb", 256, 1 << 20, &s->judge_mb) ||
	    number(c, ln, "cpu_s", 10, 86400, &s->judge_cpu_s) || number(c, ln, "file_mb", 1, 1 << 20, &s->judge_file_mb) ||
	    number(c, ln, "files", 64, 65536, &s->judge_files) || number(c, ln, "wall_s", 10, 86400, &wall) ||
	    number(c, ln, "compile_s", 5, 86400, &s->judge_compile_s)) return -1;
	s->judge_s = (double)wall;
	return 0;
}

/* courses: a list of course folders; each one's course.yaml must name this service's socket. */
static int parse_courses(yd *c, yaml_node_t *cn, serve_config *s, char *err, size_t errlen)
{
	if (cn->type != YAML_SEQUENCE_NODE) return yd_fail(c, cn, "courses is a list of course folders");
	for (int i = 0; i < yd_seq_len(cn); i++) {
		yaml_node_t *n = yd_seq_at(c, cn, i);
		const char *dir = yd_scalar(c, n, "a course folder");
		if (!dir) return -1;
		if (dir[0] != '/') return yd_fail(c, n, "a course folder is an absolute path, not '%s'", dir);
		char why[1024];
		course *co = course_load(dir, why, sizeof why);
		if (!co) return yd_fail(c, n, "the course in %s: %s", dir, why);
		if (!co->service_socket || strcmp(co->service_socket, s->socket)) {
			int r = yd_fail(c, n, "%s names %s%s as its service; this service's socket is %s (set service: { socket: %s, store: ... })",
			                co->path, co->service_socket ? "" : "no socket", co->service_socket ? co->service_socket : "", s->socket, s->socket);
			course_free(co);
			return r;
		}
		for (int k = 0; k < s->ncourses; k++)
			if (!strcmp(s->courses[k]->id, co->id)) {
				course_free(co);
				return yd_fail(c, n, "two courses have the id '%s'", s->courses[k]->id);
			}
		s->courses = xrealloc(s->courses, (size_t)(s->ncourses + 1) * sizeof *s->courses);
		s->courses[s->ncourses++] = co;
	}
	(void)err; (void)errlen;
	return 0;
}

static int parse(yd *c, yaml_node_t *root, serve_config *s, char *err, size_t errlen)
{
	static const char *const keys[] = { "!socket", "!state", "!courses", "trace", "lessons", "cap", "cooldown", "judges", "judge", "per_user", NULL };
	if (!root || root->type != YAML_MAPPING_NODE) return yd_fail_at(c, root ? root->start_mark : (yaml_mark_t){0, 0, 0}, "the service's configuration is a mapping: socket, state, courses, ...");
	if (yd_check_keys(c, root, "the service's configuration", keys) || abs_path(c, root, "socket", &s->socket) ||
	    abs_path(c, root, "state", &s->state) || abs_path(c, root, "trace", &s->trace) || abs_path(c, root, "lessons", &s->lessons)) return -1;
	if (strlen(s->socket) >= 100) return yd_fail(c, yd_get(c, root, "socket"), "socket: a path of under 100 bytes");
	int64_t judges = s->judges, per_user = s->per_user;
	yaml_node_t *cap = yd_get(c, root, "cap"), *cool = yd_get(c, root, "cooldown"), *jn = yd_get(c, root, "judge");
	if ((cap && yd_double(c, cap, "cap", 1, 86400, &s->cap)) || (cool && yd_double(c, cool, "cooldown", 0, 1000, &s->cooldown)) || number(c, root, "judges", 1, 64, &judges) ||
	    number(c, root, "per_user", 2, 4096, &per_user) || (jn && parse_limits(c, jn, s))) return -1;
	s->judges = (int)judges;
	s->per_user = (int)per_user;
	return parse_courses(c, yd_get(c, root, "courses"), s, err, errlen);
}

int serve_config_load(serve_config *s, const char *path, char *err, size_t errlen)
{
	memset(s, 0, sizeof *s);
	s->cap = 120;
	s->cooldown = 10;
	s->judges = 1;
	s->judge_mb = 4096;
	s->judge_cpu_s = 900;
	s->judge_file_mb = 256;
	s->judge_files = 1024;
	s->judge_s = 900;
	s->judge_compile_s = 30;   /* the exercises' kernels compile in 1-3 s; a hostile few KiB of macros, minutes */
	s->per_user = 64;
	size_t len;
	char *buf = file_read_max(path, 1 << 20, 0, &len);
	if (!buf) { strfmt(err, errlen, "%s:1:1: cannot read the service's configuration", path); return -1; }
	yd c = { .file = path, .err = err, .errlen = errlen };
	int bad = yd_load(&c, buf, len) || parse(&c, yd_root(&c), s, err, errlen);
	yd_done(&c);
	free(buf);
	if (bad) serve_config_free(s);
	return bad ? -1 : 0;
}

void serve_config_free(serve_config *s)
{
	free(s->socket); free(s->state); free(s->trace); free(s->lessons);
	for (int i = 0; i < s->ncourses; i++) course_free(s->courses[i]);
	free(s->courses);
	memset(s, 0, sizeof *s);
}

course *serve_config_course(const serve_config *s, const char *id)
{
	for (int i = 0; i < s->ncourses; i++) if (!strcmp(s->courses[i]->id, id)) return s->courses[i];
	return NULL;
}
