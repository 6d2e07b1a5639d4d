//! cardroom's web face: server-rendered pages of its ladders, bots, matches and server, read
//! by anyone, changing nothing.
//!
//! - [`router`] builds the pages over any [`Source`] (the data, read-only); [`LocalSource`]
//!   is the one over the arena's ladder files and a running server's public rpcs,
//!   [`StoreSource`] the one over a server's store (its hosted ladders) beside a
//!   `LocalSource`; [`server_router`] picks between them.
//! - [`serve`] serves a router on a listener until a shutdown future completes
//!   (`cardroom serve --http-addr` runs it beside gRPC).
//!
//! The pages are HTML from [maud] templates (checked by the compiler, every value escaped
//! unless marked otherwise): they work without JavaScript. Where a page moves (a leaderboard
//! as matches finish, a running match, the server's figures) htmx swaps in fragments sent as
//! server-sent events; htmx and its SSE extension are vendored in `static/` and compiled into
//! the binary, so the pages need no network. The replay's slider and arrow keys are a few
//! lines of plain JavaScript.
//!
//! Nothing hidden reaches a browser: a running match is drawn only from its public stream
//! (`Watch`), and hands appear only in the replay of a finished match's record.
//!
//! ```no_run
//! # async fn example() -> std::io::Result<()> {
//! use std::sync::Arc;
//! use cardroom_web::{LocalSource, WebConfig};
//!
//! let source = LocalSource::new(["ladder.sqlite".into()]);
//! let router = cardroom_web::router(Arc::new(source), WebConfig::default());
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
//! let grace = std::time::Duration::from_secs(1);
//! cardroom_web::serve(listener, router, std::future::pending(), grace).await
//! # }
//! ```

mod apart;
mod hosted;
mod local;
mod pages;
mod plot;
mod replay;
mod source;
mod time;

use std::future::{Future, IntoFuture as _};
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::routing::{get, post};

pub use apart::serve_apart;
pub use hosted::StoreSource;
pub use local::LocalSource;
pub use source::{
    BotPage, Failure, Failures, FinishedMatch, HeadToHeadLine, Health, LadderInfo, LeaderRow,
    Leaderboard, ListedMatch, ListedSeat, LiveMatch, LiveSeat, MatchLine, MatchList, MatchState,
    PageRequest, RatingAt, ServerStats, Source, SourceError, SprtState, ThinkBucket, VersionLine,
    WatchUpdate,
};
pub use time::utc_time;

/// How the pages behave.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WebConfig {
    /// How often live pages look for news where nothing tells them (a ladder file another
    /// process writes, the server's figures).
    pub poll_interval: Duration,
    /// Lines per page of a long list (a bot's matches).
    pub page_size: u64,
}

impl Default for WebConfig {
    fn default() -> WebConfig {
        WebConfig { poll_interval: Duration::from_secs(1), page_size: 50 }
    }
}

/// What every handler shares: the source and the settings.
pub(crate) struct App<S> {
    source: Arc<S>,
    config: WebConfig,
}

// Derived `Clone` would ask `S: Clone`; only the `Arc` is cloned.
impl<S> Clone for App<S> {
    fn clone(&self) -> App<S> {
        App { source: Arc::clone(&self.source), config: self.config }
    }
}

/// Every page over `source`.
pub fn router<S: Source>(source: Arc<S>, config: WebConfig) -> Router {
    Router::new()
        .route("/", get(pages::front::<S>))
        .route("/ladders", get(pages::ladders::<S>))
        .route("/ladders/{ladder}", get(pages::leaderboard::<S>))
        .route("/ladders/{ladder}/board", get(pages::board_fragment::<S>))
        .route("/ladders/{ladder}/live", get(pages::ladder_live::<S>))
        .route("/ladders/{ladder}/bots/{bot}", get(pages::bot_page::<S>))
        .route("/ladders/{ladder}/bots/{bot}/failures", post(pages::failures::<S>))
        .route("/ladders/{ladder}/matches/{id}", get(pages::ladder_match::<S>))
        .route("/ladders/{ladder}/matches/{id}/record.json", get(pages::ladder_record::<S>))
        .route("/matches", get(pages::find_match))
        .route("/matches/{id}", get(pages::server_match::<S>))
        .route("/matches/{id}/record.json", get(pages::server_record::<S>))
        .route("/matches/{id}/live", get(pages::server_match_live::<S>))
        .route("/server", get(pages::server_page::<S>))
        .route("/server/live", get(pages::server_live::<S>))
        .route("/server/matches", get(pages::server_matches::<S>))
        .route("/static/{file}", get(pages::static_file))
        .fallback(pages::not_found)
        .with_state(App { source, config })
}

/// The pages of a server: `local`'s ladder files and server and, when the server keeps a
/// store (its `accounts`), the hosted ladders in it (a [`StoreSource`]).
pub fn server_router(
    local: LocalSource,
    accounts: Option<cardroom_store::Accounts>,
    config: WebConfig,
) -> Router {
    match accounts {
        Some(accounts) => router(Arc::new(StoreSource::new(accounts, local)), config),
        None => router(Arc::new(local), config),
    }
}

/// Serves `router` on `listener` until `shutdown` completes. Then no new request is taken,
/// and those open (live pages' event streams never end by themselves) get `grace` to finish
/// before they are cut.
pub async fn serve(
    listener: tokio::net::TcpListener,
    router: Router,
    shutdown: impl Future<Output = ()> + Send + 'static,
    grace: Duration,
) -> std::io::Result<()> {
    let (began, mut beginning) = tokio::sync::watch::channel(false);
    let signal = async move {
        shutdown.await;
        let _ = began.send(true);
    };
    let server = axum::serve(listener, router).with_graceful_shutdown(signal).into_future();
    tokio::pin!(server);
    tokio::select! {
        result = &mut server => return result,
        _ = beginning.wait_for(|began| *began) => {}
    }
    match tokio::time::timeout(grace, server).await {
        Ok(result) => result,
        Err(_) => {
            tracing::info!(?grace, "open page streams cut at shutdown");
            Ok(())
        }
    }
}
