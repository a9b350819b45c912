#!/bin/sh
# Attacks on files (issue #30): lesson files that are a FIFO or a link to /dev/zero; with HOME unset,
# a squatted per-uid cache folder with a poisoned entry and links planted at temporary names; the
# modes of a workspace and a cache after a try; corrupt .progress lines. Each bounded by timeout and
# ulimit -v. Two users (uids 2001 attacker, 2002 victim) through setpriv when root, else SKIP.
. tests/lib.sh
[ -x "$B" ] || { fail "files: $B is not built"; exit 0; }
attack_tree files

# ---- lesson files that are a FIFO and a link to /dev/zero: the other lessons load, an error in place
mkfifo "$T/fifo.yaml" && cp -r "$L" "$T/bad" && mv "$T/fifo.yaml" "$T/bad/lessons/fifo.yaml"
ln -s /dev/zero "$T/bad/lessons/zero.yaml"
out=$( (ulimit -v 204800; timeout 5 "$B" --lessons "$T/bad" list) 2>&1); rc=$?
if [ $rc = 124 ] || [ $rc -ge 128 ]; then fail "files: list with a FIFO and /dev/zero lesson: killed or timed out (exit $rc)"
elif ! printf '%s\n' "$out" | grep -q "Memory bandwidth"; then fail "files: the other lessons did not load: $out"
elif ! printf '%s\n' "$out" | grep -q "fifo.yaml" || ! printf '%s\n' "$out" | grep -q "zero.yaml"; then fail "files: no error in place for fifo.yaml and zero.yaml: $out"
else pass "files: FIFO and /dev/zero lessons give an error in place within 5 s and 200 MB, bandwidth loads"; fi

# ---- a replay file of 30 000 empty results (90 KB): each result is ~33 KB in memory, so read whole it
# took 1 GB; refused with its count within 400 MB, as a recording found in a lesson tree would be too
python3 -c "import sys; sys.stdout.write('{\"device\": {}, \"results\": [' + ','.join(['{}'] * 30000) + ']}')" >"$T/bomb.json"
out=$( (ulimit -v 400000; timeout 20 "$B" --lessons "$L" --replay "$T/bomb.json" run $EX) 2>&1); rc=$?
if [ $rc = 124 ] || [ $rc -ge 128 ]; then fail "files: a replay of 30000 empty results: killed or timed out (exit $rc)"
elif ! printf '%s\n' "$out" | grep -q "30000 results, more than a replay may hold (4096)"; then fail "files: a replay of 30000 results: $(printf '%s' "$out" | head -3)"
else pass "files: a replay of 30000 empty results (90 KB) is refused with its count, within 400 MB"; fi

# ---- workspace and cache are private after a try (no GPU needed: the kernel compiles)
H=$T/home-me
mkdir -p "$H"
HOME=$H XDG_CACHE_HOME= timeout 60 "$B" --lessons "$L" try $EX >/dev/null 2>&1
HOME=$H XDG_CACHE_HOME= timeout 60 "$B" --lessons "$L" try $EX >"$T/try.out" 2>&1
w=$H/cudaclimb-work c=$H/.cache/cudaclimb
modes=$(stat -c '%a' "$w" "$w/bandwidth" "$c" 2>/dev/null | tr '\n' ' ')
fmodes=$(find "$w" "$c" -type f -exec stat -c '%a' {} + 2>/dev/null | sort -u | tr '\n' ' ')
if [ "$modes" = "700 700 700 " ] && [ "$fmodes" = "600 " ]; then pass "files: workspace and cache folders 0700, files 0600 after a try"
else fail "files: modes after a try: folders '$modes' (want 700), files '$fmodes' (want 600)"; sed 's/^/    /' "$T/try.out" | head -5; fi

# a loose workspace of one's own is tightened with a notice
chmod 755 "$w"
out=$(HOME=$H timeout 60 "$B" --lessons "$L" try $EX 2>&1)
if [ "$(stat -c %a "$w")" = 700 ] && printf '%s\n' "$out" | grep -q "now private"; then pass "files: a 0755 workspace is made 0700 with a notice"
else fail "files: a 0755 workspace: mode $(stat -c %a "$w"), output: $(printf '%s' "$out" | head -3)"; fi

# ---- corrupt .progress lines are reported and kept aside, not dropped
printf 'exercise bandwidth gridstride best=bogus\nthis line is noise\n' >>"$w/.progress"
out=$(HOME=$H timeout 60 "$B" --lessons "$L" try $EX 2>&1)
if printf '%s\n' "$out" | grep -q "2 lines of .*could not be read" && grep -q "this line is noise" "$w/.progress.bad" 2>/dev/null \
   && ! grep -q "noise" "$w/.progress"; then pass "files: 2 corrupt .progress lines reported and kept in .progress.bad"
