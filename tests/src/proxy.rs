//! A TCP proxy in front of a server, whose open links a test breaks at once: a network cut, a
//! link gone silent, or a partition, between a bot and its server or a node and its database.

use std::net::SocketAddr;

use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;

/// A TCP proxy on `127.0.0.1:0` whose open connections can all be broken at once, one way or
/// another; connections opened after a break go through, except while it is [`Break::Down`] or
/// [`Break::Partition`].
pub struct Proxy {
    /// Where it listens: a bot's server address.
    pub addr: SocketAddr,
    breaks: watch::Sender<Break>,
}

/// How [`Proxy::break_links`] breaks the connections open now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Break {
    /// Nothing yet (the channel's first value).
    None,
    /// Dropped: both sockets closed.
    Cut,
    /// Left open with nothing crossing them, as a link through a middlebox that lost its state.
    Freeze,
    /// Dropped, and every connection after closed at once until the next break (`None` lets
    /// them through again): the upstream unreachable.
    Down,
    /// Frozen, and every connection after accepted and left silent too (never passed on) until
    /// the next break (`None` heals it: new connections go through, the frozen ones stay
    /// frozen): a network partition, where packets are lost and nothing says so.
    Partition,
}

impl Proxy {
    /// A proxy in front of `upstream`.
    ///
    /// # Panics
    ///
    /// When no loopback port can be bound.
    pub async fn start(upstream: SocketAddr) -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("a loopback port");
        let addr = listener.local_addr().expect("the proxy's address");
        let (breaks, watching) = watch::channel(Break::None);
        tokio::spawn(async move {
            while let Ok((mut inbound, _)) = listener.accept().await {
                let mut breaks = watching.clone();
                match *breaks.borrow_and_update() {
                    Break::Down => continue,
                    Break::Partition => {
                        // Held open, unread, until the test ends.
                        tokio::spawn(async move {
                            let _held = inbound;
                            std::future::pending::<()>().await;
                        });
                        continue;
                    }
                    Break::None | Break::Cut | Break::Freeze => {}
                }
                tokio::spawn(async move {
                    let Ok(mut outbound) = TcpStream::connect(upstream).await else { return };
                    tokio::select! {
                        _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound) => {}
                        _ = breaks.changed() => {
                            if matches!(*breaks.borrow(), Break::Freeze | Break::Partition) {
                                // Both sockets stay open, unread and unwritten, until the test
                                // ends.
                                std::future::pending::<()>().await;
                            }
                        }
                    }
                });
            }
        });
        Proxy { addr, breaks }
    }

    /// Breaks every connection open now, as `how` says; later ones go through unless `how` is
    /// [`Break::Down`].
    pub fn break_links(&self, how: Break) {
        self.breaks.send_replace(how);
    }
}
