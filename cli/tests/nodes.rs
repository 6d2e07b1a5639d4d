//! Three `cardroom serve` nodes on one PostgreSQL database (the test cluster of
//! `CARDROOM_TEST_PG`) run one hosted ladder of three-seat tables among six registered random
//! bots, two in each node's lobby, each the stock `random` binary started as README says on
//! its node only. No node ever has three bots: every table borrows bots from other nodes (one
//! pool), and every pair of bots meets. A node that does not lead the ladder is killed
//! (SIGKILL) while it hosts a match, then the leader; the ladder goes on, a standby takes the
//! ladder over, the restarted node hosts matches again, every match of a rated set is recorded
//! once, no set rated before a kill is lost, and the ratings equal a serial replay of the
//! stored results. Spectators reach a match through any node: listed, asked about
//! (`GetMatch`) and watched while it runs, and once over listed among the finished ones and its
//! record read (`GetRecord`), also once its node is dead. Each node keeps its records in a
//! directory of its own, so another node can answer only from the store. A bot lent to
//! another node and revoked mid-match forfeits there, saying why, and its stock runner stops.
//! A bot a node hosts in its sandbox (`--host-bots`), lent to another node's match, is frozen
//! there while another seat holds its turn, as on its own node.

#![allow(clippy::unwrap_used)] // A test fails loudly on an unexpected error.

use std::collections::{BTreeMap, HashSet};
use std::io::{BufRead as _, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use cardroom_proto::pb;
use cardroom_proto::pb::cardroom_client::CardroomClient;
use cardroom_rank::RatingSystem;
use cardroom_server::{NODE_METADATA, PROXIED_METADATA};
use cardroom_store::testing::{fresh_schema_url, test_pg_url};
use cardroom_store::{BotId, FailureKind, LadderId, LadderMatch, MatchState, Store};
use cardroom_tests::{assert_ratings_replay, eventually};
use nix::sys::signal::Signal;

mod support;

use support::StockBot;

const LADDER: &str = "name = \"trio\"\ngame = \"twenty_two\"\nseats = 3\nseed = 5\nrating = \"weng_lin\"\n\
                      max_concurrent = 2\nabsent_ms = 3000\nmax_matches = 3\n";

/// The ladder's `max_matches`: fewer than its bots could play at once (six bots of two
/// streams each make four tables of three).
const MAX_MATCHES: u32 = 3;

/// What a node's log says when it becomes the ladder's scheduler.
const LEADS: &str = "this node schedules the ladder";

/// One `cardroom serve` node: its process (killed when dropped), its address, and whether its
/// log has said it leads the ladder.
struct Node {
    process: Child,
    url: String,
    leads: Arc<Mutex<bool>>,
}

impl Node {
    /// A node on `addr` (`127.0.0.1:0`: a free port).
    fn start(addr: &str, store: &str, ladder: &Path, records: &Path) -> Node {
        Node::start_with(addr, store, ladder, records, &[])
    }

    /// A node on `addr`, with more `flags` of `cardroom serve`.
    fn start_with(
        addr: &str,
        store: &str,
        ladder: &Path,
        records: &Path,
        flags: &[&std::ffi::OsStr],
    ) -> Node {
        let mut process = Command::new(env!("CARGO_BIN_EXE_cardroom"))
            .args(["serve", "--addr", addr, "--registered-only", "--store", store])
            .arg("--ladder")
            .arg(ladder)
            .arg("--record-dir")
            .arg(records)
            .args(flags)
            .env("RUST_LOG", "info")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let url = format!("http://{}", support::listening_address(&mut process));
        let leads = Arc::new(Mutex::new(false));
        let stderr = process.stderr.take().unwrap();
        let seen = Arc::clone(&leads);
        // Read the whole log (a full pipe would stop the node), noting the leadership line.
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { return };
                if line.contains(LEADS) {
                    *seen.lock().unwrap() = true;
                }
            }
        });
        Node { process, url, leads }
    }

    fn leads(&self) -> bool {
        *self.leads.lock().unwrap()
    }

    fn kill(&mut self) {
        self.process.kill().unwrap();
        self.process.wait().unwrap();
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        let _ = self.process.kill();
        let _ = self.process.wait();
    }
}

