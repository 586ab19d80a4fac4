//! The config file read again when it changes while the console runs: its rules (denied and
//! safe commands, read-only and internal tools, `[[rule]]` tables, sensitive paths) take effect
//! for the next call and the open dialogs are judged again; a file that no longer reads is
//! refused, said, and the rules in force stay. Other settings (the mode, the classifier, the
//! web console) take effect at the next start.

use std::os::unix::fs::MetadataExt;
use std::path::PathBuf;

use crate::config::Config;

/// What was seen of the file: its inode, size and modification time.
type Seen = Option<(u64, u64, i64, i64)>;

/// Watches one config file.
pub struct ConfigWatch {
    path: PathBuf,
    seen: Seen,
}

/// What a look at the file found.
pub enum Reloaded {
    /// It changed and reads: its config, to put in force.
    Read(Box<Config>),
    /// It changed and does not read (or went away): why; the config in force stays.
    Refused(String),
}

impl ConfigWatch {
    /// Watches `path`, as it is now.
    pub fn new(path: PathBuf) -> ConfigWatch {
        let seen = seen(&path);
        ConfigWatch { path, seen }
    }

    /// `None` while the file is as last seen; else what reading it again gave.
    pub fn look(&mut self) -> Option<Reloaded> {
        let now = seen(&self.path);
        if now == self.seen {
            return None;
        }
        self.seen = now;
        if now.is_none() {
            return Some(Reloaded::Refused(format!(
                "{} is gone; the rules read before stay in force",
                self.path.display()
            )));
        }
        Some(match Config::load(Some(&self.path)) {
            Ok(config) => Reloaded::Read(Box::new(config)),
            Err(err) => Reloaded::Refused(format!("{err:#}; the rules read before stay in force")),
        })
    }
}

fn seen(path: &std::path::Path) -> Seen {
    let meta = std::fs::metadata(path).ok()?;
    Some((meta.ino(), meta.len(), meta.mtime(), meta.mtime_nsec()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_change_is_read_once_a_bad_file_is_refused_and_a_fix_is_read_again() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        std::fs::write(&path, "denied_commands = [\"git push\"]\n").unwrap();
        let mut watch = ConfigWatch::new(path.clone());
        assert!(watch.look().is_none(), "unchanged");

        std::fs::write(
            &path,
            "denied_commands = [\"git push\", \"terraform apply\"]\n",
        )
        .unwrap();
        let Some(Reloaded::Read(config)) = watch.look() else {
            panic!("the change is read");
        };
        let denied: Vec<&str> = config
            .settings
            .rules
            .denied_commands
            .iter()
            .map(|p| p.as_str())
            .collect();
        assert_eq!(denied, ["git push", "terraform apply"]);
        assert!(watch.look().is_none(), "read once");

        std::fs::write(&path, "denied_commands = [\"git push\"\n").unwrap();
        let Some(Reloaded::Refused(why)) = watch.look() else {
            panic!("a file that does not read is refused");
        };
        assert!(why.contains("config.toml"), "{why}");
        assert!(
            why.ends_with("the rules read before stay in force"),
            "{why}"
        );

        std::fs::remove_file(&path).unwrap();
        assert!(matches!(watch.look(), Some(Reloaded::Refused(_))));
    }
}
