//! The nodes' `Lend` rpc (`proto/cardroom/v1/nodes.proto`) on one server: refused without this
//! node's secret, the bot left waiting; with it, the bot's own `Join` answered, and the bot back
//! in the lobby when the call ends before any frame. The pool it serves, three nodes seating
//! bots of each other, is in cli/tests/nodes.rs.

#![allow(clippy::unwrap_used)] // A test fails loudly on an unexpected error.

use cardroom_proto::pb;
use cardroom_proto::pb::nodes_client::NodesClient;
use cardroom_server::{Config, Server};
use cardroom_tests::{Bot, TestServer};
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;
use tonic::Code;

/// A `Lend` of `bot` presenting `secret` (none if `None`), and the sender of its frames: the
/// call's request ends when the sender is dropped, as a borrower's does.
fn lend(
    bot: &str,
    secret: Option<&str>,
) -> (tonic::Request<ReceiverStream<pb::ServerMessage>>, mpsc::Sender<pb::ServerMessage>) {
    let (frames, sent) = mpsc::channel(1);
    let mut request = tonic::Request::new(ReceiverStream::new(sent));
    request.metadata_mut().insert("cardroom-lend", bot.parse().unwrap());
    if let Some(secret) = secret {
        request.metadata_mut().insert("cardroom-node-secret", secret.parse().unwrap());
    }
    (request, frames)
}

/// A bot waiting in the lobby under `name`.
async fn waiting(server: &TestServer, name: &str) -> Bot {
    let join = pb::Join {
        seat: Some(pb::join::Seat::Lobby(name.to_owned())),
        bot_name: name.to_owned(),
        ..Default::default()
    };
    Bot::open(server.channel().await, join).await.unwrap()
}

#[tokio::test]
async fn lend_needs_the_nodes_secret_and_a_call_without_frames_gives_the_bot_back() {
    let server = Server::new(Config::default());
    let secret = server.host().node_secret().to_owned();
    let host = server.host();
    let server = TestServer::serve(server).await;
    let (_ann, _ben) = (waiting(&server, "ann").await, waiting(&server, "ben").await);
    cardroom_tests::eventually("both bots waiting", || async {
        (host.lobby().len() == 2).then_some(())
    })
    .await;
    let mut client = NodesClient::new(server.channel().await);

    // Without the secret, or with another: PERMISSION_DENIED, and ann still waits.
    for presented in [None, Some("not-the-secret")] {
        let refused = client.lend(lend("ann", presented).0).await.unwrap_err();
        assert_eq!(refused.code(), Code::PermissionDenied, "{refused:?}");
    }
    assert_eq!(host.lobby().get("ann"), Some(&1));

    // A bot that does not wait here: FAILED_PRECONDITION, once the lender waited a little.
    let absent = client.lend(lend("carol", Some(&secret)).0).await.unwrap_err();
    assert_eq!(absent.code(), Code::FailedPrecondition, "{absent:?}");

    // With the secret: ann's own Join first, and ann is out of the lobby while lent.
    let (request, frames) = lend("ann", Some(&secret));
    let mut answers = client.lend(request).await.unwrap().into_inner();
    let first = answers.message().await.unwrap().unwrap();
    let Some(pb::bot_message::Message::Join(join)) = first.message else {
        panic!("the first answer is the bot's Join: {first:?}")
    };
    assert_eq!(join.bot_name, "ann");
    assert_eq!(host.lobby().get("ann"), None);

    // The borrower ends its request before any frame (it could not borrow every seat, say):
    // ann waits again.
    drop(frames);
    drop(answers);
    cardroom_tests::eventually("ann back in the lobby", || async {
        (host.lobby().get("ann") == Some(&1)).then_some(())
    })
    .await;
}
