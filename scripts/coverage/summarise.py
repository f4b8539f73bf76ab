"""Prints line, region and branch coverage per module of Sources/ (and for the files in COVERAGE_FILES)
from `llvm-cov export -summary-only` JSON, as a Markdown table."""
import json
import os
import sys
from collections import defaultdict

KINDS = ("lines", "regions", "branches")


def percent(covered, count):
    return "-" if count == 0 else f"{100 * covered / count:.1f} %"


def row(name, totals):
    return f"| {name} | " + " | ".join(
        f"{percent(totals[k]['covered'], totals[k]['count'])} of {totals[k]['count']}" for k in KINDS) + " |"


def main(path):
    files = json.load(open(path))["data"][0]["files"]
    root = os.getcwd() + "/"
    modules = defaultdict(lambda: {k: {"count": 0, "covered": 0} for k in KINDS})
    named = {}
    wanted = os.environ.get("COVERAGE_FILES", "").split()
    for entry in files:
        name = entry["filename"].removeprefix(root)
        parts = name.split("/")
        if len(parts) < 3 or parts[0] != "Sources":
            continue
        for kind in KINDS:
            for key in ("count", "covered"):
                modules[parts[1]][kind][key] += entry["summary"][kind][key]
        if name in wanted:
            named[name] = entry["summary"]
    print("| module / file | lines | regions | branches |")
    print("|---|---|---|---|")
    for module in sorted(modules):
        print(row(module, modules[module]))
    for name in wanted:
        if name in named:
            print(row(name, named[name]))
        else:
            print(f"| {name} | not found | | |")


if __name__ == "__main__":
    main(sys.argv[1])
