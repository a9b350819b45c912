/* gpulock: a fair queue per GPU, so that timed runs of different processes and users never overlap
 * and are served in the order they asked.
 *
 * The queue is a folder, $CUDACLIMB_LOCK_DIR (or /tmp)/cudaclimb-gpu-UUID.q, world-writable with the
 * sticky bit (as /tmp is): anyone may add a ticket, nobody may remove or change another's. A ticket
 * is a file "t-UID-PID-RANDOM", made by its owner under a private name (O_EXCL, no symlinks), locked,
 * written and only then renamed into place; its owner holds an exclusive flock on it for as long as
 * it waits and runs: a ticket whose lock can be taken belongs to a
 * process that died, and is passed over. Tickets are served by their inode change time, which no
 * user can set back, then by name; a ticket whose owner's uid is not the one in its name is a fake
 * and passed over. The ticket is written once, before it is placed ("user pid expected-seconds",
 * for the message others see while they wait): a later write would move its change time. Its owner marks
 * the start of its run with a second file, "s-" and the ticket's name, whose change time is when the
 * run began. A run that holds the GPU longer than the cap ($CUDACLIMB_QUEUE_CAP, default 120 s) is
 * passed over, and so is a ticket at the head of the line that has not started within 30 s of a
 * waiter first seeing it there: the watchdog ends any real run long before either.
 * With $CUDACLIMB_QUEUE_TRACE set to a file, each release appends one line to it (O_APPEND, one
 * write): "run ASK_NS START_NS END_NS PID UID", when the ticket was placed (its change time, the queue's order), when the GPU was
 * got and when it was given back (CLOCK_REALTIME), for a lab's record and scripts/class-bench.sh. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "gpu.h"
#include "util.h"

static int ticket_fd = -1;
static char ticket_path[640], start_path[640];
static char head_name[96];          /* the head of the line as this process last saw it, and since when */
static long long ask_ns, got_ns;    /* for the trace: when this ticket was asked for, and served */
static double head_since;
#define HEAD_GRACE 30.0

typedef struct {
	char name[96], user[64];
	struct timespec ctime;
	double expect, started;   /* seconds; started: when it got the GPU (epoch), 0 while waiting */
	int mine;
} ticket;

