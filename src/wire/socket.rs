//! Where the console's socket lives, and the checks that keep other users away from it.
//!
//! The path is `--socket`, else `GATEHOUSE_SOCKET`, else
//! `$XDG_RUNTIME_DIR/gatehouse/gatehouse.sock`, else `/tmp/gatehouse-$UID/gatehouse.sock`. The
//! folder must be ours and closed to others (mode 0700): the console makes it so when it
//! creates it and refuses to use one that is not, and the hook refuses to trust one that is
//! not. A socket file left by a console that died is replaced; a live one is not.

use std::io;
use std::os::unix::fs::{DirBuilderExt, FileTypeExt, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// The socket's file name inside its folder.
pub const SOCKET_NAME: &str = "gatehouse.sock";

/// Why the console cannot use a socket path.
#[derive(Debug, thiserror::Error)]
pub enum SocketError {
    #[error(
        "{path} is owned by uid {owner}, not by you (uid {me}); someone else may be \
         listening there. Remove it or choose another path with --socket"
    )]
    ForeignFolder { path: PathBuf, owner: u32, me: u32 },
    #[error(
        "{path} is open to other users (mode {mode:o}); run `chmod 700 {path}` or choose \
         another path with --socket"
    )]
    OpenFolder { path: PathBuf, mode: u32 },
    #[error("{path} is not a folder; choose another path with --socket")]
    NotAFolder { path: PathBuf },
    #[error("{path} exists and is not a socket; remove it or choose another path with --socket")]
    NotASocket { path: PathBuf },
    #[error(
        "another gatehouse console is already listening on {path}; stop it first, or start \
         this one with another --socket"
    )]
    AlreadyRunning { path: PathBuf },
    #[error("socket path {path} has no parent folder")]
    NoFolder { path: PathBuf },
    #[error("{what} {path}: {source}")]
    Io {
        what: &'static str,
        path: PathBuf,
        source: io::Error,
    },
}

/// The effective user id of this process: gatehouse has one uid helper, the core's.
pub use crate::core::uid as my_uid;

/// Resolves the socket path from its sources, first given wins. Pure, for tests; see
/// [`socket_path`] for the one that reads the environment.
pub fn resolve(
    flag: Option<&Path>,
    env_socket: Option<&str>,
    runtime_dir: Option<&str>,
    uid: u32,
) -> PathBuf {
    if let Some(path) = flag {
        return path.to_path_buf();
    }
    if let Some(path) = env_socket.filter(|s| !s.is_empty()) {
        return PathBuf::from(path);
    }
    match runtime_dir.filter(|d| Path::new(d).is_absolute()) {
        Some(dir) => Path::new(dir).join("gatehouse").join(SOCKET_NAME),
        None => PathBuf::from(format!("/tmp/gatehouse-{uid}")).join(SOCKET_NAME),
    }
}

/// The socket path this process should use, given an optional `--socket` flag.
pub fn socket_path(flag: Option<&Path>) -> PathBuf {
    resolve(
        flag,
        std::env::var("GATEHOUSE_SOCKET").ok().as_deref(),
        std::env::var("XDG_RUNTIME_DIR").ok().as_deref(),
        my_uid(),
    )
}

/// Checks that `dir` is a folder owned by `uid` that no one else can enter or write.
pub fn check_folder(dir: &Path, uid: u32) -> Result<(), SocketError> {
    let meta = std::fs::symlink_metadata(dir).map_err(|source| SocketError::Io {
        what: "cannot inspect",
        path: dir.to_path_buf(),
        source,
    })?;
    if !meta.is_dir() {
        return Err(SocketError::NotAFolder {
            path: dir.to_path_buf(),
        });
    }
    if meta.uid() != uid {
        return Err(SocketError::ForeignFolder {
            path: dir.to_path_buf(),
            owner: meta.uid(),
            me: uid,
        });
    }
    let mode = meta.permissions().mode() & 0o777;
    if mode & 0o077 != 0 {
        return Err(SocketError::OpenFolder {
            path: dir.to_path_buf(),
            mode,
        });
    }
    Ok(())
}

/// The socket's folder, created with mode 0700 if missing, and checked either way.
pub fn prepare_folder(socket: &Path) -> Result<PathBuf, SocketError> {
    let dir = socket
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .ok_or_else(|| SocketError::NoFolder {
            path: socket.to_path_buf(),
        })?
        .to_path_buf();
    if !dir.exists() {
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(&dir)
            .map_err(|source| SocketError::Io {
                what: "cannot create the socket folder",
                path: dir.clone(),
                source,
            })?;
    }
    check_folder(&dir, my_uid())?;
    Ok(dir)
}

/// Makes `socket` free to bind: refuses a live console or a file that is not a socket, and
/// removes a stale socket that nobody listens on.
pub fn clear_stale(socket: &Path) -> Result<(), SocketError> {
    let meta = match std::fs::symlink_metadata(socket) {
        Ok(meta) => meta,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(source) => {
            return Err(SocketError::Io {
                what: "cannot inspect",
                path: socket.to_path_buf(),
                source,
            });
        }
    };
    if !meta.file_type().is_socket() {
        return Err(SocketError::NotASocket {
            path: socket.to_path_buf(),
        });
    }
    match std::os::unix::net::UnixStream::connect(socket) {
        Ok(_) => Err(SocketError::AlreadyRunning {
            path: socket.to_path_buf(),
        }),
        Err(e) if e.kind() == io::ErrorKind::ConnectionRefused => std::fs::remove_file(socket)
            .map_err(|source| SocketError::Io {
                what: "cannot remove the stale socket",
                path: socket.to_path_buf(),
                source,
            }),
        Err(source) => Err(SocketError::Io {
            what: "cannot probe the existing socket",
            path: socket.to_path_buf(),
            source,
        }),
    }
}

