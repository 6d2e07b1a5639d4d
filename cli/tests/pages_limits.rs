//! The pages' port against slow and greedy clients (issue 45), through the stock `cardroom
//! serve` over a store and a hosted ladder, with real sockets and, where it matters, a lowered
//! limit on open files (`ulimit -n` in the shell that execs the server):
//!
//! - a flood of connections that never send a request's head is cut by the header timeout,
//!   and gRPC answers while the flood holds what it can;
//! - the pages' connection cap holds: the next connection waits in the kernel's accept queue
//!   (holding none of the server's descriptors) and is served once one closes;
//! - a request whose body stalls is cut by the body timeout;
//! - live streams are capped in all (503) and by address (429), each refusal at once, with
//!   `Retry-After` and a line naming its flag;
//! - with the pages flooded, gRPC still seats bots: the server raised its soft limit on open
//!   files to the hard one, and the pages take at most a quarter of it.
//!
//! How many connections the server holds is read from the kernel: its open files
//! (`/proc/PID/fd`) and the pages' listener's accept queue (`/proc/net/tcp`).

#![cfg(target_os = "linux")]
#![allow(clippy::unwrap_used)] // A test fails loudly on an unexpected error.

use std::io::{BufRead as _, BufReader};
use std::net::{Ipv4Addr, SocketAddr};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use cardroom_proto::pb;
use cardroom_proto::pb::cardroom_client::CardroomClient;
use cardroom_tests::{Bot, MESSAGE_PATIENCE, connect, eventually};
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::{TcpSocket, TcpStream};

mod support;

const LADDER: &str = "name = \"duel\"\ngame = \"twenty_two\"\nseats = 2\nseed = 3\n";

/// `cardroom serve` with its pages, over a SQLite store with a hosted ladder and registered
/// bots only (the setup); killed when dropped.
struct Served {
    process: Child,
    grpc: String,
    pages: SocketAddr,
    _dir: tempfile::TempDir,
}

impl Served {
    /// Starts the server with `flags`; under `ulimit` (the shell's arguments, e.g. `-n 256`)
    /// when given.
    fn start(ulimit: Option<&str>, flags: &[&str]) -> Served {
        let dir = tempfile::tempdir().unwrap();
        let ladder = dir.path().join("L.toml");
        std::fs::write(&ladder, LADDER).unwrap();
        let limit = ulimit.map_or(String::new(), |args| format!("ulimit {args} && "));
        let mut process = Command::new("sh")
            .arg("-c")
            .arg(format!("{limit}exec \"$0\" \"$@\""))
            .arg(env!("CARGO_BIN_EXE_cardroom"))
            .args(["serve", "--addr", "127.0.0.1:0", "--http-addr", "127.0.0.1:0"])
            .arg("--store")
            .arg(format!("sqlite:{}", dir.path().join("store.sqlite").display()))
            .args(["--registered-only", "--ladder"])
            .arg(&ladder)
            .arg("--record-dir")
            .arg(dir.path().join("records"))
            .args(flags)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut lines = BufReader::new(process.stdout.take().unwrap()).lines();
        let mut line = || lines.next().unwrap().unwrap();
        let grpc = line().strip_prefix("cardroom listening on ").unwrap().to_owned();
        let pages = line();
        let pages = pages.strip_prefix("cardroom pages on http://").unwrap().parse().unwrap();
        Served { process, grpc, pages, _dir: dir }
    }

    /// The server's gRPC address as a URL.
    fn url(&self) -> String {
        format!("http://{}", self.grpc)
    }

    /// The server's soft and hard limits on open files.
    fn open_files_limits(&self) -> (u64, u64) {
        let limits = std::fs::read_to_string(format!("/proc/{}/limits", self.process.id()));
        let limits = limits.unwrap();
        let line = limits.lines().find(|l| l.starts_with("Max open files")).unwrap();
        let numbers: Vec<u64> = line.split_whitespace().filter_map(|w| w.parse().ok()).collect();
        (numbers[0], numbers[1])
    }

    /// The server's open files.
    fn open_files(&self) -> usize {
        std::fs::read_dir(format!("/proc/{}/fd", self.process.id())).unwrap().count()
    }

    /// Connections to the pages that the kernel has established and the server not yet
    /// accepted: the `rx_queue` of the listening socket in `/proc/net/tcp`.
    fn waiting_for_the_pages(&self) -> usize {
        let SocketAddr::V4(pages) = self.pages else { panic!("the pages listen on IPv4") };
        let local = format!("{:08X}:{:04X}", u32::from_le_bytes(pages.ip().octets()), pages.port());
        let table = std::fs::read_to_string("/proc/net/tcp").unwrap();
        let listening =
            table.lines().skip(1).map(|line| line.split_whitespace().collect::<Vec<_>>());
        let fields = listening
            .into_iter()
            .find(|fields| fields[1] == local && fields[3] == "0A")
            .unwrap_or_else(|| panic!("no listener on {pages} in /proc/net/tcp"));
        let (_, rx_queue) = fields[4].split_once(':').unwrap();
        usize::from_str_radix(rx_queue, 16).unwrap()
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.process.kill();
        let _ = self.process.wait();
    }
}

