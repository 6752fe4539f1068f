# shellcheck shell=dash
# harness.sh - the guest side of the test harness, sourced by each /init.
#
# An /init lists its suites with "suite <abi-name> <dir>" and then calls
# harness_main. In test mode the guest prints KTAP on the console: one
# top-level test per ABI suite, one subtest per test binary, and the
# binary's own KTAP nested inside. It ends with an end-of-run line and the
# verdict passed to QEMU by debug-exit (scripts/targets/<target>.conf's
# GUEST_EXIT_SOURCE). Kernel command line:
#   harness.mode=test|bench|profile|shell  run the tests (default), the
#                             benchmark suites, one benchmark variant
#                             (harness.profile), or give a shell
#   harness.bench=smoke|full  benchmark size (default smoke)
#   harness.profile=<abi>:<variant>:<calls>  in profile mode, run only
#                             the benchmark suite of <abi>, making
#                             <calls> calls of one of its variants and
#                             timing none (make profile, whose QEMU logs
#                             each block of code that the kernel runs)
#   harness.timeout=<s>       per-binary time limit (default 300)
#   harness.skip=<a>,<b>      test binaries not to run on this kernel,
#                             each reported as skipped (the debug kernels
#                             skip what their checkers slow past the
#                             time limit)
#   harness.cross_base=<base> the binaries were built for another kernel
#                             base than the running kernel's (make
#                             check-cross-base); the tests see it in
#                             $HARNESS_CROSS_BASE

HARNESS_SUITES=
HARNESS_FAILED=0

# Register a suite: the test binaries in <dir>, run as ABI <abi-name>.
suite() {
	HARNESS_SUITES="$HARNESS_SUITES $1:$2"
}

# Register a benchmark suite: the binaries in <dir>, run as ABI <abi-name>
# in bench mode only.
bench_suite() {
	HARNESS_BENCH_SUITES="${HARNESS_BENCH_SUITES:-} $1:$2"
}

# Register the KUnit suites that ran at boot, read from debugfs, as one
# suite named <name>.
kunit_suite() {
	HARNESS_SUITES="$HARNESS_SUITES $1:@kunit"
}

# Print a KTAP bail-out and end the run as failed.
harness_bail_out() {
	echo "Bail out! harness: $*"
	/lib/harness/debug-exit 1
	reboot -f
}

harness_mount() {
	/bin/busybox mount -t proc proc /proc || harness_bail_out "cannot mount /proc"
	/bin/busybox --install -s /bin || harness_bail_out "busybox --install failed"
	mount -t sysfs sysfs /sys || harness_bail_out "cannot mount /sys"
	mount -t devtmpfs devtmpfs /dev || harness_bail_out "cannot mount /dev"
	mount -t tmpfs tmpfs /tmp || harness_bail_out "cannot mount /tmp"
	mount -t debugfs debugfs /sys/kernel/debug ||
		harness_bail_out "cannot mount /sys/kernel/debug"
}

# Print the value of a harness.<key>= kernel parameter, or <default>.
harness_param() {
	# shellcheck disable=SC2013
	for word in $(cat /proc/cmdline); do
		case $word in
		harness.$1=*) echo "${word#*=}"; return ;;
		esac
	done
	echo "$2"
}

# Centiseconds since boot, from /proc/uptime.
uptime_cs() {
	read -r up _ < /proc/uptime
	echo "${up%.*}${up#*.}" | sed 's/^0*//; s/^$/0/'
}

# Run one binary as subtest <num> of the current suite, indented to depth 2.
run_binary() {
	local num="$1" abi="$2" bin="$3"
	local name="${bin##*/}" status sig
	case ",$HARNESS_SKIP," in
	*",$name,"*)
		echo "  # harness: $abi/$name not run: harness.skip=$HARNESS_SKIP"
		echo "  ok $num $name # SKIP harness.skip"
		return 0 ;;
	esac
	echo "  # harness: running $abi/$name"
	{
		HARNESS_ABI=$abi timeout -s KILL "$HARNESS_TIMEOUT" "$bin" 2>&1 < /dev/null
		echo $? > /tmp/harness-status
	} | sed 's/^/    /'
	status=$(cat /tmp/harness-status)
	case $status in
	0)	echo "  ok $num $name" ;;
	4)	echo "  ok $num $name # SKIP" ;;
	13[7])	echo "  # harness: $abi/$name killed by signal 9 (KILL): timed out after ${HARNESS_TIMEOUT}s, or out of memory"
		echo "  not ok $num $name # killed by signal 9"
		return 1 ;;
	129|1[3-9][0-9]|2[0-5][0-9])
		sig=$((status - 128))
		echo "  # harness: $abi/$name killed by signal $sig ($(kill -l $sig))"
		echo "  not ok $num $name # killed by signal $sig"
		return 1 ;;
	*)	echo "  not ok $num $name # exit status $status"
		return 1 ;;
	esac
}

