#!/usr/bin/env bash
# Line, region and branch coverage of `swift test`, per module of Sources/ and for the files named in
# COVERAGE_FILES (PortvaktKit's state machine and driver by default). It builds instrumented binaries in
# .build-coverage (a clean build there is as long as one in .build), so scripts/test.sh does not run it. Needs PostgreSQL as scripts/test.sh does (TEST_POSTGRES_URL).
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=.build-coverage
swift build --build-tests --enable-code-coverage --scratch-path "$scratch"
swift test --skip-build --enable-code-coverage --no-parallel --scratch-path "$scratch" > "$scratch/test-output.txt" 2>&1 \
  || { tail -40 "$scratch/test-output.txt" >&2; exit 1; }
grep -E "Test run with [0-9]+ tests" "$scratch/test-output.txt" | tail -1
profdata=$(dirname "$(swift test --show-codecov-path --scratch-path "$scratch")")/default.profdata
"$(dirname "$(readlink -f "$(command -v swift)")")/llvm-cov" export -summary-only "$scratch/debug/portvaktPackageTests.xctest" -instr-profile "$profdata" \
  -ignore-filename-regex '(\.build|\.build-coverage|Tests|Benchmarks)/' > "$scratch/summary.json"
COVERAGE_FILES=${COVERAGE_FILES:-"Sources/PortvaktKit/Auth/AuthMachine.swift Sources/PortvaktKit/Driver/AuthDriver.swift"} \
  python3 scripts/coverage/summarise.py "$scratch/summary.json"
