#!/usr/bin/env python3
"""Runs every shell block marked `<!-- command -->` in README.md and Docs/ (guides included) and pastes what it
prints (stdout and stderr, through one pipe) into the ```text block that follows it. `DocCommandTests` reruns
the same blocks and compares; this writes them.

A page's blocks run in order, top to bottom, in one scratch folder that links every top-level entry of the
checkout (so `Tests/...` and `Docs/...` resolve) and has `../shared` beside it (so `../shared/data/real/...`
resolves), with the built `altimetry` first on PATH. Files a block writes stay in the scratch folder, for the
blocks below it.

Usage: Scripts/sync-commands.py [PAGE...]   (from anywhere; builds in debug first, as the tests run it)
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
marker = re.compile(r"^<!--\s*command\s*-->$")


def scratch():
    """A folder `checkout` linking the package's entries, with `shared` beside it."""
    base = tempfile.mkdtemp(prefix="doc-commands-")
    checkout = os.path.join(base, "checkout")
    os.mkdir(checkout)
    for entry in os.listdir(root):
        if entry.startswith(".") and entry != ".build":
            continue
        os.symlink(os.path.join(root, entry), os.path.join(checkout, entry))
    shared = os.path.join(os.path.dirname(root), "shared")
    if os.path.isdir(shared):
        os.symlink(shared, os.path.join(base, "shared"))
    return base, checkout


def run(block, cwd, bindir):
    env = dict(os.environ, PATH=bindir + os.pathsep + os.environ["PATH"], LC_ALL="C")
    done = subprocess.run(["/bin/sh", "-c", block], cwd=cwd, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)
    return done.stdout.rstrip("\n")


def sync(page, bindir):
    with open(page) as f:
        lines = f.read().split("\n")
    if not any(marker.match(line.strip()) for line in lines):
        return
    base, checkout = scratch()
    try:
        out = []
        index = 0
        while index < len(lines):
            line = lines[index]
            out.append(line)
            if marker.match(line.strip()) and index + 1 < len(lines) and lines[index + 1].startswith("```"):
                end = index + 2
                while not lines[end].startswith("```"):
                    end += 1
                command = "\n".join(lines[index + 2:end])
                out += lines[index + 1:end + 1]
                printed = run(command, checkout, bindir)
                after = end + 1
                while after < len(lines) and lines[after].strip() == "":
                    after += 1
                if after < len(lines) and lines[after] == "```text":
                    close = after + 1
                    while lines[close] != "```":
                        close += 1
                    out += [""] * (after - end - 1)
                    index = close + 1
                else:
                    out += [""]
                    index = end + 1
                out += ["```text"] + ([printed] if printed else []) + ["```"]
                continue
            index += 1
    finally:
        shutil.rmtree(base)
    text = "\n".join(out)
    if text != "\n".join(lines):
        with open(page, "w") as f:
            f.write(text)
        print(os.path.relpath(page, root))


subprocess.run(["swift", "build", "-q", "--product", "altimetry"], cwd=root, check=True)
bindir = os.path.join(root, ".build", "debug")
pages = sys.argv[1:] or ([os.path.join(root, "README.md")] + sorted(glob.glob(os.path.join(root, "Docs", "**", "*.md"),
                                                                                recursive=True)))
for page in pages:
    sync(os.path.abspath(page), bindir)
