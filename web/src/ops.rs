//! What an operator's tools ask of a node, beside the pages: `/healthz` (the process answers),
//! `/readyz` (the node can play) and `/metrics` (its figures, in Prometheus' text exposition
//! format). None is cached, and none is a stream: each takes a connection under the pages' cap
//! like any page, and never a live stream's slot, so no per-address cap refuses a prober.

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use cardroom_proto::server::cardroom_server::SERVICE_NAME;
use cardroom_server::Host;
use cardroom_store::Store;
use prometheus_client::encoding::prometheus_text;
use prometheus_client::registry::Registry;
use tonic::transport::Channel;
use tonic_health::pb::HealthCheckRequest;
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_client::HealthClient;

/// How long `/readyz` waits for each of the game server and the store to answer.
pub const READY_TIMEOUT: Duration = Duration::from_secs(2);

/// What `/readyz` checks: that the game server serves (it stops once it shuts down), and that
/// its store, if it keeps one, answers at the schema this build knows ([`Store::ready`]). Each
/// is asked anew at every request, within [`READY_TIMEOUT`].
#[derive(Clone, Debug)]
pub struct Readiness {
    server: GameServer,
    store: Option<Arc<dyn Store>>,
}

/// How `/readyz` asks the game server whether it serves.
#[derive(Clone, Debug)]
pub enum GameServer {
    /// Its gRPC health check, over the pages' own plaintext channel to it: the server answers
    /// on its port, and says serving.
    Grpc(Channel),
    /// In the process ([`Host::is_stopping`]), for a server the pages cannot dial (it speaks
    /// only TLS).
    InProcess(Host),
}

impl Readiness {
    /// Checks `server`, and `store` when given.
    pub fn new(server: GameServer, store: Option<Arc<dyn Store>>) -> Readiness {
        Readiness { server, store }
    }

    /// `Ok` when the node is ready to play, else why not.
    pub async fn check(&self) -> Result<(), NotReady> {
        match &self.server {
            GameServer::Grpc(channel) => {
                let request = HealthCheckRequest { service: SERVICE_NAME.to_owned() };
                let mut health = HealthClient::new(channel.clone());
                match tokio::time::timeout(READY_TIMEOUT, health.check(request)).await {
                    Err(_) => return Err(NotReady::ServerSilent),
                    Ok(Err(status)) => {
                        return Err(NotReady::ServerHealth(status.message().to_owned()));
                    }
                    Ok(Ok(answer)) if answer.get_ref().status() != ServingStatus::Serving => {
                        return Err(NotReady::ServerStopping);
                    }
                    Ok(Ok(_)) => {}
                }
            }
            GameServer::InProcess(host) if host.is_stopping() => {
                return Err(NotReady::ServerStopping);
            }
            GameServer::InProcess(_) => {}
        }
        let Some(store) = &self.store else { return Ok(()) };
        match tokio::time::timeout(READY_TIMEOUT, store.ready()).await {
            Err(_) => Err(NotReady::StoreSilent),
            Ok(Err(error)) => Err(NotReady::Store(error)),
            Ok(Ok(())) => Ok(()),
        }
    }
}

/// Why a node is not ready to play ([`Readiness::check`]); `/readyz` answers 503 with it.
#[derive(Debug, thiserror::Error)]
pub enum NotReady {
    /// The game server's health check took longer than [`READY_TIMEOUT`].
    #[error("the game server did not answer within {} s", READY_TIMEOUT.as_secs())]
    ServerSilent,
    /// The game server's health check failed.
    #[error("the game server's health check: {0}")]
    ServerHealth(String),
    /// The game server says it is not serving: it is shutting down.
    #[error("the game server is not serving (it is shutting down)")]
    ServerStopping,
    /// The store took longer than [`READY_TIMEOUT`] to answer.
    #[error("the store did not answer within {} s", READY_TIMEOUT.as_secs())]
    StoreSilent,
    /// The store answered with an error: out of reach, or at a schema this build does not know.
    #[error("the store: {0}")]
    Store(cardroom_store::StoreError),
}

/// What the operator's endpoints read: the figures and the readiness.
#[derive(Clone)]
struct Ops {
    metrics: Arc<Registry>,
    readiness: Readiness,
}

