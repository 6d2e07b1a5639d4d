//! A runner's relay (`cardroom runner --server URL`, issue 39): the Unix socket bound into the
//! sandboxes of a runner on another machine, passing each hosted bot's `Play` stream on to the
//! server over the network.
//!
//! The relay serves `Play` alone. It knows each bot by its process's freezer cgroup, as a node
//! does on its own socket (`crate::sandboxed`): the runner files every bot it starts
//! ([`RunnerRelay::file`]), and any other process is refused. A bot's `Join` goes on as the
//! bot's own, at the runner's version, with the admin token and the `cardroom-hosted` metadata
//! (`crate::runners`). The frames come back as they are, never decoded but for their kind.
//!
//! The relay keeps the bot's fair clock, as a lender's relay does for a lent bot (`crate::lend`):
//! frozen from its seat's `Joined` and after each `Act`, thawed by a `Turn`, an `ActError` and
//! the end. At a match's end it takes what the bot wrote and sends it to the server
//! (`KeepHostedOutput`); a bot whose process ended mid-match leaves its output to the runner,
//! which reports the end ([`RunnerRelay::end_bot`]).

use std::collections::HashMap;
use std::convert::Infallible;
use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use cardroom_proto::codec::SliceCodec;
use cardroom_proto::frame::{FrameKind, ServerFrame};
use cardroom_proto::pb;
use tokio::sync::{mpsc, oneshot};
use tokio_stream::wrappers::ReceiverStream;
use tonic::metadata::{AsciiMetadataValue, MetadataValue};
use tonic::server::NamedService;
use tonic::transport::Channel;
use tonic::{Request, Response, Status, Streaming};
use tracing::{debug, warn};

use crate::lend::{hosted_clock, joined_match};
use crate::runners::HOSTED_METADATA;
use crate::sandboxed::{Filed, HostedControl, Sandboxed, SandboxedBot};
use crate::service::Boxed;
use crate::status::read_error;
use crate::throttle::PeerKey;
use crate::unix::UnixSocketListener;

/// How long a bot may take to send its `Join` once its stream opens.
const JOIN_TIMEOUT: Duration = Duration::from_secs(10);

/// How long the relay waits for the server to take a stream (the connection included).
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// The most frames held for a bot that is slow to read them (a frozen bot reads none); past
/// them the relay reads no more from the server, whose own buffer then applies.
const FRAMES_HELD: usize = 64;

/// The most streams one bot keeps through the relay at once: a runner's bot plays one match
/// at a time (`CARDROOM_CONCURRENCY=1`), and a hostile one cannot take the server's
/// connections through its runner.
const STREAMS_PER_BOT: usize = 4;

/// `Play`'s path.
const PLAY_PATH: &str = "/cardroom.v1.Cardroom/Play";

/// The relay of a runner's hosted bots to one server. Cheap to clone.
#[derive(Clone)]
pub struct RunnerRelay {
    shared: Arc<Shared>,
}

struct Shared {
    sandboxed: Sandboxed,
    upstream: Channel,
    authorization: AsciiMetadataValue,
    /// Every stream relayed now, by a number of the relay's.
    streams: Mutex<HashMap<u64, Relayed>>,
    next: AtomicU64,
}

/// A stream relayed now: whose, whether the server seated it, and how to end it while it
/// waits.
struct Relayed {
    bot: String,
    seated: bool,
    end: Option<oneshot::Sender<Status>>,
}

/// Why a relay could not be made.
#[derive(Debug, thiserror::Error)]
#[error("the admin token cannot be sent as gRPC metadata (printable ASCII only)")]
pub struct BadToken;

impl std::fmt::Debug for RunnerRelay {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RunnerRelay").finish_non_exhaustive()
    }
}

impl RunnerRelay {
    /// A relay to the server behind `upstream`, whose admin token is `admin_token`.
    pub fn new(upstream: Channel, admin_token: &str) -> Result<RunnerRelay, BadToken> {
        let authorization = format!("Bearer {admin_token}").parse().map_err(|_| BadToken)?;
        let shared = Shared {
            sandboxed: Sandboxed::default(),
            upstream,
            authorization,
            streams: Mutex::default(),
            next: AtomicU64::new(0),
        };
        Ok(RunnerRelay { shared: Arc::new(shared) })
    }

