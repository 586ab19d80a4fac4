//! How words become the paths they may name, and when a pattern is reached.

use std::path::Path;

use super::*;

fn segs(word: &str, home: Option<&str>, cwd: Option<&str>) -> Vec<Vec<String>> {
    let place = Place {
        home: home.map(Path::new),
        cwd: cwd.map(Path::new),
    };
    candidates(word, place)
}

fn reaches(pattern: &str, word: &str, reach: Reach) -> bool {
    let place = Place {
        home: Some(Path::new("/home/me")),
        cwd: Some(Path::new("/home/me/project")),
    };
    let pattern = PathPattern::new(pattern);
    candidates(word, place)
        .iter()
        .any(|c| pattern.reached_by(c, reach))
}

#[test]
fn every_way_of_writing_a_home_becomes_one_segment() {
    for word in [
        "~/.ssh/id_rsa",
        "$HOME/.ssh/id_rsa",
        "${HOME}/.ssh/id_rsa",
        "\"$HOME\"/.ssh/id_rsa",
        "/home/me/.ssh/id_rsa",
        "/home/bob/.ssh/id_rsa",
        "~bob/.ssh/id_rsa",
        "/root/.ssh/id_rsa",
        "/Users/me/.ssh/id_rsa",
        "../.ssh/id_rsa",
        "/home/me/project/../.ssh/./id_rsa",
        "//home//me/.ssh/id_rsa",
    ] {
        assert_eq!(
            segs(word, Some("/home/me"), Some("/home/me/project")),
            vec![vec!["~", ".ssh", "id_rsa"]],
            "{word}"
        );
    }
}

#[test]
fn a_relative_word_stays_relative_when_no_folder_is_known() {
    assert_eq!(segs("a/./b/../c", None, None), vec![vec!["a", "c"]]);
    assert_eq!(segs("../x", None, None), vec![vec!["..", "x"]]);
}

#[test]
fn braces_are_expanded_and_expansions_stand_for_any_name() {
    assert_eq!(
        segs("~/.{ssh,aws}/x", None, None),
        vec![vec!["~", ".ssh", "x"], vec!["~", ".aws", "x"]]
    );
    assert!(reaches(
        "~/.aws/credentials",
        "~/$DIR/credentials",
        Reach::Named
    ));
    assert!(reaches(
        "~/.aws/credentials",
        "~/.{aws,gcp}/credentials",
        Reach::Named
    ));
}

#[test]
fn an_anchored_pattern_is_reached_through_the_folders_above_it_a_tail_is_not() {
    assert!(reaches("~/.aws/credentials", "~", Reach::Under));
    assert!(reaches("~/.aws/credentials", "/", Reach::Under));
    assert!(reaches("~/.aws/credentials", "/home", Reach::Under));
    assert!(reaches("~/.aws/credentials", "~/.aws", Reach::Under));
    assert!(!reaches("~/.aws/credentials", "~", Reach::Named));
    assert!(!reaches("~/.aws/credentials", "~/project", Reach::Under));
    assert!(!reaches(".env", "/home/me/project", Reach::Under));
    assert!(reaches(".env", "/srv/app/.env", Reach::Named));
    assert!(reaches(".env", ".env", Reach::Named));
}

#[test]
fn globs_meet_a_pattern_when_they_could_match_a_name_it_matches() {
    assert!(reaches("~/.aws/credentials", "~/.aws/*", Reach::Named));
    assert!(reaches("~/.aws/credentials", "~/.a*/cred*", Reach::Named));
    assert!(reaches(".ssh/**", "~/.ssh/*", Reach::Named));
    assert!(reaches("*.pem", "*.pem", Reach::Named));
    assert!(reaches("*.pem", "certs/server.pem", Reach::Named));
    // A leading wildcard skips dot names, as bash's globs do.
    assert!(!reaches(
        "~/.aws/credentials",
        "~/*/credentials",
        Reach::Named
    ));
    assert!(!reaches(".env", "*", Reach::Named));
    assert!(!reaches("*.pem", "*.txt", Reach::Named));
}
