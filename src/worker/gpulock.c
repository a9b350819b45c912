/* gpulock: a fair queue per GPU, so that timed runs of different processes and users never overlap
 * and are served in the order they asked.
 *
 * The queue is a folder, $CUDACLIMB_LOCK_DIR (or /tmp)/cudaclimb-gpu-UUID.q, world-writable with the
 * sticky bit (as /tmp is): anyone may add a ticket, nobody may remove or change another's. The folder
 * (and the one it is in) must belong to root or to this user: a folder that another user owns lets
 * that user delete tickets, so a run refuses it with what to do (`sudo cudaclimb queue init` makes
 * root's folders for every GPU; gpulock_init) and never runs unqueued. A ticket
 * is a file "t-UID-PID-RANDOM" (RANDOM: 16 hex digits; any other name is junk, counted and never
 * opened, so a flood of names costs no system call each and hides no ticket), made by its owner under a
 * private name (O_EXCL, no symlinks), locked, written and only then renamed into place; its owner holds
 * an exclusive flock on it for as long as it waits and runs: a ticket whose lock can be taken belongs
 * to a process that died, and is passed over. Every entry of the folder is looked at; a waiter reads
 * only the tickets older than its own (a younger one waits for it), and at most GPULOCK_PER_OWNER live
 * tickets of another owner (its others are skipped by name, with no system call: each listing, the
 * passing over and the "h-" marks below stay bounded however many locked files one account holds;
 * only that owner's own tickets can count towards its cap; the waiter still sees a live ticket of that
 * owner ahead of it whenever there is one). A waiter whose own account has GPULOCK_PER_OWNER live
 * tickets older than its own is not in line (others may not see its ticket), and queues again once
 * there are fewer, behind whoever went ahead meanwhile. What a waiter learnt of a name (another's
 * file, a younger ticket, a dead one) is kept while inotify says nothing of the name, so a flood of
 * files costs a waiter a few system calls a file once, then a readdir a listing (below, "what a waiter
 * knows"); it wakes only for the events of the tickets ahead of it, and lists for a third of its time
 * at most. A waiter that does not find its own ticket in the
 * listing looks for it directly, and when it is gone places a new one: it never runs unqueued. Tickets are served by their inode change time, which no
 * user can set back, then by name; a ticket whose owner's uid is not the one in its name is a fake
 * and passed over. The ticket is written once, before it is placed ("user pid expected-seconds",
 * for the estimates others see while they wait; the name shown is the ticket owner's account, never
 * the ticket's text): a later write would move its change time. Its owner marks
 * the start of its run with a second file, "s-" and the ticket's name, made by the owner (mode 0600,
 * "waiting") before the ticket is placed, so that nobody can take the name first, and opened to
 * 0644 when the run starts (its change time: the start); a mark counts only when the ticket's owner
 * owns it.
 *
 * The cap. A run that holds the GPU longer than the cap ($CUDACLIMB_QUEUE_CAP, default 120 s) is
 * passed over, and so is a ticket at the head of the line that has not started within 30 s: the
 * watchdog ends any real run long before either. The hold is measured from evidence the holder
 * cannot forge: when this waiter first saw the ticket at the head of the line, on this process's own
 * CLOCK_MONOTONIC (kept per ticket name, for as long as the ticket lives), and how long tickets of
 * the same owner have been at the head without a break while this waiter watched (so one user's many
 * tickets do not get a cap each). So that each new process of the same user does not wait a whole cap
 * again, the first sighting is also kept in the folder as "h-UID-" and the ticket's name, a file of
 * the waiter's own user (only that user can make or change it) holding the time it was first seen;
 * when another user has taken that name first, the mark is "h-UID-" the ticket's name "." and a random
 * suffix, found by listing (only this user's own files count); the waiters of that user remove their
 * marks when the ticket is gone. The start mark's change time counts
 * only to make a hold longer (its owner can move it later, never earlier). A passed-over ticket stays passed over for this
 * process; the waiter says so ("alice's run has held the GPU for 121 s, past the cap of 120 s: passed
 * over"), and a cudaclimb that held the GPU past the cap is told when it gives it back.
 *
 * With $CUDACLIMB_QUEUE_TRACE set to a file, each release appends one line to it (O_APPEND, one
 * write): "run ASK_NS START_NS END_NS PID UID UUID", when the ticket was placed (its change time, the
 * queue's order), when the GPU was got and when it was given back (CLOCK_REALTIME), and which GPU,
 * for a lab's record and scripts/class-bench.sh. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <sys/vfs.h>
#include <linux/magic.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "gpu.h"
#include "util.h"

static int ticket_fd = -1;
static char ticket_path[640], start_path[640], ticket_uuid[64];
static long long ask_ns, got_ns;    /* for the trace: when this ticket was asked for, and served */
static double got_mono;             /* when this process got the GPU, on its own clock */
static void (*hold_note)(void *ctx, const char *text);
static void *hold_ctx;
#define HEAD_GRACE 30.0
#define GPULOCK_PER_OWNER 64        /* live tickets of one owner a listing reads: more than any user's runs */
#define MAX_MARKS 4096              /* this user's own h- marks kept from one listing */
#define ADVICE "ask an administrator to run `sudo cudaclimb queue init`, or set CUDACLIMB_LOCK_DIR to a folder of your own"

typedef struct {
	char name[96], user[64];
	struct timespec ctime;
	unsigned long uid;
	double expect, started;   /* seconds; started: the start mark's change time (epoch), 0 while waiting */
	double held;              /* the head: how long it has held the line, by this waiter's evidence */
	int mine;
} ticket;

/* What this process saw of other tickets, by name: since when each was at the head of the line (its
 * own clock), and whether it was passed over. Entries go when their ticket is gone. */
typedef struct {
	char name[96];
	double first_head;
	int passed, present;
} sighting;
static sighting *seen;
static int nseen;
static char (*own_marks)[112];      /* this user's h- marks under a suffixed name (the ticket's name "." hex), last listing */
static int nown;
static unsigned long streak_uid;    /* the owner at the head, and since when without a break (this wait) */
static double streak_since;
static int streak_on;

