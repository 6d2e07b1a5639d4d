//! cardroom's game server: the `cardroom.v1.Cardroom` gRPC service (`proto/`), hosting
//! Twenty-Two and Gin Rummy matches for remote bots, with gRPC health and reflection.
//!
//! ```no_run
//! # async fn example() -> anyhow::Result<()> {
//! let listener = cardroom_server::listen("127.0.0.1:0".parse()?)?;
//! let shutdown = async { let _ = tokio::signal::ctrl_c().await; };
//! cardroom_server::run(listener, cardroom_server::Config::default(), shutdown).await?;
//! # Ok(()) }
//! ```

mod accounts;
mod clock;
mod config;
mod elsewhere;
#[cfg(any(test, feature = "fuzzing"))]
pub mod fuzzing;
mod host;
mod lend;
mod listing;
mod match_task;
mod metrics;
mod reads;
mod registry;
#[cfg(unix)]
mod relay;
mod runners;
mod sandboxed;
mod scrimmages;
mod seasons;
mod seat_streams;
mod service;
mod standings;
mod stats;
mod status;
mod submissions;
mod throttle;
mod tls;
mod token;
#[cfg(unix)]
mod unix;
mod wakeups;

use std::future::Future;
use std::sync::Arc;

use cardroom_proto::pb;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;
use tonic::service::Routes;
use tonic::transport::server::{ServerTlsConfig, TcpIncoming};
use tracing::{info, warn};

pub use config::Config;
pub use elsewhere::PROXIED_METADATA;
pub use host::{
    Host, HostError, HostedEnd, HostedMatch, HostedSeat, HostedSeatFrom, LadderCommand,
    LadderControl, LadderControlError, LadderSummary, Lender, MAX_FAILURES_KEPT, OnCall,
    ResumedBot, ScrimmageRequest, Started,
};
pub use metrics::ServerMetrics;
#[cfg(unix)]
pub use relay::{BadToken, RunnerRelay};
pub use runners::{HOSTED_METADATA, MAX_OUTPUT_BYTES};
pub use sandboxed::{Filed, HostedControl, SandboxedBot};
pub use seasons::rfc3339;
pub use service::NODE_METADATA;
pub use throttle::{AuthThrottle, PeerKey, Throttled};
pub use tls::{TlsError, TlsIdentity};
pub use token::{random_hex, random_seed};
#[cfg(unix)]
pub use unix::{SOCKET_MODE, UnixSocketListener, listen_unix};

/// The pending connections a listener from [`listen`] asks the kernel to hold (it caps them
/// at `net.core.somaxconn`, 4,096 on current Linux).
pub const LISTEN_BACKLOG: u32 = 4096;

/// A listener on `addr` for the server, with room for a burst of connections.
///
/// tokio's `TcpListener::bind` asks for 1,024 pending connections. A thousand matches' bots
/// connecting at once (a ladder starting, every bot coming back after a restart) overflow
/// that while the server is busy; Linux then answers with SYN cookies, and a connection whose
/// cookie fails is reset: seen once in `cardroom-load run --matches 1000` (issue 18, Session 21).
pub fn listen(addr: std::net::SocketAddr) -> std::io::Result<TcpListener> {
    let socket = if addr.is_ipv4() {
        tokio::net::TcpSocket::new_v4()?
    } else {
        tokio::net::TcpSocket::new_v6()?
    };
    // As `TcpListener::bind` does on Unix: a restarted server binds its port at once.
    #[cfg(unix)]
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    socket.listen(LISTEN_BACKLOG)
}

/// Serves on `listener` (TLS on every connection when `config.tls` is set) until `shutdown`
/// resolves; then ends every running match as aborted (bots and spectators are told, records
/// are written) and returns.
pub async fn run(
    listener: TcpListener,
    config: Config,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    Server::new(config).serve(listener, shutdown).await
}

