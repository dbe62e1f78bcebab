#!/bin/sh
# make matrix: the suite against the reference and each real SDK adapter,
# each SDK at the versions its lockfile pins, installed from the package
# registries into the build directory; then the HTML matrix and the
# Markdown table of the portable rules. An SDK's run uses its committed
# baseline.yaml, its published verdict: a verdict that changes without its
# baseline fails the target. Every run is bounded.
set -eu
cd "$(dirname "$0")/../.."
GO=${GO:-go}
OUT=${MATRIX_OUT:-out/matrix}
BOUND=${MATRIX_RUN_TIMEOUT:-1500} # seconds one run may take
NODE_SDKS="openai-agents langchain"
GO_SDKS="genkit"

rm -rf "$OUT"
mkdir -p "$OUT/bin" "$OUT/adapters"
$GO build -o "$OUT/bin/" ./cmd/mcpconform ./cmd/mcpconform-fake
cp -R conformance/adapters/jsrpc "$OUT/adapters/jsrpc"
for sdk in $NODE_SDKS; do
	d="$OUT/adapters/$sdk"
	mkdir -p "$d"
	cp conformance/adapters/$sdk/package.json conformance/adapters/$sdk/package-lock.json conformance/adapters/$sdk/*.mjs "$d/"
	echo "make matrix: npm ci in $d"
	(cd "$d" && timeout 600 npm ci --no-audit --no-fund --loglevel=error)
done
for sdk in $GO_SDKS; do
	echo "make matrix: go build of the $sdk adapter"
	(cd conformance/adapters/$sdk && $GO build -o "$OLDPWD/$OUT/bin/$sdk-adapter" .)
done

status=0
reports=""
run() { # name target [baseline]
	name=$1 target=$2 baseline=${3:-}
	start=$(date +%s)
	set -- run --target "$target" --format json --out "$OUT/$name"
	[ -n "$baseline" ] && set -- "$@" --baseline "$baseline"
	if timeout "$BOUND" "$OUT/bin/mcpconform" "$@" > "$OUT/$name.txt" 2>&1; then
		verdict=kept
	else
		verdict="CHANGED (exit $?; see $OUT/$name.txt)"
		status=1
	fi
	echo "make matrix: $name: $(tail -n 2 "$OUT/$name.txt" | head -n 1) — verdict $verdict, $(( $(date +%s) - start )) s"
	reports="$reports $OUT/$name/report.json"
}
run reference reference
for sdk in $NODE_SDKS; do
	run "$sdk" "cmd:node $PWD/$OUT/adapters/$sdk/adapter.mjs" "conformance/adapters/$sdk/baseline.yaml"
done
for sdk in $GO_SDKS; do
	run "$sdk" "cmd:$PWD/$OUT/bin/$sdk-adapter" "conformance/adapters/$sdk/baseline.yaml"
done
# shellcheck disable=SC2086
"$OUT/bin/mcpconform" report html -o "$OUT/matrix.html" $reports
# shellcheck disable=SC2086
"$OUT/bin/mcpconform" report table -o "$OUT/matrix.md" $reports
cat "$OUT/matrix.md"
exit $status
