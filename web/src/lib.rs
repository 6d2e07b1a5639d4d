//! cardroom's web face: server-rendered pages of its ladders, bots, matches and server, read
//! by anyone, changing nothing.
//!
//! - [`router`] builds the pages over any [`Source`] (the data, read-only). [`StoreSource`]
//!   is the one over a server's store (its hosted ladders), with a [`ServerSource`] beside it
//!   for the server's matches; a `ServerSource` alone serves a server without a store (no
//!   ladders). [`server_router`] picks between them.
//! - [`serve`] serves a router on a listener until a shutdown future completes
//!   (`cardroom serve --http-addr` runs it beside gRPC), with the limits of a
//!   [`ServeConfig`]: so many connections at once, a header timeout, a body timeout. The
//!   live streams are capped in all and by address ([`WebConfig::max_streams`]), and each
//!   live feed is polled once for all its streams.
//! - [`ops_router`] adds what an operator's tools ask: `/healthz`, `/readyz` (a
//!   [`Readiness`]: the game server and its store answer) and `/metrics`.
//!
//! The pages are HTML from [maud] templates (checked by the compiler, every value escaped
//! unless marked otherwise): they work without JavaScript. Where a page moves (a leaderboard
//! as matches finish, a running match, the server's figures) htmx swaps in fragments sent as
//! server-sent events; htmx and its SSE extension are vendored in `static/` and compiled into
//! the binary, so the pages need no network. A replay page lists its match's steps and draws
//! one; a few lines of plain JavaScript step through them with the slider and the arrow keys,
//! fetching each step's drawing from the server, so the page stays light however long the
//! match.
//!
//! Nothing hidden reaches a browser: a running match is drawn only from its public stream
//! (`Watch`), and hands appear only in the replay of a finished match's record.
//!
//! ```no_run
//! # async fn example() -> Result<(), Box<dyn std::error::Error>> {
//! use std::sync::Arc;
//! use cardroom_store::Accounts;
//! use cardroom_web::{ServeConfig, ServerSource, StoreSource, WebConfig};
//!
//! // The ladders from the server's store, its matches over its public rpcs.
//! let store = cardroom_store::open("sqlite:cardroom.sqlite").await?;
//! let server = tonic::transport::Endpoint::from_static("http://127.0.0.1:50051");
//! let source = StoreSource::new(Accounts::new(store))
//!     .with_server(ServerSource::new(server.connect_lazy(), None));
//! let router = cardroom_web::router(Arc::new(source), WebConfig::default());
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
//! cardroom_web::serve(listener, router, ServeConfig::default(), std::future::pending()).await?;
//! # Ok(())
//! # }
//! ```

mod apart;
mod feeds;
mod hosted;
mod ops;
mod pages;
mod plot;
mod replay;
mod seats;
mod serve;
mod server;
mod source;
mod streams;
mod time;

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::routing::{get, post};

pub use apart::{lower_priority, serve_apart};
pub use hosted::StoreSource;
pub use ops::{GameServer, NotReady, READY_TIMEOUT, Readiness, ops_router};
pub use seats::{PeopleTable, PlayConfig};
pub use serve::{ServeConfig, serve};
pub use server::ServerSource;
pub use source::{
    BotPage, Failure, Failures, FinishedMatch, HeadToHeadLine, Health, LadderInfo, LeaderRow,
    Leaderboard, ListedMatch, ListedSeat, LiveMatch, LiveSeat, MatchLine, MatchList, MatchState,
    PageRequest, RatingAt, ServerStats, Source, SourceError, SprtState, ThinkBucket, VersionLine,
    WatchEvent, WatchUpdate,
};
pub use time::utc_time;

