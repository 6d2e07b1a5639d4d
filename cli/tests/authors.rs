//! Authors through the stock commands (issue 41): the organizer's `cardroom authors invite`, an
//! author's `cardroom authors join`, `add-bot`, `rotate-bot`, `retire-bot` and `bots submit
//! --author-token` against `cardroom serve`, with stock `random` bots playing on the keys the
//! authors got. Every refusal has its code and says why; two bots of one author never share
//! a table of the hosted ladder.

#![allow(clippy::unwrap_used)] // A test fails loudly on an unexpected error.

use std::collections::BTreeSet;

use cardroom_store::MatchState;
use cardroom_tests::eventually;

mod support;

use support::{StockBot, eventually_sync, example_bot, ok, refused};

/// The words, owned.
fn words(parts: &[&str]) -> Vec<String> {
    parts.iter().map(|part| (*part).to_owned()).collect()
}

/// Two-seat matches, the adaptive schedule: every pair the authors allow is played.
const LADDER: &str = "name = \"duel\"\ngame = \"twenty_two\"\noptions = { limit = 5 }\n\
                      seats = 2\nseed = 9\nmax_concurrent = 1\nscrimmages_per_hour = 3\n";

#[test]
fn authors_join_by_invite_manage_their_own_bots_and_never_share_a_table() {
    let dir = tempfile::tempdir().unwrap();
    let store_url = format!("sqlite:{}", dir.path().join("store.db").display());
    let ladder_path = dir.path().join("duel.toml");
    std::fs::write(&ladder_path, LADDER).unwrap();
    let records = dir.path().join("records");
    let (_served, url, pages) =
        support::serve_pages(&store_url, &[ladder_path.as_path()], &records, &[]);
    let server = ["--server", url.as_str()];

    // The organizer's invites; each makes one author, once.
    let invite = || ok(&["authors", "invite", "--store", &store_url]);
    let (first, second) = (invite(), invite());
    assert!(first.starts_with("cri_") && first != second, "{first} {second}");
    let join =
        |code: &str, name: &str| words(&[&["authors", "join", code, name][..], &server].concat());
    let ann = ok(&join(&first, "ann"));
    assert!(ann.starts_with("cra_"), "{ann}");
    refused(&join(&first, "bob"), &["PERMISSION_DENIED", "redeemed already"]);
    refused(&join("cri_nobodys", "bob"), &["UNAUTHENTICATED", "no invite has this code"]);
    refused(&join(&second, "ann"), &["ALREADY_EXISTS", "ann"]);
    let bob = ok(&join(&second, "bob"));

    // Each adds bots of their own, and manages only those.
    let as_author = |command: &str, bot: &str, token: &str| {
        words(&[&["authors", command, bot, "--token", token][..], &server].concat())
    };
    let mut keys = Vec::new();
    for (bot, token) in [("a1", &ann), ("a2", &ann), ("b1", &bob), ("b2", &bob)] {
        let key = ok(&as_author("add-bot", bot, token));
        assert!(key.starts_with("crk_"), "{key}");
        keys.push((bot, key));
    }
    refused(&as_author("rotate-bot", "a1", &bob), &["PERMISSION_DENIED", "not a bot of \"bob\""]);
    refused(&as_author("retire-bot", "a1", &bob), &["PERMISSION_DENIED", "not a bot of \"bob\""]);
    refused(&as_author("add-bot", "c1", "cra_nobodys"), &["UNAUTHENTICATED", "no author's"]);
    // An author never needs the admin token; a wrong admin token is refused as before.
    let shown = ok(&[&["authors", "show", "ann"][..], &server].concat());
    let bots: Vec<&str> =
        shown.lines().skip(1).filter_map(|l| l.split_whitespace().next()).collect();
    assert_eq!(bots, ["a1", "a2"], "{shown}");
    // Her own bot's code, submitted with her token; never another's.
    let code = dir.path().join("code");
    std::fs::create_dir_all(&code).unwrap();
    std::fs::write(code.join("bot.py"), "print('hi')\n").unwrap();
    let code = code.display().to_string();
    let submit = |bot: &str, token: &str| {
        let head = ["bots", "submit", bot, &code, "--run", "python3 bot.py", "--author-token"];
        words(&[&head[..], &[token], &server].concat())
    };
    let submitted = ok(&submit("a1", &ann));
    assert!(submitted.contains("a1 version"), "{submitted}");
    refused(&submit("b1", &ann), &["PERMISSION_DENIED", "not a bot of \"ann\""]);
    // A new token for bob: the old one stops working at once.
    let old = bob.clone();
    let bob = ok(&words(&[&["authors", "rotate-token", "--token", &old][..], &server].concat()));
    assert!(bob.starts_with("cra_") && bob != old, "{bob}");
    refused(&as_author("rotate-bot", "b2", &old), &["UNAUTHENTICATED", "no author's"]);
    // A rotated key: the old one stops working, and the author's new one plays.
    let rotated = ok(&as_author("rotate-bot", "b2", &bob));
    keys[3].1 = rotated;

    let random = example_bot("random");
    let _bots: Vec<StockBot> = keys
        .iter()
        .map(|(bot, key)| {
            let args = ["--server", &url, "--lobby", bot, "--key", key, "--matches", "0"];
            StockBot::start(&format!("random as {bot}"), &random, &args)
        })
        .collect();
    let runtime =
        tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    runtime.block_on(async {
        let store = cardroom_store::open(&store_url).await.unwrap();
        let ladder = eventually("the ladder", || async {
            store.ladder("duel").await.unwrap().map(|l| l.id)
        })
        .await;
        let bots = store.bots().await.unwrap();
        let names: std::collections::HashMap<_, _> =
            bots.into_iter().map(|b| (b.id, b.name)).collect();
        // Every pair of two authors' bots is played; no pair of one author's ever sits.
        let tables = eventually("every cross pair played", || async {
            let sets = store.rated_sets(ladder).await.unwrap();
            let tables: BTreeSet<(String, String)> = sets
                .iter()
                .flat_map(|set| &set.matches)
                .filter(|m| m.state == MatchState::Done)
                .map(|m| {
                    let mut pair: Vec<String> =
                        m.seats.iter().map(|s| names[&s.bot].clone()).collect();
                    pair.sort();
                    (pair[0].clone(), pair[1].clone())
                })
                .collect();
            (tables.len() >= 4).then_some(tables)
        })
        .await;
        let cross: BTreeSet<(String, String)> =
            [("a1", "b1"), ("a1", "b2"), ("a2", "b1"), ("a2", "b2")]
                .iter()
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect();
        assert_eq!(tables, cross, "only the cross pairs, each of them");
        let open = store.open_sets(ladder).await.unwrap();
        for set in open {
            let mut bots: Vec<&str> = set.bots.iter().map(|b| names[b].as_str()).collect();
            bots.sort();
            assert_ne!(bots[0].chars().next(), bots[1].chars().next(), "planned: {bots:?}");
        }
    });
    // Scrimmages: her own bot against named opponents or the top, within the quota; never
    // rated; their results and records for her alone.
    let scrim = |bot: &str, against: &[&str], token: &str| {
        let mut args = vec!["scrim", "duel", bot];
        for opponent in against {
            args.extend(["--against", opponent]);
        }
        words(&[&args[..], &["--token", token], &server].concat())
    };
    refused(&scrim("b1", &["a1"], &ann), &["PERMISSION_DENIED", "not a bot of \"ann\""]);
    refused(&scrim("a1", &["nobody"], &ann), &["NOT_FOUND", "no bot \"nobody\""]);
    let asked = ok(&scrim("a1", &["b1", "b2"], &ann));
    assert_eq!(asked.lines().count(), 3, "a header and two scrimmages: {asked}");
    ok(&words(&[&["scrim", "duel", "a2", "--top", "1", "--token", &ann][..], &server].concat()));
    refused(&scrim("a1", &["b1"], &ann), &["RESOURCE_EXHAUSTED", "quota of 3 an hour"]);
    let list = |token: &str| {
        words(&[&["scrims", "--format", "csv", "--token", token][..], &server].concat())
    };
    let listed = eventually_sync("three scrimmages played", || {
        let listed = ok(&list(&ann));
        let done = listed.lines().filter(|line| line.contains(",done,")).count();
        (done == 6).then_some(listed)
    });
    assert!(listed.contains("a1 b1") && listed.contains("a1 b2"), "{listed}");
    assert!(!ok(&list(&bob)).contains("a1"), "bob sees none of ann's");
    let scrimmage = listed.lines().nth(1).unwrap().split(',').next().unwrap().to_owned();
    let record_path = dir.path().join("scrim.json");
    let record = |token: &str| {
        let which = format!("{scrimmage}/1");
        let path = record_path.display().to_string();
        let head = ["scrims", "--record", &which, "--out", &path, "--token", token];
        words(&[&head[..], &server].concat())
    };
    refused(&record(&bob), &["PERMISSION_DENIED", "another author's"]);
    ok(&record(&ann));
    let replayed = ok(&["replay", &record_path.display().to_string()]);
    assert!(!replayed.is_empty());
    // Never rated: no set of the ladder holds a scrimmage's match.
    runtime.block_on(async {
        let store = cardroom_store::open(&store_url).await.unwrap();
        let ladder = store.ladder("duel").await.unwrap().unwrap().id;
        let mut sets = store.rated_sets(ladder).await.unwrap();
        sets.extend(store.open_sets(ladder).await.unwrap());
        let ids: BTreeSet<String> = sets
            .iter()
            .flat_map(|s| &s.matches)
            .filter_map(|m| m.server_match_id.clone())
            .collect();
        for line in listed.lines().skip(1) {
            let scrim_match = line.split(',').nth(5).unwrap_or_default();
            assert!(!ids.iter().any(|id| id.is_empty() || id == scrim_match), "{line}");
        }
    });

    // A bot's page names its author, and links to her page, which lists her bots.
    let page = support::get(&pages, "/ladders/duel/bots/a1");
    assert!(page.contains("By <a class=\"author\" href=\"/authors/ann\">ann</a>"), "{page}");
    let page = support::get(&pages, "/authors/ann");
    let row = |bot: &str| format!("<td class=\"name\">{bot}</td>");
    assert!(page.contains(&row("a1")) && page.contains(&row("a2")), "{page}");
    assert!(!page.contains(&row("b1")), "{page}");
    // a1's code was submitted: its version is its latest.
    assert!(page.contains("latest version") && page.contains("class=\"version\""), "{page}");
    // The pages' join form: a used code is refused, saying why; a fresh one makes an author
    // whose token works at once.
    let form = support::get(&pages, "/join");
    assert!(form.contains("name=\"code\""), "{form}");
    let third = invite();
    runtime.block_on(async {
        let used = format!("code={first}&name=carol");
        let (status, page) = support::post_form(&pages, "/join", &used).await;
        assert_eq!(status, 400, "{page}");
        assert!(page.contains("redeemed already"), "{page}");
        let fresh = format!("code={third}&name=carol");
        let (status, page) = support::post_form(&pages, "/join", &fresh).await;
        assert_eq!(status, 200, "{page}");
        assert!(page.to_ascii_lowercase().contains("cache-control: no-store"), "{page}");
        let token = page.split("cra_").nth(1).unwrap().chars().take(64).collect::<String>();
        let key = ok(&as_author("add-bot", "c1", &format!("cra_{token}")));
        assert!(key.starts_with("crk_"), "{key}");
        // The bot page's scrimmage form, with the author's token.
        let form = "/ladders/duel/bots/b1/scrimmage";
        let (status, page) =
            support::post_form(&pages, form, "token=cra_nobodys&opponents=a1").await;
        assert_eq!(status, 401, "{page}");
        assert!(page.contains("no author"), "{page}");
        let theirs = format!("token={ann}&opponents=a1");
        let (status, page) = support::post_form(&pages, form, &theirs).await;
        assert_eq!(status, 403, "{page}");
        assert!(page.contains("not a bot of"), "{page}");
        let own = format!("token={bob}&opponents=a1");
        let (status, page) = support::post_form(&pages, form, &own).await;
        assert_eq!(status, 200, "{page}");
        assert!(page.contains("1 scrimmage(s) asked for"), "{page}");
    });
    let listed = ok(&list(&bob));
    assert!(listed.contains("b1 a1"), "bob's scrimmage from the page: {listed}");
}