    /// The server's channel.
    pub fn upstream(&self) -> &Channel {
        &self.shared.upstream
    }

    /// Files a hosted bot the runner started, whose processes are in the freezer cgroup named
    /// `cgroup`, until the filing is dropped.
    pub fn file(&self, cgroup: &str, bot: SandboxedBot) -> Filed {
        self.shared.sandboxed.file(cgroup, bot)
    }

    /// Ends the streams of `bot` that wait to be seated, with UNAVAILABLE and `reason`;
    /// returns how many. (A stream the server seats as this happens plays its match.)
    pub fn end_waiting(&self, bot: &str, reason: &str) -> usize {
        let mut ended = 0;
        for relayed in self.shared.lock().values_mut() {
            if relayed.bot == bot && !relayed.seated {
                if let Some(end) = relayed.end.take() {
                    let _ = end.send(Status::unavailable(reason.to_owned()));
                }
                ended += 1;
            }
        }
        ended
    }

    /// Whether a stream of `bot` holds a seat.
    pub fn is_playing(&self, bot: &str) -> bool {
        self.shared.lock().values().any(|relayed| relayed.bot == bot && relayed.seated)
    }

    /// Tells the server that `bot`'s process ended, with `reason`: what it held there ends at
    /// once, its seats forfeiting with `output` (what it wrote since its last match's end).
    pub async fn end_bot(&self, bot: &str, reason: &str, output: String) -> Result<u32, Status> {
        self.end_waiting(bot, reason);
        let request =
            pb::EndHostedBotRequest { bot: bot.to_owned(), reason: reason.to_owned(), output };
        let ended = self.runners().end_hosted_bot(self.authorized(request)).await?;
        Ok(ended.into_inner().ended)
    }

    /// Serves the relay on `socket` until `shutdown`; the socket's file is removed after.
    pub async fn serve(
        &self,
        socket: UnixSocketListener,
        shutdown: impl Future<Output = ()> + Send,
    ) -> Result<(), tonic::transport::Error> {
        let UnixSocketListener { listener, file: _file } = socket;
        let incoming = tokio_stream::wrappers::UnixListenerStream::new(listener);
        let routes = tonic::service::Routes::new(PlayOnly { shared: Arc::clone(&self.shared) });
        tonic::transport::Server::builder()
            .add_routes(routes)
            .serve_with_incoming_shutdown(incoming, shutdown)
            .await
    }

    /// A client of the server's `Runners` service, for the runner's own calls.
    pub fn runners(&self) -> pb::runners_client::RunnersClient<Channel> {
        pb::runners_client::RunnersClient::new(self.shared.upstream.clone())
    }

    /// `message` with the admin token, as the runner's own calls carry it.
    pub fn authorized<T>(&self, message: T) -> Request<T> {
        let mut request = Request::new(message);
        request.metadata_mut().insert("authorization", self.shared.authorization.clone());
        request
    }
}

