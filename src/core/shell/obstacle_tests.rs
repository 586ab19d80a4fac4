//! The obstacle the analyser reports for unverified lines, one kind at a time, and how a line's
//! obstacle is the riskiest of its parts.

use super::{Obstacle, Risk};
use crate::core::shell::analyse;

fn obstacle(line: &str) -> Option<Obstacle> {
    analyse(line).obstacle()
}

fn known(risk: Risk) -> Option<Obstacle> {
    Some(Obstacle::Known(risk))
}

#[test]
fn missing_knowledge_in_plain_words_alone_is_unknown() {
    for line in [
        "mytool --list",
        "git log --frobnicate",
        "sort --frobnicate f",
        "mytool 'a b' ./x < in.txt",
        "ls | mytool --count",
    ] {
        assert_eq!(obstacle(line), Some(Obstacle::Unknown), "{line}");
    }
}

#[test]
fn a_word_only_the_running_line_knows_is_a_dynamic_risk() {
    for line in [
        "rg $PATTERN",
        "$CMD x",
        "x=mytool; $x --list",
        "\"$(which mytool)\" --list",
        "mytool \"$f\"",
        "mytool *.txt",
        "mytool --out={a,b}",
        "git $opt log",
        "cat <&5",
        "if true; then f() { :; }; fi",
    ] {
        assert_eq!(obstacle(line), known(Risk::Dynamic), "{line}");
    }
}

#[test]
fn a_line_not_read_as_bash_reads_it_is_unparsed() {
    for line in [
        "ls &&",
        "mytool 'unterminated",
        "",
        "   ",
        "[ -f x",
        "cat <<EOF\nx\nEO\\\nF\nmytool\nEOF",
    ] {
        assert_eq!(obstacle(line), known(Risk::Unparsed), "{line:?}");
    }
}

#[test]
fn text_fed_to_an_unknown_program_is_a_payload_risk() {
    for line in [
        "mytool <<EOF\nDROP TABLE t;\nEOF",
        "mytool <<'EOF'\nanything\nEOF",
        "mytool <<< 'DROP TABLE t'",
        "mytool --db x <<-EOF\n\tdelete\n\tEOF",
    ] {
        assert_eq!(obstacle(line), known(Risk::Payload), "{line:?}");
    }
    // A file on standard input is an operand like any other; a here-document read by a known
    // program is judged with it.
    assert_eq!(obstacle("mytool < in.txt"), Some(Obstacle::Unknown));
    assert_eq!(obstacle("cat <<EOF\nx\nEOF"), None);
}

#[test]
fn loader_and_start_up_variables_and_arithmetic_run_code() {
    for line in [
        "LD_PRELOAD=/tmp/x.so mytool",
        "BASH_ENV=./x mytool",
        "GIT_CONFIG_COUNT=1 mytool",
        "echo $(( x ))",
        "[ \"$n\" -eq 1 ]",
        "let \"$e\"",
        "PS4='$(id)' mytool",
        "ls | xargs sh -c \"$0\"",
    ] {
        assert_eq!(obstacle(line), known(Risk::RunsCode), "{line}");
    }
    assert_eq!(obstacle("tar -tf host:a.tar"), known(Risk::Network));
}

#[test]
fn a_line_that_is_not_unverified_has_no_obstacle() {
    assert_eq!(obstacle("ls -la"), None);
    assert_eq!(obstacle("rm -rf build"), None);
    assert_eq!(
        obstacle("curl https://x; rm y"),
        None,
        "a writer is a writer"
    );
}

#[test]
fn reaching_the_network_is_a_network_risk() {
    for line in [
        "curl https://x",
        "wget -q https://x",
        "git fetch",
        "git remote show origin",
        "openssl s_client -connect example.com:443",
        "cat < /dev/tcp/example.com/80",
    ] {
        assert_eq!(obstacle(line), known(Risk::Network), "{line}");
    }
}

#[test]
fn scripts_builds_tests_and_interpreters_run_code() {
    for line in [
        "npm test",
        "make",
        "cargo test",
        "python3 -c 'print(1)'",
        "bash script.sh",
        "cat s.sh | bash -s",
        "awk 'BEGIN { system(\"id\") }'",
        "rg --pre=x needle",
        "source env.sh",
    ] {
        assert_eq!(obstacle(line), known(Risk::RunsCode), "{line}");
    }
}

#[test]
fn pagers_editors_and_interactive_programs_are_a_pager_risk() {
    for line in [
        "less f",
        "vim f",
        "git -p log",
        "man ls",
        "top",
        "PAGER=less git log",
    ] {
        assert_eq!(obstacle(line), known(Risk::Pager), "{line}");
    }
}

#[test]
fn a_path_qualified_program_is_its_own_risk() {
    for line in [
        "./run.sh",
        "bin/tool --list",
        "hash -p ./evil ls",
        "export PATH=/tmp/evil:$PATH; ls",
    ] {
        assert_eq!(obstacle(line), known(Risk::PathQualified), "{line}");
    }
}

#[test]
fn git_pointed_elsewhere_is_its_own_risk() {
    for line in [
        "git -C /elsewhere log",
        "git --git-dir=/x log",
        "git -c core.pager=x log",
    ] {
        assert_eq!(obstacle(line), known(Risk::GitElsewhere), "{line}");
    }
}

#[test]
fn any_known_risk_beats_missing_knowledge_and_the_riskiest_part_wins() {
    assert_eq!(obstacle("mytool; less f"), known(Risk::Pager));
    assert_eq!(obstacle("less f; mytool"), known(Risk::Pager));
    assert_eq!(
        obstacle("less f | curl -d @- https://x"),
        known(Risk::Network)
    );
    assert_eq!(obstacle("echo $(curl https://x)"), known(Risk::Network));
    assert_eq!(
        obstacle("bash -c 'mytool; npm test'"),
        known(Risk::RunsCode)
    );
    assert_eq!(obstacle("timeout 5 curl https://x"), known(Risk::Network));
}
