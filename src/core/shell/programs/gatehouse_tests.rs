//! gatehouse's own commands, however they are spelled and wrapped.

use crate::core::shell::{Safety, analyse};

fn assert_safety(lines: &[&str], expected: Safety) {
    for line in lines {
        let analysis = analyse(line);
        assert_eq!(
            analysis.safety,
            expected,
            "{line:?}: {}",
            analysis.explanation()
        );
    }
}

#[test]
fn the_commands_that_change_what_gatehouse_allows_tamper() {
    assert_safety(
        &[
            "gatehouse rules trust",
            "gatehouse rules trust /tmp/evil",
            "gatehouse rules add allow 'curl'",
            "gatehouse rules add deny 'git push' --scope project",
            "gatehouse rules rm r1",
            "gatehouse --config /tmp/c.toml rules trust",
            "gatehouse rules --config=/tmp/c.toml trust",
            "gatehouse uninstall claude",
            "gatehouse uninstall codex --scope project",
            "gatehouse install claude --socket /tmp/s",
            "gatehouse devices revoke phone",
            "gatehouse detach opencode http://127.0.0.1:4096",
            "gatehouse attach opencode http://127.0.0.1:4096",
            "gatehouse pair",
            "gatehouse serve --mode allow-all",
            "gatehouse serve",
            "gatehouse",
            "gatehouse --mode allow-all",
            "gatehouse --web",
            "gatehouse --socket /tmp/s",
            "/usr/local/bin/gatehouse rules trust",
        ],
        Safety::Tamper,
    );
}

#[test]
fn unknown_and_dynamic_gatehouse_commands_tamper() {
    assert_safety(
        &[
            "gatehouse frobnicate",
            "gatehouse rules",
            "gatehouse rules frob",
            "gatehouse devices frob",
            "gatehouse config",
            "gatehouse config example extra",
            "gatehouse $CMD",
            "gatehouse rules $VERB",
            "gatehouse \"$@\"",
            "gatehouse devices $X",
            "gatehouse --version extra",
            "gatehouse -$X",
            "gatehouse rules trust -- --help",
            "gatehouse rules add allow x --reason --help",
        ],
        Safety::Tamper,
    );
}

#[test]
fn gatehouse_read_only_commands_are_read_only() {
    assert_safety(
        &[
            "gatehouse explain 'rm -rf /'",
            "gatehouse explain --json 'ls'",
            "gatehouse explain --batch < lines.txt",
            "gatehouse --config /tmp/c.toml explain ls",
            "gatehouse rules list",
            "gatehouse rules list --cwd /tmp",
            "gatehouse rules check 'git push'",
            "gatehouse rules suggest",
            "gatehouse agents",
            "gatehouse agents --markdown",
            "gatehouse devices",
            "gatehouse config example",
            "gatehouse --help",
            "gatehouse -h",
            "gatehouse --version",
            "gatehouse -V",
            "gatehouse help",
            "gatehouse help rules trust",
            "gatehouse rules trust --help",
            "gatehouse uninstall -h",
            "/usr/bin/gatehouse explain ls",
            "gatehouse explain ls | head",
        ],
        Safety::ReadOnly,
    );
}

#[test]
fn gatehouse_commands_that_neither_read_only_nor_tamper_keep_their_risk() {
    for (line, class) in [
        ("gatehouse hook claude < call.json", "unverified"),
        ("gatehouse demo", "pager"),
        ("gatehouse classifier test 'ls'", "network"),
        ("gatehouse classifier eval corpus.tsv", "network"),
    ] {
        let analysis = analyse(line);
        assert_eq!(analysis.safety, Safety::Unverified, "{line}");
        let obstacle = analysis.obstacle().unwrap().to_string();
        assert_eq!(obstacle.replace("unknown", "unverified"), class, "{line}");
    }
}

