#!/usr/bin/env bash
# `make validate`: writes Docs/validation.md from the code's own output. Over every recording in
# ../shared/data/real (read in place: several have no licence, never copy them into the project) it runs
# `altimetry evaluate --json` with the command line's default, the fixed receiver (`--adapt off`) and each fixed
# receiver of a 4 x 3 grid (the best of them chosen afterwards, on that recording), beside naive averaging; then
# `altimetry bench --json` over the simulated catalogue with the default and the fixed model; and `altimetry plot`
# of each recording into OUT_DIR. The page says the commit it was made at and the commands; the README's headline
# rows are pasted from it (Scripts/sync-headline.py). ValidationPageTests reruns a recording's row.
#
# Usage: Scripts/validate.sh ALTIMETRY_BINARY [DATA_DIR] [OUT_DIR] [PAGE]
# ONLY=NAME scores only that recording and skips the simulations and plots (what the test runs).
set -uo pipefail

bin=${1:?usage: validate.sh ALTIMETRY_BINARY [DATA_DIR] [OUT_DIR] [PAGE]}
data=${2:-../shared/data/real}
out=${3:-out/validation}
page=${4:-Docs/validation.md}
only=${ONLY:-}
trials=${TRIALS:-50}

if [ ! -d "$data" ]; then
  echo "validate: skipped: no recordings at $data (the real recordings live beside the checkout, in ../shared/data/real)"
  exit 0
fi
command -v jq >/dev/null || { echo "validate: error: jq is needed to build the tables (apt-get install jq)"; exit 1; }
mkdir -p "$out"

# The truth and warm-up for each recording, from its README. A recording not listed is scored against its
# reference column (after 600 s).
options_for() {
  case "$1" in
    ola_m10s_lps28dfw_bergen_indoor_car_outdoor_7h) echo "--static --from 9600" ;;  # still outdoors from 13:15 UTC
    ola_m10s_lps28dfw_bergen_desk_indoor_5h) echo "--static --from 600" ;;
    ola_m10s_lps28dfw_bergen_static_2weeks) echo "--static --from 600" ;;
    ardupilot_pxf_erle_2014-12-05_log218) echo "--from 30" ;;              # the onboard EKF is held for its first 30 s
    ardupilot_pxf_erle_2014-11-26_log181_gpsglitch) echo "--from 10" ;;
    px4_fmuv6c_flugdrohne_log30|px4_fmuv6c_flugdrohne_log66) echo "--from 10" ;;
    static_*) echo "--static --from 0" ;;                                  # GPS alone, standing still
    sensorlogger_*) echo "--from 0" ;;                                     # minutes long, no reference
    *) echo "" ;;
  esac
}

