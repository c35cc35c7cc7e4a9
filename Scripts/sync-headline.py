#!/usr/bin/env python3
"""Pastes the README's headline table (between `<!-- headline: ... -->` and `<!-- end headline -->`) from the
tables of Docs/validation.md, which `make validate` writes: a few real recordings and simulated scenarios, the
default beside the best fixed receiver (real) or the fixed model (simulated, whose receiver it is) and naive
averaging. `ValidationPageTests` checks that every headline figure is the page's.

Usage: Scripts/sync-headline.py [PAGE]      (default Docs/validation.md; run by Scripts/validate.sh)
"""
import os
import re
import sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
page = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "Docs", "validation.md")

# Recording or scenario: the label the README gives it.
REAL = {
    "ola_m10s_lps28dfw_bergen_desk_indoor_5h": "logger on a desk indoors, 5 h (real)",
    "ola_m10s_lps28dfw_bergen_indoor_car_outdoor_7h": "logger outdoors after a car ride, 7 h (real)",
    "px4_fmuv6c_flugdrohne_log66": "drone, 35 m climb (real, against its onboard EKF)",
}
SIMULATED = {"hike": "hike, 800 m to 2,400 m (simulated)", "front": "weather front (simulated)"}


def rows(text, heading):
    section = text.split(heading, 1)[1] if heading in text else ""
    table = {}
    for line in section.split("\n"):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("## ") and table:
            break
        if len(cells) > 3 and line.startswith("|") and not cells[0].startswith("---"):
            table[cells[0]] = cells
    return table


with open(page) as f:
    text = f.read()
real = rows(text, "## Real recordings")
simulated = rows(text, "## The simulated catalogue")
lines = ["| recording | default RMSE (m) | coverage | best fixed RMSE (m) | coverage | naive RMSE (m) | coverage |",
         "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
for name, label in REAL.items():
    if name in real:
        c = real[name]
        lines.append(f"| {label} | {c[4]} | {c[5]} | {c[8]} | {c[9]} | {c[11]} | {c[12]} |")
for name, label in SIMULATED.items():
    if name in simulated:
        c = simulated[name]
        lines.append(f"| {label} | {c[2]} | {c[3]} | {c[4]} | {c[5]} | {c[8]} | {c[9]} |")
readme_path = os.path.join(root, "README.md")
with open(readme_path) as f:
    readme = f.read()
pattern = re.compile(r"(<!-- headline:[^\n]*-->\n).*?(<!-- end headline -->)", re.S)
if not pattern.search(readme):
    raise SystemExit("README.md has no <!-- headline: ... --> block")
updated = pattern.sub(lambda m: m.group(1) + "\n".join(lines) + "\n" + m.group(2), readme, count=1)
if updated != readme:
    with open(readme_path, "w") as f:
        f.write(updated)
    print("README.md: headline table updated")
