/* libFuzzer target for the worker protocol's fields (src/core/result.c): each input line "name value" is
 * set on a run result and a device description, both in the escaped form the pipe carries and as
 * plain text (JSON, replay); a "step ..." line is parsed as the worker's step line (run_step_parse) and
 * what it accepts must write back and parse again the same; the escaping must round-trip any string,
 * and the findings' text form must read back to the same text.
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -Isrc/core -Isrc/lesson -Isrc/cuda -Isrc/engine -Isrc/runner -Isrc/worker -Isrc/app -I$CUDA_HOME/include \
 *     tests/fuzz/fuzz_fields.c src/core/result.c src/core/util.c -o build-fuzz/fuzz_fields */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "result.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	char *text = malloc(n + 1);
	if (!text) return 0;
	memcpy(text, data, n);
	text[n] = 0;
	run_result r;
	device_info d;
	run_result_init(&r);
	memset(&d, 0, sizeof d);
	for (char *save, *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *sp = strchr(line, ' ');
		const char *v = sp ? sp + 1 : "";
		if (sp) *sp = 0;
		if (!strcmp(line, "step") && run_step_parse(&r, v) == 0) {
			/* accepted: it writes back as a line that parses to the same step */
			if (r.nsteps < 1 || r.nsteps > RUN_MAX_STEPS) abort();
			char *sbuf = NULL;
			size_t slen = 0;
			FILE *sf = open_memstream(&sbuf, &slen);
			run_step_write(sf, &r, r.nsteps - 1);
			fclose(sf);
			run_result again;
			run_result_init(&again);
			again.nsteps = r.nsteps - 1;
			sbuf[slen - 1] = 0;   /* the newline */
			if (strncmp(sbuf, "step ", 5) || run_step_parse(&again, sbuf + 5) ||
			    strcmp(again.steps[r.nsteps - 1].entry, r.steps[r.nsteps - 1].entry) ||
			    strcmp(again.steps[r.nsteps - 1].kind, r.steps[r.nsteps - 1].kind))
				abort();
			free(sbuf);
		}
		field_set(run_result_fields, run_result_nfields, &r, line, v);
		field_set_plain(run_result_fields, run_result_nfields, &r, line, v);
		field_set(device_info_fields, device_info_nfields, &d, line, v);
		/* escaping round-trips */
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);
		field_escape(f, v);
		fclose(f);
		char *back = field_unescape(buf);
		if (!back || strcmp(back, v)) abort();
		free(back);
		free(buf);
	}
	for (int i = 0; i < run_result_nfields; i++)
		if (run_result_fields[i].type == FT_STR && memchr((char *)&r + run_result_fields[i].offset, 0, run_result_fields[i].size) == NULL) abort();
	/* the findings (field "diagnosis"): read back from their text form they give the same text, and
	 * hold no control characters */
	if (r.findings.n < 0 || r.findings.n > RUN_FINDINGS_MAX) abort();
	char *ftext = run_findings_text(&r.findings);
	run_findings again;
	run_findings_parse(&again, ftext);
	char *ftext2 = run_findings_text(&again);
	if (strcmp(ftext, ftext2)) abort();
	for (const unsigned char *p = (const unsigned char *)ftext; *p; p++)
		if ((*p < 0x20 && *p != '\n') || *p == 0x7f) abort();
	free(ftext);
	free(ftext2);
	char *out = NULL;
	size_t olen = 0;
	FILE *f = open_memstream(&out, &olen);
	field_write_kv(f, run_result_fields, run_result_nfields, &r);
	fclose(f);
	free(out);
	run_result_clear(&r);
	free(text);
	return 0;
}