# A number with D decimals, "-" for null.
fmt='def f(d): if . == null then "-" else (. * pow(10; d) | round / pow(10; d)) as $x
  | ($x | tostring) as $s | ($s | split(".")) as $p
  | $p[0] + (if d > 0 then "." + (($p[1] // "") + "0000")[0:d] else "" end) end;'

spreads="1 3 10 30"
times="30 300 3600"
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
dirty=$(git diff --quiet HEAD 2>/dev/null || echo " (with uncommitted changes)")
rows="$out/rows.md"
: > "$rows"
status=0
for dir in "$data"/*/; do
  name=$(basename "$dir")
  [ -z "$only" ] || [ "$name" = "$only" ] || continue
  file="${dir%/}/data.csv"
  [ -f "$file" ] || continue
  opts=$(options_for "$name")
  echo "validate: $name" >&2
  # shellcheck disable=SC2086
  if ! "$bin" evaluate "$file" $opts --json > "$out/$name.default.json" 2> "$out/$name.err" \
    || ! "$bin" evaluate "$file" $opts --adapt off --json > "$out/$name.fixed.json" 2>> "$out/$name.err"; then
    echo "validate: $name: evaluate failed: $(cat "$out/$name.err")" >&2
    echo "| $name | evaluate failed | | | | | | | | | | |" >> "$rows"
    status=1
    continue
  fi
  best=""
  for s in $spreads; do
    for t in $times; do
      # shellcheck disable=SC2086
      "$bin" evaluate "$file" $opts --adapt off --gps-sigma "$s" --gps-tau "$t" --json 2>> "$out/$name.err" \
        | jq -c --arg r "$s m / $t s" '{r: $r, e: (.estimators[] | select(.name == "kalman"))}' >> "$out/$name.grid.json"
    done
  done
  best=$(jq -s -c 'map(select(.e.rmse_m != null)) | sort_by(.e.rmse_m) | .[0] // {r: "-", e: {}}' "$out/$name.grid.json")
  rm -f "$out/$name.grid.json"
  jq -r -n --arg name "$name" --argjson best "$best" \
    --slurpfile d "$out/$name.default.json" --slurpfile x "$out/$name.fixed.json" "$fmt"'
    ($d[0].estimators | map({(.name): .}) | add) as $e | ($x[0].estimators | map({(.name): .}) | add) as $k |
    "| \($name) | \($d[0].rows) | \(if $d[0].truth.kind == "static" then "static" else ($d[0].truth.column // "none") end) | \($d[0].scoring_from_s) s | \($e.kalman.rmse_m | f(2)) | \($e.kalman.coverage | f(2)) | \($k.kalman.rmse_m | f(2)) | \($k.kalman.coverage | f(2)) | \($best.e.rmse_m | f(2)) | \($best.e.coverage | f(2)) | \($best.r) | \($e.naive.rmse_m | f(2)) | \($e.naive.coverage | f(2)) | \($e.naive_600s.rmse_m | f(2)) | \($e.naive_600s.coverage | f(2)) |"
  ' >> "$rows"
  if [ -z "$only" ]; then
    "$bin" plot "$file" --out "$out/$name.svg" 2>> "$out/$name.err" || { echo "validate: $name: plot failed" >&2; status=1; }
  fi
done

simulated="$out/simulated.md"
: > "$simulated"
if [ -z "$only" ]; then
  echo "validate: the simulated catalogue, $trials trials a scenario" >&2
  "$bin" bench --trials "$trials" --json --adapt on > "$out/bench.default.json" \
    && "$bin" bench --trials "$trials" --json --adapt off > "$out/bench.fixed.json" || status=1
  jq -r -n --slurpfile d "$out/bench.default.json" --slurpfile x "$out/bench.fixed.json" "$fmt"'
    [$d[0].scenarios, $x[0].scenarios] | transpose[] | .[0] as $a | .[1] as $b |
    "| \($a.name) | \($a.trials) | \($a.estimators.kalman.rmse_m | f(2)) | \($a.estimators.kalman.coverage | f(2)) | \($b.estimators.kalman.rmse_m | f(2)) | \($b.estimators.kalman.coverage | f(2)) | \($a.estimators.smoother.rmse_m | f(2)) | \($a.estimators.smoother.coverage | f(2)) | \($a.estimators.naive.rmse_m | f(2)) | \($a.estimators.naive.coverage | f(2)) | \($a.estimators.naive_600s.rmse_m | f(2)) | \($a.estimators.naive_600s.coverage | f(2)) |"
  ' >> "$simulated"
fi

{
  echo "# Validation"
  echo
  echo "Written by \`make validate\` (\`Scripts/validate.sh\`) at commit $commit$dirty; do not edit by hand."
  echo "\`ValidationPageTests\` reruns a recording's row and fails where it differs."
  echo
  echo "## Real recordings"
  echo
  echo "Every recording in \`../shared/data/real\`, scored by \`altimetry evaluate\` against its truth: a static"
  echo "truth (\`--static\`: the median GPS altitude after the warm-up) or its reference column (a drone's onboard"
  echo "estimate, which shares the sensors: agreement, not accuracy). RMSE in metres; coverage is the share of"
  echo "scored rows whose error falls inside the reported one sigma (0.68 when honest)."
  echo
  echo "| recording | rows | truth | scored from | default RMSE | cov. | fixed RMSE | cov. | best fixed RMSE | cov. | best fixed receiver | naive RMSE | cov. | naive 600 s RMSE | cov. |"
  echo "| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: |"
  cat "$rows"
  echo
  echo "- \`default\`: \`altimetry evaluate FILE OPTIONS\`, the receiver learned while fusing."
  echo "- \`fixed\`: the same with \`--adapt off\`, the parameters' receiver (10 m, 60 s)."
  echo "- \`best fixed\`: the lowest RMSE of \`--adapt off --gps-sigma S --gps-tau T\` over S in {$spreads} m and"
  echo "  T in {$times} s, chosen with hindsight on the recording itself."
  echo "- \`naive\`: GPS averaged since the start over the barometer's relative altitude; \`naive 600 s\` over the"
  echo "  last 600 s; their sigma is the fixes' scatter over the square root of their number."
  echo
  echo "Reading the table: a coverage above 0.68 is a sigma wider than the error, below it a sigma too narrow;"
  echo "naive averaging's sigma shrinks as if the fixes were independent, so its coverage falls towards zero on any"
  echo "recording longer than the GPS error's minutes. \`best fixed\` is chosen on the recording it is scored on, so it"
  echo "is the best any of those twelve receivers does there. A dash is a figure the recording cannot give (no"
  echo "truth, or no barometer for naive averaging)."
  echo
  echo "OPTIONS per recording (the truth and warm-up its README gives):"
  echo
  echo '```text'
  for dir in "$data"/*/; do
    name=$(basename "$dir")
    [ -f "${dir%/}/data.csv" ] && echo "$name: $(options_for "$name")"
  done
  echo '```'
  if [ -s "$simulated" ]; then
    echo
    echo "## The simulated catalogue"
    echo
    echo "\`altimetry bench --trials $trials --json --adapt on\` (default) and \`--adapt off\` (fixed; the simulated"
    echo "receiver is the fixed model's), scored after the first 10 minutes against the simulated truth."
    echo
    echo "| scenario | trials | default RMSE | cov. | fixed RMSE | cov. | smoother RMSE | cov. | naive RMSE | cov. | naive 600 s RMSE | cov. |"
    echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
    cat "$simulated"
    echo
    echo "Plots of each recording (\`altimetry plot FILE --out NAME.svg\`) are written to \`$out/\`."
  fi
} > "$page"
echo "validate: wrote $page" >&2
if [ -z "$only" ] && [ -x "$(dirname "$0")/sync-headline.py" ]; then
  "$(dirname "$0")/sync-headline.py" "$page"
fi
exit $status
