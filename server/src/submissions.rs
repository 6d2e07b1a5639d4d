//! Bot submissions on the wire: `SubmitBot` (a .tar.gz in chunks, with the bot's key or the
//! admin token) and the public `ListSubmissions`. The checks and the storage are
//! `cardroom_store`'s (`Accounts::submit`).

use cardroom_proto::pb;
use cardroom_store::{Accounts, ArchiveError, BotAccount, Submission, SubmitError, SubmittedBy};
use tokio::sync::{Semaphore, SemaphorePermit};
use tonic::{Status, Streaming};
use tracing::info;

use crate::accounts::{account_status, auth_status, bearer, store_status};
use crate::config::Config;
use crate::token::same_secret;

/// The bot accounts submissions are kept with; FAILED_PRECONDITION on a server without a
/// store.
pub(crate) fn accounts(config: &Config) -> Result<&Accounts, Status> {
    config.accounts.as_ref().ok_or_else(|| {
        Status::failed_precondition(
            "this server keeps no bot accounts, so it takes no submissions: start it with \
             --store sqlite:FILE",
        )
    })
}

/// Reads a `SubmitBot` stream, checks its credential before its archive, and stores the
/// submission. `metadata` is the call's; `uploads` counts the submissions arriving at once.
pub(crate) async fn submit(
    accounts: &Accounts,
    config: &Config,
    uploads: &Semaphore,
    metadata: &tonic::metadata::MetadataMap,
    chunks: Streaming<pb::SubmitBotChunk>,
) -> Result<pb::SubmittedBot, Status> {
    let timeout = config.submission_timeout;
    let late = || {
        Status::deadline_exceeded(format!(
            "the submission did not arrive within {} s (the server's limit): nothing is kept",
            timeout.as_secs_f64()
        ))
    };
    let arrived =
        tokio::time::timeout(timeout, receive(accounts, config, uploads, metadata, chunks));
    let Received { bot, by, run, bytes, slot: _slot } = arrived.await.map_err(|_| late())??;
    crate::seasons::check_open(accounts, &bot).await?;
    let submitted = accounts
        .submit(bot.id, bytes, run, by, config.submission_limits)
        .await
        .map_err(submit_status);
    let version = submitted.as_ref().map(|s| s.submission.sha256.as_str());
    crate::seasons::note_submission(accounts, &bot, version).await;
    let submitted = submitted?;
    let submission = &submitted.submission;
    info!(
        bot = %bot.name,
        version = %submission.sha256,
        bytes = submission.archive_bytes,
        by = by.as_str(),
        new = submitted.new,
        "bot submitted"
    );
    Ok(pb::SubmittedBot {
        submission: Some(to_pb(&bot.name, submitted.submission)),
        new: submitted.new,
    })
}

/// A `SubmitBot` stream read whole, under the compressed limit.
struct Received<'a> {
    bot: BotAccount,
    by: SubmittedBy,
    run: Vec<String>,
    bytes: Vec<u8>,
    /// Its place among the submissions at once, held until it is stored.
    slot: SemaphorePermit<'a>,
}

/// Reads a `SubmitBot` stream: its bot and credential first, then its archive.
async fn receive<'a>(
    accounts: &Accounts,
    config: &Config,
    uploads: &'a Semaphore,
    metadata: &tonic::metadata::MetadataMap,
    mut chunks: Streaming<pb::SubmitBotChunk>,
) -> Result<Received<'a>, Status> {
    let first = chunks.message().await?.ok_or_else(|| {
        Status::invalid_argument("an empty SubmitBot stream: its first message names the bot")
    })?;
    let pb::SubmitBotChunk { bot: name, run, archive: mut bytes } = first;
    let bot = accounts.get(&name).await.map_err(account_status)?;
    let by = submitter(accounts, config, metadata, &bot.name).await?;
    // Only once the credential holds does a submission take a slot and its bytes memory.
    let slot = uploads.try_acquire().map_err(|_| {
        Status::resource_exhausted(format!(
            "the server is receiving {} submissions already (its limit): try again when one ends",
            config.submissions_at_once
        ))
    })?;
    let limit = config.submission_limits.max_archive_bytes;
    while let Some(chunk) = chunks.message().await? {
        if !chunk.bot.is_empty() || !chunk.run.is_empty() {
            return Err(Status::invalid_argument(
                "SubmitBot: the bot and its run command go in the first message only",
            ));
        }
        bytes.extend_from_slice(&chunk.archive);
        if bytes.len() as u64 > limit {
            // Refused as it comes: the server never holds more than the limit.
            let over = ArchiveError::TooLarge { what: "bytes compressed", limit };
            return Err(Status::resource_exhausted(over.to_string()));
        }
    }
    Ok(Received { bot, by, run, bytes, slot })
}

