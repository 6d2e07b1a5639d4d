//! The server on a Unix socket, beside its TCP port: how hosted bots reach it from a sandbox
//! with no network (issue 39). The socket serves the same services in plaintext, whatever the
//! TCP port's TLS: only processes the socket file's mode lets in can connect.

use std::io;
use std::os::unix::fs::{FileTypeExt, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

use tokio::net::{UnixListener, UnixSocket};

/// The mode of the socket file: its owner and group may connect (connecting takes write
/// permission), nobody else.
pub const SOCKET_MODE: u32 = 0o660;

/// A Unix socket the server listens on, from [`listen_unix`]. Its file is removed when it is
/// dropped (the server drops it once it has stopped), unless another file took its place.
#[derive(Debug)]
pub struct UnixSocketListener {
    pub(crate) listener: UnixListener,
    pub(crate) file: SocketFile,
}

impl UnixSocketListener {
    /// The path of the socket file.
    pub fn path(&self) -> &Path {
        &self.file.path
    }
}

/// The socket file a listener made, removed on drop if it is still that file (same device and
/// inode).
#[derive(Debug)]
pub(crate) struct SocketFile {
    path: PathBuf,
    device: u64,
    inode: u64,
}

impl Drop for SocketFile {
    fn drop(&mut self) {
        let ours = std::fs::symlink_metadata(&self.path)
            .is_ok_and(|file| (file.dev(), file.ino()) == (self.device, self.inode));
        if ours && let Err(error) = std::fs::remove_file(&self.path) {
            tracing::warn!(path = %self.path.display(), %error, "removing the Unix socket file");
        }
    }
}

/// A listener on the Unix socket `path`, its file of mode [`SOCKET_MODE`], with the backlog of
/// the TCP listener ([`crate::LISTEN_BACKLOG`]).
///
/// A socket file left at `path` by a server that is gone (nothing accepts on it) is replaced.
/// One that a live server listens on is refused, and so is any other kind of file.
pub fn listen_unix(path: &Path) -> io::Result<UnixSocketListener> {
    remove_stale(path)?;
    let socket = UnixSocket::new_stream()?;
    socket.bind(path)?;
    // The mode is set before the socket listens: until it does, connecting is refused.
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(SOCKET_MODE))?;
    let file = std::fs::symlink_metadata(path)?;
    let file = SocketFile { path: path.to_owned(), device: file.dev(), inode: file.ino() };
    let listener = socket.listen(crate::LISTEN_BACKLOG)?;
    Ok(UnixSocketListener { listener, file })
}

/// Removes the socket file at `path` if no server listens on it; an error if one does or the
/// file is no socket.
fn remove_stale(path: &Path) -> io::Result<()> {
    let file = match std::fs::symlink_metadata(path) {
        Ok(file) => file,
        Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(error) => return Err(error),
    };
    if !file.file_type().is_socket() {
        return Err(io::Error::new(
            io::ErrorKind::AlreadyExists,
            format!("{} exists and is not a socket: not replacing it", path.display()),
        ));
    }
    match std::os::unix::net::UnixStream::connect(path) {
        Ok(_) => Err(io::Error::new(
            io::ErrorKind::AddrInUse,
            format!(
                "a server already listens on {} (stop it, or choose another path)",
                path.display()
            ),
        )),
        Err(error) if error.kind() == io::ErrorKind::ConnectionRefused => {
            tracing::info!(path = %path.display(), "replacing a stale Unix socket file");
            std::fs::remove_file(path)
        }
        Err(error) => Err(error),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_socket_file_is_private_replaced_when_stale_and_removed_on_drop() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("cardroom.sock");
        let first = listen_unix(&path).unwrap();
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, SOCKET_MODE);
        let live = listen_unix(&path).unwrap_err();
        assert_eq!(live.kind(), io::ErrorKind::AddrInUse, "{live}");
        // A server gone without removing its file: a listener dropped, its file left.
        let UnixSocketListener { listener, file } = first;
        std::mem::forget(file);
        drop(listener);
        let second = listen_unix(&path).unwrap();
        drop(second);
        assert!(!path.exists());
        std::fs::write(&path, "not a socket").unwrap();
        let other = listen_unix(&path).unwrap_err();
        assert_eq!(other.kind(), io::ErrorKind::AlreadyExists, "{other}");
    }
}
