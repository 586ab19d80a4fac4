//! The tripwire: a throw-away `/tmp` for one line, holding a git working copy and a fake
//! `HOME`, and the snapshot that shows whether anything in it changed.
//!
//! The template is built once per run (outside the sandbox, by this test, never by a line) and
//! copied with `cp -a` for every line, so each line starts from the same files, modes and
//! times. The working copy holds files named like options (`-o`, `-i`, `--index-file=x`,
//! `-delete`) so that a glob a program parses as options does what it would do in a real
//! repository. Its config sets `core.checkStat=minimal` and `core.trustctime=false` so that
//! copying it does not make `git status` refresh (rewrite) the index.

use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::fs;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Where the tripwire appears inside the sandbox.
pub const SANDBOX_TMP: &str = "/tmp";
/// The working copy, the line's working directory.
pub const REPO: &str = "/tmp/tripwire/repo";
/// The fake home directory.
pub const HOME: &str = "/tmp/tripwire/home";

/// Files of the working copy: relative path and content.
const REPO_FILES: &[(&str, &str)] = &[
    (
        "README.md",
        "# tripwire\nA repository that must not change.\n",
    ),
    ("notes.txt", "alpha\nbeta\ngamma\nbeta\n"),
    ("data.csv", "id,name\n2,b\n1,a\n"),
    ("sample.json", "{\"a\": 1, \"b\": [1, 2]}\n"),
    ("src/main.rs", "fn main() {\n    println!(\"hi\");\n}\n"),
    ("src/lib.rs", "pub fn f() -> u8 {\n    1\n}\n"),
    ("x", "the file named x\n"),
    ("-o", "a file named like an option\n"),
    ("-i", "a file named like an option\n"),
    ("-delete", "a file named like an option\n"),
    ("-exec", "a file named like an option\n"),
    ("--index-file=x", "a file named like an option\n"),
    ("--output=x", "a file named like an option\n"),
    ("-f", "a file named like an option\n"),
    ("-w", "a file named like an option\n"),
    (
        "script.sh",
        "#!/bin/sh\necho ran > /tmp/tripwire/repo/ran-script\n",
    ),
    ("Makefile", "all:\n\techo ran > ran-make\n"),
];

/// Files of the fake home.
const HOME_FILES: &[(&str, &str)] = &[
    (".bashrc", "export PS1='$ '\n"),
    (".profile", "# profile\n"),
    (
        ".gitconfig",
        "[user]\n\tname = Tripwire\n\temail = t@example.invalid\n",
    ),
    (".ssh/config", "Host *\n  User nobody\n"),
    (".ssh/known_hosts", "example.invalid ssh-ed25519 AAAA\n"),
    (".config/app/settings.toml", "key = 1\n"),
    (".netrc", "machine example.invalid login x password y\n"),
];

/// A fixed time in the past given to every template file, so nothing is racily clean.
const FIXED_TIME: &str = "@1577836800";

fn run(dir: &Path, program: &str, args: &[&str]) -> Result<(), String> {
    let status = Command::new(program)
        .args(args)
        .current_dir(dir)
        .env("HOME", dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_AUTHOR_DATE", "2020-01-01T00:00:00Z")
        .env("GIT_COMMITTER_DATE", "2020-01-01T00:00:00Z")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .map_err(|e| format!("{program}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{program} {args:?} failed in {}", dir.display()))
    }
}

