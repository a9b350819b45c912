#!/bin/sh
# make install / make uninstall (#31 item 7) into a temporary prefix: the installed binary lists the
# lessons and shows one from its own share/cudaclimb, finds the nvdisasm install copied (when the
# build fetched one), the man page renders, bash completes `cudaclimb sh<TAB>`, the zsh file is
# there, and uninstall removes exactly what install wrote (the prefix is empty again; a file of
# someone else's in the same folders stays).
. tests/lib.sh
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
mkdir -p "$prefix"
out=$(make --no-print-directory install PREFIX="$prefix" 2>&1); code=$?
if [ $code != 0 ]; then fail "install: make install exit $code"; printf '%s\n' "$out" | tail -5 | sed 's/^/    /'; exit 0; fi
printf '%s\n' "$out" | grep -q "^installed [0-9]* files under $prefix" && pass "install: says how many files and where" || fail "install: no summary line: $out"
bin=$prefix/bin/cudaclimb
[ -x "$bin" ] && pass "install: the binary" || fail "install: no $bin"
# away from the source tree, so that the data can only come from the prefix
expect "install: the installed binary lists the lessons" 0 "^bandwidth +[0-9]+ stages" sh -c "cd / && env -u CUDACLIMB_LESSONS '$bin' list"
expect "install: the installed binary shows a lesson" 0 "^bandwidth - Memory bandwidth" sh -c "cd / && env -u CUDACLIMB_LESSONS '$bin' show bandwidth"
[ -f "$prefix/share/cudaclimb/assets/arch.yaml" ] && [ -f "$prefix/share/cudaclimb/kernels/bandwidth/strided.cu" ] && pass "install: lessons, kernels and assets in share/cudaclimb" \
	|| fail "install: share/cudaclimb incomplete: $(ls "$prefix/share/cudaclimb" 2>&1)"
if [ -x build/tools/nvdisasm ]; then
	[ -x "$prefix/libexec/cudaclimb/nvdisasm" ] && pass "install: the fetched nvdisasm in libexec/cudaclimb" || fail "install: build/tools/nvdisasm not installed"
	sass=$(cd / && env -u CUDACLIMB_NVDISASM XDG_CACHE_HOME="$tmp/cache" PATH=/usr/bin:/bin CUDA_HOME=/nonexistent "$bin" --arch sm_90 show bandwidth/coalesced --sass 2>&1); c=$?
	if [ $c = 0 ] && printf '%s\n' "$sass" | grep -q 'SASS from nvdisasm'; then pass "install: --sass works from the installed binary (its own nvdisasm)"
	elif [ -x /usr/local/cuda/bin/nvdisasm ]; then skip "install: --sass: the build's CUDA folder has its own nvdisasm, which the binary takes first"
	else fail "install: --sass after install: exit $c: $(printf '%s\n' "$sass" | head -3)"; fi
else
	skip "install: no build/tools/nvdisasm (deps.sh fetches it when the toolkit has none): nothing to install for --sass"
fi
man1=$prefix/share/man/man1/cudaclimb.1
if [ ! -f "$man1" ]; then fail "install: no man page"
elif command -v man >/dev/null 2>&1; then
	page=$(MANWIDTH=80 MAN_KEEP_FORMATTING= man -l "$man1" 2>"$tmp/man.err" | col -b 2>/dev/null)
	ok=1; for s in NAME SYNOPSIS DESCRIPTION COMMANDS OPTIONS ENVIRONMENT FILES "EXIT STATUS" EXAMPLES; do
		printf '%s\n' "$page" | grep -q "^$s\$" || { ok=; fail "install: man page lacks the section $s"; }
	done
	[ -n "$ok" ] && pass "install: man -l renders every section"
	[ -s "$tmp/man.err" ] && fail "install: man -l warns: $(head -2 "$tmp/man.err")" || pass "install: man -l without a warning"
	printf '%s\n' "$page" | grep -q "cache --prune" && pass "install: the man page names every command" || fail "install: the man page lacks cache --prune"
