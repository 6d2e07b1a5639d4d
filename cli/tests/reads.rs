//! The read subcommands against a real server on `127.0.0.1:0` hosting a Gin Rummy ladder in
//! which a crashing bot played a steady one until its failures paused it: each command in each
//! format (JSON parsed back into the rpc's answer, CSV rows compared with it, the table naming
//! the bots in rank order), a record written and replayed by `cardroom replay`, failures
//! refused without the bot's key, gRPC errors printed with their codes, and the paused bot
//! resumed by `cardroom bots resume` and then scheduled again.

#![allow(clippy::unwrap_used)]

use std::process::Output;
use std::sync::Arc;

use cardroom_arena::hosted::HostedLadderFile;
use cardroom_proto::pb;
use cardroom_proto::pb::cardroom_client::CardroomClient;
use cardroom_store::{SqliteStore, Store};
use cardroom_tests::{ADMIN, crashing_bot, eventually, hosted_server, lobby_bot, register};
use tokio::process::Command;
use tonic::transport::Channel;

/// `cardroom ARGS --server URL`, run to its end.
async fn cardroom(url: &str, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cardroom"))
        .args(args)
        .args(["--server", url])
        .output()
        .await
        .expect("cardroom runs")
}

/// The stdout of a command that must succeed.
async fn stdout(url: &str, args: &[&str]) -> String {
    let output = cardroom(url, args).await;
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "cardroom {args:?} failed: {err}");
    String::from_utf8(output.stdout).unwrap()
}

/// The stderr of a command that must fail.
async fn refused(url: &str, args: &[&str]) -> String {
    let output = cardroom(url, args).await;
    assert!(!output.status.success(), "cardroom {args:?} succeeded");
    String::from_utf8(output.stderr).unwrap()
}

/// The command's answer in each format: the JSON parsed as `T`, the CSV's records (after its
/// header, which must be `header`), and the table.
async fn formats<T: serde::de::DeserializeOwned>(
    url: &str,
    args: &[&str],
    header: &[&str],
) -> (T, Vec<csv::StringRecord>, String) {
    let with = |format: &'static str| [args, &["--format", format]].concat();
    let json = serde_json::from_str(&stdout(url, &with("json")).await).unwrap();
    let csv_text = stdout(url, &with("csv")).await;
    let mut reader = csv::Reader::from_reader(csv_text.as_bytes());
    assert_eq!(reader.headers().unwrap(), header, "{args:?}");
    let rows = reader.records().collect::<Result<Vec<_>, _>>().unwrap();
    let table = stdout(url, args).await;
    (json, rows, table)
}

/// Whether `names` appear in `text` in this order.
fn in_order(text: &str, names: &[&str]) -> bool {
    let at: Vec<usize> = names.iter().map(|n| text.find(n).unwrap()).collect();
    at.windows(2).all(|w| w[0] < w[1])
}

