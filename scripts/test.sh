#!/usr/bin/env bash
# Every test of fray, as CI runs them (the README's test command):
#   1. installs what the browser tests need when it is missing: Debian's chromium (apt-get) and
#      the playwright-core pinned in tests/browser/package-lock.json (npm ci, into
#      tests/browser/node_modules);
#   2. cargo test --workspace (which needs no browser);
#   3. the browser tests (tests/browser/*.test.mjs, Node's test runner): each starts its own
#      `fray serve` and plays whole fights by clicking in chromium. They drive the fray binary
#      that step 2 built for the server tests (the test profile's target/debug/fray), so
#      nothing is built twice. Screenshots go to target/browser-shots/.
# Exits non-zero when anything fails. Needs the Rust toolchain, Node/npm and apt.
#   FRAY_SKIP_CARGO_TEST=1   skip step 2 (the binary is still built, and the browser tests run)
#   FRAY_DOC_SHOTS=1         also copy one shot per kind of map, and a phone shot, to docs/images/
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
t_all=$(date +%s)
cargo_status=0

step() { printf '\n==> %s\n' "$*"; }
fail() { printf 'scripts/test.sh: error: %s\n' "$*" >&2; exit 1; }
elapsed() { local s=$(($(date +%s) - $1)); printf '%dm%02ds' $((s / 60)) $((s % 60)); }

# ---------------------------------------------------------------- 1. what the browser tests need

chromium=${FRAY_CHROMIUM:-/usr/bin/chromium}
step "chromium for the browser tests ($chromium)"
if [ -x "$chromium" ]; then
    echo "present: $("$chromium" --version 2>/dev/null || echo "$chromium")"
else
    sudo=()
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null || fail "chromium is missing, and installing it needs root or sudo"
        sudo=(sudo)
    fi
    echo "missing: installing Debian's chromium (apt-get install -y chromium)"
    "${sudo[@]}" apt-get update -q
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -q chromium
    [ -x "$chromium" ] || fail "apt-get installed chromium, but $chromium is not there"
fi

step "playwright-core for the browser tests (tests/browser, npm ci)"
command -v node >/dev/null || fail "node is missing: the browser tests need Node.js (20 or newer) and npm"
command -v npm >/dev/null || fail "npm is missing: the browser tests need Node.js (20 or newer) and npm"
want=$(node -e 'console.log(require("./tests/browser/package-lock.json").packages["node_modules/playwright-core"].version)')
have=$(node -e 'try { console.log(require("./tests/browser/node_modules/playwright-core/package.json").version) } catch (e) { console.log("none") }')
if [ "$have" = "$want" ]; then
    echo "present: playwright-core $have"
else
    echo "installing playwright-core $want (found: $have)"
    # The package never downloads a browser of its own (chromium comes from apt).
    (cd tests/browser && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund)
fi

# ---------------------------------------------------------------- 2. the Rust tests

if [ "${FRAY_SKIP_CARGO_TEST:-}" = 1 ]; then
    step "cargo test --workspace: skipped (FRAY_SKIP_CARGO_TEST=1)"
else
    step "cargo test --workspace"
    t=$(date +%s)
    cargo test --workspace || cargo_status=$?
    echo "cargo test --workspace took $(elapsed "$t")"
    # On a failure the browser tests still run (when the binary built), and the script fails at the end.
    [ "$cargo_status" -eq 0 ] || echo "scripts/test.sh: cargo test --workspace failed (exit $cargo_status); the browser tests run all the same" >&2
fi

# ---------------------------------------------------------------- 3. the browser tests

step "the fray binary the browser tests drive (the test profile's, as the server tests use)"
# Nothing to build after step 2 (the same command, with --no-run): this only asks cargo for the
# path of the binary it built for crates/cli/tests/it/serve.rs.
bin=$(cargo test --workspace --no-run --message-format=json-render-diagnostics |
    node -e '
        let out = "";
        for (const line of require("fs").readFileSync(0, "utf8").split("\n")) {
            if (!line.startsWith("{")) continue;
            const m = JSON.parse(line);
            if (m.reason === "compiler-artifact" && m.target.name === "fray" && m.target.kind.includes("bin") && !m.profile.test && m.executable) out = m.executable;
        }
        console.log(out);
    ')
[ -n "$bin" ] && [ -x "$bin" ] || fail "cargo named no fray binary"
echo "$bin"

step "browser tests (node --test tests/browser/*.test.mjs)"
t=$(date +%s)
status=0
FRAY_BIN="$bin" FRAY_CHROMIUM="$chromium" node --test --test-concurrency=1 tests/browser/*.test.mjs || status=$?
echo "browser tests took $(elapsed "$t"); screenshots in $root/target/browser-shots/"
echo "scripts/test.sh took $(elapsed "$t_all")"
[ "$cargo_status" -eq 0 ] || fail "cargo test --workspace failed"
[ "$status" -eq 0 ] || fail "the browser tests failed"
