/* Tests for src/core/sha256.c: the NIST (FIPS 180-4 examples) vectors, "abc", the empty message, the
 * 448-bit message and a million 'a's, and the same digest however the input is split. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include "sha256.h"

static void test_vectors(void **state)
{
	(void)state;
	char hex[65];
	sha256_hex("abc", 3, hex);
	assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	sha256_hex("", 0, hex);
	assert_string_equal(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	const char *m448 = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	sha256_hex(m448, strlen(m448), hex);
	assert_string_equal(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	const char *m896 = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";
	sha256_hex(m896, strlen(m896), hex);
	assert_string_equal(hex, "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
}

static void test_million(void **state)
{
	(void)state;
	char *a = malloc(1000000);
	memset(a, 'a', 1000000);
	char hex[65];
	sha256_hex(a, 1000000, hex);
	assert_string_equal(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
	/* the same in uneven pieces */
	sha256_ctx c;
	unsigned char d[32];
	sha256_init(&c);
	for (size_t off = 0, k = 1; off < 1000000; off += k, k = k * 3 % 997 + 1) sha256_update(&c, a + off, off + k > 1000000 ? 1000000 - off : k);
	sha256_final(&c, d);
	assert_int_equal(d[0], 0xcd);
	assert_int_equal(d[31], 0xd0);
	free(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(test_vectors), cmocka_unit_test(test_million) };
	return cmocka_run_group_tests(tests, NULL, NULL);
}
