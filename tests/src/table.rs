//! [`Table`]: every seat of one match, each on its own connection, driven from one task, so
//! that a test scripts what each seat does and when (and holds a seat back to make an order of
//! events certain).

use cardroom_proto::pb;
use pb::server_message::Message;
use prost::bytes::Bytes;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tokio::sync::mpsc;
use tokio_stream::StreamExt;
use tokio_stream::StreamMap;
use tonic::{Status, Streaming};

use crate::bot::{Bot, act, decode_server_message, random_choice};
use crate::server::connect;
use crate::{MESSAGE_PATIENCE, TestServer};

/// A message one seat received: its body, or its stream's final status.
pub type Received = (usize, Result<Message, Status>);

/// All seats of one match. Each seat's stream is read as messages arrive, whichever seat they
/// are for; turns are answered with random legal actions (going out in gin when it can) unless
/// the test answers them itself or holds the seat.
pub struct Table {
    /// The match.
    pub match_id: String,
    /// The seat tokens, in seat order.
    pub tokens: Vec<String>,
    /// Every message each seat received, as the server wrote it, in order (across
    /// reconnections).
    pub received: Vec<Vec<Bytes>>,
    /// The end each seat received.
    pub ends: Vec<Option<pb::MatchEnd>>,
    /// The server, for new connections.
    url: String,
    /// Each connected seat's request stream.
    senders: Vec<Option<mpsc::Sender<Bytes>>>,
    /// Each connected seat's response stream.
    streams: StreamMap<usize, Streaming<Bytes>>,
    /// The turn each seat was sent and has not answered.
    pending: Vec<Option<pb::Turn>>,
    /// Seats whose turns are left unanswered when the table plays by itself.
    held: Vec<bool>,
    /// The random choices.
    rng: ChaCha8Rng,
}

impl Table {
    /// Connects every seat of a match with its token and reads each seat's `Joined`.
    ///
    /// # Panics
    ///
    /// When a seat cannot join.
    pub async fn join(
        server: &TestServer,
        match_id: &str,
        tokens: Vec<String>,
        seed: u64,
    ) -> (Table, Vec<pb::Joined>) {
        let seats = tokens.len();
        let mut table = Table {
            match_id: match_id.to_owned(),
            tokens,
            received: vec![Vec::new(); seats],
            ends: vec![None; seats],
            url: server.url(),
            senders: vec![None; seats],
            streams: StreamMap::new(),
            pending: vec![None; seats],
            held: vec![false; seats],
            rng: ChaCha8Rng::seed_from_u64(seed),
        };
        let mut joined = Vec::with_capacity(seats);
        for seat in 0..seats {
            let (first, _) = table.rejoin(seat).await;
            joined.push(first.unwrap_or_else(|status| panic!("seat {seat} joins: {status}")));
        }
        (table, joined)
    }

    /// Opens a new stream for `seat` with its token and reads its first message, which must
    /// be `Joined` (or the status that refused it). The seat's previous stream, if any, is
    /// returned unread: the server ends it (ABORTED) when the new one joins.
    ///
    /// # Panics
    ///
    /// When the first message is not `Joined`.
    pub async fn rejoin(
        &mut self,
        seat: usize,
    ) -> (Result<pb::Joined, Status>, Option<Streaming<Bytes>>) {
        let token = self.tokens[seat].clone();
        let mut bot = match Bot::with_token(connect(&self.url).await, &token).await {
            Ok(bot) => bot,
            Err(status) => return (Err(status), None),
        };
        let first = match bot.next_raw().await {
            Ok(Some(bytes)) => bytes,
            Ok(None) => panic!("seat {seat}: the stream ended before Joined"),
            Err(status) => return (Err(status), None),
        };
        self.received[seat].push(first.clone());
        let Message::Joined(joined) = decode_server_message(&first) else {
            panic!("seat {seat}: expected Joined first")
        };
        let (tx, rx) = bot.into_parts();
        self.senders[seat] = Some(tx);
        self.pending[seat] = None;
        (Ok(joined), self.streams.insert(seat, rx))
    }

    /// Closes `seat`'s connection (both directions), as a bot that crashed would.
    pub fn disconnect(&mut self, seat: usize) {
        self.senders[seat] = None;
        self.streams.remove(&seat);
        self.pending[seat] = None;
    }

    /// Holds `seat` (its turns stay unanswered while the table plays) or lets it play again.
    pub fn hold(&mut self, seat: usize, held: bool) {
        self.held[seat] = held;
    }

    /// The turn `seat` was sent and has not answered.
    pub fn pending(&self, seat: usize) -> Option<&pb::Turn> {
        self.pending[seat].as_ref()
    }

    /// Takes `seat`'s pending turn, for a test that answers it in its own way.
    pub fn take_pending(&mut self, seat: usize) -> Option<pb::Turn> {
        self.pending[seat].take()
    }