/// `count` connections to `addr` that never send anything.
async fn silent(addr: SocketAddr, count: usize) -> Vec<TcpStream> {
    let mut streams = Vec::with_capacity(count);
    for _ in 0..count {
        streams.push(TcpStream::connect(addr).await.unwrap());
    }
    streams
}

/// A GET of `path` on `addr` from the local address `from`, its response's head (and, for a
/// response that is not a stream, its body) read; returns the connection and what was read.
async fn get_from(from: Ipv4Addr, addr: SocketAddr, path: &str) -> (TcpStream, String) {
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind((from, 0).into()).unwrap();
    let mut stream = socket.connect(addr).await.unwrap();
    let request = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut read = String::new();
    let mut buffer = [0; 4096];
    loop {
        let n = tokio::time::timeout(MESSAGE_PATIENCE, stream.read(&mut buffer)).await;
        let n = n.unwrap_or_else(|_| panic!("no answer to GET {path}: {read:?}")).unwrap();
        read.push_str(std::str::from_utf8(&buffer[..n]).unwrap());
        let head_read = read.contains("\r\n\r\n");
        // A stream's head is enough; an error is read to its end (the server closes).
        if n == 0 || (head_read && read.contains("text/event-stream")) {
            return (stream, read);
        }
    }
}

/// Waits until the server closes `stream` (a read of nothing, or a reset).
async fn closed_by_the_server(stream: &mut TcpStream) {
    let mut buffer = [0; 64];
    match tokio::time::timeout(cardroom_tests::PATIENCE, stream.read(&mut buffer)).await {
        Ok(Ok(0) | Err(_)) => {}
        Ok(Ok(n)) => panic!("the server sent {:?}", String::from_utf8_lossy(&buffer[..n])),
        Err(_) => panic!("the server kept a silent connection open"),
    }
}

/// A flood of connections that never send their head: the pages hold as many as they may (a
/// quarter of 256 open files), the rest wait in the accept queue, gRPC answers meanwhile, and
/// the header timeout cuts every one of them, none before its time.
#[tokio::test]
async fn a_silent_flood_is_cut_by_the_header_timeout_and_grpc_answers_through_it() {
    const FLOOD: usize = 200;
    const HELD: usize = 256 / 4;
    let timeout = Duration::from_millis(2_000);
    let served = Served::start(Some("-n 256"), &["--http-header-timeout-ms", "2000"]);
    let started = Instant::now();
    let mut flood = silent(served.pages, FLOOD).await;
    eventually("the pages to hold what they may and the rest of the flood to wait", || async {
        (served.waiting_for_the_pages() == FLOOD - HELD).then_some(())
    })
    .await;
    let mut client = CardroomClient::new(connect(&served.url()).await);
    let games = client.list_games(pb::ListGamesRequest {}).await.unwrap().into_inner();
    assert!(!games.games.is_empty());
    assert!(served.waiting_for_the_pages() > 0, "gRPC answered while the flood waited");
    // The first accepted is the first connected.
    closed_by_the_server(&mut flood[0]).await;
    let first_cut = started.elapsed();
    assert!(first_cut >= timeout, "cut after {first_cut:?}");
    for stream in &mut flood[1..] {
        closed_by_the_server(stream).await;
    }
    let all_cut = started.elapsed();
    // And the pages answer again.
    let (_, page) = get_from(Ipv4Addr::LOCALHOST, served.pages, "/server").await;
    assert!(page.starts_with("HTTP/1.1 200"), "{page}");
    eprintln!(
        "{FLOOD} silent connections: the first cut after {first_cut:?}, all after {all_cut:?}"
    );
}

/// With `--http-max-connections 4` held, a fifth connection is not accepted (it waits in the
/// kernel's accept queue, unanswered), and is answered once one of the four closes.
#[tokio::test]
async fn the_pages_connection_cap_holds_until_a_connection_closes() {
    let served =
        Served::start(None, &["--http-max-connections", "4", "--http-header-timeout-ms", "60000"]);
    let before = served.open_files();
    let mut held = silent(served.pages, 4).await;
    eventually("the four to be accepted", || async {
        (served.waiting_for_the_pages() == 0).then_some(())
    })
    .await;
    assert!(served.open_files() >= before + 4);
    let mut fifth = TcpStream::connect(served.pages).await.unwrap();
    let request =
        format!("GET /server HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n", served.pages);
    fifth.write_all(request.as_bytes()).await.unwrap();
    // A round trip through the server (gRPC), then the fifth is still unaccepted, unanswered.
    let mut client = CardroomClient::new(connect(&served.url()).await);
    client.list_games(pb::ListGamesRequest {}).await.unwrap();
    assert_eq!(served.waiting_for_the_pages(), 1);
    let mut buffer = [0; 4096];
    assert!(fifth.try_read(&mut buffer).is_err_and(|e| e.kind() == std::io::ErrorKind::WouldBlock));
    drop(held.pop());
    let mut page = String::new();
    tokio::time::timeout(MESSAGE_PATIENCE, fifth.read_to_string(&mut page)).await.unwrap().unwrap();
    assert!(page.starts_with("HTTP/1.1 200"), "{page}");
    assert_eq!(served.waiting_for_the_pages(), 0);
}

