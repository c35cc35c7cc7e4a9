#!/usr/bin/env bash
# `make spark-check`: `altimetry fuse` as the per-partition step of Spark (local mode) on a multi-track NDJSON
# recording, checked against a single-process run of the same file, row for row; prints the time of both.
#
# Installs pyspark from PyPI into .build-spark/venv (Java 17 or later must be on PATH).
# Environment: TRACKS (default 200), ROWS_PER_TRACK (10000), PARTITIONS (8), SPARK_MASTER (local[2]).
set -euo pipefail
cd "$(dirname "$0")/../.."

SWIFT=${SWIFT:-swift}
TRACKS=${TRACKS:-200}
ROWS_PER_TRACK=${ROWS_PER_TRACK:-10000}
PARTITIONS=${PARTITIONS:-8}
SPARK_MASTER=${SPARK_MASTER:-local[2]}
work=.build-spark
venv=$work/venv

command -v java >/dev/null || { echo "error: no java on PATH (Spark needs Java 17 or later)"; exit 1; }
if ! "$venv/bin/python" -c "import pyspark" 2>/dev/null; then
    echo "== installing pyspark into $venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet "pyspark>=3.5"
fi
"$venv/bin/python" -c "import pyspark; print('pyspark', pyspark.__version__)"

echo "== building altimetry (release)"
"$SWIFT" build -c release --product altimetry
altimetry=$(pwd)/.build/release/altimetry

input=$work/tracks-$TRACKS-$ROWS_PER_TRACK.ndjson
if [ ! -s "$input" ]; then
    echo "== generating $input"
    "$venv/bin/python" Benchmarks/spark/make_tracks.py "$altimetry" "$input.partial" \
        --tracks "$TRACKS" --rows-per-track "$ROWS_PER_TRACK"
    mv "$input.partial" "$input"
fi
rows=$(wc -l < "$input")

echo "== single process: altimetry fuse $input --format ndjson"
single=$work/single.ndjson
start=$(date +%s.%N)
"$altimetry" fuse "$input" --format ndjson --out "$single" 2> "$work/single.log"
single_seconds=$(echo "$(date +%s.%N) - $start" | bc)

echo "== spark ($SPARK_MASTER, $PARTITIONS partitions by track_id)"
rm -rf "$work/spark-out"
start=$(date +%s.%N)
"$venv/bin/python" Benchmarks/spark/fuse_on_spark.py "$altimetry" "$input" "$work/spark-out" \
    --partitions "$PARTITIONS" --master "$SPARK_MASTER"
spark_seconds=$(echo "$(date +%s.%N) - $start" | bc)

echo "== comparing"
"$venv/bin/python" Benchmarks/spark/compare_tracks.py "$single" "$work/spark-out"

printf "single process: %.1f s (%.0f rows/s); spark, start-up included: %.1f s (%.0f rows/s); %d rows, %d tracks\n" \
    "$single_seconds" "$(echo "$rows / $single_seconds" | bc -l)" \
    "$spark_seconds" "$(echo "$rows / $spark_seconds" | bc -l)" "$rows" "$TRACKS"