#[test]
fn gatehouse_by_path_or_dynamic_word_tampers_when_its_arguments_do() {
    assert_safety(
        &[
            "./target/release/gatehouse rules trust",
            "target/debug/gatehouse uninstall claude",
            "~/.cargo/bin/gatehouse devices revoke phone",
            "$HOME/.cargo/bin/gatehouse rules add allow rm",
            "\"$HOME\"/bin/gatehouse serve --mode allow-all",
            "./gatehouse",
            "$G rules trust",
            "$(which gatehouse) rules trust",
            "\"$GATEHOUSE\" uninstall claude-code",
            "/tmp/gh devices revoke phone",
            "./renamed detach opencode http://x",
            "ghx rules trust",
        ],
        Safety::Tamper,
    );
    // Otherwise a path-qualified program is what it always is: not read-only, not tamper.
    for line in [
        "./target/release/gatehouse explain ls",
        "$G explain ls",
        "$PIP install codex-cli",
        "brew install codex",
        "brew uninstall gemini",
        "make rules",
    ] {
        let safety = analyse(line).safety;
        assert!(
            safety != Safety::ReadOnly && safety != Safety::Tamper,
            "{line}: {safety}"
        );
    }
}

#[test]
fn cargo_run_of_gatehouse_tampers_when_gatehouse_would() {
    assert_safety(
        &[
            "cargo run -- rules trust",
            "cargo run --release -- uninstall claude",
            "cargo r -q -- devices revoke phone",
            "cargo +nightly run -- rules add allow curl",
            "cargo run --features x -j 2 -- install codex",
            "cargo run --bin gatehouse -- serve --mode allow-all",
            "cargo run --bin=gatehouse",
            "cargo run -p gatehouse -- pair",
            "cargo run -pgatehouse -- pair",
            "cargo run --package gatehouse frob",
            "cargo run --bin $B -- serve",
            "cargo --locked run --weird x rules trust",
            "cargo run -- --config /tmp/c rules trust",
            "~/.cargo/bin/cargo run -- rules trust",
        ],
        Safety::Tamper,
    );
    for line in [
        "cargo run -- serve",
        "cargo run -- explain ls",
        "cargo run --bin gatehouse -- explain ls",
        "cargo run --bin other -- rules trust",
        "cargo run --example demo -- rules trust",
        "cargo build",
        "cargo test rules",
    ] {
        let safety = analyse(line).safety;
        assert!(
            safety != Safety::ReadOnly && safety != Safety::Tamper,
            "{line}: {safety}"
        );
    }
}

#[test]
fn wrappers_and_nested_scripts_do_not_hide_a_tampering_command() {
    assert_safety(
        &[
            "env gatehouse rules trust",
            "env -i PATH=/usr/bin gatehouse uninstall claude",
            "sudo gatehouse rules trust",
            "sudo -u me gatehouse devices revoke phone",
            "timeout 5 gatehouse rules trust",
            "nice -n 5 nohup gatehouse serve",
            "command gatehouse rules trust",
            "exec gatehouse rules trust",
            "xargs gatehouse rules",
            "echo trust | xargs gatehouse rules",
            "xargs -I{} gatehouse rules trust {}",
            "find . -name x -exec gatehouse rules trust {} \\;",
            "bash -c 'gatehouse rules trust'",
            "sh -c \"cd /tmp && gatehouse rules trust\"",
            "eval 'gatehouse rules trust'",
            "ls; gatehouse rules trust",
            "rm -f x && gatehouse rules trust",
            "echo $(gatehouse rules trust)",
            "f() { gatehouse \"$@\"; }; f rules trust",
            "alias g=gatehouse",
            "alias g='/opt/bin/gatehouse rules'",
            "time gatehouse rules trust",
            "watch gatehouse rules trust",
        ],
        Safety::Tamper,
    );
}

#[test]
fn a_tamper_line_names_what_it_changes() {
    let analysis = analyse("ls && gatehouse rules trust");
    let why = analysis.explanation();
    assert!(
        why.starts_with("gatehouse: trusts a project's policy"),
        "{why}"
    );
    assert!(why.contains("changes what gatehouse allows"), "{why}");
}
