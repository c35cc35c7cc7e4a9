#!/usr/bin/env python3
"""Rewrites every code block marked `<!-- sample: PATH -->` in README.md, Docs/ and the DocC catalogs with the
file at PATH, so a page shows its sample verbatim. `DocSamplesTests` checks the same thing; this fixes it.

Usage: Scripts/sync-samples.py        (from anywhere; prints the pages it changed)
"""
import glob
import os
import re

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
marker = re.compile(r"^<!--\s*sample:\s*(\S+)\s*-->$")


def sync(page):
    with open(page) as f:
        lines = f.read().split("\n")
    out = []
    index = 0
    while index < len(lines):
        line = lines[index]
        out.append(line)
        match = marker.match(line.strip())
        if match and index + 1 < len(lines) and lines[index + 1].strip().startswith("```"):
            fence = lines[index + 1]
            end = index + 2
            while end < len(lines) and not lines[end].strip().startswith("```"):
                end += 1
            with open(os.path.join(root, match.group(1))) as f:
                sample = f.read().rstrip("\n").split("\n")
            out += [fence] + sample + [lines[end] if end < len(lines) else "```"]
            index = end + 1
            continue
        index += 1
    text = "\n".join(out)
    with open(page) as f:
        changed = f.read() != text
    if changed:
        with open(page, "w") as f:
            f.write(text)
        print(os.path.relpath(page, root))


pages = [os.path.join(root, "README.md")] + sorted(glob.glob(os.path.join(root, "Docs", "**", "*.md"), recursive=True))
pages += sorted(glob.glob(os.path.join(root, "Sources", "*", "*.docc", "**", "*.md"), recursive=True))
for page in pages:
    sync(page)
