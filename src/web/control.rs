//! The web console's control socket, beside the console's own socket (`gatehouse.pair` next
//! to `gatehouse.sock`, in the same 0700 folder, with the same peer uid check): how
//! `gatehouse pair` asks the running console for a pairing link. One JSON line each way.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt};
use tokio::net::UnixListener;

use super::{Hub, Link, WebError};
use crate::server::socket::{self, SocketFile};

/// The control socket that goes with the console socket `socket`.
pub fn path_for(socket: &Path) -> PathBuf {
    socket.with_extension("pair")
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
enum Request {
    Pair,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
enum Reply {
    Link(Link),
    Error(String),
}

/// The running control socket; dropping it stops it and removes its file.
pub struct Control {
    _file: SocketFile,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Control {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl Control {
    /// Listens at `path` for `hub`. Must run inside a tokio runtime.
    pub fn start(path: &Path, hub: Arc<Hub>) -> Result<Control, WebError> {
        let error = |message: String| WebError::Control {
            path: path.to_path_buf(),
            message,
        };
        socket::prepare_folder(path).map_err(|e| error(e.to_string()))?;
        socket::clear_stale(path).map_err(|e| error(e.to_string()))?;
        let std = std::os::unix::net::UnixListener::bind(path).map_err(|e| error(e.to_string()))?;
        let file = SocketFile::bound(path).map_err(|e| error(e.to_string()))?;
        std.set_nonblocking(true)
            .map_err(|e| error(e.to_string()))?;
        let listener = UnixListener::from_std(std).map_err(|e| error(e.to_string()))?;
        let task = tokio::spawn(accept(listener, hub));
        Ok(Control { _file: file, task })
    }
}

async fn accept(listener: UnixListener, hub: Arc<Hub>) {
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        };
        let hub = hub.clone();
        tokio::spawn(async move {
            let _ = tokio::time::timeout(Duration::from_secs(2), one(stream, hub)).await;
        });
    }
}

async fn one(stream: tokio::net::UnixStream, hub: Arc<Hub>) {
    let mine = stream
        .peer_cred()
        .is_ok_and(|cred| cred.uid() == crate::paths::uid());
    let (read, mut write) = stream.into_split();
    let reply = if !mine {
        Reply::Error("only the console's own user may ask it for a pairing link".into())
    } else {
        let mut line = String::new();
        // A request is one short line: a kilobyte is plenty.
        let mut reader = tokio::io::BufReader::new(read.take(1024));
        match reader.read_line(&mut line).await {
            Ok(_) => match serde_json::from_str::<Request>(line.trim()) {
                Ok(Request::Pair) => match hub.pair_link() {
                    Ok(link) => Reply::Link(link),
                    Err(err) => Reply::Error(err.to_string()),
                },
                Err(err) => Reply::Error(format!("a request this console does not know: {err}")),
            },
            Err(err) => Reply::Error(err.to_string()),
        }
    };
    let mut text = serde_json::to_string(&reply).unwrap_or_default();
    text.push('\n');
    let _ = write.write_all(text.as_bytes()).await;
}

/// Asks the console listening beside `socket` for a pairing link (`gatehouse pair`).
pub fn request_link(socket: &Path) -> Result<Link, WebError> {
    let path = path_for(socket);
    let error = |message: String| WebError::Control {
        path: path.clone(),
        message,
    };
    let mut stream = std::os::unix::net::UnixStream::connect(&path).map_err(|e| {
        error(format!(
            "{e}; is a console running with the web console on (`gatehouse --web` or `gatehouse serve --web`)?"
        ))
    })?;
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .map_err(|e| error(e.to_string()))?;
    let mut request = serde_json::to_string(&Request::Pair).map_err(|e| error(e.to_string()))?;
    request.push('\n');
    stream
        .write_all(request.as_bytes())
        .map_err(|e| error(e.to_string()))?;
    let mut line = String::new();
    BufReader::new(stream)
        .read_line(&mut line)
        .map_err(|e| error(e.to_string()))?;
    match serde_json::from_str::<Reply>(line.trim()) {
        Ok(Reply::Link(link)) => Ok(link),
        Ok(Reply::Error(message)) => Err(error(message)),
        Err(err) => Err(error(format!(
            "an answer this gatehouse does not understand: {err}"
        ))),
    }
}
