#!/bin/bash
# Tests the /e2e/commands interpreter of tests/arm64/init.c on the host: not PID 1, init only
# interprets the script it is given and exits with the result, printing the same lines it
# prints on the guest console. Env: CC (default cc), CFLAGS (e.g. -fsanitize=address,undefined).
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
${CC:-cc} -std=gnu11 -O1 -g -Wall -Wextra -Werror ${CFLAGS:-} -o "$tmp/init" "$here/init.c" ||
	exit 1

passed=0
failed=0

printf '#!/bin/sh\nexit 3\n' > "$tmp/exit3.sh"
# A stand-in for animtrace: a ready line on stderr, output on stdout, clean exit on SIGINT.
cat > "$tmp/tracer.sh" <<'EOF'
#!/bin/sh
trap 'echo stopped; exit 0' INT
echo "args: $*"
echo "tracing now" >&2
while :; do sleep 0.05; done
EOF
chmod +x "$tmp/exit3.sh" "$tmp/tracer.sh"

# expect NAME WANT_RC WANT_OUTPUT: runs $tmp/script, compares exit status and whole output.
# init always starts with SIGINT ignored, as under nohup or in a background job: its
# children must get SIGINT anyway, whatever the caller's environment.
expect() {
	local got rc
	got=$(cd "$tmp" && (trap '' INT; exec ./init script) 2>&1)
	rc=$?
	got=$(printf '%s\n' "$got" | sed 's/pid [0-9]* /pid PID /')
	if [ "$rc" = "$2" ] && [ "$got" = "$3" ]; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		printf 'FAIL: %s (rc %s, want %s)\n--- got:\n%s\n--- want:\n%s\n' "$1" "$rc" "$2" \
			"$got" "$3"
	fi
}

cat > "$tmp/script" <<'EOF'
# a comment, then a blank line

run /bin/echo hello   world
EOF
expect "a foreground command prints to the console and passes" 0 "e2e: run /bin/echo hello   world
hello world
e2e: /bin/echo exited 0
ANIMTRACE-E2E-RC=0"

cat > "$tmp/script" <<'EOF'
run /bin/false
run ./exit3.sh
run /bin/true
EOF
expect "the first failure sets the result and later commands still run" 1 "e2e: run /bin/false
e2e: /bin/false exited 1
e2e: run ./exit3.sh
e2e: ./exit3.sh exited 3
e2e: run /bin/true
e2e: /bin/true exited 0
ANIMTRACE-E2E-RC=1"

cat > "$tmp/script" <<'EOF'
expect-rc 1
run /bin/false
run /nonexistent/program
EOF
expect "expect-rc accepts one status and exec failures give 127" 127 "e2e: expect-rc 1
e2e: run /bin/false
e2e: /bin/false exited 1
e2e: run /nonexistent/program
init: exec /nonexistent/program: No such file or directory
e2e: /nonexistent/program exited 127
ANIMTRACE-E2E-RC=127"

cat > "$tmp/script" <<'EOF'
timeout 1
run /bin/sleep 5
EOF
expect "a command over the timeout is killed with status 124" 124 "e2e: timeout 1
e2e: run /bin/sleep 5
init: pid PID timed out after 1 s, killing it
e2e: /bin/sleep exited 124
ANIMTRACE-E2E-RC=124"

cat > "$tmp/script" <<'EOF'
bg tracer out.txt err.txt ./tracer.sh two words
wait-for err.txt tracing now
run /bin/echo workload
touch go
run /bin/test -e go
signal tracer INT
wait tracer
cat out.txt
EOF
expect "a background process is awaited, signalled, reaped and its output printed" 0 \
"e2e: bg tracer out.txt err.txt ./tracer.sh two words
e2e: wait-for err.txt tracing now
e2e: run /bin/echo workload
workload
e2e: /bin/echo exited 0
e2e: touch go
e2e: run /bin/test -e go
e2e: /bin/test exited 0
e2e: signal tracer INT
e2e: wait tracer
e2e: tracer exited 0
e2e: cat out.txt
----- begin out.txt -----
args: two words
stopped
----- end out.txt -----
ANIMTRACE-E2E-RC=0"

cat > "$tmp/script" <<'EOF'
timeout 1
bg idle o e /bin/sleep 30
wait-for e never
frobnicate
signal nobody INT
EOF
expect "wait-for times out, unknown directives fail and leftovers are killed" 124 \
"e2e: timeout 1
e2e: bg idle o e /bin/sleep 30
e2e: wait-for e never
init: e did not contain \"never\" within 1 s
e2e: frobnicate
init: bad directive: frobnicate
e2e: signal nobody INT
init: no background process nobody
init: idle still running, killing it
ANIMTRACE-E2E-RC=124"

# wait-for reads past its 64 KB buffer: a text across the first read's end (65535 bytes),
# and one after 200 KB.
{ head -c 65530 /dev/zero | tr '\0' x; echo "across the edge"; } > "$tmp/edge.txt"
{ head -c 200000 /dev/zero | tr '\0' x; echo; echo "far down"; } > "$tmp/far.txt"
cat > "$tmp/script" <<'EOF'
timeout 1
wait-for edge.txt across the edge
wait-for far.txt far down
EOF
expect "wait-for finds a text across read boundaries and past 64 KB" 0 "e2e: timeout 1
e2e: wait-for edge.txt across the edge
e2e: wait-for far.txt far down
ANIMTRACE-E2E-RC=0"

cat > "$tmp/script" <<'EOF'
mkdir gate
run /bin/test -d gate
mkdir gate
EOF
expect "mkdir makes a directory and fails when it exists" 1 "e2e: mkdir gate
e2e: run /bin/test -d gate
e2e: /bin/test exited 0
e2e: mkdir gate
init: mkdir gate: File exists
ANIMTRACE-E2E-RC=1"

cat > "$tmp/script" <<'EOF'
write victim root only
symlink victim link
cat link
symlink victim link
EOF
expect "write fills a file, symlink links to it and fails when the link exists" 1 "e2e: write victim root only
e2e: symlink victim link
e2e: cat link
----- begin link -----
root only
----- end link -----
e2e: symlink victim link
init: symlink victim link: File exists
ANIMTRACE-E2E-RC=1"

# 16 background processes at once (headroom for sessions that overlap), a 17th
# is refused.
script="" want=""
for i in $(seq 1 17); do
	script+="bg p$i o$i e$i /bin/true"$'\n'
	want+="e2e: bg p$i o$i e$i /bin/true"$'\n'
done
want+="init: more than 16 background processes"$'\n'
for i in $(seq 1 16); do
	script+="wait p$i"$'\n'
	want+="e2e: wait p$i"$'\n'"e2e: p$i exited 0"$'\n'
done
printf '%s' "$script" > "$tmp/script"
expect "16 background processes run at once and a 17th is refused" 1 "${want}ANIMTRACE-E2E-RC=1"

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