const LEADERBOARD_HEADER: [&str; 16] = [
    "rank",
    "bot",
    "ranks_95",
    "may_be_first",
    "rating",
    "sigma",
    "matches",
    "wins",
    "win_rate",
    "sets",
    "provisional",
    "crashes",
    "forfeits",
    "illegal",
    "timeouts",
    "paused",
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hosted_ladder_is_read_through_every_subcommand_and_a_paused_bot_resumed() {
    let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().await.unwrap());
    let (server, hosted) = hosted_server(Arc::clone(&store)).await;
    let url = server.url();
    let crasher_key = register(&store, "crasher").await;
    crashing_bot(url.clone(), "crasher", crasher_key.clone());
    let steady_key = register(&store, "steady").await;
    lobby_bot(url.clone(), "steady", &steady_key, "v1", 1);
    let text =
        "name = \"duel\"\ngame = \"gin\"\nmove_ms = 100\n[health]\nwindow = 3\nmax_failures = 2\n";
    hosted.open(&HostedLadderFile::parse(text).unwrap(), text).await.unwrap();
    let ladder = store.ladder("duel").await.unwrap().unwrap().id;
    // Once the crasher is paused nothing more is played: the ladder's content stays as read.
    let crasher = store.bot_credential("crasher").await.unwrap().unwrap().account.id;
    eventually("the crasher paused", || async {
        let bots = store.ladder_bots(ladder).await.unwrap();
        bots.iter().any(|b| b.bot == crasher && b.paused_reason.is_some()).then_some(())
    })
    .await;
    let mut client: CardroomClient<Channel> = server.client().await;

    // Ladders.
    let expected =
        client.list_ladders(pb::ListLaddersRequest::default()).await.unwrap().into_inner();
    let (json, rows, table) = formats::<pb::ListLaddersResponse>(
        &url,
        &["ladders"],
        &["name", "game", "seats", "rating", "status", "reason", "provisional_sets", "created"],
    )
    .await;
    assert_eq!(json, expected);
    assert_eq!((&rows[0][0], &rows[0][1], &rows[0][2]), ("duel", "gin", "2"));
    assert_eq!(rows[0][7], expected.ladders[0].created_ms.to_string());
    assert!(table.contains("duel") && table.contains("running"), "{table}");

    // The leaderboard: the steady bot first.
    let request = pb::GetLeaderboardRequest { ladder: "duel".into() };
    let expected = client.get_leaderboard(request).await.unwrap().into_inner();
    let (json, rows, table) =
        formats::<pb::LadderLeaderboard>(&url, &["leaderboard", "duel"], &LEADERBOARD_HEADER).await;
    assert_eq!(json, expected);
    let names: Vec<&str> = expected.rows.iter().map(|r| r.bot.as_str()).collect();
    assert_eq!(names, ["steady", "crasher"]);
    for (row, line) in rows.iter().zip(&expected.rows) {
        assert_eq!((&row[0], &row[1]), (line.rank.to_string().as_str(), line.bot.as_str()));
        let ranks = match (line.rank_lo, line.rank_hi) {
            (0, _) => String::new(),
            (lo, hi) if lo == hi => lo.to_string(),
            (lo, hi) => format!("{lo}-{hi}"),
        };
        assert_eq!(row[2], ranks, "the rank interval of the standings");
        assert_eq!(row[4].parse::<f64>().unwrap(), line.rating, "the rating, exactly");
        assert_eq!(row[6].parse::<u64>().unwrap(), line.matches);
        assert_eq!(row[15], line.paused_reason);
    }
    assert_eq!(rows.len(), 2);
    assert!(in_order(&table, &["steady", "crasher"]), "{table}");
    assert!(table.contains("matches failed"), "the pause's reason is shown: {table}");
    if let Some(standings) = &expected.standings {
        let line =
            format!("standings after {} of {} sets rated", standings.sets, standings.revision);
        assert!(table.contains(&line), "the standings' summary: {table}");
        assert!(table.contains("how sure that each row's bot is better"), "the matrix: {table}");
    }

    // A bot: its line and history, and its matches a page at a time.
    let request = pb::GetLadderBotRequest { ladder: "duel".into(), bot: "crasher".into() };
    let expected_bot = client.get_ladder_bot(request).await.unwrap().into_inner();
    let page = |token: &str| pb::ListBotMatchesRequest {
        ladder: "duel".into(),
        bot: "crasher".into(),
        page_size: 1,
        page_token: token.into(),
    };
    let first = client.list_bot_matches(page("")).await.unwrap().into_inner();
    assert!(!first.next_page_token.is_empty(), "the crasher played more than one match");
    let args = ["bot", "duel", "crasher", "--limit", "1"];
    let header = ["id", "set", "rotation", "state", "finished", "seats", "server_match"];
    let (json, rows, table) = formats::<serde_json::Value>(&url, &args, &header).await;
    assert_eq!(json["row"], serde_json::to_value(&expected_bot.row).unwrap());
    assert_eq!(json["history"], serde_json::to_value(&expected_bot.history).unwrap());
    assert_eq!(json["matches"], serde_json::to_value(&first.matches).unwrap());
    assert_eq!(json["nextPageToken"], first.next_page_token);
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0][0], first.matches[0].id.to_string());
    assert!(rows[0][5].contains("crasher:2("), "the crasher's place and failure: {:?}", rows[0]);
    let cursor_line = format!("next page: --cursor {}", first.next_page_token);
    assert!(table.contains(&cursor_line), "{table}");
    assert!(table.contains("against each opponent") && table.contains("steady"), "{table}");
    // The cursor printed gives the next page.
    let second = client.list_bot_matches(page(&first.next_page_token)).await.unwrap().into_inner();
    let next = [&args[..], &["--cursor", &first.next_page_token, "--format", "json"]].concat();
    let json: serde_json::Value = serde_json::from_str(&stdout(&url, &next).await).unwrap();
    assert_eq!(json["matches"], serde_json::to_value(&second.matches).unwrap());

    // Head to head.
    let request =
        pb::GetHeadToHeadRequest { ladder: "duel".into(), a: "steady".into(), b: "crasher".into() };
    let expected = client.get_head_to_head(request).await.unwrap().into_inner();
    let header = ["bot", "opponent", "wins", "ties", "losses"];
    let (json, rows, table) =
        formats::<pb::HeadToHeadResponse>(&url, &["h2h", "duel", "steady", "crasher"], &header)
            .await;
    assert_eq!(json, expected);
    let pair = expected.a_against_b.unwrap();
    assert!(pair.wins > 0, "{pair:?}");
    assert_eq!(
        rows[0].iter().collect::<Vec<_>>(),
        [
            "steady",
            "crasher",
            &pair.wins.to_string(),
            &pair.ties.to_string(),
            &pair.losses.to_string()
        ]
    );
    assert!(in_order(&table, &["steady", "crasher"]), "{table}");

    // A match's record: written, then replayed by `cardroom replay`.
    let id = first.matches[0].id;
    let expected = client.get_ladder_match(pb::GetLadderMatchRequest { id }).await.unwrap();
    let expected = expected.into_inner();
    let printed = stdout(&url, &["record", "duel", &id.to_string()]).await;
    assert_eq!(printed.trim_end(), expected.record_json);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("match.json");
    let file_arg = file.to_str().unwrap();
    let id_arg = id.to_string();
    let record_args = ["record", "duel", id_arg.as_str(), "--out", file_arg];
    let header = ["seat", "bot", "version", "place", "forfeited", "failure"];
    let (json, rows, table) = formats::<pb::LadderMatchInfo>(&url, &record_args, &header).await;
    assert_eq!(json, expected);
    assert_eq!(rows.len(), 2);
    assert!(table.contains(file_arg), "{table}");
    assert_eq!(std::fs::read_to_string(&file).unwrap().trim_end(), expected.record_json);
    let replayed = std::process::Command::new(env!("CARGO_BIN_EXE_cardroom"))
        .args(["replay", "--json", file_arg])
        .output()
        .unwrap();
    assert!(replayed.status.success(), "{}", String::from_utf8_lossy(&replayed.stderr));
    let replay: serde_json::Value = serde_json::from_slice(&replayed.stdout).unwrap();
    assert_eq!(replay["game"], "gin", "{replay}");
    let wrong = refused(&url, &["record", "other", &id_arg]).await;
    assert!(wrong.contains("is in ladder duel, not other"), "{wrong}");

    // Failures: for the crasher's author, with its key; refused without one.
    let without = refused(&url, &["failures", "duel", "crasher"]).await;
    assert!(without.contains("ListFailures refused: UNAUTHENTICATED: "), "{without}");
    let mut request = tonic::Request::new(pb::ListFailuresRequest {
        ladder: "duel".into(),
        bot: "crasher".into(),
        limit: 0,
    });
    let bearer = format!("Bearer {crasher_key}").parse().unwrap();
    request.metadata_mut().insert("authorization", bearer);
    let expected = client.list_failures(request).await.unwrap().into_inner();
    assert!(!expected.failures.is_empty());
    let header = ["match", "at", "kind", "version", "error", "answer", "observation", "output"];
    let args = ["failures", "duel", "crasher", "--key", &crasher_key];
    let (json, rows, table) = formats::<pb::ListFailuresResponse>(&url, &args, &header).await;
    assert_eq!(json, expected);
    assert_eq!(rows.len(), expected.failures.len());
    for (row, failure) in rows.iter().zip(&expected.failures) {
        assert_eq!((&row[2], &row[3]), (failure.kind.as_str(), "broken-1"));
        assert_eq!(row[6], failure.observation_json);
    }
    assert!(table.contains("broken-1"), "{table}");
    let others = refused(&url, &["failures", "duel", "crasher", "--key", &steady_key]).await;
    assert!(others.contains("PERMISSION_DENIED"), "{others}");

    // The server's finished matches.
    let request = pb::ListMatchesRequest {
        state: pb::MatchState::Finished as i32,
        page_size: 50,
        page_token: String::new(),
    };
    let expected = client.list_matches(request).await.unwrap().into_inner();
    let header = ["match", "game", "seats", "created", "ended", "end"];
    let (json, rows, table) =
        formats::<pb::ListMatchesResponse>(&url, &["matches", "--finished"], &header).await;
    assert_eq!(json, expected);
    let ids: Vec<&str> = rows.iter().map(|r| &r[0]).collect();
    let expected_ids: Vec<&str> = expected.matches.iter().map(|m| m.match_id.as_str()).collect();
    assert_eq!(ids, expected_ids);
    assert!(rows.iter().all(|r| &r[1] == "GAME_GIN_RUMMY"), "{rows:?}");
    assert!(table.contains(&first.matches[0].server_match_id), "{table}");

    // gRPC errors are printed with their codes.
    let missing = refused(&url, &["leaderboard", "nope"]).await;
    assert!(missing.contains("GetLeaderboard refused: NOT_FOUND: "), "{missing}");
    let steady = refused(&url, &["bots", "resume", "duel", "steady", "--admin-token", ADMIN]).await;
    assert!(steady.contains("FAILED_PRECONDITION") && steady.contains("not paused"), "{steady}");
    let guess =
        refused(&url, &["bots", "resume", "duel", "crasher", "--admin-token", "guess"]).await;
    assert!(guess.contains("UNAUTHENTICATED"), "{guess}");

    let unknown =
        refused(&url, &["bots", "resume", "duel", "nobody", "--admin-token", ADMIN]).await;
    assert!(unknown.contains("ResumeBot refused: NOT_FOUND: "), "{unknown}");

    // The paused crasher resumed: the ladder plans sets with it again.
    let sets = store.set_count(ladder).await.unwrap();
    let resumed =
        stdout(&url, &["bots", "resume", "duel", "crasher", "--admin-token", ADMIN]).await;
    assert!(resumed.starts_with("crasher resumed in ladder duel (it was paused: "), "{resumed}");
    eventually("a set planned with the resumed crasher", || async {
        (store.set_count(ladder).await.unwrap() > sets).then_some(())
    })
    .await;
    server.stop().await.unwrap();
}