static double now_epoch(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static double cap_seconds(void)
{
	const char *c = getenv("CUDACLIMB_QUEUE_CAP");
	double v = c && *c ? atof(c) : 0;
	return v > 0 ? v : 120;
}

/* The queue folder, made if missing; -1 with why when it exists but is not safe to use. */
static int queue_dir(const char *uuid, char *dir, size_t n, char *why, size_t wn)
{
	const char *base = getenv("CUDACLIMB_LOCK_DIR");
	strfmt(dir, n, "%s/cudaclimb-gpu-%s.q", base && *base ? base : "/tmp", uuid);
	mode_t old = umask(0);
	int r = mkdir(dir, 01777);
	umask(old);
	if (r != 0 && errno != EEXIST) { strfmt(why, wn, "cannot create %s: %s", dir, strerror(errno)); return -1; }
	struct stat st;
	if (lstat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) { strfmt(why, wn, "%s is not a folder", dir); return -1; }
	if ((st.st_mode & 0002) && !(st.st_mode & S_ISVTX)) {
		strfmt(why, wn, "%s is writable by everyone without the sticky bit: anyone could remove others' tickets", dir);
		return -1;
	}
	return 0;
}

static int cmp_ticket(const void *a, const void *b)
{
	const ticket *x = a, *y = b;
	if (x->ctime.tv_sec != y->ctime.tv_sec) return x->ctime.tv_sec < y->ctime.tv_sec ? -1 : 1;
	if (x->ctime.tv_nsec != y->ctime.tv_nsec) return x->ctime.tv_nsec < y->ctime.tv_nsec ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* The live, genuine tickets of the queue in serving order (a new array in *out); stale tickets of
 * this user are removed on the way. Returns the count, or -1. */
static int read_queue(const char *dir, ticket **out)
{
	DIR *d = opendir(dir);
	*out = NULL;
	if (!d) return -1;
	int n = 0;
	uid_t me = getuid();
	double cap = cap_seconds(), now = now_epoch();
	for (struct dirent *e; (e = readdir(d));) {
		unsigned long uid;
		if (strncmp(e->d_name, "t-", 2) || sscanf(e->d_name, "t-%lu-", &uid) != 1) continue;
		char path[1024];
		strfmt(path, sizeof path, "%s/%s", dir, e->d_name);
		int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0) continue;
		struct stat st;
		int ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == (uid_t)uid;
		if (ok && flock(fd, LOCK_SH | LOCK_NB) == 0) {           /* nobody holds it: its process is gone */
			ok = 0;
			if (st.st_uid == me) {
				char mark[1100];
				strfmt(mark, sizeof mark, "%s/s-%s", dir, e->d_name);
				unlink(mark);
				unlink(path);
			}
		}
		ticket t;
		memset(&t, 0, sizeof t);
		char buf[256];
		ssize_t k = ok ? pread(fd, buf, sizeof buf - 1, 0) : -1;
		close(fd);
		if (!ok) continue;
		buf[k > 0 ? k : 0] = 0;
		long pid = 0;
		if (sscanf(buf, "%63s %ld %lf", t.user, &pid, &t.expect) < 1) strfmt(t.user, sizeof t.user, "uid %lu", uid);
		char mark[1100];
		struct stat ms;
		strfmt(mark, sizeof mark, "%s/s-%s", dir, e->d_name);
		if (lstat(mark, &ms) == 0 && S_ISREG(ms.st_mode) && ms.st_uid == (uid_t)uid)
			t.started = (double)ms.st_ctim.tv_sec + ms.st_ctim.tv_nsec / 1e9;
		if (t.started > 0 && now - t.started > cap) continue;    /* over the cap: passed over */
		strfmt(t.name, sizeof t.name, "%s", e->d_name);
		t.ctime = st.st_ctim;
		t.mine = !strcmp(path, ticket_path);
		*out = xrealloc(*out, (size_t)(n + 1) * sizeof **out);
		(*out)[n++] = t;
	}
	closedir(d);
	if (n > 1) qsort(*out, (size_t)n, sizeof **out, cmp_ticket);
	/* A head that never starts (a program that queued and stopped there) blocks nobody for long. */
	if (n > 1 && !(*out)[0].mine && (*out)[0].started == 0) {
		if (strcmp(head_name, (*out)[0].name)) { strfmt(head_name, sizeof head_name, "%s", (*out)[0].name); head_since = now; }
		else if (now - head_since > HEAD_GRACE) { memmove(*out, *out + 1, (size_t)(n - 1) * sizeof **out); n--; }
	}
	return n;
}


/* "3rd in line, behind alice (running for 4 s) and bob; about 9 s" */
static void describe(const ticket *q, int pos, char *out, size_t n)
{
	double now = now_epoch(), eta = 0;
	sb b = {0};
	sb_addf(&b, "waiting for the GPU: %d%s in line, behind ", pos + 1, pos == 0 ? "st" : pos == 1 ? "nd" : pos == 2 ? "rd" : "th");
	for (int i = 0; i < pos; i++) {
		if (i == 0 && q[i].started > 0) {
			sb_addf(&b, "%s (running for %.0f s)", q[i].user, now - q[i].started);
			eta += q[i].expect > now - q[i].started ? q[i].expect - (now - q[i].started) : 0.5;
		} else {
			sb_addf(&b, "%s%s", i ? (i == pos - 1 ? " and " : ", ") : "", q[i].user);
			eta += q[i].expect;
		}
		if (i == 3 && pos > 5) { sb_addf(&b, " and %d more", pos - 4); for (int k = 4; k < pos; k++) eta += q[k].expect; break; }
	}
	sb_addf(&b, "; about %.0f s", eta < 1 ? 1 : eta);
	strfmt(out, n, "%s", b.s);
	sb_free(&b);
}

static long long epoch_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* One line to $CUDACLIMB_QUEUE_TRACE, if set: this ticket's ask, start and end. */
static void trace_release(void)
{
	const char *f = getenv("CUDACLIMB_QUEUE_TRACE");
	if (!f || !*f) return;
	char line[160];
	int n = snprintf(line, sizeof line, "run %lld %lld %lld %ld %lu\n", ask_ns, got_ns, epoch_ns(), (long)getpid(),
	                 (unsigned long)getuid());
	int fd = open(f, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) return;
	if (write(fd, line, (size_t)n) != n) {}
	close(fd);
}

int gpulock_acquire(const char *uuid, double expect_s, void (*note)(void *ctx, const char *text), void *ctx)
{
	char dir[512], why[600];
	gpulock_release();
	ask_ns = epoch_ns();
	if (queue_dir(uuid, dir, sizeof dir, why, sizeof why)) {
		if (note) note(ctx, why);
		return -1;
	}
	uint64_t r = 0;
	if (getrandom(&r, sizeof r, 0) != sizeof r) r = (uint64_t)now_ms() ^ (uint64_t)getpid() << 32;
	char draft[640];
	strfmt(draft, sizeof draft, "%s/n-%lu-%ld-%016llx", dir, (unsigned long)getuid(), (long)getpid(), (unsigned long long)r);
	strfmt(ticket_path, sizeof ticket_path, "%s/t-%lu-%ld-%016llx", dir, (unsigned long)getuid(), (long)getpid(), (unsigned long long)r);
	struct passwd *pw = getpwuid(getuid());
	char line[160];
	char who[64];
	if (pw) strfmt(who, sizeof who, "%s", pw->pw_name);
	else strfmt(who, sizeof who, "uid-%lu", (unsigned long)getuid());
	strfmt(line, sizeof line, "%s %ld %.1f\n", who, (long)getpid(), expect_s);
	/* Made under a private name, locked, readable by all (whatever the umask) and written; then placed:
	 * a ticket others can see is always one whose owner holds its lock. */
	ticket_fd = open(draft, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (ticket_fd < 0 || flock(ticket_fd, LOCK_EX) != 0 || fchmod(ticket_fd, 0644) != 0 ||
	    write(ticket_fd, line, strlen(line)) != (ssize_t)strlen(line) || rename(draft, ticket_path) != 0) {
		if (note) { strfmt(why, sizeof why, "cannot queue for the GPU in %s: %s", dir, strerror(errno)); note(ctx, why); }
		if (ticket_fd >= 0) { close(ticket_fd); unlink(draft); }
		ticket_fd = -1;
		ticket_path[0] = 0;
		return -1;
	}
	struct stat tst;                     /* the queue's order is the placed ticket's change time */
	if (stat(ticket_path, &tst) == 0) ask_ns = tst.st_ctim.tv_sec * 1000000000LL + tst.st_ctim.tv_nsec;
	head_name[0] = 0;
	int in = inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
	if (in >= 0) inotify_add_watch(in, dir, IN_DELETE | IN_CLOSE_WRITE | IN_CREATE | IN_ATTRIB);
	char last[600] = "";
	for (;;) {
		ticket *q;
		int n = read_queue(dir, &q), pos = 0;
		while (pos < n && !q[pos].mine) pos++;
		if (pos == n) pos = 0;   /* our own ticket is always live; unreadable: go ahead */
		if (pos == 0) { free(q); break; }
		char msg[600];
		describe(q, pos, msg, sizeof msg);
		free(q);
		/* Say it when the line changes (who is ahead), not as the times shown move. */
		size_t key = strcspn(msg, "(;");
		if (note && (strlen(last) < key || strncmp(msg, last, key))) note(ctx, msg);
		strfmt(last, sizeof last, "%s", msg);
		struct pollfd pf = { .fd = in, .events = POLLIN };
		poll(&pf, in >= 0 ? 1 : 0, 200);    /* a process that died leaves its ticket: look again soon */
		char buf[4096];
		while (in >= 0 && read(in, buf, sizeof buf) > 0) {}
	}
	if (in >= 0) close(in);
	strfmt(start_path, sizeof start_path, "%s/s-%s", dir, strrchr(ticket_path, '/') + 1);
	int m = open(start_path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (m >= 0) { if (fchmod(m, 0644)) {} close(m); }
	got_ns = epoch_ns();
	return 0;
}

void gpulock_release(void)
{
	if (ticket_fd < 0) return;
	trace_release();
	if (start_path[0]) unlink(start_path);
	start_path[0] = 0;
	unlink(ticket_path);
	close(ticket_fd);                    /* releases the flock */
	ticket_fd = -1;
	ticket_path[0] = 0;
}

int gpulock_queue_length(const char *uuid)
{
	char dir[512];
	const char *base = getenv("CUDACLIMB_LOCK_DIR");
	strfmt(dir, sizeof dir, "%s/cudaclimb-gpu-%s.q", base && *base ? base : "/tmp", uuid);
	struct stat st;
	if (lstat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) return 0;     /* nobody has queued there yet */
	ticket *q;
	int n = read_queue(dir, &q);
	free(q);
	return n > 0 ? n : 0;
}

int gpulock_pick(const char *const *uuids, int n, int *lengths)
{
	int best = 0;
	for (int i = 0; i < n; i++) {
		int len = gpulock_queue_length(uuids[i]);
		if (lengths) lengths[i] = len;
		if (i > 0 && len < (lengths ? lengths[best] : gpulock_queue_length(uuids[best]))) best = i;
	}
	return best;
}

const char *gpulock_ticket(void) { return ticket_fd >= 0 ? ticket_path : NULL; }
