#!/bin/sh
# The csr_rows / csr_cols buffer inits without a GPU: the spmv lesson checks at its edge sizes (its
# blocked stage sized for sm_90 and sm_120, refused on sm_75) and
# shows its inputs; each malformed init is refused at file:line:col with what is wrong.
. tests/lib.sh
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
expect "csr: spmv checks for sm_90 (every stage and the starter)" 0 "spmv +balanced +ok" $B check --arch sm_90
expect "csr: spmv's blocked stage plans and compiles for sm_90 (227 KiB of shared memory a block)" 0 "spmv +blocked +ok +regs +[0-9]+ +smem +2[0-9]{5} " $B check --arch sm_90
expect "csr: spmv's blocked stage plans smaller slabs for sm_120 (99 KiB a block)" 0 "spmv +blocked +ok +regs +[0-9]+ +smem +(9[0-9]{4}|10[0-9]{4}) " $B check --arch sm_120
expect "csr: spmv's blocked stage is refused on sm_75 with its reason (cp.async)" 0 "spmv +blocked +unsupported needs sm_80: cp.async" $B check --arch sm_75

# lesson BUFFERS: a tree whose lesson has these buffers, checked for sm_90.
lesson() {
	rm -rf "$T/t" && mkdir -p "$T/t/lessons" "$T/t/kernels/c" && cp tests/fixtures/readme/kernels/csr/k.cu "$T/t/kernels/c/"
	{ printf 'lesson: c\ntitle: t\nsummary: s\nparams:\n  rows: { default: 100, min: 1, max: 1000 }\nbuffers:\n'; cat
	  printf '  y: { type: f32, count: rows, output: true }\nmodel: { bytes: 1 }\ncheck: { reference: s, compare: [y], tolerance: exact }\n'
	  printf 'stages:\n  - { id: s, title: S, kernel: k.cu, entry: row_sums, explain: e, bottleneck: b,\n'
	  printf '      launches: [{ grid: 1, block: 32, args: [row_ptr, col_idx, values, y, "i32(rows)"] }] }\n'; } > "$T/t/lessons/c.yaml"
}
ok_buffers='  values:  { type: f32, count: "rows * 4", init: { random: [-1, 1] } }'
lesson <<EOF2
  row_ptr: { type: i32, count: "rows + 1", init: { csr_rows: { nnz: "min(rows * 4, rows * rows)", cols: rows, skew: 0.5 } } }
  col_idx: { type: i32, count: "min(rows * 4, rows * rows)", init: csr_cols }
  values:  { type: f32, count: "min(rows * 4, rows * rows)", init: { random: [-1, 1] } }
EOF2
expect "csr: a good matrix checks" 0 "c +s +ok" $B --lessons "$T/t" check --arch sm_90
lesson <<EOF2
  row_ptr: { type: i32, count: "rows + 1", init: { csr_rows: { nnz: "rows * 4", cols: rows, skew: 1 } } }
  col_idx: { type: i32, count: "rows * 4", init: csr_cols }
$ok_buffers
EOF2
expect "csr: skew 1 refused" 1 "c.yaml:7:3: buffer row_ptr: skew is 1" $B --lessons "$T/t" check --arch sm_90
lesson <<EOF2
  row_ptr: { type: i32, count: "rows + 1", init: { csr_rows: { nnz: "rows * rows + 1", cols: rows } } }
  col_idx: { type: i32, count: "rows * rows + 1", init: csr_cols }
$ok_buffers
EOF2
expect "csr: more nonzeros than the matrix holds refused" 1 "nnz 10001 does not fit 100 rows of 100 columns" $B --lessons "$T/t" check --arch sm_90
lesson <<EOF2
  row_ptr: { type: i32, count: "rows + 1", init: { csr_rows: { nnz: "rows * 4", cols: rows } } }
  col_idx: { type: i32, count: "rows * 3", init: csr_cols }
$ok_buffers
EOF2
expect "csr: a column buffer of the wrong count refused" 1 "buffer col_idx: csr_cols has 300 elements, the matrix has nnz 400" $B --lessons "$T/t" check --arch sm_90
lesson <<EOF2
  row_ptr: { type: i64, count: "rows + 1", init: { csr_rows: { nnz: "rows * 4", cols: rows } } }
  col_idx: { type: i32, count: "rows * 4", init: csr_cols }
$ok_buffers
EOF2
expect "csr: an i64 row pointer refused" 4 "c.yaml:7:50: buffer .row_ptr.: a CSR row pointer buffer is i32, not i64" $B --lessons "$T/t" check --arch sm_90
lesson <<EOF2
  row_ptr: { type: i32, count: "rows + 1", init: zero }
  col_idx: { type: i32, count: "rows * 4", init: csr_cols }
$ok_buffers
EOF2
expect "csr: csr_cols without csr_rows refused" 4 "init csr_cols needs a buffer with init" $B --lessons "$T/t" check --arch sm_90
lesson <<EOF2
  row_ptr: { type: i32, count: "rows + 1", init: { csr_rows: { nnz: 4, cols: rows, bogus: 1 } } }
  col_idx: { type: i32, count: 4, init: csr_cols }
$ok_buffers
EOF2
expect "csr: an unknown key of csr_rows refused" 4 "unknown key .bogus. in csr_rows" $B --lessons "$T/t" check --arch sm_90
lesson <<EOF2
  row_ptr: { type: i32, count: "rows + 1", init: { csr_rows: { cols: rows } } }
  col_idx: { type: i32, count: 4, init: csr_cols }
$ok_buffers
EOF2
expect "csr: csr_rows without nnz refused" 4 "csr_rows needs .nnz." $B --lessons "$T/t" check --arch sm_90
