//! The pages' HTTP server: hyper's HTTP/1 connections, capped in number and in time, so that
//! slow or silent clients can hold neither the pages nor the process's descriptors for long.

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::task::JoinSet;
use tower::ServiceExt as _;
use tower_http::timeout::RequestBodyTimeoutLayer;

/// How [`serve`] treats connections.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ServeConfig {
    /// The most connections open at once. The next one waits in the kernel's accept queue
    /// until one closes: it holds no descriptor of the server's meanwhile.
    pub max_connections: usize,
    /// How long a connection gets to send a request's head: from its opening, and from the
    /// end of its previous response (hyper starts the clock whenever it waits for a head, so
    /// this is also how long a kept-alive connection may sit idle). Past it the connection is
    /// closed.
    pub header_timeout: Duration,
    /// How long a request's body may send nothing; past it the request fails.
    pub body_timeout: Duration,
    /// At shutdown, how long requests still open (live pages' event streams never end by
    /// themselves) get to finish before they are cut.
    pub grace: Duration,
}

impl Default for ServeConfig {
    fn default() -> ServeConfig {
        ServeConfig {
            max_connections: 1_024,
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            grace: Duration::from_secs(5),
        }
    }
}

impl ServeConfig {
    /// The share of the process's open files (its soft `RLIMIT_NOFILE`) the pages may take
    /// for their connections: a quarter. The rest stays for gRPC, the store and the records.
    pub const DESCRIPTOR_SHARE: u64 = 4;

    /// This config with `max_connections` at most a quarter of `open_files`, the process's
    /// limit on open files (at least one connection).
    pub fn within_open_files(self, open_files: u64) -> ServeConfig {
        let share = usize::try_from(open_files / Self::DESCRIPTOR_SHARE).unwrap_or(usize::MAX);
        ServeConfig { max_connections: self.max_connections.min(share).max(1), ..self }
    }
}

/// Serves `router` on `listener` until `shutdown` completes: HTTP/1 only, with each request
/// told its peer's address (axum's `ConnectInfo<SocketAddr>`, which the live streams' caps
/// count by). Then no new connection is taken, and those open get `config.grace` to finish
/// before they are cut.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    config: ServeConfig,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new()).header_read_timeout(config.header_timeout);
    let body_timeout = RequestBodyTimeoutLayer::new(config.body_timeout);
    let permits = Arc::new(Semaphore::new(config.max_connections));
    let graceful = GracefulShutdown::new();
    // Every connection's task: aborted if this returns before they end (after the grace).
    let mut connections = JoinSet::new();
    tokio::pin!(shutdown);
    loop {
        let (stream, peer, permit) = tokio::select! {
            biased;
            () = &mut shutdown => break,
            Some(_) = connections.join_next() => continue,
            accepted = accept(&listener, &permits) => accepted,
        };
        let service = tower::ServiceBuilder::new()
            .layer(body_timeout.clone())
            .service(router.clone())
            .map_request(move |mut request: axum::http::Request<Incoming>| {
                request.extensions_mut().insert(ConnectInfo(peer));
                request
            });
        let connection = graceful
            .watch(http.serve_connection(TokioIo::new(stream), TowerToHyperService::new(service)));
        connections.spawn(async move {
            if let Err(error) = connection.await {
                tracing::debug!(%peer, cause = %error, "page connection ended");
            }
            drop(permit);
        });
    }
    drop(listener);
    if tokio::time::timeout(config.grace, graceful.shutdown()).await.is_err() {
        tracing::info!(grace = ?config.grace, "open page streams cut at shutdown");
    }
    Ok(())
}

/// The next connection, once fewer than the most are open. A failed accept is retried: at
/// once when only that connection failed, after a second when the process is out of
/// something (descriptors, memory), as hyper's and axum's servers do.
async fn accept(
    listener: &TcpListener,
    permits: &Arc<Semaphore>,
) -> (TcpStream, SocketAddr, OwnedSemaphorePermit) {
    // The semaphore is never closed.
    let Ok(permit) = Arc::clone(permits).acquire_owned().await else {
        return std::future::pending().await;
    };
    loop {
        match listener.accept().await {
            Ok((stream, peer)) => return (stream, peer, permit),
            Err(error) if is_connection_error(&error) => {}
            Err(error) => {
                tracing::warn!(cause = %error, "accepting a page connection failed; again in 1 s");
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        }
    }
}

/// Whether an accept failed for that connection alone.
fn is_connection_error(error: &std::io::Error) -> bool {
    use std::io::ErrorKind;
    matches!(
        error.kind(),
        ErrorKind::ConnectionRefused | ErrorKind::ConnectionAborted | ErrorKind::ConnectionReset
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pages_take_at_most_a_quarter_of_the_open_files() {
        let config = ServeConfig { max_connections: 1_000, ..ServeConfig::default() };
        assert_eq!(config.within_open_files(256).max_connections, 64);
        assert_eq!(config.within_open_files(1_048_576).max_connections, 1_000);
        assert_eq!(config.within_open_files(u64::MAX).max_connections, 1_000);
        assert_eq!(config.within_open_files(2).max_connections, 1);
    }
}
