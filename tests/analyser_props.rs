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
        let joined = format!("{line}\nrm -rf x");
        prop_assert_ne!(analyse(&joined).safety, Safety::ReadOnly, "{:?}", joined);
    }
}
