//! The pages of a real server's matches, over its public rpcs: the server's figures, a running
//! match's public view streaming live (and no hidden card in it), and the replay once it is
//! over.
#![allow(clippy::unwrap_used)]

mod common;

use std::collections::BTreeSet;
use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use cardroom_example_bots::gin_heuristic::GinHeuristic;
use cardroom_games::{AnyRecord, Seat};
use cardroom_sdk::games::gin;
use cardroom_sdk::{ConnectConfig, GameKind, MatchSpec, Organizer};
use cardroom_server::Config;
use cardroom_tests::TestServer;
use cardroom_web::{ServerSource, WebConfig};
use scraper::{Html, Selector};
use tower::ServiceExt as _;

const SEED: u64 = 7;

fn select(html: &Html, css: &str) -> Vec<String> {
    let selector = Selector::parse(css).unwrap();
    html.select(&selector).map(|e| e.text().collect::<String>().trim().to_owned()).collect()
}

/// The cards named in a fragment of the pages (`data-card="AS"`).
fn cards_in(html: &str) -> BTreeSet<String> {
    html.split("data-card=\"").skip(1).filter_map(|rest| rest.get(..2)).map(str::to_owned).collect()
}

#[tokio::test]
async fn a_server_match_is_public_while_it_runs_and_replayed_once_over() {
    let server = TestServer::start(Config::default()).await;
    let channel = tonic::transport::Endpoint::from_shared(server.url()).unwrap().connect_lazy();
    let source = ServerSource::new(channel, None);
    let router = cardroom_web::router(Arc::new(source), WebConfig::default());
    let mut organizer = Organizer::new(&server.url()).unwrap();
    let created = organizer
        .create_match(&MatchSpec {
            game: GameKind::Gin,
            // A short match: the first to 10 points.
            options_json: r#"{"target": 10}"#.to_owned(),
            seats: 2,
            seed: Some(SEED),
            clock: None,
            lobby_bots: Vec::new(),
        })
        .await
        .unwrap();
    let id = created.match_id.clone();

    // The server's page counts it.
    let (status, page) = common::get(&router, "/server").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(select(&page, "dd.running"), ["1"]);
    assert_eq!(select(&page, "dd.connections"), ["0"]);

    // The live page: the seats, and the public stream.
    let (status, page) = common::get(&router, &format!("/matches/{id}")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(select(&page, "h1 .live"), ["live"]);
    assert_eq!(select(&page, "ol.seats li").len(), 2);
    assert!(select(&page, ".hand").is_empty());
    // This server's own match names no node.
    assert!(select(&page, ".host").is_empty());
    let request = Request::get(format!("/matches/{id}/live")).body(Body::empty()).unwrap();
    let response = router.clone().oneshot(request).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let mut stream = response.into_body().into_data_stream();
    let mut buffer = String::new();
    let view = common::next_event(&mut stream, &mut buffer, "view").await;
    // The deal is known from its seed: the upcard is public, neither hand is.
    let dealt =
        gin::State::new(gin::Options { target: 10, ..gin::Options::default() }, SEED).unwrap();
    let hidden: BTreeSet<String> = (0..2)
        .flat_map(|seat| {
            let observation = serde_json::to_value(dealt.observation(Seat(seat))).unwrap();
            observation["hand"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c.as_str().unwrap().to_owned())
                .collect::<Vec<_>>()
        })
        .collect();
    assert_eq!(hidden.len(), 20);
    let shown = cards_in(&view);
    assert!(!shown.is_empty(), "the upcard is shown: {view}");
    // Drawn as a table: both hands face down, ten cards each; the upcard on the discard pile.
    let table = Html::parse_fragment(&view);
    assert_eq!(select(&table, ".fan .card.back").len(), 20, "{view}");
    assert!(select(&table, ".fan [data-card]").is_empty(), "{view}");
    let upcard = dealt.discard_pile()[0].card.code();
    let top = Selector::parse(".pile[data-pile='discard pile'] .top .card").unwrap();
    let top: Vec<&str> = table.select(&top).filter_map(|e| e.value().attr("data-card")).collect();
    assert_eq!(top, [upcard.as_str()]);
    assert!(shown.is_disjoint(&hidden), "hidden cards {:?} in {view}", shown.intersection(&hidden));

    // Two bots play it out; the stream tells the events and the end.
    let players: Vec<_> = created
        .tokens
        .iter()
        .map(|token| {
            let config = ConnectConfig::with_token(server.url(), token.clone());
            tokio::spawn(async move {
                let mut bot = GinHeuristic::new();
                cardroom_sdk::play::<gin::State>(&config, &mut bot).await.unwrap();
            })
        })
        .collect();
    let events = common::next_event(&mut stream, &mut buffer, "events").await;
    assert!(events.contains("<li>"), "{events}");
    let end = common::next_event(&mut stream, &mut buffer, "end").await;
    assert!(end.contains("over") && end.contains(&format!("/matches/{id}")), "{end}");
    for player in players {
        player.await.unwrap();
    }

    // Over: the replay of its record, hands and all.
    let record = organizer.record(&id).await.unwrap();
    let any = AnyRecord::from_json(&record).unwrap();
    let AnyRecord::Gin(gin_record) = &any else { panic!("a Gin Rummy record") };
    let (status, page) = common::get(&router, &format!("/matches/{id}")).await;
    assert_eq!(status, StatusCode::OK);
    // Every step listed, the deal drawn; each other step drawn on its own.
    let steps = gin_record.actions.len() + 1;
    assert_eq!(select(&page, "#log li").len(), steps);
    assert_eq!(select(&page, "section.step .action"), ["the deal"]);
    assert_eq!(select(&page, "section.step:first-of-type .hand").len(), 2);
    let (status, body, _) =
        common::get_raw(&router, &format!("/matches/{id}/steps/{}", steps - 1)).await;
    assert_eq!(status, StatusCode::OK);
    let last = gin_record.actions.last().unwrap();
    let drawn = Html::parse_fragment(&body);
    assert_eq!(select(&drawn, "section.step .action"), [format!("{}: {}", last.seat, last.action)]);
    let (_, at_last) = common::get(&router, &format!("/matches/{id}?step={}", steps - 1)).await;
    assert_eq!(select(&at_last, "section.step .action"), select(&drawn, "section.step .action"));
    let opening_hands = cards_in(
        &Html::parse_document(&page.html())
            .select(&Selector::parse("section.step:first-of-type .hand").unwrap())
            .map(|e| e.html())
            .collect::<String>(),
    );
    assert_eq!(opening_hands, hidden, "after the end the hands are revealed");
    let (status, body, _) = common::get_raw(&router, &format!("/matches/{id}/record.json")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(AnyRecord::from_json(&body).unwrap(), any);
    let (status, _) = common::get(&router, "/matches/ffffffff").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

/// The `href`s of the links `css` selects.
fn hrefs(html: &Html, css: &str) -> Vec<String> {
    let selector = Selector::parse(css).unwrap();
    html.select(&selector).filter_map(|e| e.value().attr("href").map(str::to_owned)).collect()
}

#[tokio::test]
async fn the_server_page_lists_running_matches_linked_live_and_pages_them() {
    use cardroom_proto::pb;
    use cardroom_tests::Bot;

    let server = TestServer::start(Config::default()).await;
    let channel = tonic::transport::Endpoint::from_shared(server.url()).unwrap().connect_lazy();
    let source = ServerSource::new(channel, None);
    let config = WebConfig { page_size: 2, ..WebConfig::default() };
    let router = cardroom_web::router(Arc::new(source), config);
    let mut ids = Vec::new();
    for seed in 1..=3 {
        ids.push(server.create(pb::Game::TwentyTwo, 2, seed).await);
    }
    // Bots sit down in the newest match, one under a name that is markup.
    let (newest, tokens) = &ids[2];
    let join = |token: &str, name: &str| pb::Join {
        seat: Some(pb::join::Seat::SeatToken(token.to_owned())),
        bot_name: name.to_owned(),
        ..Default::default()
    };
    let mut seated = Vec::new();
    for (token, name) in tokens.iter().zip([common::EVIL_NAME, "plain"]) {
        let mut bot = Bot::open(server.channel().await, join(token, name)).await.unwrap();
        assert!(matches!(bot.next().await.unwrap(), Some(pb::server_message::Message::Joined(_))));
        seated.push(bot);
    }

    // The front page links the list; the server's page lists every running match, newest
    // first, each linked to its live page.
    let (_, front) = common::get(&router, "/").await;
    assert!(hrefs(&front, "a").contains(&"/server/matches".to_owned()));
    let (status, body, _) = common::get_raw(&router, "/server").await;
    assert_eq!(status, StatusCode::OK);
    assert!(!body.contains("<script>alert"), "a bot's name is escaped");
    assert!(!body.contains("data-card"), "no card, hidden or not, is in the list");
    let page = Html::parse_document(&body);
    let expected: Vec<String> = ids.iter().rev().map(|(id, _)| format!("/matches/{id}")).collect();
    assert_eq!(hrefs(&page, "table.server-matches a.match"), expected);
    let first_row = format!("table.server-matches tr[data-match=\"{newest}\"] .seat");
    assert_eq!(select(&page, &first_row), [common::EVIL_NAME, "plain"]);
    let (status, live) = common::get(&router, &expected[0]).await;
    assert_eq!((status, select(&live, "h1 .live")), (StatusCode::OK, vec!["live".to_owned()]));

    // `/server/matches` pages them, `page_size` at a time, by cursor.
    let (_, first) = common::get(&router, "/server/matches").await;
    assert_eq!(hrefs(&first, "table.server-matches a.match"), expected[..2]);
    let next = hrefs(&first, "nav.pages a[rel=next]");
    assert_eq!(next.len(), 1);
    let (status, second) = common::get(&router, &next[0]).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(hrefs(&second, "table.server-matches a.match"), expected[2..]);
    assert!(hrefs(&second, "nav.pages a[rel=next]").is_empty());
    let (status, _) = common::get(&router, "/server/matches?before=nonsense").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);

    // Played out, the newest match is listed among the finished, with each seat's place.
    let players: Vec<_> = seated
        .into_iter()
        .zip(0..)
        .map(|(bot, seed)| tokio::spawn(bot.play_randomly(seed)))
        .collect();
    for player in players {
        player.await.unwrap();
    }
    let (_, running) = common::get(&router, "/server").await;
    assert_eq!(hrefs(&running, "table.server-matches a.match"), expected[1..]);
    let (status, finished) = common::get(&router, "/server/matches?state=finished").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(hrefs(&finished, "table.server-matches a.match"), expected[..1]);
    let places = select(&finished, "table.server-matches ol.seats li");
    assert_eq!(places.len(), 2);
    assert!(places.iter().any(|p| p.ends_with("1st")), "{places:?}");
}
