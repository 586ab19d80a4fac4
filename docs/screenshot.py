#!/usr/bin/env python3
"""Renders a `tmux capture-pane -e -p` capture (text with SGR colour escapes) as an SVG of
monospace cells; `rsvg-convert` (librsvg) turns the SVG into the PNG the README shows.

    python3 docs/screenshot.py capture.txt > console.svg && rsvg-convert console.svg -o console.png
"""
import html
import re
import sys

# Drawn at twice the size and halved by `convert -resize 50%`, which smooths the glyphs.
CELL_W, CELL_H, FONT = 18, 36, 30
BASE = ["#1e1e1e", "#e06c75", "#98c379", "#e5c07b", "#61afef", "#c678dd", "#56b6c2", "#d0d0d0"]
BRIGHT = ["#7f7f7f", "#ff7b85", "#b5e890", "#ffd88a", "#82c4ff", "#e09cff", "#7fdcea", "#ffffff"]
FG, BG = "#d0d0d0", "#1e1e1e"


def colour_256(n):
    if n < 8:
        return BASE[n]
    if n < 16:
        return BRIGHT[n - 8]
    if n < 232:
        n -= 16
        steps = [0, 95, 135, 175, 215, 255]
        return "#%02x%02x%02x" % (steps[n // 36], steps[n // 6 % 6], steps[n % 6])
    grey = 8 + (n - 232) * 10
    return "#%02x%02x%02x" % (grey, grey, grey)


def apply(params, style):
    codes = [int(p) if p else 0 for p in params.split(";")] if params else [0]
    i = 0
    while i < len(codes):
        c = codes[i]
        if c == 0:
            style.update(fg=FG, bg=BG, bold=False, reverse=False)
        elif c == 1:
            style["bold"] = True
        elif c == 22:
            style["bold"] = False
        elif c == 7:
            style["reverse"] = True
        elif c == 27:
            style["reverse"] = False
        elif 30 <= c <= 37:
            style["fg"] = BASE[c - 30]
        elif 90 <= c <= 97:
            style["fg"] = BRIGHT[c - 90]
        elif 40 <= c <= 47:
            style["bg"] = BASE[c - 40]
        elif 100 <= c <= 107:
            style["bg"] = BRIGHT[c - 100]
        elif c == 39:
            style["fg"] = FG
        elif c == 49:
            style["bg"] = BG
        elif c in (38, 48) and i + 2 < len(codes) and codes[i + 1] == 5:
            style["fg" if c == 38 else "bg"] = colour_256(codes[i + 2])
            i += 2
        elif c in (38, 48) and i + 4 < len(codes) and codes[i + 1] == 2:
            rgb = "#%02x%02x%02x" % tuple(codes[i + 2 : i + 5])
            style["fg" if c == 38 else "bg"] = rgb
            i += 4
        i += 1


def cells(text):
    """Each line as a list of (char, fg, bg, bold)."""
    style = dict(fg=FG, bg=BG, bold=False, reverse=False)
    rows = []
    for line in text.split("\n"):
        row = []
        for part in re.split(r"(\x1b\[[0-9;]*m)", line):
            m = re.fullmatch(r"\x1b\[([0-9;]*)m", part)
            if m:
                apply(m.group(1), style)
                continue
            for ch in part:
                fg, bg = style["fg"], style["bg"]
                if style["reverse"]:
                    fg, bg = bg, fg
                row.append((ch, fg, bg, style["bold"]))
        rows.append(row)
    while rows and not rows[-1]:
        rows.pop()
    return rows


def svg(rows):
    width = max(len(r) for r in rows) * CELL_W
    height = len(rows) * CELL_H
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}">',
        f'<rect width="{width}" height="{height}" fill="{BG}"/>',
    ]
    for y, row in enumerate(rows):
        for x, (ch, fg, bg, bold) in enumerate(row):
            if bg != BG:
                out.append(
                    f'<rect x="{x * CELL_W}" y="{y * CELL_H}" width="{CELL_W}" height="{CELL_H}" fill="{bg}"/>'
                )
    for y, row in enumerate(rows):
        for x, (ch, fg, bg, bold) in enumerate(row):
            if ch != " ":
                weight = ' font-weight="bold"' if bold else ""
                out.append(
                    f'<text x="{x * CELL_W}" y="{y * CELL_H + CELL_H * 3 // 4}" fill="{fg}"{weight} '
                    f'font-family="DejaVu Sans Mono" font-size="{FONT}">{html.escape(ch, quote=False)}</text>'
                )
    out.append("</svg>")
    return "\n".join(out)


if __name__ == "__main__":
    with open(sys.argv[1], encoding="utf-8") as f:
        print(svg(cells(f.read())))
