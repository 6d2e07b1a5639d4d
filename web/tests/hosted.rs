//! The hosted ladders' pages (a [`cardroom_web::StoreSource`] over the server's store) through
//! the router, read with an HTML parser: each page against the store's own reads, the escaping
//! of what the store holds, 404s, and failures shown only to the holder of the bot's key.
#![allow(clippy::unwrap_used)]

mod common;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use cardroom_store::{BotId, LadderMatchId};
use common::hosted::{EVIL_ANSWER, Hosted, LADDER};
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
async fn the_front_page_lists_the_hosted_ladder_beside_the_ladder_files() {
    let hosted = Hosted::new().await;
    let (status, page) = get(&hosted.router(), "/").await;
    assert_eq!(status, StatusCode::OK);
    let links = attrs(&page, "table.ladders a", "href");
    assert_eq!(
        links,
        [format!("/ladders/{LADDER}"), "/ladders/gin-sprt".into(), "/ladders/tt".into()]
    );
    let rows = select(&page, "table.ladders tbody tr");
    // Six matches done; the open set's two are planned.
    assert!(rows[0].contains("Twenty-Two") && rows[0].contains("6 / 8"), "{}", rows[0]);
}

#[tokio::test]
async fn the_hosted_leaderboard_is_the_stores_ratings_ranked_with_names_escaped() {
    let hosted = Hosted::new().await;
    let (status, page) = get(&hosted.router(), &format!("/ladders/{LADDER}")).await;
    assert_eq!(status, StatusCode::OK);
    let lines = hosted.store.leaderboard(hosted.ladder).await.unwrap();
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
    let by_name: Vec<String> = lines.iter().map(|l| bot_path(LADDER, &l.name)).collect();
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
    assert_eq!(attrs(&page, "#board", "sse-connect"), [format!("/ladders/{LADDER}/live")]);
}

#[tokio::test]
async fn the_leaderboard_moves_when_a_match_finishes() {
    let hosted = Hosted::new().await;
    let router = hosted.router();
    let before = get(&router, &format!("/ladders/{LADDER}")).await.1;
    assert!(select(&before, ".summary .done") == ["6"]);
    // The running match finishes: the cached board is read anew.
    let claim = cardroom_store::Claim { id: hosted.running, owner: "test".into(), attempt: 1 };
    let seats = [0u8, 1].map(|seat| cardroom_store::SeatResult {
        seat,
        version: "2.0".into(),
        place: seat + 1,
        forfeited: false,
        think: Default::default(),
    });
    let result = cardroom_store::MatchResult {
        claim,
        server_match_id: "late".into(),
        seats: seats.to_vec(),
        record_json: None,
        failures: Vec::new(),
    };
    hosted.store.finish_match(&result, 1_797_000_000_000).await.unwrap();
    let after = get(&router, &format!("/ladders/{LADDER}")).await.1;
    assert_eq!(select(&after, ".summary .done"), ["7"]);
}

#[tokio::test]
async fn the_leaderboard_has_one_order_the_standings_whatever_the_ratings() {
    let hosted = Hosted::new().await;
    let router = hosted.router();
    let mut lines = hosted.store.leaderboard(hosted.ladder).await.unwrap();
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
    hosted.store.put_standings(hosted.ladder, &snapshot).await.unwrap();
    let (_, page) = get(&router, &format!("/ladders/{LADDER}")).await;
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
    let hosted = Hosted::new().await;
    let router = hosted.router();
    let (id, _) = hosted.bots[hosted.index_of(EVIL_NAME)];
    let reason = "finals: <b>late</b> entered after the finals began (set 1 was planned before \
                  it came); the field is frozen, so it is not scheduled";
    hosted.store.pause_bot(hosted.ladder, id, reason, 1_797_000_000_000).await.unwrap();
    // The standings leave it out, as a finals ladder's do for a late entrant.
    let others: Vec<BotId> = hosted.bots.iter().map(|b| b.0).filter(|&b| b != id).collect();
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
    hosted.store.put_standings(hosted.ladder, &snapshot).await.unwrap();
    let (status, page) = get(&router, &format!("/ladders/{LADDER}")).await;
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
    let (_, page) = get(&router, &bot_path(LADDER, EVIL_NAME)).await;
    assert_eq!(select(&page, "p.paused"), [format!("Paused, not scheduled: {reason}")]);
    assert!(!page.html().contains("<b>late"));
}

