//! Bots lent between the nodes of one store, so that a hosted ladder's table may seat bots
//! that wait on different nodes (`proto/cardroom/v1/nodes.proto`, the `Nodes` service).
//!
//! The node that hosts the match (the borrower) calls `Lend` on each node where one of its
//! bots waits (the lender), presenting the lender's secret from the store. The lender sets one
//! of the bot's waiting streams aside and answers with the bot's `Join`. The borrower seats the
//! bot as if it had joined there: its match task reads the call's answers as the bot's messages
//! and writes the bot's frames into the call. The lender passes both ways on as they come:
//! a frame's bytes go to the bot as they are, never decoded. So a bot's stream never moves; a
//! bot behind a sticky load balancer plays bots on any node.
//!
//! A call that ends before any frame came (the borrower could not borrow every seat, or gave
//! up) puts the bot back in the lender's lobby. After that, the bot's stream ends with the
//! call: as after a match here when the borrower ends it, ABORTED when the borrower is gone
//! (the match will be played again; the bot joins the lobby again).

use std::time::Duration;

use bytes::{Buf as _, BufMut as _, Bytes, BytesMut};
use cardroom_proto::codec::SliceCodec;
use cardroom_proto::frame::{FrameKind, ServerFrame};
use cardroom_proto::pb;
use cardroom_proto::server::nodes_server::Nodes;
use cardroom_proto::wire;
use http_body::Frame;
use http_body_util::StreamBody;
use prost::Message as _;
use tokio::sync::mpsc;
use tokio_stream::StreamExt as _;
use tokio_stream::wrappers::ReceiverStream;
use tonic::codec::{Codec, DecodeBuf, Decoder};
use tonic::metadata::MetadataValue;
use tonic::{Request, Response, Status, Streaming};
use tracing::{info, warn};

use crate::elsewhere::Peers;
use crate::match_task::Joining;
use crate::registry::Registry;
use crate::sandboxed::HostedControl;
use crate::service::{Boxed, wait_to_be_seated};
use crate::token::same_secret;

/// The request metadata key naming the lobby name of the bot a `Lend` asks for.
pub(crate) const LEND_METADATA: &str = "cardroom-lend";

/// The request metadata key of the lender's secret, which a `Lend` presents.
pub(crate) const SECRET_METADATA: &str = "cardroom-node-secret";

/// The `Lend` rpc's path.
const LEND_PATH: &str = "/cardroom.v1.Nodes/Lend";

/// How long a borrower waits for a lender to set its bot aside (the connection included).
const LEND_TIMEOUT: Duration = Duration::from_secs(3);

/// How long a lender waits for a stream of the bot asked for to arrive in its lobby, when none
/// waits there as the call comes.
const LEND_WAIT: Duration = Duration::from_secs(1);

/// How long a lender waits for a hosted bot on call to arrive once woken: within the
/// borrower's [`LEND_TIMEOUT`].
const ON_CALL_WAIT: Duration = Duration::from_millis(2_500);

/// A bot's stream set aside in the lobby for a `Lend`: handed over by its waiter.
pub(crate) struct Lent {
    pub(crate) joining: Joining,
    pub(crate) inbound: Streaming<pb::BotMessage>,
}

/// A bot another node lent for a seat of a match hosted here, ready to connect.
pub(crate) struct Borrowed {
    pub(crate) seat: usize,
    /// The registered bot it is (the lender checked its key).
    pub(crate) account: Option<String>,
    pub(crate) joining: Joining,
    pub(crate) inbound: Streaming<pb::BotMessage>,
}

/// The `Nodes` service: what a node answers the others.
pub(crate) struct Lending {
    pub(crate) registry: Registry,
}

#[tonic::async_trait]
impl Nodes for Lending {
    type LendStream = Boxed<pb::BotMessage>;

