#!/usr/bin/env bash
# `make docs`: a DocC archive per library module, built from the compiler's symbol graphs with `docc convert`
# (no SwiftPM plugin), into .build-docs/archives/MODULE.doccarchive. Prints each module's documentation coverage.
#
# Usage: scripts/docs.sh [MODULE ...]   (default: every module with a catalog Sources/MODULE/MODULE.docc)
set -euo pipefail
cd "$(dirname "$0")/.."

SWIFT=${SWIFT:-swift}
DOCC=${DOCC:-docc}
scratch=.build-docs
graphs=$scratch/symbol-graphs
archives=$scratch/archives

if [ $# -gt 0 ]; then
    modules=("$@")
else
    modules=()
    for catalog in Sources/*/*.docc; do
        modules+=("$(basename "$catalog" .docc)")
    done
fi

rm -rf "$graphs"
mkdir -p "$graphs" "$archives"
for module in "${modules[@]}"; do
    echo "== symbol graph: $module"
    "$SWIFT" build --scratch-path "$scratch" --target "$module" \
        -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$(pwd)/$graphs/all" \
        -Xswiftc -symbol-graph-minimum-access-level -Xswiftc public
done

for module in "${modules[@]}"; do
    echo "== docc convert: $module"
    # The module's own graph and its extensions of other modules' types (MODULE@OTHER.symbols.json).
    mkdir -p "$graphs/$module"
    cp "$graphs/all/$module.symbols.json" "$graphs/$module/"
    cp "$graphs/all/$module"@*.symbols.json "$graphs/$module/" 2>/dev/null || true
    rm -rf "$archives/$module.doccarchive"
    "$DOCC" convert "Sources/$module/$module.docc" \
        --fallback-display-name "$module" \
        --fallback-bundle-identifier "org.altimetry.$module" \
        --additional-symbol-graph-dir "$graphs/$module" \
        --output-path "$archives/$module.doccarchive" \
        --experimental-documentation-coverage --coverage-summary-level brief \
        --warnings-as-errors
done
echo "docs: $(printf '%s ' "${modules[@]}")in $archives"
