//! Here-documents: delimiters read as bash reads them, bodies that end where bash ends them.

use super::{Delimiter, delimiter};
use crate::core::shell::test_support::{assert_not_read_only, assert_read_only};

fn quoted(text: &str) -> Option<Delimiter> {
    Some(Delimiter {
        text: text.to_string(),
        quoted: true,
    })
}

#[test]
fn only_delimiters_whose_reading_cannot_differ_are_accepted() {
    assert_eq!(
        delimiter("EOF"),
        Some(Delimiter {
            text: "EOF".to_string(),
            quoted: false
        })
    );
    assert_eq!(delimiter("'EOF'"), quoted("EOF"));
    assert_eq!(delimiter("\"END_1\""), quoted("END_1"));
    assert_eq!(delimiter("\\EOF"), quoted("EOF"));
    assert_eq!(delimiter("E\"O\"F"), quoted("EOF"));
    assert_eq!(delimiter("'E'OF"), quoted("EOF"));
    assert_eq!(delimiter("E\\OF"), quoted("EOF"));
    for word in [
        "$'EOF'",
        "$\"EOF\"",
        "EOF\\",
        "$EOF",
        "E*F",
        "",
        "'EOF",
        "{EOF,X}",
        "\"E\\OF\"",
        "E`x`F",
        "\\'EOF\\'",
    ] {
        assert_eq!(delimiter(word), None, "{word:?}");
    }
}

#[test]
fn a_delimiter_with_quoting_inside_the_word_is_refused() {
    // bash ends each of these bodies at the unquoted spelling `EOF`; what follows runs.
    assert_not_read_only(&[
        "cat <<E\"O\"F\nhello\nEOF\ntouch pwn\nE\"O\"F",
        "cat <<E'O'F\nhello\nEOF\ntouch pwn\nE'O'F",
        "cat <<$'E\\x4fF'\nEOF\ntouch pwn\nE\\x4fF",
        "cat <<$\"EOF\"\nEOF\ntouch pwn\n$\"EOF\"",
        "cat <<-E\"O\"F\n\thello\n\tEOF\ntouch pwn\nE\"O\"F",
        "cat <<E\"O\"F | grep h\nhello\nEOF\ntouch pwn\nE\"O\"F",
        "cat <<E\"O\"F >/dev/null\nhello\nEOF\ntouch pwn\nE\"O\"F",
        "cat <<A <<E\"O\"F\na\nA\nEOF\ntouch pwn\nE\"O\"F",
    ]);
}

#[test]
fn a_body_line_bash_joins_into_the_delimiter_is_refused() {
    assert_not_read_only(&["cat <<EOF\nE\\\nOF\ntouch pwn\nEOF"]);
}

#[test]
fn plain_and_wholly_quoted_here_documents_stay_read_only() {
    assert_read_only(&[
        "cat <<EOF\nhello\nEOF",
        "cat <<'EOF'\n$(touch pwn)\nEOF",
        "cat <<\"EOF\"\n`touch pwn`\nEOF",
        "cat <<\\EOF\n$(touch pwn)\nEOF",
        "cat <<-EOF\n\thello\n\tEOF",
        "cat <<'EOF' | grep h\nhello\nEOF",
        "cat <<EOF\nhello\nEOF\nls",
    ]);
}

#[test]
fn a_body_line_the_parser_hangs_on_the_command_is_refused() {
    // tree-sitter reads `\<newline>EOF` as a word of `cat`; bash reads `\EOF` as body text.
    assert_not_read_only(&["cat <<EOF\n\\EOF\nhello\nEOF"]);
}