/// A server made before it serves, for what runs inside it: [`Server::host`] hands out the
/// in-process host API, and [`Server::ladders`] installs what the admin ladder rpcs call.
pub struct Server {
    config: Config,
    registry: registry::Registry,
    ladders: Option<Arc<dyn LadderControl>>,
    /// The throttle of failed authentication, shared with whatever else checks credentials
    /// in the process ([`Server::auth_throttle`]).
    throttle: Arc<throttle::AuthThrottle>,
    /// The Unix socket served beside the TCP listener, if any.
    #[cfg(unix)]
    unix: Option<UnixSocketListener>,
}

impl Server {
    /// A server with `config`, not serving yet.
    pub fn new(config: Config) -> Server {
        let registry = registry::Registry::new(config.clone());
        let throttle = throttle::AuthThrottle::new(
            config.auth_failures_per_peer,
            config.auth_failures_per_bot,
        );
        Server {
            config,
            registry,
            ladders: None,
            throttle: Arc::new(throttle),
            #[cfg(unix)]
            unix: None,
        }
    }

    /// The host API over this server's matches and lobby (it works once the server serves).
    pub fn host(&self) -> Host {
        Host { registry: self.registry.clone() }
    }

    /// The server's figures for Prometheus, read at each scrape from the counters `GetStats`
    /// reads (they move once the server serves).
    pub fn metrics(&self) -> ServerMetrics {
        ServerMetrics { registry: self.registry.clone() }
    }

    /// The throttle of failed authentication this server counts in (its config's quotas):
    /// the pages' key form counts in it too, so that guessing a bot's key costs the same
    /// whichever door it knocks on.
    pub fn auth_throttle(&self) -> Arc<AuthThrottle> {
        Arc::clone(&self.throttle)
    }

    /// The hosted ladders' control this server serves, if any: the pages ask for scrimmages
    /// through it as `RequestScrimmage` does.
    pub fn ladder_control(&self) -> Option<Arc<dyn LadderControl>> {
        self.ladders.clone()
    }

    /// Serves the admin ladder rpcs (`CreateLadder`, `PauseLadder`, `ResumeLadder`,
    /// `CloseLadder`) with `control`; without it they are FAILED_PRECONDITION.
    pub fn ladders(mut self, control: Arc<dyn LadderControl>) -> Server {
        self.ladders = Some(control);
        self
    }

    /// Serves the same services on the Unix socket `socket` too (from [`listen_unix`]), in
    /// plaintext whatever `config.tls` says: it is how sandboxed bots, which have no network,
    /// reach the server. Its file is removed once the server has stopped.
    #[cfg(unix)]
    pub fn unix(mut self, socket: UnixSocketListener) -> Server {
        self.unix = Some(socket);
        self
    }

