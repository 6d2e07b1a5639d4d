//! The pages through the router (`tower::ServiceExt::oneshot`), read with an HTML parser: the
//! front page, SPRT and replay pages, bots' addresses, 404s, the live leaderboard and the
//! server's matches on another node, each against the store they are drawn from (the hosted
//! ladders' own figures are in `hosted.rs`).
#![allow(clippy::unwrap_used)]

mod common;

use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use cardroom_games::AnyRecord;
use cardroom_store::{Accounts, LadderMatchId, SqliteStore};
use cardroom_web::{StoreSource, WebConfig};
use common::fixture::{Fixture, GIN_SPRT, LONG, TT};
use common::{
    DIGITS_NAME, EVIL_NAME, LONG_STEPS, WEIRD_NAME, bot_path, get, get_raw, name_in, text_of,
};
use scraper::{Html, Selector};
use tower::ServiceExt as _;

fn select(html: &Html, css: &str) -> Vec<String> {
    let selector = Selector::parse(css).unwrap();
    html.select(&selector).map(|e| e.text().collect::<String>().trim().to_owned()).collect()
}

fn attrs(html: &Html, css: &str, attr: &str) -> Vec<String> {
    let selector = Selector::parse(css).unwrap();
    html.select(&selector).filter_map(|e| e.value().attr(attr).map(str::to_owned)).collect()
}

#[tokio::test]
async fn the_front_page_links_every_ladder_and_the_server() {
    let fixture = Fixture::new().await;
    let (status, page) = get(&fixture.router(), "/").await;
    assert_eq!(status, StatusCode::OK);
    let links = attrs(&page, "a", "href");
    for ladder in [TT, GIN_SPRT, LONG] {
        assert!(links.contains(&format!("/ladders/{ladder}")), "{links:?}");
    }
    assert!(links.contains(&"/server".to_owned()));
    // Every ladder of the store, in its order.
    let stored: Vec<String> = fixture
        .store
        .ladders()
        .await
        .unwrap()
        .iter()
        .map(|l| format!("/ladders/{}", l.spec.name))
        .collect();
    assert_eq!(attrs(&page, "table.ladders a", "href"), stored);
    let (_, ladders) = get(&fixture.router(), "/ladders").await;
    let rows = select(&ladders, "table.ladders tbody tr");
    assert_eq!(rows.len(), 3);
    // `tt`: six matches done; the open set's two are planned.
    let tt = rows.iter().find(|r| r.starts_with(TT)).unwrap();
    assert!(tt.contains("Twenty-Two") && tt.contains("6 / 8"), "{tt}");
    assert_eq!(rows.iter().filter(|r| r.contains("Gin Rummy")).count(), 2, "{rows:?}");
}

#[tokio::test]
async fn an_sprt_ladder_shows_its_llr_against_its_bounds() {
    let fixture = Fixture::new().await;
    let (status, page) = get(&fixture.router(), &format!("/ladders/{GIN_SPRT}")).await;
    assert_eq!(status, StatusCode::OK);
    // The test as the ladder's runner stored it with its standings.
    let stored = fixture.store.standings(fixture.gin).await.unwrap().unwrap();
    let test = stored.sprt.unwrap();
    assert_eq!(select(&page, ".sprt h2"), ["SPRT: gin-heuristic against random"]);
    assert_eq!(select(&page, ".sprt .llr"), [format!("{:.2}", test.llr)]);
    let text = select(&page, ".sprt p").join(" ");
    assert!(
        text.contains(&format!("{:.2}", test.lower))
            && text.contains(&format!("{:.2}", test.upper)),
        "{text}"
    );
    assert!(text.contains(&format!("after {} sets", test.samples)), "{text}");
    assert_eq!(select(&page, ".sprt .decision"), [test.decision]);
    // A ladder of no SPRT shows none.
    let (_, tt) = get(&fixture.router(), &format!("/ladders/{TT}")).await;
    assert!(select(&tt, ".sprt").is_empty());
}

