#!/usr/bin/env python3
"""Writes a multi-track NDJSON recording from `altimetry simulate`, tracks interleaved by time.

Each track is one simulated scenario (the scenarios in turn, seeds 1, 2, ...), cut to its first ROWS rows and
tagged with `track_id`. The tracks' rows are merged in time order (ties by track), as a server that receives
many devices' uploads would store them.

Usage: make_tracks.py ALTIMETRY OUTPUT --tracks 200 --rows-per-track 10000
"""
import argparse
import csv
import heapq
import json
import subprocess

SCENARIOS = ["hike", "front", "canyon", "static", "building", "cold"]
NUMBER_FIELDS = ["pressure_hpa", "gps_alt_m", "gps_vacc_m", "temperature_c", "true_alt_m"]


def track_rows(altimetry, index, rows):
    """The first `rows` rows of one simulated track, as (time, line) pairs."""
    scenario = SCENARIOS[index % len(SCENARIOS)]
    text = subprocess.run(
        [altimetry, "simulate", scenario, "--seed", str(index + 1), "--duration", "43200"],
        check=True, capture_output=True, text=True,
    ).stdout
    track_id = f"track-{index:04d}"
    out = []
    for row in csv.DictReader(text.splitlines()):
        if len(out) == rows:
            break
        # The CSV cells are already JSON numbers; a blank cell is no reading and is left out.
        fields = [f'"track_id":{json.dumps(track_id)}', f'"t":{row["t"]}']
        fields += [f'"{name}":{row[name]}' for name in NUMBER_FIELDS if row.get(name)]
        out.append((float(row["t"]), index, "{" + ",".join(fields) + "}\n"))
    if len(out) < rows:
        raise SystemExit(f"error: scenario {scenario} gave only {len(out)} rows; {rows} are needed")
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("altimetry")
    parser.add_argument("output")
    parser.add_argument("--tracks", type=int, default=200)
    parser.add_argument("--rows-per-track", type=int, default=10_000)
    args = parser.parse_args()
    tracks = [track_rows(args.altimetry, i, args.rows_per_track) for i in range(args.tracks)]
    with open(args.output, "w") as out:
        for _, _, line in heapq.merge(*tracks):
            out.write(line)
    print(f"wrote {args.output}: {args.tracks} tracks, {args.tracks * args.rows_per_track} rows")


if __name__ == "__main__":
    main()
