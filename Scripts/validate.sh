#!/usr/bin/env bash
# `make validate`: runs `altimetry evaluate` and `altimetry plot` (and `altimetry identify`, where the build has it,
# on the GPS-only static logs) over every recording in ../shared/data/real, read in place (several have no licence:
# never copy them into the project). Writes into out/validation/: per recording NAME.txt (evaluate's text),
# NAME.json (its JSON), NAME.svg (the plot), and summary.md, one table over all recordings.
#
# Usage: Scripts/validate.sh ALTIMETRY_BINARY [DATA_DIR] [OUT_DIR]
# MODEL (default `--adapt off`, the fixed model that Docs/validation.md describes) is passed to evaluate and plot;
# MODEL="" validates the command line's default, the adaptive bank (its figures: Docs/identification.md).
set -uo pipefail
model=${MODEL---adapt off}

bin=${1:?usage: validate.sh ALTIMETRY_BINARY [DATA_DIR] [OUT_DIR]}
data=${2:-../shared/data/real}
out=${3:-out/validation}

if [ ! -d "$data" ]; then
  echo "validate: skipped: no recordings at $data (the real recordings live beside the checkout, in ../shared/data/real)"
  exit 0
fi
command -v jq >/dev/null || { echo "validate: error: jq is needed to build the summary table (apt-get install jq)"; exit 1; }
mkdir -p "$out"

# The truth and warm-up for each recording, from its README. A recording not listed is scored against its
# reference column if it has one (after 600 s); without one, evaluate reports only what needs no truth.
options_for() {
  case "$1" in
    ola_m10s_lps28dfw_bergen_indoor_car_outdoor_7h) echo "--static --from 9600" ;;  # 4.6 h still outdoors from 13:15 UTC
    ola_m10s_lps28dfw_bergen_desk_indoor_5h) echo "--static --from 600" ;;
    ola_m10s_lps28dfw_bergen_static_2weeks) echo "--static --from 600" ;;
    ardupilot_pxf_erle_2014-12-05_log218) echo "--from 30" ;;              # the onboard EKF is held for its first 30 s
    ardupilot_pxf_erle_2014-11-26_log181_gpsglitch) echo "--from 10" ;;
    px4_fmuv6c_flugdrohne_log30|px4_fmuv6c_flugdrohne_log66) echo "--from 10" ;;
    static_*) echo "--static --from 0" ;;                                  # GPS alone, standing still
    sensorlogger_*) echo "--from 0" ;;                                    # minutes long, no reference
    *) echo "" ;;
  esac
}

has_identify=false
"$bin" identify --help >/dev/null 2>&1 && has_identify=true

summary="$out/summary.md"
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
{
  echo "# Validation on real recordings"
  echo
  echo "Commit $commit$(git diff --quiet 2>/dev/null || echo ' (with uncommitted changes)'), $(date -u +%Y-%m-%dT%H:%MZ). Produced by \`make validate\`."
  echo
  echo "| recording | rows | truth | scored from | fixes | gated | filter RMSE (m) | coverage | NEES | naive RMSE (m) | coverage | naive 600 s RMSE (m) | coverage | accepted-fix NIS |"
  echo "| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
} > "$summary"

status=0
for dir in "$data"/*/; do
  name=$(basename "$dir")
  file="${dir%/}/data.csv"
  [ -f "$file" ] || { echo "validate: $name: skipped: no data.csv"; continue; }
  opts="$(options_for "$name") $model"
  echo "validate: $name"
  # shellcheck disable=SC2086
  if "$bin" evaluate "$file" $opts > "$out/$name.txt" 2> "$out/$name.err" \
     && "$bin" evaluate "$file" $opts --json > "$out/$name.json" 2>> "$out/$name.err"; then
    jq -r --arg name "$name" '
      def f(d): if . == null then "-" else
        ((. * pow(10; d)) | round) as $n | ($n | fabs | tostring) as $s
        | (if ($s | length) <= d then ("0" * (d + 1 - ($s | length))) + $s else $s end) as $p
        | (if $n < 0 then "-" else "" end) + $p[0:($p | length) - d] + (if d > 0 then "." + $p[($p | length) - d:] else "" end)
        end;
      (.estimators | map({(.name): .}) | add) as $e |
      "| \($name) | \(.rows) | \(if .truth.kind == "static" then "static \(.truth.altitude_m | f(1)) ± \(.truth.standard_error_m | f(1)) m" else (.truth.column // "none") end) | \(.scoring_from_s) s | \(.gps_fixes) | \(.gated_fixes | length) | \($e.kalman.rmse_m | f(2)) | \($e.kalman.coverage | f(2)) | \($e.kalman.nees | f(2)) | \($e.naive.rmse_m | f(2)) | \($e.naive.coverage | f(2)) | \($e.naive_600s.rmse_m | f(2)) | \($e.naive_600s.coverage | f(2)) | \(.accepted_fix_mean_nis | f(2)) |"
    ' "$out/$name.json" >> "$summary"
  else
    echo "validate: $name: evaluate failed: $(cat "$out/$name.err")"
    echo "| $name | | evaluate failed: see $name.err | | | | | | | | | | | |" >> "$summary"
    status=1
  fi
  # shellcheck disable=SC2086
  if ! "$bin" plot "$file" --out "$out/$name.svg" $model 2>> "$out/$name.err"; then
    echo "validate: $name: plot failed: $(cat "$out/$name.err")"
    status=1
  fi
  case "$name" in
    static_*)
      if $has_identify; then
        "$bin" identify "$file" > "$out/$name.identify.txt" 2>> "$out/$name.err" \
          || { echo "validate: $name: identify failed"; status=1; }
      else
        echo "validate: $name: identify: skipped (this build has no 'altimetry identify')"
      fi ;;
  esac
done

{
  echo
  echo "Coverage: fraction of scored rows with |error| inside the reported one sigma (0.68 when honest). NEES: mean"
  echo "(error/sigma)^2 (1 when honest). Accepted-fix NIS: mean normalised innovation squared of the GPS fixes the"
  echo "filter used, after the warm-up (about 1 when the GPS model fits and fixes share their pressure's row; 0.84 to 0.90 in"
  echo "the simulator's scenarios, whose fixes follow a pressure by 0.9 s). A static truth is the median GPS"
  echo "altitude after the warm-up, with its standard error; a reference column may itself be another filter."
} >> "$summary"
cat "$summary"
exit $status