else fail "files: corrupt .progress lines: $(printf '%s' "$out" | grep -i progress | head -2); .bad: $(cat "$w/.progress.bad" 2>&1 | head -2)"; fi

# ---- two users, HOME unset
if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null; then
	skip "files: HOME unset, squatted cache, planted links: needs root and setpriv for two users"
	exit 0
fi
as() { u=$1; shift; setpriv --reuid="$u" --regid="$u" --clear-groups "$@"; }
A=2001 V=2002
for u in $A $V; do [ -e /tmp/cudaclimb-$u ] && rm -rf /tmp/cudaclimb-$u; done
mkdir -p "$T/wv" && chown $V:$V "$T/wv" && chmod 700 "$T/wv"
printf 'precious\n' >"$T/wv/secret" && chown $V:$V "$T/wv/secret"
# the attacker compiles the same kernel in a cache of its own, then squats the victim's per-uid folder
# with a poisoned copy (99 registers) and links at every temporary name a writer might pick
mkdir -p "$T/wa" && chown $A:$A "$T/wa"
as $A env -u HOME -u XDG_CACHE_HOME timeout 60 "$B" --lessons "$L" --work "$T/wa" try $EX >/dev/null 2>&1
shared_made=; [ -e /tmp/.cache ] || shared_made=1
mkdir -p /tmp/cudaclimb-$V/cache /tmp/.cache/cudaclimb 2>/dev/null
n=$(ls /tmp/cudaclimb-$A/cache/*.cubin 2>/dev/null | wc -l)
[ "$n" -gt 0 ] || fail "files: the attacker's own compile left no cache entry in /tmp/cudaclimb-$A/cache"
cp /tmp/cudaclimb-$A/cache/* /tmp/cudaclimb-$V/cache/ 2>/dev/null
sed -i 's/Used [0-9]* registers/Used 99 registers/' /tmp/cudaclimb-$V/cache/*.log 2>/dev/null
for k in /tmp/cudaclimb-$A/cache/*.cubin; do
	b=$(basename "$k" .cubin)
	for p in $(seq 1 400); do for x in cubin log ptx; do ln -sf "$T/wv/secret" "/tmp/.cache/cudaclimb/$b.$x.tmp.$p" 2>/dev/null; done; done
done
chown -R $A:$A /tmp/cudaclimb-$V; chmod -R 777 /tmp/cudaclimb-$V
out=$( (ulimit -v 2000000; as $V env -u HOME -u XDG_CACHE_HOME timeout 60 "$B" --lessons "$L" --work "$T/wv/work" try $EX) 2>&1)
if printf '%s\n' "$out" | grep -q "99 registers"; then fail "files: the victim used the attacker's poisoned cache entry"
elif ! printf '%s\n' "$out" | grep -q "compile cache is not used" || ! printf '%s\n' "$out" | grep -q "uid $A"; then fail "files: no notice that the squatted cache was refused: $(printf '%s' "$out" | head -3)"
elif ! printf '%s\n' "$out" | grep -q "COMPILED"; then fail "files: the victim's kernel did not compile without the cache: $(printf '%s' "$out" | head -3)"
else pass "files: HOME unset, a squatted per-uid cache with a poisoned entry is refused with a notice; the compile works without it"; fi
if [ "$(cat "$T/wv/secret")" = precious ]; then pass "files: links planted at predictable temporary names did not redirect the victim's writes"
else fail "files: the victim's file was overwritten through a planted link"; fi
if find /tmp/.cache/cudaclimb -newer "$T/wv/secret" -user $V 2>/dev/null | grep -q .; then fail "files: the victim wrote into the shared /tmp/.cache"
else pass "files: nothing of the victim's in the shared /tmp/.cache"; fi
# without the squat the victim's own per-uid folder is private
rm -rf /tmp/cudaclimb-$V
as $V env -u HOME -u XDG_CACHE_HOME timeout 60 "$B" --lessons "$L" --work "$T/wv/work" try $EX >/dev/null 2>&1
own=$(stat -c '%u %a' /tmp/cudaclimb-$V /tmp/cudaclimb-$V/cache 2>/dev/null | tr '\n' ' ')
if [ "$own" = "$V 700 $V 700 " ] && [ -z "$(find /tmp/cudaclimb-$V -type f ! -perm 600 2>/dev/null)" ] && [ -n "$(find /tmp/cudaclimb-$V -name '*.cubin')" ]; then
	pass "files: HOME unset, the victim's cache is /tmp/cudaclimb-$V (its own, 0700, files 0600)"
else fail "files: the victim's per-uid cache: '$own'"; fi
rm -rf /tmp/cudaclimb-$A /tmp/cudaclimb-$V
[ -n "$shared_made" ] && rm -rf /tmp/.cache
exit 0