static double now_epoch(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static double now_mono(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static double cap_seconds(void)
{
	const char *c = getenv("CUDACLIMB_QUEUE_CAP");
	double v = c && *c ? atof(c) : 0;
	return v > 0 && v < 1e6 ? v : 120;
}

/* src into dst (n bytes) with control characters (C0, DEL, C1 as UTF-8) as '?': names and texts
 * that another user could choose never drive a terminal. */
static void clean(char *dst, size_t n, const char *src)
{
	size_t k = 0;
	for (const unsigned char *p = (const unsigned char *)src; *p && k + 1 < n; p++) {
		if (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f) { dst[k++] = '?'; p++; continue; }
		dst[k++] = *p < 0x20 || *p == 0x7f ? '?' : (char)*p;
	}
	dst[k] = 0;
}

/* The account name of uid, cleaned ("uid 2002" when it has none). */
static void user_name(unsigned long uid, char *out, size_t n)
{
	struct passwd *pw = getpwuid((uid_t)uid);
	if (pw && pw->pw_name && *pw->pw_name) clean(out, n, pw->pw_name);
	else strfmt(out, n, "uid %lu", uid);
}

static void base_dir(char *out, size_t n)
{
	const char *base = getenv("CUDACLIMB_LOCK_DIR");
	strfmt(out, n, "%s", base && *base ? base : "/tmp");
}

static void queue_path(const char *uuid, char *dir, size_t n)
{
	char base[512];
	base_dir(base, sizeof base);
	strfmt(dir, n, "%s/cudaclimb-gpu-%s.q", base, uuid);
}

/* Whether st (of path, what: "GPU queue folder") is safe to queue in: a real folder of root or this
 * user, sticky when others may write to it. 0, or -1 with why (and what to do). */
static int safe_folder(const char *path, const char *what, const struct stat *st, char *why, size_t wn)
{
	char p[600];
	clean(p, sizeof p, path);
	if (S_ISLNK(st->st_mode)) { strfmt(why, wn, "the %s %s is a symbolic link, not a folder; " ADVICE, what, p); return -1; }
	if (!S_ISDIR(st->st_mode)) { strfmt(why, wn, "the %s %s is not a folder; " ADVICE, what, p); return -1; }
	if (st->st_uid != 0 && st->st_uid != getuid()) {
		char who[64], named[100];
		user_name(st->st_uid, who, sizeof who);
		if (strncmp(who, "uid ", 4)) strfmt(named, sizeof named, "%s (uid %lu)", who, (unsigned long)st->st_uid);
		else strfmt(named, sizeof named, "%s", who);
		strfmt(why, wn, "the %s %s belongs to %s, so %s could delete your ticket and run at the same time as you; "
		       ADVICE, what, p, named, who);
		return -1;
	}
	if ((st->st_mode & 0022) && !(st->st_mode & S_ISVTX)) {
		strfmt(why, wn, "the %s %s is writable by others without the sticky bit: anyone could remove others' tickets; " ADVICE,
		       what, p);
		return -1;
	}
	return 0;
}

/* The queue folder, made if missing (create); -1 with why when it, or the folder it is in, is not
 * safe to use. */
static int queue_dir(const char *uuid, int create, char *dir, size_t n, char *why, size_t wn)
{
	char base[512];
	base_dir(base, sizeof base);
	queue_path(uuid, dir, n);
	struct stat st;
	if (stat(base, &st) != 0) { strfmt(why, wn, "cannot use the GPU queue's folder %s: %s", base, strerror(errno)); return -1; }
	if (safe_folder(base, "folder of the GPU queues", &st, why, wn)) return -1;
	if (create) {
		mode_t old = umask(0);
		int r = mkdir(dir, 01777);
		umask(old);
		if (r != 0 && errno != EEXIST) { strfmt(why, wn, "cannot create the GPU queue folder %s: %s; " ADVICE, dir, strerror(errno)); return -1; }
	}
	if (lstat(dir, &st) != 0) { strfmt(why, wn, "cannot use the GPU queue folder %s: %s", dir, strerror(errno)); return -1; }
	return safe_folder(dir, "GPU queue folder", &st, why, wn);
}

/* Older first: by change time, then name (the queue's order). */
static int cmp_age(const struct timespec *a, const char *an, const struct timespec *b, const char *bn)
{
	if (a->tv_sec != b->tv_sec) return a->tv_sec < b->tv_sec ? -1 : 1;
	if (a->tv_nsec != b->tv_nsec) return a->tv_nsec < b->tv_nsec ? -1 : 1;
	return strcmp(an, bn);
}

static int cmp_ticket(const void *a, const void *b)
{
	const ticket *x = a, *y = b;
	return cmp_age(&x->ctime, x->name, &y->ctime, y->name);
}

static sighting *sighting_of(const char *name, int make)
{
	for (int i = 0; i < nseen; i++) if (!strcmp(seen[i].name, name)) return &seen[i];
	if (!make) return NULL;
	seen = xrealloc(seen, (size_t)(nseen + 1) * sizeof *seen);
	sighting *s = &seen[nseen++];
	memset(s, 0, sizeof *s);
	strfmt(s->name, sizeof s->name, "%s", name);
	s->present = 1;
	return s;
}

/* The uid of a ticket's name "t-UID-PID-RANDOM" (RANDOM: 16 lower-case hex digits); 0 when name is
 * not one (junk). */
static int ticket_name(const char *name, unsigned long *uid)
{
	const char *p = name + 2;
	char *end;
	if (strncmp(name, "t-", 2) || *p < '0' || *p > '9') return 0;
	*uid = strtoul(p, &end, 10);
	if (*end != '-' || end[1] < '0' || end[1] > '9') return 0;
	p = end + 1;
	while (*p >= '0' && *p <= '9') p++;
	if (*p != '-') return 0;
	p++;
	for (int i = 0; i < 16; i++, p++) if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f'))) return 0;
	return *p == 0 && p - name < 96;
}

/* t from the ticket fd (opened at name in dir, owned by uid): its text, its start mark. */
static void ticket_fill(const char *dir, const char *name, int fd, const struct stat *st, unsigned long uid, ticket *t)
{
	memset(t, 0, sizeof *t);
	char buf[256];
	ssize_t k = pread(fd, buf, sizeof buf - 1, 0);
	buf[k > 0 ? k : 0] = 0;
	long pid = 0;
	char ignored[64];
	if (sscanf(buf, "%63s %ld %lf", ignored, &pid, &t->expect) < 3 || !isfinite(t->expect) || t->expect < 0) t->expect = 1;
	if (t->expect > 600) t->expect = 600;
	t->uid = uid;
	char mark[1100];
	struct stat ms;
	strfmt(mark, sizeof mark, "%s/s-%s", dir, name);
	/* the owner's own mark, opened to others: started (made 0600 while waiting) */
	if (lstat(mark, &ms) == 0 && S_ISREG(ms.st_mode) && ms.st_uid == (uid_t)uid && (ms.st_mode & 0044))
		t->started = (double)ms.st_ctim.tv_sec + ms.st_ctim.tv_nsec / 1e9;
	strfmt(t->name, sizeof t->name, "%s", name);
	t->ctime = st->st_ctim;
}

/* ---- what a waiter knows of the folder's names ----
 * A waiter lists the folder each time it looks at the line; what it learnt of a name (its stat: owner,
 * type, change time; for a ticket whether it was dead) is kept while the listing shows the name on the
 * same inode and inotify has said nothing of it: every event names what changed (a name made, removed
 * or renamed, a file written or closed after writing, its mode or owner changed) and drops that name;
 * an overflow of the events drops them all. So a flood of files costs a listing one readdir, not
 * system calls a file. Only a waiter with a watch on a folder of a local file system keeps names
 * (another machine's changes to a network folder raise no event here). What was kept never puts a
 * ticket in the line (a ticket there is opened, checked and its lock tried each listing) but keeps
 * names out of it: another's file under a ticket's name, a ticket younger than ours, a dead one. A
 * name kept out so that an event names before the waiter goes ahead is looked at again, and when it
 * is a live ticket ahead of the waiter's, the waiter lists again without what was kept (events_read,
 * gpulock_acquire). */
typedef struct {
	uint64_t hash;               /* of the name (known_hash) */
	char *name;                  /* NULL: an empty slot */
	ino_t ino;
	uid_t uid;
	mode_t mode;
	struct timespec ctime;
	int dead;                    /* a ticket nobody held the lock of */
	unsigned used;               /* the listing (kn_listing) that passed this name over by what was kept */
} known;
static known *kn;                /* open addressing by name, linear probing; kn_cap a power of two */
static size_t kn_cap, kn_n;
static int kn_on;                /* names are kept: a waiter's watch is on the folder */
static unsigned kn_listing;      /* counts the listings */
#define KNOWN_MAX (1 << 18)      /* names kept at most (about 100 bytes each); past it, looked at each time */

static uint64_t known_hash(const char *name) { return fnv1a(FNV_OFFSET, name, strlen(name)); }

/* The slot of name (its hash h): its entry, or the empty slot where it would go. */
static size_t known_slot(const char *name, uint64_t h)
{
	size_t i = (size_t)h & (kn_cap - 1);
	while (kn[i].name && (kn[i].hash != h || strcmp(kn[i].name, name))) i = (i + 1) & (kn_cap - 1);
	return i;
}

static known *known_get(const char *name)
{
	if (!kn_n) return NULL;
	known *k = &kn[known_slot(name, known_hash(name))];
	return k->name ? k : NULL;
}

/* Forgets name (the entries after it in its run moved back, so every probe still finds its own). */
static void known_drop(const char *name)
{
	if (!kn_n) return;
	size_t i = known_slot(name, known_hash(name));
	if (!kn[i].name) return;
	free(kn[i].name);
	kn[i].name = NULL;
	kn_n--;
	for (size_t j = (i + 1) & (kn_cap - 1); kn[j].name; j = (j + 1) & (kn_cap - 1)) {
		size_t h = (size_t)kn[j].hash & (kn_cap - 1);
		if (((j - h) & (kn_cap - 1)) >= ((j - i) & (kn_cap - 1))) { kn[i] = kn[j]; kn[j].name = NULL; i = j; }
	}
}

static void known_clear(void)
{
	for (size_t i = 0; i < kn_cap; i++) free(kn[i].name);
	free(kn);
	kn = NULL;
	kn_cap = kn_n = 0;
}

/* Keeps st as name's, dead or not (when names are kept, and for a name not kept yet, while there is
 * room). */
static void known_put(const char *name, const struct stat *st, int dead)
{
	if (!kn_on) return;
	uint64_t h = known_hash(name);
	known *k = kn_n ? &kn[known_slot(name, h)] : NULL;
	if (!k || !k->name) {
		if (kn_n >= KNOWN_MAX) return;
		if (2 * (kn_n + 1) > kn_cap) {
			known *old = kn;
			size_t oldcap = kn_cap;
			kn_cap = kn_cap ? 2 * kn_cap : 1024;
			kn = xcalloc(kn_cap, sizeof *kn);
			for (size_t i = 0; i < oldcap; i++) if (old[i].name) kn[known_slot(old[i].name, old[i].hash)] = old[i];
			free(old);
		}
		k = &kn[known_slot(name, h)];
		k->name = xstrdup(name);
		kn_n++;
	}
	*k = (known){ h, k->name, st->st_ino, st->st_uid, st->st_mode, st->st_ctim, dead, 0 };
}

/* The owner, type, inode and change time of entry e of the open folder d: what was kept of its name
 * when the listing shows the same inode (*kept then set to it), else lstat's (then kept). -1 when it is
 * gone. */
static int entry_stat(DIR *d, const struct dirent *e, struct stat *st, known **kept)
{
	known *k = kn_on ? known_get(e->d_name) : NULL;
	*kept = NULL;
	if (k && k->ino == e->d_ino) {
		memset(st, 0, sizeof *st);
		st->st_ino = k->ino;
		st->st_uid = k->uid;
		st->st_mode = k->mode;
		st->st_ctim = k->ctime;
		*kept = k;
		return 0;
	}
	if (fstatat(dirfd(d), e->d_name, st, AT_SYMLINK_NOFOLLOW)) return -1;
	known_put(e->d_name, st, 0);
	return 0;
}

/* ---- the line ---- */

/* The live tickets one listing kept of an owner: only owners of a kept ticket are in the list, so it
 * is no longer than the accounts that hold one (names made up with other uids add nothing). */
typedef struct { unsigned long uid; int kept; } owner_count;

/* How many tickets of uid the listing kept so far. */
static int owner_kept(const owner_count *o, int n, unsigned long uid)
{
	for (int i = 0; i < n; i++) if (o[i].uid == uid) return o[i].kept;
	return 0;
}

/* One more ticket of uid kept. */
static void owner_add(owner_count **o, int *n, unsigned long uid)
{
	for (int i = 0; i < *n; i++) if ((*o)[i].uid == uid) { (*o)[i].kept++; return; }
	*o = xrealloc(*o, (size_t)(*n + 1) * sizeof **o);
	(*o)[(*n)++] = (owner_count){ uid, 1 };
}

/* One owner's tickets in a listing: how many genuine ticket files (its own, regular, live or not), and
 * the GPULOCK_PER_OWNER oldest of them (change time, then name), oldest first. Only owners of a genuine
 * ticket are listed, so the list is no longer than the accounts that made one (names made up with other
 * uids add nothing). */
typedef struct {
	unsigned long uid;
	int count, nbest;
	struct { char name[96]; struct timespec ctime; } best[GPULOCK_PER_OWNER];
} owner_line;

/* The owner_line of uid in o (n of them; *hint: the one last found), a new one when it is not there. */
static owner_line *owner_of(owner_line **o, int *n, int *hint, unsigned long uid)
{
	if (*hint < *n && (*o)[*hint].uid == uid) return &(*o)[*hint];
	for (int i = 0; i < *n; i++) if ((*o)[i].uid == uid) return &(*o)[*hint = i];
	*o = xrealloc(*o, (size_t)(*n + 1) * sizeof **o);
	owner_line *w = &(*o)[*hint = (*n)++];
	w->uid = uid;
	w->count = w->nbest = 0;
	return w;
}

/* One more genuine ticket of the owner w, named name, changed at ctime. */
static void owner_note(owner_line *w, const char *name, const struct timespec *ctime)
{
	w->count++;
	int at = w->nbest;
	while (at > 0 && cmp_age(ctime, name, &w->best[at - 1].ctime, w->best[at - 1].name) < 0) at--;
	if (at >= GPULOCK_PER_OWNER) return;
	if (w->nbest < GPULOCK_PER_OWNER) w->nbest++;
	memmove(&w->best[at + 1], &w->best[at], (size_t)(w->nbest - 1 - at) * sizeof w->best[0]);
	strfmt(w->best[at].name, sizeof w->best[at].name, "%s", name);
	w->best[at].ctime = *ctime;
}

static int mine_hidden;   /* the last listing left this process's ticket out: its account has too many older (read_queue) */

/* Whether st (a ticket named for uid) is a genuine ticket: a regular file of that uid. */
static int genuine(const struct stat *st, unsigned long uid) { return S_ISREG(st->st_mode) && st->st_uid == (uid_t)uid; }

/* The live, genuine tickets of the queue in serving order (a new array in *out). Every entry is
 * listed; a name that is not a ticket's costs nothing.
 *
 * Waiting (sweep: this process's ticket placed), only the tickets older than its own count: a younger
 * one waits for it. A ticket's name costs one open, fstat and lock test (a ticket nobody holds is a
 * dead process's and left out) the first time, and none while what was kept of it says it is another's
 * file under a ticket's name, younger than ours or dead: an honest ticket is locked before it is
 * placed and stays locked until it is removed, and its placing, its death (its owner's close) and its
 * removal each raise an event that drops what was kept. A live ticket is opened and its lock tried each
 * listing. At most GPULOCK_PER_OWNER live tickets of another owner are read (its others skipped by name,
 * with no system call): a waiter still sees one live ticket of an owner ahead of it whenever the owner
 * has one, so the cap never lets it go ahead of a live one. This user's own older tickets are each
 * read and its dead ones removed (a flood costs its owner); when this user has GPULOCK_PER_OWNER live
 * tickets older than ours, ours is left out of the line (mine_hidden): others may not see it, so it
 * must not run, and it queues again once there are fewer (gpulock_acquire). Our own ticket, missed by
 * the listing, is looked at directly. Also sweeps: forgets sightings of tickets that are gone, and
 * removes this user's h- marks of them.
 *
 * Not waiting (the status, the length a GPU is picked by: what it says, not who runs), each owner's
 * GPULOCK_PER_OWNER oldest genuine tickets (one lstat a name) are opened, and only they.
 *
 * Returns the count, or -1. */
static int read_queue(const char *dir, ticket **out, int sweep)
{
	DIR *d = opendir(dir);
	*out = NULL;
	mine_hidden = 0;
	if (!d) return -1;
	kn_listing++;
	int n = 0, nmarks = 0, cap = 0, seen_mine = 0, nowners = 0, nkept = 0, hint = 0, own_older = 0;
	owner_line *owners = NULL;             /* not waiting: each owner's oldest */
	owner_count *kept = NULL;              /* waiting: the live tickets kept of each owner */
	uid_t me = getuid();
	struct stat ms;
	const char *mine = sweep && ticket_fd >= 0 && fstat(ticket_fd, &ms) == 0 ? strrchr(ticket_path, '/') + 1 : NULL;
	char hpre[40], (*marks)[112] = NULL;
	strfmt(hpre, sizeof hpre, "h-%lu-", (unsigned long)me);
	for (int i = 0; i < nseen; i++) seen[i].present = 0;
	for (struct dirent *e; (e = readdir(d));) {
		unsigned long uid;
		struct stat st;
		known *k;
		if (sweep && !strncmp(e->d_name, hpre, strlen(hpre)) && strlen(e->d_name) - strlen(hpre) < sizeof *marks && nmarks < MAX_MARKS) {
			/* only this user's own marks: another's under our prefix is a squat */
			if (entry_stat(d, e, &st, &k) || !S_ISREG(st.st_mode) || st.st_uid != me) continue;
			marks = xrealloc(marks, (size_t)(nmarks + 1) * sizeof *marks);
			strfmt(marks[nmarks++], sizeof *marks, "%s", e->d_name + strlen(hpre));
			continue;
		}
		if (!ticket_name(e->d_name, &uid)) continue;   /* junk: counted by nobody, costs nothing */
		if (!sweep) {
			if (!entry_stat(d, e, &st, &k) && genuine(&st, uid)) owner_note(owner_of(&owners, &nowners, &hint, uid), e->d_name, &st.st_ctim);
			continue;
		}
		if (!mine) continue;
		if (uid != me && owner_kept(kept, nkept, uid) >= GPULOCK_PER_OWNER) continue;   /* counts only uid's own, live files */
		if (uid == me && !strcmp(e->d_name, mine)) { seen_mine = 1; continue; }
		/* what was kept of it, unless an event has named it since: another's file, a younger ticket or
		 * a dead one is not opened again */
		k = kn_on ? known_get(e->d_name) : NULL;
		if (k && k->ino == e->d_ino) {
			struct timespec kc = k->ctime;
			if (k->dead || !S_ISREG(k->mode) || k->uid != (uid_t)uid || cmp_age(&kc, e->d_name, &ms.st_ctim, mine) > 0) {
				k->used = kn_listing;
				continue;
			}
		}
		char path[1024];
		strfmt(path, sizeof path, "%s/%s", dir, e->d_name);
		int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0) continue;
		int ok = fstat(fd, &st) == 0;
		if (!ok || !genuine(&st, uid) || cmp_age(&st.st_ctim, e->d_name, &ms.st_ctim, mine) > 0) {
			if (ok) known_put(e->d_name, &st, 0);   /* another's file, or younger than ours */
			close(fd);
			continue;
		}
		if (flock(fd, LOCK_SH | LOCK_NB) == 0) {     /* nobody holds it: its process is gone */
			known_put(e->d_name, &st, 1);
			if (uid == me) {
				char mark[1100];
				strfmt(mark, sizeof mark, "%s/s-%s", dir, e->d_name);
				unlink(mark);
				unlink(path);
			}
			close(fd);
			continue;
		}
		known_put(e->d_name, &st, 0);
		sighting *s = sighting_of(e->d_name, 0);
		if (s) s->present = 1;
		if (n == cap) *out = xrealloc(*out, (size_t)(cap = cap ? 2 * cap : 16) * sizeof **out);
		ticket_fill(dir, e->d_name, fd, &st, uid, &(*out)[n]);
		close(fd);
		n++;
		if (uid == me) own_older++;
		else owner_add(&kept, &nkept, uid);
	}
	closedir(d);
	free(kept);
	if (!sweep) {                              /* each owner's oldest, opened, checked, their locks tried */
		for (int o = 0; o < nowners; o++)
			for (int i = 0; i < owners[o].nbest; i++) {
				const char *name = owners[o].best[i].name;
				char path[1024];
				strfmt(path, sizeof path, "%s/%s", dir, name);
				int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
				struct stat st;
				if (fd < 0) continue;
				if (fstat(fd, &st) == 0 && genuine(&st, owners[o].uid) && flock(fd, LOCK_SH | LOCK_NB) != 0) {
					if (n == cap) *out = xrealloc(*out, (size_t)(cap = cap ? 2 * cap : 16) * sizeof **out);
					ticket_fill(dir, name, fd, &st, owners[o].uid, &(*out)[n++]);
				}
				close(fd);
			}
		free(owners);
	}
	/* our own ticket, missed by the listing or not: looked at directly (the same file as the one we hold) */
	struct stat a;
	if (mine && (seen_mine || (lstat(ticket_path, &a) == 0 && a.st_dev == ms.st_dev && a.st_ino == ms.st_ino))) {
		if (own_older >= GPULOCK_PER_OWNER) mine_hidden = 1;
		else {
			*out = xrealloc(*out, (size_t)(n + 1) * sizeof **out);
			ticket_fill(dir, mine, ticket_fd, &ms, (unsigned long)me, &(*out)[n]);
			(*out)[n++].mine = 1;
		}
	}
	if (sweep) {
		nown = 0;
		for (int i = 0; i < nmarks; i++) {       /* this user's sightings of tickets that are gone */
			size_t tl = strcspn(marks[i], ".");
			int live = 0;
			for (int j = 0; j < n && !live; j++) live = strlen((*out)[j].name) == tl && !strncmp(marks[i], (*out)[j].name, tl);
			if (!live) {                          /* not in our line: gone, or younger than ours (another's sighting) */
				char path[1200];
				strfmt(path, sizeof path, "%s/%.*s", dir, (int)tl, marks[i]);
				live = lstat(path, &a) == 0;
			}
			if (live) {
				if (marks[i][tl]) { own_marks = xrealloc(own_marks, (size_t)(nown + 1) * sizeof *own_marks); strfmt(own_marks[nown++], sizeof *own_marks, "%s", marks[i]); }
				continue;
			}
			char path[1200];
			strfmt(path, sizeof path, "%s/%s%s", dir, hpre, marks[i]);
			unlink(path);
		}
		int k = 0;
		for (int i = 0; i < nseen; i++) if (seen[i].present) seen[k++] = seen[i];
		nseen = k;
	}
	free(marks);
	if (n > 1) qsort(*out, (size_t)n, sizeof **out, cmp_ticket);
	/* Names for the tickets a waiter shows (the owner's account, looked up for the first few only). */
	for (int i = 0; i < n && i < 8; i++) user_name((*out)[i].uid, (*out)[i].user, sizeof (*out)[i].user);
	return n;
}

/* The time in the h- mark at path when it is this user's own regular file: 0 none (or not ours: *squat
 * set), else the time (not later than the mark's change time). */
static double head_mark_read(const char *path, int *squat)
{
	char buf[64];
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) { if (errno != ENOENT) *squat = 1; return 0; }
	struct stat st;
	int ours = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == getuid();
	ssize_t k = ours ? pread(fd, buf, sizeof buf - 1, 0) : -1;
	close(fd);
	if (!ours) { *squat = 1; return 0; }
	buf[k > 0 ? k : 0] = 0;
	double t = k > 0 ? atof(buf) : 0;
	if (!(k > 0 && isfinite(t) && t > 0)) return 0;
	return t < st.st_ctim.tv_sec + 1.0 ? t : (double)st.st_ctim.tv_sec;
}

