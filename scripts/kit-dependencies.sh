#!/usr/bin/env bash
# Issue 61 item 2: an app that depends on PortvaktKit alone, with the package's default trait
# ("Server") turned off, resolves swift-crypto (and its swift-asn1) and nothing of the server's.
# Resolves a throwaway app package beside the checkout; prints what it resolved.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
case "$root" in *'"'* | *'\'*) echo "kit-dependencies: the checkout's path has a quote or backslash: $root" >&2; exit 1 ;; esac
# SwiftPM names a path dependency by its last component, lowercased, without a .git suffix.
identity=$(basename "$root" | tr '[:upper:]' '[:lower:]'); identity=${identity%.git}
app=$(mktemp -d)
trap 'rm -rf "$app"' EXIT
mkdir -p "$app/Sources/KitApp"
cat >"$app/Package.swift" <<MANIFEST
// swift-tools-version: 6.1
import PackageDescription
let package = Package(
    name: "KitApp",
    platforms: [.macOS("14.4"), .iOS("17.4")],
    dependencies: [.package(path: "$root", traits: [])],
    targets: [.executableTarget(name: "KitApp", dependencies: [.product(name: "PortvaktKit", package: "$identity")])]
)
MANIFEST
echo 'import PortvaktKit' >"$app/Sources/KitApp/main.swift"
(cd "$app" && swift package resolve >"$app/resolve.log" 2>&1) || { cat "$app/resolve.log" >&2; exit 1; }
resolved=$(python3 -c 'import json,sys; print(" ".join(sorted(p["identity"] for p in json.load(open(sys.argv[1]))["pins"])))' "$app/Package.resolved")
echo "kit-dependencies: an app with PortvaktKit alone resolves: $resolved"
[ "$resolved" = "swift-asn1 swift-crypto" ] || { echo "kit-dependencies: FAILED, expected swift-asn1 swift-crypto" >&2; exit 1; }
