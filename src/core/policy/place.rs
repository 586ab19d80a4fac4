//! Where a call stands: the project files that govern a call made in a folder, found by
//! walking up from it, and its project root; and the calls that cannot be placed at all (no
//! usable folder), which are asked in every mode.

use std::path::{Path, PathBuf};

/// The name of a project's policy file.
pub const PROJECT_FILE: &str = ".gatehouse.toml";

/// The nearest `.gatehouse.toml` from `cwd` upward, looking no higher than the git root (the
/// first folder with a `.git`) or `home`.
pub fn find_project(cwd: &Path, home: Option<&Path>) -> Option<PathBuf> {
    project_and_root(cwd, home).0
}

/// [`find_project`] and the project's root in one walk up from `cwd`: the project file's
/// folder, else the git root, else none.
pub fn project_and_root(cwd: &Path, home: Option<&Path>) -> (Option<PathBuf>, Option<PathBuf>) {
    for dir in cwd.ancestors() {
        let file = dir.join(PROJECT_FILE);
        if file.is_file() {
            return (Some(file), Some(dir.to_path_buf()));
        }
        if dir.join(".git").exists() {
            return (None, Some(dir.to_path_buf()));
        }
        if Some(dir) == home {
            break;
        }
    }
    (None, None)
}

/// Where a call made in a folder stands: every project file that governs it, nearest first,
/// and its project root.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Standing {
    /// Each `.gatehouse.toml` from the folder up to `home` (or `/`): a nested repository does
    /// not hide the policy of the project around it.
    pub files: Vec<PathBuf>,
    /// The nearest folder with a project file or a `.git`.
    pub root: Option<PathBuf>,
}

/// The project files and root of a call made in `cwd`, in one walk up to `home` (or `/`), run
/// for every call. The walk does not stop at a git root: an inner `.git` (a vendored or nested
/// repository, or one an agent made) must not hide the outer project's denies. Above the
/// nearest git root only files of this user or root count, so that another user's file in a
/// shared folder such as `/tmp` cannot govern the repositories below it; every project file
/// only tightens unless trusted, so more files never allow more.
pub fn standing(cwd: &Path, home: Option<&Path>) -> Standing {
    let mut out = Standing::default();
    let mut above_git = false;
    for dir in cwd.ancestors() {
        let file = dir.join(PROJECT_FILE);
        if file.is_file() && (!above_git || owned_by_us_or_root(&file)) {
            out.root.get_or_insert_with(|| dir.to_path_buf());
            out.files.push(file);
        }
        if !above_git && dir.join(".git").exists() {
            out.root.get_or_insert_with(|| dir.to_path_buf());
            above_git = true;
        }
        if Some(dir) == home {
            break;
        }
    }
    out
}

fn owned_by_us_or_root(path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(path).is_ok_and(|m| m.uid() == 0 || m.uid() == crate::core::uid())
}

/// Why a call made in `cwd` cannot be placed in a project, if it cannot: an empty or relative
/// folder could be anywhere, so the project files that govern it are unknown. An absolute
/// folder that does not exist is placed as it is written: every project file that could
/// govern it is in a folder above it, which the walk up still reaches.
pub fn unplaced(cwd: &str) -> Option<String> {
    let why = if cwd.is_empty() {
        "the call names no folder"
    } else if !Path::new(cwd).is_absolute() {
        "the call's folder is not an absolute path"
    } else {
        return None;
    };
    Some(format!(
        "{why} (\"{}\"), so the project rules that govern it cannot be found: it is asked \
         in every mode",
        crate::core::escape::visible_cut(cwd, 120)
    ))
}

/// The first folder from `cwd` upward with a `.git`, looking no higher than `home`.
pub fn git_root(cwd: &Path, home: Option<&Path>) -> Option<PathBuf> {
    for dir in cwd.ancestors() {
        if dir.join(".git").exists() {
            return Some(dir.to_path_buf());
        }
        if Some(dir) == home {
            return None;
        }
    }
    None
}
