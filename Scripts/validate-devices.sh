#!/usr/bin/env bash
# `make validate-devices`: runs every command that reads a recording (fuse, ascent, calibrate, evaluate, floors,
# identify, plot) over every committed device file (the real FIT and IGC files of public parsers' test suites
# under Tests/AltimetryCLITests/Fixtures, each with its licence beside it), with --skip-invalid, and prints one
# table: the exit code of each command on each file, and the elevation verdict. A command may refuse a file for
# what it lacks (floors without a barometer: 65); it must never crash (a code above 128) or misread the format.
#
# Usage: Scripts/validate-devices.sh ALTIMETRY_BINARY
set -uo pipefail
bin=${1:?usage: validate-devices.sh ALTIMETRY_BINARY}
cd "$(dirname "$0")/.."
commands=(fuse ascent calibrate evaluate floors identify plot)
files=(Tests/AltimetryCLITests/Fixtures/FIT/devices/*.fit Tests/AltimetryCLITests/Fixtures/IGC/*.igc)
printf '| file | %s | elevation |\n' "$(IFS='|'; echo "${commands[*]}" | sed 's/|/ | /g')"
printf '|---|%s---|\n' "$(printf -- '---|%.0s' "${commands[@]}")"
status=0
for file in "${files[@]}"; do
    row="| $(basename "$file") |"
    verdict=""
    for command in "${commands[@]}"; do
        err=$("$bin" "$command" "$file" --skip-invalid 2>&1 >/dev/null)
        code=$?
        [ "$code" -gt 128 ] && status=1
        row+=" $code |"
        [ -z "$verdict" ] && verdict=$(grep -o 'elevation read as [a-z]*' <<<"$err" | head -1 | sed 's/elevation read as //')
    done
    echo "$row ${verdict:-none} |"
done
exit $status
