#!/usr/bin/env python3
"""Checks the one-line rule summaries in docs/rules/<ruleset>.toml.

Without arguments it checks what a clone alone can check: every file is valid TOML, its keys
are rule IDs of its ruleset in ascending order, every value is one short line, and every option
it names in backquotes is a field of crates/rules/<ruleset>/src/options.rs.

With the directory of the rules checklists (the `<ruleset>.md` files that define the IDs), it
also checks that each file has exactly one entry per numbered rule item (`N. XXX-RNN ...`) and
no other key, and it lists summaries that share a run of words with the checklist or with the
chapter texts (give `--seeds DIR`), since the summaries are meant to be in our own words.

    scripts/check-rule-summaries.py [--rules DIR] [--seeds DIR] [--words N]

Exit status 1 when a check fails; overlaps are reported but fail only with `--strict`.
"""

import argparse
import pathlib
import re
import sys
import tomllib

ROOT = pathlib.Path(__file__).resolve().parent.parent
RULESETS = {
    "thrum": "THR",
    "ingenuity": "ING",
    "einfelst": "EIN",
    "murdham": "MUR",
    "hallowed-earth": "HAL",
}
MAX_LEN = 160
ITEM = re.compile(r"^\d+\. ([A-Z]+-R\d+)\b", re.M)
OPTION = re.compile(r"`([a-z0-9-]+)`")
FIELD = re.compile(r"^\s*pub ([a-z0-9_]+):", re.M)


def id_number(rule_id):
    return int(rule_id.split("-R")[1])


def words(text):
    return re.findall(r"[a-z0-9]+", text.lower())


def shingles(text, n):
    w = words(text)
    return {tuple(w[i : i + n]) for i in range(len(w) - n + 1)}


def check_ruleset(name, prefix, args, sources):
    errors, overlaps = [], []
    path = ROOT / "docs" / "rules" / f"{name}.toml"
    try:
        table = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as e:
        return [f"{path}: {e}"], []
    keys = list(table)
    for key in keys:
        if not re.fullmatch(prefix + r"-R\d+", key):
            errors.append(f"{name}: key {key} is not a {prefix} rule ID")
    numbered = [k for k in keys if re.fullmatch(prefix + r"-R\d+", k)]
    if numbered != sorted(numbered, key=id_number):
        errors.append(f"{name}: keys are not in ID order")
    options_rs = ROOT / "crates" / "rules" / name / "src" / "options.rs"
    fields = {f.replace("_", "-") for f in FIELD.findall(options_rs.read_text(encoding="utf-8"))}
    for key, value in table.items():
        if not isinstance(value, str) or "\n" in value or not value.strip():
            errors.append(f"{name}: {key} is not one line of text")
            continue
        if len(value) > MAX_LEN:
            errors.append(f"{name}: {key} is {len(value)} characters (at most {MAX_LEN})")
        if re.search(r"\[[A-Z]\]", value):
            errors.append(f"{name}: {key} carries a source tag")
        for option in OPTION.findall(value):
            if option not in fields:
                errors.append(f"{name}: {key} names option `{option}`, which options.rs lacks")
    if args.rules:
        checklist = (args.rules / f"{name}.md").read_text(encoding="utf-8")
        items = ITEM.findall(checklist)
        if len(items) != len(set(items)):
            errors.append(f"{name}: the checklist numbers an ID twice")
        missing = sorted(set(items) - set(keys), key=id_number)
        extra = sorted(set(keys) - set(items), key=lambda k: (k.split("-R")[0], k))
        if missing:
            errors.append(f"{name}: no summary for {' '.join(missing)}")
        if extra:
            errors.append(f"{name}: summaries for IDs the checklist lacks: {' '.join(extra)}")
        print(f"{name}: {len(keys)} summaries, {len(set(items))} numbered rules")
    else:
        print(f"{name}: {len(keys)} summaries")
    if sources:
        for key, value in table.items():
            shared = shingles(value, args.words) & sources
            if shared:
                overlaps.append(f"{name}: {key} shares: " + " | ".join(" ".join(s) for s in sorted(shared)))
    return errors, overlaps


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", type=pathlib.Path, help="directory of the rules checklists")
    parser.add_argument("--seeds", type=pathlib.Path, help="directory of the chapter texts")
    parser.add_argument("--words", type=int, default=6, help="run length that counts as shared")
    parser.add_argument("--strict", action="store_true", help="fail on shared runs of words")
    args = parser.parse_args()
    sources = set()
    for directory in (args.rules, args.seeds):
        if directory:
            for f in sorted(directory.iterdir()):
                if f.suffix in (".md", ".txt") and f.name != "README.md":
                    sources |= shingles(f.read_text(encoding="utf-8"), args.words)
    errors, overlaps = [], []
    for name, prefix in RULESETS.items():
        e, o = check_ruleset(name, prefix, args, sources)
        errors += e
        overlaps += o
    for line in overlaps:
        print("overlap:", line)
    for line in errors:
        print("error:", line, file=sys.stderr)
    return 1 if errors or (args.strict and overlaps) else 0


if __name__ == "__main__":
    sys.exit(main())
