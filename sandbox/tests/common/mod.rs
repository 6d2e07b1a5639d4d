//! What the sandbox's tests share: the sandbox itself, a tiny gRPC server on a Unix socket,
//! the bots' code directories and a snapshot of the host.

#![allow(dead_code, unreachable_pub)]

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use cardroom_sandbox::{BotSpec, Bubblewrap, Limits, Runtime, SERVER_URL_IN_SANDBOX};
use tokio::net::{TcpListener, UnixListener};
use tokio::sync::Notify;
use tokio_stream::wrappers::{TcpListenerStream, UnixListenerStream};
use tonic::service::interceptor::InterceptedService;
use tonic_health::ServingStatus;
use tonic_health::server::HealthReporter;

/// The sandbox, or a panic that names why this machine cannot have one: these tests never
/// skip.
pub async fn sandbox() -> Bubblewrap {
    match Bubblewrap::new().await {
        Ok(sandbox) => sandbox,
        Err(error) => panic!("no sandbox on this machine: {error}"),
    }
}

/// The Python with the cardroom SDK that CI builds (`CARDROOM_PYTHON`), and its runtime.
pub fn python() -> (PathBuf, Runtime) {
    let Some(python) = std::env::var_os("CARDROOM_PYTHON") else {
        panic!("CARDROOM_PYTHON is not set: .ci/run sets it to the venv with the cardroom SDK")
    };
    let python = PathBuf::from(python);
    let runtime = Runtime::python(&python).expect("the Python runtime");
    (python, runtime)
}

/// A gRPC server (the health service alone) on a Unix socket and on 127.0.0.1, counting the
/// checks it answers. Service "bot" serves until [`Server::finish`].
pub struct Server {
    /// The Unix socket, in a directory of its own.
    pub socket: PathBuf,
    /// The TCP address on the loopback.
    pub tcp: SocketAddr,
    /// The checks answered so far.
    pub checks: Arc<AtomicU64>,
    /// Notified at every check.
    pub checked: Arc<Notify>,
    reporter: HealthReporter,
    _dir: tempfile::TempDir,
}

impl Server {
    pub async fn start() -> Server {
        let dir = world_readable_dir();
        let socket = dir.path().join("grpc.sock");
        let unix = UnixListenerStream::new(UnixListener::bind(&socket).expect("bind the socket"));
        let tcp = TcpListener::bind("127.0.0.1:0").await.expect("bind the loopback");
        let tcp_addr = tcp.local_addr().expect("an address");
        let (reporter, health) = tonic_health::server::health_reporter();
        reporter.set_service_status("bot", ServingStatus::Serving).await;
        let checks = Arc::new(AtomicU64::new(0));
        let checked = Arc::new(Notify::new());
        let count = {
            let (checks, checked) = (checks.clone(), checked.clone());
            move |request| {
                checks.fetch_add(1, Ordering::SeqCst);
                checked.notify_waiters();
                Ok(request)
            }
        };
        for incoming in
            [EitherListener::Unix(unix), EitherListener::Tcp(TcpListenerStream::new(tcp))]
        {
            let router = tonic::transport::Server::builder()
                .add_service(InterceptedService::new(health.clone(), count.clone()));
            tokio::spawn(async move {
                let _ = match incoming {
                    EitherListener::Unix(s) => router.serve_with_incoming(s).await,
                    EitherListener::Tcp(s) => router.serve_with_incoming(s).await,
                };
            });
        }
        Server { socket, tcp: tcp_addr, checks, checked, reporter, _dir: dir }
    }

    /// Waits until the server has answered a check after this call: whoever checks still
    /// works.
    pub async fn next_check(&self) {
        self.check_past(self.checks.load(Ordering::SeqCst)).await;
    }

    /// Waits until the server has answered more than `seen` checks in all.
    pub async fn check_past(&self, seen: u64) {
        tokio::time::timeout(Duration::from_secs(30), async {
            while self.checks.load(Ordering::SeqCst) <= seen {
                let notified = self.checked.notified();
                if self.checks.load(Ordering::SeqCst) > seen {
                    break;
                }
                notified.await;
            }
        })
        .await
        .expect("a check within 30 s");
    }

    /// Service "bot" no longer serves: the good bot exits.
    pub async fn finish(&self) {
        self.reporter.set_service_status("bot", ServingStatus::NotServing).await;
    }
}

enum EitherListener {
    Unix(UnixListenerStream),
    Tcp(TcpListenerStream),
}

/// A temporary directory anyone may read: bots run as `nobody`.
pub fn world_readable_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temporary directory");
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).expect("chmod");
    dir
}

/// A bot's code directory holding `files` (name, host file to copy).
pub fn code(files: &[(&str, &Path)]) -> tempfile::TempDir {
    let dir = world_readable_dir();
    for (name, from) in files {
        std::fs::copy(from, dir.path().join(name)).expect("copy a bot's file");
    }
    dir
}

/// A file of the bots in tests/bots.
pub fn bot_file(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bots").join(name)
}

/// A Python bot: `python3 bot.py ARGS` with bot.py from tests/bots/FILE.
pub fn python_bot(server: &Server, code: &Path, args: &[&str]) -> BotSpec {
    let (_, runtime) = python();
    let mut command = vec!["python3".to_owned(), "bot.py".to_owned()];
    command.extend(args.iter().map(|a| a.to_string()));
    BotSpec {
        code: code.to_owned(),
        command,
        socket: server.socket.clone(),
        env: vec![("CARDROOM_SERVER".to_owned(), SERVER_URL_IN_SANDBOX.to_owned())],
        runtime,
        limits: Limits::default(),
    }
}

/// What the tests watch of the host: the contents of some files.
#[derive(Debug, PartialEq, Eq)]
pub struct Host(BTreeMap<PathBuf, Option<Vec<u8>>>);

impl Host {
    /// The files under each of `paths` (files or directories), with `/etc/shadow` and
    /// `/etc/passwd`.
    pub fn snapshot(paths: &[&Path]) -> Host {
        let mut files = BTreeMap::new();
        let mut todo: Vec<PathBuf> = paths.iter().map(|p| p.to_path_buf()).collect();
        todo.extend([PathBuf::from("/etc/shadow"), PathBuf::from("/etc/passwd")]);
        while let Some(path) = todo.pop() {
            if path.is_dir() {
                for entry in std::fs::read_dir(&path).expect("read a directory").flatten() {
                    todo.push(entry.path());
                }
            } else {
                files.insert(path.clone(), std::fs::read(&path).ok());
            }
        }
        Host(files)
    }
}
