/* serve_queue: the order of one GPU's waiters in the lab service (serve.h). Turns go between users:
 * the user served longest ago goes first, each user's own runs in the order asked; a user passed over
 * at the cap goes after every other user until its cool-down ends. */
#include <stdlib.h>
#include <string.h>
#include "serve.h"
#include "util.h"

static long last_turn(const serve_queue *q, unsigned uid)
{
	for (int i = 0; i < q->nusers; i++) if (q->users[i].uid == uid) return q->users[i].last;
	return -1;   /* never served: before anyone who was */
}

/* uid's entry, made (never served, not cooling) when it has none. */
static int user_at(serve_queue *q, unsigned uid)
{
	for (int i = 0; i < q->nusers; i++) if (q->users[i].uid == uid) return i;
	q->users = xrealloc(q->users, (size_t)(q->nusers + 1) * sizeof *q->users);
	q->users[q->nusers].uid = uid;
	q->users[q->nusers].last = -1;
	q->users[q->nusers].cool_until = 0;
	return q->nusers++;
}

/* (user_at may move q->users: the index first) */
static void set_turn(serve_queue *q, unsigned uid, long turn)
{
	int u = user_at(q, uid);
	q->users[u].last = turn;
}

void serve_queue_cool(serve_queue *q, unsigned uid, double until)
{
	int u = user_at(q, uid);
	q->users[u].cool_until = until;
}

int serve_queue_cooling(const serve_queue *q, unsigned uid, double now)
{
	for (int i = 0; i < q->nusers; i++) if (q->users[i].uid == uid) return q->users[i].cool_until > now;
	return 0;
}

int serve_queue_any_cooling(const serve_queue *q, double now)
{
	for (int i = 0; i < q->nusers; i++) if (q->users[i].cool_until > now) return 1;
	return 0;
}

void serve_queue_add(serve_queue *q, int conn, unsigned uid) { serve_queue_add_for(q, conn, uid, 0); }

void serve_queue_add_for(serve_queue *q, int conn, unsigned uid, int judge)
{
	if (q->nw == q->cap_w) {
		q->cap_w = q->cap_w ? 2 * q->cap_w : 16;
		q->w = xrealloc(q->w, (size_t)q->cap_w * sizeof *q->w);
	}
	q->w[q->nw++] = (serve_queue_waiter){ .conn = conn, .uid = uid, .seq = q->seqs++, .judge = judge };
}

int serve_queue_remove(serve_queue *q, int conn)
{
	for (int i = 0; i < q->nw; i++)
		if (q->w[i].conn == conn) {
			memmove(q->w + i, q->w + i + 1, (size_t)(q->nw - i - 1) * sizeof *q->w);
			q->nw--;
			return 1;
		}
	return 0;
}

/* The index of the next waiter given each user's last turn (turns, by uid, through last); with
 * cooled, only of the users not cooling at now. */
static int pick(const serve_queue *q, const int *taken, long (*last)(const void *ctx, unsigned uid), const void *ctx, int cooled, double now)
{
	int best = -1;
	long best_turn = 0;
	for (int i = 0; i < q->nw; i++) {
		if (taken && taken[i]) continue;
		if (cooled && !q->w[i].judge && serve_queue_cooling(q, q->w[i].uid, now)) continue;
		long t = last(ctx, q->w[i].uid);
		/* the waiters are in the order asked: the first of a user is that user's next */
		if (best < 0 || t < best_turn) { best = i; best_turn = t; }
	}
	return best;
}

static long last_of_queue(const void *ctx, unsigned uid) { return last_turn(ctx, uid); }

int serve_queue_next(serve_queue *q) { return serve_queue_next_at(q, 0, 1); }

int serve_queue_next_at(serve_queue *q, double now, int quiet)
{
	int i = pick(q, NULL, last_of_queue, q, 1, now);
	if (i < 0 && quiet) i = pick(q, NULL, last_of_queue, q, 0, now);
	if (i < 0) return -1;
	int conn = q->w[i].conn;
	set_turn(q, q->w[i].uid, q->grants++);
	memmove(q->w + i, q->w + i + 1, (size_t)(q->nw - i - 1) * sizeof *q->w);
	q->nw--;
	return conn;
}

/* For serve_queue_order: the turns as they would be after the turns already given in the simulation. */
typedef struct { const serve_queue *q; unsigned *uids; long *turns; int n; } sim;

static long last_of_sim(const void *ctx, unsigned uid)
{
	const sim *s = ctx;
	for (int i = s->n - 1; i >= 0; i--) if (s->uids[i] == uid) return s->turns[i];
	return last_turn(s->q, uid);
}

void serve_queue_order(const serve_queue *q, int *order) { serve_queue_order_at(q, 0, order); }

void serve_queue_order_at(const serve_queue *q, double now, int *order)
{
	int *taken = xcalloc((size_t)q->nw + 1, sizeof *taken);
	sim s = { q, xcalloc((size_t)q->nw + 1, sizeof *s.uids), xcalloc((size_t)q->nw + 1, sizeof *s.turns), 0 };
	for (int k = 0; k < q->nw; k++) {
		int i = pick(q, taken, last_of_sim, &s, 1, now);
		if (i < 0) i = pick(q, taken, last_of_sim, &s, 0, now);   /* those cooling, last */
		order[k] = i;
		taken[i] = 1;
		s.uids[s.n] = q->w[i].uid;
		s.turns[s.n] = q->grants + k;
		s.n++;
	}
	free(taken);
	free(s.uids);
	free(s.turns);
}

void serve_queue_free(serve_queue *q)
{
	free(q->w);
	free(q->users);
	memset(q, 0, sizeof *q);
}