elif command -v groff >/dev/null 2>&1; then
	groff -man -Tutf8 -ww -z "$man1" 2>"$tmp/man.err" && [ ! -s "$tmp/man.err" ] && pass "install: the man page renders (groff; no man here)" || fail "install: groff: $(head -2 "$tmp/man.err")"
else skip "install: neither man nor groff here to render the man page"; fi
bc=$prefix/share/bash-completion/completions/cudaclimb
if [ ! -f "$bc" ]; then fail "install: no bash completion"
elif command -v bash >/dev/null 2>&1; then
	got=$(PATH="$prefix/bin:$PATH" bash -c ". '$bc'; complete -p cudaclimb; COMP_WORDS=(cudaclimb sh); COMP_CWORD=1; _cudaclimb; echo \"words: \${COMPREPLY[*]}\";
		COMP_WORDS=(cudaclimb run bandwidth/co); COMP_CWORD=2; _cudaclimb; echo \"stages: \${COMPREPLY[*]}\"" 2>&1)
	printf '%s\n' "$got" | grep -q '^complete -F _cudaclimb cudaclimb$' && pass "install: bash completion registers" || fail "install: complete -p: $got"
	printf '%s\n' "$got" | grep -q '^words: show$' && pass "install: bash completes cudaclimb sh<TAB> to show" || fail "install: cudaclimb sh<TAB>: $got"
	printf '%s\n' "$got" | grep -q '^stages: bandwidth/coalesced$' && pass "install: bash completes a stage from the installed binary" || fail "install: run bandwidth/co<TAB>: $got"
else skip "install: no bash to try the completion"; fi
zc=$prefix/share/zsh/site-functions/_cudaclimb
[ -f "$zc" ] && head -1 "$zc" | grep -q '^#compdef cudaclimb' && pass "install: the zsh completion (#compdef)" || fail "install: no zsh completion"
if command -v zsh >/dev/null 2>&1; then zsh -n "$zc" && pass "install: the zsh completion parses" || fail "install: zsh -n $zc"; fi
# someone else's file in a folder install shares: uninstall must leave it
mkdir -p "$prefix/share/man/man1"; echo keep >"$prefix/share/man/man1/other.1"
out=$(make --no-print-directory uninstall PREFIX="$prefix" 2>&1); code=$?
[ $code = 0 ] && printf '%s\n' "$out" | grep -q "^removed [0-9]* files from $prefix" && pass "install: make uninstall says what it removed" || fail "install: make uninstall exit $code: $out"
left=$(cd "$prefix" && find . -mindepth 1 | LC_ALL=C sort | tr '\n' ' ')
[ "$left" = "./share ./share/man ./share/man/man1 ./share/man/man1/other.1 " ] && pass "install: uninstall removed exactly what install wrote" || fail "install: after uninstall: $left"
rm -rf "$prefix"/*
expect "install: uninstall with nothing installed says so" 0 "nothing installed under" make --no-print-directory uninstall PREFIX="$prefix"
# DESTDIR: staged, the binary still finds its data relative to itself
out=$(make --no-print-directory install PREFIX=/opt/cc DESTDIR="$tmp/stage" 2>&1) && [ -x "$tmp/stage/opt/cc/bin/cudaclimb" ] &&
	grep -qx /opt/cc/bin/cudaclimb "$tmp/stage/opt/cc/share/cudaclimb/installed-files" && pass "install: DESTDIR stages under it, the list names the final paths" || fail "install: DESTDIR: $out"
make --no-print-directory uninstall PREFIX=/opt/cc DESTDIR="$tmp/stage" >/dev/null 2>&1
[ -z "$(find "$tmp/stage" -mindepth 1 2>/dev/null)" ] && pass "install: DESTDIR uninstall leaves it empty" || fail "install: DESTDIR after uninstall: $(find "$tmp/stage" | head -5 | tr '\n' ' ')"
