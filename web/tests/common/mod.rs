//! What the page tests share: ladder files played by the example bots, and requests through
//! the router.
#![allow(clippy::unwrap_used, dead_code, unreachable_pub)]

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::{HeaderMap, Request, StatusCode};
use cardroom_arena::{Format, Ladder, Settings, Store, run};
use cardroom_example_bots::gin_heuristic::GinHeuristic;
use cardroom_example_bots::random::RandomBot;
use cardroom_example_bots::tt_heuristic::TtHeuristic;
use cardroom_rank::{RatingSystem, SprtConfig};
use cardroom_sdk::games::{gin, twenty_two};
use cardroom_web::{LocalSource, WebConfig};
use futures::StreamExt as _;
use scraper::Html;
use tower::ServiceExt as _;

pub mod hosted;

/// A bot name that is markup, to check that the pages escape it.
pub const EVIL_NAME: &str = "<script>alert(\"x\")</script><b>bold & co";

/// Two ladder files in a temporary directory: `tt` (Twenty-Two, round robin of three bots, one
/// of them named [`EVIL_NAME`]) and `gin-sprt` (Gin Rummy, an SPRT of two sets).
pub struct Fixture {
    _dir: tempfile::TempDir,
    pub tt: PathBuf,
    pub gin: PathBuf,
}

impl Fixture {
    pub fn ladders() -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        let tt = dir.path().join("tt.sqlite");
        let gin = dir.path().join("gin sprt.sqlite");
        let tt_names = ["tt-heuristic", EVIL_NAME, "random"];
        let ladder = Ladder {
            settings: Settings {
                table: 2,
                seed: 11,
                duplicate: true,
                max_rotations: None,
                format: Format::RoundRobin { rounds: 1 },
                rating: RatingSystem::WengLin,
            },
            bots: tt_names
                .iter()
                .map(|&name| {
                    let make: cardroom_arena::BotMaker<twenty_two::State> = if name == "random" {
                        Arc::new(|seed| Box::new(RandomBot::new(seed)))
                    } else {
                        Arc::new(|_| Box::new(TtHeuristic::new()))
                    };
                    (name.to_owned(), make)
                })
                .collect(),
            new_match: Arc::new(|seed| {
                twenty_two::State::new(twenty_two::Options::default(), 2, seed)
                    .map_err(|e| e.to_string())
            }),
            parallel: 1,
        };
        run(&ladder, &mut Store::open(&tt).unwrap(), &mut |_| {}).unwrap();
        let ladder = Ladder {
            settings: Settings {
                table: 2,
                seed: 5,
                duplicate: true,
                max_rotations: None,
                format: Format::Sprt {
                    a: "gin-heuristic".into(),
                    b: "random".into(),
                    sprt: SprtConfig::default(),
                    max_sets: 2,
                },
                rating: RatingSystem::Glicko2,
            },
            bots: ["gin-heuristic", "random"]
                .iter()
                .map(|&name| {
                    let make: cardroom_arena::BotMaker<gin::State> = if name == "random" {
                        Arc::new(|seed| Box::new(RandomBot::new(seed)))
                    } else {
                        Arc::new(|_| Box::new(GinHeuristic::new()))
                    };
                    (name.to_owned(), make)
                })
                .collect(),
            new_match: Arc::new(|seed| {
                gin::State::new(gin::Options::default(), seed).map_err(|e| e.to_string())
            }),
            parallel: 1,
        };
        run(&ladder, &mut Store::open(&gin).unwrap(), &mut |_| {}).unwrap();
        Fixture { _dir: dir, tt, gin }
    }

    pub fn source(&self) -> LocalSource {
        LocalSource::new([self.tt.clone(), self.gin.clone()])
    }

    pub fn router(&self) -> Router {
        self.router_with(WebConfig::default())
    }

    pub fn router_with(&self, config: WebConfig) -> Router {
        cardroom_web::router(Arc::new(self.source()), config)
    }
}

/// A bot name with spaces, a slash, quotes, URL syntax and letters beyond ASCII: its page's
/// address must escape it.
pub const WEIRD_NAME: &str = "ace ♠ / \"dealer\" ?#%&+ é";

/// A bot name of digits only, as an old bot address's number is.
pub const DIGITS_NAME: &str = "1";

/// The fewest steps the long match has: the replay page's weight is bounded for it.
pub const LONG_STEPS: usize = 500;

/// A ladder file `long` of Gin Rummy played to a high target by two heuristic bots named
/// [`DIGITS_NAME`] (bot 0) and [`WEIRD_NAME`] (bot 1), and its longest match, of at least
/// [`LONG_STEPS`] steps (the deal and one per action).
pub struct LongMatch {
    _dir: tempfile::TempDir,
    pub path: PathBuf,
    /// The longest match's id.
    pub id: i64,
    /// Its record.
    pub record: cardroom_games::Record<gin::State>,
}

