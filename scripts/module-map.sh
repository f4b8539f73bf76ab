#!/usr/bin/env bash
# Prints the map of the package's modules: lines of Swift, files, the longest file, and the
# modules each depends on (from `swift package describe`), plus what issue 34 measures: uses of
# Broker, and HTTP imports in the domain module.
set -euo pipefail
cd "$(dirname "$0")/.."
swift package describe --type json 2>/dev/null | python3 -c '
import json, os, sys
package = json.load(sys.stdin)
print(f"{\"module\":<22} {\"lines\":>6} {\"files\":>5} {\"longest\":>7}  depends on (in this package; products elsewhere)")
for target in sorted(package["targets"], key=lambda t: t["path"]):
    if target["type"] == "test":
        continue
    files = [os.path.join(target["path"], f) for f in target["sources"] if f.endswith(".swift")]
    lines = [sum(1 for _ in open(f)) for f in files]
    local = target.get("target_dependencies", [])
    products = target.get("product_dependencies", [])
    print(f"{target[\"name\"]:<22} {sum(lines):>6} {len(files):>5} {max(lines, default=0):>7}  {\", \".join(local)}" + (f"; {\", \".join(products)}" if products else ""))
'
echo
echo "Broker uses in Sources: $(grep -rw Broker Sources | wc -l) lines in $(grep -rlw Broker Sources | wc -l) files"
echo "HTTP imports in PortvaktDomain: $(grep -rE '^import (Hummingbird|HTTPTypes|NIO|AsyncHTTPClient)' Sources/PortvaktDomain | wc -l)"
echo "Swift sources over 400 lines: $(find Sources -name '*.swift' -exec wc -l {} + | awk '$2 != "total" && $1 > 400' | wc -l)"