# Report KUnit suite <results> (its debugfs results file) as subtest
# <num>. The file is KTAP of its own: its indented lines are the suite's
# test cases, already at depth 2, and its last top-level line the verdict.
run_kunit_results() {
	local num="$1" results="$2" name
	name=${results%/results}
	name=${name##*/}
	grep '^    ' "$results"
	if tail -n 1 "$results" | grep -q '^ok '; then
		echo "  ok $num $name"
	else
		echo "  not ok $num $name"
		return 1
	fi
}

# A kernel with kmemleak (make test DEBUG=1) gets one more suite, named
# kmemleak, after those of /init: a scan once every test has run. The host
# expects it (console_verdict.py --expect-suite kmemleak).
kmemleak_suite() {
	[ -e /sys/kernel/debug/kmemleak ] || return 0
	HARNESS_SUITES="$HARNESS_SUITES kmemleak:@kmemleak"
}

# Scan for leaks as subtest <num>, and print the report as diagnostics;
# any unreferenced object fails it. kmemleak reports only objects older
# than 5 s at the start of a scan, so the first scan waits that long after
# the last test. The second, as Documentation/dev-tools/kmemleak.rst
# advises, drops what the first saw referenced only from a register or a
# list in flight: the file lists what is still unreferenced after it.
run_kmemleak_scan() {
	local num="$1" k=/sys/kernel/debug/kmemleak leaks
	echo "  # harness: kmemleak: two scans, 6 s apart"
	sleep 6
	if ! echo scan 2>/dev/null > $k; then
		echo "  # harness: kmemleak: cannot scan: it disabled itself (see the boot log)"
		echo "  not ok $num scan # kmemleak disabled"
		return 1
	fi
	sleep 6
	echo scan > $k
	cat $k > /tmp/kmemleak 2>&1
	sed 's/^/    # /' /tmp/kmemleak
	leaks=$(grep -c '^unreferenced object' /tmp/kmemleak || true)
	if [ -s /tmp/kmemleak ]; then
		echo "  not ok $num scan # $leaks unreferenced objects"
		return 1
	fi
	echo "  ok $num scan"
}

# Run every binary of one suite as top-level test <num>.
run_suite() {
	local num="$1" abi="$2" dir="$3" bins count start failed i b
	echo "  KTAP version 1"
	echo "  # Subtest: $abi"
	# The names are our own, without spaces or newlines.
	# shellcheck disable=SC2012
	if [ "$dir" = @kunit ]; then
		bins=$(ls /sys/kernel/debug/kunit/*/results 2>/dev/null | sort)
	elif [ "$dir" = @kmemleak ]; then
		bins=scan
	else
		bins=$(ls "$dir" 2>/dev/null | sort)
	fi
	count=$(echo "$bins" | grep -c . || true)
	echo "  1..$count"
	start=$(uptime_cs)
	failed=0
	if [ "$count" -eq 0 ]; then
		echo "  # harness: no tests in $dir"
		failed=1
	fi
	i=0
	for b in $bins; do
		i=$((i + 1))
		if [ "$dir" = @kunit ]; then
			run_kunit_results "$i" "$b" || failed=1
		elif [ "$dir" = @kmemleak ]; then
			run_kmemleak_scan "$i" || failed=1
		else
			run_binary "$i" "$abi" "$dir/$b" || failed=1
		fi
	done
	echo "  # harness: suite $abi elapsed_cs=$(($(uptime_cs) - start))"
	if [ "$failed" -eq 0 ]; then
		echo "ok $num $abi"
	else
		echo "not ok $num $abi"
		HARNESS_FAILED=1
	fi
}

harness_run_tests() {
	local n s
	echo "KTAP version 1"
	echo "# harness: target $HARNESS_TARGET, kernel $(uname -r), machine $(uname -m)"
	# Whether user accesses pay for STAC/CLAC (SMAP) matters to the
	# benchmark's figures.
	echo "# harness: cpu $(sed -n '/^model name/{s/.*: //p;q}' /proc/cpuinfo):" \
		"smap $(grep -q '^flags.* smap' /proc/cpuinfo && echo on || echo off)," \
		"smep $(grep -q '^flags.* smep' /proc/cpuinfo && echo on || echo off)"
	# One word per suite: split on purpose.
	# shellcheck disable=SC2086
	set -- $HARNESS_SUITES
	echo "1..$#"
	n=0
	for s in "$@"; do
		n=$((n + 1))
		run_suite "$n" "${s%%:*}" "${s#*:}"
	done
	if [ "$HARNESS_FAILED" -eq 0 ]; then
		echo "# harness: end of run: pass"
	else
		echo "# harness: end of run: fail"
	fi
	/lib/harness/debug-exit "$HARNESS_FAILED"
	# Only reached if debug-exit could not end QEMU; the host reports that.
	reboot -f
}

harness_shell() {
	echo "harness: shell on $HARNESS_TARGET; tests are in /tests; 'reboot -f' leaves"
	setsid cttyhack sh -l
	reboot -f
}

harness_main() {
	harness_mount
	HARNESS_TIMEOUT=$(harness_param timeout 300)
	HARNESS_SKIP=$(harness_param skip "")
	HARNESS_CROSS_BASE=$(harness_param cross_base "")
	export HARNESS_CROSS_BASE
	case $(harness_param mode test) in
	test)	kmemleak_suite
		harness_run_tests ;;
	bench)	HARNESS_SUITES=${HARNESS_BENCH_SUITES:-}
		BENCH_SIZE=$(harness_param bench smoke)
		export BENCH_SIZE
		harness_run_tests ;;
	profile)
		profile=$(harness_param profile "")
		HARNESS_SUITES=
		for s in ${HARNESS_BENCH_SUITES:-}; do
			[ "${s%%:*}" = "${profile%%:*}" ] &&
				HARNESS_SUITES="$HARNESS_SUITES $s"
		done
		[ -n "$HARNESS_SUITES" ] ||
			harness_bail_out "harness.profile=$profile: no benchmark suite of that ABI"
		BENCH_PROFILE=${profile#*:}
		export BENCH_PROFILE
		harness_run_tests ;;
	shell)	harness_shell ;;
	*)	echo "harness: unknown harness.mode '$(harness_param mode test)'"
		reboot -f ;;
	esac
}
