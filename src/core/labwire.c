/* labwire: see labwire.h. */
#include "labwire.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>
#include "util.h"

#define ADVICE_DOWN "ask the instructor to start the lab service (sudo systemctl enable --now cudaclimb), or leave the course"


const char *labwire_service(void)
{
	const char *s = getenv("CUDACLIMB_SERVICE");
	return s && *s ? s : NULL;
}

int labwire_connect(const char *path, char *why, size_t wn)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	if (strlen(path) >= sizeof a.sun_path || path[0] != '/') {
		strfmt(why, wn, "the lab service's socket must be an absolute path under %zu bytes: %s", sizeof a.sun_path, path);
		return -1;
	}
	char dir[sizeof a.sun_path];
	strfmt(dir, sizeof dir, "%s", path);
	char *slash = strrchr(dir, '/');
	if (slash == dir) slash[1] = 0; else *slash = 0;
	struct stat ds, ss;
	if (lstat(dir, &ds) != 0) { strfmt(why, wn, "the lab service's folder %s: %s; " ADVICE_DOWN, dir, strerror(errno)); return -1; }
	if (!S_ISDIR(ds.st_mode) || (ds.st_mode & 0022)) {
		strfmt(why, wn, "the lab service's folder %s is %s: anyone could stand in for the service; ask the instructor to fix it "
		       "(it must be a folder only root or the service may write)", dir, S_ISDIR(ds.st_mode) ? "writable by others" : "not a folder");
		return -1;
	}
	if (lstat(path, &ss) != 0) { strfmt(why, wn, "the lab service is not running (no socket at %s); " ADVICE_DOWN, path); errno = ENOENT; return -1; }
	if (!S_ISSOCK(ss.st_mode)) { strfmt(why, wn, "%s is not the lab service's socket; ask the instructor", path); return -1; }
	if (ds.st_uid != 0 && ds.st_uid != ss.st_uid) {
		strfmt(why, wn, "the lab service's folder %s is not root's nor the service's; ask the instructor", dir);
		return -1;
	}
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) { strfmt(why, wn, "socket: %s", strerror(errno)); return -1; }
	memcpy(a.sun_path, path, strlen(path) + 1);
	if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
		int e = errno;
		close(fd);
		strfmt(why, wn, "cannot reach the lab service at %s: %s; " ADVICE_DOWN, path, strerror(e));
		errno = e;
		return -1;
	}
	struct ucred cr;
	socklen_t cl = sizeof cr;
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &cl) != 0 || cr.uid != ss.st_uid) {
		close(fd);
		strfmt(why, wn, "the process at %s is not of the socket's owner: not the lab service; ask the instructor", path);
		return -1;
	}
	return fd;
}

int labwire_connect_wait(const char *path, double wait_s, char *why, size_t wn)
{
	long long until = (long long)now_ms() + (long long)(wait_s * 1000);
	for (;;) {
		errno = 0;
		int fd = labwire_connect(path, why, wn);
		/* only "nobody answers" is worth waiting for: no socket yet, or nobody listening on it */
		if (fd >= 0 || (errno != ECONNREFUSED && errno != ENOENT) || (long long)now_ms() >= until) return fd;
		struct timespec w = { 0, 250000000L };
		nanosleep(&w, NULL);
	}
}

int labwire_send(int fd, const void *buf, size_t n, int timeout_ms)
{
	const char *p = buf;
	long long end = (long long)now_ms() + timeout_ms;
	while (n > 0) {
		ssize_t w = send(fd, p, n, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (w > 0) { p += w; n -= (size_t)w; continue; }
		if (w < 0 && errno == EINTR) continue;
		if (w < 0 && errno != EAGAIN && errno != EWOULDBLOCK) return -1;
		long long left = end - (long long)now_ms();
		if (left <= 0) { errno = ETIMEDOUT; return -1; }
		struct pollfd pf = { .fd = fd, .events = POLLOUT };
		poll(&pf, 1, (int)(left > 1000 ? 1000 : left));
	}
	return 0;
}

int labwire_read_line(labwire_reader *r, char *out, size_t n, int timeout_ms)
{
	long long end = timeout_ms < 0 ? 0 : (long long)now_ms() + timeout_ms;
	for (;;) {
		char *nl = memchr(r->buf, '\n', r->len);
		if (nl) {
			size_t k = (size_t)(nl - r->buf);
			if (k + 1 > n || k + 1 > LABWIRE_LINE_MAX) { errno = EMSGSIZE; return -1; }
			memcpy(out, r->buf, k);
			out[k] = 0;
			memmove(r->buf, nl + 1, r->len - k - 1);
			r->len -= k + 1;
			return 1;
		}
		if (r->len >= LABWIRE_LINE_MAX) { errno = EMSGSIZE; return -1; }
		int wait = 1000;
		long long left = 0;
		if (timeout_ms >= 0) {
			left = end - (long long)now_ms();
			wait = left <= 0 ? 0 : (int)(left > 1000 ? 1000 : left);
		}
		struct pollfd pf = { .fd = r->fd, .events = POLLIN };
		int pr = poll(&pf, 1, wait);
		if (pr < 0 && errno != EINTR) return -1;
		if (pr == 0 && timeout_ms >= 0 && left <= 0) { errno = ETIMEDOUT; return -1; }
		if (pr <= 0) continue;
		ssize_t k = recv(r->fd, r->buf + r->len, sizeof r->buf - r->len, MSG_DONTWAIT);
		if (k == 0) return 0;
		if (k < 0) { if (errno == EINTR || errno == EAGAIN) continue; return -1; }
		r->len += (size_t)k;
	}
}

int labwire_name_ok(const char *name)
{
	size_t n = strlen(name);
	if (n == 0 || n > LABWIRE_NAME_MAX) return 0;
	int parts = 1;
	for (const char *p = name; *p; p++) {
		char c = *p;
		if (c == '/') { parts++; continue; }
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-')) return 0;
	}
	if (parts > 3) return 0;
	/* each part: not empty, not starting with '.' (no ".", "..", no hidden files) */
	for (const char *p = name; ; ) {
		const char *e = strchr(p, '/');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		if (len == 0 || p[0] == '.') return 0;
		if (!e) break;
		p = e + 1;
	}
	return 1;
}
