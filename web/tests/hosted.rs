//! The hosted ladders' figures on the pages (a [`cardroom_web::StoreSource`] over the server's
//! store) through the router, read with an HTML parser: the leaderboard and a bot's page
//! against the store's own reads, the escaping of what the store holds, and failures shown
//! only to the holder of the bot's key.
#![allow(clippy::unwrap_used)]

mod common;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use cardroom_store::BotId;
use cardroom_web::WebConfig;
use common::fixture::{EVIL_ANSWER, EVIL_ERROR, EVIL_OBSERVATION, Fixture, TT};
use common::{EVIL_NAME, bot_path, get, get_raw, name_in, text_of};
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

async fn post_key(router: &axum::Router, path: &str, key: &str) -> (StatusCode, Html) {
    let request = Request::post(path)
        .header("content-type", "application/x-www-form-urlencoded")
        .body(Body::from(format!("key={key}")))
        .unwrap();
    let response = router.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let body = axum::body::to_bytes(response.into_body(), 16 << 20).await.unwrap();
    (status, Html::parse_document(std::str::from_utf8(&body).unwrap()))
}

#[tokio::test]
async fn the_hosted_leaderboard_is_the_stores_ratings_ranked_with_names_escaped() {
    let fixture = Fixture::new().await;
    let (status, page) = get(&fixture.router(), &format!("/ladders/{TT}")).await;
    assert_eq!(status, StatusCode::OK);
    let lines = fixture.store.leaderboard(fixture.tt).await.unwrap();
    let names = select(&page, "table.leaderboard tbody td:nth-child(2) a");
    // Every bot once, in the standings' order (the next test); each row the store's figures.
    let mut sorted = names.clone();
    sorted.sort();
    let mut stored: Vec<String> = lines.iter().map(|l| l.name.clone()).collect();
    stored.sort();
    assert_eq!(sorted, stored);
    let lines: Vec<cardroom_store::LeaderboardLine> =
        names.iter().map(|name| lines.iter().find(|l| &l.name == name).unwrap().clone()).collect();
    let ratings = select(&page, "table.leaderboard tbody td:nth-child(3)");
    assert_eq!(ratings, lines.iter().map(|l| format!("{:.1}", l.rating.mean)).collect::<Vec<_>>());
    let games = select(&page, "table.leaderboard tbody td:nth-child(6)");
    assert_eq!(games, lines.iter().map(|l| l.matches.to_string()).collect::<Vec<_>>());
    assert_eq!(games.iter().map(|g| g.parse::<u64>().unwrap()).sum::<u64>(), 12);
    let illegal = select(&page, "table.leaderboard tbody td:nth-child(8)");
    let evil_row = names.iter().position(|n| n == EVIL_NAME).unwrap();
    assert_eq!(illegal[evil_row], "1");
    // Bot links go by name, escaped.
    let hrefs = attrs(&page, "table.leaderboard tbody td:nth-child(2) a", "href");
    let by_name: Vec<String> = lines.iter().map(|l| bot_path(TT, &l.name)).collect();
    assert_eq!(hrefs, by_name);
    assert_eq!(hrefs.iter().map(|h| name_in(h)).collect::<Vec<_>>(), names);
    // The name the store holds is text, never markup.
    assert!(!page.html().contains("<b>bold"));
    assert!(select(&page, "script").iter().all(|s| !s.contains("alert")));
    // The pairwise matrix from the rated sets, n × n, and each rank interval holding its rank.
    assert_eq!(select(&page, "table.matrix tbody tr").len(), 3);
    let intervals = select(&page, "table.leaderboard tbody td:nth-child(5)");
    for (rank, interval) in (1..).zip(&intervals) {
        let bounds: Vec<usize> = interval.split('–').map(|b| b.parse().unwrap()).collect();
        assert!(bounds[0] <= rank && rank <= *bounds.last().unwrap(), "{interval}");
    }
    assert_eq!(attrs(&page, "#board", "sse-connect"), [format!("/ladders/{TT}/live")]);
    // The fragment the live page swaps in is the same table.
    let (status, fragment) = get(&fixture.router(), &format!("/ladders/{TT}/board")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(select(&fragment, "table.leaderboard tbody td:nth-child(2) a"), names);
}

#[tokio::test]
async fn the_ladder_page_says_its_clock_and_how_bots_are_hosted_when_they_are() {
    let fixture = Fixture::new().await;
    let page = get(&fixture.router(), &format!("/ladders/{TT}")).await.1;
    let clock = select(&page, "p.clock");
    assert_eq!(clock, ["Clock: the server's time a move and the server's bank a seat."]);
    assert!(select(&page, "p.hosted-bots").is_empty(), "a server hosting no bot says nothing");
    let hosting = "Submitted bots are hosted here.";
    let config = WebConfig { hosted_bots: Some(hosting.into()), ..WebConfig::default() };
    let page = get(&fixture.router_with(config), &format!("/ladders/{TT}")).await.1;
    assert_eq!(select(&page, "p.hosted-bots"), [hosting]);
}

#[tokio::test]
async fn the_leaderboard_moves_when_a_match_finishes() {
    let fixture = Fixture::new().await;
    let router = fixture.router();
    let before = get(&router, &format!("/ladders/{TT}")).await.1;
    assert!(select(&before, ".summary .done") == ["6"]);
    // The running match finishes: the cached board is read anew.
    fixture.finish_running(1_797_000_000_000).await;
    let after = get(&router, &format!("/ladders/{TT}")).await.1;
    assert_eq!(select(&after, ".summary .done"), ["7"]);
}

#[tokio::test]
async fn the_leaderboard_has_one_order_the_standings_whatever_the_ratings() {
    let fixture = Fixture::new().await;
    let router = fixture.router();
    let mut lines = fixture.store.leaderboard(fixture.tt).await.unwrap();
    // The standings put the bots in the reverse of their ratings' order.
    lines.sort_by(|a, b| a.rating.mean.total_cmp(&b.rating.mean));
    let k = lines.len() as u32;
    let rows = lines
        .iter()
        .enumerate()
        .map(|(i, l)| cardroom_store::StandingsRow {
            bot: l.bot,
            rank_lo: i as u32 + 1,
            rank_hi: i as u32 + 1,
            indistinguishable_from_first: i == 0,
            p_better: (0..k).map(|j| if j > i as u32 { 0.99 } else { 0.0 }).collect(),
        })
        .collect();
    let snapshot = cardroom_store::Standings {
        revision: 3,
        first_set: 0,
        sets: 3,
        confidence: 0.95,
        settled: true,
        computed_ms: 1,
        rows,
        sprt: None,
    };
    fixture.store.put_standings(fixture.tt, &snapshot).await.unwrap();
    let (_, page) = get(&router, &format!("/ladders/{TT}")).await;
    let names = select(&page, "table.leaderboard tbody td:nth-child(2) a");
    assert_eq!(names, lines.iter().map(|l| l.name.clone()).collect::<Vec<_>>());
    let ranks = select(&page, "table.leaderboard tbody td:nth-child(1)");
    let intervals = select(&page, "table.leaderboard tbody td:nth-child(5)");
    for (rank, interval) in ranks.iter().zip(&intervals) {
        assert_eq!(rank, interval, "a rank and its interval agree");
    }
}

#[tokio::test]
async fn a_paused_bots_reason_shows_on_the_leaderboard_and_its_page() {
    let fixture = Fixture::new().await;
    let router = fixture.router();
    let id = fixture.id_of(EVIL_NAME);
    let reason = "finals: <b>late</b> entered after the finals began (set 1 was planned before \
                  it came); the field is frozen, so it is not scheduled";
    fixture.store.pause_bot(fixture.tt, id, reason, 1_797_000_000_000).await.unwrap();
    // The standings leave it out, as a finals ladder's do for a late entrant.
    let bots = fixture.store.ladder_bots(fixture.tt).await.unwrap();
    let others: Vec<BotId> = bots.iter().map(|b| b.bot).filter(|&b| b != id).collect();
    assert_eq!(others.len(), 2);
    let row = |bot| cardroom_store::StandingsRow {
        bot,
        rank_lo: 1,
        rank_hi: 2,
        indistinguishable_from_first: true,
        p_better: vec![0.0; 2],
    };
    let snapshot = cardroom_store::Standings {
        revision: 1,
        first_set: 0,
        sets: 1,
        confidence: 0.95,
        settled: false,
        computed_ms: 1,
        rows: others.iter().map(|&bot| row(bot)).collect(),
        sprt: None,
    };
    fixture.store.put_standings(fixture.tt, &snapshot).await.unwrap();
    let (status, page) = get(&router, &format!("/ladders/{TT}")).await;
    assert_eq!(status, StatusCode::OK);
    // Only the paused bot's row says so, its reason in the title, as text; it has no rank
    // interval, the others the snapshot's.
    assert_eq!(select(&page, "table.leaderboard .paused"), ["(paused)"]);
    assert_eq!(attrs(&page, "table.leaderboard .paused", "title"), [reason]);
    let names = select(&page, "table.leaderboard tbody td:nth-child(2)");
    let intervals = select(&page, "table.leaderboard tbody td:nth-child(5)");
    for (name, interval) in names.iter().zip(&intervals) {
        let expected = if name.contains("(paused)") { "—" } else { "1–2" };
        assert_eq!(interval, expected, "{name}");
    }
    let (_, page) = get(&router, &bot_path(TT, EVIL_NAME)).await;
    assert_eq!(select(&page, "p.paused"), [format!("Paused, not scheduled: {reason}")]);
    assert!(!page.html().contains("<b>late"));
}

#[tokio::test]
async fn a_hosted_bot_page_shows_its_history_versions_matches_and_opponents() {
    let fixture = Fixture::new().await;
    let router = fixture.router();
    let id = fixture.id_of(EVIL_NAME);
    let path = bot_path(TT, EVIL_NAME);
    let (status, page) = get(&router, &path).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(select(&page, "h1 .name"), [EVIL_NAME]);
    let history = fixture.store.bot_rating_history(fixture.tt, id).await.unwrap();
    assert_eq!(history.len(), 2);
    assert_eq!(select(&page, "svg.rating circle").len(), history.len() + 1);
    assert_eq!(select(&page, "table.versions tbody td:nth-child(1)"), ["1.0"]);
    assert_eq!(select(&page, "table.versions tbody td:nth-child(3)"), ["4"]);
    // Newest first, two a page.
    let all = fixture.store.bot_matches(fixture.tt, id, None, 10).await.unwrap();
    assert_eq!(all.len(), 4);
    let href = |m: &cardroom_store::LadderMatch| format!("/ladders/{TT}/matches/{}", m.id.0);
    assert_eq!(attrs(&page, "a.match", "href"), all[..2].iter().map(href).collect::<Vec<_>>());
    // The older page's link carries its cursor (the last id shown): the store reads that page
    // alone. The same page asked for by number alone is the same.
    let next = format!("{path}?page=2&before={}", all[1].id.0);
    assert_eq!(attrs(&page, "a[rel=next]", "href"), std::slice::from_ref(&next));
    for second in [next, format!("{path}?page=2")] {
        let (_, second) = get(&router, &second).await;
        assert_eq!(
            attrs(&second, "a.match", "href"),
            all[2..].iter().map(href).collect::<Vec<_>>()
        );
        assert_eq!(attrs(&second, "a[rel=prev]", "href"), [format!("{path}?page=1")]);
    }
    let (_, beyond) = get(&router, &format!("{path}?page=9")).await;
    assert!(attrs(&beyond, "a.match", "href").is_empty());
    let (status, _, _) = get_raw(&router, &format!("{path}?page=2&before=x")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    // Head to head as the store counts it: a line per opponent met (both others), each a
    // link by name.
    let against = fixture.store.head_to_head(fixture.tt, id).await.unwrap();
    assert_eq!(against.len(), 2);
    let rows = select(&page, "table.head-to-head tbody tr");
    assert_eq!(rows.len(), against.len());
    let wins: Vec<String> = against.iter().map(|h| h.wins.to_string()).collect();
    assert_eq!(select(&page, "table.head-to-head tbody td:nth-child(2)"), wins);
    let links: Vec<String> = against.iter().map(|h| bot_path(TT, &h.name)).collect();
    assert_eq!(attrs(&page, "table.head-to-head a", "href"), links);
    assert_eq!(select(&page, ".health .illegal"), ["1"]);
    // The think-time histogram: every decision of its matches in a bar, the slowest 40 ms.
    let think = fixture.store.bot_think_times(fixture.tt, id, 1_000).await.unwrap();
    assert_eq!(think.iter().map(|v| v.think.count).sum::<u64>(), 8);
    let bars: Vec<u64> = select(&page, "svg.histogram rect title")
        .iter()
        .map(|t| t.rsplit(": ").next().unwrap().parse().unwrap())
        .collect();
    assert_eq!(bars.iter().sum::<u64>(), 8, "{bars:?}");
    assert_eq!(
        select(&page, ".think-window"),
        ["Think times over its last 4 matches with timed decisions."]
    );
    assert_eq!(select(&page, "table.think-by-version tbody td:nth-child(1)"), ["1.0"]);
    assert_eq!(select(&page, "table.think-by-version tbody td:nth-child(3)"), ["8"]);
    assert_eq!(select(&page, "table.think-by-version tbody td:nth-child(7)"), ["40.0 ms"]);
    assert!(select(&page, ".health li").iter().any(|l| l.starts_with("think time: median")));
    assert!(!page.html().contains("<b>bold"));
    // The failures form, since the store keeps them.
    assert_eq!(attrs(&page, "form", "action"), [format!("{path}/failures")]);
}

#[tokio::test]
async fn failures_are_shown_to_the_holder_of_the_bots_key_only() {
    let fixture = Fixture::new().await;
    let router = fixture.router();
    let key = fixture.key_of(EVIL_NAME);
    let path = format!("{}/failures", bot_path(TT, EVIL_NAME));
    // Any key but its own: none, another bot's of the ladder.
    for wrong in ["not-a-key", fixture.key_of("tt-heuristic")] {
        let (status, page) = post_key(&router, &path, wrong).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(select(&page, ".wrong-key").len(), 1, "{wrong}");
        assert!(select(&page, "article.failure").is_empty());
        assert!(!text_of(&page).contains("7h"));
    }
    let (status, page) = post_key(&router, &path, key).await;
    assert_eq!(status, StatusCode::OK);
    // The match, the kind and the error, the bot's own answer and the observation it had, all
    // text, never markup.
    let stored = fixture.store.failures(fixture.tt, fixture.id_of(EVIL_NAME), 10).await.unwrap();
    assert_eq!(stored.len(), 1);
    let heading = format!("Match {}: illegal: {EVIL_ERROR}", stored[0].match_id.0);
    assert_eq!(select(&page, "article.failure h3"), [heading]);
    assert_eq!(select(&page, "article.failure p code"), [EVIL_ANSWER]);
    assert!(!page.html().contains("<img") && !page.html().contains("<must"));
    assert_eq!(select(&page, "article.failure pre"), [EVIL_OBSERVATION]);

    // A hosted bot's output in that match comes with it, as text, to its author alone.
    let output = "--- stderr\n<script>alert(1)</script> traceback";
    let (ladder, failed) = (fixture.tt, stored[0].match_id);
    fixture.store.keep_output(ladder, failed, fixture.id_of(EVIL_NAME), output).await.unwrap();
    let (_, page) = post_key(&router, &path, key).await;
    assert_eq!(select(&page, "article.failure pre"), [EVIL_OBSERVATION, output]);
    assert!(select(&page, "script").iter().all(|s| !s.contains("alert")));
    let (_, stranger) = post_key(&router, &path, "not-a-key").await;
    assert!(!text_of(&stranger).contains("traceback"));
}