/// How the pages behave.
#[derive(Clone, Debug)]
pub struct WebConfig {
    /// How often live pages look for news where nothing tells them (a ladder's revision in
    /// the store, the server's figures).
    pub poll_interval: Duration,
    /// Lines per page of a long list (a bot's matches).
    pub page_size: u64,
    /// The most live pages' event streams open at once; one more is refused with 503.
    pub max_streams: usize,
    /// The most live streams open at once from one IP address (as [`serve`] gives it); one
    /// more is refused with 429. A request that comes without its peer's address (the
    /// router served some other way) counts under the unspecified address.
    pub max_streams_per_address: usize,
    /// How this server hosts submitted bots, in a sentence the ladder pages show (`serve
    /// --host-bots`: the sandbox's limits, the same for every hosted bot); `None`: it hosts
    /// none.
    pub hosted_bots: Option<Arc<str>>,
    /// The throttle of failed authentication the bot pages' key form counts in: the game
    /// server's ([`cardroom_server::Server::auth_throttle`]), so that a guess costs the same
    /// at either door. `None`: one of the pages' own, with the server's default quotas.
    pub auth_throttle: Option<Arc<cardroom_server::AuthThrottle>>,
    /// The hosted ladders, which play the scrimmages an author asks for on a bot's page; `None`:
    /// the pages take no scrimmages.
    pub ladders: Option<LadderControl>,
    /// Where the seats people take from the pages play (`/seat/{token}`), and whether the
    /// ladder pages take guests; `None`: the pages seat no one.
    pub play: Option<PlayConfig>,
}

/// The hosted ladders' control, for the pages' scrimmage form.
#[derive(Clone)]
pub struct LadderControl(pub Arc<dyn cardroom_server::LadderControl>);

impl std::fmt::Debug for LadderControl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("LadderControl")
    }
}

impl Default for WebConfig {
    fn default() -> WebConfig {
        WebConfig {
            poll_interval: Duration::from_secs(1),
            page_size: 50,
            max_streams: 512,
            max_streams_per_address: 16,
            hosted_bots: None,
            auth_throttle: None,
            ladders: None,
            play: None,
        }
    }
}

impl WebConfig {
    /// This config with at most half of `max_connections` (the server's, [`ServeConfig`]) for
    /// live streams, so that pages still load when the streams are full, and at most that
    /// many from one address.
    pub fn within_connections(self, max_connections: usize) -> WebConfig {
        let max_streams = self.max_streams.min(max_connections / 2).max(1);
        let max_streams_per_address = self.max_streams_per_address.min(max_streams);
        WebConfig { max_streams, max_streams_per_address, ..self }
    }
}

/// What every handler shares: the source, the settings, the live streams open and the live
/// feeds running.
pub(crate) struct App<S> {
    source: Arc<S>,
    config: WebConfig,
    streams: streams::LiveStreams,
    feeds: feeds::Feeds,
    /// Bot pages as last answered, given again for a second.
    recent_bot_pages: Arc<pages::RecentBotPages>,
    /// Where the key form's failures count.
    throttle: Arc<cardroom_server::AuthThrottle>,
    /// The seats people hold through the pages.
    seats: Arc<seats::Seats>,
}

// Derived `Clone` would ask `S: Clone`; only the `Arc`s are cloned.
impl<S> Clone for App<S> {
    fn clone(&self) -> App<S> {
        App {
            source: Arc::clone(&self.source),
            config: self.config.clone(),
            streams: self.streams.clone(),
            feeds: self.feeds.clone(),
            recent_bot_pages: Arc::clone(&self.recent_bot_pages),
            throttle: Arc::clone(&self.throttle),
            seats: Arc::clone(&self.seats),
        }
    }
}