/* When this user's waiters first saw ticket name at the head (epoch seconds), from its "h-" mark in
 * dir; with none, makes one saying since (a time this process vouches for). The mark is
 * "h-UID-NAME", or, when another user took that name, "h-UID-NAME.RANDOM" (found in own_marks). */
static double head_mark(const char *dir, const char *name, double since)
{
	char path[1200], buf[64];
	int squat = 0;
	strfmt(path, sizeof path, "%s/h-%lu-%s", dir, (unsigned long)getuid(), name);
	double t = head_mark_read(path, &squat);
	if (t > 0) return t;
	if (squat) {
		size_t nl = strlen(name);
		for (int i = 0; i < nown; i++) {
			if (strncmp(own_marks[i], name, nl) || own_marks[i][nl] != '.') continue;
			strfmt(path, sizeof path, "%s/h-%lu-%s", dir, (unsigned long)getuid(), own_marks[i]);
			int s2 = 0;
			if ((t = head_mark_read(path, &s2)) > 0) return t;
		}
		uint32_t r = 0;
		if (getrandom(&r, sizeof r, GRND_NONBLOCK) != sizeof r) r = (uint32_t)now_ms() ^ (uint32_t)getpid();
		strfmt(path, sizeof path, "%s/h-%lu-%s.%08x", dir, (unsigned long)getuid(), name, r);
		if (nown < MAX_MARKS) {
			own_marks = xrealloc(own_marks, (size_t)(nown + 1) * sizeof *own_marks);
			strfmt(own_marks[nown++], sizeof *own_marks, "%s.%08x", name, r);
		}
	}
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd >= 0) {
		int k = snprintf(buf, sizeof buf, "%.3f\n", since);
		if (fchmod(fd, 0644) || write(fd, buf, (size_t)k) != k) {}
		close(fd);
	}
	return since;
}

