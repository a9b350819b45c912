/* Tests for src/engine/arch.c (assets/arch.yaml) and src/engine/occupancy.c. Run from the repository root.
 *
 * Every expected occupancy is worked out by hand from the documented rules, the arithmetic next to
 * the assertion:
 *   warps per block   = ceil(threads / 32)
 *   by warps          = floor(max warps per SM / warps per block)
 *   registers         = regs x 32 per warp, rounded up to 256; an SM is 4 sub-partitions of
 *                       regs_per_sm / 4 each, so warps per SM = 4 x floor((regs_per_sm/4) / per-warp);
 *                       by regs = floor(that / warps per block); a block fits only if
 *                       per-warp x roundup(warps per block, 4) <= regs_per_block
 *   shared memory     = static + dynamic + reserved (1 KiB from sm_80, 0 on sm_75), rounded up to
 *                       128 bytes (256 on sm_7x); by smem = floor(smem per SM / that), with the default
 *                       carveout giving the whole smem_per_sm
 *   blocks            = max_blocks_per_sm
 *   active blocks     = min of the four; occupancy = active blocks x warps per block / max warps.
 *
 * Cross-checked once on an H200 (sm_90, 2026-11): occ_compute with the sm_90 entry agreed with
 * cudaOccupancyMaxActiveBlocksPerMultiprocessor on 1386 combinations (11 register counts from 24 to
 * 137, 14 block sizes from 1 to 1024, 9 dynamic shared memory sizes up to 227 KiB), and the device's
 * properties matched the entry's limits. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arch.h"
#include "occupancy.h"

#define TABLE "assets/arch.yaml"

static char tmpdir[64];

static int group_setup(void **state)
{
	char err[512];
	(void)state;
	strcpy(tmpdir, "/tmp/cc_occ_test_XXXXXX");
	if (!mkdtemp(tmpdir))
		return -1;
	if (arch_load(TABLE, err, sizeof err) != 0) {
		fprintf(stderr, "%s\n", err);
		return -1;
	}
	return 0;
}

static int group_teardown(void **state)
{
	(void)state;
	arch_unload();
	DIR *d = opendir(tmpdir); /* files a failed test left behind */
	if (d) {
		struct dirent *de;
		char p[512];
		while ((de = readdir(d)))
			if (de->d_name[0] != '.') {
				snprintf(p, sizeof p, "%s/%s", tmpdir, de->d_name);
				unlink(p);
			}
		closedir(d);
	}
	rmdir(tmpdir);
	return 0;
}

static const arch_info *arch(const char *name)
{
	const arch_info *a = arch_find(name);
	assert_non_null(a);
	return a;
}

/* occ_compute that must succeed. */
static occ_result occ(const char *name, int threads, int regs, size_t static_smem, size_t dynamic_smem)
{
	occ_kernel k = {threads, regs, static_smem, dynamic_smem};
	occ_result r;
	char err[256] = "";
	int rc = occ_compute(arch(name), &k, &r, err, sizeof err);
	if (rc != 0)
		fail_msg("%s %d threads %d regs %zu+%zu smem: %s", name, threads, regs, static_smem, dynamic_smem, err);
	return r;
}

/* occ_compute that must fail; the message is left in err. */
static occ_result occ_fail(const char *name, int threads, int regs, size_t static_smem, size_t dynamic_smem,
			   char *err, size_t errlen)
{
	occ_kernel k = {threads, regs, static_smem, dynamic_smem};
	occ_result r;
	assert_int_equal(occ_compute(arch(name), &k, &r, err, errlen), -1);
	assert_true(err[0] != 0);
	return r;
}

#define assert_occ(r, pct) assert_true((r).occupancy > (pct) / 100.0 - 1e-9 && (r).occupancy < (pct) / 100.0 + 1e-9)

/* ---------------------------------------------------------------- the table */

static void test_table_loads(void **state)
{
	(void)state;
	assert_int_equal(arch_count(), 8);
	assert_string_equal(arch_at(0)->name, "sm_75");
	assert_string_equal(arch_at(4)->name, "sm_90");
	assert_string_equal(arch_at(5)->name, "sm_100");
	assert_string_equal(arch_at(6)->name, "sm_103");
	assert_string_equal(arch_at(7)->name, "sm_120");
	assert_null(arch_at(8));
	assert_null(arch_at(-1));
}

static void test_find_spellings(void **state)
{
	(void)state;
	const arch_info *h = arch("sm_90");
	assert_ptr_equal(arch_find("sm_90a"), h);
	assert_ptr_equal(arch_find("90"), h);
	assert_ptr_equal(arch_find("9.0"), h);
	assert_ptr_equal(arch_find("90a"), h);
	assert_ptr_equal(arch_find("compute_90"), h);
	assert_string_equal(arch_find("8.6")->name, "sm_86");
	assert_string_equal(arch_find("sm_75")->name, "sm_75");
	assert_null(arch_find("sm_91"));
	assert_null(arch_find("9"));
	assert_null(arch_find("sm_90x"));
	assert_null(arch_find("sm_90aa"));
	assert_null(arch_find("9.0.1"));
	assert_null(arch_find("9."));
	assert_null(arch_find(""));
	assert_null(arch_find("sm_"));
	assert_null(arch_find(NULL));
}

/* The per-arch limits in /work/shared/REFERENCES.md (and the Programming Guide):
 * max warps 32/64/48/48/64, max blocks 16/32/16/24/32, smem per SM 64K/164K/100K/100K/228K,
 * reserved per block 0/1K/1K/1K/1K, for sm_75/80/86/89/90. */
