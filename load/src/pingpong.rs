//! The baseline: bare tonic, one bidirectional stream per client, shaped like a bot's `Play`
//! stream (the server sends, the client answers at once) and timed the same way (from the
//! server's message handed to its stream to the answer read by the server). In a match's
//! shape (`Ping.pair`), two clients' streams are driven by one server task taking turns, as a
//! match task drives its two seats: the same transport work as a cardroom match, with none of
//! its game.

use std::collections::HashMap;
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

/// Messages a seat of a match-shaped pair answers in a row before the other's turn: a Gin
/// Rummy turn's draw and discard.
const TURNS_IN_A_ROW: u64 = 2;

/// The baseline server: it times every round trip into one histogram.
#[derive(Clone)]
struct Service {
    round_trips: Arc<Mutex<Histogram<u64>>>,
    /// The first stream of each match-shaped pair, until the second arrives.
    waiting: Arc<Mutex<HashMap<u64, Seat>>>,
}

/// One client's stream, as the server drives it.
struct Seat {
    inbound: Streaming<pb::Ping>,
    tx: mpsc::Sender<Result<pb::Pong, Status>>,
}

impl Service {
    fn round_trips(&self) -> MutexGuard<'_, Histogram<u64>> {
        self.round_trips.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn waiting(&self) -> MutexGuard<'_, HashMap<u64, Seat>> {
        self.waiting.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Sends `Pong`s to `seats` in turn, `in_a_row` each, timing every round trip, until a
    /// stream ends or answers out of order.
    async fn drive(self, mut seats: Vec<Seat>, in_a_row: u64, payload: Vec<u8>) {
        for seq in 1.. {
            let turn = ((seq - 1) / in_a_row) as usize % seats.len();
            let seat = &mut seats[turn];
            let pong = pb::Pong { seq, payload: payload.clone() };
            if seat.tx.send(Ok(pong)).await.is_err() {
                return;
            }
            let sent = Instant::now();
            match seat.inbound.message().await {
                Ok(Some(ping)) if ping.seq == seq => {
                    let micros = u64::try_from(sent.elapsed().as_micros()).unwrap_or(u64::MAX);
                    self.round_trips().saturating_record(micros.max(1));
                }
                Ok(Some(_)) => {
                    let _ = seat.tx.send(Err(Status::invalid_argument("out of order"))).await;
                    return;
                }
                Ok(None) | Err(_) => return,
            }
        }
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
        let seat = Seat { inbound, tx };
        if first.pair == 0 {
            tokio::spawn(self.clone().drive(vec![seat], 1, payload));
        } else {
            let other = self.waiting().remove(&first.pair);
            match other {
                Some(other) => {
                    tokio::spawn(self.clone().drive(vec![other, seat], TURNS_IN_A_ROW, payload));
                }
                None => {
                    self.waiting().insert(first.pair, seat);
                }
            }
        }
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
    let service =
        Service { round_trips: Arc::new(Mutex::new(histogram())), waiting: Arc::default() };
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
/// once when zero), until `stop`; in match `pair` with one other client (0: none).
pub(crate) async fn client(
    pair: u64,
    url: String,
    ping_bytes: usize,
    pong_bytes: u32,
    think: Duration,
    stop: Arc<AtomicBool>,
) -> anyhow::Result<()> {
    let mut client = PingPongClient::new(connect(&url).await?);
    let (tx, rx) = mpsc::channel(BUFFER);
    let payload = vec![0x5A; ping_bytes];
    tx.send(pb::Ping { seq: 0, payload: payload.clone(), pong_bytes, pair }).await?;
    let mut inbound = client.play(ReceiverStream::new(rx)).await?.into_inner();
    while let Some(pong) = inbound.message().await? {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        if !think.is_zero() {
            tokio::time::sleep(think).await;
        }
        tx.send(pb::Ping { seq: pong.seq, payload: payload.clone(), pong_bytes: 0, pair: 0 })
            .await?;
    }
    Ok(())
}

/// The baseline's timings: `Stats`, optionally starting a new window.
pub(crate) async fn stats(url: &str, reset: bool) -> anyhow::Result<pb::StatsReply> {
    let mut client = PingPongClient::new(connect(url).await?);
    Ok(client.stats(pb::StatsRequest { reset }).await?.into_inner())
}