/* Drops the tickets passed over; when watching (a waiter), judges the head of the line by what this
 * process has seen of it and passes it over past the cap, saying so through note. Returns the new n. */
static int pass_over(const char *dir, ticket *q, int n, int watching, void (*note)(void *ctx, const char *text), void *ctx)
{
	int k = 0;
	for (int i = 0; i < n; i++) {
		sighting *s = sighting_of(q[i].name, 0);
		if (!s || !s->passed) q[k++] = q[i];
	}
	n = k;
	double cap = cap_seconds(), grace = cap < HEAD_GRACE ? cap : HEAD_GRACE;
	while (watching && n > 0 && !q[0].mine) {
		double mono = now_mono(), real = now_epoch();
		sighting *s = sighting_of(q[0].name, 1);
		if (s->first_head == 0) s->first_head = mono;
		if (!streak_on || streak_uid != q[0].uid) { streak_on = 1; streak_uid = q[0].uid; streak_since = mono; }
		double held = mono - s->first_head, run = mono - streak_since;
		double marked = real - head_mark(dir, q[0].name, real - (held > run ? held : run));
		if (marked > held) held = marked;
		if (q[0].started > 0 && real - q[0].started > held) held = real - q[0].started;
		q[0].held = held > run ? held : run;
		int over = q[0].started > 0 ? held > cap : held > grace;
		if (!over && run <= cap) break;
		s->passed = 1;
		if (note) {
			char msg[300];
			if (!over)
				strfmt(msg, sizeof msg, "%s's runs have held the GPU for %.0f s in a row, past the cap of %.0f s: passed over", q[0].user, run, cap);
			else if (q[0].started > 0)
				strfmt(msg, sizeof msg, "%s's run has held the GPU for %.0f s, past the cap of %.0f s: passed over", q[0].user, held, cap);
			else
				strfmt(msg, sizeof msg, "%s's ticket has been first in line for %.0f s without starting its run: passed over", q[0].user, held);
			note(ctx, msg);
		}
		memmove(q, q + 1, (size_t)(n - 1) * sizeof *q);
		n--;
		if (n > 0) user_name(q[0].uid, q[0].user, sizeof q[0].user);
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
		const char *who = q[i].user[0] ? q[i].user : "another user";
		if (i == 0 && q[i].started > 0) {
			double ran = now - q[i].started > q[i].held ? now - q[i].started : q[i].held;
			sb_addf(&b, "%s (running for %.0f s)", who, ran);
			eta += q[i].expect > ran ? q[i].expect - ran : 0.5;
		} else {
			sb_addf(&b, "%s%s", i ? (i == pos - 1 ? " and " : ", ") : "", who);
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

/* One line to $CUDACLIMB_QUEUE_TRACE, if set: this ticket's ask, start and end, and the GPU. */
static void trace_release(void)
{
	const char *f = getenv("CUDACLIMB_QUEUE_TRACE");
	if (!f || !*f) return;
	char line[200];
	int n = snprintf(line, sizeof line, "run %lld %lld %lld %ld %lu %s\n", ask_ns, got_ns, epoch_ns(), (long)getpid(),
	                 (unsigned long)getuid(), ticket_uuid[0] ? ticket_uuid : "-");
	if (n <= 0 || n >= (int)sizeof line) return;
	int fd = open(f, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0600);
	if (fd < 0) return;
	struct stat st;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && write(fd, line, (size_t)n) != n) {}
	close(fd);
}

/* Places this process's ticket in dir: its start mark made first (0600: waiting; nobody can take the
 * name before the ticket is seen), then the ticket under a private name, locked, readable by all
 * (whatever the umask) and written, then renamed into place: a ticket others can see is always one
 * whose owner holds its lock. A name another user took first (they saw the draft) gets a new random
 * one. Sets ticket_fd, ticket_path, start_path; 0, or -1 with why. */
static int place_ticket(const char *dir, double expect_s, char *why, size_t wn)
{
	char line[160], who[64];
	user_name(getuid(), who, sizeof who);
	for (char *p = who; *p; p++) if (*p == ' ') *p = '-';
	strfmt(line, sizeof line, "%s %ld %.1f\n", who, (long)getpid(), expect_s);
	int err = 0;
	for (int attempt = 0; attempt < 16; attempt++) {
		uint64_t r = 0;
		if (getrandom(&r, sizeof r, 0) != sizeof r) r = (uint64_t)now_ms() ^ (uint64_t)getpid() << 32 ^ (uint64_t)attempt;
		char draft[640];
		strfmt(draft, sizeof draft, "%s/n-%lu-%ld-%016llx", dir, (unsigned long)getuid(), (long)getpid(), (unsigned long long)r);
		strfmt(ticket_path, sizeof ticket_path, "%s/t-%lu-%ld-%016llx", dir, (unsigned long)getuid(), (long)getpid(), (unsigned long long)r);
		strfmt(start_path, sizeof start_path, "%s/s-%s", dir, strrchr(ticket_path, '/') + 1);
		int m = open(start_path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (m < 0) { err = errno; if (err == EEXIST) continue; break; }
		int bad = fchmod(m, 0600) != 0;
		close(m);
		ticket_fd = bad ? -1 : open(draft, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (ticket_fd >= 0 && flock(ticket_fd, LOCK_EX) == 0 && fchmod(ticket_fd, 0644) == 0 &&
		    write(ticket_fd, line, strlen(line)) == (ssize_t)strlen(line) && rename(draft, ticket_path) == 0)
			return 0;
		err = errno;
		if (ticket_fd >= 0) { close(ticket_fd); unlink(draft); }
		ticket_fd = -1;
		unlink(start_path);
		if (err != EEXIST && err != EPERM) break;     /* a name taken by another user: try another */
	}
	strfmt(why, wn, "cannot queue for the GPU in %s: %s; " ADVICE, dir, strerror(err));
	ticket_path[0] = start_path[0] = 0;
	return -1;
}

/* Whether our ticket is still at ticket_path (the file we hold the lock of). */
static int ticket_placed(void)
{
	struct stat a, b;
	return ticket_fd >= 0 && lstat(ticket_path, &a) == 0 && fstat(ticket_fd, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/* ---- waiting ---- */

/* Whether dir is on a local file system, whose every change raises an inotify event here (another
 * machine's change to a network folder raises none). */
static int local_fs(const char *dir)
{
	struct statfs f;
	if (statfs(dir, &f)) return 0;
	switch ((unsigned long)f.f_type) {
	case EXT4_SUPER_MAGIC: case XFS_SUPER_MAGIC: case BTRFS_SUPER_MAGIC: case TMPFS_MAGIC: case F2FS_SUPER_MAGIC: return 1;
	}
	return 0;
}

/* Whether name, passed over in the last listing by what was kept of it, is now (looked at afresh) a
 * live ticket ahead of mine and not in the line q (n long) that listing made. */
static int passed_ahead(const char *dir, const char *name, const ticket *q, int n, const ticket *mine)
{
	unsigned long uid;
	if (!mine || !ticket_name(name, &uid)) return 0;
	for (int i = 0; i < n; i++) if (!strcmp(q[i].name, name)) return 0;
	char path[1024];
	strfmt(path, sizeof path, "%s/%s", dir, name);
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) return 0;
	struct stat st;
	int ahead = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == (uid_t)uid && flock(fd, LOCK_SH | LOCK_NB) != 0
	            && cmp_age(&st.st_ctim, name, &mine->ctime, mine->name) < 0;
	close(fd);
	return ahead;
}

enum { EV_LINE = 1, EV_LOST = 2, EV_AHEAD = 4 };

/* Whether name (of an event) is a ticket of the line q (n long), or its start mark; with no line, any
 * ticket's or start mark's. */
static int of_line(const char *name, const ticket *q, int n)
{
	if (!strncmp(name, "s-", 2)) name += 2;
	if (strncmp(name, "t-", 2)) return 0;
	if (!q) return 1;
	for (int i = 0; i < n; i++) if (!strcmp(q[i].name, name)) return 1;
	return 0;
}

/* Reads the events of the watch in (none when it is -1): each name an event names is no longer kept;
 * an overflow forgets every name, and a watch gone (its folder removed or moved) stops keeping them.
 * Returns EV_LINE when an event names a ticket of the line q (n long) or its start mark (with no line,
 * any ticket's or start mark's): the line may have changed; a younger ticket's coming and going, an
 * h- mark or junk wake nobody. EV_LOST with an overflow or the watch gone. With check (q is the line
 * the last listing made, and this process's ticket at its head), EV_AHEAD when a name the listing
 * passed over by what was kept of it is now a live ticket ahead of ours (passed_ahead). */
static int events_read(int in, const char *dir, const ticket *q, int n, int check)
{
	_Alignas(struct inotify_event) char buf[4096];
	int ev = 0;
	ssize_t k;
	while (in >= 0 && (k = read(in, buf, sizeof buf)) > 0) {
		for (char *p = buf; p < buf + k;) {
			const struct inotify_event *e = (const struct inotify_event *)p;
			p += sizeof *e + e->len;
			if (e->mask & (IN_Q_OVERFLOW | IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF | IN_UNMOUNT)) {
				known_clear();
				if (!(e->mask & IN_Q_OVERFLOW)) kn_on = 0;
				ev |= EV_LOST | EV_LINE;
				continue;
			}
			if (!e->len || !e->name[0]) continue;
			if (of_line(e->name, q, n)) ev |= EV_LINE;
			known *kp = known_get(e->name);
			if (!kp) continue;
			if (check && kp->used == kn_listing && passed_ahead(dir, e->name, q, n, &q[0])) ev |= EV_AHEAD;
			known_drop(e->name);
		}
	}
	return ev;
}

static void sleep_s(double s)
{
	if (s <= 0) return;
	struct timespec ts = { (time_t)s, (long)((s - (double)(time_t)s) * 1e9) };
	nanosleep(&ts, NULL);
}

/* Waits until the line q (n long; NULL: our ticket is not in it) may have changed: an event on one
 * of its tickets or start marks, or a timeout (a holder's cap, the head's grace): 200 ms, ten times
 * the last listing's time (cost) when a listing costs more, at most 2 s. When a listing costs more
 * than 5 ms, the events of a moment (a run given back removes its start mark, then its ticket) are let
 * come together for a quarter of it (20 ms at most), and a waiter not next in line (pos > 1) lets the
 * next one list first, for a whole listing's time. Then, while this waiter's listings (spent seconds
 * since it started waiting at start) took more than a second and a third of its wait, it waits until
 * they have not: a flood of files or of events costs a waiter a third of a core at most. */
static void wait_line(int in, const char *dir, const ticket *q, int n, int pos, double cost, double start, double spent)
{
	double timeout = cost * 10 < 0.2 ? 0.2 : cost * 10 > 2 ? 2 : cost * 10, end = now_mono() + timeout;
	for (double left; (left = end - now_mono()) > 0;) {
		struct pollfd pf = { .fd = in, .events = POLLIN };
		if (poll(&pf, in >= 0 ? 1 : 0, (int)(left * 1000) + 1) <= 0) break;
		if (events_read(in, dir, q, n, 0) & EV_LINE) {
			if (cost > 0.005) sleep_s(pos > 1 ? cost : cost / 4 < 0.02 ? cost / 4 : 0.02);
			break;
		}
	}
	double over = spent - 1 - (now_mono() - start) / 3;
	sleep_s(3 * over);
}

int gpulock_acquire(const char *uuid, double expect_s, void (*note)(void *ctx, const char *text), void *ctx, char *why, size_t wn)
{
	char dir[512];
	gpulock_release();
	ask_ns = epoch_ns();
	if (queue_dir(uuid, 1, dir, sizeof dir, why, wn)) return -1;
	strfmt(ticket_uuid, sizeof ticket_uuid, "%s", uuid);
	/* the watch first, then the ticket and the listings: every change after it raises an event */
	int in = inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
	if (in >= 0 && inotify_add_watch(in, dir, IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_MODIFY | IN_ATTRIB
	                                          | IN_CLOSE_WRITE | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR) < 0) {
		close(in);
		in = -1;
	}
	known_clear();
	kn_on = in >= 0 && local_fs(dir);
	if (place_ticket(dir, expect_s, why, wn)) { if (in >= 0) close(in); kn_on = 0; return -1; }
	struct stat tst;                     /* the queue's order is the placed ticket's change time */
	if (stat(ticket_path, &tst) == 0) ask_ns = tst.st_ctim.tv_sec * 1000000000LL + tst.st_ctim.tv_nsec;
	streak_on = 0;                       /* a run of one owner at the head counts only while watched */
	char last[600] = "";
	int fresh = 0, said_hidden = 0;      /* fresh: the next listing keeps out nothing by what was kept */
	int held_back = 0;                   /* our ticket was left out: this user had too many older ones */
	double start = now_mono(), spent = 0; /* the wait, and its listings' time */
	for (;;) {
		ticket *q;
		double since = now_mono();
		events_read(in, dir, NULL, 0, 0);   /* the names that changed since the last listing, dropped */
		int keeping = kn_on, was_fresh = fresh;
		if (fresh) kn_on = 0;
		int n = read_queue(dir, &q, 1), pos = 0;
		kn_on = keeping;
		fresh = 0;
		double cost = now_mono() - since;
		spent += cost;
		n = pass_over(dir, q, n, 1, note, ctx);
		while (pos < n && !q[pos].mine) pos++;
		if (pos == n && n >= 0) {
			/* our ticket is not in the line: never go ahead without it. Gone (removed): placed again, at
			 * the back; held back behind its account's older ones, or a listing that cannot be read: look again */
			int hidden = mine_hidden;
			if (!ticket_placed()) {
				if (note) note(ctx, "your ticket in the GPU queue was removed: queueing again");
				if (start_path[0]) unlink(start_path);
				if (ticket_fd >= 0) close(ticket_fd);
				ticket_fd = -1;
				if (place_ticket(dir, expect_s, why, wn)) { if (in >= 0) close(in); known_clear(); kn_on = 0; return -1; }
			} else if (hidden) {
				held_back = 1;
				if (note && !said_hidden) {
					char msg[300];
					strfmt(msg, sizeof msg, "your account has %d or more runs waiting for this GPU ahead of this one, more than others read "
					       "of one account: this run waits until fewer are, then queues again", GPULOCK_PER_OWNER);
					note(ctx, msg);
					said_hidden = 1;
				}
			}
			wait_line(in, dir, NULL, 0, -1, cost, start, spent);
			free(q);
			continue;
		}
		if (held_back) {
			/* Others may not have seen our ticket while it was left out, and gone ahead: it queues again,
			 * behind them, so that it never comes back ahead of a run that started meanwhile. */
			free(q);
			held_back = 0;
			if (start_path[0]) unlink(start_path);
			unlink(ticket_path);
			close(ticket_fd);
			ticket_fd = -1;
			if (place_ticket(dir, expect_s, why, wn)) { if (in >= 0) close(in); known_clear(); kn_on = 0; return -1; }
			continue;
		}
		if (pos == 0) {
			/* first: unless a name the listing left out by what was kept of it is a live ticket ahead
			 * now (or events were lost), then listed again without what was kept */
			int ev = kn_on && !was_fresh ? events_read(in, dir, q, n, 1) : 0;
			free(q);
			if (!(ev & (EV_AHEAD | EV_LOST))) break;
			fresh = 1;
			continue;
		}
		char msg[600];
		describe(q, pos, msg, sizeof msg);
		/* Say it when the line changes (who is ahead), not as the times shown move. */
		size_t key = strcspn(msg, "(;");
		if (note && (strlen(last) < key || strncmp(msg, last, key))) note(ctx, msg);
		strfmt(last, sizeof last, "%s", msg);
		wait_line(in, dir, q, n, pos, cost, start, spent);   /* a process that died leaves its ticket: its close raises an event */
		free(q);
	}
	if (in >= 0) close(in);
	known_clear();
	kn_on = 0;
	/* the start: our mark opened to others (its change time is now); made again if it went missing */
	int m = open(start_path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct stat ms;
	if (m >= 0 && (fstat(m, &ms) != 0 || !S_ISREG(ms.st_mode) || ms.st_uid != getuid() || fchmod(m, 0644) != 0)) { close(m); m = -1; }
	if (m < 0) m = open(start_path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (m >= 0) { if (fchmod(m, 0644)) {} close(m); }
	got_ns = epoch_ns();
	got_mono = now_mono();
	hold_note = note;
	hold_ctx = ctx;
	return 0;
}

void gpulock_release(void)
{
	if (ticket_fd < 0) return;
	trace_release();
	double held = now_mono() - got_mono, cap = cap_seconds();
	if (hold_note && got_mono > 0 && held > cap) {
		char msg[300];
		strfmt(msg, sizeof msg, "this run held the GPU for %.0f s, past the queue's cap of %.0f s: runs waiting behind it "
		       "were let through, so its timings may be disturbed", held, cap);
		hold_note(hold_ctx, msg);
	}
	hold_note = NULL;
	got_mono = 0;
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
	queue_path(uuid, dir, sizeof dir);
	struct stat st;
	if (lstat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) return 0;     /* nobody has queued there yet */
	ticket *q;
	int n = read_queue(dir, &q, 0);
	if (n > 0) n = pass_over(dir, q, n, 0, NULL, NULL);
	free(q);
	return n > 0 ? n : 0;
}

int gpulock_pick(const char *const *uuids, int n, int *lengths)
{
	int lens[64];
	if (n > 64) n = 64;
	for (int i = 0; i < n; i++) {
		lens[i] = gpulock_queue_length(uuids[i]);
		if (lengths) lengths[i] = lens[i];
	}
	return n > 0 ? util_pick_shortest(lens, n, (unsigned)getpid()) : 0;
}

const char *gpulock_ticket(void) { return ticket_fd >= 0 ? ticket_path : NULL; }

int gpulock_uuid_norm(const char *in, char *out, size_t n)
{
	if (!strncasecmp(in, "GPU-", 4)) in += 4;
	size_t k = 0;
	for (const char *p = in; *p; p++) {
		if (*p == '-') continue;
		char c = *p >= 'A' && *p <= 'F' ? (char)(*p - 'A' + 'a') : *p;
		if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')) || k + 1 >= n || k >= 32) return -1;
		out[k++] = c;
	}
	out[k] = 0;
	return k == 32 ? 0 : -1;
}

int gpulock_init(const char *uuid, char *out, size_t n)
{
	char dir[512], base[512], why[700];
	struct stat st;
	base_dir(base, sizeof base);
	queue_path(uuid, dir, sizeof dir);
	if (geteuid() != 0) {
		strfmt(out, n, "making the GPU queue folders needs root (sudo cudaclimb queue init): a folder you made would be yours, "
		       "and others' runs would refuse it");
		return -1;
	}
	if (stat(base, &st) != 0 || safe_folder(base, "folder of the GPU queues", &st, why, sizeof why)) {
		strfmt(out, n, "%s", stat(base, &st) != 0 ? strerror(errno) : why);
		return -1;
	}
	if (lstat(dir, &st) == 0 && !S_ISDIR(st.st_mode)) {
		/* a symlink or file planted at the name: root may remove it (its own sticky /tmp rule allows) */
		if (unlink(dir) != 0) { strfmt(out, n, "%s is not a folder and cannot be removed: %s", dir, strerror(errno)); return -1; }
	}
	mode_t old = umask(0);
	int made = mkdir(dir, 01777) == 0;
	umask(old);
	if (!made && errno != EEXIST) { strfmt(out, n, "cannot create %s: %s", dir, strerror(errno)); return -1; }
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) != 0) { strfmt(out, n, "cannot open %s: %s", dir, strerror(errno)); if (fd >= 0) close(fd); return -1; }
	char was[200] = "";
	if (!made && (st.st_uid != 0 || (st.st_mode & 07777) != 01777)) {
		char who[64];
		user_name(st.st_uid, who, sizeof who);
		strfmt(was, sizeof was, " (it was %s's, uid %lu, mode %04o)", who, (unsigned long)st.st_uid, (unsigned)(st.st_mode & 07777));
	}
	if (fchown(fd, 0, 0) != 0 || fchmod(fd, 01777) != 0) {
		strfmt(out, n, "cannot make %s root's with mode 1777: %s", dir, strerror(errno));
		close(fd);
		return -1;
	}
	close(fd);
	if (!made && !was[0]) strfmt(out, n, "%s is already root's, mode 1777", dir);
	else strfmt(out, n, "%s %s: %sroot's, mode 1777 (sticky: anyone may queue, nobody may remove another's ticket)%s",
	            made ? "made" : "repaired", dir, made ? "" : "now ", was);
	return 0;
}

int gpulock_status(const char *uuid, char *out, size_t n)
{
	char dir[512], why[700];
	queue_path(uuid, dir, sizeof dir);
	struct stat st;
	if (lstat(dir, &st) != 0 && errno == ENOENT) {
		strfmt(out, n, "%s: not made yet (the first run makes it, as its user's; `sudo cudaclimb queue init` makes it root's)", dir);
		return 0;
	}
	if (queue_dir(uuid, 0, dir, sizeof dir, why, sizeof why)) { strfmt(out, n, "refused: %s", why); return -1; }
	ticket *q;
	int k = read_queue(dir, &q, 0);
	if (k > 0) k = pass_over(dir, q, k, 0, NULL, NULL);
	char who[64];
	user_name(st.st_uid, who, sizeof who);
	sb b = {0};
	sb_addf(&b, "%s: %s's, mode %04o; %d in line", dir, who, (unsigned)(st.st_mode & 07777), k > 0 ? k : 0);
	for (int i = 0; i < k && i < 8; i++)
		sb_addf(&b, "%s%s%s", i ? ", " : ": ", q[i].user, i == 0 && q[i].started > 0 ? " (running)" : "");
	if (k > 8) sb_addf(&b, " and %d more", k - 8);
	strfmt(out, n, "%s", b.s);
	sb_free(&b);
	free(q);
	return 0;
}
