"""Every story criterion a test cites (S1.1 …) is one ../shared/STORIES.md defines (issue 63 item 7):
a citation claims the test proves that criterion, so a number the stories do not have is refused.

Usage: criteria-check.py STORIES.md   (from the checkout's root; prints each bad citation, exits 1)
"""
import glob, re, sys

defined, section = set(), None
for line in open(sys.argv[1], encoding="utf-8"):
    if heading := re.match(r"## S(\d+) ", line):
        section = heading.group(1)
    elif (item := re.match(r"(\d+)\. ", line)) and section:
        defined.add(f"S{section}.{item.group(1)}")

files = sorted(glob.glob("Tests/**/*.swift", recursive=True) + glob.glob("scripts/**/*.sh", recursive=True)
               + glob.glob("scripts/**/*.py", recursive=True))
bad = []
for path in files:
    for number, line in enumerate(open(path, encoding="utf-8", errors="replace"), 1):
        # "S6.3" in a name or comment, "S6_3_" in a function's name (the stories' own example form).
        for m in re.finditer(r"\bS(\d+)[._](\d+|x)(?:\b|_)", line):
            if f"S{m.group(1)}.{m.group(2)}" not in defined:
                bad.append(f"{path}:{number}: {m.group(0).rstrip('_')}")
for citation in bad:
    print(f"criteria check: {citation} is not a criterion of {sys.argv[1]}", file=sys.stderr)
print(f"criteria check: {len(defined)} criteria defined; every citation in {len(files)} test files is one of them" if not bad else "", end="\n" if not bad else "")
sys.exit(1 if bad else 0)
