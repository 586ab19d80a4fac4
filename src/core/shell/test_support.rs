//! Helpers shared by the analyser's tests: judge whole lines through the public `analyse` and
//! say which line failed, with its explanation, when a judgement is not the expected one.

use super::{Safety, analyse};

/// The safety `analyse` gives `line`.
pub(crate) fn safety(line: &str) -> Safety {
    analyse(line).safety
}

/// Every line in `lines` is judged read-only.
pub(crate) fn assert_read_only(lines: &[&str]) {
    for line in lines {
        let analysis = analyse(line);
        assert_eq!(
            analysis.safety,
            Safety::ReadOnly,
            "{line:?}: {}",
            analysis.explanation()
        );
    }
}

/// No line in `lines` is judged read-only.
pub(crate) fn assert_not_read_only(lines: &[&str]) {
    for line in lines {
        let analysis = analyse(line);
        assert_ne!(
            analysis.safety,
            Safety::ReadOnly,
            "{line:?}: {}",
            analysis.explanation()
        );
    }
}
