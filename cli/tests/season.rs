//! A season from start to finish through the stock commands (issue 41): `cardroom serve
//! --host-bots` with a Gin Rummy ladder; three authors join by invite and add two bots each;
//! each bot is submitted twice (`cardroom bots submit --author-token`): one author's first bot
//! plays the example heuristic, every other bot plays random moves. The organizer puts the
//! season on the server (`cardroom seasons create`), authors scrimmage, and the organizer moves
//! the deadline so that it passes during the run. Then the versions are frozen (a submission
//! is refused, saying why), the finals start by themselves among the ladder's top two, and
//! settle; the final standings, the events (an author's own and the public ones) and the
//! season's pages say so. Every refusal on the way has its code and says why.
//!
//! It needs root (bubblewrap's namespaces, cgroups v1) and `CARDROOM_PYTHON`, as `.ci/run`
//! gives it.

#![allow(clippy::unwrap_used)] // A test fails loudly on an unexpected error.

use std::collections::HashMap;
use std::path::Path;

use cardroom_store::MatchState;
use cardroom_tests::eventually;

mod support;

use support::{LogOnFailure, eventually_sync, ok, refused, serve_hosting};

/// Short Gin Rummy matches (to 10 points, at most 3 hands), one at a time a bot; a
/// scrimmage an hour an author; failures never pause.
const LADDER: &str = "name = \"gin-open\"\ngame = \"gin\"\noptions = { target = 10, max_hands = 3 }\n\
                      seats = 2\nseed = 5\nmax_concurrent = 1\nmove_ms = 5000\nbank_ms = 60000\n\
                      scrimmages_per_hour = 1\n[health]\nmax_failures = 0\n";

/// A bot that plays a random legal action.
const RANDOM_BOT: &str = "import random\nimport sys\nimport cardroom\n\n\
                          class Random(cardroom.Bot):\n    \
                          def choose(self, turn):\n        \
                          return random.randrange(len(turn.legal_actions))\n\n\
                          sys.exit(cardroom.main(Random()))\n";

/// A bot's code in a directory of its own: the example heuristic, or random moves; `note`
/// written beside it (a new note, a new version).
fn code(dir: &Path, name: &str, heuristic: bool, note: &str) -> String {
    let code = dir.join(name);
    std::fs::create_dir_all(&code).unwrap();
    if heuristic {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        std::fs::copy(root.join("example-bots/python/gin_bot.py"), code.join("bot.py")).unwrap();
    } else {
        std::fs::write(code.join("bot.py"), RANDOM_BOT).unwrap();
    }
    std::fs::write(code.join("NOTE"), note).unwrap();
    code.display().to_string()
}

/// The season's file, its deadline `deadline_ms`, its events posted to `webhook`.
fn season_file(deadline_ms: i64, webhook: &str) -> String {
    let deadline = cardroom_server::rfc3339(deadline_ms);
    format!(
        "name = \"winter\"\nladders = [\"gin-open\"]\ndeadline = \"{deadline}\"\n\
         notice_minutes = 10\nwebhook = \"{webhook}\"\n[finals]\ntop = 2\nmax_sets = 80\n"
    )
}

/// The organizer's end of the webhook: an HTTP server on a free loopback port that keeps the
/// body of every POST, and answers the first with 500 (a failure the season tries again) and
/// the others with 204. Its URL, and the bodies as they come.
fn webhook_receiver() -> (String, std::sync::mpsc::Receiver<serde_json::Value>) {
    use std::io::{BufRead as _, Read as _, Write as _};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/hook", listener.local_addr().unwrap());
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for (n, stream) in listener.incoming().enumerate() {
            let mut stream = std::io::BufReader::new(stream.unwrap());
            let mut length = 0;
            loop {
                let mut line = String::new();
                stream.read_line(&mut line).unwrap();
                if line.trim().is_empty() {
                    break;
                }
                if let Some((name, value)) = line.split_once(':')
                    && name.eq_ignore_ascii_case("content-length")
                {
                    length = value.trim().parse().unwrap();
                }
            }
            let mut body = vec![0; length];
            stream.read_exact(&mut body).unwrap();
            let status = if n == 0 { "500 Internal Server Error" } else { "204 No Content" };
            let answer =
                format!("HTTP/1.1 {status}\r\ncontent-length: 0\r\nconnection: close\r\n\r\n");
            stream.get_mut().write_all(answer.as_bytes()).unwrap();
            if n > 0 && tx.send(serde_json::from_slice(&body).unwrap()).is_err() {
                return;
            }
        }
    });
    (url, rx)
}

fn now_ms() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as i64
}

