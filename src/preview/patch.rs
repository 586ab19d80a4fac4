//! Codex's `apply_patch` text as diff lines for the dialog. The patch is already diff-like:
//! `*** Begin Patch`, then per file `*** Add File: p` (every line `+`), `*** Update File: p`
//! (optionally `*** Move to: q`, then `@@` hunks of ` `, `-`, `+` lines) or
//! `*** Delete File: p`, and `*** End Patch`. Each file gets one header line; a line the
//! grammar does not know is shown as it is rather than dropped, so nothing the patch does is
//! hidden from the human.

use super::DiffTag;
use crate::core::escape::visible;

/// The lines of `patch`, each made visible-safe.
pub fn patch_lines(patch: &str) -> Vec<(DiffTag, String)> {
    let mut lines: Vec<(DiffTag, String)> = Vec::new();
    for raw in patch.lines() {
        let line = raw.trim_end_matches('\r');
        let file = [
            ("*** Add File: ", "add "),
            ("*** Update File: ", "update "),
            ("*** Delete File: ", "delete "),
        ]
        .iter()
        .find_map(|(marker, verb)| line.strip_prefix(marker).map(|p| (verb, p)));
        if let Some((verb, path)) = file {
            lines.push((DiffTag::File, format!("{verb}{}", shown(path.trim()))));
        } else if let Some(to) = line.strip_prefix("*** Move to: ") {
            // Belongs to the file header just above it: `update a → b`.
            let to = shown(to.trim());
            match lines.last_mut() {
                Some((DiffTag::File, header)) => *header = format!("{header} → {to}"),
                _ => lines.push((DiffTag::File, format!("move to {to}"))),
            }
        } else if matches!(
            line,
            "*** Begin Patch" | "*** End Patch" | "*** End of File"
        ) {
            continue;
        } else if line.starts_with("@@") {
            lines.push((DiffTag::Hunk, shown(line)));
        } else if let Some(text) = line.strip_prefix('+') {
            lines.push((DiffTag::Added, shown(text)));
        } else if let Some(text) = line.strip_prefix('-') {
            lines.push((DiffTag::Removed, shown(text)));
        } else {
            let text = line.strip_prefix(' ').unwrap_or(line);
            lines.push((DiffTag::Context, shown(text)));
        }
    }
    lines
}

/// A line of agent text as the screen may show it: tabs as spaces, controls made visible.
pub fn shown(text: &str) -> String {
    visible(&text.replace('\t', "    ")).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_update_becomes_a_file_header_a_hunk_and_its_changes() {
        let patch = "*** Begin Patch\n*** Update File: src/a.rs\n@@ fn main\n keep\n-old\n+new\n*** End of File\n*** End Patch\n";
        assert_eq!(
            patch_lines(patch),
            [
                (DiffTag::File, "update src/a.rs".into()),
                (DiffTag::Hunk, "@@ fn main".into()),
                (DiffTag::Context, "keep".into()),
                (DiffTag::Removed, "old".into()),
                (DiffTag::Added, "new".into()),
            ]
        );
    }

    #[test]
    fn every_file_of_a_patch_gets_one_header_with_its_move_and_deletion() {
        let patch = "*** Begin Patch\n*** Add File: new.txt\n+hi\n*** Update File: a.txt\n*** Move to: b.txt\n@@\n-x\n+y\n*** Delete File: gone.txt\n*** End Patch";
        let headers: Vec<String> = patch_lines(patch)
            .into_iter()
            .filter(|(tag, _)| *tag == DiffTag::File)
            .map(|(_, text)| text)
            .collect();
        assert_eq!(
            headers,
            ["add new.txt", "update a.txt → b.txt", "delete gone.txt"]
        );
    }

    #[test]
    fn agent_text_in_a_patch_is_made_visible_and_unknown_lines_are_kept() {
        let patch = "*** Update File: x\x1b[2J\n@@\n+\x1b]0;t\x07\tz\nstray line\n";
        assert_eq!(
            patch_lines(patch),
            [
                (DiffTag::File, "update x\\e[2J".into()),
                (DiffTag::Hunk, "@@".into()),
                (DiffTag::Added, "\\e]0;t\\x07    z".into()),
                (DiffTag::Context, "stray line".into()),
            ]
        );
    }
}
