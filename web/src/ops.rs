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
use cardroom_store::Store;
use prometheus_client::encoding::prometheus_text;
use prometheus_client::registry::Registry;
use tonic::transport::Channel;
use tonic_health::pb::HealthCheckRequest;
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_client::HealthClient;

/// How long `/readyz` waits for each of the game server and the store to answer.
pub const READY_TIMEOUT: Duration = Duration::from_secs(2);

/// What `/readyz` checks: that the game server answers its gRPC health check as serving (it
/// says not serving once it shuts down), over the pages' own channel to it, and that its store,
/// if it keeps one, answers at the schema this build knows ([`Store::ready`]). Each is asked
/// anew at every request, within [`READY_TIMEOUT`].
#[derive(Clone, Debug)]
pub struct Readiness {
    server: Channel,
    store: Option<Arc<dyn Store>>,
}

impl Readiness {
    /// Checks the game server at the other end of `server`, and `store` when given.
    pub fn new(server: Channel, store: Option<Arc<dyn Store>>) -> Readiness {
        Readiness { server, store }
    }

    /// `Ok` when the node is ready to play, else why not, in one line.
    pub async fn check(&self) -> Result<(), String> {
        let request = HealthCheckRequest { service: SERVICE_NAME.to_owned() };
        let mut health = HealthClient::new(self.server.clone());
        let timed_out = format!("did not answer within {} s", READY_TIMEOUT.as_secs());
        match tokio::time::timeout(READY_TIMEOUT, health.check(request)).await {
            Err(_) => return Err(format!("the game server {timed_out}")),
            Ok(Err(status)) => {
                return Err(format!("the game server's health check: {}", status.message()));
            }
            Ok(Ok(answer)) if answer.get_ref().status() != ServingStatus::Serving => {
                return Err("the game server is not serving (it is shutting down)".to_owned());
            }
            Ok(Ok(_)) => {}
        }
        let Some(store) = &self.store else { return Ok(()) };
        match tokio::time::timeout(READY_TIMEOUT, store.ready()).await {
            Err(_) => Err(format!("the store {timed_out}")),
            Ok(Err(error)) => Err(format!("the store: {error}")),
            Ok(Ok(())) => Ok(()),
        }
    }
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
