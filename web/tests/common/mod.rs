//! What the page tests share: one store of hosted ladders played by the example bots
//! ([`fixture`]), and requests through the router.
#![allow(clippy::unwrap_used, dead_code, unreachable_pub)]

use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::{HeaderMap, Request, StatusCode};
use futures::StreamExt as _;
use scraper::Html;
use tower::ServiceExt as _;

pub mod fixture;

/// A bot name that is markup, to check that the pages escape it.
pub const EVIL_NAME: &str = "<script>alert(\"x\")</script><b>bold & co";

/// A bot name with spaces, a slash, quotes, URL syntax and letters beyond ASCII: its page's
/// address must escape it.
pub const WEIRD_NAME: &str = "ace ♠ / \"dealer\" ?#%&+ é";

/// A bot name of digits only, as an old bot address's number is.
pub const DIGITS_NAME: &str = "1";

/// The fewest steps the long match has: the replay page's weight is bounded for it.
pub const LONG_STEPS: usize = 500;

/// The address of the page of the bot named `name` in `ladder`, as the pages write it: the name
/// one path segment, every byte but RFC 3986's unreserved characters percent-encoded.
pub fn bot_path(ladder: &str, name: &str) -> String {
    const UNRESERVED: &percent_encoding::AsciiSet =
        &percent_encoding::NON_ALPHANUMERIC.remove(b'-').remove(b'.').remove(b'_').remove(b'~');
    format!("/ladders/{ladder}/bots/{}", percent_encoding::utf8_percent_encode(name, UNRESERVED))
}

/// The bot name a bot page's address `href` carries, decoded; it must be one path segment of
/// unreserved characters and percent escapes.
pub fn name_in(href: &str) -> String {
    let (_, segment) = href.split_once("/bots/").unwrap();
    let segment = segment.split(['?', '#']).next().unwrap();
    assert!(
        segment.bytes().all(|b| b.is_ascii_alphanumeric() || b"-._~%".contains(&b)),
        "{href} is not one escaped segment"
    );
    percent_encoding::percent_decode_str(segment).decode_utf8().unwrap().into_owned()
}

/// GET `path`: its status, body and headers.
pub async fn get_raw(router: &Router, path: &str) -> (StatusCode, String, HeaderMap) {
    let request = Request::get(path).body(Body::empty()).unwrap();
    let response = router.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let headers = response.headers().clone();
    let body = axum::body::to_bytes(response.into_body(), 16 << 20).await.unwrap();
    (status, String::from_utf8(body.to_vec()).unwrap(), headers)
}

/// GET `path`, parsed as HTML.
pub async fn get(router: &Router, path: &str) -> (StatusCode, Html) {
    let (status, body, _) = get_raw(router, path).await;
    (status, Html::parse_document(&body))
}

/// The text of a whole page.
pub fn text_of(html: &Html) -> String {
    html.root_element().text().collect()
}

/// Reads server-sent events from `body` until one named `name` arrives; returns its data.
pub async fn next_event(
    stream: &mut (impl futures::Stream<Item = Result<axum::body::Bytes, axum::Error>> + Unpin),
    buffer: &mut String,
    name: &str,
) -> String {
    loop {
        while let Some(end) = buffer.find("\n\n") {
            let event: String = buffer.drain(..end + 2).collect();
            let mut kind = "";
            let mut data = Vec::new();
            for line in event.lines() {
                if let Some(k) = line.strip_prefix("event: ") {
                    kind = k;
                } else if let Some(d) = line.strip_prefix("data: ") {
                    data.push(d);
                }
            }
            if kind == name {
                return data.join("\n");
            }
        }
        let chunk = tokio::time::timeout(Duration::from_secs(60), stream.next())
            .await
            .expect("an event within a minute")
            .expect("the stream goes on")
            .unwrap();
        buffer.push_str(std::str::from_utf8(&chunk).unwrap());
    }
}
