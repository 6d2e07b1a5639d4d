//! `cardroom mcp` as a language model's client meets it: the stock binary started over stdio by
//! an MCP client (rmcp's), seated by hosted ladders of each game beside the stock `random` bot
//! over gRPC. A scripted policy that reads only each turn's text plays whole matches of Gin
//! Rummy, Twenty-Two and Hold'em; its first turn gets a reply no action has, answered with the
//! reason; and once every game is played, three bad replies in one turn forfeit a match. Over
//! streamable HTTP (`--http`), a client of plain HTTP posts JSON-RPC to the stock binary. A seat
//! whose connection to the game server is cut mid-match is taken back and played to the end.

#![allow(clippy::unwrap_used)] // A test fails loudly on an unexpected error.

use std::collections::BTreeSet;

use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::TokioChildProcess;

use cardroom_tests::{Break, Proxy};

mod support;

use support::{StockBot, add_bot, example_bot, serve_ladder};

/// One hosted ladder a game, two seats, the MCP seat and the random bot, a long clock.
fn ladder(game: &str, options: &str) -> String {
    format!(
        "name = \"mcp-{game}\"\ngame = \"{game}\"\noptions = {options}\nseats = 2\nseed = 5\n\
         max_concurrent = 1\nbots = [\"model\", \"rnd\"]\nmove_ms = 60000\nbank_ms = 600000\n\
         max_bad_replies = 3\n"
    )
}

/// A tool's answer: whether it is an error, and its text blocks.
fn answer(result: &CallToolResult) -> (bool, Vec<String>) {
    let texts = result.content.iter().filter_map(|c| c.as_text().map(|t| t.text.clone()));
    (result.is_error == Some(true), texts.collect())
}

async fn call(
    client: &RunningService<RoleClient, ()>,
    tool: &str,
    arguments: serde_json::Value,
) -> (bool, Vec<String>) {
    let arguments = serde_json::from_value(arguments).unwrap();
    let params = CallToolRequestParams::new(tool.to_owned()).with_arguments(arguments);
    let result = client.call_tool(params).await.unwrap_or_else(|e| panic!("{tool}: {e}"));
    answer(&result)
}

/// The legal actions a turn's text lists: each line `N. words` after "Legal actions:".
fn legal_actions(text: &str) -> Vec<(u32, String)> {
    let listed = text.split_once("Legal actions:").map_or("", |(_, rest)| rest);
    listed
        .lines()
        .filter_map(|line| {
            let (number, words) = line.split_once(". ")?;
            Some((number.trim().parse().ok()?, words.trim().to_owned()))
        })
        .collect()
}

/// What the policy does with a match's first turn.
#[derive(Copy, Clone, PartialEq, Debug)]
enum Plan {
    /// One reply that names nothing, then a good one.
    OneBadReply,
    /// Good replies only.
    Play,
    /// Bad replies until the seat forfeits.
    Forfeit,
}

