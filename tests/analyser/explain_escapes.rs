//! `gatehouse explain`, the real binary: a line full of characters that hide or reorder text
//! comes back with each of them as a visible escape, in the text form and in `--batch`.

use std::io::Write;
use std::process::{Command, Stdio};

const GATEHOUSE: &str = env!("CARGO_BIN_EXE_gatehouse");

const HIDDEN: [char; 12] = [
    '\u{1b}',
    '\u{85}',
    '\u{2028}',
    '\u{2029}',
    '\u{202e}',
    '\u{2067}',
    '\u{200f}',
    '\u{061c}',
    '\u{e0041}',
    '\u{200b}',
    '\u{feff}',
    '\u{034f}',
];

fn line() -> String {
    let mut line = String::from("echo ok");
    for c in HIDDEN {
        line.push(c);
        line.push('x');
    }
    line
}

fn assert_all_escaped(out: &str) {
    for c in HIDDEN {
        assert!(!out.contains(c), "{:x} printed raw: {out:?}", c as u32);
    }
}

#[test]
fn explain_prints_every_hidden_character_as_an_escape() {
    let out = Command::new(GATEHOUSE)
        .args(["explain", &line()])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert_all_escaped(&text);
    assert!(text.contains("\\u{2028}x\\u{2029}x\\u{202e}x"), "{text}");
    assert!(text.contains("\\u{e0041}x"), "{text}");
}

#[test]
fn explain_batch_prints_every_hidden_character_as_an_escape() {
    let mut child = Command::new(GATEHOUSE)
        .args(["explain", "--batch"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let batch = format!("{}\ncat \u{202e}txt.exe\n", line().replace('\u{1b}', ""));
    child
        .stdin
        .take()
        .unwrap()
        .write_all(batch.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), 2, "{text}");
    assert_all_escaped(&text);
}
