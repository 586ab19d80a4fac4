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
fn missing_knowledge_alone_is_unknown() {
    for line in [
        "mytool --list",
        "git log --frobnicate",
        "sort --frobnicate f",
        "rg $PATTERN",
        "$CMD x",
        "ls &&",
    ] {
        assert_eq!(obstacle(line), Some(Obstacle::Unknown), "{line}");
    }
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