/// Every running match `client`'s node lists, its own and the other nodes', two a page.
async fn running_listed(
    client: &mut CardroomClient<tonic::transport::Channel>,
) -> Vec<pb::MatchSummary> {
    let mut listed: Vec<pb::MatchSummary> = Vec::new();
    let mut page_token = String::new();
    loop {
        let request = pb::ListMatchesRequest {
            state: pb::MatchState::Running as i32,
            page_size: 2,
            page_token,
        };
        let page = client.list_matches(request).await.unwrap().into_inner();
        listed.extend(page.matches);
        if page.next_page_token.is_empty() {
            return listed;
        }
        page_token = page.next_page_token;
    }
}

/// The finished match `match_id` as the node `url` lists it, paging its finished matches
/// (its own, then those the other nodes recorded) two a page until it is listed.
async fn finished_listed(url: &str, match_id: &str) -> pb::MatchSummary {
    let mut client = CardroomClient::connect(url.to_owned()).await.unwrap();
    let mut page_token = String::new();
    loop {
        let request = pb::ListMatchesRequest {
            state: pb::MatchState::Finished as i32,
            page_size: 2,
            page_token,
        };
        let page = client.list_matches(request).await.unwrap().into_inner();
        if let Some(found) = page.matches.into_iter().find(|m| m.match_id == match_id) {
            return found;
        }
        assert!(!page.next_page_token.is_empty(), "match {match_id} not listed by {url}");
        page_token = page.next_page_token;
    }
}

/// `GetRecord` of `match_id`.
async fn record_of(
    client: &mut CardroomClient<tonic::transport::Channel>,
    match_id: &str,
) -> String {
    let asked = pb::GetRecordRequest { match_id: match_id.to_owned() };
    client.get_record(asked).await.unwrap().into_inner().record_json
}

/// Every match of the ladder's open and rated sets, by id.
async fn matches(store: &dyn Store, ladder: LadderId) -> BTreeMap<i64, LadderMatch> {
    let mut sets = store.open_sets(ladder).await.unwrap();
    sets.extend(store.rated_sets(ladder).await.unwrap());
    sets.into_iter().flat_map(|s| s.matches).map(|m| (m.id.0, m)).collect()
}

/// Which node (by index, from its address) hosted each server match seen running, by server
/// match id: what the test samples through the store as the ladder plays.
type Hosts = Arc<Mutex<BTreeMap<String, usize>>>;

/// The node (by index into `urls`) that hosts the running match `m` now: its lease owner's
/// advertised address, from the nodes' heartbeats.
async fn host_of(store: &dyn Store, urls: &[String], m: &LadderMatch) -> Option<usize> {
    let owner = m.lease_owner.as_deref()?;
    let nodes = store.nodes(0).await.unwrap();
    let node = nodes.iter().find(|n| n.beat.owner == owner)?;
    urls.iter().position(|url| *url == node.beat.advertise)
}

/// Waits until `more` sets more than now are rated.
async fn rated_more(store: &dyn Store, ladder: LadderId, more: usize, what: &str) {
    let now = store.rated_sets(ladder).await.unwrap().len();
    eventually(what, || async {
        (store.rated_sets(ladder).await.unwrap().len() >= now + more).then_some(())
    })
    .await;
}