    async fn lend(
        &self,
        request: Request<Streaming<ServerFrame>>,
    ) -> Result<Response<Self::LendStream>, Status> {
        let metadata = request.metadata();
        let secret = metadata.get(SECRET_METADATA).and_then(|value| value.to_str().ok());
        if !secret.is_some_and(|secret| same_secret(secret, self.registry.node_secret())) {
            return Err(Status::permission_denied(
                "Lend is for the nodes of this node's store: present its secret",
            ));
        }
        let name = metadata
            .get(LEND_METADATA)
            .and_then(|value| value.to_str().ok())
            .ok_or_else(|| Status::invalid_argument("Lend names its bot in `cardroom-lend`"))?
            .to_owned();
        // The borrower saw the bot waiting in this node's last heartbeat: it may be between two
        // matches, about to join again. It is waited for, a little.
        let mut arrivals = self.registry.lobby_arrivals();
        let asked = tokio::time::Instant::now();
        let mut waited = asked + LEND_WAIT;
        let (handover, account) = loop {
            match self.registry.lend(&name) {
                Ok(found) => break found,
                Err(status) => {
                    // A hosted bot on call was woken (UNAVAILABLE): its runner starts it,
                    // which takes longer than a bot between two matches.
                    if status.code() == tonic::Code::Unavailable {
                        waited = asked + ON_CALL_WAIT;
                    }
                    match tokio::time::timeout_at(waited, arrivals.changed()).await {
                        Ok(Ok(())) => {}
                        _ => return Err(status),
                    }
                }
            }
        };
        let lent = tokio::time::timeout(LEND_TIMEOUT, handover).await;
        let Ok(Ok(lent)) = lent else {
            return Err(Status::failed_precondition(format!(
                "{} left this node's lobby as it was lent",
                cardroom_store::Echo(&name)
            )));
        };
        let join = pb::Join {
            bot_name: lent.joining.bot_name.clone(),
            bot_version: lent.joining.bot_version.clone(),
            omit: Some(lent.joining.omit),
            text: lent.joining.text,
            seat: Some(pb::join::Seat::Lobby(name.clone())),
        };
        let (answers, answered) = mpsc::channel(self.registry.config().outbound_buffer);
        let first = pb::BotMessage { message: Some(pb::bot_message::Message::Join(join)) };
        let _ = answers.try_send(Ok(first));
        let relay = Relay { registry: self.registry.clone(), name, account };
        tokio::spawn(relay.run(lent, request.into_inner(), answers));
        Ok(Response::new(Box::pin(ReceiverStream::new(answered))))
    }
}

/// One lent bot's stream, passed on both ways.
struct Relay {
    registry: Registry,
    name: String,
    account: Option<String>,
}

/// How a relay ended.
enum RelayEnd {
    /// The borrower ended its call: with the match, or before it.
    Borrower(Option<Status>),
    /// The bot's stream ended.
    Bot,
}

impl Relay {
    async fn run(
        self,
        lent: Lent,
        mut frames: Streaming<ServerFrame>,
        answers: mpsc::Sender<Result<pb::BotMessage, Status>>,
    ) {
        let Lent { joining, mut inbound } = lent;
        // A hosted bot's freezer stays here, with its cgroup: the relay freezes it as the
        // borrower's match task would (see [`hosted_clock`]).
        let hosted = joining.hosted.clone();
        let mut relayed = false;
        // The borrower's match id, from the seat's `Joined`: a hosted bot's output is kept by it.
        let mut match_id = None;
        let end = loop {
            tokio::select! {
                frame = frames.message() => match frame {
                    Ok(Some(frame)) => {
                        relayed = true;
                        if let Some(control) = &hosted {
                            let kind = frame.kind();
                            if kind == FrameKind::Joined && match_id.is_none() {
                                match_id = joined_match(&frame);
                            }
                            hosted_clock(control.as_ref(), kind);
                        }
                        if joining.tx.send(Ok(frame)).await.is_err() {
                            break RelayEnd::Bot;
                        }
                    }
                    Ok(None) => break RelayEnd::Borrower(None),
                    Err(status) => break RelayEnd::Borrower(Some(status)),
                },
                message = inbound.message() => match message {
                    Ok(Some(message)) => {
                        let acted = matches!(message.message, Some(pb::bot_message::Message::Act(_)));
                        if answers.send(Ok(message)).await.is_err() {
                            break RelayEnd::Borrower(Some(Status::cancelled("call dropped")));
                        }
                        // After its act the bot waits: frozen until its next `Turn`.
                        if let Some(control) = hosted.as_ref().filter(|_| acted) {
                            control.freeze();
                        }
                    }
                    Ok(None) | Err(_) => break RelayEnd::Bot,
                },
            }
        };
        if let Some(control) = &hosted {
            control.thaw();
            // What it wrote in the borrower's match, kept for its author as its own node keeps
            // a match's (the borrower's match task has no hold of its process).
            if let Some(match_id) = match_id {
                self.keep_output(match_id, control.take_output());
            }
        }
        match end {
            RelayEnd::Borrower(_) if !relayed => {
                // Never seated there: the bot waits here again, as it was.
                match self.registry.join_lobby(self.name.clone(), joining.id, self.account) {
                    Ok(seated) => {
                        let registry = self.registry.clone();
                        tokio::spawn(wait_to_be_seated(registry, seated, joining, inbound));
                    }
                    Err(status) => {
                        warn!(bot = %self.name, cause = %status, "a lent bot not taken back")
                    }
                }
            }
            RelayEnd::Borrower(Some(status)) => {
                info!(bot = %self.name, cause = %status, "the node hosting a lent bot's match ended its call");
                // ABORTED, not UNAVAILABLE: the seat cannot be taken back (its token is the
                // hosting node's), so a runner joins the lobby again rather than the match.
                let gone = Status::aborted(format!(
                    "the node hosting this match is gone ({}): the match will be played again",
                    status.message()
                ));
                let _ = joining.tx.send(Err(gone)).await;
            }
            // The match is over there (its end went to the bot), or the bot left: its stream
            // ends here as it would have on its own node.
            RelayEnd::Borrower(None) | RelayEnd::Bot => {}
        }
    }