#[tokio::test]
async fn a_match_replays_its_record_step_by_step_and_offers_it_for_download() {
    let fixture = Fixture::new().await;
    let router = fixture.router();
    let bot = fixture.id_of("tt-heuristic");
    let m = fixture.store.bot_matches(fixture.tt, bot, None, 1).await.unwrap().remove(0);
    let record = fixture.store.ladder_record(m.id).await.unwrap().unwrap();
    let any = AnyRecord::from_json(&record).unwrap();
    let AnyRecord::TwentyTwo(tt) = &any else { panic!("a Twenty-Two record") };
    let path = format!("/ladders/{TT}/matches/{}", m.id.0);
    let (status, page) = get(&router, &path).await;
    assert_eq!(status, StatusCode::OK);
    // Every step listed, each a link to the page at that step; one position drawn: the deal.
    let steps = tt.actions.len() + 1;
    assert_eq!(select(&page, "#log li").len(), steps);
    assert_eq!(attrs(&page, "#replay", "data-steps"), [steps.to_string()]);
    let links: Vec<String> = (0..steps).map(|i| format!("?step={i}")).collect();
    assert_eq!(attrs(&page, "#log li a", "href"), links);
    let last = tt.actions.last().unwrap();
    let last_action = format!("{}: {}", last.seat, last.action);
    assert_eq!(select(&page, "#log li a").last().unwrap(), &last_action);
    assert_eq!(select(&page, "section.step .action"), ["the deal"]);
    assert_eq!(attrs(&page, "#replay", "data-href"), std::slice::from_ref(&path));
    // Cards drawn as cards; every hand of the finished match; its places.
    assert!(!attrs(&page, "section.step .card", "data-card").is_empty());
    assert_eq!(select(&page, "section.step .hand").len(), usize::from(tt.players));
    let places = select(&page, "ol.result .place");
    let standings = tt.replay().unwrap();
    let winners = cardroom_games::Game::standings(&standings).unwrap();
    assert_eq!(places.len(), winners.len());
    assert!(select(&page, ".unverified").is_empty());
    // The last step, by the page's address (without JavaScript) and by its fragment (with).
    let (_, at_last) = get(&router, &format!("{path}?step={}", steps - 1)).await;
    assert_eq!(select(&at_last, "section.step .action"), std::slice::from_ref(&last_action));
    assert_eq!(attrs(&at_last, "#replay", "data-current"), [(steps - 1).to_string()]);
    assert_eq!(attrs(&at_last, "#log li[aria-current]", "aria-current"), ["step"]);
    let (status, fragment, headers) =
        get_raw(&router, &format!("{path}/steps/{}", steps - 1)).await;
    assert_eq!(status, StatusCode::OK);
    assert!(headers["cache-control"].to_str().unwrap().contains("max-age"));
    let fragment = Html::parse_fragment(&fragment);
    assert_eq!(select(&fragment, "section.step .action"), [last_action]);
    assert_eq!(select(&fragment, "section.step .hand").len(), usize::from(tt.players));
    // The table at step 1, drawn by the server (no JavaScript): each seat by its bot's name,
    // the seat to play marked, every hand of the finished match face up as the record holds it,
    // and the step said in a line naming the seat that acted.
    let mut state = tt.initial_state().unwrap();
    state.apply(tt.actions[0].seat, tt.actions[0].action).unwrap();
    let (_, one) = get(&router, &format!("{path}?step=1")).await;
    let to_act = state.to_act().unwrap();
    assert_eq!(attrs(&one, "section.step .seat[data-turn]", "data-seat"), [to_act.0.to_string()]);
    assert!(select(&one, "section.step .fan .card.back").is_empty(), "every hand face up");
    for (i, s) in m.seats.iter().enumerate() {
        let seat = cardroom_games::Seat(u8::try_from(i).unwrap());
        let name = select(&one, &format!("section.step .seat[data-seat='{i}'] > .who .name"));
        assert_eq!(name, [fixture.name_of(s.bot)]);
        let mut fan = attrs(&one, &format!(".fan[data-seat='{i}'] .card"), "data-card");
        let mut hand: Vec<String> =
            state.hand(seat).unwrap().as_slice().iter().map(|c| c.code()).collect();
        fan.sort();
        hand.sort();
        assert_eq!(fan, hand, "seat {i}'s hand at step 1");
    }
    let actor = usize::from(tt.actions[0].seat.0);
    assert_eq!(select(&one, "section.step p.line .who")[0], fixture.name_of(m.seats[actor].bot));
    assert_eq!(attrs(&one, "#replay > #said", "aria-live"), ["polite"]);
    // As one seat saw it (`?seat=N`, for the page and its fragments): its own hand face up,
    // the other's face down, no card of it named; every link keeps the seat.
    let (other, own) = (usize::from(1 - to_act.0), usize::from(to_act.0));
    let (_, seen) = get(&router, &format!("{path}?step=1&seat={own}")).await;
    let (_, body, _) = get_raw(&router, &format!("{path}/steps/1?seat={own}")).await;
    let fragment = Html::parse_fragment(&body);
    for drawn in [&seen, &fragment] {
        let hidden = select(drawn, &format!(".fan[data-seat='{other}'] .card.back"));
        assert_eq!(hidden.len(), state.hand(cardroom_games::Seat(1 - to_act.0)).unwrap().len());
        assert!(attrs(drawn, &format!(".fan[data-seat='{other}'] .card"), "data-card").is_empty());
        assert!(select(drawn, &format!(".fan[data-seat='{own}'] .card.back")).is_empty());
    }
    assert_eq!(attrs(&seen, "#replay", "data-seat"), [own.to_string()]);
    assert_eq!(attrs(&seen, "#next", "href"), [format!("?step=2&seat={own}")]);
    assert_eq!(select(&seen, "#eyes a[aria-current]"), [fixture.name_of(m.seats[own].bot)]);
    let (status, _, _) = get_raw(&router, &format!("{path}/steps/1?seat=9")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    // The seats link to their bots, by name.
    let seat_links = attrs(&page, "ol.result a.seat", "href");
    let expected: Vec<String> =
        m.seats.iter().map(|s| bot_path(TT, &fixture.name_of(s.bot))).collect();
    assert_eq!(seat_links, expected);
    // The download is the record `cardroom replay` reads, as stored.
    let href = attrs(&page, "a.download", "href").remove(0);
    assert_eq!(href, format!("{path}/record.json"));
    let (status, body, headers) = common::get_raw(&router, &href).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers.get("content-type").unwrap(), "application/json");
    assert_eq!(AnyRecord::from_json(&body).unwrap(), any);
    let json = |text: &str| serde_json::from_str::<serde_json::Value>(text).unwrap();
    assert_eq!(json(&body), json(&record));
}

