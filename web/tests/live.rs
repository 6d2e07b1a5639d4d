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
use cardroom_web::{LocalSource, WebConfig};
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
    let source = LocalSource::new([]).with_server(channel, None);
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
    assert_eq!(select(&page, "section.step").len(), gin_record.actions.len() + 1);
    assert_eq!(select(&page, "section.step:first-of-type .hand").len(), 2);
    let opening_hands = cards_in(
        &Html::parse_document(&page.html())
            .select(&Selector::parse("section.step:first-of-type .hands").unwrap())
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
