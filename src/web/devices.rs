//! The paired devices: each has a name and a token of its own, kept in the state folder as a
//! SHA-256 hash only (a copied file pairs nothing). A presented token is hashed and compared
//! with every stored hash in constant time. The file is read afresh on every check, so a
//! device revoked by `gatehouse devices revoke` (even while the console runs) is refused at
//! its next request.

use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use super::WebError;

/// The devices file's name in the state folder.
pub const DEVICES_FILE: &str = "web-devices.json";

/// One paired device, as stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Device {
    pub name: String,
    /// When it paired, RFC 3339.
    pub paired: String,
    /// The SHA-256 of its token, in hex.
    hash: String,
}

/// The devices file, with writes serialised within this process.
#[derive(Debug)]
pub struct Devices {
    path: PathBuf,
    writing: Mutex<()>,
}

impl Devices {
    /// The devices kept at `path` (the file need not exist yet).
    pub fn at(path: PathBuf) -> Devices {
        Devices {
            path,
            writing: Mutex::new(()),
        }
    }

    /// The devices file in the state folder `state`.
    pub fn in_state(state: &Path) -> Devices {
        Devices::at(state.join(DEVICES_FILE))
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Every paired device, oldest first. No file means none.
    pub fn list(&self) -> Result<Vec<Device>, WebError> {
        let text = match std::fs::read_to_string(&self.path) {
            Ok(text) => text,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(source) => return Err(self.io_error(source)),
        };
        serde_json::from_str(&text).map_err(|err| WebError::Devices {
            path: self.path.clone(),
            message: format!("it is not a devices list ({err}); delete it to unpair every device"),
        })
    }

    /// Pairs a new device under `wanted` (made unique with a number if taken) and returns its
    /// name and its token, which is never stored and cannot be shown again.
    pub fn add(&self, wanted: &str) -> Result<(String, String), WebError> {
        let _writing = self.writing.lock().unwrap_or_else(|p| p.into_inner());
        let mut devices = self.list()?;
        let base = clean_name(wanted);
        let mut name = base.clone();
        let mut n = 2;
        while devices.iter().any(|d| d.name == name) {
            name = format!("{base} {n}");
            n += 1;
        }
        let token = super::random_hex(32)?;
        devices.push(Device {
            name: name.clone(),
            paired: crate::core::audit::now_rfc3339(),
            hash: hash(&token),
        });
        self.store(&devices)?;
        Ok((name, token))
    }

    /// Unpairs the device named `name`; returns whether it was there.
    pub fn revoke(&self, name: &str) -> Result<bool, WebError> {
        let _writing = self.writing.lock().unwrap_or_else(|p| p.into_inner());
        let mut devices = self.list()?;
        let before = devices.len();
        devices.retain(|d| d.name != name);
        if devices.len() == before {
            return Ok(false);
        }
        self.store(&devices)?;
        Ok(true)
    }

    /// The name of the device whose token this is, if any. Every stored hash is compared, in
    /// constant time, whichever matches.
    pub fn check(&self, token: &str) -> Option<String> {
        let presented = hash(token);
        let mut found = None;
        for device in self.list().ok()? {
            if bool::from(device.hash.as_bytes().ct_eq(presented.as_bytes())) {
                found = Some(device.name);
            }
        }
        found
    }

    fn store(&self, devices: &[Device]) -> Result<(), WebError> {
        if let Some(dir) = self.path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| self.io_error(e))?;
        }
        let text = serde_json::to_string_pretty(devices).map_err(std::io::Error::other);
        let text = text.map_err(|e| self.io_error(e))?;
        // Written whole beside the file, then moved over it: a reader never sees half a list.
        let fresh = self.path.with_extension("json.new");
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .write(true)
            .truncate(true)
            .mode(0o600)
            .custom_flags(libc::O_NOFOLLOW)
            .open(&fresh)
            .map_err(|e| self.io_error(e))?;
        file.write_all(text.as_bytes())
            .and_then(|()| file.sync_all())
            .map_err(|e| self.io_error(e))?;
        std::fs::rename(&fresh, &self.path).map_err(|e| self.io_error(e))
    }

    fn io_error(&self, source: std::io::Error) -> WebError {
        WebError::Devices {
            path: self.path.clone(),
            message: source.to_string(),
        }
    }
}

/// A device name as shown: one line, printable, at most 40 characters, never empty.
pub fn clean_name(wanted: &str) -> String {
    let name: String = wanted
        .chars()
        .filter(|c| !c.is_control())
        .take(40)
        .collect();
    let name = name.trim();
    if name.is_empty() {
        "device".into()
    } else {
        name.to_string()
    }
}

fn hash(token: &str) -> String {
    super::hex(&Sha256::digest(token.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn devices() -> (tempfile::TempDir, Devices) {
        let dir = tempfile::tempdir().unwrap();
        let devices = Devices::in_state(dir.path());
        (dir, devices)
    }

    #[test]
    fn a_paired_device_is_known_by_its_token_and_only_the_hash_is_stored() {
        let (_dir, devices) = devices();
        let (name, token) = devices.add("phone").unwrap();
        assert_eq!(name, "phone");
        assert_eq!(devices.check(&token).as_deref(), Some("phone"));
        assert_eq!(devices.check("not-a-token"), None);
        let stored = std::fs::read_to_string(devices.path()).unwrap();
        assert!(!stored.contains(&token), "{stored}");
        let mode = std::fs::metadata(devices.path()).unwrap();
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(mode.permissions().mode() & 0o777, 0o600);
    }

    #[test]
    fn a_revoked_device_is_refused_and_the_others_still_pass() {
        let (_dir, devices) = devices();
        let (_, phone) = devices.add("phone").unwrap();
        let (second, tablet) = devices.add("phone").unwrap();
        assert_eq!(second, "phone 2");
        assert!(devices.revoke("phone").unwrap());
        assert_eq!(devices.check(&phone), None);
        assert_eq!(devices.check(&tablet).as_deref(), Some("phone 2"));
        assert!(!devices.revoke("phone").unwrap());
    }

    #[test]
    fn a_device_name_is_one_printable_line() {
        assert_eq!(clean_name("my\u{1b}[2J phone\n"), "my[2J phone");
        assert_eq!(clean_name("  "), "device");
        assert_eq!(clean_name(&"x".repeat(100)).len(), 40);
    }
}
