#!/usr/bin/env bash
# Runs every test: unit and storage tests on SQLite and on a throwaway PostgreSQL, PortvaktKit's DocC catalog, a smoke test of
# the real server binary on both databases, SIGTERM under load, the deployment files, schemathesis against /openapi.json, the web portal in Chromium with axe-core, a soak of unread request bodies (sockets and memory back
# to baseline), an independent OIDC client (Python Authlib)
# against its sandbox, spans over OTLP to a local receiver (opentelemetry-proto), an independent SCIM client (Python scim2-client) against /scim/v2, and the end-to-end suite of the `portvakt` CLI on both databases. When CI=true, a missing PostgreSQL or Authlib fails.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -z "${PORTVAKT_TEST_POSTGRES_URL:-}" ]; then
  if started=$(scripts/start-postgres.sh); then
    eval "$started"
    started_postgres=1
  elif [ "${CI:-}" = "true" ]; then
    echo "test.sh: PostgreSQL is required when CI=true" >&2
    exit 1
  else
    echo "test.sh: WARNING: no PostgreSQL; storage tests run on SQLite only" >&2
  fi
fi

# The SMTP client's tests (Tests/PortvaktServerTests/Mail) talk to a real server, aiosmtpd
# (scripts/smtp-test-server.py); without it they skip, and fail when CI=true.
python3 -c "import aiosmtpd" 2>/dev/null \
  || PIP_BREAK_SYSTEM_PACKAGES=1 python3 -m pip install --quiet -r scripts/smtp/requirements.txt \
  || echo "test.sh: WARNING: no aiosmtpd (PyPI); the SMTP tests skip" >&2

# Each stage has a deadline, so a test that hangs fails the run with its stage's name instead
# of holding CI until its own limit. `timeout` runs a stage in a process group of its own, so an
# interrupt of this script is passed on to it.
within() {
  local minutes=$1; shift
  local started=$SECONDS status=0 pid
  timeout --kill-after=30 "$((minutes * 60))" "$@" &
  pid=$!
  trap 'kill -TERM -- "-$pid" 2>/dev/null; exit 130' INT TERM
  wait "$pid" || status=$?
  trap - INT TERM
  if [ "$status" -ne 0 ] && [ $((SECONDS - started)) -ge $((minutes * 60)) ]; then
    echo "test.sh: $* did not finish within $minutes minutes" >&2
  fi
  stage_time "$((SECONDS - started)) s  $*"
  return "$status"
}

# What each stage cost, printed at the end (docs/testing.md keeps the figures). Kept in a file,
# so the stages of the second lane (below) are counted too.
stage_times=.build/stage-times.txt
stage_time() { mkdir -p .build; echo "$1" >>"$stage_times"; }
print_stage_times() {
  echo "test.sh: seconds per stage"
  sed 's/^/  /' "$stage_times" 2>/dev/null || true
}
# CI shows only the end of the output, so a failed `swift test` names its failures again last.
print_test_failures() {
  [ -f .build/test-output.txt ] || return 0
  local failures
  failures=$(sed 's/\x1b\[[0-9;]*m//g' .build/test-output.txt \
    | grep -E '^✘ |error: |Expectation failed|recorded an issue|Fatal error|Test Case .* failed' | head -40) || true
  if [ -n "$failures" ]; then
    echo "test.sh: what swift test reported as failing"
    printf '%s\n' "$failures"
  fi
}
trap 'stop_second_lane; print_test_failures; print_stage_times; if [ -n "${started_postgres:-}" ]; then scripts/stop-postgres.sh; fi' EXIT

rm -f .build/test-output.txt "$stage_times"
started=$SECONDS
swift build --build-tests
stage_time "$((SECONDS - started)) s  swift build --build-tests"
within 40 swift test --no-parallel 2>&1 | tee .build/test-output.txt
grep -E "Test run with [0-9]+ tests" .build/test-output.txt | tail -1

# The second lane: stages that mostly wait (interop waits 60 s for a pushed request to expire, e2e
# 21 s per database for a session's end) or keep one core busy (the fuzzer) run beside the
# others, whose own timing they do not share (the shutdown test runs while interop waits).
# Their output is printed when the lane ends; a failure fails the run as any stage's does.
second_lane() {
  within 10 scripts/interop-test.sh
  # The WebAuthn CBOR decoder under libFuzzer for a bounded time (a crash fails the run).
  FUZZ_SECONDS=${FUZZ_SECONDS:-60} within 5 scripts/fuzz-cbor.sh
  within 15 scripts/e2e-test.sh
}
second_lane >.build/second-lane.txt 2>&1 &
second_lane_pid=$!
stop_second_lane() {
  [ -n "${second_lane_pid:-}" ] || return 0
  kill -TERM "$second_lane_pid" 2>/dev/null || true
  wait "$second_lane_pid" 2>/dev/null || true
  echo "test.sh: the second lane (interop, fuzz, e2e) was stopped; what it printed:"
  cat .build/second-lane.txt
}

# PortvaktKit's DocC catalog builds without a warning (issue 47).
within 10 scripts/docs-check.sh
within 10 scripts/smoke-test.sh
within 10 scripts/going-live-test.sh
within 10 scripts/shutdown-test.sh
within 10 scripts/deploy-check.sh
within 10 scripts/openapi-test.sh
within 15 scripts/browser-test.sh
within 10 scripts/soak-test.sh
within 5 scripts/tracing-test.sh
within 10 scripts/scim-interop-test.sh

lane_status=0
wait "$second_lane_pid" || lane_status=$?
second_lane_pid=""
echo "test.sh: the second lane (interop, fuzz, e2e):"
cat .build/second-lane.txt
exit "$lane_status"
