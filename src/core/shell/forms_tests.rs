//! Shell forms bash runs nothing extra for: a line of comments, and `time` before a brace
//! group, each beside the forms that still write or run something.

use super::Safety;
use super::test_support::{assert_not_read_only, assert_read_only, safety};

#[test]
fn a_line_of_comments_runs_nothing() {
    assert_read_only(&[
        "# just a comment",
        "  # indented",
        "# one\n\n\t# two",
        "# a backslash at the end does not continue it \\",
    ]);
    assert_not_read_only(&[
        "# comment\nrm -rf build",
        "# comment \\\nrm -rf build",
        "\\# not a comment",
        "x # rm",
    ]);
    assert_eq!(safety(""), Safety::Unverified);
    assert_eq!(safety("  \n\t"), Safety::Unverified);
}

#[test]
fn time_before_a_brace_group_times_the_commands_judged_inside() {
    assert_read_only(&[
        "time { ls; cat README.md; }",
        "time -p { ls; }",
        "time {\n  wc -l README.md\n}",
        "time { ls; } 2>&1 | head",
    ]);
    assert_not_read_only(&[
        "time { rm -rf build; }",
        "time { ls; } > out.txt",
        "time { ls; }; rm x",
        "time \"{\" ls; }",
        "\\time { ls; }",
        "time { ls; touch x; }",
    ]);
}