/// Who may submit for `name`: the organizer with the admin token, or the bot's author with
/// its own active key or the author's token. No credential, or one that is nobody's, is
/// UNAUTHENTICATED; another bot's key or author's token PERMISSION_DENIED.
async fn submitter(
    accounts: &Accounts,
    config: &Config,
    metadata: &tonic::metadata::MetadataMap,
    name: &str,
) -> Result<SubmittedBy, Status> {
    let credential = bearer(metadata).ok_or_else(|| {
        Status::unauthenticated(
            "a submission needs the bot's key or the admin token as `authorization: Bearer \
             <credential>`",
        )
    })?;
    if config.admin_token.as_deref().is_some_and(|token| same_secret(credential, token)) {
        return Ok(SubmittedBy::Admin);
    }
    if credential.starts_with(cardroom_store::AUTHOR_TOKEN_PREFIX) {
        let author = accounts.author_by_token(credential).await.map_err(store_status)?;
        let author = author
            .ok_or_else(|| Status::unauthenticated("the author token presented is no author's"))?;
        let bot = accounts.get(name).await.map_err(account_status)?;
        crate::accounts::Manager::Author(author).may_manage(&bot)?;
        return Ok(SubmittedBy::Author);
    }
    accounts.authenticate(name, Some(credential), true).await.map_err(auth_status)?;
    Ok(SubmittedBy::Bot)
}

/// A refused submission's status: a size over a limit is RESOURCE_EXHAUSTED, a bad archive
/// or run command INVALID_ARGUMENT.
fn submit_status(error: SubmitError) -> Status {
    match error {
        SubmitError::Archive(error) if error.is_too_large() => {
            Status::resource_exhausted(error.to_string())
        }
        SubmitError::Archive(_) | SubmitError::BadRun(_) => {
            Status::invalid_argument(error.to_string())
        }
        SubmitError::Store(error) => store_status(error),
    }
}

/// `ListSubmissions`: a bot's submissions, newest first.
pub(crate) async fn list(
    accounts: &Accounts,
    request: &pb::ListSubmissionsRequest,
) -> Result<pb::ListSubmissionsResponse, Status> {
    let submissions = accounts.submissions(&request.bot).await.map_err(account_status)?;
    Ok(pb::ListSubmissionsResponse {
        submissions: submissions.into_iter().map(|s| to_pb(&request.bot, s)).collect(),
    })
}

/// A submission on the wire.
pub(crate) fn to_pb(bot: &str, submission: Submission) -> pb::Submission {
    pb::Submission {
        bot: bot.to_owned(),
        sha256: submission.sha256,
        run: submission.run,
        archive_bytes: submission.archive_bytes,
        unpacked_bytes: submission.unpacked_bytes,
        submitted_ms: submission.submitted_ms,
        submitted_by: match submission.submitted_by {
            SubmittedBy::Admin => pb::SubmittedBy::Admin,
            SubmittedBy::Bot => pb::SubmittedBy::Bot,
            SubmittedBy::Author => pb::SubmittedBy::Author,
        } as i32,
        archive_kept: submission.archive_kept,
    }
}
