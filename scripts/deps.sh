#!/bin/sh
# Installs what cudaclimb needs, where it can (Debian/Ubuntu, as root or with sudo), and otherwise
# prints the exact command to run. One set, from the first argument or CUDACLIMB_DEPS:
#   run    what the tool needs (make run): gcc, make, pkg-config, libyaml-dev, libncurses-dev
#   test   that and what the tests need (make test, the default): libcmocka-dev, tmux; and, where
#          root can install them, the optional ones, whose tests otherwise say SKIP: chromium (the
#          class report's HTML test), openssh-server + openssh-client (the ssh runner test),
#          slurmctld + slurmd + slurm-client + munge (the Slurm runner test)
#   list   prints both lists and installs nothing
# Both sets fetch nvdisasm (NVIDIA's nvidia-cuda-nvdisasm wheel from PyPI, unpacked into
# $BUILD/tools/nvdisasm) for the SASS view, when the toolkit has none. CUDACLIMB_NO_FETCH=1 skips
# the optional packages and nvdisasm.
# What is missing is listed before anything is installed. apt-get runs in a session of its own, with
# no terminal (it can neither stop on one nor wait for an answer), under a time limit; whether a
# package is installed is asked of dpkg afterwards, never guessed from an exit status. No service is
# started or enabled: a policy-rc.d that refuses every start is in place during the install, and any
# systemd unit (or rc.d link) the install enabled is disabled again; the tests start their own sshd,
# munged, slurmctld and slurmd from a private config in a temporary folder.
# The CUDA Toolkit itself is not installed here: it comes from NVIDIA's packages; CUDA_HOME points at
# it (default /usr/local/cuda).
# For the tests: DEPS_APT and DEPS_DPKG_QUERY name other apt-get and dpkg-query programs, DEPS_ROOT a
# folder that stands for / (policy-rc.d, /etc/systemd/system, /etc/rc?.d), DEPS_TIMEOUT the seconds
# one apt-get may take (600).
set -u
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
APT=${DEPS_APT:-apt-get}
DPKG_QUERY=${DEPS_DPKG_QUERY:-dpkg-query}
ROOT=${DEPS_ROOT:-}
LIMIT=${DEPS_TIMEOUT:-600}
tools=${BUILD:-build}/tools
want=${1:-${CUDACLIMB_DEPS:-test}}
case $want in run|test|list) ;; *) echo "deps.sh: unknown set '$want' (run, test or list)"; exit 2;; esac

if [ "$want" = list ]; then
	cat <<EOF
make run installs, where missing (apt-get --no-install-recommends):
  the tool:       gcc make pkg-config libyaml-dev libncurses-dev
  the SASS view:  nvidia-cuda-nvdisasm from PyPI (pip download, unpacked into $tools/nvdisasm),
                  only when the CUDA Toolkit has no nvdisasm
make test installs that, and:
  the tests:      libcmocka-dev tmux
  optional tests (as root only; without them those tests say SKIP):
                  chromium                               the class report's HTML test
                  openssh-server openssh-client          the ssh runner test
                  slurmctld slurmd slurm-client munge    the Slurm runner test
No service is started or enabled by the install; the tests start their own daemons from a private
config. CUDACLIMB_NO_FETCH=1 skips the optional packages and nvdisasm.
EOF
	exit 0
fi

have_pc() { pkg-config --exists "$1" 2>/dev/null; }
have() { command -v "$1" >/dev/null 2>&1 || [ -x "$ROOT/usr/sbin/$1" ]; }
need=""       # the tool's and the tests' packages: without them make stops
command -v pkg-config >/dev/null 2>&1 || need="$need pkg-config"
command -v make >/dev/null 2>&1 || need="$need make"
command -v gcc >/dev/null 2>&1 || need="$need gcc"
have_pc yaml-0.1 || need="$need libyaml-dev"
have_pc ncursesw || need="$need libncurses-dev"
if [ "$want" = test ]; then
	have_pc cmocka || need="$need libcmocka-dev"
	command -v tmux >/dev/null 2>&1 || need="$need tmux"
fi

if [ "$(id -u)" = 0 ]; then sudo=""; elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo="sudo"; else sudo="none"; fi
can_apt=""
command -v "$APT" >/dev/null 2>&1 && [ "$sudo" != none ] && can_apt=1