    /// Keeps `output`, a lent hosted bot's in the borrower's match `match_id`, in the store,
    /// off the relay's task. A failure is logged: the output is the author's help, not the
    /// match's result.
    fn keep_output(&self, match_id: String, output: String) {
        let Some(accounts) = self.registry.config().accounts.clone() else { return };
        if output.is_empty() {
            return;
        }
        let bot = self.name.clone();
        tokio::spawn(async move {
            let kept = accounts.store().keep_output_by_server_id(&match_id, &bot, &output).await;
            match kept {
                Ok(true) => {}
                Ok(false) => warn!(%bot, %match_id, "a lent bot's output has no ladder match"),
                Err(error) => {
                    warn!(%bot, %match_id, cause = %error, "a lent bot's output not kept")
                }
            }
        });
    }
}

/// The match id of a `Joined` frame.
pub(crate) fn joined_match(frame: &ServerFrame) -> Option<String> {
    match pb::ServerMessage::decode(frame.as_bytes()).ok()?.message? {
        pb::server_message::Message::Joined(joined) => Some(joined.match_id),
        _ => None,
    }
}

/// A lent hosted bot's clock, kept by its lender's relay from the frames it passes on: frozen
/// from its seat's `Joined` (and, by the relay, after each `Act` it sends), thawed by a `Turn`
/// (or an `ActError`, after which it acts again) and by the match's end. So it thinks only on
/// its own time, as on its own node, where the match task freezes every hosted seat not to
/// act (`run_only`). `Events` change nothing.
pub(crate) fn hosted_clock(control: &dyn HostedControl, frame: FrameKind) {
    match frame {
        FrameKind::Turn | FrameKind::Error | FrameKind::End | FrameKind::Other => control.thaw(),
        FrameKind::Joined => control.freeze(),
        FrameKind::Events => {}
    }
}