impl Shared {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Relayed>> {
        self.streams.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// A bot's `Play` stream: checked, its `Join` passed on, and its relay started.
    async fn play(
        self: Arc<Shared>,
        request: Request<Streaming<pb::BotMessage>>,
    ) -> Result<Response<Boxed<ServerFrame>>, Status> {
        let bot = match PeerKey::of(&request) {
            Some(PeerKey::Process(pid)) => self.sandboxed.of_process(pid),
            _ => None,
        };
        let bot = bot.ok_or_else(|| {
            Status::permission_denied(
                "this socket is a runner's: only the hosted bots it started play through it",
            )
        })?;
        let open = self.lock().values().filter(|relayed| relayed.bot == bot.name).count();
        if open >= STREAMS_PER_BOT {
            return Err(Status::resource_exhausted(format!(
                "the hosted bot {:?} has {open} streams through its runner, the most it may",
                bot.name
            )));
        }
        let mut inbound = request.into_inner();
        let first = tokio::time::timeout(JOIN_TIMEOUT, inbound.message()).await.map_err(|_| {
            Status::deadline_exceeded(format!(
                "no Join within {} s of opening the Play stream",
                JOIN_TIMEOUT.as_secs()
            ))
        })?;
        let mut join = match first.map_err(read_error)? {
            Some(pb::BotMessage { message: Some(pb::bot_message::Message::Join(join)) }) => join,
            _ => {
                return Err(Status::invalid_argument(
                    "the first message on a Play stream must be Join",
                ));
            }
        };
        let retiring = bot.retiring.load(Ordering::SeqCst);
        crate::sandboxed::check_hosted_join(&bot.name, retiring, &join.seat)?;
        // It plays as the bot its runner started, at that version.
        join.bot_name = bot.name.clone();
        join.bot_version = bot.version.clone();
        let (to_server, outgoing) = mpsc::channel::<pb::BotMessage>(8);
        let join = pb::BotMessage { message: Some(pb::bot_message::Message::Join(join)) };
        let _ = to_server.try_send(join);
        let frames = tokio::time::timeout(CONNECT_TIMEOUT, self.call(&bot.name, outgoing))
            .await
            .map_err(|_| {
            Status::unavailable(format!(
                "the server did not take the stream within {} s",
                CONNECT_TIMEOUT.as_secs()
            ))
        })??;
        let (end, ended) = oneshot::channel();
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let relayed = Relayed { bot: bot.name.clone(), seated: false, end: Some(end) };
        self.lock().insert(id, relayed);
        let (tx, rx) = mpsc::channel(FRAMES_HELD);
        let stream = Stream { shared: Arc::clone(&self), id, bot };
        tokio::spawn(stream.relay(inbound, to_server, frames, tx, ended));
        Ok(Response::new(Box::pin(ReceiverStream::new(rx))))
    }

    /// Opens the bot's `Play` stream to the server, as `bot`.
    async fn call(
        &self,
        bot: &str,
        outgoing: mpsc::Receiver<pb::BotMessage>,
    ) -> Result<Streaming<ServerFrame>, Status> {
        let mut request = Request::new(ReceiverStream::new(outgoing));
        let metadata = request.metadata_mut();
        metadata.insert("authorization", self.authorization.clone());
        let name = MetadataValue::try_from(bot).map_err(|_| {
            Status::invalid_argument(format!(
                "{} cannot be sent as metadata",
                cardroom_store::Echo(bot)
            ))
        })?;
        metadata.insert(HOSTED_METADATA, name);
        let mut grpc = tonic::client::Grpc::new(self.upstream.clone());
        grpc.ready().await.map_err(|error| {
            Status::unavailable(format!("the server cannot be reached: {error}"))
        })?;
        let path = http::uri::PathAndQuery::from_static(PLAY_PATH);
        let codec = SliceCodec::<pb::BotMessage, ServerFrame>::default();
        Ok(grpc.streaming(request, path, codec).await?.into_inner())
    }
}

/// One bot stream, relayed.
struct Stream {
    shared: Arc<Shared>,
    id: u64,
    bot: SandboxedBot,
}

/// How a relayed stream ended.
#[derive(PartialEq)]
enum StreamEnd {
    /// The server ended it: the match is over, or the server refused or lost it.
    Server,
    /// The bot's side ended: it left, or its process ended.
    Bot,
    /// The runner ended it while it waited.
    Runner,
}

impl Stream {
    async fn relay(
        self,
        mut inbound: Streaming<pb::BotMessage>,
        to_server: mpsc::Sender<pb::BotMessage>,
        mut frames: Streaming<ServerFrame>,
        to_bot: mpsc::Sender<Result<ServerFrame, Status>>,
        mut ended: oneshot::Receiver<Status>,
    ) {
        let control = Arc::clone(&self.bot.control);
        let mut match_id = None;
        let end = loop {
            tokio::select! {
                frame = frames.message() => match frame {
                    Ok(Some(frame)) => {
                        let kind = frame.kind();
                        if kind == FrameKind::Joined && match_id.is_none() {
                            match_id = joined_match(&frame);
                            if let Some(relayed) = self.shared.lock().get_mut(&self.id) {
                                relayed.seated = true;
                            }
                        }
                        hosted_clock(control.as_ref(), kind);
                        if to_bot.send(Ok(frame)).await.is_err() {
                            break StreamEnd::Bot;
                        }
                    }
                    Ok(None) => break StreamEnd::Server,
                    Err(status) => {
                        let _ = to_bot.send(Err(status)).await;
                        break StreamEnd::Server;
                    }
                },
                message = inbound.message() => match message {
                    Ok(Some(message)) => {
                        let acted = matches!(message.message, Some(pb::bot_message::Message::Act(_)));
                        if to_server.send(message).await.is_err() {
                            break StreamEnd::Server;
                        }
                        // After its act the bot waits: frozen until its next `Turn`.
                        if acted {
                            control.freeze();
                        }
                    }
                    Ok(None) | Err(_) => break StreamEnd::Bot,
                },
                status = &mut ended => {
                    if let Ok(status) = status {
                        let _ = to_bot.try_send(Err(status));
                    }
                    break StreamEnd::Runner;
                }
            }
        };
        control.thaw();
        self.shared.lock().remove(&self.id);
        // What it wrote in a match that ended, for its author; a process that ended mid-match
        // leaves it to the runner, which reports the end with it.
        if let (Some(match_id), StreamEnd::Server) = (match_id, end) {
            self.keep_output(match_id, control.as_ref());
        }
    }

