/* report_sass: see report_sass.h. Text from the kernel file and the listing goes through
 * fput_clean: neither may drive the terminal. */
#include "report_sass.h"
#include <string.h>
#include "util.h"

const char *sass_tag(const sass_insn *in, char *buf, size_t n)
{
	static const char *const short_names[SC_COUNT] = {
		"LDG", "STG", "LDS", "STS", "LDSM", "LDGSTS", "TMA", "LOCAL", "FFMA", "", "HMMA", "HGMMA", "SHFL", "BAR", "ATOM", "", "",
	};
	const char *s = (unsigned)in->cls < SC_COUNT ? short_names[in->cls] : "";
	if (!s[0]) { buf[0] = 0; return buf; }
	if (in->width && in->width != 32) strfmt(buf, n, "%s.%d", s, in->width);
	else strfmt(buf, n, "%s", s);
	return buf;
}

void report_sass(FILE *f, const sass_listing *l, const sass_func *fn, char *const *lines, int nlines, const char *src_path)
{
	int file = -2, line = -2;
	char tag[24];
	for (int i = fn->first; i < fn->first + fn->count; i++) {
		const sass_insn *in = &l->insn[i];
		if (in->file != file || in->line != line) {
			file = in->file;
			line = in->line;
			if (line < 1) {
				fprintf(f, "\n      (no source line)\n");
			} else if (sass_file_is(l, file, src_path) && line <= nlines) {
				fprintf(f, "\n%5d | ", line);
				fput_clean(f, lines[line - 1]);
				fputc('\n', f);
			} else {
				const char *name = file >= 0 ? strrchr(l->files[file], '/') : NULL;
				fprintf(f, "\n      (");
				fput_clean(f, name ? name + 1 : file >= 0 ? l->files[file] : "?");
				fprintf(f, ":%d)\n", line);
			}
		}
		fprintf(f, "      %04x  ", in->offset);
		fput_clean(f, in->text);
		sass_tag(in, tag, sizeof tag);
		if (tag[0]) {
			int w = (int)strlen(in->text);
			fprintf(f, "%*s[%s]", w < 56 ? 56 - w : 1, "", tag);
		}
		fputc('\n', f);
	}
}

void report_sass_counts(FILE *f, const sass_func *fn, const sass_func *prev, const char *prev_name)
{
	fprintf(f, "%s: %d instructions", fn->name, fn->count);
	if (prev) fprintf(f, " (%s: %d)", prev_name ? prev_name : prev->name, prev->count);
	fputc('\n', f);
	for (int c = 0; c < SC_COUNT; c++) {
		if (c == SC_OTHER || (!fn->counts[c] && !(prev && prev->counts[c]))) continue;
		fprintf(f, "  %-14s %6d", sass_class_name((sass_class)c), fn->counts[c]);
		if (prev) fprintf(f, "   (was %d)", prev->counts[c]);
		if (c == SC_LDG && fn->ldg128) fprintf(f, "   %d of them 128-bit", fn->ldg128);
		if (c == SC_LDS && fn->lds128) fprintf(f, "   %d of them 128-bit", fn->lds128);
		fputc('\n', f);
	}
}
