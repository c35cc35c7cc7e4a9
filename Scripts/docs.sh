#!/usr/bin/env bash
# `make docs`: a DocC archive per library module, from symbol graphs (SwiftPM's built-in `dump-symbol-graph`)
# and `docc convert`, with no plugin, into .build-docs/archives/MODULE.doccarchive. Prints each module's
# documentation coverage and the number of docc's warnings (undocumented parameters, broken symbol links), lists
# every public symbol without a doc comment (from the symbol graphs), and fails if there is any.
#
# Usage: Scripts/docs.sh [MODULE ...]   (default: every module with a catalog Sources/MODULE/MODULE.docc)
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

undocumented=()
mkdir -p "$graphs" "$archives"
echo "== symbol graphs: swift package dump-symbol-graph"
# It also tries the test modules, fails on them and exits non-zero; the library modules' graphs are checked below.
"$SWIFT" package --scratch-path "$scratch" dump-symbol-graph --minimum-access-level public \
    > "$scratch/symbol-graphs.log" 2>&1 || true
dumped=$(find "$scratch" -maxdepth 2 -type d -name symbolgraph -print -quit)   # SCRATCH/TRIPLE/symbolgraph

for module in "${modules[@]}"; do
    echo "== docc convert: $module"
    # The module's own graph and its extensions of other modules' types (MODULE@OTHER.symbols.json).
    rm -rf "${graphs:?}/$module"
    mkdir -p "$graphs/$module"
    if [ ! -f "$dumped/$module.symbols.json" ]; then
        echo "error: no symbol graph for $module (see $scratch/symbol-graphs.log)"; exit 1
    fi
    cp "$dumped/$module.symbols.json" "$graphs/$module/"
    cp "$dumped/$module"@*.symbols.json "$graphs/$module/" 2>/dev/null || true
    rm -rf "$archives/$module.doccarchive"
    "$DOCC" convert "Sources/$module/$module.docc" \
        --fallback-display-name "$module" \
        --fallback-bundle-identifier "org.altimetry.$module" \
        --additional-symbol-graph-dir "$graphs/$module" \
        --output-path "$archives/$module.doccarchive" \
        --experimental-documentation-coverage --coverage-summary-level brief \
        > "$scratch/$module.docc.log" 2>&1 || { cat "$scratch/$module.docc.log"; exit 1; }
    # docc's diagnostics (an undocumented parameter, a broken link) stay in the log; their count and the
    # coverage table are printed.
    sed -n '/coverage output enabled/,/^Globals/p' "$scratch/$module.docc.log" | tail -n +2
    echo "$module: $(grep -c "^warning:" "$scratch/$module.docc.log" || true) warnings (in $scratch/$module.docc.log)"
    # Public symbols without a doc comment of their own or inherited (a protocol requirement's); members the
    # compiler synthesises (Equatable's ==, Codable's coding) are not counted.
    missing=$(python3 - "$graphs/$module" <<'PY'
import json, os, sys
folder = sys.argv[1]
for name in sorted(os.listdir(folder)):
    with open(os.path.join(folder, name)) as f:
        graph = json.load(f)
    for symbol in graph["symbols"]:
        if symbol.get("accessLevel") not in ("public", "open") or "::SYNTHESIZED::" in symbol["identifier"]["precise"]:
            continue
        if any(line.get("text", "").strip() for line in symbol.get("docComment", {}).get("lines", [])):
            continue
        location = symbol.get("location", {})
        where = location.get("uri", "").split("/Sources/")[-1] + ":" + str(location.get("position", {}).get("line", 0) + 1)
        print(f"  Sources/{where}: {'.'.join(symbol['pathComponents'])} ({symbol['kind']['displayName']})")
PY
)
    if [ -n "$missing" ]; then
        echo "$module: $(wc -l <<<"$missing") public symbols without a doc comment:"
        echo "$missing"
        undocumented+=("$module")
    else
        echo "$module: every public symbol has a doc comment"
    fi
done
echo "docs: $(printf '%s ' "${modules[@]}")in $archives"
if [ ${#undocumented[@]} -gt 0 ]; then
    echo "error: public symbols without a doc comment in: ${undocumented[*]}"
    exit 1
fi
