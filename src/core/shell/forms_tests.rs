//! Shell forms bash runs nothing extra for: a line of comments, `time` before a brace group
//! and `nohup` with its output sent to `/dev/null`, each beside the forms that still write or
//! run something.

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
        "time { ls; } 2>&1",
    ]);
    assert_not_read_only(&[
        "time { rm -rf build; }",
        "time { ls; } > out.txt",
        "time { ls; }; rm x",
        "time \"{\" ls; }",
        "\\time { ls; }",
        "time { ls; touch x; }",
        "time { ls; } | head",
    ]);
}

#[test]
fn nohup_writes_no_file_when_its_output_goes_to_dev_null() {
    assert_read_only(&[
        "nohup ls > /dev/null",
        "nohup cat README.md >/dev/null 2>&1 &",
        "{ nohup wc -l README.md; } > /dev/null",
    ]);
    assert_not_read_only(&[
        "nohup ls",
        "nohup ls 2>/dev/null",
        "nohup ls > out.log",
        "nohup rm x > /dev/null",
        "nohup ls > /dev/null 1>&3",
        "nohup ls | cat",
    ]);
}
