/* libFuzzer target for the lab service's request lines (src/app/serve_request.c) and file names
 * (src/core/labwire.c's labwire_name_ok): each line of the input as a request and as a submission's
 * file header; what is taken must hold the service's invariants.
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -Isrc/core -Isrc/lesson -Isrc/engine -Isrc/app -I$CUDA_HOME/include \
 *     tests/fuzz/fuzz_serve.c src/app/serve_request.c src/core/labwire.c src/core/util.c -o build-fuzz/fuzz_serve */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "labwire.h"
#include "serve.h"

static void one(const char *line)
{
	serve_request r;
	for (int files = 0; files <= 1; files++) {
		int rc = serve_request_parse(line, files, &r);
		if (rc == 0 && r.kind == SR_BAD) abort();
		if (rc != 0 && (r.kind != SR_BAD || !r.why)) abort();
		if (rc != 0) continue;
		if (r.kind == SR_LEASE && (strlen(r.uuid) != 32 || !(r.expect_s >= 0 && r.expect_s <= 1e6))) abort();
		if (r.kind == SR_SUBMIT && (r.nfiles < 1 || r.nfiles > LABWIRE_FILES_MAX || !strchr(r.exercise, '/'))) abort();
		if (r.kind == SR_FILE) {
			if (r.len > LABWIRE_FILE_MAX || !labwire_name_ok(r.name)) abort();
			if (r.name[0] == '/' || r.name[0] == '.' || strstr(r.name, "/.") || strstr(r.name, "//")) abort();
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	char *text = malloc(n + 1);
	if (!text) return 0;
	memcpy(text, data, n);
	text[n] = 0;
	for (char *p = text, *nl; p; p = nl ? nl + 1 : NULL) {
		nl = strchr(p, '\n');
		if (nl) *nl = 0;
		one(p);
	}
	free(text);
	return 0;
}