#[tokio::test]
async fn a_hosted_bot_page_shows_its_history_versions_matches_and_opponents() {
    let hosted = Hosted::new().await;
    let router = hosted.router();
    let (id, _) = hosted.bots[hosted.index_of(EVIL_NAME)];
    let path = bot_path(LADDER, EVIL_NAME);
    let (status, page) = get(&router, &path).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(select(&page, "h1 .name"), [EVIL_NAME]);
    let history = hosted.store.bot_rating_history(hosted.ladder, id).await.unwrap();
    assert_eq!(history.len(), 2);
    assert_eq!(select(&page, "svg.rating circle").len(), history.len() + 1);
    assert_eq!(select(&page, "table.versions tbody td:nth-child(1)"), ["1.0"]);
    assert_eq!(select(&page, "table.versions tbody td:nth-child(3)"), ["4"]);
    // Newest first, two a page.
    let all = hosted.store.bot_matches(hosted.ladder, id, None, 10).await.unwrap();
    assert_eq!(all.len(), 4);
    let href = |m: &cardroom_store::LadderMatch| format!("/ladders/{LADDER}/matches/{}", m.id.0);
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
    // Head to head as the store counts it, each opponent a link by name.
    let against = hosted.store.head_to_head(hosted.ladder, id).await.unwrap();
    let rows = select(&page, "table.head-to-head tbody tr");
    assert_eq!(rows.len(), against.len());
    let wins: Vec<String> = against.iter().map(|h| h.wins.to_string()).collect();
    assert_eq!(select(&page, "table.head-to-head tbody td:nth-child(2)"), wins);
    let links: Vec<String> = against.iter().map(|h| bot_path(LADDER, &h.name)).collect();
    assert_eq!(attrs(&page, "table.head-to-head a", "href"), links);
    assert_eq!(select(&page, ".health .illegal"), ["1"]);
    // The think-time histogram: every decision of its matches in a bar, the slowest 40 ms.
    let think = hosted.store.bot_think_times(hosted.ladder, id, 1_000).await.unwrap();
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
    let hosted = Hosted::new().await;
    let router = hosted.router();
    let evil = hosted.index_of(EVIL_NAME);
    let (_, key) = &hosted.bots[evil];
    let path = format!("{}/failures", bot_path(LADDER, EVIL_NAME));
    let other_key = &hosted.bots[(evil + 1) % hosted.bots.len()].1;
    for wrong in ["not-a-key", other_key.as_str()] {
        let (status, page) = post_key(&router, &path, wrong).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(select(&page, ".wrong-key").len(), 1, "{wrong}");
        assert!(select(&page, "article.failure").is_empty());
        assert!(!text_of(&page).contains("7h"));
    }
    let (status, page) = post_key(&router, &path, key).await;
    assert_eq!(status, StatusCode::OK);
    let failures = select(&page, "article.failure h3");
    assert_eq!(failures.len(), 1);
    assert!(failures[0].contains("GR-1: not a legal action"), "{failures:?}");
    // The bot's own answer is text, never markup; its observation is there.
    assert_eq!(select(&page, "article.failure p code"), [EVIL_ANSWER]);
    assert!(!page.html().contains("<img"));
    assert!(select(&page, "article.failure pre")[0].contains("7h"));
}