/// A request whose body stalls (`--http-body-timeout-ms 500`) is answered with an error once
/// the body has sent nothing for that long, and its connection closed.
#[tokio::test]
async fn a_stalled_body_is_cut_by_the_body_timeout() {
    let served = Served::start(None, &["--http-body-timeout-ms", "500"]);
    let mut stream = TcpStream::connect(served.pages).await.unwrap();
    let head = format!(
        "POST /ladders/duel/bots/someone/failures HTTP/1.1\r\nHost: {}\r\n\
         Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\nkey=",
        served.pages
    );
    let sent = Instant::now();
    stream.write_all(head.as_bytes()).await.unwrap();
    let mut answer = String::new();
    let read = tokio::time::timeout(MESSAGE_PATIENCE, stream.read_to_string(&mut answer)).await;
    read.unwrap().unwrap();
    assert!(answer.starts_with("HTTP/1.1 400"), "{answer}");
    assert!(sent.elapsed() >= Duration::from_millis(500), "answered after {:?}", sent.elapsed());
}

/// `--sse-max-streams 3 --sse-max-per-address 2`: a third stream from one address is a 429, a
/// fourth in all a 503, each at once with `Retry-After` and its flag named; a stream closed
/// makes room again.
#[tokio::test]
async fn live_streams_are_capped_in_all_and_by_address() {
    let served = Served::start(None, &["--sse-max-streams", "3", "--sse-max-per-address", "2"]);
    let live = |from: [u8; 4]| get_from(Ipv4Addr::from(from), served.pages, "/server/live");
    let is_stream =
        |read: &str| read.starts_with("HTTP/1.1 200") && read.contains("text/event-stream");
    let (first, read) = live([127, 0, 0, 1]).await;
    assert!(is_stream(&read), "{read}");
    let (_second, read) = live([127, 0, 0, 1]).await;
    assert!(is_stream(&read), "{read}");
    let by_address = "127.0.0.1 has its most live streams open (2, --sse-max-per-address)";
    assert_refused(&live([127, 0, 0, 1]).await.1, 429, by_address);
    let (_third, read) = live([127, 0, 0, 2]).await;
    assert!(is_stream(&read), "{read}");
    let in_all = "the server has its most live streams open (3, --sse-max-streams)";
    assert_refused(&live([127, 0, 0, 3]).await.1, 503, in_all);
    drop(first);
    eventually("a closed stream to make room", || async {
        let (stream, read) = live([127, 0, 0, 3]).await;
        is_stream(&read).then_some(stream)
    })
    .await;
}

/// `response` is a refusal with `status`, `Retry-After` and a body that says `why`.
fn assert_refused(response: &str, status: u16, why: &str) {
    assert!(response.starts_with(&format!("HTTP/1.1 {status}")), "{response}");
    assert!(response.to_ascii_lowercase().contains("retry-after: 10"), "{response}");
    assert!(response.contains(why), "{response}");
}

/// With a soft limit of 128 open files and a hard one of 256, the server raises its soft limit
/// to 256 and its pages take at most 64 connections: a flood of 300 silent connections to the
/// pages (held: a long header timeout) leaves room for 120 bots, each on a connection of its
/// own, to join their seats over gRPC.
#[tokio::test]
async fn grpc_seats_bots_while_the_pages_are_flooded() {
    const FLOOD: usize = 300;
    const HELD: usize = 256 / 4;
    const MATCHES: usize = 40;
    let served = Served::start(
        Some("-S -n 128 && ulimit -H -n 256"),
        &["--http-header-timeout-ms", "60000"],
    );
    assert_eq!(served.open_files_limits(), (256, 256));
    let _flood = silent(served.pages, FLOOD).await;
    eventually("the pages to hold what they may and the rest of the flood to wait", || async {
        (served.waiting_for_the_pages() == FLOOD - HELD).then_some(())
    })
    .await;
    let mut client = CardroomClient::new(connect(&served.url()).await);
    let mut bots = Vec::new();
    for seed in 0..MATCHES {
        let game = pb::Game::TwentyTwo;
        let (_, tokens) = cardroom_tests::create(&mut client, game, 3, "", seed as u64, None).await;
        for token in tokens {
            let mut bot = Bot::with_token(connect(&served.url()).await, &token).await.unwrap();
            let joined = tokio::time::timeout(MESSAGE_PATIENCE, bot.next()).await.unwrap();
            assert!(
                matches!(joined, Ok(Some(pb::server_message::Message::Joined(_)))),
                "{joined:?}"
            );
            bots.push(bot);
        }
    }
    assert_eq!(served.waiting_for_the_pages(), FLOOD - HELD, "the flood still waits");
    eprintln!(
        "{} bots seated beside {HELD} page connections: {} open files of 256",
        bots.len(),
        served.open_files()
    );
}
