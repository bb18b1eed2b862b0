# SPDX-License-Identifier: MIT
# Shared by the cocotb benches' run.sh (tests/eth/mac10g, tests/fpga_common/*):
# pass/fail counting and the cocotb result handling. Source it after setting
# ROOT, TB (the bench folder), BUILD, LOGS and PY (the venv's python).
#
#   ok NAME / bad NAME [LOG]   count a check (bad prints the log's tail)
#   section TITLE              a heading
#   check_quiet NAME CMD...    passes when CMD exits 0 and prints nothing
#   check_fails NAME CMD...    passes when CMD exits non-zero
#   cocotb_run RUN ARGS...     runs a bench into $BUILD/RUN (default: make -f
#                              $TB/Makefile ARGS; a run.sh may redefine it) and
#                              prints one line per test (cocotb_results)
#   cocotb_pass RUN ARGS...    every test of the run must pass
#   cocotb_fail RUN ARGS...    every test must fail (negative controls, mutants)
#   summary                    the closing "N passed, N failed" line; exit status

passed=0
failed=0

ok() { passed=$((passed + 1)); printf 'ok    %s\n' "$1"; }
bad() {
    failed=$((failed + 1))
    printf 'FAIL  %s\n' "$1"
    [[ -n ${2:-} && -f $2 ]] && tail -n 30 "$2" | sed 's/^/      /'
}
section() { printf '\n== %s\n' "$*"; }

check_log() { printf '%s/%s.log' "$LOGS" "${1//[^A-Za-z0-9_.-]/_}"; }

check_quiet() {
    local name=$1 log
    log=$(check_log "$1")
    shift
    if (cd "$ROOT" && "$@") >"$log" 2>&1 && [[ ! -s $log ]]; then ok "$name"; else bad "$name" "$log"; fi
}

check_fails() {
    local name=$1 log
    log=$(check_log "$1")
    shift
    if (cd "$ROOT" && "$@") >"$log" 2>&1; then bad "$name (elaborated)" "$log"; else ok "$name"; fi
}

# cocotb_results DIR: one line per test of DIR/results.xml ("passed NAME",
# "FAILED NAME", "skipped NAME"); returns the number of failed tests, 255 when
# there are no results (the simulation did not run)
cocotb_results() {
    if [[ ! -f $1/results.xml ]]; then
        echo "no results.xml"
        return 255
    fi
    "$PY" - "$1/results.xml" <<'PYEOF'
import sys
import xml.etree.ElementTree as ET
bad = 0
for tc in ET.parse(sys.argv[1]).getroot().iter("testcase"):
    if tc.find("skipped") is not None:
        print("skipped " + tc.get("name"))
        continue
    failed = tc.find("failure") is not None or tc.find("error") is not None
    bad += failed
    print(("FAILED " if failed else "passed ") + tc.get("name"))
sys.exit(min(bad, 254))
PYEOF
}

cocotb_run() {
    local run=$1
    shift
    local dir="$BUILD/$run"
    mkdir -p "$dir"
    rm -f "$dir/results.xml"
    (cd "$dir" && make -f "$TB/Makefile" "$@") >"$LOGS/$run.log" 2>&1
    cocotb_results "$dir"
}

cocotb_pass() {
    local run=$1 out status line
    out=$(cocotb_run "$@")
    status=$?
    while IFS= read -r line; do
        case $line in
            "passed "*) ok "$run: ${line#passed }" ;;
            "FAILED "*) bad "$run: ${line#FAILED }" ;;
        esac
    done <<<"$out"
    if [[ $status -eq 255 ]]; then bad "$run: simulation did not run" "$LOGS/$run.log"; fi
    if [[ $status -ne 0 && $status -ne 255 ]]; then
        grep -E "Error|assert|Traceback" "$LOGS/$run.log" | head -n 20 | sed 's/^/      /'
    fi
}

cocotb_fail() {
    local run=$1 out status n
    out=$(cocotb_run "$@")
    status=$?
    n=$(grep -c -E '^(passed|FAILED) ' <<<"$out")
    if [[ $status -ne 255 && $status -eq $n && $n -gt 0 ]]; then
        ok "$run: all $n test(s) failed, as they must"
    else
        bad "$run: expected every test to fail, got: $(tr '\n' ';' <<<"$out")" "$LOGS/$run.log"
    fi
}

summary() {
    echo "$passed passed, $failed failed"
    [[ $failed -eq 0 ]]
}