# The optional packages, in groups that succeed or fail alone: root only (they bring daemons).
browser="" ssh="" slurm=""
if [ "$want" = test ] && [ -z "${CUDACLIMB_NO_FETCH:-}" ] && [ -n "$can_apt" ] && [ -z "$sudo" ]; then
	command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || browser="chromium"
	have sshd || ssh="$ssh openssh-server"
	command -v ssh >/dev/null 2>&1 || ssh="$ssh openssh-client"
	have slurmctld || slurm="$slurm slurmctld"
	have slurmd || slurm="$slurm slurmd"
	command -v srun >/dev/null 2>&1 || slurm="$slurm slurm-client"
	have munged || slurm="$slurm munge"
fi
fetch=""
if [ -z "${CUDACLIMB_NO_FETCH:-}" ] && [ ! -x "$CUDA_HOME/bin/nvdisasm" ] && ! command -v nvdisasm >/dev/null 2>&1 &&
	[ ! -x "$tools/nvdisasm" ] && command -v python3 >/dev/null 2>&1; then fetch=1; fi

if [ -n "$need" ] && [ -z "$can_apt" ]; then
	echo "cudaclimb: missing$need. Install them with:"
	echo "    sudo apt-get install$need"
	exit 1
fi

if [ -n "$need$browser$ssh$slurm$fetch" ]; then
	echo "cudaclimb: make $want installs (missing here; \`scripts/deps.sh list\` shows the whole list):"
	[ -n "$need" ] && echo "  apt-get:$need (the tool$( [ "$want" = test ] && echo ' and its tests'))"
	[ -n "$browser" ] && echo "  apt-get: $browser (optional: the class report's HTML test)"
	[ -n "$ssh" ] && echo "  apt-get:$ssh (optional: the ssh runner test)"
	[ -n "$slurm" ] && echo "  apt-get:$slurm (optional: the Slurm runner test)"
	[ -n "$fetch" ] && echo "  PyPI: nvidia-cuda-nvdisasm, unpacked into $tools/nvdisasm (the SASS view)"
	[ -n "$browser$ssh$slurm" ] && echo "  No service is started or enabled; CUDACLIMB_NO_FETCH=1 skips the optional ones."
fi

# --- apt-get, guarded ------------------------------------------------------------------------
as_root() { if [ -n "$sudo" ]; then sudo "$@"; else "$@"; fi; }
policy=$ROOT/usr/sbin/policy-rc.d
saved=$policy.cudaclimb-saved
guarded="" before="" updated=""
enabled_links() {   # every unit link under /etc/systemd/system/*.wants|*.requires, and rc?.d start links
	find "$ROOT/etc/systemd/system" \( -path '*.wants/*' -o -path '*.requires/*' \) 2>/dev/null
	for d in "$ROOT"/etc/rc[2-5].d; do [ -d "$d" ] && find "$d" -name 'S*' 2>/dev/null; done
}
guard_on() {
	[ -n "$guarded" ] && return
	guarded=1
	before=$(enabled_links | sort)
	as_root mkdir -p "$(dirname "$policy")"
	if [ -e "$policy" ] || [ -L "$policy" ]; then as_root mv -f "$policy" "$saved"; fi
	printf '#!/bin/sh\n# cudaclimb scripts/deps.sh: no service starts during its install\nexit 101\n' | as_root tee "$policy" >/dev/null
	as_root chmod 755 "$policy"
}
guard_off() {
	[ -z "$guarded" ] && return
	guarded=""
	as_root rm -f "$policy"
	if [ -e "$saved" ] || [ -L "$saved" ]; then as_root mv -f "$saved" "$policy"; fi
	after=$(enabled_links | sort)
	new=$(printf '%s\n' "$after" | grep -vxF -e "$before" | grep -v '^$')
	[ -z "$before" ] && new=$after
	[ -z "$new" ] && return
	units=""
	for link in $new; do
		unit=$(basename "$link")
		case $link in
		*/rc[2-5].d/S*)
			name=$(printf '%s' "$unit" | sed 's/^S[0-9]*//')
			if [ -z "$ROOT" ] && command -v update-rc.d >/dev/null 2>&1; then as_root update-rc.d "$name" disable >/dev/null 2>&1; fi
			[ -L "$link" ] && as_root rm -f "$link"
			unit="$name(rc.d)" ;;
		*)
			if [ -z "$ROOT" ] && command -v deb-systemd-helper >/dev/null 2>&1; then as_root deb-systemd-helper disable "$unit" >/dev/null 2>&1; fi
			as_root rm -f "$link" ;;
		esac
		case " $units " in *" $unit "*) ;; *) units="$units $unit" ;; esac   # once, though linked from each runlevel
	done
	echo "cudaclimb: disabled what the install enabled at boot:$units"
}
trap 'guard_off' EXIT
trap 'exit 1' HUP INT TERM
installed() { [ "$($DPKG_QUERY -W -f='${Status}' "$1" 2>/dev/null)" = "install ok installed" ]; }
# apt-get install PACKAGES in a session of its own (no terminal to stop on or read from) under the
# time limit; sets $failed to the packages dpkg does not show installed afterwards.
apt_run() {
	if command -v setsid >/dev/null 2>&1; then
		as_root env DEBIAN_FRONTEND=noninteractive APT_LISTCHANGES_FRONTEND=none setsid -w timeout "$LIMIT" "$APT" "$@" </dev/null
	else
		as_root env DEBIAN_FRONTEND=noninteractive APT_LISTCHANGES_FRONTEND=none timeout --foreground "$LIMIT" "$APT" "$@" </dev/null
	fi
}
apt_install() {
	guard_on
	log=$(mktemp)
	apt_run install -y -q --no-install-recommends -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold "$@" >"$log" 2>&1
	failed=""
	for p; do installed "$p" || failed="$failed $p"; done
	if [ -n "$failed" ] && [ -z "$updated" ]; then   # an old package list: once, then again
		updated=1
		apt_run update -q >/dev/null 2>&1
		apt_run install -y -q --no-install-recommends -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold $failed >"$log" 2>&1
		failed=""
		for p; do installed "$p" || failed="$failed $p"; done
	fi
	why=$(grep -E '^(E|W): ' "$log" | head -2 | tr '\n' ' ')
	rm -f "$log"
}