fn write_files(root: &Path, files: &[(&str, &str)]) -> Result<(), String> {
    for (path, text) in files {
        let full = root.join(path);
        if let Some(parent) = full.parent() {
            fs::create_dir_all(parent).map_err(|e| e.to_string())?;
        }
        fs::write(&full, text).map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// Builds the template `tmp` directory under `base`: `tripwire/repo` with three commits, a
/// tag, a branch, a stash and a remote, and `tripwire/home`.
pub fn build_template(base: &Path) -> Result<PathBuf, String> {
    let tmp = base.join("template/tmp");
    let repo = tmp.join("tripwire/repo");
    let home = tmp.join("tripwire/home");
    fs::create_dir_all(&repo).map_err(|e| e.to_string())?;
    fs::create_dir_all(&home).map_err(|e| e.to_string())?;
    write_files(&home, HOME_FILES)?;
    write_files(&repo, REPO_FILES)?;
    fs::set_permissions(repo.join("script.sh"), fs::Permissions::from_mode(0o755))
        .map_err(|e| e.to_string())?;
    let git = |args: &[&str]| run(&repo, "git", args);
    git(&["init", "-q", "--template=", "-b", "main"])?;
    git(&["config", "user.name", "Tripwire"])?;
    git(&["config", "user.email", "t@example.invalid"])?;
    git(&["config", "core.checkStat", "minimal"])?;
    git(&["config", "core.trustctime", "false"])?;
    git(&[
        "config",
        "remote.origin.url",
        "git@example.invalid:tripwire.git",
    ])?;
    git(&[
        "config",
        "remote.origin.fetch",
        "+refs/heads/*:refs/remotes/origin/*",
    ])?;
    git(&["add", "-A"])?;
    git(&["commit", "-q", "-m", "first"])?;
    fs::write(repo.join("notes.txt"), "alpha\nbeta\ngamma\nbeta\ndelta\n")
        .map_err(|e| e.to_string())?;
    git(&["commit", "-q", "-am", "second"])?;
    git(&["tag", "-a", "v1", "-m", "version one"])?;
    git(&["branch", "feature"])?;
    fs::write(
        repo.join("notes.txt"),
        "alpha\nbeta\ngamma\nbeta\ndelta\nepsilon\n",
    )
    .map_err(|e| e.to_string())?;
    git(&["commit", "-q", "-am", "third"])?;
    fs::write(repo.join("notes.txt"), "stashed\n").map_err(|e| e.to_string())?;
    git(&["stash", "-q"])?;
    // Archives to list, and a dirty file, so status and diff have something to say.
    run(&repo, "tar", &["-cf", "a.tar", "notes.txt", "data.csv"])?;
    run(&repo, "tar", &["-czf", "a.tar.gz", "notes.txt"])?;
    run(&repo, "sh", &["-c", "gzip -c notes.txt > x.gz"])?;
    fs::write(
        repo.join("README.md"),
        "# tripwire\nchanged, not committed\n",
    )
    .map_err(|e| e.to_string())?;
    // Old times everywhere, then one refresh, so the index is newer than every file.
    run(
        &tmp,
        "find",
        &[".", "-exec", "touch", "-h", "-d", FIXED_TIME, "{}", "+"],
    )?;
    git(&["update-index", "-q", "--refresh"])?;
    git(&["status", "--porcelain"])?;
    Ok(tmp)
}

/// Copies the template to `dest` (which must not exist), keeping modes and times.
pub fn copy_template(template: &Path, dest: &Path) -> Result<(), String> {
    let status = Command::new("cp")
        .arg("-a")
        .arg(template)
        .arg(dest)
        .status()
        .map_err(|e| e.to_string())?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("cp -a {} failed", template.display()))
    }
}

/// What is recorded of one entry. Directory times are left out: a lock file a reader creates
/// and removes again (git's `index.lock`) changes them without changing any file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    kind: &'static str,
    mode: u32,
    uid: u32,
    gid: u32,
    size: u64,
    times: Option<(i64, i64, i64, i64)>,
    inode: u64,
    content: String,
}

/// Every path under a root and what it holds.
pub type Snapshot = BTreeMap<String, Entry>;

/// Records every entry under `root`: type, mode, owner, size, inode, mtime and ctime of
/// files and links, and a SHA-256 of file contents or the link target.
pub fn snapshot(root: &Path) -> Snapshot {
    let mut out = Snapshot::new();
    walk(root, root, &mut out);
    out
}

fn walk(root: &Path, dir: &Path, out: &mut Snapshot) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let Ok(meta) = fs::symlink_metadata(&path) else {
            continue;
        };
        let rel = path
            .strip_prefix(root)
            .map(|p| p.to_string_lossy().into_owned())
            .unwrap_or_default();
        let file_type = meta.file_type();
        let (kind, content, times) = if file_type.is_dir() {
            ("dir", String::new(), None)
        } else if file_type.is_symlink() {
            let target = fs::read_link(&path).unwrap_or_default();
            ("link", target.to_string_lossy().into_owned(), None)
        } else if file_type.is_file() {
            let hash = fs::read(&path)
                .map(|bytes| format!("{:x}", Sha256::digest(&bytes)))
                .unwrap_or_else(|e| format!("unreadable: {e}"));
            let times = (
                meta.mtime(),
                meta.mtime_nsec(),
                meta.ctime(),
                meta.ctime_nsec(),
            );
            ("file", hash, Some(times))
        } else {
            ("special", String::new(), None)
        };
        out.insert(
            rel,
            Entry {
                kind,
                mode: meta.mode(),
                uid: meta.uid(),
                gid: meta.gid(),
                size: if kind == "dir" { 0 } else { meta.size() },
                times,
                inode: if kind == "file" { meta.ino() } else { 0 },
                content,
            },
        );
        if file_type.is_dir() {
            walk(root, &path, out);
        }
    }
}

/// The differences between two snapshots, one sentence each (`created x`, `changed notes.txt`).
pub fn differences(before: &Snapshot, after: &Snapshot) -> Vec<String> {
    let mut out = Vec::new();
    for (path, old) in before {
        match after.get(path) {
            None => out.push(format!("removed /tmp/{path}")),
            Some(new) if new != old => out.push(format!("changed /tmp/{path}")),
            Some(_) => {}
        }
    }
    for path in after.keys() {
        if !before.contains_key(path) {
            out.push(format!("created /tmp/{path}"));
        }
    }
    out
}
