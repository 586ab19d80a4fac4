//! The files a read or edit call names, as the classifier judges them: every path it may
//! touch (an edit naming several is judged once for each), and why a call naming its file under
//! more than one key is asked.

use std::path::{Path, PathBuf};

use super::call::{Call, ToolKind};

/// The absolute paths rules' globs are matched against: those a write or edit tool may change
/// (edit globs), and the file a read tool reads (read globs).
pub(super) fn ruled_paths(call: &Call, kind: &ToolKind) -> Vec<PathBuf> {
    if !matches!(kind, ToolKind::Edit | ToolKind::Read) {
        return Vec::new();
    }
    named_files(call)
        .into_iter()
        .map(|path| Path::new(&call.cwd).join(path))
        .collect()
}

/// The files an edit call may change, as it names them: its file, or every path-like value
/// when it names more than one, and each of the `files` a patch lists (Codex's dialect lists
/// every file an `apply_patch` touches there, the first also as its file).
pub(super) fn named_files(call: &Call) -> Vec<&str> {
    let mut named: Vec<&str> = match call.paths() {
        several if several.len() > 1 => several.iter().filter_map(|(_, v)| *v).collect(),
        _ => call.file_path().into_iter().collect(),
    };
    let listed = call
        .input
        .get("files")
        .and_then(serde_json::Value::as_array);
    for file in listed
        .into_iter()
        .flatten()
        .filter_map(serde_json::Value::as_str)
    {
        if !named.contains(&file) {
            named.push(file);
        }
    }
    named
}

/// Why a read or edit call that names its file under more than one key is asked: the file
/// shown and judged may not be the one the tool touches.
pub(super) fn several_paths(call: &Call, kind: &ToolKind) -> Option<String> {
    if !matches!(kind, ToolKind::Read | ToolKind::Edit) {
        return None;
    }
    let keys: Vec<&str> = call.paths().iter().map(|(key, _)| *key).collect();
    (keys.len() > 1).then(|| {
        format!(
            "names a file under more than one key ({}), so the file it touches may not be \
             the one shown",
            keys.join(", ")
        )
    })
}
