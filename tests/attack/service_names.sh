#!/bin/sh
# A submission whose file names clash as file and folder ("a", then "a/b.cu") is refused with why, at
# once: before, the service tried to keep it, failed on its own disk ("Not a directory"), logged that
# it could not keep a submission and told the student to tell the instructor, so any student could
# fill the service's log with what reads as a failing disk. Run as root (the service runs under an
# account of its own, uid 2030 here); SKIP otherwise or without python3.
. tests/lib.sh
if [ "$(id -u)" != 0 ]; then skip "service names: needs root to run the service under an account of its own"; exit 0; fi
PY=$(command -v python3 2>/dev/null); [ -x /usr/bin/python3 ] && PY=/usr/bin/python3
if [ -z "$PY" ]; then skip "service names: no python3 for the client"; exit 0; fi
SU=2030 ST=2001
tmp=$(mktemp -d /tmp/cc-svcnames.XXXXXX); pid=
trap '[ -n "$pid" ] && kill $pid 2>/dev/null; rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
mkdir -p "$tmp/course" "$tmp/run" "$tmp/state" "$tmp/store" "$tmp/bin"
cp "$B" "$tmp/bin/cudaclimb"; chmod 755 "$tmp/bin/cudaclimb"
chown $SU "$tmp/run" "$tmp/state" "$tmp/store"; chmod 755 "$tmp/run"; chmod 700 "$tmp/state"; chmod 2750 "$tmp/store"
cat > "$tmp/course/course.yaml" <<Y
course: names
title: "names"
exercises:
  - bandwidth/coalesced
results: results
service: { socket: $tmp/run/s.sock, store: $tmp/store }
Y
cat > "$tmp/serve.yaml" <<Y
socket: $tmp/run/s.sock
state: $tmp/state/s
courses: [ $tmp/course ]
Y
chmod -R a+rX "$tmp/course" "$tmp/serve.yaml"
lessons=$(pwd)/lessons
setpriv --reuid=$SU --regid=$SU --clear-groups env CUDACLIMB_LESSONS="$lessons" "$tmp/bin/cudaclimb" serve --foreground --config "$tmp/serve.yaml" >"$tmp/serve.log" 2>&1 &
pid=$!
for i in $(seq 50); do [ -S "$tmp/run/s.sock" ] && break; sleep 0.1; done
if ! [ -S "$tmp/run/s.sock" ]; then fail "service names: the service did not start: $(tail -3 "$tmp/serve.log")"; exit 0; fi
cat > "$tmp/cl.py" <<'P'
import socket, sys
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); s.settimeout(5)
s.sendall(sys.argv[2].encode().decode("unicode_escape").encode())
out = b""
try:
    while True:
        d = s.recv(65536)
        if not d: break
        out += d
except Exception: pass
print(out.decode(errors="replace"))
P
send() { setpriv --reuid=$ST --regid=$ST --clear-groups "$PY" "$tmp/cl.py" "$tmp/run/s.sock" "$1"; }
# the check can fail: a submission the disk cannot keep is told as such (a name that is also a folder)
for req in 'submit names bandwidth/coalesced 2\nfile a 1\nxfile a/b.cu 1\ny' 'submit names bandwidth/coalesced 2\nfile a/b.cu 1\nxfile a 1\ny'; do
	out=$(send "$req")
	if printf '%s' "$out" | grep -q "another file's folder" && ! grep -q "cannot keep a submission" "$tmp/serve.log"; then
		pass "service names: a file name that is another's folder is refused with why, and the service's log stays clean"
	else fail "service names: '$req' answered: $out; log: $(tail -2 "$tmp/serve.log")"; fi
done
# an honest nested submission is still kept (no GPU here: the judge says so, nothing is recorded)
out=$(send 'submit names bandwidth/coalesced 2\nfile k.cu 1\nxfile inc/a.h 1\ny')
if printf '%s' "$out" | grep -q "^queued"; then pass "service names: files in folders of their own are still kept"
else fail "service names: an honest nested submission: $out"; fi
kill $pid 2>/dev/null; wait $pid 2>/dev/null; pid=