if [ -n "$need" ]; then
	apt_install $need
	if [ -n "$failed" ]; then
		echo "cudaclimb: apt-get did not install$failed${why:+ ($why)}"
		echo "    Install them with: sudo apt-get install$failed"
		exit 1
	fi
	echo "cudaclimb: installed$need"
fi
if [ -n "$browser" ]; then
	apt_install $browser
	if [ -n "$failed" ]; then echo "cudaclimb: chromium was not installed${why:+ ($why)}: the report's HTML test will say SKIP"
	else echo "cudaclimb: installed chromium"; fi
fi
if [ -n "$ssh" ]; then
	apt_install $ssh
	if [ -n "$failed" ]; then echo "cudaclimb:$failed not installed${why:+ ($why)}: the ssh runner test will say SKIP"
	else echo "cudaclimb: installed$ssh"; fi
fi
if [ -n "$slurm" ]; then
	apt_install $slurm
	if [ -n "$failed" ]; then echo "cudaclimb:$failed not installed${why:+ ($why)}: the Slurm runner test will say SKIP"
	else echo "cudaclimb: installed$slurm"; fi
fi
guard_off

if [ ! -x "$CUDA_HOME/bin/nvcc" ] || [ ! -f "$CUDA_HOME/include/nvrtc.h" ]; then
	echo "cudaclimb: no CUDA Toolkit at $CUDA_HOME (nvcc and nvrtc.h are needed)."
	echo "    Install the CUDA Toolkit 13 (https://developer.nvidia.com/cuda-downloads) or set CUDA_HOME."
	exit 1
fi
# nvdisasm, for the SASS view (show --sass, v in the code pane): the toolkit's, or NVIDIA's
# nvidia-cuda-nvdisasm package from PyPI unpacked into build/tools, where the binary looks beside
# itself (make install copies it). Optional: without it that view says how to get it.
if [ -n "$fetch" ]; then
	tmpw=$(mktemp -d)
	if timeout 180 python3 -m pip download -q --no-deps --only-binary=:all: -d "$tmpw" nvidia-cuda-nvdisasm </dev/null >/dev/null 2>&1 &&
		mkdir -p "$tools" && python3 - "$tmpw" "$tools" <<'PY'
import glob, os, sys, zipfile
whl = glob.glob(os.path.join(sys.argv[1], "*.whl"))[0]
with zipfile.ZipFile(whl) as z:
    name = next(n for n in z.namelist() if n.endswith("/bin/nvdisasm"))
    out = os.path.join(sys.argv[2], "nvdisasm")
    with z.open(name) as src, open(out + ".tmp", "wb") as dst:
        dst.write(src.read())
    os.chmod(out + ".tmp", 0o755)
    os.rename(out + ".tmp", out)
PY
	then echo "cudaclimb: fetched nvdisasm (NVIDIA's nvidia-cuda-nvdisasm package) into $tools, for the SASS view"
	else echo "cudaclimb: no nvdisasm (the SASS view needs it): it comes with the CUDA Toolkit, or: pip install nvidia-cuda-nvdisasm"
	fi
	rm -rf "$tmpw"
fi
exit 0
