#!/bin/sh
# cudaclimb cache (#31 item 12): the folder and its size; --prune [--max SIZE] deletes whole entries
# (every file of a stem), least recently used first, until under SIZE, keeps what was used in the
# last seconds and anything that is not a regular file; a compile prunes the cache to its cap
# (CUDACLIMB_CACHE_MAX) when it has grown past it.
. tests/lib.sh
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME=$tmp/cache
C=$XDG_CACHE_HOME/cudaclimb
expect "cache: a cache not made yet is empty" 0 "^0 B in 0 entries" $B cache
mkdir -p "$C"
# entry KEY: .cubin .ptx .log of 100 KiB each, aged AGE days
mk() { for x in cubin ptx log; do head -c 102400 /dev/zero >"$C/$1.$x"; touch -d "$2 days ago" "$C/$1.$x"; done; }
mk old1 30; mk old2 20; mk mid 10; mk new 1
head -c 102400 /dev/zero >"$C/fresh.cubin"          # used just now: kept whatever its size
ln -s /etc/passwd "$C/link.cubin"; mkfifo "$C/pipe.ptx" 2>/dev/null
touch -d "40 days ago" "$C/mid.sass"                # an older file of a newer entry: the entry's age is its newest
expect "cache: folder and size" 0 "^$C\$" $B cache
expect "cache: entries counted by stem" 0 "in 5 entries \(14 files\)" $B cache
expect "cache: --max needs --prune" 2 "--max is for --prune" $B cache --max 1M
expect "cache: a bad size is refused" 2 "--max takes a size .*not '12Q'" $B cache --prune --max 12Q
expect "cache: an unknown argument is refused" 2 "unknown argument '--frob'" $B cache --frob
expect "cache: prune to 700K removes the two oldest entries" 0 "^removed 2 entries \(600 KiB\); .* in 3 entries left" $B cache --prune --max 700K
left=$(cd "$C" && ls | LC_ALL=C sort | tr '\n' ' ')
[ "$left" = "fresh.cubin link.cubin mid.cubin mid.log mid.ptx mid.sass new.cubin new.log new.ptx pipe.ptx " ] \
	&& pass "cache: whole entries went, oldest first; the link and the pipe stayed" || fail "cache: after prune: $left"
[ "$(readlink "$C/link.cubin")" = /etc/passwd ] && [ -f /etc/passwd ] && pass "cache: a link is never followed" || fail "cache: the link"
expect "cache: prune to 0 keeps only what was used in the last seconds" 0 "^removed 2 entries .* 1 entries left" $B cache --prune --max 0
expect "cache: says when it stays over the size" 0 "^\(over 0 B still: the rest was used in the last seconds" $B cache --prune --max 0
[ -f "$C/fresh.cubin" ] && [ ! -e "$C/new.ptx" ] && pass "cache: the fresh entry kept, the rest gone" || fail "cache: $(ls "$C" | tr '\n' ' ')"
expect "cache: --help" 0 "cudaclimb cache --prune \[--max SIZE\]" $B cache --help
# after a compile, over the cap: pruned to it
rm -rf "$C"; mkdir -p "$C"; mk stale 5
if $B --arch sm_80 show bandwidth/coalesced --ptx >/dev/null 2>&1; then
	env CUDACLIMB_CACHE_MAX=250K $B --arch sm_90 show bandwidth/strided --ptx >/dev/null 2>&1
	[ ! -e "$C/stale.cubin" ] && ls "$C" | grep -q '\.cubin$' && pass "cache: a compile pruned the cache to its cap (the stale entry went, the new stayed)" \
		|| fail "cache: after a compile with CUDACLIMB_CACHE_MAX=250K: $(ls "$C" | tr '\n' ' ')"
	mk stale 5; env CUDACLIMB_CACHE_MAX=100M $B --arch sm_86 show bandwidth/vectorized --ptx >/dev/null 2>&1
	[ -e "$C/stale.cubin" ] && pass "cache: under the cap a compile deletes nothing" || fail "cache: an entry went under the cap"
else skip "cache: show --ptx could not compile here (no NVRTC?)"; fi
