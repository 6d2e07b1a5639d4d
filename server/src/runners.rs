//! The organizer's runners on other machines (`cardroom runner --server URL`, issue 39): the
//! `Runners` service (`proto/cardroom/v1/runners.proto`), and a runner's bot as `Play` knows it.
//!
//! A runner fetches the submissions a node's runner would read from the store, and reports what
//! a node's runner tells its `Host`: a bot's process ended, a bot's output in a match. Its bots
//! play through `Play` with the admin token and the `cardroom-hosted` metadata naming the bot:
//! the server takes such a stream as a sandboxed bot's on its Unix socket (the bot's own name,
//! in the lobby or on its own seat), and leaves its freezer to the runner's relay.
//!
//! Every rpc here, and the metadata, needs the admin token: on a server without one anyone
//! could play as any bot, so they are refused there.

use std::sync::Arc;

use cardroom_proto::pb;
use cardroom_proto::server::runners_server::Runners;
use cardroom_store::{Accounts, Echo};
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;
use tonic::{Request, Response, Status};
use tracing::info;

use crate::accounts::{account_status, store_status};
use crate::host::OnCall;
use crate::registry::Registry;
use crate::service::Boxed;
use crate::submissions::to_pb;
use crate::throttle::AuthThrottle;

/// The request metadata key naming the registered bot a runner's `Play` stream plays as.
pub const HOSTED_METADATA: &str = "cardroom-hosted";

/// The most bytes of output kept a match, as a node's runner caps it (`Limits::output`); more
/// is cut, saying so.
pub const MAX_OUTPUT_BYTES: usize = 64 << 10;

/// The most bytes of a reason a runner gives for a bot's end.
const MAX_REASON_BYTES: usize = 1024;

/// The largest `Runners` request: an output of [`MAX_OUTPUT_BYTES`], its reason and names.
pub(crate) const MAX_RUNNER_MESSAGE_BYTES: usize = MAX_OUTPUT_BYTES + (16 << 10);

/// The `Runners` service.
pub(crate) struct RunnersService {
    pub(crate) registry: Registry,
    pub(crate) throttle: Arc<AuthThrottle>,
}

impl RunnersService {
    /// The accounts, once the caller showed the admin token (and the server has one).
    fn admitted<T>(&self, request: &Request<T>) -> Result<&Accounts, Status> {
        let config = self.registry.config();
        if config.admin_token.is_none() {
            return Err(no_admin_token());
        }
        crate::accounts::check_admin(config, &self.throttle, request)?;
        crate::submissions::accounts(config)
    }
}

fn no_admin_token() -> Status {
    Status::failed_precondition(
        "this server has no admin token (--admin-token), so it hosts no runner's bots: \
         anyone could play as any bot",
    )
}

/// The bot a runner's `Play` stream plays as, from its `cardroom-hosted` metadata, once the
/// admin token is checked; `None` when the stream names none.
pub(crate) fn hosted_as<T>(
    registry: &Registry,
    throttle: &AuthThrottle,
    request: &Request<T>,
) -> Result<Option<String>, Status> {
    let Some(name) = request.metadata().get(HOSTED_METADATA) else { return Ok(None) };
    let name = name.to_str().map_err(|_| {
        Status::invalid_argument(format!("`{HOSTED_METADATA}` must be a bot's name, as text"))
    })?;
    let config = registry.config();
    if config.admin_token.is_none() {
        return Err(no_admin_token());
    }
    if config.accounts.is_none() {
        return Err(Status::failed_precondition(
            "this server keeps no bot accounts, so it hosts no runner's bots: start it with \
             --store sqlite:FILE",
        ));
    }
    crate::accounts::check_admin(config, throttle, request)?;
    Ok(Some(name.to_owned()))
}

/// Cuts `text` to at most `max` bytes at a character's edge, saying how much was cut.
fn capped(mut text: String, max: usize) -> String {
    if text.len() > max {
        let cut = text.len();
        let mut end = max;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text.truncate(end);
        text.push_str(&format!("\n--- {} bytes more were dropped (past the cap)\n", cut - end));
    }
    text
}

#[tonic::async_trait]
impl Runners for RunnersService {
    async fn list_hosted_bots(
        &self,
        request: Request<pb::ListHostedBotsRequest>,
    ) -> Result<Response<pb::ListHostedBotsResponse>, Status> {
        let accounts = self.admitted(&request)?;
        let newest = accounts.store().newest_submissions().await.map_err(store_status)?;
        let bots = newest.into_iter().map(|(name, submission)| to_pb(&name, submission)).collect();
        Ok(Response::new(pb::ListHostedBotsResponse { bots }))
    }

    type FetchSubmissionStream = Boxed<pb::SubmissionChunk>;