static void test_table_values(void **state)
{
	(void)state;
	static const struct {
		const char *n;
		int warps, blocks;
		size_t smem_k, optin_k, reserved;
	} want[] = {
		{"sm_75", 32, 16, 64, 64, 0},   {"sm_80", 64, 32, 164, 163, 1024}, {"sm_86", 48, 16, 100, 99, 1024},
		{"sm_89", 48, 24, 100, 99, 1024}, {"sm_90", 64, 32, 228, 227, 1024},
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		const arch_info *a = arch(want[i].n);
		assert_int_equal(a->max_threads_per_sm / a->warp_size, want[i].warps);
		assert_int_equal(a->max_blocks_per_sm, want[i].blocks);
		assert_int_equal(a->smem_per_sm, want[i].smem_k * 1024);
		assert_int_equal(a->smem_per_block_optin, want[i].optin_k * 1024);
		assert_int_equal(a->smem_reserved_per_block, want[i].reserved);
		assert_int_equal(a->smem_per_block, 48 * 1024);
		assert_int_equal(a->regs_per_sm, 65536);
		assert_int_equal(a->max_regs_per_thread, 255);
		assert_int_equal(a->max_threads_per_block, 1024);
	}
	/* 989.4e12 / (132 x 1.83e9) = 4096; 312e12 / (108 x 1.41e9) = 2048 */
	assert_true(arch("sm_90")->bf16_tensor_flops_per_clk_per_sm == 4096.0);
	assert_true(arch("sm_90")->tf32_tensor_flops_per_clk_per_sm == 2048.0);
	assert_true(arch("sm_80")->bf16_tensor_flops_per_clk_per_sm == 2048.0);
	assert_true(arch("sm_75")->bf16_tensor_flops_per_clk_per_sm == 0.0);
	/* FP8: 1978.9e12 / (132 x 1.83e9) = 8192 on Hopper, none before Ada; FP64 FMA: 64 lanes on the
	 * data-centre parts, 1/64 of FP32 on GeForce Ampere and Ada */
	assert_true(arch("sm_90")->fp8_tensor_flops_per_clk_per_sm == 8192.0);
	assert_true(arch("sm_89")->fp8_tensor_flops_per_clk_per_sm == 1024.0);
	assert_true(arch("sm_80")->fp8_tensor_flops_per_clk_per_sm == 0.0);
	assert_true(arch("sm_90")->int8_tensor_ops_per_clk_per_sm == 8192.0);   /* 1979 TOPS dense, FP8's rate */
	assert_true(arch("sm_80")->int8_tensor_ops_per_clk_per_sm == 4096.0);   /* 624 TOPS dense on the A100 */
	assert_true(arch("sm_75")->int8_tensor_ops_per_clk_per_sm == 2048.0);
	assert_true(arch("sm_90")->fp64_flops_per_clk_per_sm == 128.0);
	assert_true(arch("sm_80")->fp64_flops_per_clk_per_sm == 64.0);
	assert_true(arch("sm_86")->fp64_flops_per_clk_per_sm == 4.0);
	assert_int_equal(arch("sm_90")->typical_sm_count, 132);
	assert_int_equal(arch("sm_90")->typical_l2_bytes, 50u << 20);
	assert_string_equal(arch("sm_90")->typical_part, "H100 SXM");
}

/* The table's max_blocks_per_sm agrees with the calculator's own per-arch block limit. */
static void test_table_blocks_match_calculator(void **state)
{
	(void)state;
	for (int i = 0; i < arch_count(); i++) {
		const arch_info *a = arch_at(i);
		occ_result r = occ(a->name, 32, 16, 0, 0);
		assert_int_equal(r.blocks_by_blocks, a->max_blocks_per_sm);
		assert_int_equal(r.max_warps, a->max_threads_per_sm / 32);
	}
}

/* ---------------------------------------------------------------- occupancy */

static void test_sm90_full(void **state)
{
	(void)state;
	occ_result r = occ("sm_90", 256, 32, 0, 0);
	assert_int_equal(r.blocks_by_warps, 8);   /* 64 warps / 8 warps per block */
	assert_int_equal(r.blocks_by_regs, 8);    /* 32x32 = 1024 per warp; 16384/1024 = 16 warps per
						     sub-partition x 4 = 64 warps; 64/8 = 8 */
	assert_int_equal(r.blocks_by_smem, 228);  /* 0 + 1 KiB reserved: 228 KiB / 1 KiB */
	assert_int_equal(r.blocks_by_blocks, 32);
	assert_int_equal(r.active_blocks, 8);     /* min(8, 8, 228, 32) */
	assert_int_equal(r.active_warps, 64);     /* 8 x 8 */
	assert_int_equal(r.max_warps, 64);
	assert_occ(r, 100);                       /* 64 / 64 */
	assert_int_equal(r.limiter, OCC_LIMIT_WARPS); /* warps and registers tie at 8: warps named first */
}

static void test_sm90_registers(void **state)
{
	(void)state;
	occ_result r = occ("sm_90", 256, 64, 0, 0);
	assert_int_equal(r.blocks_by_regs, 4);    /* 64x32 = 2048 per warp; 16384/2048 = 8 x 4 = 32 warps;
						     32/8 = 4 (= 65536 / (64 x 256)) */
	assert_int_equal(r.blocks_by_warps, 8);
	assert_int_equal(r.active_blocks, 4);
	assert_int_equal(r.active_warps, 32);     /* 4 x 8 */
	assert_occ(r, 50);                        /* 32 / 64 */
	assert_int_equal(r.limiter, OCC_LIMIT_REGISTERS);
	assert_string_equal(occ_limiter_name(r.limiter), "registers");
}

/* Registers are given out 256 per warp: 33 registers cost as much as 40. */
static void test_sm90_register_granularity(void **state)
{
	(void)state;
	occ_result r = occ("sm_90", 256, 33, 0, 0);
	/* 33 x 32 = 1056 -> rounded up to 1280 (= 40 per thread); 16384 / 1280 = 12.8 -> 12 warps per
	 * sub-partition x 4 = 48 warps; 48 / 8 = 6 blocks. Without the rounding: 65536 / (33 x 256) = 7.76
	 * -> 7 blocks. */
	assert_int_equal(r.blocks_by_regs, 6);
	assert_int_equal(r.active_blocks, 6);
	assert_int_equal(r.active_warps, 48);     /* 6 x 8 */
	assert_occ(r, 75);                        /* 48 / 64 */
	assert_int_equal(r.limiter, OCC_LIMIT_REGISTERS);
	/* 40 registers give the same: the rounding made 33 cost 40. */
	occ_result r40 = occ("sm_90", 256, 40, 0, 0);
	assert_int_equal(r40.active_blocks, 6);
	/* 32 registers: 1024 per warp, 8 blocks (test_sm90_full). */
}

/* Registers live in 4 sub-partitions: a warp's registers cannot straddle two. */
static void test_sm90_register_subpartitions(void **state)
{
	(void)state;
	occ_result r = occ("sm_90", 96, 40, 0, 0);
	/* 3 warps per block. 40 x 32 = 1280 per warp; 16384 / 1280 = 12 warps per sub-partition x 4 = 48
	 * warps (the whole file would hold 65536 / 1280 = 51); 48 / 3 = 16 blocks (51 / 3 = 17). Warps:
	 * 64 / 3 = 21; blocks 32. */
	assert_int_equal(r.blocks_by_warps, 21);
	assert_int_equal(r.blocks_by_regs, 16);
	assert_int_equal(r.active_blocks, 16);
	assert_int_equal(r.active_warps, 48);     /* 16 x 3 */
	assert_occ(r, 75);
	assert_int_equal(r.limiter, OCC_LIMIT_REGISTERS);
}

