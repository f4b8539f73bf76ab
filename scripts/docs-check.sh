#!/usr/bin/env bash
# PortvaktKit's DocC catalog (Sources/PortvaktKit/PortvaktKit.docc) builds, and DocC has nothing to warn about:
# every symbol link resolves, every article is curated. The archive lands in .build/plugins.
set -euo pipefail
cd "$(dirname "$0")/.."
output=$(swift package generate-documentation --target PortvaktKit --warnings-as-errors 2>&1) || { echo "$output" >&2; exit 1; }
if echo "$output" | grep -E "warning:|error:" >&2; then
  echo "docs-check: DocC warned about the catalog (above)" >&2
  exit 1
fi
echo "$output" | tail -1
