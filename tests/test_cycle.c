/* Tests for kernels/builtin/cycle.h, the `cycle` init's order, on the host (the worker's fill kernel
 * includes the same file): one cycle through all 2^L indices for every key and L, every power-of-two
 * prefix masked to its size a cycle of its own (the latency lesson's LOG2_WS), the position the inverse
 * of the order, a new order for every key, and neighbours on the cycle as far apart as random ones. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../kernels/builtin/cycle.h"

static const unsigned long long keys[] = { 0, 1, 0x632be59bd9b4e019ULL, 0xfffffffffffffffeULL };
#define NKEYS (sizeof keys / sizeof keys[0])

static unsigned *table(int L, const cycle_key *k)
{
	unsigned w = 1u << L, *next = malloc((size_t)w * sizeof *next);
	assert_non_null(next);
	for (unsigned i = 0; i < w; i++) next[i] = cycle_next(i, L, k);
	return next;
}

/* From 0, the steps back to 0 through next[i] & (2^level - 1), at most 2^level + 1. */
static unsigned cycle_length(const unsigned *next, int level)
{
	unsigned mask = cycle_mask(level), x = 0, n = 0;
	do { x = next[x] & mask; n++; } while (x != 0 && n <= mask + 1u);
	return n;
}

static void test_one_cycle_every_level(void **state)
{
	(void)state;
	for (int L = 0; L <= 16; L++)
		for (size_t q = 0; q < NKEYS; q++) {
			cycle_key k = cycle_key_of(keys[q]);
			unsigned *next = table(L, &k);
			for (unsigned i = 0; i < (1u << L); i++) if (next[i] >> L) fail_msg("L=%d key %zu: next[%u] = %u is out of range", L, q, i, next[i]);
			for (int level = 0; level <= L; level++)
				if (cycle_length(next, level) != 1u << level)
					fail_msg("L=%d key %zu: the first 2^%d masked make a cycle of %u, not %u", L, q, level, cycle_length(next, level), 1u << level);
			free(next);
		}
}

static void test_position_inverts_order(void **state)
{
	(void)state;
	static const int Ls[] = { 1, 5, 20, 28, 31, 32 };
	for (size_t a = 0; a < sizeof Ls / sizeof Ls[0]; a++)
		for (size_t q = 0; q < NKEYS; q++) {
			int L = Ls[a];
			cycle_key k = cycle_key_of(keys[q]);
			for (unsigned s = 0; s < 4096; s++) {
				unsigned t = (s * 2654435761u + 12345u) & cycle_mask(L), i = cycle_at(t, L, &k);
				assert_true(i <= cycle_mask(L));
				assert_int_equal(cycle_pos(i, L, &k), t);
				assert_int_equal(cycle_next(i, L, &k), cycle_at((t + 1u) & cycle_mask(L), L, &k));
				/* the low bits of the order are the order of fewer bits: the prefixes' cycles */
				if (L > 8) assert_int_equal(cycle_at(t, L, &k) & 0xffu, cycle_at(t & 0xffu, 8, &k));
			}
		}
}

/* Two keys give two orders: few indices have the same successor under both. */
static void test_keys_differ(void **state)
{
	(void)state;
	int L = 16;
	for (size_t a = 0; a < NKEYS; a++)
		for (size_t b = a + 1; b < NKEYS; b++) {
			cycle_key ka = cycle_key_of(keys[a]), kb = cycle_key_of(keys[b]);
			unsigned same = 0;
			for (unsigned i = 0; i < (1u << L); i++) same += cycle_next(i, L, &ka) == cycle_next(i, L, &kb);
			if (same > (1u << L) / 256) fail_msg("keys %zu and %zu: %u of %u successors the same", a, b, same, 1u << L);
		}
}

/* Along the cycle every step leaves its 128-byte line (32 indices) and its 4 KiB page about as often
 * as a random jump would, and no fixed formula of the index gives the next one: the old iota buffer's
 * LCG step, i + 1 and i xor 1 match at most a few times in 2^20. */
static void test_steps_look_random(void **state)
{
	(void)state;
	int L = 20;
	unsigned w = 1u << L;
	for (size_t q = 0; q < NKEYS; q++) {
		cycle_key k = cycle_key_of(keys[q]);
		unsigned *next = table(L, &k), x = 0, line = 0, page = 0, formula = 0;
		for (unsigned s = 0; s < w; s++) {
			unsigned y = next[x];
			line += (x >> 5) == (y >> 5);
			page += (x >> 10) == (y >> 10);
			formula += y == ((x * 1664525u + 1013904223u) & (w - 1)) || y == ((x + 1) & (w - 1)) || y == (x ^ 1u);
			assert_int_equal(y & 1u, (x & 1u) ^ 1u);   /* bit 0 alternates: the one bit that is known */
			x = y;
		}
		free(next);
		if (line > 2 * 32 || page > 2 * 1024 || formula > 16) fail_msg("key %zu: %u steps in one line, %u in one page, %u by a formula, of %u", q, line, page, formula, w);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_cycle_every_level), cmocka_unit_test(test_position_inverts_order),
		cmocka_unit_test(test_keys_differ), cmocka_unit_test(test_steps_look_random),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