    /// Serves on `listener` (and on the Unix socket of [`Server::unix`]) as [`run`] does.
    pub async fn serve(
        self,
        listener: TcpListener,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> anyhow::Result<()> {
        serve(listener, self, shutdown).await
    }
}

async fn serve(
    listener: TcpListener,
    server: Server,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    #[cfg(unix)]
    let unix = server.unix;
    let Server { config, registry, ladders, throttle, .. } = server;
    let address = listener.local_addr()?;
    let service = cardroom_proto::server::cardroom_server::CardroomServer::new(service::Cardroom {
        registry: registry.clone(),
        ladders,
        peers: Arc::clone(registry.peers()),
        throttle: Arc::clone(&throttle),
        uploads: Arc::new(tokio::sync::Semaphore::new(config.submissions_at_once)),
    })
    .max_decoding_message_size(config.max_message_bytes);
    let lending = cardroom_proto::server::nodes_server::NodesServer::new(lend::Lending {
        registry: registry.clone(),
    })
    .max_decoding_message_size(config.max_message_bytes);
    let runners = runners::service(registry.clone(), Arc::clone(&throttle));
    let (health_reporter, health) = tonic_health::server::health_reporter();
    health_reporter
        .set_serving::<cardroom_proto::server::cardroom_server::CardroomServer<service::Cardroom>>()
        .await;
    // Reflection in both versions: grpcurl and older tools still ask v1alpha.
    let reflection = || {
        tonic_reflection::server::Builder::configure()
            .register_encoded_file_descriptor_set(pb::FILE_DESCRIPTOR_SET)
            .register_encoded_file_descriptor_set(tonic_health::pb::FILE_DESCRIPTOR_SET)
    };
    let reflection_v1 = reflection().build_v1()?;
    let reflection_v1alpha = reflection().build_v1alpha()?;
    let routes = Routes::new(health)
        .add_service(reflection_v1)
        .add_service(reflection_v1alpha)
        .add_service(service)
        .add_service(lending)
        .add_service(runners);
    let builder = tonic::transport::Server::builder()
        .http2_keepalive_interval(config.keep_alive)
        .http2_keepalive_timeout(config.keep_alive)
        .layer(tower::util::MapResponseLayer::new(oversized_is_resource_exhausted));
    let mut over_tcp = builder.clone();
    if let Some(identity) = &config.tls {
        let tls = ServerTlsConfig::new()
            .identity(identity.to_tonic())
            .timeout(config.tls_handshake_timeout);
        over_tcp = over_tcp.tls_config(tls)?;
    } else if tokens_in_clear(&config, address) {
        warn!(
            %address,
            "an admin token is set but TLS is not: admin and seat tokens cross the network in \
             clear (give the server a TLS certificate and key)"
        );
    }
    info!(%address, tls = config.tls.is_some(), "cardroom serving");
    #[cfg(unix)]
    if let Some(socket) = &unix {
        info!(path = %socket.path().display(), "cardroom serving on a Unix socket too");
    }
    // A key revoked or replaced anywhere ends the bot's streams here (an admin rpc does it at
    // once); the watch stops with the server.
    let _keys = config.accounts.clone().map(|accounts| {
        tokio_util::task::AbortOnDropHandle::new(tokio::spawn(accounts::watch_keys(
            registry.clone(),
            accounts,
        )))
    });
    // The shutdown ends every match while both listeners still serve (a bot's last messages
    // get through), then stops both.
    let stopping = registry.clone();
    let stop = CancellationToken::new();
    let (drained, drained_rx) = tokio::sync::oneshot::channel::<()>();
    let draining = {
        let stop = stop.clone();
        async move {
            shutdown.await;
            info!("shutting down: ending running matches");
            health_reporter
                .set_not_serving::<cardroom_proto::server::cardroom_server::CardroomServer<service::Cardroom>>()
                .await;
            stopping.shutdown().await;
            let _ = drained.send(());
            stop.cancel();
            Ok(())
        }
    };
    let tcp = over_tcp
        .add_routes(routes.clone())
        // No Nagle: a decision is a small message each way, and delaying it costs ~40 ms.
        .serve_with_incoming_shutdown(
            TcpIncoming::from(listener).with_nodelay(Some(true)),
            stop.clone().cancelled_owned(),
        );
    // The socket's file is removed once the server returns, when `_socket_file` drops.
    #[cfg(unix)]
    let (unix, _socket_file) = unix.map(|socket| (socket.listener, socket.file)).unzip();
    let over_unix = async move {
        #[cfg(unix)]
        if let Some(listener) = unix {
            let incoming = tokio_stream::wrappers::UnixListenerStream::new(listener);
            let mut plaintext = builder;
            return plaintext
                .add_routes(routes)
                .serve_with_incoming_shutdown(incoming, stop.cancelled_owned())
                .await;
        }
        Ok(())
    };
    let server = async {
        tokio::try_join!(draining, tcp, over_unix)?;
        Ok::<_, tonic::transport::Error>(())
    };
    // Once every match has ended, clients get `shutdown_grace` to close their connections; a
    // client that never does cannot keep the server alive.
    let grace = config.shutdown_grace;
    tokio::select! {
        result = server => result?,
        () = async {
            if drained_rx.await.is_ok() {
                tokio::time::sleep(grace).await;
            } else {
                std::future::pending::<()>().await;
            }
        } => warn!(?grace, "connections still open after the shutdown grace: stopping anyway"),
    }
    info!("cardroom stopped");
    Ok(())
}

/// A unary request over the size limit gets RESOURCE_EXHAUSTED, as a streamed message does
/// (docs/protocol.md, "Errors"): tonic refuses it with OUT_OF_RANGE before any handler runs,
/// in a trailers-only response, whose status is in the headers. The server itself never
/// answers OUT_OF_RANGE, so only tonic's refusal is rewritten. (Streamed messages are read by
/// the handlers, which map the status themselves: `status::read_error`.)
fn oversized_is_resource_exhausted<B>(mut response: http::Response<B>) -> http::Response<B> {
    const OUT_OF_RANGE: &str = "11";
    const RESOURCE_EXHAUSTED: http::HeaderValue = http::HeaderValue::from_static("8");
    let headers = response.headers_mut();
    if headers.get("grpc-status").is_some_and(|status| status == OUT_OF_RANGE) {
        headers.insert("grpc-status", RESOURCE_EXHAUSTED);
    }
    response
}

/// Whether the server at `address` would take an admin token over the network in clear: it has
/// one, serves no TLS, and listens beyond loopback.
fn tokens_in_clear(config: &Config, address: std::net::SocketAddr) -> bool {
    config.admin_token.is_some() && config.tls.is_none() && !address.ip().is_loopback()
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn an_admin_token_in_clear_beyond_loopback_is_warned_of() {
        let with_token = Config { admin_token: Some("secret".into()), ..Config::default() };
        let public = "0.0.0.0:50051".parse().unwrap();
        assert!(tokens_in_clear(&with_token, public));
        assert!(!tokens_in_clear(&with_token, "127.0.0.1:50051".parse().unwrap()));
        assert!(!tokens_in_clear(&with_token, "[::1]:50051".parse().unwrap()));
        assert!(!tokens_in_clear(&Config::default(), public));
        let pair = rcgen::generate_simple_self_signed(vec!["localhost".to_owned()]).unwrap();
        let identity =
            TlsIdentity::from_pem(pair.cert.pem(), pair.signing_key.serialize_pem()).unwrap();
        let with_tls = Config { tls: Some(identity), ..with_token };
        assert!(!tokens_in_clear(&with_tls, public));
    }

    /// A burst of connections past tokio's default backlog (1,024) waits in the accept queue:
    /// 1,100 clients connect before the server accepts any, and every one is there to accept
    /// (tokio's `TcpListener::bind` would hold 1,025; the rest would wait for the kernel to
    /// retry, or be reset).
    #[cfg(target_os = "linux")]
    #[tokio::test]
    async fn the_listener_holds_a_burst_of_connections() {
        const BURST: usize = 1_100;
        let somaxconn: usize = std::fs::read_to_string("/proc/sys/net/core/somaxconn")
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        let listener = listen(([127, 0, 0, 1], 0).into()).unwrap();
        let addr = listener.local_addr().unwrap();
        let clients: Vec<std::net::TcpStream> =
            (0..BURST).map(|_| std::net::TcpStream::connect(addr).unwrap()).collect();
        // Non-blocking, as tokio made it: accepts what the queue holds, then `WouldBlock`.
        let listener = listener.into_std().unwrap();
        let (mut accepted, mut tries) = (Vec::new(), 0);
        while accepted.len() < BURST && tries < 100_000 {
            match listener.accept() {
                Ok((stream, _)) => accepted.push(stream),
                // The last handshakes may still be on their way through loopback.
                Err(error) if error.kind() == std::io::ErrorKind::WouldBlock => {
                    tries += 1;
                    std::thread::yield_now();
                }
                Err(error) => panic!("accept: {error}"),
            }
        }
        let room = (LISTEN_BACKLOG as usize).min(somaxconn) + 1;
        assert_eq!(accepted.len(), BURST.min(room), "somaxconn {somaxconn}");
        assert_eq!(clients.len(), BURST);
    }
}