#[test]
fn a_model_plays_ladder_matches_of_every_game_through_the_mcp_server() {
    let dir = tempfile::tempdir().unwrap();
    let store_url = format!("sqlite:{}", dir.path().join("store.db").display());
    let mut extra = Vec::new();
    let games =
        [("gin", "{ target = 25 }"), ("twenty_two", "{ limit = 5 }"), ("holdem", "{ hands = 3 }")];
    for (game, options) in games {
        let path = dir.path().join(format!("{game}.toml"));
        std::fs::write(&path, ladder(game, options)).unwrap();
        extra.push("--ladder".to_owned());
        extra.push(path.display().to_string());
    }
    let model_key = add_bot(&store_url, "model");
    let random_key = add_bot(&store_url, "rnd");
    let records = dir.path().join("records");
    let (ladder0, rest) = (std::path::PathBuf::from(&extra[1]), &extra[2..]);
    let rest: Vec<&str> = rest.iter().map(String::as_str).collect();
    let (_server, listening) = serve_ladder("127.0.0.1:0", &store_url, &ladder0, &records, &rest);
    let url = format!("http://{listening}");
    let args = ["--server", &url, "--lobby", "rnd", "--key", &random_key, "--matches", "0"];
    let args = [&args[..], &["--concurrency", "3"]].concat();
    let random = StockBot::start("rnd", &example_bot("random"), &args);

    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_cardroom"));
        command.args(["mcp", "--server", &url, "--lobby", "model", "--key", &model_key]);
        let client = ().serve(TokioChildProcess::new(command).unwrap()).await.unwrap();
        let tools = client.list_all_tools().await.unwrap();
        let names: BTreeSet<String> = tools.iter().map(|t| t.name.to_string()).collect();
        let expected = ["act", "list_ladders", "match_result", "wait_for_turn", "wait_in_lobby"];
        assert_eq!(names, expected.iter().map(|n| (*n).to_owned()).collect());

        let (error, ladders) = call(&client, "list_ladders", serde_json::json!({})).await;
        assert!(!error, "{ladders:?}");
        for game in ["gin", "twenty_two", "holdem"] {
            assert!(ladders[0].contains(&format!("mcp-{game}")), "{ladders:?}");
        }
        let (error, none) = call(&client, "act", serde_json::json!({"reply": "1"})).await;
        assert!(error && none[0].contains("Not your turn"), "{none:?}");

        let mut played = BTreeSet::new();
        let mut bad_reply_answered = false;
        let mut forfeited = false;
        let mut matches = 0;
        while !forfeited {
            random.assert_running();
            let (error, seated) = call(&client, "wait_in_lobby", serde_json::json!({})).await;
            assert!(!error, "{seated:?}");
            if !seated[0].starts_with("Seated:") {
                continue;
            }
            let game = ["Gin Rummy", "Twenty-Two", "Texas Hold'em"]
                .into_iter()
                .find(|title| seated[0].contains(title))
                .unwrap_or_else(|| panic!("no game in {seated:?}"));
            let plan = match (matches, played.len()) {
                (0, _) => Plan::OneBadReply,
                (_, 3) => Plan::Forfeit,
                _ => Plan::Play,
            };
            matches += 1;
            let mut bad_replies = 0;
            let mut turns = 0u32;
            let mut update = call(&client, "wait_for_turn", serde_json::json!({})).await;
            let end = loop {
                let (error, texts) = update;
                let text = &texts[0];
                if text.starts_with("The match is over") {
                    break text.clone();
                }
                if error && text.starts_with("Your seat forfeited") {
                    assert_eq!((plan, bad_replies), (Plan::Forfeit, 3), "{text}");
                    assert!(text.contains("after 3 replies in one turn"), "{text}");
                    update = call(&client, "wait_for_turn", serde_json::json!({})).await;
                    continue;
                }
                if error {
                    // A refusal of our reply: the reason, and the count against the limit.
                    assert!(text.contains("was refused"), "{text}");
                    assert!(text.contains("UNREADABLE_REPLY"), "{text}");
                    assert!(text.contains(&format!("bad reply {bad_replies} of 3")), "{text}");
                    bad_reply_answered = true;
                    update = call(&client, "wait_for_turn", serde_json::json!({})).await;
                    continue;
                }
                let forfeited_now = plan == Plan::Forfeit && bad_replies == 3;
                if forfeited_now || (!text.contains("your turn") && !text.contains("Your turn")) {
                    // Not our turn, or ours no longer: the forfeit plays on for us to the end.
                    update = call(&client, "wait_for_turn", serde_json::json!({})).await;
                    continue;
                }
                // The turn in words and as JSON.
                let json: serde_json::Value = serde_json::from_str(&texts[1]).unwrap();
                assert!(json["observation"].is_object(), "{json}");
                let legal = legal_actions(text);
                assert!(!legal.is_empty(), "no legal actions in {text}");
                let bad = match plan {
                    Plan::OneBadReply => bad_replies == 0,
                    Plan::Forfeit => true,
                    Plan::Play => false,
                };
                let reply = if bad {
                    bad_replies += 1;
                    "sing a song".to_owned()
                } else {
                    // The words of one action, or its number, by turns.
                    turns += 1;
                    let (number, words) = &legal[turns as usize % legal.len()];
                    if turns.is_multiple_of(2) { words.clone() } else { number.to_string() }
                };
                let comment = format!("turn {turns} of a scripted model");
                let act = serde_json::json!({"reply": reply, "comment": comment});
                update = call(&client, "act", act).await;
            };
            let (error, result) = call(&client, "match_result", serde_json::json!({})).await;
            assert!(!error && result[0].contains("(you)"), "{result:?}");
            if plan == Plan::Forfeit {
                assert_eq!(bad_replies, 3, "{end}");
                assert!(result[0].contains("(you), forfeited"), "{result:?}");
                forfeited = true;
            } else {
                assert!(!result[0].contains("forfeited"), "{end} {result:?}");
                played.insert(game);
            }
        }
        assert!(bad_reply_answered);
        assert_eq!(played.len(), 3);
        client.cancel().await.unwrap();
    });
}

