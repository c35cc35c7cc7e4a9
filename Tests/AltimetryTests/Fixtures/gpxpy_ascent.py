"""Fixture for GPXElevationRule and AscentCounter: gpxpy's own uphill/downhill, and hysteresis counts.

Run from the package root with gpxpy 1.6.2 importable (`pip install gpxpy==1.6.2`, or `pip download gpxpy==1.6.2`
and unzip the wheel onto PYTHONPATH):

    python3 Tests/AltimetryTests/Fixtures/gpxpy_ascent.py > Tests/AltimetryTests/Fixtures/gpxpy_ascent.json

Each case is a GPS-like elevation series (numpy, seeded): a profile plus Gauss-Markov and white noise. `gpxpy`
holds gpxpy.geo.calculate_uphill_downhill's result, computed by gpxpy itself. `hysteresis` holds, for H = 3, 5
and 10 m, the ascent and descent of gpxpy's 0.3/0.4/0.3-smoothed series by the turning-point rule, written
here independently of the Swift code: a reversal counts once the series has moved more than H back from the
running extreme; the last running extreme closes the last segment.
"""
import json
import sys

import numpy as np
import gpxpy
import gpxpy.geo


def smoothed(e):
    s = list(e)
    for i in range(1, len(e) - 1):
        s[i] = 0.3 * e[i - 1] + 0.4 * e[i] + 0.3 * e[i + 1]
    return s


def hysteresis_totals(values, h):
    # Turning points: the first extreme confirmed by a move of more than h, then alternating extremes.
    turns = []
    lo = hi = None  # (index, value) while the direction is open
    direction = 0
    extreme = None
    for i, v in enumerate(values):
        if direction == 0:
            if lo is None or v < lo[1]:
                lo = (i, v)
            if hi is None or v > hi[1]:
                hi = (i, v)
            if hi[1] - lo[1] > h:
                if lo[0] < hi[0]:
                    turns.append(lo[1]); direction = 1; extreme = hi
                else:
                    turns.append(hi[1]); direction = -1; extreme = lo
        elif direction == 1:
            if v > extreme[1]:
                extreme = (i, v)
            elif extreme[1] - v > h:
                turns.append(extreme[1]); direction = -1; extreme = (i, v)
        else:
            if v < extreme[1]:
                extreme = (i, v)
            elif v - extreme[1] > h:
                turns.append(extreme[1]); direction = 1; extreme = (i, v)
    if direction != 0:
        turns.append(extreme[1])
    d = np.diff(np.array(turns, dtype=float)) if len(turns) > 1 else np.array([])
    return float(d[d > 0].sum()), float(-d[d < 0].sum())


def main():
    rng = np.random.default_rng(20261201)
    cases = []
    for name, n, profile in [
        ("flat", 600, lambda t: 500.0 + 0 * t),
        ("climb", 900, lambda t: 800.0 + 0.15 * t),
        ("hills", 1200, lambda t: 300.0 + 2.0 * (1 - np.cos(2 * np.pi * t / 144.0))),
        ("short", 2, lambda t: 100.0 + 5 * t),
    ]:
        t = np.arange(n, dtype=float)
        phi = np.exp(-1.0 / 60.0)
        e = np.empty(n)
        e[0] = 10.0 * rng.standard_normal()
        for i in range(1, n):
            e[i] = phi * e[i - 1] + 10.0 * np.sqrt(1 - phi * phi) * rng.standard_normal()
        elevations = [float(x) for x in profile(t) + e + rng.standard_normal(n)]
        up, down = gpxpy.geo.calculate_uphill_downhill(elevations)
        s = smoothed(elevations)
        cases.append({
            "name": name,
            "times": [float(x) for x in t],
            "elevations": elevations,
            "gpxpy": {"uphill": up, "downhill": down},
            "hysteresis": [{"h": h, "ascent": a, "descent": d} for h in (3.0, 5.0, 10.0) for a, d in [hysteresis_totals(s, h)]],
        })
    json.dump({"gpxpy_version": gpxpy.__version__, "cases": cases}, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
