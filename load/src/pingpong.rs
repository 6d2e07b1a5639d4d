//! The baseline: bare tonic, one bidirectional stream per client, shaped like a bot's `Play`
//! stream (the server sends, the client answers at once) and timed the same way (from the
//! server's message handed to its stream to the answer read by the server).

use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use hdrhistogram::Histogram;
use tokio::sync::mpsc;
use tokio_stream::Stream;
use tokio_stream::wrappers::ReceiverStream;
use tonic::transport::{Channel, Endpoint};
use tonic::{Request, Response, Status, Streaming};

use crate::pb;
use crate::pb::ping_pong_client::PingPongClient;
use crate::pb::ping_pong_server::{PingPong, PingPongServer};

/// Messages buffered towards one client, as cardroom's default `outbound_buffer` is larger;
/// with one message in flight per stream the size does not matter.
const BUFFER: usize = 16;

/// A histogram of microseconds, one to an hour, three significant digits.
pub(crate) fn histogram() -> Histogram<u64> {
    Histogram::new_with_bounds(1, 3_600_000_000, 3).expect("valid histogram bounds")
}

/// The baseline server: it times every round trip into one histogram.
#[derive(Clone)]
struct Service {
    round_trips: Arc<Mutex<Histogram<u64>>>,
}

impl Service {
    fn round_trips(&self) -> MutexGuard<'_, Histogram<u64>> {
        self.round_trips.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

#[tonic::async_trait]
impl PingPong for Service {
    type PlayStream = Pin<Box<dyn Stream<Item = Result<pb::Pong, Status>> + Send + 'static>>;

    async fn play(
        &self,
        request: Request<Streaming<pb::Ping>>,
    ) -> Result<Response<Self::PlayStream>, Status> {
        let mut inbound = request.into_inner();
        let first = inbound.message().await?.ok_or_else(|| Status::invalid_argument("no Ping"))?;
        let payload = vec![0xA5; first.pong_bytes as usize];
        let (tx, rx) = mpsc::channel(BUFFER);
        let service = self.clone();
        tokio::spawn(async move {
            for seq in 1.. {
                let pong = pb::Pong { seq, payload: payload.clone() };
                if tx.send(Ok(pong)).await.is_err() {
                    return;
                }
                let sent = Instant::now();
                match inbound.message().await {
                    Ok(Some(ping)) if ping.seq == seq => {
                        let micros = u64::try_from(sent.elapsed().as_micros()).unwrap_or(u64::MAX);
                        service.round_trips().saturating_record(micros.max(1));
                    }
                    Ok(Some(_)) => {
                        let _ = tx.send(Err(Status::invalid_argument("out of order"))).await;
                        return;
                    }
                    Ok(None) | Err(_) => return,
                }
            }
        });
        Ok(Response::new(Box::pin(ReceiverStream::new(rx))))
    }

    async fn stats(
        &self,
        request: Request<pb::StatsRequest>,
    ) -> Result<Response<pb::StatsReply>, Status> {
        let mut round_trips = self.round_trips();
        let reply = pb::StatsReply {
            count: round_trips.len(),
            p50_us: round_trips.value_at_quantile(0.5),
            p99_us: round_trips.value_at_quantile(0.99),
            p999_us: round_trips.value_at_quantile(0.999),
            max_us: round_trips.max(),
            mean_us: round_trips.mean(),
        };
        if request.into_inner().reset {
            round_trips.reset();
        }
        Ok(Response::new(reply))
    }
}

/// `serve-pingpong`: the baseline server, in a child process, until its parent goes.
pub(crate) async fn serve() -> anyhow::Result<()> {
    let listener = crate::child::listen().await?;
    let service = Service { round_trips: Arc::new(Mutex::new(histogram())) };
    tonic::transport::Server::builder()
        .add_service(PingPongServer::new(service))
        .serve_with_incoming_shutdown(
            // No Nagle, as cardroom's server.
            tonic::transport::server::TcpIncoming::from(listener).with_nodelay(Some(true)),
            crate::child::parent_gone(),
        )
        .await?;
    Ok(())
}

/// A channel of its own (one connection per client, as each bot has).
pub(crate) async fn connect(url: &str) -> anyhow::Result<Channel> {
    Ok(Endpoint::from_shared(url.to_owned())?.tcp_nodelay(true).connect().await?)
}

/// One client: answers every `Pong` with a `Ping` of `ping_bytes`, after waiting `think` (at
/// once when zero), until `stop`.
pub(crate) async fn client(
    url: String,
    ping_bytes: usize,
    pong_bytes: u32,
    think: Duration,
    stop: Arc<AtomicBool>,
) -> anyhow::Result<()> {
    let mut client = PingPongClient::new(connect(&url).await?);
    let (tx, rx) = mpsc::channel(BUFFER);
    let payload = vec![0x5A; ping_bytes];
    tx.send(pb::Ping { seq: 0, payload: payload.clone(), pong_bytes }).await?;
    let mut inbound = client.play(ReceiverStream::new(rx)).await?.into_inner();
    while let Some(pong) = inbound.message().await? {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        if !think.is_zero() {
            tokio::time::sleep(think).await;
        }
        tx.send(pb::Ping { seq: pong.seq, payload: payload.clone(), pong_bytes: 0 }).await?;
    }
    Ok(())
}

/// The baseline's timings: `Stats`, optionally starting a new window.
pub(crate) async fn stats(url: &str, reset: bool) -> anyhow::Result<pb::StatsReply> {
    let mut client = PingPongClient::new(connect(url).await?);
    Ok(client.stats(pb::StatsRequest { reset }).await?.into_inner())
}