/// One JSON-RPC message of an MCP session over streamable HTTP: the answer's JSON (from a JSON
/// body or the first `data:` line of an event stream), `None` for a notification's 202.
async fn post(
    http: &reqwest::Client,
    url: &str,
    session: Option<&str>,
    message: serde_json::Value,
) -> (Option<String>, Option<serde_json::Value>) {
    let mut request = http
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .json(&message);
    if let Some(session) = session {
        request = request.header("mcp-session-id", session);
    }
    let response = request.send().await.unwrap();
    assert!(response.status().is_success(), "{message}: {}", response.status());
    let session = response.headers().get("mcp-session-id").map(|v| v.to_str().unwrap().to_owned());
    let body = response.text().await.unwrap();
    let json = body
        .lines()
        .find_map(|line| line.strip_prefix("data:").map(str::trim).filter(|d| d.starts_with('{')))
        .or_else(|| Some(body.trim()).filter(|b| b.starts_with('{')))
        .map(|json| serde_json::from_str(json).unwrap());
    (session, json)
}

/// A stock `cardroom serve` with one hosted Gin Rummy ladder of these options ([`ladder`]) and
/// `bots` registered: its directory, the server, its address and the bots' keys.
fn serve_gin_ladder(
    options: &str,
    bots: &[&str],
) -> (tempfile::TempDir, support::Reaped, String, Vec<String>) {
    let dir = tempfile::tempdir().unwrap();
    let store_url = format!("sqlite:{}", dir.path().join("store.db").display());
    let path = dir.path().join("gin.toml");
    std::fs::write(&path, ladder("gin", options)).unwrap();
    let keys = bots.iter().map(|name| add_bot(&store_url, name)).collect();
    let records = dir.path().join("records");
    let (server, listening) = serve_ladder("127.0.0.1:0", &store_url, &path, &records, &[]);
    (dir, server, listening, keys)
}

