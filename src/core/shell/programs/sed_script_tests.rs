//! The sed script reader against readings checked with GNU sed 4.9 (`sed --debug`).

use super::Reading::{ReadOnly, Runs, Writes};
use super::{Reading, read};

fn one(script: &str) -> Reading {
    read(&[script])
}

fn is_unverified(reading: Reading) -> bool {
    matches!(reading, Reading::Unverified(_))
}

#[test]
fn print_and_substitute_scripts_are_read_only() {
    for script in [
        "1,5p",
        "s/foo/bar/g",
        "$d",
        "/start/,/end/d",
        "1!G;h;$!d",
        "y/abc/xyz/",
        "x;p",
        "/;/p",
        "s/[^/]*$//",
        "0~3p;2,+1p;/x/,~4 ! d",
        "\\,a/b,Ip",
        ":a;N;$!ba;s/\\n/ /g",
        "{p;p};=",
        "1{\n  s/a/b/2pgI\n}",
        "#n\n1p # a comment",
        "l 5;q3",
        "v 4.2",
    ] {
        assert_eq!(one(script), ReadOnly, "{script:?}");
    }
}

#[test]
fn write_commands_and_flags_are_found() {
    for script in [
        "1w out.txt",
        "s/a/b/w out",
        "W x",
        "s/a/b/gw /dev/stdout2",
        // Opened with O_TRUNC under --posix or POSIXLY_CORRECT.
        "w /dev/stdout",
        "s/x/y/w /dev/stderr",
    ] {
        assert_eq!(one(script), Writes, "{script:?}");
    }
}

#[test]
fn execute_commands_and_flags_are_found() {
    for script in ["1e touch pwned", "s/a/b/e", "e", "$!{e\n}"] {
        assert_eq!(one(script), Runs, "{script:?}");
    }
}

#[test]
fn a_label_ends_at_a_semicolon_a_blank_a_brace_or_a_hash() {
    for script in [
        ":a;s/x/id/e",
        ":a e id",
        "{:a}\ne",
        ":a#c\ne",
        "ba;e",
        "b a e",
        "t;e",
        ":x;Tx;e",
    ] {
        assert_eq!(one(script), Runs, "{script:?}");
    }
}

#[test]
fn a_delimiter_inside_a_bracket_expression_does_not_end_the_regex() {
    for script in [
        "s/[/]/x/e",
        "s/[]/]/x/e",
        "s/[^]/]/x/e",
        "s/[[:alpha:]/]/x/e",
        "s/[\\]/x/e",
        "/[/]/e id",
        "\\,[,],e id",
        "s:[[:alpha:]]:x:e",
        "s][]]x]y]e",
    ] {
        assert_eq!(one(script), Runs, "{script:?}");
    }
    assert_eq!(one("s/[/]/x/w pwn"), Writes);
    // A delimiter inside `[.x.]` or `[=x=]` is beyond what the reader is sure of.
    for script in ["s/[[./.]]/x/e", "s/[[=/=]]/x/"] {
        assert!(is_unverified(one(script)), "{script:?}");
    }
}

#[test]
fn an_escaped_delimiter_does_not_end_a_part() {
    assert_eq!(one(r"s/a\/w/b/"), ReadOnly);
    assert_eq!(one(r"s/a/b\/e/"), ReadOnly);
    assert_eq!(one(r"s|a|b\|e|e"), Runs);
    assert_eq!(one("s/a\\\nb/c\\\nd/e"), Runs);
}

#[test]
fn a_bracket_delimiter_opens_no_bracket_expression() {
    assert_eq!(one("s[a[b[e"), Runs);
    assert_eq!(one("s[a[b["), ReadOnly);
}

#[test]
fn append_insert_and_change_text_swallows_commands_to_the_end_of_the_line() {
    for script in [
        "a;e id",
        "1i\\\nfoo;w x",
        "$c\\text }e",
        "a foo\\\ne id",
        "a\\\nfoo\\\nw x",
        "afoo",
    ] {
        assert_eq!(one(script), ReadOnly, "{script:?}");
    }
    assert_eq!(one("a foo\\\\\ne id"), Runs);
    assert_eq!(one("a foo\ne id"), Runs);
}

#[test]
fn text_ending_in_a_backslash_goes_on_into_the_next_expression() {
    assert_eq!(read(&["a\\", "foo;e id"]), ReadOnly);
    assert_eq!(read(&["a foo\\", "e id"]), ReadOnly);
    assert_eq!(read(&["a\\", "foo", "e id"]), Runs);
    assert_eq!(read(&["a\\\n", "e id"]), Runs);
}

#[test]
fn a_block_may_span_expressions_but_a_command_may_not() {
    assert_eq!(read(&["1{", "p", "}"]), ReadOnly);
    assert!(is_unverified(read(&["s/x/\\", "e/"])));
    assert!(is_unverified(read(&["1{", "p"])));
}

#[test]
fn read_and_write_file_names_take_the_rest_of_the_line() {
    assert_eq!(one("1r /etc/hostname"), ReadOnly);
    assert_eq!(one("r x;e id"), ReadOnly);
    assert_eq!(one("R x}\np"), ReadOnly);
    assert_eq!(one("s/a/b/w x;p"), Writes);
    assert_eq!(one("r x\ne"), Runs);
}

#[test]
fn scripts_the_reader_is_not_certain_of_are_unverified() {
    for script in [
        "}",
        "{p",
        "1}",
        "s/a/b",
        "s/[/]/",
        "s/[[:al/pha:]]/x/",
        "s/x/y/q",
        ":",
        ":a\u{e9};p",
        ":a\r;p",
        "s/\u{e9}/x/",
        "a",
        "1 #x",
        "w",
        "L",
        "v 4.2x;w f",
        "v w f",
        "1,p",
        "s\nx\ny\n",
    ] {
        assert!(is_unverified(one(script)), "{script:?}");
    }
}

#[test]
fn a_script_sed_certainly_rejects_before_any_write_is_rejected() {
    for script in [
        "k", "pp", "p p", "xp", "'1,200p'", "{p}x", "l 5x", "y/a/b/ x", "1~2k;w f",
    ] {
        assert!(matches!(one(script), Reading::Rejected(_)), "{script:?}");
    }
    assert_eq!(read(&["w f", "k"]), Writes);
}

#[test]
fn a_version_is_read_like_a_label() {
    assert_eq!(one("v 4.2 w pwn"), Writes);
    assert_eq!(one("v;e"), Runs);
    assert_eq!(one("{v}"), ReadOnly);
}

#[test]
fn a_label_holds_any_printable_character_but_a_semicolon_a_brace_or_a_hash() {
    assert_eq!(one(":a=b;ba=b"), ReadOnly);
    assert_eq!(one(":a]x e"), Runs);
    assert_eq!(one(":a\\b e"), Runs);
    assert_eq!(one(":a{ e"), Runs);
}
