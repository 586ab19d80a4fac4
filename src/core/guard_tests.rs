//! gatehouse's own files: which paths and which shell lines may change them.

use std::path::Path;

use super::*;
use crate::core::shell::analyse;

fn own() -> OwnFiles {
    let mut own = OwnFiles::default();
    own.add("/home/me/.config/gatehouse/rules.toml", "the saved rules");
    own.add("/home/me/.config/gatehouse/config.toml", "the config");
    own.add(
        "/home/me/.local/state/gatehouse/audit.jsonl",
        "the audit log",
    );
    own.add("~/.claude/settings.json", "Claude Code's hook settings");
    own.add(".claude/settings.json", "Claude Code's hook settings");
    own
}

fn place() -> Place<'static> {
    Place {
        home: Some(Path::new("/home/me")),
        cwd: Some(Path::new("/home/me/project")),
    }
}

#[test]
fn own_files_are_found_however_the_path_is_written() {
    let own = own();
    for word in [
        "/home/me/.config/gatehouse/rules.toml",
        "~/.config/gatehouse/rules.toml",
        "$HOME/.config/gatehouse/config.toml",
        "../.config/gatehouse/rules.toml",
        "~/.claude/settings.json",
        "/home/me/.claude/settings.json",
        ".claude/settings.json",
        ".gatehouse.toml",
        "sub/dir/.gatehouse.toml",
        "~/.config/gatehouse/*.toml",
        "~/.config/gatehouse",
        "~/.claude",
        "~",
        "/",
        "~/.config/{gatehouse,x}/rules.toml",
    ] {
        assert!(own.touched(word, place()).is_some(), "{word}");
    }
    for word in [
        "README.md",
        "settings.json",
        ".vscode/settings.json",
        "~/.config/other/rules.toml",
        "/tmp/gatehouse.toml",
        "src",
    ] {
        assert!(own.touched(word, place()).is_none(), "{word}");
    }
}

fn tamper(line: &str) -> Option<String> {
    own().tampered_by(&analyse(line), place())
}

#[test]
fn a_line_that_may_write_an_own_file_is_tamper() {
    for line in [
        "echo x > .gatehouse.toml",
        "echo '{}' > ~/.claude/settings.json",
        "cat x >> $HOME/.claude/settings.json",
        "sed -i s/gatehouse/true/ ~/.claude/settings.json",
        "cp x ~/.config/gatehouse/rules.toml",
        "rm .gatehouse.toml",
        "rm -rf ~/.claude",
        "echo '' | tee ~/.local/state/gatehouse/audit.jsonl",
        "mv ~/.config/gatehouse /tmp/x",
        "cd ~/.claude && sed -i d settings.json",
        "bash -c 'echo x > .gatehouse.toml'",
        "python3 edit.py ~/.claude/settings.json",
        "dd of=/home/me/.config/gatehouse/rules.toml if=/dev/zero",
        "truncate -s0 ../.local/state/gatehouse/audit.jsonl",
    ] {
        assert!(tamper(line).is_some(), "{line}");
    }
}

#[test]
fn reading_an_own_file_or_writing_elsewhere_is_not_tamper() {
    for line in [
        "cat .gatehouse.toml",
        "cat ~/.claude/settings.json > /tmp/copy",
        "grep hook ~/.claude/settings.json",
        "echo x > notes.txt",
        "rm -rf build",
        "sed -i s/a/b/ .vscode/settings.json",
        "ls ~/.config/gatehouse",
    ] {
        assert_eq!(tamper(line), None, "{line}");
    }
}

#[test]
fn the_reason_names_the_writer_the_file_and_what_it_would_disable() {
    let why = tamper("echo x > .gatehouse.toml").unwrap();
    assert!(why.contains(".gatehouse.toml"), "{why}");
    assert!(why.contains("a project's rules"), "{why}");
    let why = tamper("sed -i d ~/.claude/settings.json").unwrap();
    assert!(
        why.starts_with("sed may change ~/.claude/settings.json"),
        "{why}"
    );
    assert!(why.contains("Claude Code's hook settings"), "{why}");
}