/// A step's position drawn alone, as `replay.js` fetches it: the page's own drawing of it.
async fn fragment_of(router: &axum::Router, path: &str, step: usize) -> String {
    let (status, body, _) = get_raw(router, &format!("{path}/steps/{step}")).await;
    assert_eq!(status, StatusCode::OK, "step {step}");
    body
}

#[tokio::test]
async fn a_long_matchs_replay_page_is_light_and_draws_each_step_from_the_record() {
    let fixture = Fixture::new().await;
    let router = fixture.router();
    let path = format!("/ladders/{LONG}/matches/{}", fixture.long_match.0);
    let (status, body, _) = get_raw(&router, &path).await;
    assert_eq!(status, StatusCode::OK);
    let steps = fixture.long_record.actions.len() + 1;
    assert!(steps >= LONG_STEPS);
    // Issue 38: under 100 KB for a match of 500 steps (its positions were 4.2 MB of it).
    assert!(body.len() < 100_000, "{} bytes for {steps} steps", body.len());
    let page = Html::parse_document(&body);
    assert_eq!(select(&page, "#log li").len(), steps);
    assert_eq!(select(&page, "section.step").len(), 1);
    // Each position, fetched or by the page's address, is the record replayed to that step.
    let mut state = fixture.long_record.initial_state().unwrap();
    for (step, recorded) in (1..).zip(&fixture.long_record.actions).take(300) {
        state.apply(recorded.seat, recorded.action).unwrap();
        if step % 100 != 0 {
            continue;
        }
        let fragment = Html::parse_fragment(&fragment_of(&router, &path, step).await);
        let action = format!("{}: {}", recorded.seat, recorded.action);
        assert_eq!(select(&fragment, "section.step .action"), [action]);
        let stock = cardroom_games::Game::public_view(&state).stock_size.to_string();
        assert_eq!(attrs(&fragment, ".pile[data-pile=stock]", "data-count"), [stock], "{step}");
        // The discard pile's top card is the record's (GR-15), face up and marked.
        let top = state.discard_pile().last().map(|p| p.card.code());
        let drawn = attrs(&fragment, ".pile[data-pile='discard pile'] .top .card", "data-card");
        assert_eq!(drawn, Vec::from_iter(top), "step {step}");
        let (_, at) = get(&router, &format!("{path}?step={step}")).await;
        let drawn = Selector::parse("#view").unwrap();
        let drawn: String = at.select(&drawn).map(|e| e.inner_html()).collect();
        assert_eq!(Html::parse_fragment(&drawn).html(), fragment.html(), "step {step}");
    }
    // No step past the last; a step asked for past it by address draws the last.
    let (status, _, _) = get_raw(&router, &format!("{path}/steps/{steps}")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (_, beyond) = get(&router, &format!("{path}?step={}", steps + 10)).await;
    assert_eq!(attrs(&beyond, "#replay", "data-current"), [(steps - 1).to_string()]);
}

#[tokio::test]
async fn bot_addresses_go_by_name_escaped_and_old_numbers_move_there() {
    let fixture = Fixture::new().await;
    let router = fixture.router();
    // The leaderboard links each bot by its name, escaped: one segment that resolves.
    let (_, board) = get(&router, &format!("/ladders/{TT}")).await;
    let hrefs = attrs(&board, "table.leaderboard tbody td:nth-child(2) a", "href");
    let linked: Vec<String> = hrefs.iter().map(|h| name_in(h)).collect();
    assert_eq!(linked, select(&board, "table.leaderboard tbody td:nth-child(2) a"));
    assert!(linked.contains(&EVIL_NAME.to_owned()));
    for (href, name) in hrefs.iter().zip(&linked) {
        assert_eq!(href, &bot_path(TT, name));
        let (status, page) = get(&router, href).await;
        assert_eq!(status, StatusCode::OK, "{href}");
        assert_eq!(select(&page, "h1 .name"), std::slice::from_ref(name));
    }
    // The old address by number (the bot's account id) moves for good to the name's, its
    // query kept, and the page is there.
    for name in &linked {
        let id = fixture.id_of(name);
        for query in ["", "?page=2", "?page=2&before=3"] {
            let old = format!("/ladders/{TT}/bots/{}{query}", id.0);
            let (status, _, headers) = get_raw(&router, &old).await;
            assert_eq!(status, StatusCode::PERMANENT_REDIRECT, "{old}");
            let to = headers["location"].to_str().unwrap();
            assert_eq!(to, format!("{}{query}", bot_path(TT, name)));
            let (status, page) = get(&router, to).await;
            assert_eq!(status, StatusCode::OK, "{to}");
            assert_eq!(select(&page, "h1 .name"), std::slice::from_ref(name));
        }
    }
    // So does a form sent to an old address (308 keeps the method and the form).
    let evil = fixture.id_of(EVIL_NAME);
    let request = Request::post(format!("/ladders/{TT}/bots/{}/failures", evil.0))
        .header("content-type", "application/x-www-form-urlencoded")
        .body(Body::from(format!("key={}", fixture.key_of(EVIL_NAME))))
        .unwrap();
    let response = router.clone().oneshot(request).await.unwrap();
    assert_eq!(response.status(), StatusCode::PERMANENT_REDIRECT);
    let to = format!("{}/failures", bot_path(TT, EVIL_NAME));
    assert_eq!(response.headers()["location"], to.as_str());
}

#[tokio::test]
async fn a_bot_named_with_digits_or_oddly_is_found_by_its_name() {
    let fixture = Fixture::new().await;
    let router = fixture.router();
    // The bot named "1" takes that address before the old one of account 1 (the other bot).
    assert_eq!(fixture.id_of(WEIRD_NAME).0.to_string(), DIGITS_NAME);
    let (status, page) = get(&router, &format!("/ladders/{LONG}/bots/{DIGITS_NAME}")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(select(&page, "h1 .name"), [DIGITS_NAME]);
    let digits = fixture.id_of(DIGITS_NAME).0;
    let (status, _, headers) = get_raw(&router, &format!("/ladders/{LONG}/bots/{digits}")).await;
    assert_eq!(status, StatusCode::PERMANENT_REDIRECT);
    assert_eq!(headers["location"], format!("/ladders/{LONG}/bots/{DIGITS_NAME}").as_str());
    // A number is a number only in its plain form.
    let (status, _, _) = get_raw(&router, &format!("/ladders/{LONG}/bots/0{digits}")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    // The other one's name, with spaces, a slash, quotes, `?#%&+` and more than ASCII, is one
    // escaped segment wherever it is linked, and its page is there.
    let weird = bot_path(LONG, WEIRD_NAME);
    assert_eq!(attrs(&page, "table.head-to-head a", "href"), std::slice::from_ref(&weird));
    let (_, replay) =
        get(&router, &format!("/ladders/{LONG}/matches/{}", fixture.long_match.0)).await;
    let seats = attrs(&replay, "ol.result a.seat", "href");
    assert!(seats.contains(&weird), "{seats:?}");
    assert_eq!(name_in(&weird), WEIRD_NAME);
    let (status, page) = get(&router, &weird).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(select(&page, "h1 .name"), [WEIRD_NAME]);
    let opponent = attrs(&page, "table.matches a:not(.match)", "href");
    assert!(
        !opponent.is_empty()
            && opponent.iter().all(|h| h == &format!("/ladders/{LONG}/bots/{DIGITS_NAME}"))
    );
}

#[tokio::test]
async fn what_does_not_exist_is_a_404_page() {
    let fixture = Fixture::new().await;
    let router = fixture.router();
    let tt_match = fixture.store.bot_matches(fixture.tt, fixture.id_of(EVIL_NAME), None, 1);
    let tt_match = tt_match.await.unwrap().remove(0).id.0;
    let running = fixture.running.0;
    let missing_bot = fixture.bots.iter().map(|b| b.1.0).max().unwrap() + 100;
    for path in [
        "/nowhere".to_owned(),
        "/ladders/nope".to_owned(),
        "/ladders/nope/live".to_owned(),
        format!("/ladders/{TT}/bots/{missing_bot}"),
        format!("/ladders/{TT}/bots/not-a-number"),
        format!("/ladders/{TT}/bots/01"),
        format!("/ladders/{TT}/matches/{tt_match}/steps/9999"),
        format!("/ladders/{TT}/matches/999999"),
        format!("/ladders/{TT}/matches/x/record.json"),
        // A match that runs has no replay yet, one of no ladder none at all, and one of
        // another ladder none here.
        format!("/ladders/{TT}/matches/{running}"),
        format!("/ladders/{TT}/matches/{running}/record.json"),
        format!("/ladders/{TT}/matches/{}", LadderMatchId(running + 50).0),
        format!("/ladders/{GIN_SPRT}/matches/{tt_match}"),
        "/static/secret.txt".to_owned(),
        "/matches?id=%3Cscript%3E".to_owned(),
        // No game server behind these pages.
        "/server".to_owned(),
        "/matches/abc".to_owned(),
    ] {
        let (status, page) = get(&router, &path).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
        assert_eq!(attrs(&page, "a", "href").first().map(String::as_str), Some("/"), "{path}");
    }
    // A 404 names what was asked for as text.
    let (_, page) = get(&router, "/ladders/%3Cb%3Ex").await;
    assert!(text_of(&page).contains("no ladder <b>x"));
    assert!(!page.html().contains("<b>x"));
}

#[tokio::test]
async fn the_vendored_scripts_are_served_from_the_binary() {
    // Over an empty store: the scripts need no data.
    let store = Arc::new(SqliteStore::in_memory().await.unwrap());
    let source = StoreSource::new(Accounts::new(store));
    let router = cardroom_web::router(Arc::new(source), WebConfig::default());
    for (path, kind) in [
        ("/static/htmx.min.js", "text/javascript"),
        ("/static/htmx-ext-sse.min.js", "text/javascript"),
        ("/static/replay.js", "text/javascript"),
        ("/static/style.css", "text/css"),
    ] {
        let (status, body, headers) = common::get_raw(&router, path).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        assert_eq!(headers.get("content-type").unwrap(), kind);
        assert!(body.len() > 500, "{path}");
    }
}

#[tokio::test]
async fn the_leaderboard_is_redrawn_live_when_a_match_finishes() {
    let fixture = Fixture::new().await;
    let config =
        WebConfig { poll_interval: std::time::Duration::from_millis(10), ..WebConfig::default() };
    let router = fixture.router_with(config);
    let request = Request::get(format!("/ladders/{TT}/live")).body(Body::empty()).unwrap();
    let response = router.clone().oneshot(request).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers().get("content-type").unwrap(), "text/event-stream");
    let mut stream = response.into_body().into_data_stream();
    // The ladder's runner (here: this test) finishes its running match in the store.
    fixture.finish_running(1_797_000_000_000).await;
    let mut buffer = String::new();
    let board = common::next_event(&mut stream, &mut buffer, "board").await;
    let board = Html::parse_fragment(&board);
    assert_eq!(select(&board, ".summary .done"), ["7"]);
}

/// The address of another node of the server's store, as `MatchSummary.host` and the
/// `cardroom-node` metadata of `GetMatch` name it.
const OTHER_NODE: &str = "http://10.0.0.2:50051";

/// A server whose one running match another node of its store hosts (a hosted ladder match
/// on many nodes), over the store for everything else: what `ListMatches` and `GetMatch` tell
/// of it through this server.
struct OnAnotherNode {
    inner: StoreSource,
}

impl OnAnotherNode {
    fn running() -> cardroom_web::ListedMatch {
        cardroom_web::ListedMatch {
            id: "c0ffee".into(),
            game: "Gin Rummy".into(),
            seats: ["alice", "bob"]
                .map(|name| cardroom_web::ListedSeat {
                    name: name.into(),
                    connected: true,
                    place: None,
                })
                .into(),
            created_ms: 1_700_000_000_000,
            end: None,
            host: Some(OTHER_NODE.into()),
        }
    }
}

impl cardroom_web::Source for OnAnotherNode {
    async fn ladders(&self) -> Result<Vec<cardroom_web::LadderInfo>, cardroom_web::SourceError> {
        self.inner.ladders().await
    }
    async fn leaderboard(
        &self,
        ladder: &str,
    ) -> Result<Option<cardroom_web::Leaderboard>, cardroom_web::SourceError> {
        self.inner.leaderboard(ladder).await
    }
    async fn ladder_revision(
        &self,
        ladder: &str,
    ) -> Result<Option<u64>, cardroom_web::SourceError> {
        self.inner.ladder_revision(ladder).await
    }
    async fn bot(
        &self,
        ladder: &str,
        bot: &str,
        matches: cardroom_web::PageRequest,
    ) -> Result<Option<cardroom_web::BotPage>, cardroom_web::SourceError> {
        self.inner.bot(ladder, bot, matches).await
    }
    async fn failures(
        &self,
        ladder: &str,
        bot: &str,
        key: &str,
    ) -> Result<cardroom_web::Failures, cardroom_web::SourceError> {
        self.inner.failures(ladder, bot, key).await
    }
    async fn ladder_match(
        &self,
        ladder: &str,
        id: &str,
    ) -> Result<Option<cardroom_web::FinishedMatch>, cardroom_web::SourceError> {
        self.inner.ladder_match(ladder, id).await
    }
    async fn server_stats(&self) -> Result<cardroom_web::ServerStats, cardroom_web::SourceError> {
        Ok(cardroom_web::ServerStats {
            uptime_ms: 1_000,
            matches_running: 0,
            matches_finished: 0,
            connections_open: 0,
            decisions: 0,
            decision_p50_us: 0,
            decision_p99_us: 0,
        })
    }
    async fn server_matches(
        &self,
        state: cardroom_web::MatchState,
        _before: Option<&str>,
        _limit: u64,
    ) -> Result<cardroom_web::MatchList, cardroom_web::SourceError> {
        let matches = match state {
            cardroom_web::MatchState::Running => vec![OnAnotherNode::running()],
            cardroom_web::MatchState::Finished => Vec::new(),
        };
        Ok(cardroom_web::MatchList { matches, next: None })
    }
    async fn live_match(
        &self,
        id: &str,
    ) -> Result<Option<cardroom_web::LiveMatch>, cardroom_web::SourceError> {
        let running = OnAnotherNode::running();
        Ok((id == running.id).then(|| cardroom_web::LiveMatch {
            id: running.id,
            game: running.game,
            kind: None,
            seats: running
                .seats
                .into_iter()
                .map(|s| cardroom_web::LiveSeat { name: s.name, connected: true, strikes: 0 })
                .collect(),
            over: false,
            host: running.host,
        }))
    }
    async fn server_match(
        &self,
        _id: &str,
    ) -> Result<Option<cardroom_web::FinishedMatch>, cardroom_web::SourceError> {
        Ok(None)
    }
    async fn watch(
        &self,
        _id: &str,
    ) -> Result<
        futures::stream::BoxStream<
            'static,
            Result<cardroom_web::WatchUpdate, cardroom_web::SourceError>,
        >,
        cardroom_web::SourceError,
    > {
        Ok(Box::pin(futures::stream::pending()))
    }
}

#[tokio::test]
async fn a_match_another_node_hosts_is_shown_on_that_node() {
    let fixture = Fixture::new().await;
    let source = OnAnotherNode { inner: fixture.source() };
    let router = cardroom_web::router(std::sync::Arc::new(source), WebConfig::default());
    let on_node = format!("on node {OTHER_NODE}");
    // The server page's and the list's running matches name the node.
    for path in ["/server", "/server/matches"] {
        let (status, page) = get(&router, path).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        assert_eq!(select(&page, "tr[data-match=c0ffee] .host"), [on_node.as_str()], "{path}");
    }
    // So does the match's live page.
    let (status, page) = get(&router, "/matches/c0ffee").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(select(&page, "h1 .live"), ["live"]);
    assert_eq!(select(&page, "p .host"), [on_node.as_str()]);
}