/// Every page over `source`.
pub fn router<S: Source>(source: Arc<S>, config: WebConfig) -> Router {
    let throttle = config.auth_throttle.clone().unwrap_or_else(|| {
        let defaults = cardroom_server::Config::default();
        Arc::new(cardroom_server::AuthThrottle::new(
            defaults.auth_failures_per_peer,
            defaults.auth_failures_per_bot,
        ))
    });
    Router::new()
        .route("/", get(pages::front::<S>))
        .route("/ladders", get(pages::ladders::<S>))
        .route("/ladders/{ladder}", get(pages::leaderboard::<S>))
        .route("/ladders/{ladder}/board", get(pages::board_fragment::<S>))
        .route("/ladders/{ladder}/live", get(pages::ladder_live::<S>))
        .route("/ladders/{ladder}/bots/{bot}", get(pages::bot_page::<S>))
        .route("/ladders/{ladder}/bots/{bot}/failures", post(pages::failures::<S>))
        .route("/ladders/{ladder}/bots/{bot}/scrimmage", post(pages::scrimmage::<S>))
        .route("/ladders/{ladder}/matches/{id}", get(pages::ladder_match::<S>))
        .route("/authors/{name}", get(pages::author_page::<S>))
        .route("/join", get(pages::join_page).post(pages::join::<S>))
        .route("/seasons", get(pages::seasons_page::<S>))
        .route("/seasons/{name}", get(pages::season_page::<S>))
        .route("/seasons/{name}/finals", get(pages::finals_page::<S>))
        .route("/seasons/{name}/feed.atom", get(pages::season_feed::<S>))
        .route("/ladders/{ladder}/matches/{id}/record.json", get(pages::ladder_record::<S>))
        .route("/ladders/{ladder}/matches/{id}/steps/{step}", get(pages::ladder_step::<S>))
        .route("/matches", get(pages::find_match))
        .route("/matches/{id}", get(pages::server_match::<S>))
        .route("/matches/{id}/record.json", get(pages::server_record::<S>))
        .route("/matches/{id}/steps/{step}", get(pages::server_step::<S>))
        .route("/matches/{id}/live", get(pages::server_match_live::<S>))
        .route("/server", get(pages::server_page::<S>))
        .route("/server/live", get(pages::server_live::<S>))
        .route("/server/matches", get(pages::server_matches::<S>))
        .route("/seat/{token}", get(pages::seat_page::<S>))
        .route("/seat/{token}/live", get(pages::seat_live::<S>))
        .route("/seat/{token}/act", post(pages::seat_act::<S>))
        .route("/ladders/{ladder}/play", post(pages::guest_match::<S>))
        .route("/ladders/{ladder}/rated", post(pages::rated_seat::<S>))
        .route("/static/{file}", get(pages::static_file))
        .fallback(pages::not_found)
        .with_state(App {
            seats: Arc::new(seats::Seats::new(config.play.clone())),
            source,
            streams: streams::LiveStreams::new(config.max_streams, config.max_streams_per_address),
            config,
            feeds: feeds::Feeds::default(),
            recent_bot_pages: Arc::default(),
            throttle,
        })
}

/// The pages of a server: its matches (`server`) and, when it keeps a store (its
/// `accounts`), the hosted ladders in it (a [`StoreSource`]).
pub fn server_router(
    server: ServerSource,
    accounts: Option<cardroom_store::Accounts>,
    config: WebConfig,
) -> Router {
    match accounts {
        Some(accounts) => router(Arc::new(StoreSource::new(accounts).with_server(server)), config),
        None => router(Arc::new(server), config),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn live_streams_take_at_most_half_the_connections() {
        let config =
            WebConfig { max_streams: 512, max_streams_per_address: 16, ..WebConfig::default() };
        let fitted = config.clone().within_connections(64);
        assert_eq!((fitted.max_streams, fitted.max_streams_per_address), (32, 16));
        let fitted = config.clone().within_connections(10);
        assert_eq!((fitted.max_streams, fitted.max_streams_per_address), (5, 5));
        let fitted = config.clone().within_connections(4_096);
        assert_eq!((fitted.max_streams, fitted.max_streams_per_address), (512, 16));
        assert_eq!(config.within_connections(1).max_streams, 1);
    }
}