static void test_sm90_shared(void **state)
{
	(void)state;
	occ_result r = occ("sm_90", 128, 32, 0, 48 * 1024);
	/* 49152 + 1024 reserved = 50176 (a multiple of 128); 233472 (228 KiB) / 50176 = 4.65 -> 4.
	 * With carveoutConfig = 0 ("max L1") the calculator would give the SM only 64 KiB: 1 block. */
	assert_int_equal(r.blocks_by_smem, 4);
	assert_int_equal(r.blocks_by_warps, 16);  /* 64 / 4 */
	assert_int_equal(r.blocks_by_regs, 16);   /* 64 warps by registers / 4 */
	assert_int_equal(r.active_blocks, 4);
	assert_int_equal(r.active_warps, 16);     /* 4 x 4 */
	assert_occ(r, 25);                        /* 16 / 64 */
	assert_int_equal(r.limiter, OCC_LIMIT_SHARED);
	assert_string_equal(occ_limiter_name(r.limiter), "shared memory");
}

/* The whole opt-in limit in one block: 227 KiB + 1 KiB reserved = 228 KiB = the SM. */
static void test_sm90_shared_at_optin(void **state)
{
	char err[256];
	(void)state;
	occ_result r = occ("sm_90", 128, 32, 0, 232448);
	assert_int_equal(r.active_blocks, 1);     /* 233472 / 233472 */
	assert_int_equal(r.active_warps, 4);
	assert_occ(r, 6.25);                      /* 4 / 64 */
	assert_int_equal(r.limiter, OCC_LIMIT_SHARED);
	/* One byte more is over the limit. */
	occ_fail("sm_90", 128, 32, 0, 232449, err, sizeof err);
	assert_string_equal(err, "232449 bytes of shared memory per block is over the 227 KiB this GPU allows");
}

static void test_sm90_1024_threads(void **state)
{
	char err[256];
	(void)state;
	occ_result r = occ("sm_90", 1024, 64, 0, 0);
	/* 32 warps; 64 x 32 = 2048 per warp x 32 = 65536 = regs_per_block, fits; 16384 / 2048 = 8 x 4 = 32
	 * warps -> 1 block; warps 64 / 32 = 2. */
	assert_int_equal(r.blocks_by_warps, 2);
	assert_int_equal(r.blocks_by_regs, 1);
	assert_int_equal(r.active_blocks, 1);
	assert_occ(r, 50);                        /* 32 / 64 */
	assert_int_equal(r.limiter, OCC_LIMIT_REGISTERS);

	/* 65 registers: 2080 -> 2304 per warp x 32 = 73728 > 65536: no block fits. */
	r = occ_fail("sm_90", 1024, 65, 0, 0, err, sizeof err);
	assert_int_equal(r.active_blocks, 0);
	assert_int_equal(r.blocks_by_regs, 0);
	assert_int_equal(r.limiter, OCC_LIMIT_REGISTERS);
	assert_non_null(strstr(err, "73728 registers"));

	/* 255 registers: 8160 -> 8192 per warp x 32 = 262144 > 65536: no block fits. */
	r = occ_fail("sm_90", 1024, 255, 0, 0, err, sizeof err);
	assert_int_equal(r.active_blocks, 0);
	assert_int_equal(r.active_warps, 0);
	assert_occ(r, 0);
	assert_int_equal(r.limiter, OCC_LIMIT_REGISTERS);
	assert_non_null(strstr(err, "a block of 1024 threads at 255 registers per thread needs 262144 registers"));
}

/* The hardware checks a block's registers as if it had a multiple of 4 warps. */
static void test_sm90_register_check_rounds_warps(void **state)
{
	char err[256];
	(void)state;
	/* 800 threads = 25 warps; 80 x 32 = 2560 per warp; 25 x 2560 = 64000 <= 65536, but the check uses
	 * roundup(25, 4) = 28 warps: 28 x 2560 = 71680 > 65536, so no block fits. (On an H200, launching
	 * 800 threads of an 80-register kernel failed: "too many resources requested for launch"; 72
	 * registers launched.) */
	occ_result r = occ_fail("sm_90", 800, 80, 0, 0, err, sizeof err);
	assert_int_equal(r.active_blocks, 0);
	assert_int_equal(r.limiter, OCC_LIMIT_REGISTERS);
	assert_non_null(strstr(err, "groups of 4 warps"));
	/* 72 registers: 2304 x 28 = 64512 <= 65536 fits; 16384 / 2304 = 7 x 4 = 28 warps -> 1 block of 25. */
	r = occ("sm_90", 800, 72, 0, 0);
	assert_int_equal(r.active_blocks, 1);
	assert_int_equal(r.active_warps, 25);
}

static void test_sm75_blocks(void **state)
{
	(void)state;
	occ_result r = occ("sm_75", 32, 32, 0, 0);
	/* 1 warp per block: warps 32 / 1 = 32; registers 1024 per warp: 16 x 4 = 64 warps -> 64 blocks;
	 * shared memory none and no reservation on sm_75 -> no limit (INT_MAX); blocks 16. */
	assert_int_equal(r.blocks_by_warps, 32);
	assert_int_equal(r.blocks_by_regs, 64);
	assert_int_equal(r.blocks_by_smem, INT_MAX);
	assert_int_equal(r.blocks_by_blocks, 16);
	assert_int_equal(r.active_blocks, 16);
	assert_int_equal(r.active_warps, 16);
	assert_int_equal(r.max_warps, 32);
	assert_occ(r, 50);                        /* 16 / 32 */
	assert_int_equal(r.limiter, OCC_LIMIT_BLOCKS);
	assert_string_equal(occ_limiter_name(r.limiter), "blocks per SM");
}

static void test_sm75_full(void **state)
{
	(void)state;
	occ_result r = occ("sm_75", 256, 32, 0, 0);
	/* 8 warps; warps 32 / 8 = 4; registers 64 warps / 8 = 8; blocks 16 -> 4 blocks, 32 warps. */
	assert_int_equal(r.active_blocks, 4);
	assert_int_equal(r.active_warps, 32);
	assert_occ(r, 100);
	assert_int_equal(r.limiter, OCC_LIMIT_WARPS);
	assert_string_equal(occ_limiter_name(r.limiter), "warps per SM");
}