#[test]
fn three_nodes_run_a_ladder_through_the_death_of_a_node_and_of_the_leader() {
    let Some(base) = test_pg_url("three_nodes_run_a_ladder") else { return };
    let dir = tempfile::tempdir().unwrap();
    let (ladder_path, records) = (dir.path().join("trio.toml"), dir.path().join("records"));
    std::fs::write(&ladder_path, LADDER).unwrap();
    let runtime =
        tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    runtime.block_on(async {
        let url = fresh_schema_url(&base).await.unwrap();
        let store = cardroom_store::open(&url).await.unwrap();
        let mut nodes: Vec<Node> = (0..3)
            .map(|i| Node::start("127.0.0.1:0", &url, &ladder_path, &records.join(format!("n{i}"))))
            .collect();
        // Two bots per node, each the stock `random` binary on its node only, as README starts
        // it, with two streams (`--concurrency 2`).
        let random = support::example_bot("random");
        let mut node_bots: Vec<Vec<BotId>> = Vec::new();
        let mut names = BTreeMap::new();
        let mut processes = Vec::new();
        for (i, node) in nodes.iter().enumerate() {
            let mut bots = Vec::new();
            for b in 0..2 {
                let name = format!("n{i}b{b}");
                let key = support::add_bot(&url, &name);
                let id = store.bot_credential(&name).await.unwrap().unwrap().account.id;
                names.insert(id, name.clone());
                bots.push(id);
                let args = ["--server", &node.url, "--lobby", &name, "--key", &key];
                let args = [&args[..], &["--matches", "0", "--concurrency", "2"]].concat();
                processes.push(StockBot::start(&format!("random as {name}"), &random, &args));
            }
            node_bots.push(bots);
        }
        let ladder = eventually("the ladder", || async {
            store.ladder("trio").await.unwrap().map(|l| l.id)
        })
        .await;
        let urls: Vec<String> = nodes.iter().map(|node| node.url.clone()).collect();
        // The most of the ladder's matches running at once on all nodes, and the node hosting
        // each match seen running, sampled throughout.
        let most_running = Arc::new(AtomicU32::new(0));
        let hosts: Hosts = Arc::default();
        let monitor = {
            let (store, most, hosts) =
                (Arc::clone(&store), Arc::clone(&most_running), Arc::clone(&hosts));
            let urls = urls.clone();
            tokio::spawn(async move {
                let mut every = tokio::time::interval(Duration::from_millis(20));
                loop {
                    every.tick().await;
                    if let Ok(running) = store.running_matches(ladder, now_ms()).await {
                        most.fetch_max(running, Ordering::Relaxed);
                    }
                    for m in matches(store.as_ref(), ladder).await.values() {
                        let Some(id) = m.server_match_id.clone() else { continue };
                        if m.state != MatchState::Running || hosts.lock().unwrap().contains_key(&id)
                        {
                            continue;
                        }
                        if let Some(host) = host_of(store.as_ref(), &urls, m).await {
                            hosts.lock().unwrap().insert(id, host);
                        }
                    }
                }
            })
        };
        let hosted_by = |host: usize, m: &LadderMatch| {
            let id = m.server_match_id.as_deref().unwrap_or_default();
            hosts.lock().unwrap().get(id) == Some(&host)
        };
        let leader = eventually("one leader", || async {
            let leading: Vec<usize> = (0..3).filter(|&i| nodes[i].leads()).collect();
            (leading.len() == 1).then(|| leading[0])
        })
        .await;
        // One pool: every pair of bots meets at a table, though no node has three bots, and
        // every node hosts matches, of bots from other nodes.
        let all_bots: Vec<BotId> = node_bots.concat();
        eventually("every pair of bots met, on every node", || async {
            let done: Vec<LadderMatch> = matches(store.as_ref(), ladder)
                .await
                .into_values()
                .filter(|m| m.state == MatchState::Done)
                .collect();
            let met = |a: BotId, b: BotId| {
                done.iter().any(|m| {
                    m.seats.iter().any(|s| s.bot == a) && m.seats.iter().any(|s| s.bot == b)
                })
            };
            let pairs = all_bots
                .iter()
                .enumerate()
                .flat_map(|(i, &a)| all_bots[i + 1..].iter().map(move |&b| (a, b)));
            let hosting = (0..3).all(|host| done.iter().any(|m| hosted_by(host, m)));
            (pairs.into_iter().all(|(a, b)| met(a, b)) && hosting).then_some(())
        })
        .await;

        // A match hosted on one node is listed by another, with its host, and watched through
        // it to its end; passed on once already, the request is NOT_FOUND naming the host.
        let (watched, end) = eventually("a match of another node listed and watched", || async {
            for m in matches(store.as_ref(), ladder).await.values() {
                let Some(server_id) = m.server_match_id.clone() else { continue };
                if m.state != MatchState::Running {
                    continue;
                }
                let Some(host) = host_of(store.as_ref(), &urls, m).await else { continue };
                let other = &nodes[(host + 1) % 3].url;
                let mut client = CardroomClient::connect(other.clone()).await.unwrap();
                let listed = running_listed(&mut client).await;
                // Not listed: it ended meanwhile; try another.
                let Some(summary) = listed.iter().find(|s| s.match_id == server_id) else {
                    continue;
                };
                assert_eq!(summary.host, nodes[host].url, "{summary:?}");
                let seated: Vec<&str> = summary.seats.iter().map(|s| s.bot_name.as_str()).collect();
                let planned: Vec<&str> = m.seats.iter().map(|s| names[&s.bot].as_str()).collect();
                assert_eq!(seated, planned);

                // Asked through the other node: the hosting node's answer, naming it.
                let asked = pb::GetMatchRequest { match_id: server_id.clone() };
                let answer = client.get_match(asked).await.unwrap();
                let named = answer.metadata().get(NODE_METADATA).and_then(|v| v.to_str().ok());
                assert_eq!(named, Some(nodes[host].url.as_str()), "{answer:?}");
                let info = answer.into_inner();
                assert_eq!(info.match_id, server_id);
                let asked: Vec<&str> = info.seats.iter().map(|s| s.bot_name.as_str()).collect();
                assert_eq!(asked, planned);

                let mut passed_on =
                    tonic::Request::new(pb::WatchRequest { match_id: server_id.clone() });
                passed_on.metadata_mut().insert(PROXIED_METADATA, "1".parse().unwrap());
                let Err(status) = client.watch(passed_on).await else {
                    panic!("match {server_id} watched on a node that does not host it, passed on")
                };
                assert_eq!(status.code(), tonic::Code::NotFound, "{status:?}");
                let named = status.metadata().get(NODE_METADATA).and_then(|v| v.to_str().ok());
                // Named unless it ended meanwhile.
                if let Some(named) = named {
                    assert_eq!(named, nodes[host].url, "{status:?}");
                    assert!(status.message().contains(&nodes[host].url), "{status:?}");
                }

                let asked = pb::WatchRequest { match_id: server_id.clone() };
                // Refused: it ended meanwhile; try another.
                let Ok(stream) = client.watch(asked).await else { continue };
                let mut stream = stream.into_inner();
                let mut last = None;
                while let Some(message) = stream.message().await.unwrap() {
                    last = Some(message);
                }
                let end = last.and_then(|message| message.end);
                return Some((
                    (m.id, host, server_id),
                    end.expect("the stream through another node ends with the end"),
                ));
            }
            None
        })
        .await;
        // What the spectator saw end is the result the hosting node stored.
        let stored = eventually("the watched match recorded", || async {
            let m = matches(store.as_ref(), ladder).await.remove(&watched.0.0)?;
            (m.state == MatchState::Done).then_some(m)
        })
        .await;
        assert!(!end.aborted, "{end:?}");
        for standing in &end.standings {
            let seat = &stored.seats[standing.seat as usize];
            assert_eq!(seat.place.map(u32::from), Some(standing.place), "{end:?}");
        }
        // Over, it is listed among the finished matches of another node with its host, and
        // its record read there is the one its node stored.
        let (_, host, server_id) = &watched;
        let other = &nodes[(host + 1) % 3].url;
        let listed = finished_listed(other, server_id).await;
        assert_eq!(listed.host, nodes[*host].url, "{listed:?}");
        assert_eq!(listed.end.as_ref().map(|e| &e.standings), Some(&end.standings));
        let mut client = CardroomClient::connect(other.clone()).await.unwrap();
        let record = record_of(&mut client, server_id).await;
        assert_eq!(Some(record), store.ladder_record(watched.0).await.unwrap());

        // Kill a node that does not lead while it hosts a match.
        let victim = (leader + 1) % 3;
        let running_on_victim = || async {
            let running: Vec<(i64, u32)> = matches(store.as_ref(), ladder)
                .await
                .values()
                .filter(|m| m.state == MatchState::Running && hosted_by(victim, m))
                .map(|m| (m.id.0, m.attempt))
                .collect();
            (!running.is_empty()).then_some(running)
        };
        // What it ran as it died (a match it finished before is done and not among them).
        let rated_before_kills = store.rated_sets(ladder).await.unwrap();
        let killed_running = support::kill_while_running(
            &mut nodes[victim].process,
            "a match running on the victim",
            running_on_victim,
        )
        .await;
        rated_more(store.as_ref(), ladder, 3, "sets rated without the killed node").await;
        // A match the dead node recorded: described and its record read from the store.
        let recorded = matches(store.as_ref(), ladder)
            .await
            .into_values()
            .find(|m| m.state == MatchState::Done && hosted_by(victim, m))
            .expect("a match the killed node recorded");
        let server_id = recorded.server_match_id.clone().unwrap();
        let mut client = CardroomClient::connect(nodes[leader].url.clone()).await.unwrap();
        let asked = pb::GetMatchRequest { match_id: server_id.clone() };
        let answer = client.get_match(asked).await.unwrap();
        let named = answer.metadata().get(NODE_METADATA).and_then(|v| v.to_str().ok());
        assert_eq!(named, Some(nodes[victim].url.as_str()), "{answer:?}");
        let info = answer.into_inner();
        assert!(info.over, "{info:?}");
        for standing in &info.end.as_ref().unwrap().standings {
            let seat = &recorded.seats[standing.seat as usize];
            assert_eq!(seat.place.map(u32::from), Some(standing.place), "{info:?}");
        }
        let record = record_of(&mut client, &server_id).await;
        assert_eq!(Some(record), store.ladder_record(recorded.id).await.unwrap());

        // Started again (a new process on the same address), its bots come back to it and it
        // hosts matches.
        let restarted_ms = now_ms();
        let addr = nodes[victim].url.trim_start_matches("http://").to_owned();
        nodes[victim] = Node::start(&addr, &url, &ladder_path, &records.join("restarted"));
        eventually("the restarted node hosting matches", || async {
            matches(store.as_ref(), ladder)
                .await
                .values()
                .any(|m| {
                    m.state == MatchState::Done
                        && hosted_by(victim, m)
                        && m.started_ms.is_some_and(|started| started > restarted_ms)
                })
                .then_some(())
        })
        .await;

        // Kill the leader: one of the two others takes the ladder over and it goes on.
        nodes[leader].kill();
        let standby = eventually("a standby leading", || async {
            (0..3).find(|&i| i != leader && nodes[i].leads())
        })
        .await;
        rated_more(store.as_ref(), ladder, 3, "sets rated by the new leader").await;
        monitor.abort();
        // Three nodes of three bots could run 9 at once: the ladder's cap holds across them.
        let most = most_running.load(Ordering::Relaxed);
        eprintln!(
            "at most {most} of the ladder's matches ran at once (max_matches = {MAX_MATCHES})"
        );
        assert!((1..=MAX_MATCHES).contains(&most), "{most} matches ran at once");
        for (i, node) in nodes.iter_mut().enumerate() {
            if i != leader {
                node.kill();
            }
        }

        // Every match of a rated set was recorded once: done, with its record, each its own
        // server match; the matches killed with their node were played again or voided; no set
        // rated before the kills was lost or changed.
        let rated = store.rated_sets(ladder).await.unwrap();
        for set in &rated_before_kills {
            assert!(rated.contains(set), "set {} rated before the kills is kept", set.index);
        }
        let mut server_ids = HashSet::new();
        for m in rated.iter().flat_map(|s| &s.matches) {
            assert_eq!(m.state, MatchState::Done, "match {} of a rated set", m.id.0);
            assert!(store.ladder_record(m.id).await.unwrap().is_some(), "match {}", m.id.0);
            let server_id = m.server_match_id.clone().unwrap();
            assert!(server_ids.insert(server_id), "match {} recorded once", m.id.0);
        }
        let now = matches(store.as_ref(), ladder).await;
        for (id, attempt) in &killed_running {
            if let Some(m) = now.get(id).filter(|m| m.state == MatchState::Done) {
                assert!(m.attempt > *attempt, "match {id} played again under a new claim");
            }
        }
        // Each rated set counted once, in set order, and the ratings are the replay's.
        let mut sets: Vec<u64> =
            store.rating_changes(ladder).await.unwrap().iter().map(|c| c.set_index).collect();
        sets.dedup();
        assert_eq!(sets, rated.iter().map(|s| s.index).collect::<Vec<_>>());
        assert_ratings_replay(store.as_ref(), ladder, RatingSystem::WengLin).await;
        assert_ne!(standby, leader);
        // Every bot process is still there, the killed nodes' bots waiting for them to return.
        for process in &processes {
            process.assert_running();
        }
    });
}

