#!/usr/bin/env bash
# Proves that two builds of fray play the same: for every shipped example it compares
#   - the full event log (`fray run --json`) of SEEDS seeded combats,
#   - the simulation report (`fray sim --json`) of COMBATS combats with the built-in AI,
#   - the simulation report of RANDOM combats with the random-legal policy on every seat
#     (which walks `legal_commands`),
# and prints the first difference. Use it around every optimisation:
#
#   cargo build --release && cp target/release/fray /tmp/fray-before
#   ... change the code ...
#   cargo build --release && scripts/same-play.sh /tmp/fray-before target/release/fray
#
# Environment: SEEDS (default 20), COMBATS (default 1000), RANDOM_COMBATS (default 50),
# EXAMPLES (default: every examples/*/*.toml). Exit code 0 when everything is identical,
# 1 on the first difference, 2 on bad arguments.
set -euo pipefail

if [ $# -ne 2 ] || [ ! -x "$1" ] || [ ! -x "$2" ]; then
    echo "usage: scripts/same-play.sh BEFORE-BINARY AFTER-BINARY" >&2
    exit 2
fi
before=$1
after=$2
seeds=${SEEDS:-20}
combats=${COMBATS:-1000}
random=${RANDOM_COMBATS:-50}
cd "$(dirname "$0")/.."
examples=${EXAMPLES:-$(ls examples/*/*.toml)}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

same() { # label, command args...
    local label=$1
    shift
    "$before" "$@" >"$work/a" 2>&1 || true
    "$after" "$@" >"$work/b" 2>&1 || true
    if ! cmp -s "$work/a" "$work/b"; then
        echo "DIFFERENT: $label (fray $*)"
        diff "$work/a" "$work/b" | head -20
        exit 1
    fi
}

checked=0
for f in $examples; do
    for s in $(seq 1 "$seeds"); do
        same "$f run seed $s" run "$f" --seed "$s" --json
        checked=$((checked + 1))
    done
    same "$f sim" sim "$f" -n "$combats" --seed 7 --json
    same "$f sim random" sim "$f" -n "$random" --seed 7 --json --default-policy random
    checked=$((checked + 2))
    echo "same: $f"
done
echo "identical play: $checked comparisons over $(echo "$examples" | wc -w) examples"