impl LongMatch {
    pub fn new() -> LongMatch {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("long.sqlite");
        let ladder = Ladder {
            settings: Settings {
                table: 2,
                seed: 3,
                duplicate: false,
                max_rotations: None,
                format: Format::RoundRobin { rounds: 1 },
                rating: RatingSystem::Glicko2,
            },
            bots: [DIGITS_NAME, WEIRD_NAME]
                .iter()
                .map(|&name| {
                    let make: cardroom_arena::BotMaker<gin::State> =
                        Arc::new(|_| Box::new(GinHeuristic::new()));
                    (name.to_owned(), make)
                })
                .collect(),
            new_match: Arc::new(|seed| {
                let options = gin::Options { target: 120, ..gin::Options::default() };
                gin::State::new(options, seed).map_err(|e| e.to_string())
            }),
            parallel: 1,
        };
        let mut store = Store::open(&path).unwrap();
        run(&ladder, &mut store, &mut |_| {}).unwrap();
        let (id, record) = store
            .finished_matches(None, 0, 100)
            .unwrap()
            .iter()
            .map(|m| {
                let json = store.record(m.id).unwrap().unwrap();
                let cardroom_games::AnyRecord::Gin(record) =
                    cardroom_games::AnyRecord::from_json(&json).unwrap()
                else {
                    panic!("a Gin Rummy record")
                };
                (m.id, record)
            })
            .max_by_key(|(_, record)| record.actions.len())
            .unwrap();
        assert!(record.actions.len() + 1 >= LONG_STEPS, "{} actions", record.actions.len());
        LongMatch { _dir: dir, path, id, record }
    }

    pub fn source(&self) -> LocalSource {
        LocalSource::new([self.path.clone()])
    }

    pub fn router(&self) -> Router {
        cardroom_web::router(Arc::new(self.source()), WebConfig::default())
    }
}

/// The address of the page of the bot named `name` in `ladder`, as the pages write it: the name
/// one path segment, every byte but RFC 3986's unreserved characters percent-encoded.
pub fn bot_path(ladder: &str, name: &str) -> String {
    const UNRESERVED: &percent_encoding::AsciiSet =
        &percent_encoding::NON_ALPHANUMERIC.remove(b'-').remove(b'.').remove(b'_').remove(b'~');
    format!("/ladders/{ladder}/bots/{}", percent_encoding::utf8_percent_encode(name, UNRESERVED))
}

/// The bot name a bot page's address `href` carries, decoded; it must be one path segment of
/// unreserved characters and percent escapes.
pub fn name_in(href: &str) -> String {
    let (_, segment) = href.split_once("/bots/").unwrap();
    let segment = segment.split(['?', '#']).next().unwrap();
    assert!(
        segment.bytes().all(|b| b.is_ascii_alphanumeric() || b"-._~%".contains(&b)),
        "{href} is not one escaped segment"
    );
    percent_encoding::percent_decode_str(segment).decode_utf8().unwrap().into_owned()
}

/// GET `path`: its status, body and headers.
pub async fn get_raw(router: &Router, path: &str) -> (StatusCode, String, HeaderMap) {
    let request = Request::get(path).body(Body::empty()).unwrap();
    let response = router.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let headers = response.headers().clone();
    let body = axum::body::to_bytes(response.into_body(), 16 << 20).await.unwrap();
    (status, String::from_utf8(body.to_vec()).unwrap(), headers)
}

/// GET `path`, parsed as HTML.
pub async fn get(router: &Router, path: &str) -> (StatusCode, Html) {
    let (status, body, _) = get_raw(router, path).await;
    (status, Html::parse_document(&body))
}

/// The text of a whole page.
pub fn text_of(html: &Html) -> String {
    html.root_element().text().collect()
}

/// Reads server-sent events from `body` until one named `name` arrives; returns its data.
pub async fn next_event(
    stream: &mut (impl futures::Stream<Item = Result<axum::body::Bytes, axum::Error>> + Unpin),
    buffer: &mut String,
    name: &str,
) -> String {
    loop {
        while let Some(end) = buffer.find("\n\n") {
            let event: String = buffer.drain(..end + 2).collect();
            let mut kind = "";
            let mut data = Vec::new();
            for line in event.lines() {
                if let Some(k) = line.strip_prefix("event: ") {
                    kind = k;
                } else if let Some(d) = line.strip_prefix("data: ") {
                    data.push(d);
                }
            }
            if kind == name {
                return data.join("\n");
            }
        }
        let chunk = tokio::time::timeout(Duration::from_secs(60), stream.next())
            .await
            .expect("an event within a minute")
            .expect("the stream goes on")
            .unwrap();
        buffer.push_str(std::str::from_utf8(&chunk).unwrap());
    }
}