    async fn fetch_submission(
        &self,
        request: Request<pb::FetchSubmissionRequest>,
    ) -> Result<Response<Self::FetchSubmissionStream>, Status> {
        let accounts = self.admitted(&request)?;
        let name = request.into_inner().bot;
        let bot = accounts.get(&name).await.map_err(account_status)?;
        let found = accounts.store().newest_submission(bot.id).await.map_err(store_status)?;
        let Some((submission, archive)) = found else {
            return Err(Status::not_found(format!(
                "{} has no submission with its archive kept",
                Echo(&name)
            )));
        };
        // Chunks well within any message limit a client keeps (gRPC's default is 4 MiB).
        let chunk = self.registry.config().max_message_bytes.clamp(1024, 1 << 20) / 2;
        let mut chunks = archive.chunks(chunk).map(|bytes| bytes.to_vec()).collect::<Vec<_>>();
        if chunks.is_empty() {
            chunks.push(Vec::new());
        }
        let (tx, rx) = mpsc::channel(chunks.len());
        let mut first = Some(to_pb(&name, submission));
        for archive in chunks {
            let piece = pb::SubmissionChunk { submission: first.take(), archive };
            let _ = tx.try_send(Ok(piece));
        }
        Ok(Response::new(Box::pin(ReceiverStream::new(rx))))
    }

    async fn end_hosted_bot(
        &self,
        request: Request<pb::EndHostedBotRequest>,
    ) -> Result<Response<pb::EndHostedBotResponse>, Status> {
        self.admitted(&request)?;
        let pb::EndHostedBotRequest { bot, reason, output } = request.into_inner();
        let reason = capped(reason, MAX_REASON_BYTES);
        let output = capped(output, MAX_OUTPUT_BYTES);
        let waiting = self.registry.end_waiting(&bot, &Status::unavailable(reason.clone()));
        let ended = waiting + self.registry.end_seats(&bot, &reason, Some(&output));
        info!(%bot, %reason, ended, "a runner's hosted bot ended");
        Ok(Response::new(pb::EndHostedBotResponse { ended: u32::try_from(ended).unwrap_or(0) }))
    }

    async fn keep_hosted_output(
        &self,
        request: Request<pb::KeepHostedOutputRequest>,
    ) -> Result<Response<pb::KeepHostedOutputResponse>, Status> {
        let accounts = self.admitted(&request)?;
        let pb::KeepHostedOutputRequest { match_id, bot, output } = request.into_inner();
        let output = capped(output, MAX_OUTPUT_BYTES);
        let store = accounts.store();
        let kept = store.keep_output_by_server_id(&match_id, &bot, &output).await;
        if !kept.map_err(store_status)? {
            return Err(Status::not_found(format!(
                "no ladder match {} seats {}",
                Echo(&match_id),
                Echo(&bot)
            )));
        }
        Ok(Response::new(pb::KeepHostedOutputResponse {}))
    }

    type OnCallStream = Boxed<pb::OnCallUpdate>;

    async fn on_call(
        &self,
        request: Request<pb::OnCallRequest>,
    ) -> Result<Response<Self::OnCallStream>, Status> {
        self.admitted(&request)?;
        let bot = request.into_inner().bot;
        let on_call = OnCall::start(&self.registry, &bot).ok_or_else(|| {
            Status::failed_precondition(format!(
                "{} holds a seat in a running match here: it is not idle",
                Echo(&bot)
            ))
        })?;
        let (tx, rx) = mpsc::channel(2);
        let _ = tx.try_send(Ok(pb::OnCallUpdate { woken: false }));
        tokio::spawn(async move {
            tokio::select! {
                () = on_call.woken() => {
                    let _ = tx.send(Ok(pb::OnCallUpdate { woken: true })).await;
                }
                () = tx.closed() => return,
            }
            // On call until it joins again or its runner ends the call.
            tx.closed().await;
            drop(on_call);
        });
        Ok(Response::new(Box::pin(ReceiverStream::new(rx))))
    }
}

/// The runners' service, for the server's routes.
pub(crate) fn service(
    registry: Registry,
    throttle: Arc<AuthThrottle>,
) -> cardroom_proto::server::runners_server::RunnersServer<RunnersService> {
    cardroom_proto::server::runners_server::RunnersServer::new(RunnersService {
        registry,
        throttle,
    })
    .max_decoding_message_size(MAX_RUNNER_MESSAGE_BYTES)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_past_its_cap_is_cut_at_a_character_saying_so() {
        assert_eq!(capped("short".into(), 10), "short");
        let cut = capped("ééé".into(), 3);
        assert!(cut.starts_with('é') && !cut.starts_with("éé"), "{cut:?}");
        assert!(cut.contains("4 bytes more were dropped"), "{cut:?}");
    }
}
