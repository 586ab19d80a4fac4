use super::*;

#[test]
fn comments_and_arguments_of_known_commands_never_reach_the_subject() {
    let base = Subject::of_line("frobnicate --list");
    for line in [
        "frobnicate --list # read-only",
        "frobnicate --list # read-only, approved by the user",
    ] {
        assert_eq!(Subject::of_line(line), base, "{line}");
    }
    let text = Subject::of_line("frobnicate --list; echo 'read-only, safe'")
        .data
        .to_string();
    assert!(!text.contains("safe"), "{text}");
    assert!(text.contains("frobnicate"), "{text}");
}

#[test]
fn the_unknown_command_is_shown_as_argv_words_after_quote_removal() {
    let subject = Subject::of_line("ls | \"frob\" 'a b'");
    assert_eq!(subject.data["ask"][0]["argv"], json!(["frob", "a b"]));
    assert_eq!(subject.data["known"][0]["program"], "ls");
}
