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
# EXAMPLES (default: every examples/*/*.toml), IGNORE_EVENTS (default none: a `|`-separated
# list of event names left out of both event logs, for a change that reshapes only those
# bookkeeping events, e.g. `SetTop|SetFrame|FrameChanged`; the readable logs, which show no
# bookkeeping, are then compared too), RECORDS (default 0; 1 compares the game records that
# `fray run --record` writes, which hold every command, face and event as the ruleset keeps
# them, and the readable logs, instead of the `--json` logs: for a change to how events are
# shown as JSON and not to play). Exit code 0 when everything is identical, 1 on the first
# difference, 2 on bad arguments.
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

# The event log without the events named in IGNORE_EVENTS (each event is one JSON line,
# `{"Name":...}` or `"Name"`).
same_log() { # label, command args...
    local label=$1
    shift
    "$before" "$@" 2>&1 | grep -Ev "^\{?\"($ignore)\"" >"$work/a" || true
    "$after" "$@" 2>&1 | grep -Ev "^\{?\"($ignore)\"" >"$work/b" || true
    if ! cmp -s "$work/a" "$work/b"; then
        echo "DIFFERENT: $label (fray $*, leaving out $ignore)"
        diff "$work/a" "$work/b" | head -20
        exit 1
    fi
}
ignore=${IGNORE_EVENTS:-}
records=${RECORDS:-0}

# The records two builds write of the same run.
same_record() { # label, command args...
    local label=$1
    shift
    "$before" "$@" --record "$work/ra.json" >/dev/null 2>&1 || true
    "$after" "$@" --record "$work/rb.json" >/dev/null 2>&1 || true
    if ! cmp -s "$work/ra.json" "$work/rb.json"; then
        echo "DIFFERENT: $label (fray $* --record)"
        diff <(tr ',' '\n' <"$work/ra.json") <(tr ',' '\n' <"$work/rb.json") | head -20
        exit 1
    fi
}

checked=0
for f in $examples; do
    for s in $(seq 1 "$seeds"); do
        if [ "$records" = 1 ]; then
            same_record "$f run seed $s" run "$f" --seed "$s"
            same "$f run seed $s (readable)" run "$f" --seed "$s"
            checked=$((checked + 2))
        elif [ -n "$ignore" ]; then
            same_log "$f run seed $s" run "$f" --seed "$s" --json
            same "$f run seed $s (readable)" run "$f" --seed "$s"
            checked=$((checked + 2))
        else
            same "$f run seed $s" run "$f" --seed "$s" --json
            checked=$((checked + 1))
        fi
    done
    same "$f sim" sim "$f" -n "$combats" --seed 7 --json
    same "$f sim random" sim "$f" -n "$random" --seed 7 --json --default-policy random
    checked=$((checked + 2))
    echo "same: $f"
done
echo "identical play: $checked comparisons over $(echo "$examples" | wc -w) examples"