/// `/healthz`, `/readyz` and `/metrics`: `metrics` is what a scrape encodes, `readiness` what
/// `/readyz` asks. Merge it with the pages' router ([`crate::server_router`]).
pub fn ops_router(metrics: Arc<Registry>, readiness: Readiness) -> Router {
    Router::new()
        .route("/healthz", get(healthz))
        .route("/readyz", get(readyz))
        .route("/metrics", get(metrics_text))
        .with_state(Ops { metrics, readiness })
}

/// A plain-text answer that no cache keeps.
fn uncached(status: StatusCode, content_type: &'static str, body: String) -> Response {
    let headers = [(header::CONTENT_TYPE, content_type), (header::CACHE_CONTROL, "no-store")];
    (status, headers, body).into_response()
}

const TEXT: &str = "text/plain; charset=utf-8";

/// The process is alive: it answers.
async fn healthz() -> Response {
    uncached(StatusCode::OK, TEXT, "ok\n".to_owned())
}

/// 200 once the node can play; 503 with the reason while it cannot.
async fn readyz(State(ops): State<Ops>) -> Response {
    match ops.readiness.check().await {
        Ok(()) => uncached(StatusCode::OK, TEXT, "ready\n".to_owned()),
        Err(why) => uncached(StatusCode::SERVICE_UNAVAILABLE, TEXT, format!("not ready: {why}\n")),
    }
}

/// The figures, read now.
async fn metrics_text(State(ops): State<Ops>) -> Response {
    let mut text = String::new();
    match prometheus_text::encode(&mut text, &ops.metrics) {
        Ok(()) => uncached(StatusCode::OK, prometheus_text::CONTENT_TYPE, text),
        Err(_) => uncached(
            StatusCode::INTERNAL_SERVER_ERROR,
            TEXT,
            "the figures could not be encoded\n".to_owned(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use axum::body::Body;
    use axum::http::Request;
    use tower::ServiceExt as _;

    use super::*;

    async fn get(router: &Router, path: &str) -> (StatusCode, String) {
        let request = Request::get(path).body(Body::empty()).unwrap();
        let response = router.clone().oneshot(request).await.unwrap();
        let status = response.status();
        let body = axum::body::to_bytes(response.into_body(), usize::MAX).await.unwrap();
        (status, String::from_utf8(body.to_vec()).unwrap())
    }

    /// Asked either way (over gRPC, or in the process for a TLS server), the game server is
    /// ready while it serves and its store answers, and not once it has shut down, saying why;
    /// the process is alive all along.
    #[tokio::test]
    async fn readyz_follows_the_game_server_asked_either_way() {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite:{}", dir.path().join("store.db").display());
        let store = cardroom_store::open(&url).await.unwrap();
        let server = cardroom_server::Server::new(cardroom_server::Config::default());
        let host = server.host();
        let mut metrics = Registry::default();
        metrics.register_collector(Box::new(server.metrics()));
        let metrics = Arc::new(metrics);
        let running = cardroom_tests::TestServer::serve(server).await;
        let channel = Channel::from_shared(running.url()).unwrap().connect_lazy();
        let routers = [GameServer::Grpc(channel), GameServer::InProcess(host)].map(|server| {
            ops_router(Arc::clone(&metrics), Readiness::new(server, Some(Arc::clone(&store))))
        });
        for router in &routers {
            assert_eq!(get(router, "/healthz").await, (StatusCode::OK, "ok\n".to_owned()));
            assert_eq!(get(router, "/readyz").await, (StatusCode::OK, "ready\n".to_owned()));
            let (status, text) = get(router, "/metrics").await;
            assert_eq!(status, StatusCode::OK);
            assert!(text.contains("# TYPE cardroom_decisions_total counter"), "{text}");
        }
        running.stop().await.unwrap();
        let [grpc, in_process] = &routers;
        let (status, why) = get(grpc, "/readyz").await;
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
        assert!(why.starts_with("not ready: the game server"), "{why}");
        let (status, why) = get(in_process, "/readyz").await;
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(why, "not ready: the game server is not serving (it is shutting down)\n");
        assert_eq!(get(in_process, "/healthz").await.0, StatusCode::OK);
    }
}
