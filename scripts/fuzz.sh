#!/usr/bin/env bash
# fuzz.sh DURATION [PATTERN]: run every fuzz target of the module, one after
# the other, for DURATION each (a Go duration: 30m, 300s; or Nx executions),
# with one worker (-parallel 1) and a memory limit per target process.
#
# Each target's test binary is built first (with the fuzzing
# instrumentation), then run in its package directory under
# `ulimit -v` (virtual memory, default 4 GiB; FUZZ_MEM_KB overrides, in KiB)
# with GOMEMLIMIT set below it, so that an input that makes the code
# allocate out of proportion fails as a crash the fuzzer records, instead of
# taking the machine down. No cgroups: it works as root in a plain shell.
#
# New interesting inputs and crashers are minimized for at most
# FUZZ_MINIMIZE (default 10s; Go's default of 60s leaves a short run
# executing nothing while it shrinks a large input).
#
# PATTERN (an extended regexp) selects targets by "pkg/dir:FuzzName".
# Output: one line per target (package, target, seconds, executions,
# result); logs in ${FUZZ_LOG_DIR:-/tmp/deup-fuzz}/<pkg>_<target>.log. A
# failing input is written by Go to the package's testdata/fuzz/<target>/.
# The exit status is 1 if any target failed.
set -u
if [ $# -lt 1 ]; then
	echo "usage: $0 DURATION [PATTERN]" >&2
	exit 2
fi
dur=$1
pat=${2:-.}
mem_kb=${FUZZ_MEM_KB:-4194304}
minimize=${FUZZ_MINIMIZE:-10s}
logdir=${FUZZ_LOG_DIR:-/tmp/deup-fuzz}
root=$(cd "$(dirname "$0")/.." && pwd)
cache=$(go env GOCACHE)
module=$(cd "$root" && go list -m)
mkdir -p "$logdir"
cd "$root" || exit 2

# Every `func FuzzXxx(` in a _test.go file, as dir:name.
targets=$(grep -rn --include='*_test.go' -E '^func Fuzz[A-Za-z0-9_]*\(' . |
	sed -E 's|^\./([^:]*)/[^/:]*:[0-9]+:func (Fuzz[A-Za-z0-9_]*)\(.*|\1:\2|; s|^\./[^/:]*:[0-9]+:func (Fuzz[A-Za-z0-9_]*)\(.*|.:\1|' |
	sort -u | grep -E -- "$pat")
if [ -z "$targets" ]; then
	echo "no fuzz targets match $pat" >&2
	exit 2
fi

failed=0
printf '%-18s %-26s %8s %12s  %s\n' package target seconds execs result
for t in $targets; do
	dir=${t%%:*}
	name=${t#*:}
	log="$logdir/${dir//\//_}_$name.log"
	bin="$logdir/${dir//\//_}_$name.test"
	if ! go test -c -fuzz="^$name\$" -o "$bin" "./$dir" >"$log" 2>&1; then
		printf '%-18s %-26s %8s %12s  %s\n' "$dir" "$name" - - "BUILD FAILED ($log)"
		failed=1
		continue
	fi
	pkg=$module
	[ "$dir" != . ] && pkg="$module/$dir"
	start=$(date +%s)
	(
		cd "$dir" || exit 2
		ulimit -v "$mem_kb"
		export GOMEMLIMIT=$((mem_kb / 1024 / 2))MiB
		exec "$bin" -test.run='^$' -test.fuzz="^$name\$" -test.fuzztime="$dur" \
			-test.fuzzminimizetime="$minimize" -test.parallel=1 -test.fuzzcachedir="$cache/fuzz/$pkg"
	) >>"$log" 2>&1
	rc=$?
	secs=$(($(date +%s) - start))
	execs=$(grep -oE 'execs: [0-9]+' "$log" | tail -1 | grep -oE '[0-9]+')
	if [ $rc -eq 0 ]; then
		result=ok
	else
		failed=1
		input=$(grep -oE 'testdata/fuzz/[^ ]+' "$log" | tail -1)
		result="FAIL${input:+ $dir/$input} (see $log)"
	fi
	printf '%-18s %-26s %8s %12s  %s\n' "$dir" "$name" "$secs" "${execs:--}" "$result"
	rm -f "$bin"
done
exit $failed
