#!/usr/bin/env bash
# Instructions per simulated combat of every shipped example, counted by callgrind (a count,
# not a time: the same on a busy machine). For each example it runs `fray sim` twice on one
# thread, with 1 and with N+1 combats, and prints (total(N+1) - total(1)) / N, so start-up and
# loading are left out. Use it before and after a change, with the two binaries:
#
#   scripts/instructions.sh /tmp/fray-before > before.txt
#   scripts/instructions.sh target/release/fray > after.txt
#   paste before.txt after.txt
#
# Environment: COMBATS (default 100), EXAMPLES (default: every examples/*/*.toml),
# POLICY (default: the built-in AI; e.g. `random`).
set -euo pipefail
if [ $# -ne 1 ] || [ ! -x "$1" ]; then
    echo "usage: scripts/instructions.sh FRAY-BINARY" >&2
    exit 2
fi
bin=$(realpath "$1")
n=${COMBATS:-100}
cd "$(dirname "$0")/.."
examples=${EXAMPLES:-$(ls examples/*/*.toml)}
policy=()
if [ -n "${POLICY:-}" ]; then
    policy=(--default-policy "$POLICY")
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
total() { # combats example
    valgrind --tool=callgrind --callgrind-out-file="$work/cg" "$bin" sim "$2" -n "$1" --seed 1 --jobs 1 "${policy[@]}" \
        >/dev/null 2>"$work/err" || { cat "$work/err" >&2; exit 1; }
    grep -E '^summary:' "$work/cg" | awk '{print $2}'
}
for f in $examples; do
    one=$(total 1 "$f")
    many=$(total $((n + 1)) "$f")
    echo "$f $(( (many - one) / n ))"
done
