//! Properties of the analyser on arbitrary input: it never panics, and a line that does not
//! parse is never read-only.

use gatehouse::core::shell::{Safety, analyse};
use proptest::prelude::*;

/// Text made of shell-ish pieces, so the parser sees plausible lines and not only noise.
fn shellish() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("ls".to_string()),
        Just("cat".to_string()),
        Just("git".to_string()),
        Just("rm".to_string()),
        Just(" ".to_string()),
        Just("|".to_string()),
        Just("&&".to_string()),
        Just(";".to_string()),
        Just("\n".to_string()),
        Just("$(".to_string()),
        Just(")".to_string()),
        Just("'".to_string()),
        Just("\"".to_string()),
        Just("`".to_string()),
        Just("<<EOF".to_string()),
        Just(">".to_string()),
        Just("2>&1".to_string()),
        Just("{".to_string()),
        Just("}".to_string()),
        Just("\\".to_string()),
        "[a-z0-9./*-]{1,8}",
    ];
    prop::collection::vec(piece, 0..24).prop_map(|pieces| pieces.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_strings_never_panic(line in any::<String>()) {
        let analysis = analyse(&line);
        let explanation = analysis.explanation();
        prop_assert!(!explanation.chars().any(char::is_control), "{:?}", explanation);
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        let line = String::from_utf8_lossy(&bytes);
        analyse(&line);
    }

    #[test]
    fn shellish_lines_never_panic(line in shellish()) {
        analyse(&line);
    }

    #[test]
    fn an_unbalanced_substitution_is_never_read_only(line in shellish()) {
        let broken = format!("{line} $(");
        prop_assert_ne!(analyse(&broken).safety, Safety::ReadOnly, "{:?}", broken);
    }

    #[test]
    fn an_unbalanced_double_quote_is_never_read_only(line in shellish()) {
        // Without other quotes, escapes or heredocs, one more double quote is unbalanced.
        let clean = line.replace(['"', '\'', '\\'], "").replace("<<", "");
        let broken = format!("{clean} echo \"");
        prop_assert_ne!(analyse(&broken).safety, Safety::ReadOnly, "{:?}", broken);
    }

    #[test]
    fn a_write_appended_to_any_line_is_never_read_only(line in shellish()) {
        // A line that ends in an escaping backslash joins the next one to its last word
        // (`ls \<newline>rm -rf x` lists files): that write is not on a line of its own.
        let trailing = line.len() - line.trim_end_matches('\\').len();
        prop_assume!(trailing % 2 == 0);
        let joined = format!("{line}\nrm -rf x");
        prop_assert_ne!(analyse(&joined).safety, Safety::ReadOnly, "{:?}", joined);
    }
}

/// A read-only command, to put redirections and expansions around.
fn reader() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "echo hi", "cat f", "ls", "printf x", "sort f", "uniq f", "wc -l f",
    ])
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn a_device_reopened_after_its_descriptor_was_rebound_to_a_file_is_never_read_only(
        command in reader(),
        fd in 1u32..=2,
        rebind in prop::sample::select(vec!["<victim", "<>victim"]),
        group in any::<bool>(),
    ) {
        let device = if fd == 1 { "/dev/stdout" } else { "/dev/stderr" };
        let line = if group {
            format!("{{ {command} >{device}; }} {fd}{rebind}")
        } else {
            format!("exec {fd}{rebind}; {command} >{device}")
        };
        prop_assert_ne!(analyse(&line).safety, Safety::ReadOnly, "{:?}", line);
    }

    #[test]
    fn arithmetic_on_a_name_the_line_never_set_is_never_read_only(
        name in "[a-z][a-z0-9_]{0,6}",
        context in prop::sample::select(vec![
            "(( N + 1 ))", "echo $(( N ))", "let 'y = N'", "[[ $N -eq 1 ]]", "test \"$N\" -lt 2",
            "declare -i y=N", "echo ${HOME:N}", "a=(1); echo ${a[N]}", "shift $N",
            "printf '%d' \"$N\"", "for ((i=N; i<2; i++)); do :; done",
        ]),
    ) {
        let line = context.replace('N', &name);
        prop_assert_ne!(analyse(&line).safety, Safety::ReadOnly, "{:?}", line);
    }
}
