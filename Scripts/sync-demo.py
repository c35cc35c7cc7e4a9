#!/usr/bin/env python3
"""Pastes what `altimetry demo` prints into README.md, in the block after `<!-- output: altimetry demo -->`.
`ReadmeDemoTests` checks the single hike's part against a fresh run; this writes the whole block.

Usage: Scripts/sync-demo.py        (from anywhere; builds and runs the demo in debug, about a minute)
"""
import os
import re
import subprocess

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
printed = subprocess.run(
    ["swift", "run", "-q", "altimetry", "demo"], cwd=root, check=True, capture_output=True, text=True
).stdout.rstrip("\n")
path = os.path.join(root, "README.md")
with open(path) as f:
    page = f.read()
pattern = re.compile(r"(<!-- output: altimetry demo -->\n```text\n).*?(\n```)", re.S)
if not pattern.search(page):
    raise SystemExit("README.md has no <!-- output: altimetry demo --> block")
updated = pattern.sub(lambda m: m.group(1) + printed + m.group(2), page, count=1)
if updated != page:
    with open(path, "w") as f:
        f.write(updated)
    print("README.md: demo output updated")
