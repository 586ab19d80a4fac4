//! The awk program scan, against readings checked with gawk 5.2 and mawk 1.3.4.

use super::check;

fn read_only(program: &str) -> bool {
    check(program).is_ok()
}

#[test]
fn comparisons_are_not_redirections() {
    assert!(read_only("NR > 1 {print}"));
    assert!(read_only("{ if ($1 > 2) print $1 }"));
}

#[test]
fn printing_to_a_file_or_a_pipe_is_found() {
    for program in [
        "{print > \"out.txt\"}",
        "{print >> \"out.txt\"}",
        "{print > $1\".txt\"}",
        "{print | \"sort\"}",
        "{printf(\"%s\", $1) > \"f\"}",
        "{print($1) > \"f\"}",
        "{print |& \"cat\"}",
        "{\"date\" | getline d}",
    ] {
        assert!(!read_only(program), "{program:?}");
    }
}

#[test]
fn printing_to_the_standard_streams_is_harmless_only_when_the_target_stands_alone() {
    assert!(read_only("{print > \"/dev/stderr\"}"));
    assert!(read_only("{printf \"%s\", 1 > \"/dev/stdout\"; print}"));
    assert!(!read_only("BEGIN{print \"a\" > \"-\" \"pwn\"}"));
    assert!(!read_only("BEGIN{print \"a\" > \"/dev/null\" x}"));
}

#[test]
fn a_pipe_sign_inside_a_regex_or_string_is_literal() {
    assert!(read_only("/a|b/ {print}"));
    assert!(read_only("{gsub(/foo/, \"bar\"); print}"));
    assert!(read_only("{ n = split($0, p, /[\\/|]/); print n }"));
    assert!(read_only("/[[:alpha:]/]/ { print $1/2, \"x\" }"));
}

#[test]
fn system_calls_are_found() {
    assert!(!read_only("BEGIN {system(\"rm -rf /\")}"));
}

#[test]
fn a_slash_after_a_keyword_starts_a_regex_that_can_hold_a_quote() {
    assert!(!read_only(
        "function f(){return/\"/}BEGIN{system(\"id\")}/\"/"
    ));
    assert!(!read_only("BEGIN{if(0)/\"/;system(\"id\")#\"/\n}"));
}

#[test]
fn a_slash_after_an_operand_divides_even_after_a_blank() {
    assert!(!read_only("BEGIN{cmd=\"sh\"}{print \"id\" /2|cmd}{x=3/4}"));
    assert!(!read_only("{print x++ /2|\"sh\"; y=1/2}"));
    assert!(read_only("{ print $1 / 2 }"));
}

#[test]
fn a_bracket_expression_hides_a_slash() {
    assert!(!read_only("BEGIN{x=/[/]\"/; system(\"id\") #\"/\n}"));
}

#[test]
fn getline_from_a_file_reads_but_not_from_the_network() {
    assert!(read_only(
        "BEGIN{while ((getline l < \"notes.txt\") > 0) print l}"
    ));
    assert!(!read_only(
        "BEGIN{getline l < \"/inet/tcp/0/example.com/80\"}"
    ));
    assert!(!read_only("BEGIN{getline l < f}"));
}

#[test]
fn extensions_are_refused() {
    assert!(!read_only("@load \"filefuncs\"; BEGIN{}"));
    assert!(!read_only("@include \"x.awk\""));
}

#[test]
fn a_print_goes_on_over_a_line_ending_in_a_comma_or_a_backslash() {
    assert!(!read_only("BEGIN{print \"a\",\n\"b\" > \"pwn\"}"));
    assert!(!read_only("BEGIN{print \"a\" \\\n> \"pwn\"}"));
    assert!(!read_only(
        "BEGIN { printf \"%s\", # why\n \"x\" >> \"pwn\" }"
    ));
    assert!(read_only("NR > 1 {\nprint\n}\n$1 > 2"));
}
