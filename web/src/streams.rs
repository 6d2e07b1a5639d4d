//! The caps on live pages' event streams: so many at once in all, so many from one address. A
//! stream holds a [`StreamSlot`] from its request to its end (the client gone, the server
//! stopping), and a request past a cap is refused at once with a clear error, never left to
//! hang.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::{Arc, Mutex, PoisonError};

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};

use crate::App;

/// How long a refused client is asked to wait before it tries again, in seconds.
const RETRY_AFTER_SECONDS: u32 = 10;

/// The live streams open, by address. A cheap handle: clones count the same streams.
#[derive(Clone, Debug)]
pub(crate) struct LiveStreams {
    shared: Arc<Shared>,
}

#[derive(Debug)]
struct Shared {
    max_total: usize,
    max_per_address: usize,
    /// A std mutex: it is held for a lookup and an add, never across an `.await`.
    open: Mutex<Open>,
}

#[derive(Debug, Default)]
struct Open {
    total: usize,
    /// Only addresses with a stream open: an address's entry goes with its last stream.
    by_address: HashMap<IpAddr, usize>,
}

impl LiveStreams {
    /// At most `max_total` streams at once, and `max_per_address` from one address.
    pub(crate) fn new(max_total: usize, max_per_address: usize) -> LiveStreams {
        let open = Mutex::new(Open::default());
        LiveStreams { shared: Arc::new(Shared { max_total, max_per_address, open }) }
    }

    /// A slot for a stream from `address`, or why there is none.
    pub(crate) fn take(&self, address: IpAddr) -> Result<StreamSlot, Refused> {
        let shared = &self.shared;
        let mut open = shared.open.lock().unwrap_or_else(PoisonError::into_inner);
        if open.total >= shared.max_total {
            return Err(Refused::Full { max: shared.max_total });
        }
        if open.by_address.get(&address).copied().unwrap_or(0) >= shared.max_per_address {
            return Err(Refused::AddressFull { address, max: shared.max_per_address });
        }
        *open.by_address.entry(address).or_default() += 1;
        open.total += 1;
        Ok(StreamSlot { streams: self.clone(), address })
    }

    /// The streams open in all.
    #[cfg(test)]
    fn total(&self) -> usize {
        self.shared.open.lock().unwrap_or_else(PoisonError::into_inner).total
    }
}

/// One live stream's place under the caps, given back when dropped (with the stream).
#[derive(Debug)]
pub(crate) struct StreamSlot {
    streams: LiveStreams,
    address: IpAddr,
}

impl Drop for StreamSlot {
    fn drop(&mut self) {
        let mut open = self.streams.shared.open.lock().unwrap_or_else(PoisonError::into_inner);
        open.total -= 1;
        if let Some(mine) = open.by_address.get_mut(&self.address) {
            *mine -= 1;
            if *mine == 0 {
                open.by_address.remove(&self.address);
            }
        }
    }
}

/// A live stream refused: 503 when the server holds its most, 429 when the address does; each
/// with `Retry-After` and one line naming the limit and its flag.
#[derive(Debug, thiserror::Error)]
pub(crate) enum Refused {
    #[error(
        "the server has its most live streams open ({max}, --sse-max-streams); try again later"
    )]
    Full { max: usize },
    #[error(
        "{address} has its most live streams open ({max}, --sse-max-per-address); close a live \
         page or try again later"
    )]
    AddressFull { address: IpAddr, max: usize },
}

impl IntoResponse for Refused {
    fn into_response(self) -> Response {
        let status = match self {
            Refused::Full { .. } => StatusCode::SERVICE_UNAVAILABLE,
            Refused::AddressFull { .. } => StatusCode::TOO_MANY_REQUESTS,
        };
        tracing::debug!(cause = %self, "live stream refused");
        let headers = [
            (header::RETRY_AFTER, RETRY_AFTER_SECONDS.to_string()),
            (header::CONTENT_TYPE, "text/plain; charset=utf-8".to_owned()),
        ];
        (status, headers, format!("{self}\n")).into_response()
    }
}

/// The IP address a request came from, as [`crate::serve`] gives every request
/// (`ConnectInfo`). A request without one (the router served some other way) is from the
/// unspecified address.
pub(crate) struct PeerAddress(pub(crate) IpAddr);

impl<S: Send + Sync> FromRequestParts<S> for PeerAddress {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<PeerAddress, Self::Rejection> {
        let address = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |ConnectInfo(peer)| peer.ip());
        Ok(PeerAddress(address))
    }
}

/// A live page's handler takes its slot as it is called, by its [`PeerAddress`].
impl<S: Send + Sync> FromRequestParts<App<S>> for StreamSlot {
    type Rejection = Refused;

    async fn from_request_parts(parts: &mut Parts, app: &App<S>) -> Result<StreamSlot, Refused> {
        let Ok(PeerAddress(address)) = PeerAddress::from_request_parts(parts, app).await;
        app.streams.take(address)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn address(last: u8) -> IpAddr {
        IpAddr::V4(Ipv4Addr::new(127, 0, 0, last))
    }

    #[test]
    fn streams_are_capped_in_all_and_by_address_until_they_end() {
        let streams = LiveStreams::new(3, 2);
        let first = streams.take(address(1)).unwrap();
        let _second = streams.take(address(1)).unwrap();
        assert!(matches!(streams.take(address(1)), Err(Refused::AddressFull { max: 2, .. })));
        let _third = streams.take(address(2)).unwrap();
        assert!(matches!(streams.take(address(3)), Err(Refused::Full { max: 3 })));
        drop(first);
        assert_eq!(streams.total(), 2);
        let _again = streams.take(address(1)).unwrap();
        assert!(matches!(streams.take(address(2)), Err(Refused::Full { .. })));
    }

    #[test]
    fn an_address_is_forgotten_with_its_last_stream() {
        let streams = LiveStreams::new(10, 10);
        let slots: Vec<StreamSlot> = (1..=5).map(|n| streams.take(address(n)).unwrap()).collect();
        drop(slots);
        assert_eq!(streams.total(), 0);
        let open = streams.shared.open.lock().unwrap();
        assert!(open.by_address.is_empty(), "{:?}", open.by_address);
    }
}