/* Shared memory is given out in 256-byte units on sm_7x. */
static void test_sm75_shared_granularity(void **state)
{
	(void)state;
	occ_result r = occ("sm_75", 128, 32, 0, 16385);
	/* 16385 -> rounded up to 16640 (65 x 256); 65536 / 16640 = 3.94 -> 3 blocks; 3 x 4 warps = 12 of
	 * 32. (One byte less, 16384, gives 4.) */
	assert_int_equal(r.blocks_by_smem, 3);
	assert_int_equal(r.active_blocks, 3);
	assert_int_equal(r.active_warps, 12);
	assert_occ(r, 37.5);
	assert_int_equal(r.limiter, OCC_LIMIT_SHARED);
	r = occ("sm_75", 128, 32, 0, 16384);
	assert_int_equal(r.blocks_by_smem, 4);    /* 65536 / 16384 */
	r = occ("sm_75", 128, 32, 0, 13057);
	/* 13057 -> 13312 (52 x 256): 65536 / 13312 = 4.92 -> 4 blocks; unrounded 65536 / 13057 = 5.02 -> 5. */
	assert_int_equal(r.blocks_by_smem, 4);
}

static void test_sm80_shared(void **state)
{
	(void)state;
	occ_result r = occ("sm_80", 256, 32, 16384, 16384);
	/* 16384 static + 16384 dynamic + 1024 reserved = 33792; 167936 (164 KiB) / 33792 = 4.97 -> 4;
	 * warps 64 / 8 = 8; registers 8. 4 x 8 = 32 warps of 64. */
	assert_int_equal(r.blocks_by_smem, 4);
	assert_int_equal(r.active_blocks, 4);
	assert_int_equal(r.active_warps, 32);
	assert_occ(r, 50);
	assert_int_equal(r.limiter, OCC_LIMIT_SHARED);
}

static void test_sm80_blocks(void **state)
{
	(void)state;
	occ_result r = occ("sm_80", 32, 16, 0, 0);
	/* 1 warp; warps 64; registers 16 x 32 = 512 per warp: 16384 / 512 = 32 x 4 = 128; shared 1 KiB
	 * reserved: 164; blocks 32 -> 32 blocks, 32 warps of 64. */
	assert_int_equal(r.blocks_by_regs, 128);
	assert_int_equal(r.blocks_by_smem, 164);
	assert_int_equal(r.active_blocks, 32);
	assert_occ(r, 50);
	assert_int_equal(r.limiter, OCC_LIMIT_BLOCKS);
}

static void test_sm86_shared(void **state)
{
	(void)state;
	occ_result r = occ("sm_86", 256, 32, 0, 48 * 1024);
	/* 49152 + 1024 = 50176; 102400 (100 KiB) / 50176 = 2.04 -> 2; 2 x 8 = 16 warps of 48. */
	assert_int_equal(r.active_blocks, 2);
	assert_int_equal(r.active_warps, 16);
	assert_int_equal(r.max_warps, 48);
	assert_true(r.occupancy > 16.0 / 48 - 1e-9 && r.occupancy < 16.0 / 48 + 1e-9);
	assert_int_equal(r.limiter, OCC_LIMIT_SHARED);
}

static void test_sm89_block_size_quantum(void **state)
{
	(void)state;
	occ_result r = occ("sm_89", 1024, 32, 0, 0);
	/* 32 warps per block; 48 / 32 = 1 block; registers 64 warps / 32 = 2; blocks 24. 32 of 48 warps. */
	assert_int_equal(r.blocks_by_warps, 1);
	assert_int_equal(r.blocks_by_regs, 2);
	assert_int_equal(r.active_blocks, 1);
	assert_true(r.occupancy > 32.0 / 48 - 1e-9 && r.occupancy < 32.0 / 48 + 1e-9);
	assert_int_equal(r.limiter, OCC_LIMIT_WARPS);
	/* 768 threads (24 warps): 48 / 24 = 2 blocks, 48 of 48 warps. */
	r = occ("sm_89", 768, 32, 0, 0);
	assert_int_equal(r.active_blocks, 2);
	assert_occ(r, 100);
}

/* A partial warp costs a whole warp. */
static void test_partial_warp(void **state)
{
	(void)state;
	occ_result r = occ("sm_90", 100, 32, 0, 0);
	/* ceil(100 / 32) = 4 warps; 64 / 4 = 16 blocks, 64 warps: "100%" though only 1600 of 2048 threads. */
	assert_int_equal(r.active_blocks, 16);
	assert_int_equal(r.active_warps, 64);
	assert_occ(r, 100);
}

static void test_zero_registers(void **state)
{
	(void)state;
	occ_result r = occ("sm_90", 256, 0, 0, 0);
	assert_int_equal(r.blocks_by_regs, INT_MAX); /* no registers, no limit */
	assert_int_equal(r.active_blocks, 8);
}

/* ---------------------------------------------------------------- user errors */

static void test_errors(void **state)
{
	char err[256];
	(void)state;
	occ_fail("sm_90", 2048, 32, 0, 0, err, sizeof err);
	assert_string_equal(err, "a block of 2048 threads is over this GPU's limit of 1024");
	occ_fail("sm_90", 0, 32, 0, 0, err, sizeof err);
	assert_non_null(strstr(err, "a block of 0 threads cannot run"));
	occ_fail("sm_90", -5, 32, 0, 0, err, sizeof err);
	occ_fail("sm_90", 256, 256, 0, 0, err, sizeof err);
	assert_string_equal(err, "256 registers per thread is over this GPU's limit of 255");
	occ_fail("sm_90", 256, -1, 0, 0, err, sizeof err);
	occ_fail("sm_90", 256, 32, 0, 240000, err, sizeof err);
	assert_string_equal(err, "240000 bytes of shared memory per block is over the 227 KiB this GPU allows");
	occ_fail("sm_86", 256, 32, 1024, 100353, err, sizeof err);
	assert_string_equal(err, "101377 bytes of shared memory per block is over the 99 KiB this GPU allows");
	occ_fail("sm_75", 256, 32, 0, 65537, err, sizeof err);
	assert_string_equal(err, "65537 bytes of shared memory per block is over the 64 KiB this GPU allows");
	occ_fail("sm_90", 256, 32, 49153, 0, err, sizeof err);
	assert_non_null(strstr(err, "static (__shared__) memory is over the 48 KiB"));
	occ_fail("sm_90", 256, 32, 1024, SIZE_MAX, err, sizeof err); /* no wrap-around */
	assert_non_null(strstr(err, "over the 227 KiB"));

	/* Unknown to cuda_occupancy.h (13.0 knows up to 12.x). */
	arch_info a = *arch("sm_90");
	a.cc = 150;
	occ_kernel k = {256, 32, 0, 0};
	occ_result r;
	assert_int_equal(occ_compute(&a, &k, &r, err, sizeof err), -1);
	assert_non_null(strstr(err, "compute capability 15.0 is unknown"));
	/* Nonsense limits are refused before they reach the calculator. */
	a = *arch("sm_90");
	a.warp_size = 0;
	assert_int_equal(occ_compute(&a, &k, &r, err, sizeof err), -1);
	assert_int_equal(occ_compute(NULL, &k, &r, err, sizeof err), -1);
	assert_int_equal(occ_compute(arch("sm_90"), NULL, &r, err, sizeof err), -1);
	assert_int_equal(occ_compute(arch("sm_90"), &k, NULL, NULL, 0), -1);
	assert_string_equal(occ_limiter_name(OCC_LIMIT_NONE), "none");
}

