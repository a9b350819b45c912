#!/bin/sh
# Every example of lessons/README.md is a tested file (issue #32 item 1): each `<!-- example: NAME -->`
# block is put in place of the `#README` line of tests/fixtures/readme/lessons/NAME.yaml (indented as
# that line is), and the tree that makes is checked for sm_90 with no GPU: it loads, every stage plans
# at its defaults and at its edge sizes (parameters at their minimum, e.g. n = 1 where a chunk of the
# streams example is empty, and a prime), and compiles. Then check's edge planning is shown to fail.
. tests/lib.sh
R=lessons/README.md F=tests/fixtures/readme
T=$(mktemp -d /tmp/cudaclimb-readme-XXXXXX) || exit 1
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/lessons" && cp -r "$F/kernels" "$T/kernels"

# Every yaml block of the README is marked, and every mark has its fixture.
blocks=$(grep -c '^```yaml' $R) marks=$(grep -c '^<!-- example: [a-z_0-9]* -->$' $R)
unmarked=$(awk '/^```yaml/ && prev !~ /^<!-- example: / { print NR } { prev = $0 }' $R | tr '\n' ' ')
if [ "$blocks" -gt 0 ] && [ -z "$unmarked" ]; then pass "format_examples: all $blocks yaml blocks of the README are marked"
else fail "format_examples: yaml blocks without an example mark at lines $unmarked"; fi

# snippet NAME: the block after NAME's mark.
snippet() { awk -v n="$1" '$0 == "<!-- example: " n " -->" { on = 1; next } on && /^```yaml/ { inb = 1; next } inb && /^```/ { exit } inb { print }' $R; }
names=$(sed -n 's/^<!-- example: \([a-z_0-9]*\) -->$/\1/p' $R)
made=0
for n in $names; do
	fx=$F/lessons/$n.yaml
	if [ ! -f "$fx" ]; then fail "format_examples: example $n has no fixture $fx"; continue; fi
	snippet "$n" > "$T/snip"
	if [ ! -s "$T/snip" ]; then fail "format_examples: example $n is empty"; continue; fi
	if grep -q '^ *\.\.\.$' "$T/snip"; then fail "format_examples: example $n has a line of only '...' (not YAML)"; continue; fi
	# The #README line, replaced by the snippet, each line indented as that line is.
	awk -v snip="$T/snip" '
		/^ *#README$/ { ind = $0; sub(/#README$/, "", ind); while ((getline l < snip) > 0) print (l == "" ? "" : ind l); close(snip); done = 1; next }
		{ print } END { if (!done) exit 3 }' "$fx" > "$T/lessons/$n.yaml" || { fail "format_examples: $fx has no #README line"; continue; }
	made=$((made + 1))
done
[ "$made" -gt 0 ] && pass "format_examples: $made examples written into a lesson tree"

out=$($B --lessons "$T" check --arch sm_90 2>&1); rc=$?
for n in $names; do
	[ -f "$T/lessons/$n.yaml" ] || continue
	id=$(sed -n 's/^lesson: *\([a-z_0-9]*\).*/\1/p' "$T/lessons/$n.yaml" | head -1)
	bad=$(printf '%s\n' "$out" | grep -E "(^|/)$n\.yaml:|^sm_90 +$id " | grep -Ev "^sm_90 +$id +[a-z_0-9/]+ +ok( |$)")
	have=$(printf '%s\n' "$out" | grep -Ec "^sm_90 +$id +[a-z_0-9/]+ +ok( |$)")
	if [ -z "$bad" ] && [ "$have" -gt 0 ]; then pass "format_examples: README example $n loads, plans at the edge sizes and compiles ($have ok)"
	else fail "format_examples: README example $n"; printf '%s\n' "$bad" | head -5 | sed 's/^/    /'; fi
done
if [ "$rc" = 0 ]; then pass "format_examples: check over the README's examples exits 0"
else fail "format_examples: check exits $rc"; printf '%s\n' "$out" | grep -v " ok " | head -10 | sed 's/^/    /'; fi

# The streams example as the README had it before: the chunk's size a lesson-wide derived value
# (which cannot see the tunable), and a copy whose count goes below 0 outside a repeat block.
E=$(mktemp -d /tmp/cudaclimb-readme-XXXXXX) || exit 1
trap 'rm -rf "$T" "$E"' EXIT
mkdir -p "$E/lessons" && cp -r "$F/kernels" "$E/kernels"
sed 's/^    derived: .*//; s/^      chunk: .*//' "$T/lessons/streams.yaml" | sed 's/^stages:$/derived:\n  chunk: "ceil_div(n, CHUNKS)"\nstages:/' > "$E/lessons/streams.yaml"
expect "format_examples: a lesson-wide derived value cannot see a tunable, and says where it can" 4 \
	"streams.yaml:[0-9]+:[0-9]+: unknown name 'CHUNKS' .*a stage's own derived: sees them" $B --lessons "$E" check --arch sm_90
sed 's/count: "min(chunk, n - c \* chunk)", stream/count: "min(chunk, n - c * chunk)", stream/' "$T/lessons/streams.yaml" |
	awk '/^      - repeat:/ { print "      - copy: { dst: h_y, src: d_y, count: \"n - 2\" }" } { print }' > "$E/lessons/streams.yaml"
expect "format_examples: check plans at n = 1 and names the copy whose count is -1 there" 1 \
	"streams\.yaml:[0-9]+:[0-9]+: copy d_y>h_y: count is -1.*\(at n=1\)" $B --lessons "$E" check --arch sm_90

# constants: a symbol the compiled module does not have fails check at the constant's line, naming
# what the module has (#32 item 6); the README's spelling passes (above).
rm -f "$E/lessons/"*.yaml
sed 's/symbol: c_w9,/symbol: c_wq9,/' "$T/lessons/constants.yaml" > "$E/lessons/constants.yaml"
expect "format_examples: check refuses a misspelt constant symbol with file:line:col and the module's names" 4 \
	"constants\.yaml:[0-9]+:[0-9]+: constant 'c_wq9' is not in the compiled module.*it has: .*c_w9" $B --lessons "$E" check --arch sm_90
