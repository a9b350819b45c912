/* roofline: see roofline.h. */
#include "roofline.h"
#include <math.h>
#include <string.h>
#include "json.h"
#include "util.h"

int roofline_roofs_of(const device_info *d, const char *peak, roofline_roofs *out, char *why, size_t whylen)
{
	memset(out, 0, sizeof *out);
	peak_kind pk = peak_of(peak);   /* the lesson's peak, chosen as everywhere else */
	strfmt(out->compute_name, sizeof out->compute_name, "%s", peak_label(pk));
	out->compute_gflops = peak_gflops(pk, d);
	out->mem_theoretical_gbps = d->bw_theoretical_gbps > 0 && isfinite(d->bw_theoretical_gbps) ? d->bw_theoretical_gbps : 0;
	out->mem_gbps = d->bw_attainable_gbps;
	if (out->mem_gbps <= 0) {
		out->mem_gbps = out->mem_theoretical_gbps;
		out->mem_is_theoretical = 1;
	}
	if (!d->present && out->mem_gbps <= 0) {
		strfmt(why, whylen, "no peaks to draw the roofs from: %s", d->why[0] ? d->why : "no GPU");
		return -1;
	}
	if (out->mem_gbps <= 0 || !isfinite(out->mem_gbps)) {
		strfmt(why, whylen, "this GPU's DRAM bandwidth is not known");
		return -1;
	}
	if (out->compute_gflops <= 0 || !isfinite(out->compute_gflops)) {
		strfmt(why, whylen, "this GPU's %s peak is not known (assets/arch.yaml has no rate for %s)", out->compute_name,
		       d->arch[0] ? d->arch : "it");
		return -1;
	}
	out->ridge = out->compute_gflops / out->mem_gbps;
	if (!(out->ridge > 0) || !isfinite(out->ridge)) {   /* peaks of a replay file 600 decades apart */
		strfmt(why, whylen, "this GPU's peaks are out of range: no roofs");
		return -1;
	}
	return 0;
}

double roofline_roof_at(const roofline_roofs *rf, double ai)
{
	double mem = ai * rf->mem_gbps;
	return mem < rf->compute_gflops ? mem : rf->compute_gflops;
}

int roofline_place(const roofline_roofs *rf, const run_result *r, roofline_point *out, char *why, size_t whylen)
{
	memset(out, 0, sizeof *out);
	if (r->status != RUN_OK) {
		strfmt(why, whylen, r->status == RUN_WRONG ? "its result was wrong: no point" : "its run ended in %s: no point",
		       run_status_name(r->status));
		return -1;
	}
	if (!(r->ms_median > 0) || !r->reps) {
		strfmt(why, whylen, "no time measured (compiled only)");
		return -1;
	}
	if (!(r->flops > 0)) {
		strfmt(why, whylen, "no flops in the lesson's model, so no point (it is scored in GB/s)");
		return -1;
	}
	double dram = r->dram_bytes_read >= 0 && r->dram_bytes_write >= 0 ? r->dram_bytes_read + r->dram_bytes_write : -1;
	if (dram > 0) {
		out->bytes_from = ROOF_BYTES_DRAM;
		out->bytes = dram;
	} else if (r->bytes > 0) {
		out->bytes_from = ROOF_BYTES_MODEL;
		out->bytes = r->bytes;
	} else {
		strfmt(why, whylen, "no bytes: neither counters nor the lesson's model");
		return -1;
	}
	out->intensity = r->flops / out->bytes;
	out->gflops = r->gflops > 0 ? r->gflops : r->flops / (r->ms_median * 1e-3) / 1e9;
	/* a replay file's inf or 1e308 would put the point nowhere on a chart: the renderers want finite logs */
	if (!(out->intensity > 0) || !isfinite(out->intensity) || !(out->gflops > 0) || !isfinite(out->gflops)) {
		strfmt(why, whylen, "its flops, bytes or time are out of range: no point");
		return -1;
	}
	out->roof_gflops = roofline_roof_at(rf, out->intensity);
	out->bound = out->intensity < rf->ridge ? ROOF_MEMORY : ROOF_COMPUTE;
	out->frac = out->roof_gflops > 0 ? out->gflops / out->roof_gflops : 0;
	return 0;
}

int roofline_best(const roofline_roofs *rf, const run_result *rs, int n)
{
	int best = -1;
	double top = 0;
	char why[128];
	for (int i = 0; i < n; i++) {
		roofline_point p;
		if (roofline_place(rf, &rs[i], &p, why, sizeof why) == 0 && p.gflops > top) {
			top = p.gflops;
			best = i;
		}
	}
	return best;
}

const char *roofline_bound_name(roofline_bound b) { return b == ROOF_MEMORY ? "memory" : "compute"; }
const char *roofline_bytes_name(roofline_bytes b) { return b == ROOF_BYTES_DRAM ? "dram" : "model"; }

void roofline_json(FILE *f, const roofline_roofs *rf, const run_result *r)
{
	roofline_point p;
	char why[128];
	if (!rf || roofline_place(rf, r, &p, why, sizeof why)) {
		fputs("null", f);
		return;
	}
	fprintf(f, "{\"intensity\": %.17g, \"bytes\": \"%s\", \"gflops\": %.17g, \"bound\": \"%s\", \"roof_gflops\": %.17g, "
	        "\"pct_of_roof\": %.17g, \"ridge\": %.17g, \"memory_roof_gbps\": %.17g, \"compute_roof_gflops\": %.17g, "
	        "\"compute_peak\": ", p.intensity, roofline_bytes_name(p.bytes_from), p.gflops, roofline_bound_name(p.bound),
	        p.roof_gflops, 100 * p.frac, rf->ridge, rf->mem_gbps, rf->compute_gflops);
	json_string(f, rf->compute_name);
	fputc('}', f);
}
