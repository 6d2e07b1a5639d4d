//! A real server on 127.0.0.1:0 and bots that talk to it over gRPC, for end-to-end tests.

#![allow(clippy::unwrap_used)] // A test fails loudly on an unexpected error.
#![allow(dead_code, unreachable_pub)]

use std::net::SocketAddr;
use std::time::Duration;

use cardroom_proto::pb;
use cardroom_proto::pb::cardroom_client::CardroomClient;
use cardroom_server::Config;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tokio::sync::{mpsc, oneshot};
use tokio::task::JoinHandle;
use tokio_stream::wrappers::ReceiverStream;
use tonic::transport::Channel;
use tonic::{Status, Streaming};

/// How long a test waits for any one message before it fails (not a sleep: the wait ends as
/// soon as the message arrives).
pub const PATIENCE: Duration = Duration::from_secs(20);

pub struct TestServer {
    pub addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<anyhow::Result<()>>>,
}

impl TestServer {
    pub async fn start(config: Config) -> TestServer {
        // Logs for a failing test: RUST_LOG=debug cargo test …
        if std::env::var_os("RUST_LOG").is_some() {
            let _ = tracing_subscriber::fmt().with_test_writer().try_init();
        }
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(cardroom_server::run(listener, config, async {
            let _ = stopped.await;
        }));
        TestServer { addr, stop: Some(stop), task: Some(task) }
    }

    pub async fn client(&self) -> CardroomClient<Channel> {
        CardroomClient::connect(format!("http://{}", self.addr)).await.unwrap()
    }

    pub async fn channel(&self) -> Channel {
        Channel::from_shared(format!("http://{}", self.addr)).unwrap().connect().await.unwrap()
    }

    /// Asks the server to stop and waits until `run` returns.
    pub async fn stop(mut self) -> anyhow::Result<()> {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        match self.task.take() {
            Some(task) => tokio::time::timeout(PATIENCE, task).await.expect("the server stops")?,
            None => Ok(()),
        }
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        if let Some(task) = &self.task {
            task.abort();
        }
    }
}

/// Creates a match and returns its id and seat tokens.
pub async fn create(
    client: &mut CardroomClient<Channel>,
    game: pb::Game,
    seats: u32,
    options_json: &str,
    seed: u64,
    clock: Option<pb::Clock>,
) -> (String, Vec<String>) {
    let response = client
        .create_match(pb::CreateMatchRequest {
            game: game as i32,
            options_json: options_json.into(),
            seats,
            seed: Some(seed),
            clock,
            lobby_bots: Vec::new(),
        })
        .await
        .unwrap()
        .into_inner();
    (response.match_id, response.seats.into_iter().map(|s| s.token).collect())
}

/// One bot's Play stream.
pub struct Bot {
    pub tx: mpsc::Sender<pb::BotMessage>,
    pub rx: Streaming<pb::ServerMessage>,
}

impl Bot {
    /// Opens a Play stream and sends `join` first.
    pub async fn open(channel: Channel, join: pb::Join) -> Result<Bot, Status> {
        let mut client = CardroomClient::new(channel);
        let (tx, rx) = mpsc::channel(64);
        tx.send(pb::BotMessage { message: Some(pb::bot_message::Message::Join(join)) })
            .await
            .unwrap();
        let stream = client.play(ReceiverStream::new(rx)).await?.into_inner();
        Ok(Bot { tx, rx: stream })
    }

    pub async fn with_token(channel: Channel, token: &str) -> Result<Bot, Status> {
        let join = pb::Join {
            seat: Some(pb::join::Seat::SeatToken(token.into())),
            bot_name: "test".into(),
        };
        Bot::open(channel, join).await
    }

    /// The next message, or the stream's error; `None` when the stream ended.
    pub async fn next(&mut self) -> Result<Option<pb::server_message::Message>, Status> {
        let message = tokio::time::timeout(PATIENCE, self.rx.message())
            .await
            .expect("a message within the test's patience")?;
        Ok(message.map(|m| m.message.expect("every server message has a body")))
    }

    /// Skips events and returns the next message of another kind.
    pub async fn next_non_event(&mut self) -> Option<pb::server_message::Message> {
        loop {
            match self.next().await.unwrap() {
                Some(pb::server_message::Message::Events(_)) => continue,
                other => return other,
            }
        }
    }

    pub async fn act(&self, turn: u64, choice: pb::act::Choice) {
        let act = pb::Act { turn, choice: Some(choice) };
        self.tx
            .send(pb::BotMessage { message: Some(pb::bot_message::Message::Act(act)) })
            .await
            .unwrap();
    }

    /// Plays random legal actions by index until the match ends (going out in gin when it can);
    /// returns the end.
    pub async fn play_randomly(mut self, seed: u64) -> pb::MatchEnd {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        loop {
            match self.next().await.unwrap() {
                Some(pb::server_message::Message::Turn(turn)) => {
                    // Random, but a gin player goes out when it can, so matches end soon.
                    let out = turn.legal_actions.iter().find(|legal| goes_out(legal));
                    let index = match out {
                        Some(legal) => legal.index,
                        None => rng.random_range(0..turn.legal_actions.len()) as u32,
                    };
                    self.act(turn.turn, pb::act::Choice::Index(index)).await;
                }
                Some(pb::server_message::Message::End(end)) => return end,
                Some(pb::server_message::Message::Error(error)) => {
                    panic!("a legal action by index was refused: {error:?}")
                }
                Some(_) => {}
                None => panic!("the stream ended before the match"),
            }
        }
    }
}

/// A Gin Rummy knock, gin or big gin.
fn goes_out(legal: &pb::LegalAction) -> bool {
    use pb::gin_action::Action;
    let Some(pb::Action { game: Some(pb::action::Game::Gin(gin)) }) = &legal.action else {
        return false;
    };
    matches!(gin.action, Some(Action::Knock(_) | Action::Gin(_) | Action::BigGin(_)))
}
