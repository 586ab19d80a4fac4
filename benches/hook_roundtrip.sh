#!/usr/bin/env bash
# The hook's round trip for a statically allowed call (process start to exit, console
# running) against a bare process start (/bin/true), and the no-console fallback too.
# Needs hyperfine, 1.17 or newer to time without a shell (Debian 13: apt-get install hyperfine;
# else cargo install --locked hyperfine --version 1.20.0). Usage: benches/hook_roundtrip.sh
set -euo pipefail
cd "$(dirname "$0")/.."
command -v hyperfine >/dev/null || { echo "hook_roundtrip: install hyperfine first" >&2; exit 1; }
cargo build --release --locked --bin gatehouse >&2
# .cargo/config.toml builds for the host tuple, so the binary is under its name.
built=$PWD/target/$(rustc -vV | sed -n 's/^host: //p')/release/gatehouse
work=$(mktemp -d)
# Timed from a copy, as `cargo install` leaves it (here the file the linker had just written
# timed up to a fifth slower than a copy of its bytes).
bin=$work/gatehouse
serve_pid=
cleanup() {
    if [[ -n $serve_pid ]]; then kill "$serve_pid" 2>/dev/null || true; wait "$serve_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT
cp "$built" "$bin"
printf 'audit_log = "%s/audit.jsonl"\n' "$work" > "$work/config.toml"
cp tests/fixtures/claude-code/pretooluse-read.json "$work/read.json"
sock=$work/run/gatehouse.sock
hook="$bin hook claude --config $work/config.toml --socket $sock"

"$bin" serve --config "$work/config.toml" --socket "$sock" 2>/dev/null &
serve_pid=$!
for _ in $(seq 100); do [[ -S $sock ]] && break; sleep 0.05; done
[[ -S $sock ]] || { echo "hook_roundtrip: serve did not start" >&2; exit 1; }
$hook < "$work/read.json" | grep -q '"allow"' || { echo "hook_roundtrip: no allow" >&2; exit 1; }

# With --input each process is started directly, stdin from the file. An older hyperfine can
# only run both under sh, subtracting the shell's measured start-up: noisier, and the
# redirection is then an extra.
if hyperfine --help | grep -q -- '--input'; then
    timed=(hyperfine --shell=none --input "$work/read.json")
    true_cmd=/bin/true
    hook_cmd=$hook
else
    echo "hook_roundtrip: this hyperfine has no --input; timing under sh" >&2
    timed=(hyperfine --shell sh)
    true_cmd="/bin/true < $work/read.json"
    hook_cmd="$hook < $work/read.json"
fi
# Five rounds, each timing both in turn: a machine whose speed drifts moves both sides of a
# round's ratio alike, and the median round is the figure.
rounds=5
for round in $(seq "$rounds"); do
    "${timed[@]}" --warmup 20 --runs 300 --style none \
        --export-json "$work/round-$round.json" \
        -n '/bin/true' "$true_cmd" \
        -n 'hook, console running' "$hook_cmd" >/dev/null
done
kill "$serve_pid"; wait "$serve_pid" 2>/dev/null || true; serve_pid=
"${timed[@]}" --warmup 20 --runs 300 --style none \
    --export-json "$work/fallback.json" \
    -n 'hook, no console (static fallback)' "$hook_cmd" >/dev/null

python3 - "$work" "$rounds" <<'PY'
import json, statistics, sys
work, rounds = sys.argv[1], int(sys.argv[2])
def medians(name):
    return {x["command"]: x["median"] for x in json.load(open(f"{work}/{name}.json"))["results"]}
rows = [medians(f"round-{i}") for i in range(1, rounds + 1)]
ratios = sorted(r["hook, console running"] / r["/bin/true"] for r in rows)
t = statistics.median(r["/bin/true"] for r in rows)
h = statistics.median(r["hook, console running"] for r in rows)
f = medians("fallback")["hook, no console (static fallback)"]
print(f"median of {rounds} rounds: /bin/true {t*1e3:.2f} ms, hook with the console {h*1e3:.2f} ms, "
      f"no console {f*1e3:.2f} ms")
print(f"ratio hook/true: {statistics.median(ratios):.2f}x (rounds {ratios[0]:.2f}x to {ratios[-1]:.2f}x)")
PY
