#!/usr/bin/env bash
# Fuzzes the WebAuthn CBOR decoder (Sources/WebAuthn/CBOR) with libFuzzer and AddressSanitizer
# for FUZZ_SECONDS (default 60): it must never crash, hang or read out of bounds, whatever a
# browser sends. The corpus starts from the recorded attestation objects.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-60}
out=.build/fuzz-cbor
mkdir -p "$out/corpus"
swiftc -O -sanitize=fuzzer,address -parse-as-library -module-name FuzzCBOR \
  Sources/WebAuthn/CBOR/*.swift Fuzz/CBOR/FuzzCBOR.swift -o "$out/fuzz-cbor" 2>"$out/build.log" || { cat "$out/build.log" >&2; exit 1; }
python3 - "$out/corpus" <<'PY'
import base64, re, sys
text = open("Tests/WebAuthnTests/RecordedVectors.swift").read()
for i, value in enumerate(re.findall(r'attestationObject: "([A-Za-z0-9_-]+)"', text)):
    open(f"{sys.argv[1]}/recorded-{i}", "wb").write(base64.urlsafe_b64decode(value + "=" * (-len(value) % 4)))
PY
"$out/fuzz-cbor" -max_total_time="$seconds" -max_len=4096 -timeout=5 -rss_limit_mb=1024 -print_final_stats=1 "$out/corpus" 2>&1 | tail -8
echo "fuzz-cbor: no crash in ${seconds}s"
