"""Writes gpxpy_totals.json: gpxpy's uphill and downhill of each GPX file here, the reference for the ascent tests.

Run from this folder with gpxpy installed (pip install gpxpy): python3 make_gpxpy_totals.py
"""
import glob
import json

import gpxpy

totals = {}
for path in sorted(glob.glob("*.gpx")):
    with open(path) as f:
        gpx = gpxpy.parse(f)
    uphill, downhill = gpx.get_uphill_downhill()
    totals[path] = {"gpxpy_version": gpxpy.__version__, "uphill_m": round(uphill, 3), "downhill_m": round(downhill, 3)}
with open("gpxpy_totals.json", "w") as f:
    json.dump(totals, f, indent=2, sort_keys=True)
    f.write("\n")
