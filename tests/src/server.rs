//! [`TestServer`]: a cardroom server in this process on `127.0.0.1:0`, and [`create`].

use std::net::SocketAddr;

use cardroom_proto::pb;
use cardroom_proto::pb::cardroom_client::CardroomClient;
use cardroom_server::Config;
use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tonic::transport::Channel;

use crate::PATIENCE;

/// A cardroom server in this process on `127.0.0.1:0`; it stops when dropped (or, gracefully,
/// with [`TestServer::stop`]).
pub struct TestServer {
    /// Where it listens.
    pub addr: SocketAddr,
    /// Sending (or dropping) it asks the server to stop.
    stop: Option<oneshot::Sender<()>>,
    /// The server's task, aborted on drop.
    task: Option<JoinHandle<anyhow::Result<()>>>,
}

impl TestServer {
    /// Starts a server with `config`. Logs go to the test's output when `RUST_LOG` is set.
    ///
    /// # Panics
    ///
    /// When it cannot bind a port.
    pub async fn start(config: Config) -> TestServer {
        TestServer::serve(cardroom_server::Server::new(config)).await
    }

    /// Serves `server` (made beforehand, so that what runs inside it, a hosted ladder, has its
    /// host handle).
    ///
    /// # Panics
    ///
    /// When it cannot bind a port.
    pub async fn serve(server: cardroom_server::Server) -> TestServer {
        if std::env::var_os("RUST_LOG").is_some() {
            let _ = tracing_subscriber::fmt().with_test_writer().try_init();
        }
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("a free port on 127.0.0.1");
        let addr = listener.local_addr().expect("a bound listener has an address");
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(server.serve(listener, async {
            let _ = stopped.await;
        }));
        TestServer { addr, stop: Some(stop), task: Some(task) }
    }

    /// The server's URL, `http://127.0.0.1:PORT`.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// The server's URL over TLS, `https://127.0.0.1:PORT` (for a server started with
    /// `Config::tls`; [`TestCertificates`](crate::TestCertificates) are valid for that address).
    pub fn https_url(&self) -> String {
        format!("https://127.0.0.1:{}", self.addr.port())
    }

    /// A client for unary calls.
    ///
    /// # Panics
    ///
    /// When the server cannot be reached.
    pub async fn client(&self) -> CardroomClient<Channel> {
        CardroomClient::new(self.channel().await)
    }

    /// A new connection to the server.
    ///
    /// # Panics
    ///
    /// When the server cannot be reached.
    pub async fn channel(&self) -> Channel {
        connect(&self.url()).await
    }

    /// Creates a match with the default options and clock; returns its id and seat tokens.
    ///
    /// # Panics
    ///
    /// When the server refuses.
    pub async fn create(&self, game: pb::Game, seats: u32, seed: u64) -> (String, Vec<String>) {
        create(&mut self.client().await, game, seats, "", seed, None).await
    }

    /// The status of a match.
    ///
    /// # Panics
    ///
    /// When the server refuses.
    pub async fn match_info(&self, match_id: &str) -> pb::MatchInfo {
        let request = pb::GetMatchRequest { match_id: match_id.to_owned() };
        self.client().await.get_match(request).await.expect("GetMatch succeeds").into_inner()
    }

    /// Asks the server to stop and waits until `run` returns.
    ///
    /// # Panics
    ///
    /// When it takes longer than [`PATIENCE`] or its task panicked.
    pub async fn stop(mut self) -> anyhow::Result<()> {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        match self.task.take() {
            Some(task) => tokio::time::timeout(PATIENCE, task)
                .await
                .expect("the server stops in time")
                .expect("the server's task does not panic"),
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

/// A new connection to the server at `url`.
///
/// # Panics
///
/// When the server cannot be reached.
pub async fn connect(url: &str) -> Channel {
    Channel::from_shared(url.to_owned())
        .expect("a valid URL")
        .connect()
        .await
        .expect("the test server answers")
}

/// Creates a match and returns its id and seat tokens.
///
/// # Panics
///
/// When the server refuses.
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
        .expect("CreateMatch succeeds")
        .into_inner();
    (response.match_id, response.seats.into_iter().map(|s| s.token).collect())
}
