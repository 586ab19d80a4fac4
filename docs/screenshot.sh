#!/usr/bin/env bash
# Makes docs/console.png from the real program: the demo in a private tmux server at 100x30,
# captured with its colours, drawn as an SVG of cells, rendered by librsvg (ImageMagick's own
# SVG reader drops a cell that holds only a quote). Needs tmux, python3 and rsvg-convert
# (`apt-get install tmux librsvg2-bin fonts-dejavu-core`).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --bin gatehouse
# .cargo/config.toml builds for the host tuple, so the binary is under its name.
bin=./target/$(rustc -vV | sed -n 's/^host: //p')/debug/gatehouse
work=$(mktemp -d)
trap 'tmux -L gatehouse-shot kill-server 2>/dev/null || true; rm -rf "$work"' EXIT
tmux -L gatehouse-shot new-session -d -s shot -x 100 -y 30 \
  "env XDG_STATE_HOME=$work XDG_RUNTIME_DIR=$work $bin demo; sleep 60"
# The demo's scripted agent has opened its dialogs by then.
sleep "${SHOT_WAIT:-12}"
tmux -L gatehouse-shot capture-pane -t shot -e -p > "$work/capture.txt"
python3 docs/screenshot.py "$work/capture.txt" > "$work/console.svg"
rsvg-convert --zoom 0.5 "$work/console.svg" -o docs/console.png
echo "wrote docs/console.png"
