//! A person at the table, as one meets it: the stock `cardroom serve` with two hosted ladders
//! (Gin Rummy and Twenty-Two), guests allowed (`--guests`), an admin token, and the stock
//! `random` bot waiting in the lobby. In headless Chromium, at a phone's width (360 px) and a
//! laptop's (1,440 px), a person opens each ladder's page, takes a seat with "Play the bots"
//! and plays a whole match by clicking: the card to discard or lead, the buttons for the
//! rest. The page is never wider than the window, shows the seat's own hand face up and the
//! other hand face down while the hand is played, and ends with the person's place and a link
//! to the replay. Midway through one match the tab goes away: the server sees the seat
//! disconnected; opening the link again takes the seat back and the match goes on. A guest
//! over the address's quota is refused with 429, and a link with no seat behind it says so.
//! Against each Twenty-Two match's record: no card the seat never saw reached the page, in any
//! of the drawings its event stream brought.
//!
//! And an organizer's seat link (a `CreateMatch` token) played without JavaScript: its event
//! stream read as it comes, each turn answered with a plain form post; then links that name no
//! seat, which the pages stop taking before the game server would lock their address out.

#![allow(clippy::unwrap_used)] // A test fails loudly on an unexpected error.

use std::time::{Duration, Instant};

use cardroom_games::gin::{CardSet, solver};
use cardroom_games::{AnyRecord, Card, Seat};
use cardroom_proto::pb;
use cardroom_proto::pb::cardroom_client::CardroomClient;
use cardroom_tests::PATIENCE;
use cardroom_tests::browser::{browser, cards_shown, ever_seen, start_chromedriver};
use fantoccini::{Client, Locator};

mod support;

use support::{StockBot, add_bot, example_bot};

/// A two-seat ladder of `game`, open to every registered bot in the lobby (here the random bot
/// alone, so that the ladder plays no match of its own).
fn ladder(name: &str, game: &str, options: &str) -> String {
    format!(
        "name = \"{name}\"\ngame = \"{game}\"\noptions = {options}\nseats = 2\nseed = 3\n\
         move_ms = 5000\nbank_ms = 20000\n"
    )
}

/// What the seat's page shows now, as the test reads it.
#[derive(Debug, serde::Deserialize)]
struct Seen {
    /// The match is over (the page says so).
    over: bool,
    /// The open turn, if the page shows one.
    turn: Option<String>,
    /// The controls' labels, in order: card buttons first (`card:CODE`), then buttons.
    controls: Vec<String>,
    /// The page's width beyond the window's.
    overflow: i64,
    /// Cards face down in the other seats' hands.
    others_face_down: i64,
    /// Cards face up in the seat's own hand.
    own_face_up: i64,
    /// The match's id.
    match_id: Option<String>,
    /// The table is between hands or over (every hand shown).
    table_over: bool,
    /// The seat's own cards, by code.
    hand: Vec<String>,
    /// The discard pile's top card, by code, if the table has one.
    upcard: Option<String>,
}

const READ: &str = r#"
const seat = document.querySelector('#seat');
const turn = seat.querySelector('form.act input[name=turn]');
const cards = [...seat.querySelectorAll('.hand form.act button')].map(b => 'card:' + b.querySelector('[data-card]').dataset.card);
const buttons = [...seat.querySelectorAll('.controls form.act button')].map(b => b.textContent.trim());
const you = s => (s.querySelector('.name')?.textContent ?? '').endsWith(' (you)');
const mine = [...seat.querySelectorAll('.seat')].filter(you);
const others = [...seat.querySelectorAll('.seat')].filter(s => !you(s));
const count = (list, css) => list.map(s => s.querySelectorAll(css).length).reduce((a, b) => a + b, 0);
const link = seat.querySelector('a.match');
return {
  over: !!seat.querySelector('p.end'),
  turn: turn ? turn.value : null,
  controls: cards.concat(buttons),
  overflow: document.documentElement.scrollWidth - window.innerWidth,
  others_face_down: count(others, '.hand .card.back'),
  own_face_up: count(mine, '.hand [data-card]'),
  match_id: link ? link.dataset.match : null,
  table_over: !!seat.querySelector('.felt[data-over]'),
  hand: mine.flatMap(s => [...s.querySelectorAll('.hand [data-card]')].map(c => c.dataset.card)),
  upcard: seat.querySelector('[data-pile="discard pile"] .top [data-card]')?.dataset.card ?? null,
};
"#;