/* ---------------------------------------------------------------- arch.yaml errors */

static const char *const good[] = {
	"- name: sm_90",
	"  cc: 90",
	"  max_threads_per_block: 1024",
	"  max_threads_per_sm: 2048",
	"  max_blocks_per_sm: 32",
	"  regs_per_sm: 65536",
	"  regs_per_block: 65536",
	"  max_regs_per_thread: 255",
	"  warp_size: 32",
	"  smem_per_sm: 233472",
	"  smem_per_block: 49152",
	"  smem_per_block_optin: 232448",
	"  smem_reserved_per_block: 1024",
	"  fp32_lanes_per_sm: 128",
	"  bf16_tensor_flops_per_clk_per_sm: 4096",
	"  fp16_tensor_flops_per_clk_per_sm: 4096.0",
	"  tf32_tensor_flops_per_clk_per_sm: 2.048e3",
	"  typical_sm_count: 132",
	"  typical_l2_bytes: 52428800",
	"  typical_clock_mhz: 1980",
	"  typical_part: H100 SXM",
	"  fp8_tensor_flops_per_clk_per_sm: 8192",
	"  fp64_flops_per_clk_per_sm: 128",
	"  int8_tensor_ops_per_clk_per_sm: 8192",
};
#define NGOOD ((int)(sizeof good / sizeof good[0]))

/* Writes the good entry to a file in tmpdir, line `at` (1-based) replaced by `with` (NULL: dropped;
 * with `insert`, `with` goes before line `at` instead), after `prefix` lines. Returns the path. */
static const char *write_yaml(const char *file, const char *prefix, int at, const char *with, int insert)
{
	static char path[128];
	snprintf(path, sizeof path, "%s/%s", tmpdir, file);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	if (prefix)
		fputs(prefix, f);
	for (int i = 1; i <= NGOOD; i++) {
		if (i == at) {
			if (with)
				fprintf(f, "%s\n", with);
			if (!insert)
				continue;
		}
		fprintf(f, "%s\n", good[i - 1]);
	}
	fclose(f);
	return path;
}

static const char *write_raw(const char *file, const char *text)
{
	static char path[128];
	snprintf(path, sizeof path, "%s/%s", tmpdir, file);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return path;
}

/* Loads path, expecting failure with a message that starts "path:line:col: " and contains `has`. */
static void expect_error(const char *path, int line, int col, const char *has)
{
	char err[512], want[256];
	int before = arch_count();
	assert_int_equal(arch_load(path, err, sizeof err), -1);
	snprintf(want, sizeof want, "%s:%d:%d: ", path, line, col);
	if (strncmp(err, want, strlen(want)) != 0)
		fail_msg("expected '%s...', got '%s'", want, err);
	if (has && !strstr(err, has))
		fail_msg("expected '%s' in '%s'", has, err);
	assert_int_equal(arch_count(), before);   /* a failed load keeps the table */
	unlink(path);
}

static void test_yaml_good_entry(void **state)
{
	char err[512];
	(void)state;
	const char *p = write_yaml("good.yaml", NULL, 0, NULL, 0);
	assert_int_equal(arch_load(p, err, sizeof err), 0);
	assert_int_equal(arch_count(), 1);
	assert_true(arch_find("sm_90")->tf32_tensor_flops_per_clk_per_sm == 2048.0);
	assert_null(arch_find("sm_80"));
	unlink(p);
	assert_int_equal(arch_load(TABLE, err, sizeof err), 0);
	assert_int_equal(arch_count(), 8);
}

static void test_yaml_syntax_errors(void **state)
{
	(void)state;
	/* A second ':' on line 2: "  cc: 90: 1", column 9. */
	expect_error(write_yaml("colon.yaml", NULL, 2, "  cc: 90: 1", 0), 2, 9,
		     "mapping values are not allowed in this context");
	/* A tab as indentation on line 3. */
	expect_error(write_yaml("tab.yaml", NULL, 3, "\tmax_threads_per_block: 1024", 0), 3, 1, "tab");
	/* An unclosed quote on the last line runs to the end of the file: shown where it opens. */
	expect_error(write_yaml("quote.yaml", NULL, NGOOD, "  typical_part: \"H100", 0), NGOOD, 17,
		     "the quote opened on line");
	/* Invalid UTF-8 on line 4, at byte 5. */
	expect_error(write_yaml("utf8.yaml", NULL, 4, "  max\xff_threads_per_sm: 2048", 0), 4, 6, "UTF-8");
}