/// Borrows `bot` from the node at `address` whose secret is `secret`, for `seat`: the call
/// made, and the lender's `Join` of the bot read.
///
/// The match task reads the bot's messages from a body this node feeds ([`forward`]), not
/// from the call itself: when the match ends, the task drops what it reads, and dropping a
/// call's answers would cancel the call, losing the last frames (the match's end) still on
/// their way to the lender.
pub(crate) async fn borrow(
    registry: &Registry,
    peers: &Peers,
    lender: (&str, &str),
    bot: &str,
    seat: usize,
) -> Result<Borrowed, Status> {
    let (address, secret) = lender;
    let refused = |status: Status| {
        Status::new(
            status.code(),
            format!("{bot} could not be borrowed from the node at {address}: {}", status.message()),
        )
    };
    let permit = registry.connection_permit()?;
    let (tx, rx) = mpsc::channel(registry.config().outbound_buffer);
    // The match task ends a bot's stream with an error by sending it: the call then ends.
    let frames = ReceiverStream::new(rx).map_while(Result::ok);
    let mut request = Request::new(frames);
    let metadata = request.metadata_mut();
    metadata.insert(LEND_METADATA, MetadataValue::try_from(bot).map_err(|_| bad_name(bot))?);
    let secret = MetadataValue::try_from(secret)
        .map_err(|_| refused(Status::internal("the lender's secret in the store is not text")))?;
    metadata.insert(SECRET_METADATA, secret);
    let mut grpc = tonic::client::Grpc::new(peers.channel(address)?);
    let call = async {
        grpc.ready().await.map_err(|error| Status::unavailable(error.to_string()))?;
        let path = http::uri::PathAndQuery::from_static(LEND_PATH);
        let mut answers = grpc.streaming(request, path, LendCodec).await?.into_inner();
        let first = answers.message().await?.unwrap_or_default();
        match pb::BotMessage::decode(first).map_err(|error| Status::internal(error.to_string()))? {
            pb::BotMessage { message: Some(pb::bot_message::Message::Join(join)) } => {
                Ok((join, answers))
            }
            _ => Err(Status::internal("the lender's first message is not the bot's Join")),
        }
    };
    let (join, answers) = tokio::time::timeout(LEND_TIMEOUT, call)
        .await
        .map_err(|_| Status::unavailable(format!("no answer within {LEND_TIMEOUT:?}")))
        .and_then(|answer| answer)
        .map_err(refused)?;
    let omit = wire::check_omit(join.omit).map_err(|error| refused(error.into()))?;
    let (to_match, body) = mpsc::channel(FORWARDED);
    tokio::spawn(forward(answers, to_match));
    let decoder = SliceCodec::<pb::BotMessage, pb::BotMessage>::default().decoder();
    let body = StreamBody::new(ReceiverStream::new(body));
    let max = Some(registry.config().max_message_bytes);
    let inbound = Streaming::new_request(decoder, body, None, max);
    let account = Some(join.bot_name.clone());
    let joining = Joining {
        id: registry.next_id(),
        bot_name: join.bot_name,
        bot_version: join.bot_version,
        omit,
        text: join.text,
        tx,
        permit,
        // A hosted bot's control stays on its own node, whose relay freezes and thaws it.
        hosted: None,
    };
    Ok(Borrowed { seat, account, joining, inbound })
}

/// Messages from a lent bot held on their way to the match task.
const FORWARDED: usize = 8;

/// How long a borrower keeps a `Lend` call open once its match is done with the bot, for the
/// lender to end it after the last frames.
const LINGER: Duration = Duration::from_secs(5);

/// Passes the lent bot's messages (`answers`) on to the match task as a gRPC body; once the
/// match task is done with them, keeps the call open until the lender ends it (or [`LINGER`]).
async fn forward(
    mut answers: Streaming<Bytes>,
    to_match: mpsc::Sender<Result<Frame<Bytes>, Status>>,
) {
    loop {
        let answer = tokio::select! {
            answer = answers.message() => answer,
            () = to_match.closed() => break,
        };
        match answer {
            Ok(Some(message)) => {
                // A gRPC message's frame: uncompressed, its length, the bytes.
                let mut framed = BytesMut::with_capacity(5 + message.len());
                framed.put_u8(0);
                framed.put_u32(u32::try_from(message.len()).unwrap_or(u32::MAX));
                framed.put_slice(&message);
                if to_match.send(Ok(Frame::data(framed.freeze()))).await.is_err() {
                    break;
                }
            }
            Ok(None) => return,
            Err(status) => {
                let _ = to_match.send(Err(status)).await;
                return;
            }
        }
    }
    let lingering = async { while let Ok(Some(_)) = answers.message().await {} };
    let _ = tokio::time::timeout(LINGER, lingering).await;
}

/// The borrower's codec of a `Lend` call: frames out as they are, the bot's messages in as
/// bytes, decoded by the match task as it decodes a bot's own stream.
struct LendCodec;

impl Codec for LendCodec {
    type Encode = ServerFrame;
    type Decode = Bytes;
    type Encoder = <SliceCodec<ServerFrame, pb::BotMessage> as Codec>::Encoder;
    type Decoder = RawDecoder;

    fn encoder(&mut self) -> Self::Encoder {
        SliceCodec::<ServerFrame, pb::BotMessage>::default().encoder()
    }

    fn decoder(&mut self) -> RawDecoder {
        RawDecoder
    }
}

/// A message's bytes, undecoded.
struct RawDecoder;

impl Decoder for RawDecoder {
    type Item = Bytes;
    type Error = Status;

    fn decode(&mut self, buf: &mut DecodeBuf<'_>) -> Result<Option<Bytes>, Status> {
        Ok(Some(buf.copy_to_bytes(buf.remaining())))
    }
}

fn bad_name(bot: &str) -> Status {
    Status::invalid_argument(format!("{} cannot be sent as metadata", cardroom_store::Echo(bot)))
}
