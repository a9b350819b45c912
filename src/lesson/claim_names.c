/* claim_names: see claim_names.h. */
#include "claim_names.h"
#include <string.h>

static const char *const diag_var_names[V_COUNT + 1] = {
	"achieved_occupancy", "theoretical_occupancy", "dram_bytes", "dram_bytes_read", "dram_bytes_write",
	"dram_pct", "model_bytes", "model_flops", "intensity", "bytes_ratio", "l1_hit_pct", "l2_hit_pct",
	"smem_conflicts", "smem_conflicts_ld", "smem_conflicts_st", "smem_conflicts_per_warp",
	"warp_efficiency", "branch_uniform_pct", "sm_pct", "tensor_pct",
	"smem_conflicts_ld_per_warp", "smem_conflicts_st_per_warp", "warp_efficiency_pred_on", "tensor_inst",
	"tensor_sass", "smem_wavefronts", "smem_conflict_pct", "l1_pct", "gld_sectors_per_request",
	"blocks", "threads_per_block", "warps", "sm_count", "occ_blocks", "waves",
	"occ_limiter_regs", "occ_limiter_smem", "occ_limiter_warps", "occ_limiter_blocks",
	"regs", "spill_stores", "spill_loads", "static_smem", "dynamic_smem",
	"ms", "gbps", "gflops", "pct_attainable_bw", "pct_theoretical_bw", "pct_compute_peak",
	"peak_bw_gbps", "peak_gflops", "working_set", "fits_l2",
	"max_abs_err", "max_rel_err", "norm_rel_err",
	"h2d_bytes", "d2h_bytes", "copy_bytes", "kernel_ms", "copy_ms", "copy_share", "h2d_gbps", "d2h_gbps",
	"stall_long_scoreboard", "stall_barrier", "stall_mio_throttle", "stall_short_scoreboard", "stall_wait",
	"stall_not_selected", "stall_math_pipe_throttle", "stall_lg_throttle", "stall_membar",
	"stall_dispatch_stall", "stall_drain", "stall_imc_miss", "stall_no_instruction", "stall_sleeping",
	"stall_branch_resolving", "stall_tex_throttle", "stall_selected",
	NULL,
};

static const char *const extra_names[X_COUNT + 1] = { "time_vs_prev", "time_vs_baseline", "speedup_vs_prev", "speedup_vs_baseline",
                                                      "bound_ms", "kernel_ms", "time_vs_bound", "h2d_bytes", "d2h_bytes",
                                                      "h2d_gbps", "d2h_gbps", "sm_clock_mhz", "sm_clock_min_mhz",
                                                      "sm_clock_max_mhz", "power_w", "power_max_w", "clock_vs_prev", NULL };

/* The device values a when: condition may use. */
static const char *const device_names[] = { "cc", "sm_count", "l2_bytes", "warp_size", "max_threads_per_block",
                                            "max_shared_per_block", "copy_engines", NULL };

const char *const *diagnose_names(void) { return diag_var_names; }

int claims_extra_find(const char *name, size_t len)
{
	for (int i = 0; i < X_COUNT; i++)
		if (strlen(extra_names[i]) == len && !memcmp(extra_names[i], name, len)) return i;
	return -1;
}

const char *const *claims_extra_names(void) { return extra_names; }
const char *const *claims_device_names(void) { return device_names; }

/* The stage id in "time_vs_ID" / "speedup_vs_ID" / "clock_vs_ID" (*kind 0, 1, 2), or NULL. */
static const char *stage_ratio(const char *name, size_t len, size_t *idlen, int *kind)
{
	static const char *const pre[3] = { "time_vs_", "speedup_vs_", "clock_vs_" };
	for (int k = 0; k < 3; k++) {
		size_t n = strlen(pre[k]);
		if (len <= n || strncmp(name, pre[k], n)) continue;
		for (size_t i = n; i < len; i++)
			if (!((name[i] >= 'a' && name[i] <= 'z') || (name[i] >= 'A' && name[i] <= 'Z') || (name[i] >= '0' && name[i] <= '9') || name[i] == '_'))
				return NULL;
		*idlen = len - n;
		*kind = k;
		return name + n;
	}
	return NULL;
}

int claims_stage_ratio(const char *name, size_t len, const char **id, size_t *idlen)
{
	int kind;
	if (claims_extra_find(name, len) >= 0) return 0;
	*id = stage_ratio(name, len, idlen, &kind);
	return *id != NULL;
}

int claims_name_known(const char *name, size_t len)
{
	if (claims_extra_find(name, len) >= 0) return 1;
	const char *id;
	size_t idlen;
	if (claims_stage_ratio(name, len, &id, &idlen)) return 1;   /* the loader checks that the stage exists */
	for (const char *const *d = diagnose_names(); *d; d++)
		if (strlen(*d) == len && !memcmp(*d, name, len)) return 1;
	return 0;
}

int claims_device_name_known(const char *name, size_t len)
{
	for (const char *const *d = device_names; *d; d++)
		if (strlen(*d) == len && !memcmp(*d, name, len)) return 1;
	return 0;
}

size_t claims_placeholder(const char *p)
{
	if (*p != '{' || !((p[1] >= 'a' && p[1] <= 'z') || p[1] == '_')) return 0;
	size_t n = 1;
	while ((p[n] >= 'a' && p[n] <= 'z') || (p[n] >= '0' && p[n] <= '9') || p[n] == '_') n++;
	return p[n] == '}' ? n - 1 : 0;
}

long claims_text_check(const char *text, size_t *name_len)
{
	for (const char *p = text ? strchr(text, '{') : NULL; p; p = strchr(p + 1, '{')) {
		size_t n = claims_placeholder(p);
		if (n && !claims_name_known(p + 1, n)) {
			if (name_len) *name_len = n;
			return (long)(p - text);
		}
	}
	return -1;
}