#[test]
fn a_season_of_six_bots_from_three_authors_closes_at_its_deadline_and_its_finals_settle() {
    let python = cardroom_tests::python();
    let dir = tempfile::tempdir().unwrap();
    let store_url = format!("sqlite:{}", dir.path().join("store.db").display());
    let ladder_path = dir.path().join("gin-open.toml");
    std::fs::write(&ladder_path, LADDER).unwrap();
    let log_path = dir.path().join("server.log");
    let _log = LogOnFailure { path: log_path.clone(), whose: "the server" };
    let mut server = serve_hosting(&python, dir.path(), &store_url, &ladder_path, &log_path, &[]);
    let (url, pages) = support::addresses(&mut server);
    let server = ["--server", url.as_str()];
    let with_server = |args: &[&str]| -> Vec<String> {
        args.iter().chain(server.iter()).map(|a| (*a).to_owned()).collect()
    };

    // The organizer's season: a file naming a ladder the server lacks, or a wrong admin token,
    // is refused; the deadline is two hours off.
    let season_path = dir.path().join("winter.toml");
    let (webhook, posted) = webhook_receiver();
    let create = |token: &str| {
        with_server(&[
            "seasons",
            "create",
            &season_path.display().to_string(),
            "--admin-token",
            token,
        ])
    };
    std::fs::write(
        &season_path,
        season_file(now_ms() + 7_200_000, &webhook).replace("gin-open", "nope"),
    )
    .unwrap();
    refused(&create("T"), &["INVALID_ARGUMENT", "`ladders` names \"nope\""]);
    std::fs::write(&season_path, season_file(now_ms() + 7_200_000, &webhook)).unwrap();
    refused(&create("wrong"), &["UNAUTHENTICATED"]);
    let made = ok(&create("T"));
    assert!(made.contains("season winter is open"), "{made}");

    // Three authors, two bots each, each submitted twice with its author's token.
    let mut tokens = HashMap::new();
    for author in ["ann", "bob", "cat"] {
        let code = ok(&["authors", "invite", "--store", &store_url]);
        let token = ok(&with_server(&["authors", "join", &code, author]));
        for n in 1..=2 {
            let bot = format!("{author}-{n}");
            ok(&with_server(&["authors", "add-bot", &bot, "--token", &token]));
        }
        tokens.insert(author, token);
    }
    let submit = |bot: &str, token: &str, version: &str| {
        let heuristic = bot == "ann-1";
        let code = code(dir.path(), &format!("{bot}-{version}"), heuristic, version);
        let head = ["bots", "submit", bot, code.as_str(), "--run", "python3 bot.py"];
        let args: Vec<&str> = head.into_iter().chain(["--author-token", token]).collect();
        with_server(&args)
    };
    refused(&submit("bob-1", &tokens["ann"], "v1"), &["PERMISSION_DENIED", "not a bot of \"ann\""]);
    for author in ["ann", "bob", "cat"] {
        for n in 1..=2 {
            let bot = format!("{author}-{n}");
            for version in ["v1", "v2"] {
                let said = ok(&submit(&bot, &tokens[author], version));
                assert!(said.contains(&format!("{bot} version")), "{said}");
            }
        }
    }

    let runtime =
        tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let store = runtime.block_on(cardroom_store::open(&store_url)).unwrap();
    let names: HashMap<_, _> =
        runtime.block_on(store.bots()).unwrap().into_iter().map(|b| (b.id, b.name)).collect();
    let ladder = runtime.block_on(store.ladder("gin-open")).unwrap().unwrap().id;
    // The ladder plays every bot; the heuristic comes first.
    runtime.block_on(eventually("every bot rated, the heuristic first", || async {
        let lines = store.leaderboard(ladder).await.unwrap();
        let standings = store.standings(ladder).await.unwrap()?;
        let first = names[&standings.rows.first()?.bot].as_str();
        (lines.len() == 6 && lines.iter().all(|l| l.sets_rated >= 1) && first == "ann-1")
            .then_some(())
    }));

    // Scrimmages: bob's, within his quota of one an hour; never another's bot.
    let scrim = |bot: &str, against: &str, token: &str| {
        with_server(&["scrim", "gin-open", bot, "--against", against, "--token", token])
    };
    refused(
        &scrim("ann-1", "bob-1", &tokens["bob"]),
        &["PERMISSION_DENIED", "not a bot of \"bob\""],
    );
    ok(&scrim("bob-1", "cat-1", &tokens["bob"]));
    refused(
        &scrim("bob-2", "cat-1", &tokens["bob"]),
        &["RESOURCE_EXHAUSTED", "quota of 1 an hour"],
    );
    eventually_sync("bob's scrimmage played", || {
        let listed = ok(&with_server(&["scrims", "--format", "csv", "--token", &tokens["bob"]]));
        (listed.lines().filter(|line| line.contains(",done,")).count() == 2).then_some(())
    });

    // The organizer moves the deadline: it is near at once, and passes during the run.
    std::fs::write(&season_path, season_file(now_ms() + 4_000, &webhook)).unwrap();
    ok(&create("T"));
    let show = with_server(&["seasons", "show", "winter", "--format", "csv"]);
    let table_rows = |shown: &str| -> Vec<String> {
        shown
            .lines()
            .filter(|l| l.split(',').next().is_some_and(|c| c.parse::<u32>().is_ok()))
            .map(str::to_owned)
            .collect()
    };
    eventually_sync("the finals started", || {
        ok(&show).contains("season winter: finals").then_some(())
    });
    refused(&create("T"), &["FAILED_PRECONDITION", "past its deadline"]);
    // Frozen: a third submission is refused, saying why.
    refused(
        &submit("ann-2", &tokens["ann"], "v3"),
        &["FAILED_PRECONDITION", "season \"winter\"'s deadline passed", "frozen"],
    );
    let shown = ok(&show);
    assert!(shown.contains("finalists from gin-open"), "{shown}");
    let finalists = table_rows(&shown);
    assert_eq!(finalists.len(), 2, "the top two: {shown}");
    assert!(finalists[0].starts_with("1,ann-1,"), "{shown}");
    assert!(!finalists[1].contains(",ann-"), "one bot an author: {shown}");

    // The finals settle, and the season is done with its final standings.
    let done = eventually_sync("the finals over", || {
        let shown = ok(&show);
        shown.contains("season winter: done").then_some(shown)
    });
    assert!(done.contains("settled at 95%"), "{done}");
    let standings = table_rows(&done);
    assert!(standings[0].starts_with("1,ann-1,1-1,"), "{done}");
    assert!(standings[1].starts_with("2,") && standings[1].contains(",2-2,"), "{done}");
    runtime.block_on(async {
        // Never two bots of one author at a table of a rated set, in either ladder.
        for name in ["gin-open", "winter-finals"] {
            let id = store.ladder(name).await.unwrap().unwrap().id;
            for set in store.rated_sets(id).await.unwrap() {
                let authors: Vec<&str> =
                    set.bots.iter().map(|b| &names[b][..3]).collect::<Vec<_>>();
                assert_ne!(authors[0], authors[1], "{name}: {:?}", set.bots);
                if name == "winter-finals" {
                    let played = set.matches.iter().filter(|m| m.state == MatchState::Done);
                    assert!(played.count() > 0);
                }
            }
        }
    });

    // The feed: each author's own submissions, refusals and the public events.
    let events = |token: Option<&str>| {
        let mut args = vec!["seasons", "events", "winter", "--format", "csv"];
        if let Some(token) = token {
            args.extend(["--token", token]);
        }
        ok(&with_server(&args))
    };
    let anns = events(Some(&tokens["ann"]));
    let count = |feed: &str, what: &str| feed.lines().filter(|l| l.contains(what)).count();
    assert_eq!(count(&anns, "submitted (yours)"), 4, "two bots, two versions each: {anns}");
    assert_eq!(count(&anns, "refused (yours)"), 1, "{anns}");
    for public in ["changed", "deadline_near", "finals_started", "finals_finished"] {
        assert!(anns.contains(public), "{public}: {anns}");
    }
    let bobs = events(Some(&tokens["bob"]));
    assert!(!bobs.contains("ann-2"), "bob sees none of ann's: {bobs}");
    assert!(!events(None).contains("(yours)"));
    refused(
        &with_server(&["seasons", "events", "winter", "--token", "cra_nobodys"]),
        &["UNAUTHENTICATED"],
    );

    // The pages: the season, the finals' result and the Atom feed.
    let page = support::get(&pages, "/seasons/winter");
    assert!(page.contains("over: the final standings are out"), "{page}");
    assert!(page.contains("href=\"/seasons/winter/finals\""), "{page}");
    let finals = support::get(&pages, "/seasons/winter/finals");
    assert!(finals.contains("Settled at 95%"), "{finals}");
    assert!(finals.contains("<td class=\"name\">ann-1</td>"), "{finals}");
    let feed = support::get(&pages, "/seasons/winter/feed.atom");
    assert!(feed.contains("application/atom+xml"), "{feed}");
    assert!(feed.contains("finals_finished") && feed.contains("deadline_near"), "{feed}");
    assert!(!feed.contains("refused"), "an author's events are theirs: {feed}");
    assert!(ok(&with_server(&["seasons", "list"])).contains("winter"));

    // The webhook had every public event, in order, the first again after its failure.
    let mut kinds = Vec::new();
    let mut last = 0;
    while kinds.last().is_none_or(|kind| kind != "finals_finished") {
        let event = posted.recv_timeout(cardroom_tests::PATIENCE).unwrap();
        assert_eq!(event["season"], "winter", "{event}");
        let id = event["id"].as_i64().unwrap();
        assert!(id > last, "in order: {event}");
        last = id;
        kinds.push(event["kind"].as_str().unwrap().to_owned());
    }
    assert_eq!(
        kinds,
        ["changed", "changed", "deadline_near", "finals_started", "finals_finished"],
        "the public events, none of an author's"
    );
}