/// Milliseconds since the Unix epoch, as the store's times.
fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |since| since.as_millis() as i64)
}

/// Long matches of two seats, one bot a match at most.
const LONG_DUEL: &str = "name = \"long\"\ngame = \"twenty_two\"\noptions = { limit = 99 }\n\
                         seats = 2\nseed = 5\nmax_concurrent = 1\n";

#[test]
fn a_lent_bot_revoked_mid_match_forfeits_there_and_stops() {
    let Some(base) = test_pg_url("a_bot_lent_is_revoked") else { return };
    let dir = tempfile::tempdir().unwrap();
    let ladder_path = dir.path().join("long.toml");
    std::fs::write(&ladder_path, LONG_DUEL).unwrap();
    let runtime =
        tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    runtime.block_on(async {
        let url = fresh_schema_url(&base).await.unwrap();
        let store = cardroom_store::open(&url).await.unwrap();
        let records = |i: usize| dir.path().join(format!("records-{i}"));
        let nodes: Vec<Node> =
            (0..2).map(|i| Node::start("127.0.0.1:0", &url, &ladder_path, &records(i))).collect();
        let urls: Vec<String> = nodes.iter().map(|node| node.url.clone()).collect();
        // Ann waits on the first node, ben on the second: each of their matches borrows one.
        let random = support::example_bot("random");
        let names = ["ann", "ben"];
        let bots: Vec<StockBot> = names
            .iter()
            .zip(&nodes)
            .map(|(name, node)| {
                let key = support::add_bot(&url, name);
                let args =
                    ["--server", &node.url, "--lobby", name, "--key", &key, "--matches", "0"];
                StockBot::start(&format!("random as {name}"), &random, &args)
            })
            .collect();
        let ladder = eventually("the ladder", || async {
            store.ladder("long").await.unwrap().map(|l| l.id)
        })
        .await;
        // A match held mid-way: the bot that waits on its host stopped, so that the match waits
        // for it. The other bot is the lent one.
        let (running, lent) = eventually("a match held with a lent bot", || async {
            let open = store.open_sets(ladder).await.unwrap();
            let m = open
                .into_iter()
                .flat_map(|s| s.matches)
                .find(|m| m.state == MatchState::Running && m.server_match_id.is_some())?;
            let host = host_of(store.as_ref(), &urls, &m).await?;
            bots[host].signal(Signal::SIGSTOP);
            let mut client = CardroomClient::connect(urls[host].clone()).await.ok()?;
            let asked = pb::GetMatchRequest { match_id: m.server_match_id.clone()? };
            let info = client.get_match(asked).await.ok()?.into_inner();
            if info.over {
                // Over before it was held: the next one.
                bots[host].signal(Signal::SIGCONT);
                return None;
            }
            Some((m, 1 - host))
        })
        .await;
        let lent_id = store.bot_credential(names[lent]).await.unwrap().unwrap().account.id;

        // The lent bot is revoked on the store, by another process, as an operator does. Both
        // nodes read the change within a second: the node hosting the match forfeits its seat
        // and ends its stream there; the node where it waits ends its stream (if first) or
        // passes the end on; either way the bot is refused when it joins again, and stops.
        let revoked = Command::new(env!("CARGO_BIN_EXE_cardroom"))
            .args(["bots", "revoke", names[lent], "--store", &url])
            .output()
            .unwrap();
        assert!(revoked.status.success(), "{}", String::from_utf8_lossy(&revoked.stderr));
        eventually("the lent bot stopped", || async { bots[lent].exited().then_some(()) }).await;
        let said = bots[lent].tail();
        assert!(said.contains("was revoked"), "{said}");
        assert!(said.contains("waiting cannot change this, so the bot stops"), "{said}");
        bots[1 - lent].signal(Signal::SIGCONT);
        // The match's result is stored with the lent bot's forfeit, saying why.
        let failures = eventually("the match's result stored with the forfeit", || async {
            let failures = store.failures(ladder, lent_id, 10).await.unwrap();
            let forfeit = failures
                .iter()
                .any(|f| f.failure.kind == FailureKind::Forfeit && f.match_id == running.id);
            forfeit.then_some(failures)
        })
        .await;
        let forfeit = failures.iter().find(|f| f.failure.kind == FailureKind::Forfeit);
        assert!(
            forfeit.is_some_and(|f| f.failure.error.contains("was revoked")),
            "the failures say why: {failures:?}"
        );
        bots[1 - lent].assert_running();
    });
}