/// Removes the socket file when dropped, but only if it is still the one this console bound
/// (another console may have replaced it since).
#[derive(Debug)]
pub struct SocketFile {
    path: PathBuf,
    /// Device, inode and change time: an inode number alone may be reused at once.
    identity: (u64, u64, i64, i64),
}

impl SocketFile {
    /// Records the identity of the socket file just bound at `path`, and closes it to other
    /// users (0600) on top of its folder's 0700.
    pub fn bound(path: &Path) -> Result<SocketFile, SocketError> {
        let io_err = |what| {
            move |source| SocketError::Io {
                what,
                path: path.to_path_buf(),
                source,
            }
        };
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))
            .map_err(io_err("cannot set the mode of"))?;
        let meta = std::fs::symlink_metadata(path).map_err(io_err("cannot inspect"))?;
        Ok(SocketFile {
            path: path.to_path_buf(),
            identity: identity(&meta),
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

fn identity(meta: &std::fs::Metadata) -> (u64, u64, i64, i64) {
    (meta.dev(), meta.ino(), meta.ctime(), meta.ctime_nsec())
}

impl Drop for SocketFile {
    fn drop(&mut self) {
        if let Ok(meta) = std::fs::symlink_metadata(&self.path)
            && identity(&meta) == self.identity
        {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_flag_wins_then_the_environment_then_the_runtime_dir_then_tmp() {
        let flag = Path::new("/x/flag.sock");
        assert_eq!(
            resolve(Some(flag), Some("/e.sock"), Some("/run/user/7"), 7),
            flag
        );
        assert_eq!(
            resolve(None, Some("/e.sock"), Some("/run/user/7"), 7),
            Path::new("/e.sock")
        );
        assert_eq!(
            resolve(None, None, Some("/run/user/7"), 7),
            Path::new("/run/user/7/gatehouse/gatehouse.sock")
        );
        assert_eq!(
            resolve(None, Some(""), Some("relative"), 7),
            Path::new("/tmp/gatehouse-7/gatehouse.sock")
        );
    }

    #[test]
    fn a_missing_folder_is_made_private_and_an_open_one_is_refused() {
        let root = tempfile::tempdir().unwrap();
        let socket = root.path().join("a/b/gatehouse.sock");
        let dir = prepare_folder(&socket).unwrap();
        let mode = std::fs::metadata(&dir).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o700);

        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
        let err = prepare_folder(&socket).unwrap_err();
        assert!(matches!(err, SocketError::OpenFolder { .. }), "{err}");
        assert!(err.to_string().contains("chmod 700"), "{err}");
    }

    #[test]
    fn a_folder_owned_by_someone_else_is_refused() {
        let root = tempfile::tempdir().unwrap();
        let err = check_folder(root.path(), my_uid() + 1).unwrap_err();
        assert!(matches!(err, SocketError::ForeignFolder { .. }), "{err}");
        // /tmp is open to everyone and, here, usually owned by root.
        assert!(check_folder(Path::new("/tmp"), my_uid()).is_err());
    }

    #[test]
    fn a_plain_file_in_the_sockets_place_is_never_removed() {
        let root = tempfile::tempdir().unwrap();
        let path = root.path().join("gatehouse.sock");
        std::fs::write(&path, "mine").unwrap();
        assert!(matches!(
            clear_stale(&path),
            Err(SocketError::NotASocket { .. })
        ));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "mine");
    }

    #[test]
    fn a_stale_socket_is_removed_and_a_live_one_refuses_a_second_console() {
        let root = tempfile::tempdir().unwrap();
        let path = root.path().join("gatehouse.sock");
        let live = std::os::unix::net::UnixListener::bind(&path).unwrap();
        assert!(matches!(
            clear_stale(&path),
            Err(SocketError::AlreadyRunning { .. })
        ));
        drop(live);
        assert!(path.exists(), "a dropped listener leaves its file behind");
        clear_stale(&path).unwrap();
        assert!(!path.exists());
    }

    #[test]
    fn the_socket_file_is_removed_on_drop_only_if_it_is_still_ours() {
        let root = tempfile::tempdir().unwrap();
        let path = root.path().join("gatehouse.sock");
        let first = std::os::unix::net::UnixListener::bind(&path).unwrap();
        let guard = SocketFile::bound(&path).unwrap();
        let mode = std::fs::symlink_metadata(&path)
            .unwrap()
            .permissions()
            .mode()
            & 0o777;
        assert_eq!(mode, 0o600);
        drop(first);
        std::fs::remove_file(&path).unwrap();
        // File times tick at the kernel's coarse clock (a few ms); a replacement made later
        // than that is told apart even when it gets the same inode number.
        std::thread::sleep(std::time::Duration::from_millis(20));
        let _second = std::os::unix::net::UnixListener::bind(&path).unwrap();
        drop(guard);
        assert!(path.exists(), "another console's socket must survive");
    }
}
