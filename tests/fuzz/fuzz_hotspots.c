/* libFuzzer target for the hotspot samples' parser (hot_parse) and their mapping over a listing
 * (hot_map_make): whatever parses must map with every sample accounted for once.
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -Isrc/core -Isrc/lesson -Isrc/cuda -Isrc/engine -Isrc/runner -Isrc/worker -Isrc/app -I$CUDA_HOME/include \
 *     tests/fuzz/fuzz_hotspots.c src/render/hotspots_map.c src/cuda/sass.c src/core/fmt.c src/core/util.c -o build-fuzz/fuzz_hotspots */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "hotspots_map.h"

/* Two functions, lines of two files, an instruction without a line. */
static const char listing[] =
	"\t.text.k:\n"
	"\t//## File \"/x/k.cu\", line 3\n"
	"        /*0000*/                   LDG.E R4, desc[UR4][R2.64] ;\n"
	"        /*0010*/                   LDS R5, [R6] ;\n"
	"\t//## File \"/x/h.h\", line 9\n"
	"        /*0020*/                   FFMA R1, R2, R3, R4 ;\n"
	"\t.text.a:\n"
	"        /*0000*/                   EXIT ;\n"
	"\t//## File \"/x/k.cu\", line 7\n"
	"        /*0010*/                   STG.E desc[UR4][R2.64], R5 ;\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	char *text = malloc(n + 1), err[256];
	if (!text) return 0;
	memcpy(text, data, n);
	text[n] = 0;
	hot_samples s;
	sass_listing l;
	hot_map m;
	sass_parse(listing, &l);
	if (hot_parse(text, &s, err, sizeof err) == 0 && hot_map_make(&m, &s, &l, "k.cu", 8) == 0) {
		uint64_t sum = m.elsewhere.samples + m.unmatched;
		for (int i = 1; i <= m.nlines; i++) sum += m.line[i].samples;
		if (sum != m.total || m.total != s.sampled) abort();
		for (int i = 0; i < s.npc; i++)
			if (s.pc[i].func < 0 || s.pc[i].func >= s.nfuncs || s.pc[i].first + s.pc[i].n > s.ncounts) abort();
		int idx[8];
		for (int i = 0; i <= m.nlines; i++) {
			int k = hot_top(&m, &m.line[i], idx, 8);
			for (int j = 0; j < k; j++) if (idx[j] < 0 || idx[j] >= s.nreasons || (j && m.line[i].by[idx[j]] > m.line[i].by[idx[j - 1]])) abort();
			char out[64];
			hot_reasons_text(&s, &m, &m.line[i], 3, i & 1, out, sizeof out);
			if (strlen(out) >= sizeof out) abort();
		}
		hot_map_free(&m);
	} else if (s.npc || s.funcs || s.reasons) {
		abort();                       /* a refusal leaves nothing behind */
	}
	hot_samples_free(&s);
	sass_free(&l);
	free(text);
	return 0;
}