/// Keeps every drawing of the seat the page shows in `window.drawn`, for the leak check.
const KEEP_DRAWINGS: &str = "
    window.drawn = [document.querySelector('#seat').innerHTML];
    new MutationObserver(() => window.drawn.push(document.querySelector('#seat').innerHTML))
        .observe(document.querySelector('#seat'), { childList: true, subtree: true });";

/// The drawings kept since the page was opened.
async fn drawings(client: &Client) -> Vec<String> {
    let kept = client.execute("return window.drawn ?? []", vec![]).await.unwrap();
    serde_json::from_value(kept).unwrap()
}

async fn seen(client: &Client) -> Option<Seen> {
    let value = client.execute(READ, vec![]).await.ok()?;
    serde_json::from_value(value).ok()
}

/// Which control the person clicks: going out or knocking when they may; in Gin Rummy the
/// upcard when it lowers their deadwood, else the stock, and the discard that leaves the least
/// deadwood (the person knows the game: the engine's solver stands for their counting); else the
/// first control (Twenty-Two: the first card they may play).
fn choose(now: &Seen) -> usize {
    let find = |prefix: &str| now.controls.iter().position(|c| c.starts_with(prefix));
    for word in ["big gin", "gin", "knock"] {
        if let Some(i) = find(word) {
            return i;
        }
    }
    let cards: Option<CardSet> = now.hand.iter().map(|code| code.parse::<Card>().ok()).collect();
    let Some(hand) = cards else { return 0 };
    let upcard = now.upcard.as_deref().and_then(|code| code.parse::<Card>().ok());
    if let Some(take) = find("take the upcard").or_else(|| find("draw from the discard pile")) {
        let lowers = match (upcard, solver::deadwood(hand)) {
            (Some(upcard), Ok(deadwood)) => solver::best_discards(hand | CardSet::single(upcard))
                .is_ok_and(|after| after.deadwood < deadwood),
            _ => false,
        };
        if lowers {
            return take;
        }
        return find("draw from the stock").or_else(|| find("pass")).unwrap_or(take);
    }
    if let Ok(discards) = solver::best_discards(hand) {
        let best = discards.best[0];
        let card = |c: &String| c.strip_prefix("card:").and_then(|code| code.parse::<Card>().ok());
        if let Some(i) = now.controls.iter().position(|c| card(c) == Some(best)) {
            return i;
        }
    }
    0
}

/// Clicks control `index` of `seen` (card buttons first, then the buttons).
async fn click(client: &Client, index: usize) -> bool {
    let script = "const seat = document.querySelector('#seat');
        const all = [...seat.querySelectorAll('.hand form.act button')]
            .concat([...seat.querySelectorAll('.controls form.act button')]);
        if (!all[arguments[0]]) { return false; }
        all[arguments[0]].click();
        return true;";
    let clicked = client.execute(script, vec![serde_json::json!(index)]).await;
    clicked.ok().and_then(|v| v.as_bool()) == Some(true)
}