static void test_yaml_meaning_errors(void **state)
{
	(void)state;
	/* Unknown key inserted as line 5. */
	expect_error(write_yaml("unknown.yaml", NULL, 5, "  colour: blue", 1), 5, 3, "unknown field 'colour'");
	/* Missing field: the entry starts on line 3 (after two comment lines), at column 3 ("name"). */
	expect_error(write_yaml("missing.yaml", "# one\n# two\n", 9, NULL, 0), 3, 3, "missing field 'warp_size'");
	/* Not a number, at the value: "  regs_per_sm: 64k" -> column 16. */
	expect_error(write_yaml("bad.yaml", NULL, 6, "  regs_per_sm: 64k", 0), 6, 16, "not a whole number");
	expect_error(write_yaml("neg.yaml", NULL, 9, "  warp_size: -32", 0), 9, 14, "out of range");
	expect_error(write_yaml("zero.yaml", NULL, 9, "  warp_size: 0", 0), 9, 14, "out of range");
	expect_error(write_yaml("huge.yaml", NULL, 2, "  cc: 99999999999999999999", 0), 2, 7, "out of range");
	expect_error(write_yaml("dbl.yaml", NULL, 15, "  bf16_tensor_flops_per_clk_per_sm: 4k", 0), 15, 37,
		     "not a number");
	expect_error(write_yaml("nan.yaml", NULL, 15, "  bf16_tensor_flops_per_clk_per_sm: .nan", 0), 15, 37,
		     "not a number");
	expect_error(write_yaml("empty.yaml", NULL, 2, "  cc:", 0), 2, 6, "cc needs a number");
	expect_error(write_yaml("list.yaml", NULL, 2, "  cc: [90]", 0), 2, 7, "expected a single value");
	expect_error(write_yaml("twice.yaml", NULL, 4, "  cc: 90", 1), 4, 3, "duplicate key 'cc' (first at line 2)");
	expect_error(write_yaml("mismatch.yaml", NULL, 2, "  cc: 89", 0), 1, 3, "name says compute capability 90");
	expect_error(write_yaml("longname.yaml", NULL, 1, "- name: sm_9000000000000000", 0), 1, 9, "too long");
	expect_error(write_yaml("optin.yaml", NULL, 12, "  smem_per_block_optin: 300000", 0), 1, 3,
		     "larger than smem_per_sm");
	/* The same architecture twice: the second entry starts on line 22. */
	{
		char text[4096] = "";
		for (int twice = 0; twice < 2; twice++)
			for (int i = 0; i < NGOOD; i++)
				strcat(strcat(text, good[i]), "\n");
		expect_error(write_raw("dup.yaml", text), NGOOD + 1, 3, "sm_90 is listed twice");
	}
	expect_error(write_raw("blank.yaml", "# nothing here\n"), 2, 1, "no architectures");
	expect_error(write_raw("map.yaml", "sm_90:\n  cc: 90\n"), 1, 1, "expected a list of architectures");
	expect_error(write_raw("scalars.yaml", "- sm_90\n"), 1, 3, "expected the mapping of one architecture");
	/* at the list's start (the document API has no mark for its closing bracket) */
	expect_error(write_raw("emptylist.yaml", "[]\n"), 1, 1, "no architectures in the list");
}

static void test_yaml_unreadable(void **state)
{
	char err[512], path[128];
	(void)state;
	snprintf(path, sizeof path, "%s/absent.yaml", tmpdir);
	assert_int_equal(arch_load(path, err, sizeof err), -1);
	assert_non_null(strstr(err, "absent.yaml: cannot read: "));
	assert_int_equal(arch_count(), 8);
	/* From memory, without a terminator: a NUL byte in the text, and one escaped in a scalar. */
	static const char raw[] = "- name: sm_90\n  cc: 9\0000\n";
	assert_int_equal(arch_load_buffer("mem", raw, sizeof raw - 1, err, sizeof err), -1);
	assert_string_equal(err, "mem:2:8: control characters are not allowed");
	static const char esc[] = "- name: sm_90\n  cc: \"9\\x0000\"\n";
	assert_int_equal(arch_load_buffer("mem", esc, sizeof esc - 1, err, sizeof err), -1);
	assert_string_equal(err, "mem:2:7: cc: '9?00' is not a whole number");
	assert_int_equal(arch_load_buffer("mem", "", 0, err, sizeof err), -1);
	assert_string_equal(err, "mem:1:1: no architectures in the file");
	assert_int_equal(arch_count(), 8);
}

/* ---------------------------------------------------------------- the potential block size */

/* What cudaOccupancyMaxPotentialBlockSize answers, computed on the host: the launch lesson's poly
 * kernel (44 registers, no shared memory) on an H100 (132 SMs) gets block 640 and grid 264, as the
 * lesson's text says the runtime answered there: 44 registers take 1536 per warp, each of the SM's 4
 * register-file quarters (16384) holds 10 such warps, 40 in all, and 640 threads (20 warps, 2 blocks)
 * is the largest block that keeps 40 warps resident. */
static void test_potential_block(void **state)
{
	(void)state;
	int block, grid;
	char err[256];
	occ_kernel k = { 0, 44, 0, 0 };
	assert_int_equal(occ_potential_block(arch("sm_90"), 132, &k, 0, &block, &grid, err, sizeof err), 0);
	assert_int_equal(block, 640);
	assert_int_equal(grid, 264);
	/* few registers: the whole SM with the largest block, 1024 x 2 */
	k.regs_per_thread = 32;
	assert_int_equal(occ_potential_block(arch("sm_90"), 132, &k, 0, &block, &grid, err, sizeof err), 0);
	assert_int_equal(block, 1024);
	assert_int_equal(grid, 264);
	/* __launch_bounds__(256): no larger block is tried */
	assert_int_equal(occ_potential_block(arch("sm_90"), 132, &k, 256, &block, &grid, err, sizeof err), 0);
	assert_int_equal(block, 256);
	assert_int_equal(grid, 8 * 132);
	/* 255 registers: 8192 per warp, 8 warps per SM: one block of 256 */
	k.regs_per_thread = 255;
	assert_int_equal(occ_potential_block(arch("sm_90"), 132, &k, 0, &block, &grid, err, sizeof err), 0);
	assert_int_equal(block, 256);
	assert_int_equal(grid, 132);
	/* and the same answer as the per-block calculator gives for that block */
	occ_result r = occ("sm_90", 640, 44, 0, 0);
	assert_int_equal(r.active_blocks, 2);
	k.regs_per_thread = 0;
	assert_int_equal(occ_potential_block(arch("sm_90"), 132, &k, 0, &block, &grid, err, sizeof err), -1);
	assert_int_equal(block, 0);
}


/* ---------------------------------------------------------------- Blackwell and unknown GPUs */

/* The Blackwell entries: the limits cuda_occupancy.h and the Blackwell tuning guide give; a rate with
 * no source is ARCH_UNKNOWN, never a number. */
