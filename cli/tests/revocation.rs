//! A revoked or replaced key bites at once, wherever it was changed: two stock `random` bots
//! play a hosted ladder (`random --lobby NAME --key KEY --matches 0`). `cardroom bots revoke`
//! on the store (another process than the server) ends the stream of the one playing: its seat
//! forfeits under the game's rule, the match's failures say why, and the bot stops on the
//! refusal that follows, saying so. `RotateBotKey` (the admin rpc) ends the stream of the one
//! waiting in the lobby, and that bot stops too: its old key is refused.

#![allow(clippy::unwrap_used)] // A test fails loudly on an unexpected error.

use std::process::Command;

use cardroom_proto::pb;
use cardroom_store::{FailureKind, MatchState};
use cardroom_tests::eventually;
use nix::sys::signal::Signal;

mod support;

use support::{StockBot, add_bot, example_bot, serve_ladder};

/// Long matches (a limit of 99 points), so that the revocation comes mid-match.
const LADDER: &str = "name = \"duel\"\ngame = \"twenty_two\"\noptions = { limit = 99 }\n\
                      seats = 2\nseed = 5\nmax_concurrent = 1\n";

#[test]
fn a_revoked_or_replaced_key_ends_the_bots_streams_playing_or_waiting() {
    let dir = tempfile::tempdir().unwrap();
    let store_url = format!("sqlite:{}", dir.path().join("store.db").display());
    let ladder = dir.path().join("duel.toml");
    std::fs::write(&ladder, LADDER).unwrap();
    let (ann, ben) = (add_bot(&store_url, "ann"), add_bot(&store_url, "ben"));
    let records = dir.path().join("records");
    let (server, listening) =
        serve_ladder("127.0.0.1:0", &store_url, &ladder, &records, &["--admin-token", "T"]);
    let url = format!("http://{listening}");
    let random = example_bot("random");
    let start = |name: &str, key: &str| {
        let args = ["--server", &url, "--lobby", name, "--key", key, "--matches", "0"];
        StockBot::start(&format!("random as {name}"), &random, &args)
    };
    let (ann_bot, ben_bot) = (start("ann", &ann), start("ben", &ben));
    let runtime =
        tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    runtime.block_on(async {
        let store = cardroom_store::open(&store_url).await.unwrap();
        let mut client = pb::cardroom_client::CardroomClient::connect(url.clone()).await.unwrap();
        // Mid-match: some turns played.
        let running = eventually("a match under way", || {
            let mut client = client.clone();
            async move {
                let request = pb::ListMatchesRequest {
                    state: pb::MatchState::Running as i32,
                    ..Default::default()
                };
                let listed = client.list_matches(request).await.ok()?.into_inner();
                let id = listed.matches.first()?.match_id.clone();
                let info =
                    client.get_match(pb::GetMatchRequest { match_id: id }).await.ok()?.into_inner();
                (info.seats.iter().map(|s| s.think_us.len()).sum::<usize>() >= 6).then_some(info)
            }
        })
        .await;
        let seat = running.seats.iter().position(|s| s.bot_name == "ann").unwrap();

        // Ben held still, the match waits for him: ann is revoked mid-match, on the store, by
        // another process, as an operator does.
        ben_bot.signal(Signal::SIGSTOP);
        let revoked = Command::new(env!("CARGO_BIN_EXE_cardroom"))
            .args(["bots", "revoke", "ann", "--store", &store_url])
            .output()
            .unwrap();
        assert!(revoked.status.success(), "{}", String::from_utf8_lossy(&revoked.stderr));
        eventually("ann's seat forfeited while the match runs", || {
            let mut client = client.clone();
            let match_id = running.match_id.clone();
            async move {
                let info = client.get_match(pb::GetMatchRequest { match_id }).await.ok()?;
                let info = info.into_inner();
                assert!(!info.over, "the match ended before the revocation: {info:?}");
                (info.seats[seat].forfeited && !info.seats[seat].connected).then_some(())
            }
        })
        .await;
        ben_bot.signal(Signal::SIGCONT);
        let info = eventually("the match over, ann's seat forfeited", || {
            let mut client = client.clone();
            let match_id = running.match_id.clone();
            async move {
                let info = client.get_match(pb::GetMatchRequest { match_id }).await.ok()?;
                Some(info.into_inner()).filter(|info| info.over)
            }
        })
        .await;
        assert!(info.seats[seat].forfeited, "{info:?}");
        let end = info.end.unwrap();
        assert!(!end.aborted, "{end:?}");
        let last = end.standings.iter().map(|s| s.place).max().unwrap();
        assert_eq!(end.standings.iter().find(|s| s.seat as usize == seat).unwrap().place, last);
        // The bot saw why, tried again, was refused and stopped saying so.
        eventually("ann's bot stopped", || async { ann_bot.exited().then_some(()) }).await;
        let said = ann_bot.tail();
        assert!(said.contains("was revoked"), "{said}");
        assert!(said.contains("waiting cannot change this, so the bot stops"), "{said}");
        // The result says why the seat was lost.
        let ladder = store.ladder("duel").await.unwrap().unwrap().id;
        let ann_id = store.bot_credential("ann").await.unwrap().unwrap().account.id;
        let failures = eventually("the match's result stored", || async {
            let sets = store.open_sets(ladder).await.unwrap();
            let sets = [sets, store.rated_sets(ladder).await.unwrap()].concat();
            let done = sets.iter().flat_map(|s| &s.matches).any(|m| {
                m.state == MatchState::Done
                    && m.server_match_id.as_deref() == Some(running.match_id.as_str())
            });
            done.then_some(())?;
            let failures = store.failures(ladder, ann_id, 10).await.unwrap();
            Some(failures)
        })
        .await;
        let forfeit = failures.iter().find(|f| f.failure.kind == FailureKind::Forfeit);
        assert!(
            forfeit.is_some_and(|f| f.failure.error.contains("was revoked")),
            "the failures say why: {failures:?}"
        );

        // Ben waits in the lobby (nobody left to play): its key is replaced through the rpc.
        let mut request = tonic::Request::new(pb::RotateBotKeyRequest { name: "ben".into() });
        request.metadata_mut().insert("authorization", "Bearer T".parse().unwrap());
        client.rotate_bot_key(request).await.unwrap();
        eventually("ben's bot stopped", || async { ben_bot.exited().then_some(()) }).await;
        let said = ben_bot.tail();
        assert!(said.contains("was replaced"), "{said}");
        assert!(said.contains("waiting cannot change this, so the bot stops"), "{said}");
    });
    drop(server);
}