/// Plays the match on the seat's page to its end by clicking; with `leave_after`, the tab goes
/// away after that many clicks and the link is opened again once the server has seen the seat
/// disconnected. With `shot`, the page is saved there as a PNG before the third click (the
/// README's: `CARDROOM_SCREENSHOTS=docs/screenshots cargo test -p cardroom-cli --test play`).
/// Returns the clicks and the seat's drawings the page showed.
async fn play_to_the_end(
    client: &Client,
    seat_url: &str,
    width: u32,
    leave_after: Option<u32>,
    grpc: &str,
    shot: Option<std::path::PathBuf>,
) -> (u32, Vec<String>) {
    let deadline = Instant::now() + PATIENCE * 3;
    let mut clicked_turn: Option<String> = None;
    let mut clicks = 0;
    let mut left = false;
    let mut drawn = Vec::new();
    client.execute(KEEP_DRAWINGS, vec![]).await.unwrap();
    loop {
        assert!(Instant::now() < deadline, "the match did not end in time ({clicks} clicks)");
        let Some(now) = seen(client).await else {
            tokio::time::sleep(Duration::from_millis(20)).await;
            continue;
        };
        assert!(now.overflow <= 0, "the page is {} px wider than {width} px", now.overflow);
        if now.over {
            drawn.extend(drawings(client).await);
            drawn.push(client.source().await.unwrap());
            return (clicks, drawn);
        }
        if !now.table_over && now.turn.is_some() {
            assert!(now.own_face_up > 0, "the seat's own hand is face up: {now:?}");
            assert!(now.others_face_down > 0, "the other hand is face down: {now:?}");
        }
        if let (Some(after), false, Some(match_id)) = (leave_after, left, &now.match_id)
            && clicks >= after
        {
            left = true;
            drawn.extend(drawings(client).await);
            leave_and_come_back(client, seat_url, grpc, match_id).await;
            client.execute(KEEP_DRAWINGS, vec![]).await.unwrap();
            continue;
        }
        match &now.turn {
            Some(turn) if clicked_turn.as_ref() != Some(turn) && !now.controls.is_empty() => {
                if let Some(path) = shot.as_ref().filter(|_| clicks == 2) {
                    std::fs::write(path, client.screenshot().await.unwrap()).unwrap();
                }
                if click(client, choose(&now)).await {
                    clicked_turn = Some(turn.clone());
                    clicks += 1;
                }
            }
            // The click's answer is on its way, or it is the bot's turn: look again soon.
            _ => tokio::time::sleep(Duration::from_millis(20)).await,
        }
    }
}

