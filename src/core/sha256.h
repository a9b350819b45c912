/* sha256: SHA-256 (FIPS 180-4), written here by hand because OpenSSL is not a dependency of cudaclimb
 * and the GPU box lacks its headers; a class's results use it to tie a record to the source it
 * claims (results.h). Checked against the NIST vectors in tests/test_sha256.c. */
#ifndef CC_SHA256_H
#define CC_SHA256_H
#include <stddef.h>
#include <stdint.h>

typedef struct {
	uint32_t h[8];
	uint64_t len;               /* bytes hashed so far */
	unsigned char buf[64]; size_t nbuf;
} sha256_ctx;

/* Starts a hash. */
void sha256_init(sha256_ctx *c);
/* Hashes n more bytes of data. */
void sha256_update(sha256_ctx *c, const void *data, size_t n);
/* Ends the hash: the 32-byte digest into out (c must be started again to be reused). */
void sha256_final(sha256_ctx *c, unsigned char out[32]);
/* The digest of data[0..n) as 64 lower-case hex digits and a NUL, into hex. */
void sha256_hex(const void *data, size_t n, char hex[65]);
#endif