#[test]
fn the_mcp_server_speaks_streamable_http_with_http() {
    let (_dir, _server, listening, keys) = serve_gin_ladder("{}", &["model"]);
    let key = &keys[0];
    let url = format!("http://{listening}");
    let mut mcp = support::Reaped(
        std::process::Command::new(env!("CARGO_BIN_EXE_cardroom"))
            .args(["mcp", "--server", &url, "--lobby", "model", "--key", key])
            .args(["--http", "127.0.0.1:0"])
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap(),
    );
    let stdout = mcp.stdout.take().unwrap();
    let mut line = String::new();
    std::io::BufRead::read_line(&mut std::io::BufReader::new(stdout), &mut line).unwrap();
    let endpoint = line.trim().strip_prefix("mcp listening on ").unwrap().to_owned();

    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let http = reqwest::Client::new();
        let initialize = serde_json::json!({
            "jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "curl-like", "version": "1"}
            }
        });
        let (session, answer) = post(&http, &endpoint, None, initialize).await;
        let answer = answer.unwrap();
        assert_eq!(answer["result"]["serverInfo"]["name"], "cardroom", "{answer}");
        let session = session.expect("a session id");
        let initialized =
            serde_json::json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        post(&http, &endpoint, Some(&session), initialized).await;
        let call = |id: u32, tool: &str, arguments: serde_json::Value| {
            serde_json::json!({
                "jsonrpc": "2.0", "id": id, "method": "tools/call",
                "params": {"name": tool, "arguments": arguments}
            })
        };
        let (_, ladders) =
            post(&http, &endpoint, Some(&session), call(2, "list_ladders", serde_json::json!({})))
                .await;
        let ladders = ladders.unwrap();
        let text = ladders["result"]["content"][0]["text"].as_str().unwrap();
        assert!(text.starts_with("mcp-gin: gin, 2 seats"), "{ladders}");
        let act = call(3, "act", serde_json::json!({"reply": "1"}));
        let (_, refused) = post(&http, &endpoint, Some(&session), act).await;
        let refused = refused.unwrap();
        assert_eq!(refused["result"]["isError"], true, "{refused}");
        let text = refused["result"]["content"][0]["text"].as_str().unwrap();
        assert!(text.contains("Not your turn"), "{refused}");
    });
}

#[test]
fn the_mcp_seat_survives_a_cut_connection_to_the_game_server() {
    let (_dir, _server, listening, keys) = serve_gin_ladder("{ target = 25 }", &["model", "rnd"]);
    let (model_key, random_key) = (&keys[0], &keys[1]);
    let url = format!("http://{listening}");
    let args = ["--server", &url, "--lobby", "rnd", "--key", random_key, "--matches", "0"];
    let random = StockBot::start("rnd", &example_bot("random"), &args);

    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        // The model's link to the game server goes through a proxy the test cuts.
        let proxy = Proxy::start(listening.parse().unwrap()).await;
        let through = format!("http://{}", proxy.addr);
        let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_cardroom"));
        command.args(["mcp", "--server", &through, "--lobby", "model", "--key", model_key]);
        let client = ().serve(TokioChildProcess::new(command).unwrap()).await.unwrap();
        let seated = loop {
            let (error, seated) = call(&client, "wait_in_lobby", serde_json::json!({})).await;
            assert!(!error, "{seated:?}");
            if seated[0].starts_with("Seated:") {
                break seated[0].clone();
            }
        };
        let (mut cuts, mut ours) = (0, 0);
        let mut update = call(&client, "wait_for_turn", serde_json::json!({})).await;
        let end = loop {
            random.assert_running();
            let (error, texts) = update;
            let text = &texts[0];
            if text.starts_with("The match is over") {
                break text.clone();
            }
            assert!(!error, "{text}");
            if !text.contains("our turn") {
                update = call(&client, "wait_for_turn", serde_json::json!({})).await;
                continue;
            }
            // At its second and fifth turns, the connection is cut while the model thinks.
            ours += 1;
            if ours == 2 || ours == 5 {
                proxy.break_links(Break::Cut);
                cuts += 1;
            }
            let legal = legal_actions(text);
            let (number, _) = &legal[legal.len() / 2];
            update = call(&client, "act", serde_json::json!({"reply": number.to_string()})).await;
        };
        assert_eq!(cuts, 2, "{seated}: {end}");
        // Played out to its end by the model: nobody timed out or forfeited.
        assert!(!end.contains("forfeit") && !end.contains("strike"), "{end}");
        client.cancel().await.unwrap();
    });
}