#[tokio::test]
async fn a_hosted_match_replays_its_record_and_offers_it_for_download() {
    let hosted = Hosted::new().await;
    let router = hosted.router();
    let (id, _) = hosted.bots[0];
    let newest = &hosted.store.bot_matches(hosted.ladder, id, None, 1).await.unwrap()[0];
    let path = format!("/ladders/{LADDER}/matches/{}", newest.id.0);
    let (status, page) = get(&router, &path).await;
    assert_eq!(status, StatusCode::OK);
    // A step per action of the record and the deal, listed; the deal drawn, and each other
    // step drawn on its own (the fragment `replay.js` fetches).
    let stored = hosted.store.ladder_record(newest.id).await.unwrap().unwrap();
    let cardroom_games::AnyRecord::TwentyTwo(record) =
        cardroom_games::AnyRecord::from_json(&stored).unwrap()
    else {
        panic!("a Twenty-Two record")
    };
    let steps = record.actions.len() + 1;
    assert_eq!(select(&page, "#log li").len(), steps);
    assert_eq!(attrs(&page, "#replay", "data-steps"), [steps.to_string()]);
    assert_eq!(select(&page, "section.step .action"), ["the deal"]);
    assert!(select(&page, ".unverified").is_empty());
    let (status, body, _) = get_raw(&router, &format!("{path}/steps/{}", steps - 1)).await;
    assert_eq!(status, StatusCode::OK);
    let last = record.actions.last().unwrap();
    let drawn = Html::parse_fragment(&body);
    assert_eq!(select(&drawn, "section.step .action"), [format!("{}: {}", last.seat, last.action)]);
    let (status, _, _) = get_raw(&router, &format!("{path}/steps/{steps}")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    // Each seat links to its bot's page, by name.
    let seats: Vec<String> =
        newest.seats.iter().map(|s| bot_path(LADDER, &hosted.name_of(s.bot))).collect();
    assert_eq!(attrs(&page, "ol.result a.seat", "href"), seats);
    let (status, body, headers) = get_raw(&router, &format!("{path}/record.json")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(headers["content-type"].to_str().unwrap().contains("json"));
    let json = |text: &str| serde_json::from_str::<serde_json::Value>(text).unwrap();
    assert_eq!(json(&body), json(&stored));
}

#[tokio::test]
async fn unknown_and_unfinished_hosted_pages_are_404() {
    let hosted = Hosted::new().await;
    let router = hosted.router();
    let (bot, _) = hosted.bots[0];
    let missing_bot = BotId(bot.0 + 100);
    let paths = [
        "/ladders/no-such-ladder".to_owned(),
        format!("/ladders/{LADDER}/bots/{}", missing_bot.0),
        format!("/ladders/{LADDER}/bots/not-a-bot"),
        // A match that runs has no replay yet, and one of no ladder none at all.
        format!("/ladders/{LADDER}/matches/{}", hosted.running.0),
        format!("/ladders/{LADDER}/matches/{}", LadderMatchId(hosted.running.0 + 50).0),
        format!("/ladders/{LADDER}/matches/{}/record.json", hosted.running.0),
        format!("/ladders/tt/matches/{}", hosted.running.0 + 50),
    ];
    for path in paths {
        let (status, _, _) = get_raw(&router, &path).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
    }
}

#[tokio::test]
async fn an_old_bot_address_by_account_id_moves_to_the_name() {
    let hosted = Hosted::new().await;
    let router = hosted.router();
    for (id, _) in &hosted.bots {
        let name = hosted.name_of(*id);
        for query in ["", "?page=2"] {
            let old = format!("/ladders/{LADDER}/bots/{}{query}", id.0);
            let (status, _, headers) = get_raw(&router, &old).await;
            assert_eq!(status, StatusCode::PERMANENT_REDIRECT, "{old}");
            let to = headers["location"].to_str().unwrap();
            assert_eq!(to, format!("{}{query}", bot_path(LADDER, &name)));
            let (status, page) = get(&router, to).await;
            assert_eq!(status, StatusCode::OK, "{to}");
            assert_eq!(select(&page, "h1 .name"), std::slice::from_ref(&name));
        }
    }
    // A failures form sent to the old address moves too, the method and the form kept.
    let (id, key) = &hosted.bots[hosted.index_of(EVIL_NAME)];
    let request = Request::post(format!("/ladders/{LADDER}/bots/{}/failures", id.0))
        .header("content-type", "application/x-www-form-urlencoded")
        .body(Body::from(format!("key={key}")))
        .unwrap();
    let response = router.clone().oneshot(request).await.unwrap();
    assert_eq!(response.status(), StatusCode::PERMANENT_REDIRECT);
    let to = format!("{}/failures", bot_path(LADDER, EVIL_NAME));
    assert_eq!(response.headers()["location"], to.as_str());
}