/// Long three-seat matches, one at a time a bot; a bot that fails is never paused.
const LONG_TRIO: &str = "name = \"trio\"\ngame = \"twenty_two\"\noptions = { limit = 99 }\n\
                         seats = 3\nseed = 5\nmax_concurrent = 1\n[health]\nmax_failures = 0\n";

/// Ann is submitted to the first node, which hosts her in its sandbox (`--host-bots`); ben and
/// cat, stock `random` bots, wait on the second. Every table seats the three, so the second
/// node hosts every match (most of its bots wait there) and borrows ann. While ben and cat are
/// stopped (SIGSTOP), the match waits on one of them, and ann's cgroup on the first node is
/// frozen: her relay there froze her after her act, as the second node's match task would on
/// its own node. What she wrote in the second node's matches is kept for her author with her
/// failures there.
#[test]
fn a_hosted_bot_lent_to_another_node_is_frozen_there_off_its_turn_and_its_output_kept() {
    let Some(base) = test_pg_url("a_hosted_bot_lent_is_frozen") else { return };
    let python = cardroom_tests::python();
    let dir = tempfile::tempdir().unwrap();
    let ladder_path = dir.path().join("trio.toml");
    std::fs::write(&ladder_path, LONG_TRIO).unwrap();
    let runtime =
        tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    runtime.block_on(async {
        let url = fresh_schema_url(&base).await.unwrap();
        let store = cardroom_store::open(&url).await.unwrap();
        let hosted_dir = dir.path().join("hosted");
        let flags = [
            "--host-bots".as_ref(),
            "--bot-python".as_ref(),
            python.as_os_str(),
            "--host-bots-dir".as_ref(),
            hosted_dir.as_os_str(),
        ];
        let records = |i: usize| dir.path().join(format!("records-{i}"));
        let mut hosting = Node::start_with("127.0.0.1:0", &url, &ladder_path, &records(0), &flags);
        let other = Node::start("127.0.0.1:0", &url, &ladder_path, &records(1));
        let urls = [hosting.url.clone(), other.url.clone()];
        let ann = support::add_bot(&url, "ann");
        let code = dir.path().join("ann");
        std::fs::create_dir_all(&code).unwrap();
        std::fs::write(code.join("bot.py"), support::LOUD_BOT).unwrap();
        let submitted = Command::new(env!("CARGO_BIN_EXE_cardroom"))
            .args(["bots", "submit", "ann"])
            .arg(&code)
            .args(["--run", "python3 bot.py", "--server", &hosting.url, "--key", &ann])
            .output()
            .unwrap();
        assert!(submitted.status.success(), "{}", String::from_utf8_lossy(&submitted.stderr));
        let random = support::example_bot("random");
        let bots: Vec<StockBot> = ["ben", "cat"]
            .iter()
            .map(|name| {
                let key = support::add_bot(&url, name);
                let args =
                    ["--server", &other.url, "--lobby", name, "--key", &key, "--matches", "0"];
                StockBot::start(&format!("random as {name}"), &random, &args)
            })
            .collect();
        let ladder = eventually("the ladder", || async {
            store.ladder("trio").await.unwrap().map(|l| l.id)
        })
        .await;
        let pid = hosting.process.id();
        eventually(
            "ann frozen in a match of the other node while it waits on ben or cat",
            || async {
                let open = store.open_sets(ladder).await.unwrap();
                let m = open
                    .into_iter()
                    .flat_map(|s| s.matches)
                    .find(|m| m.state == MatchState::Running && m.server_match_id.is_some())?;
                assert_eq!(
                    host_of(store.as_ref(), &urls, &m).await?,
                    1,
                    "two of three bots wait there"
                );
                for bot in &bots {
                    bot.signal(Signal::SIGSTOP);
                }
                let mut client = CardroomClient::connect(urls[1].clone()).await.ok()?;
                let asked = pb::GetMatchRequest { match_id: m.server_match_id.clone()? };
                let over = client.get_match(asked).await.ok()?.into_inner().over;
                // Ann acts at most once more before the match waits on a stopped bot.
                let frozen = !over
                    && support::eventually_quick(|| {
                        support::freezer_states(pid).iter().any(|state| state == "FROZEN")
                    });
                for bot in &bots {
                    bot.signal(Signal::SIGCONT);
                }
                frozen.then_some(())
            },
        )
        .await;
        // Ann plays on once they go on: she is thawed at her next turn.
        let played = |store: Arc<dyn Store>| async move {
            let sets = store.open_sets(ladder).await.unwrap();
            let rated = store.rated_sets(ladder).await.unwrap();
            sets.into_iter()
                .chain(rated)
                .flat_map(|s| s.matches)
                .filter(|m| m.state == MatchState::Done)
                .count()
        };
        let done = played(Arc::clone(&store)).await;
        eventually("a match more done", || async {
            (played(Arc::clone(&store)).await > done).then_some(())
        })
        .await;
        // Her failures in the other node's matches carry what she wrote there.
        let ann_id = store.bot_credential("ann").await.unwrap().unwrap().account.id;
        let output = support::failure_output(store.as_ref(), ladder, ann_id).await;
        assert!(output.contains("thinking aloud at turn"), "{output}");
        support::stop_gracefully(&mut hosting.process);
        assert_eq!(support::hosted_cgroups(pid), Vec::<String>::new(), "no hosted bot left");
    });
}
