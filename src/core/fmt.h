/* fmt: the text of a number, one rule per quantity, for every front end (the CLI, the report, the
 * timeline, the TUI). Pure: no I/O, no globals. Each renderer writes into the caller's buf of n bytes
 * (always terminated when n > 0; cut short when too small) and returns buf.
 *
 * The rules:
 * - Three significant digits, no exponent: 0.0234, 0.644, 5.63, 10.6, 123; 1000 to 9999 whole (4567).
 *   A value that rounds up to the next unit takes it (999.7 us is "1.00 ms", never "1000 us").
 * - Not measured: a negative or NaN time, size, rate or share is "-" (the tool's -1 = unknown);
 *   infinity is "inf". fmt_num alone keeps a sign ("-12.5").
 * - Times carry their unit (ns, us, ms, s); fmt_ms is the bare number of ms, for a column headed "ms";
 *   a table's column of ms (fmt_ms_col) keeps four decimals, so that its rows align and compare.
 * - Tables of figures under a head that names the unit (the bench table's GB/s, GFLOP/s, %peak)
 *   keep their fixed decimals too; these renderers are for figures in text, labels and charts.
 * - Sizes (shared memory, L2, buffers, the cache) are binary, B/KiB/MiB/GiB/TiB, as the CUDA
 *   documentation and the device's own limits count them (48 KiB, 227 KiB); a whole number prints bare
 *   ("48 KiB", "512 B"), else three significant digits ("1.50 MiB", "79.1 GiB").
 * - Bytes moved (DRAM traffic, host copies) are decimal, B/kB/MB/GB/TB, as the GB/s they are divided
 *   by: "268 MB at 25.0 GB/s" is 10.7 ms.
 * - Rates: "2990 GB/s"; "620 GFLOP/s", from 1000 GFLOP/s up "30.4 TFLOP/s".
 * - Percentages of a fraction: "0%" for 0, "<0.1%" below 0.05%, one decimal below 10% ("0.4%",
 *   "9.5%"), whole from 10% up ("45%", "100%").
 * - Plain numbers: three significant digits, from 10000 up with k, M, G, T ("46.8k", "1.05M"). */
#ifndef CC_FMT_H
#define CC_FMT_H
#include <stddef.h>

/* v as a plain number: "0.0104", "22.3", "4567", "46.8k", "-3.20", "0"; NaN "-". */
char *fmt_num(char *buf, size_t n, double v);
/* A time given in ms, with its unit: "412 ns", "23.4 us", "4.20 ms", "2.50 s". */
char *fmt_time(char *buf, size_t n, double ms);
/* A time in ms as a bare number of ms: "0.0234", "4.20", "123", "12345". */
char *fmt_ms(char *buf, size_t n, double ms);
/* A time in ms in a column of a table (a stage's median, a step's time, start and end): four
 * decimals, so that the rows line up and compare digit by digit: "0.0000", "5.3360"; negative "-". */
char *fmt_ms_col(char *buf, size_t n, double ms);
/* A size in binary units: "512 B", "48 KiB", "1.50 MiB", "79.1 GiB". */
char *fmt_bytes(char *buf, size_t n, double bytes);
/* Bytes moved, in decimal units: "512 B", "33.6 MB", "268 MB", "1.07 GB". */
char *fmt_traffic(char *buf, size_t n, double bytes);
/* A bandwidth: "25.0 GB/s", "2990 GB/s". */
char *fmt_gbps(char *buf, size_t n, double gbps);
/* A compute rate given in GFLOP/s: "620 GFLOP/s", "30.4 TFLOP/s". */
char *fmt_gflops(char *buf, size_t n, double gflops);
/* A fraction as a percentage: "0%", "<0.1%", "0.4%", "9.5%", "45%", "100%". */
char *fmt_pct(char *buf, size_t n, double frac);

#endif
