//! A real browser for the pages' tests: Debian's headless Chromium driven through chromedriver
//! (WebDriver), with no network but the loopback. chromedriver is found on `PATH` (or
//! `CARDROOM_CHROMEDRIVER`); without it a test fails saying how to install it
//! (`apt-get install -y chromium chromium-driver`; CI does).

use std::path::PathBuf;
use std::process::Stdio;

use std::collections::BTreeSet;

use cardroom_games::{Card, Record, Seat, twenty_two};
use fantoccini::{Client, ClientBuilder};
use tokio::io::{AsyncBufReadExt as _, BufReader};
use tokio::process::{Child, Command};

/// A program on `PATH`, or at the path in `var`.
pub fn find_program(var: &str, name: &str) -> Option<PathBuf> {
    if let Some(path) = std::env::var_os(var) {
        return Some(PathBuf::from(path));
    }
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|dir| dir.join(name))
        .find(|path| path.is_file())
}

/// chromedriver on a free port of 127.0.0.1, ready once it says so.
pub async fn start_chromedriver() -> (Child, u16) {
    let Some(driver) = find_program("CARDROOM_CHROMEDRIVER", "chromedriver") else {
        panic!(
            "chromedriver is not installed: `apt-get install -y chromium chromium-driver` \
             (or set CARDROOM_CHROMEDRIVER to its path); this test drives a real browser"
        );
    };
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .expect("a free port on the loopback")
        .port();
    let mut child = Command::new(&driver)
        .arg(format!("--port={port}"))
        .arg("--allowed-ips=127.0.0.1")
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .kill_on_drop(true)
        .spawn()
        .unwrap_or_else(|e| panic!("starting {}: {e}", driver.display()));
    let mut lines = BufReader::new(child.stdout.take().expect("its stdout is piped")).lines();
    while let Ok(Some(line)) = lines.next_line().await {
        if line.contains("started successfully") {
            // Keep draining its output so that it never blocks on a full pipe.
            tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
            return (child, port);
        }
    }
    panic!("chromedriver exited before it was ready");
}

/// A session of headless Chromium, with a fresh profile and nothing that reaches the network.
pub async fn browser(port: u16, profile: &std::path::Path) -> Client {
    let mut args = vec![
        "--headless".to_owned(),
        "--no-sandbox".to_owned(),
        "--disable-gpu".to_owned(),
        "--disable-background-networking".to_owned(),
        "--disable-component-update".to_owned(),
        "--disable-sync".to_owned(),
        "--no-first-run".to_owned(),
        "--disable-quic".to_owned(),
        format!("--user-data-dir={}", profile.display()),
    ];
    args.push("--window-size=1280,1000".to_owned());
    let mut options = serde_json::json!({ "args": args });
    if let Some(chromium) = find_program("CARDROOM_CHROMIUM", "chromium") {
        options["binary"] = serde_json::json!(chromium);
    }
    let mut capabilities = serde_json::Map::new();
    capabilities.insert("goog:chromeOptions".to_owned(), options);
    let connector = hyper_util::client::legacy::connect::HttpConnector::new();
    ClientBuilder::new(connector)
        .capabilities(capabilities)
        .connect(&format!("http://127.0.0.1:{port}"))
        .await
        .expect("a Chromium session through chromedriver")
}

/// The cards a page or an event stream shows, in any form the pages write one: a card drawn
/// (`data-card="TH"`) or named as people read it (`10♥`, the events' text).
pub fn cards_shown(text: &str) -> BTreeSet<Card> {
    Card::pack()
        .filter(|card| {
            text.contains(&format!("data-card=\"{}\"", card.code()))
                || text.contains(&card.to_string())
        })
        .collect()
}

/// Every card a Twenty-Two record lets a viewer see: `seat`'s observation (a spectator's
/// public view for `None`) after the deal and after each action, and every play laid face up
/// (TT-24). A card outside it was hidden from that viewer for the whole match.
pub fn ever_seen(record: &Record<twenty_two::State>, seat: Option<Seat>) -> BTreeSet<Card> {
    let mut state = record.initial_state().expect("the record replays");
    let mut seen = BTreeSet::new();
    let note = |state: &twenty_two::State, seen: &mut BTreeSet<Card>| {
        let json = match seat {
            Some(seat) => serde_json::to_string(&state.observation(seat)),
            None => serde_json::to_string(&state.public_view()),
        };
        let json = json.expect("a view is JSON");
        seen.extend(Card::pack().filter(|c| json.contains(&format!("\"{}\"", c.code()))));
    };
    note(&state, &mut seen);
    for recorded in &record.actions {
        if let twenty_two::Action::Play(cards) = recorded.action {
            seen.extend(cards.as_slice().iter().copied());
        }
        state.apply(recorded.seat, recorded.action).expect("the record replays");
        note(&state, &mut seen);
    }
    seen
}