static void test_blackwell_entries(void **state)
{
	(void)state;
	const arch_info *b = arch_find("sm_100"), *u = arch_find("10.3"), *r = arch_find("sm_120");
	assert_non_null(b); assert_non_null(u); assert_non_null(r);
	assert_ptr_equal(arch_find("sm_100a"), b);
	assert_ptr_equal(arch_find("sm_100f"), b);
	assert_ptr_equal(arch_find("12.0"), r);
	assert_ptr_equal(arch_find("compute_120"), r);
	assert_null(arch_find("sm_110"));
	assert_null(arch_find("sm_121"));
	assert_int_equal(b->cc, 100);
	assert_int_equal(b->max_threads_per_sm, 2048);
	assert_int_equal(b->max_blocks_per_sm, 32);
	assert_int_equal(b->smem_per_sm, 228 * 1024);
	assert_int_equal(b->smem_per_block_optin, 227 * 1024);
	assert_int_equal(u->max_blocks_per_sm, 32);
	assert_int_equal(r->max_threads_per_sm, 1536);
	assert_int_equal(r->max_blocks_per_sm, 24);
	assert_int_equal(r->smem_per_sm, 100 * 1024);
	assert_int_equal(r->smem_per_block_optin, 99 * 1024);
	for (const arch_info *a = b; a; a = a == b ? u : a == u ? r : NULL) {
		assert_int_equal(a->fp32_lanes_per_sm, 128);
		assert_int_equal(a->regs_per_sm, 65536);
		assert_int_equal(a->smem_reserved_per_block, 1024);
		assert_true(a->bf16_tensor_flops_per_clk_per_sm == ARCH_UNKNOWN);
		assert_true(a->fp8_tensor_flops_per_clk_per_sm == ARCH_UNKNOWN);
	}
	assert_true(b->fp64_flops_per_clk_per_sm == 128.0);
	assert_true(u->fp64_flops_per_clk_per_sm == ARCH_UNKNOWN);
	assert_true(r->fp64_flops_per_clk_per_sm == 4.0);
	assert_int_equal(b->typical_clock_mhz, ARCH_UNKNOWN);
	/* occupancy on them: 256 threads x 32 registers fill a B200 SM (8 blocks of 8 warps = 64), and 6
	 * blocks fill an RTX 5090 SM (48 warps) */
	occ_result o = occ("sm_100", 256, 32, 0, 0);
	assert_occ(o, 100);
	assert_int_equal(o.active_blocks, 8);
	o = occ("sm_120", 256, 32, 0, 0);
	assert_occ(o, 100);
	assert_int_equal(o.active_blocks, 6);
	/* 48 KiB of shared memory per block: 4 blocks in 228 KiB, 2 in 100 KiB (each plus 1 KiB reserved) */
	assert_int_equal(occ("sm_100", 128, 32, 0, 48 * 1024).active_blocks, 4);
	assert_int_equal(occ("sm_120", 128, 32, 0, 48 * 1024).active_blocks, 2);
}

/* "unknown" is taken for a rate and typical_clock_mhz only. */
static void test_yaml_unknown_values(void **state)
{
	char err[512];
	(void)state;
	const char *p = write_yaml("unk.yaml", NULL, 22, "  fp8_tensor_flops_per_clk_per_sm: unknown", 0);
	if (arch_load(p, err, sizeof err)) fail_msg("%s", err);
	assert_true(arch_find("sm_90")->fp8_tensor_flops_per_clk_per_sm == ARCH_UNKNOWN);
	unlink(p);
	p = write_yaml("unk2.yaml", NULL, 6, "  regs_per_sm: unknown", 0);
	assert_int_equal(arch_load(p, err, sizeof err), -1);
	assert_non_null(strstr(err, "regs_per_sm: 'unknown' is not a whole number"));
	unlink(p);
	p = write_yaml("unk3.yaml", NULL, 23, "  fp64_flops_per_clk_per_sm: unknwn", 0);
	assert_int_equal(arch_load(p, err, sizeof err), -1);
	assert_non_null(strstr(err, "is not a number (or unknown)"));
	unlink(p);
	assert_int_equal(arch_load(TABLE, err, sizeof err), 0);
}

/* The PTX target for a GPU the table lacks: the newest entry NVRTC has at or below the device. */
static void test_fallback_target(void **state)
{
	char t[32], why[256], err[512];
	(void)state;
	unsetenv("CUDACLIMB_UNKNOWN_ARCH");
	static const int nv[] = { 75, 80, 86, 87, 88, 89, 90, 100, 103, 110, 120, 121 };
	int nn = (int)(sizeof nv / sizeof nv[0]);
	assert_int_equal(arch_fallback_target(130, 0, nv, nn, t, sizeof t, why, sizeof why), 0);
	assert_string_equal(t, "compute_120");      /* a GPU newer than everything */
	assert_int_equal(arch_fallback_target(121, 0, nv, nn, t, sizeof t, why, sizeof why), 0);
	assert_string_equal(t, "compute_120");      /* DGX Spark: not in the table, sm_120 is */
	assert_int_equal(arch_fallback_target(110, 0, nv, nn, t, sizeof t, why, sizeof why), 0);
	assert_string_equal(t, "compute_103");
	static const int old[] = { 75, 80, 86, 89, 90 };   /* an NVRTC that knows no Blackwell */
	assert_int_equal(arch_fallback_target(100, 0, old, 5, t, sizeof t, why, sizeof why), 0);
	assert_string_equal(t, "compute_90");
	/* a stage that needs a newer level than the table's newest below the GPU gets it, if the GPU has it */
	assert_int_equal(arch_fallback_target(121, 121, nv, nn, t, sizeof t, why, sizeof why), 0);
	assert_string_equal(t, "compute_121");
	assert_int_equal(arch_fallback_target(70, 0, nv, nn, t, sizeof t, why, sizeof why), -1);
	assert_non_null(strstr(why, "at or below compute capability 7.0"));

	/* a table without sm_100: a B200 gets compute_90 */
	const char *p = write_yaml("hopper.yaml", NULL, 0, NULL, 0);
	assert_int_equal(arch_load(p, err, sizeof err), 0);
	unlink(p);
	assert_null(arch_find_device(100));
	assert_int_equal(arch_fallback_target(100, 0, nv, nn, t, sizeof t, why, sizeof why), 0);
	assert_string_equal(t, "compute_90");
	assert_int_equal(arch_load(TABLE, err, sizeof err), 0);

	/* CUDACLIMB_UNKNOWN_ARCH: the device's own entry is ignored */
	assert_non_null(arch_find_device(90));
	setenv("CUDACLIMB_UNKNOWN_ARCH", "0", 1);
	assert_false(arch_unknown_forced());
	assert_non_null(arch_find_device(90));
	setenv("CUDACLIMB_UNKNOWN_ARCH", "1", 1);
	assert_true(arch_unknown_forced());
	assert_null(arch_find_device(90));
	assert_null(arch_find_device(120));
	assert_non_null(arch_find("sm_90"));           /* the table itself stays, for --arch and limits */
	assert_int_equal(arch_fallback_target(90, 0, nv, nn, t, sizeof t, why, sizeof why), 0);
	assert_string_equal(t, "compute_89");
	assert_int_equal(arch_fallback_target(90, 90, nv, nn, t, sizeof t, why, sizeof why), 0);
	assert_string_equal(t, "compute_90");          /* a stage that needs 9.0 on the H100 */
	unsetenv("CUDACLIMB_UNKNOWN_ARCH");
}

