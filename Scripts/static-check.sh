#!/usr/bin/env bash
# Builds `altimetry` with the Swift runtime and Foundation linked in (`--static-swift-stdlib`), lists the shared
# libraries it still needs, and runs it with the Swift toolchain out of reach: a simulate/fuse round trip whose
# fused altitude must track the simulated truth.
#
# Usage: Scripts/static-check.sh [OUTPUT_DIR]   (default .build-static/dist)
set -euo pipefail
cd "$(dirname "$0")/.."

SWIFT=${SWIFT:-swift}
dist=${1:-.build-static/dist}
scratch=.build-static

echo "== building: $SWIFT build -c release --static-swift-stdlib --product altimetry"
"$SWIFT" build -c release --static-swift-stdlib --scratch-path "$scratch" --product altimetry
mkdir -p "$dist"
cp "$scratch/release/altimetry" "$dist/altimetry"
binary=$(cd "$dist" && pwd)/altimetry
echo "binary: $binary ($(du -h "$binary" | cut -f1))"

# The toolchain's root (…/usr/bin/swift → …), whose libraries the binary must not need.
toolchain=$(dirname "$(dirname "$(dirname "$(readlink -f "$(command -v "$SWIFT")")")")")

echo "== shared libraries (ldd)"
libraries=$(env -u LD_LIBRARY_PATH ldd "$binary")
echo "$libraries"
status=0
if grep -q "not found" <<<"$libraries"; then
    echo "error: a shared library is not found"; status=1
fi
if grep -E "libswift|libFoundation|lib_Foundation|libdispatch|libBlocksRuntime" <<<"$libraries"; then
    echo "error: the binary still needs the Swift runtime or Foundation as shared libraries"; status=1
fi
if grep -F "$toolchain/" <<<"$libraries"; then
    echo "error: a library resolves into the toolchain at $toolchain"; status=1
fi
# Every other library must be one of the system's: LAPACK, BLAS and gfortran's runtime, the C and C++ runtime.
# Foundation's ICU data is linked in, and nothing imports FoundationXML, so neither ICU nor libxml2 (with its zlib
# and liblzma) is needed.
allowed='^(linux-vdso|ld-linux[-a-z0-9_]*|libc|libm|libdl|libpthread|librt|libutil|libgcc_s|libstdc\+\+|liblapack|libblas|libgfortran|libquadmath)\.so'
while read -r name _; do
    [ -z "$name" ] && continue
    base=$(basename "$name")
    if ! grep -Eq "$allowed" <<<"$base"; then
        echo "error: unexpected shared library $base"; status=1
    fi
done <<<"$libraries"
runpath=$(readelf -d "$binary" | grep -E "RUNPATH|RPATH" || true)
if grep -F "$toolchain" <<<"$runpath"; then
    echo "error: the binary's run path points into the toolchain"; status=1
fi
[ "$status" = 0 ] || exit "$status"

# The round trip, in a scratch directory, with a bare environment: no toolchain on PATH, no LD_LIBRARY_PATH.
# Where mount namespaces are allowed (root, or unprivileged user namespaces), the toolchain's directory is also
# hidden under an empty tmpfs, so nothing in it can be loaded even by an absolute path.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/round-trip.sh" <<'EOF'
set -euo pipefail
cd "$1"
altimetry=$2
"$altimetry" --version
"$altimetry" simulate hike --seed 11 --duration 3600 --out hike.csv
"$altimetry" fuse hike.csv --out fused.csv
"$altimetry" fuse hike.csv --format ndjson --smooth > smoothed.ndjson
# GPX points need a position: the simulated rows get one.
awk 'NR == 1 { print $0 ",lat,lon"; next } { print $0 ",46.5,7.9" }' hike.csv > hike-positions.csv
"$altimetry" fuse hike-positions.csv --format gpx --out fused.gpx
rows_in=$(($(wc -l < hike.csv) - 1))
rows_out=$(($(wc -l < fused.csv) - 1))
[ "$rows_in" = "$rows_out" ] || { echo "error: $rows_in rows in, $rows_out rows out"; exit 1; }
[ "$(wc -l < smoothed.ndjson)" = "$rows_in" ] || { echo "error: the smoothed NDJSON has the wrong row count"; exit 1; }
[ "$(grep -c "<trkpt" fused.gpx)" = "$rows_in" ] || { echo "error: the GPX does not have a track point per row"; exit 1; }
# The fused altitude against the simulated truth: root mean square error and one-sigma coverage.
awk -F, '
NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
$col["altitude_m"] != "" {
    e = $col["altitude_m"] - $col["true_alt_m"]; n++; s += e * e
    if (e < 0) e = -e
    if (e <= $col["sigma_m"]) inside++
}
END {
    rmse = sqrt(s / n); coverage = inside / n
    printf "round trip: %d rows, RMSE %.2f m against the truth, %.0f %% inside one sigma\n", n, rmse, 100 * coverage
    if (n < 1000 || rmse > 10 || coverage < 0.4) { print "error: the fused track does not follow the truth"; exit 1 }
}' fused.csv
EOF
echo "== running with the toolchain out of reach"
bare_env=(env -i PATH=/usr/bin:/bin HOME="$work" LANG=C)
if [ "$toolchain" != / ] && [ "$toolchain" != /usr ] && { unshare -m true || unshare -rm true; } 2>/dev/null; then
    flag=-m; unshare -m true 2>/dev/null || flag=-rm
    echo "(the toolchain at $toolchain is hidden under an empty tmpfs)"
    "${bare_env[@]}" unshare "$flag" bash -c \
        'mount -t tmpfs none "$0" && [ -z "$(ls -A "$0")" ] && bash "$1" "$2" "$3"' \
        "$toolchain" "$work/round-trip.sh" "$work" "$binary"
else
    echo "(mount namespaces are not available: the toolchain is only off PATH and LD_LIBRARY_PATH)"
    "${bare_env[@]}" bash "$work/round-trip.sh" "$work" "$binary"
fi
echo "static-check: ok"