/// The tab goes away (a blank page: its event stream closes); the server sees the seat
/// disconnected within the web server's grace; the link opened again takes the seat back.
async fn leave_and_come_back(client: &Client, seat_url: &str, grpc: &str, match_id: &str) {
    client.goto("about:blank").await.unwrap();
    let mut server = CardroomClient::connect(grpc.to_owned()).await.unwrap();
    let connected = |info: &pb::MatchInfo| info.seats.iter().all(|s| s.connected);
    let deadline = Instant::now() + PATIENCE;
    loop {
        let request = pb::GetMatchRequest { match_id: match_id.to_owned() };
        let info = server.get_match(request).await.unwrap().into_inner();
        assert!(!info.over, "the match ended while the person was away: {info:?}");
        if !connected(&info) {
            break;
        }
        assert!(Instant::now() < deadline, "the seat never showed disconnected");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    client.goto(seat_url).await.unwrap();
    let deadline = Instant::now() + PATIENCE;
    loop {
        let request = pb::GetMatchRequest { match_id: match_id.to_owned() };
        let info = server.get_match(request).await.unwrap().into_inner();
        if connected(&info) || info.over {
            return;
        }
        assert!(Instant::now() < deadline, "the seat was not taken back");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Against the match's record (`GetRecord`): no card the person's seat never saw is in any
/// drawing of the page.
async fn no_card_unseen(client: &Client, grpc: &str, drawn: &[String]) {
    let link = client.find(Locator::Css("#seat a.match")).await.unwrap();
    let match_id = link.attr("data-match").await.unwrap().unwrap();
    let seat: u8 = link.attr("data-seat").await.unwrap().unwrap().parse().unwrap();
    let mut server = CardroomClient::connect(grpc.to_owned()).await.unwrap();
    let request = pb::GetRecordRequest { match_id: match_id.clone() };
    let json = server.get_record(request).await.unwrap().into_inner().record_json;
    let AnyRecord::TwentyTwo(record) = AnyRecord::from_json(&json).unwrap() else {
        panic!("match {match_id} is Twenty-Two")
    };
    let seen = ever_seen(&record, Some(Seat(seat)));
    assert!(seen.len() < 52, "some cards stay hidden from seat {seat}: {seen:?}");
    assert!(drawn.len() > 2, "the page was redrawn as the match went");
    for text in drawn {
        let leaked: Vec<Card> = cards_shown(text).difference(&seen).copied().collect();
        assert!(leaked.is_empty(), "cards {leaked:?} seat {seat} never saw, in {text}");
    }
}

/// From the ladder's page to a seat: "Play the bots", against the random bot (once the ladder
/// has seen it in the lobby: the page is loaded again until then).
async fn take_a_seat(client: &Client, pages: &str, ladder: &str) -> String {
    let deadline = Instant::now() + PATIENCE;
    let button = loop {
        client.goto(&format!("{pages}/ladders/{ladder}")).await.unwrap();
        if let Ok(button) = client.find(Locator::Css("section.play button")).await {
            break button;
        }
        assert!(Instant::now() < deadline, "no \"Play the bots\" on {ladder}'s page");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    button.click().await.unwrap();
    loop {
        let url = client.current_url().await.unwrap();
        if url.path().starts_with("/seat/") {
            return url.to_string();
        }
        assert!(Instant::now() < deadline, "no seat after \"Take a seat\": {url}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[test]
fn a_person_plays_gin_rummy_and_twenty_two_against_the_random_bot_by_clicking() {
    let dir = tempfile::tempdir().unwrap();
    let store_url = format!("sqlite:{}", dir.path().join("store.db").display());
    let gin = dir.path().join("gin.toml");
    std::fs::write(&gin, ladder("guest-gin", "gin", "{ target = 25 }")).unwrap();
    let twenty_two = dir.path().join("tt.toml");
    std::fs::write(&twenty_two, ladder("guest-tt", "twenty_two", "{ limit = 5 }")).unwrap();
    let random_key = add_bot(&store_url, "rnd");
    let records = dir.path().join("records");
    let ladders = [gin.as_path(), twenty_two.as_path()];
    let (server, url, pages) =
        support::serve_pages(&store_url, &ladders, &records, &["--guests", "4"]);
    let pages = format!("http://{pages}");
    let args = ["--server", &url, "--lobby", "rnd", "--key", &random_key, "--matches", "0"];
    let random = StockBot::start(
        "rnd",
        &example_bot("random"),
        &[&args[..], &["--concurrency", "2"]].concat(),
    );

    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let (mut driver, port) = start_chromedriver().await;
        let profile = tempfile::tempdir().unwrap();
        let client = browser(port, profile.path()).await;
        let mut played = 0;
        for (width, height) in [(360, 800), (1_440, 900)] {
            client.set_window_size(width, height).await.unwrap();
            for ladder in ["guest-gin", "guest-tt"] {
                random.assert_running();
                let seat_url = take_a_seat(&client, &pages, ladder).await;
                // The tab goes away once, midway through the laptop's Twenty-Two match.
                let leave = (width > 1_000 && ladder == "guest-tt").then_some(3);
                let started = Instant::now();
                let shot = std::env::var_os("CARDROOM_SCREENSHOTS").map(|dir| {
                    let workspace = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
                    workspace.join(dir).join(format!("seat-{ladder}-{width}.png"))
                });
                let (clicks, drawn) =
                    play_to_the_end(&client, &seat_url, width, leave, &url, shot).await;
                eprintln!("{ladder} at {width} px: {clicks} clicks in {:?}", started.elapsed());
                assert!(clicks > 0, "{ladder} at {width} px: the person played");
                let end = client.find(Locator::Css("#seat p.end")).await.unwrap();
                let text = end.text().await.unwrap();
                assert!(text.contains("You finished") && text.contains("of 2"), "{text}");
                let replay = end.find(Locator::Css("a")).await.unwrap();
                assert!(replay.attr("href").await.unwrap().unwrap().starts_with("/matches/"));
                if ladder == "guest-tt" {
                    no_card_unseen(&client, &url, &drawn).await;
                }
                played += 1;
            }
        }
        assert_eq!(played, 4);

        // A fifth guest match from this address is over the quota of four an hour.
        let http = reqwest::Client::new();
        let answer = http
            .post(format!("{pages}/ladders/guest-gin/play"))
            .form(&[("bot1", "rnd")])
            .send()
            .await
            .unwrap();
        assert_eq!(answer.status(), 429, "the fifth guest match in the hour");
        assert!(answer.headers().contains_key("retry-after"));

        // A link with no seat behind it says so.
        client.goto(&format!("{pages}/seat/{}", "0".repeat(32))).await.unwrap();
        let said = client.wait().for_element(Locator::Css("#seat p.error")).await.unwrap();
        assert!(said.text().await.unwrap().contains("No seat"));
        client.close().await.unwrap();
        let _ = driver.kill().await;
    });
    drop(random);
    drop(server);
}

/// The `seat` drawings and the `end` of a seat's event stream, read as they come.
struct SeatStream {
    response: reqwest::Response,
    buffer: String,
}

impl SeatStream {
    /// The next event: its name and data.
    async fn next(&mut self) -> Option<(String, String)> {
        loop {
            if let Some(at) = self.buffer.find("\n\n") {
                let event: String = self.buffer.drain(..at + 2).collect();
                let field = |name: &str| {
                    event
                        .lines()
                        .filter_map(|l| l.strip_prefix(name))
                        .collect::<Vec<_>>()
                        .join("\n")
                };
                let kind = field("event: ");
                if !kind.is_empty() {
                    return Some((kind, field("data: ")));
                }
                continue;
            }
            let chunk = tokio::time::timeout(PATIENCE, self.response.chunk()).await.ok()?;
            self.buffer.push_str(&String::from_utf8_lossy(&chunk.ok()??));
        }
    }
}

/// The number in `html` after `name="turn" value="`.
fn open_turn(html: &str) -> Option<u64> {
    let (_, rest) = html.split_once(r#"name="turn" value=""#)?;
    rest.split('"').next()?.parse().ok()
}

/// An organizer's seat link, as a person without JavaScript meets it: `CreateMatch` (with the
/// admin token) seats the stock random bot from the lobby and leaves the other seat's token to
/// hand out. Its page is never cached nor sent on as a referrer; its event stream draws the
/// seat at every move; a plain form post answers with the way back to the page (303); the
/// stream ends with `end` once the match is over, whose record holds the person's moves.
#[test]
fn an_organizers_seat_link_plays_without_javascript() {
    let dir = tempfile::tempdir().unwrap();
    let store_url = format!("sqlite:{}", dir.path().join("store.db").display());
    let random_key = add_bot(&store_url, "rnd");
    let records = dir.path().join("records");
    let (_server, url, pages) = support::serve_pages(&store_url, &[], &records, &[]);
    let pages = format!("http://{pages}");
    let args = ["--server", &url, "--lobby", "rnd", "--key", &random_key, "--matches", "0"];
    let random = StockBot::start("rnd", &example_bot("random"), &args);

    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let mut server = CardroomClient::connect(url.clone()).await.unwrap();
        let created = cardroom_tests::eventually("the random bot in the lobby", || {
            let mut server = server.clone();
            async move {
                let mut request = tonic::Request::new(pb::CreateMatchRequest {
                    game: pb::Game::TwentyTwo as i32,
                    options_json: r#"{"limit": 5}"#.to_owned(),
                    seats: 2,
                    seed: Some(11),
                    clock: Some(pb::Clock { move_ms: 60_000, bank_ms: 60_000, max_bad_replies: 0 }),
                    lobby_bots: vec![String::new(), "rnd".to_owned()],
                });
                request.metadata_mut().insert("authorization", "Bearer T".parse().unwrap());
                server.create_match(request).await.ok().map(tonic::Response::into_inner)
            }
        })
        .await;
        let token = &created.seats[0].token;
        let seat_url = format!("{pages}/seat/{token}");
        let http =
            reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();

        let page = http.get(&seat_url).send().await.unwrap();
        assert_eq!(page.status(), 200);
        assert_eq!(page.headers()["cache-control"], "no-store");
        assert_eq!(page.headers()["referrer-policy"], "no-referrer");
        assert!(page.text().await.unwrap().contains("Your seat"));

        let live = http.get(format!("{seat_url}/live")).send().await.unwrap();
        assert_eq!(live.status(), 200);
        let mut stream = SeatStream { response: live, buffer: String::new() };
        let mut answered = Vec::new();
        let mut drawings = 0;
        loop {
            random.assert_running();
            let (kind, data) = stream.next().await.expect("the stream goes on until `end`");
            if kind == "end" {
                break;
            }
            assert_eq!(kind, "seat");
            drawings += 1;
            let Some(turn) = open_turn(&data).filter(|turn| !answered.contains(turn)) else {
                continue;
            };
            answered.push(turn);
            let posted = http
                .post(format!("{seat_url}/act"))
                .form(&[("turn", turn.to_string()), ("reply", "1".to_owned())])
                .send()
                .await
                .unwrap();
            assert_eq!(posted.status(), 303, "a plain post goes back to the page");
            assert_eq!(posted.headers()["location"], format!("/seat/{token}"));
        }
        assert!(!answered.is_empty() && drawings > answered.len(), "{drawings} {answered:?}");
        let request = pb::GetMatchRequest { match_id: created.match_id.clone() };
        let info = server.get_match(request).await.unwrap().into_inner();
        assert!(info.over, "the stream ended with the match");
        assert_eq!(info.seats[0].bot_name, "guest");
        let request = pb::GetRecordRequest { match_id: created.match_id.clone() };
        let record = server.get_record(request).await.unwrap().into_inner().record_json;
        let AnyRecord::TwentyTwo(record) = AnyRecord::from_json(&record).unwrap() else {
            panic!("a Twenty-Two record")
        };
        let moves = record.actions.iter().filter(|a| a.seat == Seat(0)).count();
        assert_eq!(moves, answered.len(), "every move of the person's seat was theirs");

        // Links that name no seat: each is refused by the game server, which sees them all
        // come from the pages' own address. Past half its quota (30 a minute, the default)
        // the pages refuse new links themselves, so that the game server never locks its own
        // pages (or any bot on the loopback) out.
        let mut refused = 0;
        let over = loop {
            let bogus = format!("{pages}/seat/{refused:032x}/live");
            let live = http.get(bogus).send().await.unwrap();
            if live.status() != 200 {
                break live;
            }
            let mut stream = SeatStream { response: live, buffer: String::new() };
            while let Some((kind, _)) = stream.next().await {
                if kind == "end" {
                    break;
                }
            }
            refused += 1;
            assert!(refused < 30, "the pages went on taking links that name no seat");
        };
        // Half the game server's 30 a minute (a few more where the minute's quota refills as the
        // loop goes).
        assert!((15..20).contains(&refused), "{refused} links refused before the pages stopped");
        assert_eq!(over.status(), 429);
        assert!(over.headers().contains_key("retry-after"));
        assert!(over.text().await.unwrap().contains("seat links"));
        // The game server still takes a good seat token from the loopback.
        let mut request = tonic::Request::new(pb::CreateMatchRequest {
            game: pb::Game::TwentyTwo as i32,
            options_json: String::new(),
            seats: 2,
            seed: None,
            clock: None,
            lobby_bots: Vec::new(),
        });
        request.metadata_mut().insert("authorization", "Bearer T".parse().unwrap());
        let created = server.create_match(request).await.unwrap().into_inner();
        let config = cardroom_sdk::ConnectConfig::with_token(url.clone(), &created.seats[0].token);
        assert!(cardroom_sdk::TextSeat::join(&config).await.is_ok(), "the loopback is not locked");
    });
}

/// A ladder whose file says `people = true` seats a person rated, under a registered bot's
/// name and key, from its page ("Play rated"): a wrong key is refused when the seat joins, with
/// the reason on the page; with the right one the person waits in the lobby, the ladder seats
/// them in its duplicate set against the stock random bot, they play each of its matches (the
/// page waits in the lobby again after each), and the set is rated: the leaderboard counts it
/// for their bot.
#[test]
fn a_person_plays_a_ladders_rated_set_under_a_registered_bot() {
    let dir = tempfile::tempdir().unwrap();
    let store_url = format!("sqlite:{}", dir.path().join("store.db").display());
    let file = dir.path().join("rated.toml");
    let ladder = "name = \"rated-tt\"\ngame = \"twenty_two\"\noptions = { limit = 5 }\n\
                  seats = 2\nseed = 4\npeople = true\nmove_ms = 60000\nbank_ms = 60000\n";
    std::fs::write(&file, ladder).unwrap();
    let random_key = add_bot(&store_url, "rnd");
    let alice_key = add_bot(&store_url, "alice");
    let records = dir.path().join("records");
    let (_server, url, pages) = support::serve_pages(&store_url, &[file.as_path()], &records, &[]);
    let pages = format!("http://{pages}");
    let args = ["--server", &url, "--lobby", "rnd", "--key", &random_key, "--matches", "0"];
    let random = StockBot::start("rnd", &example_bot("random"), &args);

    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let http =
            reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
        let ladder_page = cardroom_tests::eventually("the ladder's page", || {
            let http = http.clone();
            let page = format!("{pages}/ladders/rated-tt");
            async move { http.get(page).send().await.ok()?.text().await.ok() }
        })
        .await;
        assert!(ladder_page.contains("Play rated"), "{ladder_page}");
        assert!(!ladder_page.contains("Play the bots"), "no guests without --guests");
        let enter = |key: String| {
            let http = http.clone();
            let pages = pages.clone();
            async move {
                let posted = http
                    .post(format!("{pages}/ladders/rated-tt/rated"))
                    .form(&[("bot", "alice"), ("key", key.as_str())])
                    .send()
                    .await
                    .unwrap();
                assert_eq!(posted.status(), 303);
                let seat = posted.headers()["location"].to_str().unwrap().to_owned();
                let live = http.get(format!("{pages}{seat}/live")).send().await.unwrap();
                assert_eq!(live.status(), 200);
                SeatStream { response: live, buffer: String::new() }
            }
        };
        // A key that is not alice's: the page says why, and the stream ends.
        let mut refused = enter("crk_not_alices".to_owned()).await;
        let said = loop {
            let (kind, data) = refused.next().await.expect("the refusal comes");
            if kind == "end" {
                panic!("the stream ended without saying why");
            }
            if data.contains("No seat") {
                break data;
            }
        };
        assert!(said.contains("UNAUTHENTICATED") || said.contains("key"), "{said}");
        assert_eq!(refused.next().await.map(|(kind, _)| kind).as_deref(), Some("end"));

        let mut stream = enter(alice_key).await;
        let mut server = CardroomClient::connect(url.clone()).await.unwrap();
        let mut answered = std::collections::BTreeSet::new();
        let mut waited_again = false;
        loop {
            random.assert_running();
            let request = pb::GetLeaderboardRequest { ladder: "rated-tt".to_owned() };
            let board = server.get_leaderboard(request).await.unwrap().into_inner();
            let alice = board.rows.iter().find(|row| row.bot == "alice");
            if alice.is_some_and(|row| row.sets_rated >= 1) {
                assert_eq!(alice.unwrap().matches, 2, "a set of two seatings");
                break;
            }
            let (kind, data) = stream.next().await.expect("the seat's stream goes on");
            assert_eq!(kind, "seat", "{data}");
            waited_again |= data.contains("Your last match");
            let Some(turn) = open_turn(&data) else { continue };
            let match_id = data.split("data-match=\"").nth(1).and_then(|r| r.split('"').next());
            if !answered.insert((match_id.unwrap().to_owned(), turn)) {
                continue;
            }
            let posted = http
                .post(format!("{pages}/seat/{}/act", stream_seat(&data)))
                .header("hx-request", "true")
                .form(&[("turn", turn.to_string()), ("reply", "1".to_owned())])
                .send()
                .await
                .unwrap();
            assert_eq!(posted.status(), 204);
        }
        assert!(waited_again, "the page waited in the lobby again between the set's matches");
    });
}

/// The seat's id in a drawing: its forms post to `/seat/ID/act`.
fn stream_seat(html: &str) -> String {
    let (_, rest) = html.split_once("action=\"/seat/").expect("a form of the seat");
    rest.split('/').next().unwrap().to_owned()
}
