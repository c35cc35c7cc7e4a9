#!/usr/bin/env python3
"""Checks that two fused NDJSON outputs hold the same rows, track by track, in the same order.

The single-process output keeps the input's interleaving of tracks; Spark's keeps each partition's order. What
must agree is every track's sequence of output lines, byte for byte.

Usage: compare_tracks.py SINGLE.ndjson SPARK_OUTPUT_DIR
"""
import glob
import hashlib
import json
import os
import sys


def track_of(line):
    return json.loads(line)["track_id"]


def digests(paths):
    """Per track: the number of lines and a running SHA-256 of them, in order."""
    tracks = {}
    for path in paths:
        with open(path) as f:
            for line in f:
                line = line.rstrip("\n")
                if not line:
                    continue
                entry = tracks.setdefault(track_of(line), [0, hashlib.sha256()])
                entry[0] += 1
                entry[1].update(line.encode() + b"\n")
    return {track: (count, digest.hexdigest()) for track, (count, digest) in tracks.items()}


def first_difference(track, single_paths, spark_paths):
    def lines(paths):
        for path in paths:
            with open(path) as f:
                for line in f:
                    line = line.rstrip("\n")
                    if line and track_of(line) == track:
                        yield line

    for index, (a, b) in enumerate(zip(lines(single_paths), lines(spark_paths))):
        if a != b:
            return f"row {index + 1} of {track}:\n  single: {a}\n  spark:  {b}"
    return f"{track}: one side has more rows"


def main():
    single_paths = [sys.argv[1]]
    spark_paths = sorted(glob.glob(os.path.join(sys.argv[2], "part-*")))
    single = digests(single_paths)
    spark = digests(spark_paths)
    rows = sum(count for count, _ in single.values())
    if single.keys() != spark.keys():
        missing = sorted(single.keys() - spark.keys())[:5]
        extra = sorted(spark.keys() - single.keys())[:5]
        sys.exit(f"error: the tracks differ (missing from spark: {missing}, extra: {extra})")
    different = sorted(track for track in single if single[track] != spark[track])
    if different:
        detail = first_difference(different[0], single_paths, spark_paths)
        sys.exit(f"error: {len(different)} of {len(single)} tracks differ; first: {detail}")
    print(f"equal: {len(single)} tracks, {rows} rows, row for row")


if __name__ == "__main__":
    main()
