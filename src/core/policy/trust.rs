//! The trust list (`trusted.toml`): the project files the user trusted, each by the SHA-256 of
//! its bytes, so that a changed file's allows are set aside until it is trusted again.

use std::collections::BTreeMap;
use std::path::Path;

use super::file::PolicyError;
use super::load::hash;
use super::read::read_bounded;
use super::write::{lock as lock_file, write_private};

#[derive(Debug, Default, serde::Deserialize, serde::Serialize)]
struct TrustList {
    #[serde(default)]
    trusted: BTreeMap<String, String>,
}

/// The trust list at `list`: none when there is no file; an error when it is too large to
/// read (or not a file), so that trusting more never drops what it holds.
fn trust_list(list: &Path) -> Result<TrustList, PolicyError> {
    if !list.exists() {
        return Ok(TrustList::default());
    }
    let bytes = read_bounded(list)?;
    Ok(toml::from_str(&String::from_utf8_lossy(&bytes)).unwrap_or_default())
}

/// True when the trust list records exactly these bytes for the project file at `path`.
pub fn trusted(list: &Path, path: &Path, bytes: &[u8]) -> bool {
    trusted_digest(list, path, &hash(bytes))
}

/// True when the trust list records the hash `digest` for the project file at `path`. A list
/// that cannot be read trusts nothing.
pub(super) fn trusted_digest(list: &Path, path: &Path, digest: &str) -> bool {
    trust_list(list).is_ok_and(|trusts| {
        trusts
            .trusted
            .get(&path.display().to_string())
            .map(String::as_str)
            == Some(digest)
    })
}

/// Records the project file at `path`, as it is now, in the trust list; returns its hash.
pub fn trust(list: &Path, path: &Path) -> std::io::Result<String> {
    let bytes = read_bounded(path).map_err(std::io::Error::other)?;
    let _locked = lock_file(list)?;
    let mut trusts = trust_list(list).map_err(std::io::Error::other)?;
    let digest = hash(&bytes);
    trusts
        .trusted
        .insert(path.display().to_string(), digest.clone());
    let text = toml::to_string(&trusts).map_err(std::io::Error::other)?;
    write_private(
        list,
        &format!("# project policies trusted by `gatehouse rules trust`\n{text}"),
    )?;
    Ok(digest)
}