    /// Sends the bot's output in `match_id` to the server, off the relay's task.
    fn keep_output(&self, match_id: String, control: &dyn HostedControl) {
        let output = control.take_output();
        if output.is_empty() {
            return;
        }
        let bot = self.bot.name.clone();
        let mut request =
            Request::new(pb::KeepHostedOutputRequest { match_id, bot: bot.clone(), output });
        request.metadata_mut().insert("authorization", self.shared.authorization.clone());
        let mut runners = pb::runners_client::RunnersClient::new(self.shared.upstream.clone());
        tokio::spawn(async move {
            match runners.keep_hosted_output(request).await {
                Ok(_) => debug!(%bot, "a hosted bot's output kept"),
                Err(status) => warn!(%bot, cause = %status, "a hosted bot's output not kept"),
            }
        });
    }
}

/// The relay's one route: `Play`, and UNIMPLEMENTED for any other rpc.
#[derive(Clone)]
struct PlayOnly {
    shared: Arc<Shared>,
}

impl NamedService for PlayOnly {
    const NAME: &'static str = "cardroom.v1.Cardroom";
}

/// `Play`, as tonic's server calls it.
struct PlaySvc(Arc<Shared>);

impl tonic::server::StreamingService<pb::BotMessage> for PlaySvc {
    type Response = ServerFrame;
    type ResponseStream = Boxed<ServerFrame>;
    type Future = std::pin::Pin<
        Box<dyn Future<Output = Result<Response<Boxed<ServerFrame>>, Status>> + Send>,
    >;

    fn call(&mut self, request: Request<Streaming<pb::BotMessage>>) -> Self::Future {
        Box::pin(Arc::clone(&self.0).play(request))
    }
}

impl tower::Service<http::Request<tonic::body::Body>> for PlayOnly {
    type Response = http::Response<tonic::body::Body>;
    type Error = Infallible;
    type Future =
        std::pin::Pin<Box<dyn Future<Output = Result<Self::Response, Infallible>> + Send>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: http::Request<tonic::body::Body>) -> Self::Future {
        if request.uri().path() != PLAY_PATH {
            let status = Status::unimplemented(format!(
                "a runner's socket serves Play alone, not {}",
                request.uri().path()
            ));
            return Box::pin(async move { Ok(status.into_http()) });
        }
        let shared = Arc::clone(&self.shared);
        Box::pin(async move {
            let codec = SliceCodec::<ServerFrame, pb::BotMessage>::default();
            let mut grpc = tonic::server::Grpc::new(codec);
            Ok(grpc.streaming(PlaySvc(shared), request).await)
        })
    }
}