    /// A sender of raw messages on `seat`'s stream.
    ///
    /// # Panics
    ///
    /// When the seat has no connection.
    pub fn sender(&self, seat: usize) -> mpsc::Sender<Bytes> {
        self.senders[seat].clone().unwrap_or_else(|| panic!("seat {seat} has no connection"))
    }

    /// Sends a message on `seat`'s stream.
    ///
    /// # Panics
    ///
    /// When the seat has no open connection.
    pub async fn send(&self, seat: usize, message: &pb::BotMessage) {
        self.send_raw(seat, prost::Message::encode_to_vec(message).into()).await;
    }

    /// Sends one gRPC message with these bytes as its payload on `seat`'s stream.
    ///
    /// # Panics
    ///
    /// When the seat has no open connection.
    pub async fn send_raw(&self, seat: usize, payload: Bytes) {
        self.sender(seat).send(payload).await.expect("the request stream is open");
    }

    /// Answers `seat`'s pending turn with the legal action at `index`; returns the turn.
    ///
    /// # Panics
    ///
    /// When the seat has no pending turn.
    pub async fn answer_with(&mut self, seat: usize, index: u32) -> pb::Turn {
        let turn = self.pending[seat].take().unwrap_or_else(|| panic!("seat {seat}: no turn"));
        self.send(seat, &act(turn.turn, pb::act::Choice::Index(index))).await;
        turn
    }

    /// Answers `seat`'s pending turn with a random legal action; returns the turn and the
    /// index chosen.
    ///
    /// # Panics
    ///
    /// When the seat has no pending turn.
    pub async fn answer(&mut self, seat: usize) -> (pb::Turn, u32) {
        let turn = self.pending[seat].as_ref().unwrap_or_else(|| panic!("seat {seat}: no turn"));
        let index = random_choice(turn, &mut self.rng);
        (self.answer_with(seat, index).await, index)
    }

    /// The next message any seat receives; `None` once every stream has ended.
    ///
    /// # Panics
    ///
    /// When no message arrives within [`MESSAGE_PATIENCE`].
    pub async fn next(&mut self) -> Option<Received> {
        let (seat, item) = tokio::time::timeout(MESSAGE_PATIENCE, self.streams.next())
            .await
            .expect("a message within the test's patience")?;
        let bytes = match item {
            Ok(bytes) => bytes,
            Err(status) => {
                self.disconnect(seat);
                return Some((seat, Err(status)));
            }
        };
        self.received[seat].push(bytes.clone());
        let message = decode_server_message(&bytes);
        match &message {
            Message::Turn(turn) => self.pending[seat] = Some(turn.clone()),
            Message::End(end) => self.ends[seat] = Some(end.clone()),
            _ => {}
        }
        Some((seat, Ok(message)))
    }

    /// Answers the pending turns of the seats not held.
    pub async fn answer_pending(&mut self) {
        for seat in 0..self.pending.len() {
            if !self.held[seat] && self.pending[seat].is_some() {
                self.answer(seat).await;
            }
        }
    }

    /// Plays (answering the turns of seats not held) until `stop` says so of a message, and
    /// returns that message unanswered.
    ///
    /// # Panics
    ///
    /// When every stream ends first, or a message that `stop` lets through is an `ActError`
    /// or a failed stream.
    pub async fn play_until(&mut self, mut stop: impl FnMut(&Received) -> bool) -> Received {
        self.answer_pending().await;
        loop {
            let received = self.next().await.expect("the table's streams are open");
            if stop(&received) {
                return received;
            }
            self.react(received).await;
        }
    }

    /// Plays to the end (answering the turns of seats not held) and returns the end every
    /// connected seat received.
    ///
    /// # Panics
    ///
    /// When an action is refused, a stream fails, or the seats hear different ends.
    pub async fn play_to_end(&mut self) -> pb::MatchEnd {
        self.answer_pending().await;
        let mut end: Option<pb::MatchEnd> = None;
        while let Some(received) = self.next().await {
            if let (seat, Ok(Message::End(this))) = &received {
                let first = end.get_or_insert_with(|| this.clone());
                assert_eq!(first, this, "seat {seat} hears the same end as the others");
            }
            self.react(received).await;
        }
        end.expect("the match ended")
    }

    /// What the table does by itself with a message.
    async fn react(&mut self, (seat, message): Received) {
        match message {
            Ok(Message::Turn(_)) if !self.held[seat] => {
                self.answer(seat).await;
            }
            Ok(Message::Error(error)) => panic!("seat {seat}: an action was refused: {error:?}"),
            Err(status) => panic!("seat {seat}: the stream failed: {status}"),
            Ok(_) => {}
        }
    }
}