/* NVRTC's own list: ascending, and it has the table's architectures (CUDA 13: sm_75 on). */
static void test_nvrtc_list(void **state)
{
	(void)state;
	int nv[64], nn = arch_nvrtc_supported(nv, 64);
	assert_true(nn >= 5);
	for (int i = 1; i < nn; i++) assert_true(nv[i] > nv[i - 1]);
	int have90 = 0;
	for (int i = 0; i < nn; i++) have90 |= nv[i] == 90;
	assert_true(have90);
}

/* Occupancy from a device's attributes alone: an H100's give what the table gives; other attributes
 * other limits. */
static void test_occupancy_from_attributes(void **state)
{
	char err[256];
	(void)state;
	arch_device_limits h100 = { 1024, 2048, 32, 65536, 65536, 32, 132, 233472, 49152, 232448, 1024, 50u << 20 };
	arch_info a;
	arch_from_device(&a, 90, &h100);
	assert_string_equal(a.name, "sm_90");
	assert_int_equal(a.max_regs_per_thread, 255);
	assert_int_equal(a.fp32_lanes_per_sm, ARCH_UNKNOWN);
	assert_true(a.bf16_tensor_flops_per_clk_per_sm == ARCH_UNKNOWN);
	assert_int_equal(a.typical_sm_count, 132);
	static const struct { int threads, regs; size_t smem; } k[] = { { 256, 32, 0 }, { 128, 64, 40000 }, { 1024, 64, 0 }, { 96, 128, 0 } };
	for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
		occ_kernel kk = { k[i].threads, k[i].regs, 0, k[i].smem };
		occ_result x, y;
		assert_int_equal(occ_compute(&a, &kk, &x, err, sizeof err), 0);
		y = occ("sm_90", k[i].threads, k[i].regs, 0, k[i].smem);
		assert_int_equal(x.active_blocks, y.active_blocks);
		assert_int_equal(x.limiter, y.limiter);
	}
	/* a GPU with 48 warps and 100 KiB per SM (attributes say so; cc 9.0's allocation rules) */
	arch_device_limits small = { 1024, 1536, 24, 65536, 65536, 32, 84, 102400, 49152, 101376, 1024, 48u << 20 };
	arch_from_device(&a, 90, &small);
	occ_kernel kk = { 256, 32, 0, 0 };
	occ_result x;
	assert_int_equal(occ_compute(&a, &kk, &x, err, sizeof err), 0);
	assert_int_equal(x.max_warps, 48);
	assert_int_equal(x.active_blocks, 6);
	kk.dynamic_smem = 48 * 1024;
	assert_int_equal(occ_compute(&a, &kk, &x, err, sizeof err), 0);
	assert_int_equal(x.active_blocks, 2);
	assert_int_equal(x.limiter, OCC_LIMIT_SHARED);
	/* a compute capability the toolkit's calculator does not know: said, not guessed */
	arch_from_device(&a, 130, &h100);
	kk.dynamic_smem = 0;
	assert_int_equal(occ_compute(&a, &kk, &x, err, sizeof err), -1);
	assert_non_null(strstr(err, "compute capability 13.0 is unknown"));
}

/* The marks a stage for another GPU shows. */
static void test_stage_needs(void **state)
{
	char b[32];
	(void)state;
	assert_int_equal(arch_stage_needs(90, "sm_90a", 100, b, sizeof b), 1);
	assert_string_equal(b, "needs sm_90a");        /* arch-specific: not on a newer GPU */
	assert_int_equal(arch_stage_needs(90, "sm_90a", 120, b, sizeof b), 1);
	assert_int_equal(arch_stage_needs(90, "sm_90a", 86, b, sizeof b), 1);
	assert_int_equal(arch_stage_needs(90, "sm_90a", 90, b, sizeof b), 0);
	assert_string_equal(b, "");
	assert_int_equal(arch_stage_needs(89, NULL, 86, b, sizeof b), 1);
	assert_string_equal(b, "needs sm_89");
	assert_int_equal(arch_stage_needs(89, NULL, 120, b, sizeof b), 0);
	assert_int_equal(arch_stage_needs(80, NULL, -1, b, sizeof b), 1);   /* no GPU known: the requirement */
	assert_int_equal(arch_stage_needs(0, NULL, -1, b, sizeof b), 0);
	assert_int_equal(arch_parse_cc("sm_100a"), 100);
	assert_int_equal(arch_parse_cc("12.1"), 121);
	assert_int_equal(arch_parse_cc("sm_x"), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_loads),
		cmocka_unit_test(test_find_spellings),
		cmocka_unit_test(test_table_values),
		cmocka_unit_test(test_table_blocks_match_calculator),
		cmocka_unit_test(test_sm90_full),
		cmocka_unit_test(test_sm90_registers),
		cmocka_unit_test(test_sm90_register_granularity),
		cmocka_unit_test(test_sm90_register_subpartitions),
		cmocka_unit_test(test_sm90_shared),
		cmocka_unit_test(test_sm90_shared_at_optin),
		cmocka_unit_test(test_sm90_1024_threads),
		cmocka_unit_test(test_sm90_register_check_rounds_warps),
		cmocka_unit_test(test_sm75_blocks),
		cmocka_unit_test(test_sm75_full),
		cmocka_unit_test(test_sm75_shared_granularity),
		cmocka_unit_test(test_sm80_shared),
		cmocka_unit_test(test_sm80_blocks),
		cmocka_unit_test(test_sm86_shared),
		cmocka_unit_test(test_sm89_block_size_quantum),
		cmocka_unit_test(test_partial_warp),
		cmocka_unit_test(test_zero_registers),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_yaml_good_entry),
		cmocka_unit_test(test_yaml_syntax_errors),
		cmocka_unit_test(test_yaml_meaning_errors),
		cmocka_unit_test(test_yaml_unreadable),
		cmocka_unit_test(test_potential_block),
		cmocka_unit_test(test_blackwell_entries),
		cmocka_unit_test(test_yaml_unknown_values),
		cmocka_unit_test(test_fallback_target),
		cmocka_unit_test(test_nvrtc_list),
		cmocka_unit_test(test_occupancy_from_attributes),
		cmocka_unit_test(test_stage_needs),
	};
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
