#!/usr/bin/env bash
# The hook's round trip for a statically allowed call (process start to exit, console
# running) against a bare process start (/bin/true), and the no-console fallback too.
# Needs hyperfine (Debian: apt-get install hyperfine). Usage: benches/hook_roundtrip.sh
set -euo pipefail
cd "$(dirname "$0")/.."
command -v hyperfine >/dev/null || { echo "hook_roundtrip: install hyperfine first" >&2; exit 1; }
cargo build --release --locked --bin gatehouse >&2
bin=$PWD/target/release/gatehouse
work=$(mktemp -d)
serve_pid=
cleanup() {
    if [[ -n $serve_pid ]]; then kill "$serve_pid" 2>/dev/null || true; wait "$serve_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT
printf 'audit_log = "%s/audit.jsonl"\n' "$work" > "$work/config.toml"
cp tests/fixtures/claude-code/pretooluse-read.json "$work/read.json"
sock=$work/run/gatehouse.sock
hook="$bin hook claude --config $work/config.toml --socket $sock"

"$bin" serve --config "$work/config.toml" --socket "$sock" 2>/dev/null &
serve_pid=$!
for _ in $(seq 100); do [[ -S $sock ]] && break; sleep 0.05; done
[[ -S $sock ]] || { echo "hook_roundtrip: serve did not start" >&2; exit 1; }
$hook < "$work/read.json" | grep -q '"allow"' || { echo "hook_roundtrip: no allow" >&2; exit 1; }

# This hyperfine has no --input, so both commands run under sh with its start-up time
# measured and subtracted by hyperfine; the redirection is the only extra.
hyperfine --shell sh --warmup 50 --runs 1000 \
    --export-json "$work/console.json" \
    -n '/bin/true' "/bin/true < $work/read.json" \
    -n 'hook, console running' "$hook < $work/read.json"
kill "$serve_pid"; wait "$serve_pid" 2>/dev/null || true; serve_pid=
hyperfine --shell sh --warmup 50 --runs 1000 \
    -n 'hook, no console (static fallback)' "$hook < $work/read.json"

python3 - "$work/console.json" <<'PY'
import json, sys
r = {x["command"]: x for x in json.load(open(sys.argv[1]))["results"]}
t, h = r["/bin/true"]["median"], r["hook, console running"]["median"]
print(f"median: /bin/true {t*1e3:.2f} ms, hook {h*1e3:.2f} ms, ratio {h/t:.1f}x")
PY
