//! Reading a policy or rules file from disk so that no file can stall the calls judged under
//! it: at most [`MAX_POLICY_BYTES`], a regular file only (a FIFO or a device planted under the
//! name neither blocks the read nor streams forever), and parsed once per content: a file
//! touched, or written again with the same bytes, is looked up by its SHA-256, not parsed again.

use std::collections::HashMap;
use std::io::Read;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use super::file::{PolicyError, parse_file};
use super::{Layer, RuleFile, Trust};

/// The largest policy or rules file gatehouse reads: the config, the saved rules, the trust
/// list, a project's `.gatehouse.toml` and the floor. About ten thousand rules.
pub const MAX_POLICY_BYTES: usize = 1024 * 1024;

/// How many parsed files are kept by their content.
const KEPT: usize = 64;

/// The bytes of the policy or rules file at `path`, refused when it is not a regular file or
/// is larger than [`MAX_POLICY_BYTES`].
pub fn read_bounded(path: &Path) -> Result<Vec<u8>, PolicyError> {
    let error = |message: String, fix: &str| PolicyError {
        path: path.to_path_buf(),
        line: None,
        message,
        fix: fix.to_string(),
    };
    let unreadable = |err: std::io::Error| {
        error(
            format!("cannot read the rules file: {err}"),
            "make the file readable, or remove it",
        )
    };
    // Non-blocking, so that opening a FIFO does not wait for a writer.
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
        .map_err(unreadable)?;
    if !file.metadata().map_err(unreadable)?.is_file() {
        return Err(error(
            "the rules file is not a regular file".into(),
            "make it a plain file, or remove it",
        ));
    }
    let mut bytes = Vec::new();
    file.take(MAX_POLICY_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(unreadable)?;
    if bytes.len() > MAX_POLICY_BYTES {
        return Err(error(
            format!(
                "the file is larger than the {} MiB gatehouse reads in a policy or rules file",
                MAX_POLICY_BYTES / (1024 * 1024)
            ),
            "keep it under 1 MiB: fewer rules, or broader prefixes",
        ));
    }
    Ok(bytes)
}

type Key = (PathBuf, Layer, Trust, String);

/// Parsed files by path, layer, trust and the SHA-256 of their bytes.
#[derive(Debug, Default)]
pub struct Parsed {
    files: Mutex<HashMap<Key, Result<Arc<RuleFile>, PolicyError>>>,
}

impl Parsed {
    /// The file at `path` with these `bytes` (whose hex SHA-256 is `digest`), parsed now or
    /// taken from an earlier parse of the same content. `finish` completes a fresh parse.
    pub fn parse(
        &self,
        path: &Path,
        (bytes, digest): (&[u8], &str),
        (layer, trust): (Layer, Trust),
        edit_tools: &[String],
        finish: impl FnOnce(&mut RuleFile),
    ) -> Result<Arc<RuleFile>, PolicyError> {
        let key = (path.to_path_buf(), layer, trust, digest.to_string());
        if let Some(parsed) = self.lock().get(&key) {
            return parsed.clone();
        }
        // Parsed with no lock held: a large file holds up no call judged under another.
        let text = String::from_utf8_lossy(bytes);
        let parsed = parse_file(&text, path, layer, trust, edit_tools).map(|mut file| {
            finish(&mut file);
            Arc::new(file)
        });
        let mut files = self.lock();
        if files.len() >= KEPT {
            files.clear();
        }
        files.insert(key, parsed.clone());
        parsed
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Key, Result<Arc<RuleFile>, PolicyError>>> {
        self.files.lock().unwrap_or_else(|p| p.into_inner())
    }
}
