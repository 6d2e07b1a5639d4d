//! Bot accounts on the wire: the key a `Play` stream presents, checked against the name it
//! claims, and the admin rpcs that manage accounts. The accounts themselves, their keys and
//! hashes live in `cardroom_store`.

use cardroom_proto::pb;
use cardroom_store::{
    AUTHOR_TOKEN_PREFIX, AccountError, Accounts, AuthError, Author, BotAccount, BotStatus, Echo,
    InviteRefusal, StoreError,
};
use std::collections::HashMap;
use std::time::Duration;

use tonic::Status;
use tonic::metadata::MetadataMap;
use tracing::{info, warn};

use crate::config::Config;
use crate::registry::Registry;
use crate::throttle::{AuthThrottle, PeerKey};
use crate::token::same_secret;

/// The credential in `authorization: Bearer <credential>` metadata, if any.
pub(crate) fn bearer(metadata: &MetadataMap) -> Option<&str> {
    metadata.get("authorization")?.to_str().ok()?.strip_prefix("Bearer ").map(str::trim)
}

/// Checks the admin token of `request`, when the server has one (`config.admin_token`): a
/// missing or wrong token is UNAUTHENTICATED, counted by `throttle` against the caller.
pub(crate) fn check_admin<T>(
    config: &Config,
    throttle: &AuthThrottle,
    request: &tonic::Request<T>,
) -> Result<(), Status> {
    let Some(expected) = &config.admin_token else { return Ok(()) };
    let peer = PeerKey::of(request);
    throttle.check(peer, None)?;
    let given = bearer(request.metadata());
    let refused = match given {
        Some(token) if same_secret(token, expected) => return Ok(()),
        // The token is the credential: missing or wrong is UNAUTHENTICATED (gRPC keeps
        // PERMISSION_DENIED for a known caller who may not do this).
        Some(_) => Status::unauthenticated("the admin token is wrong"),
        None => Status::unauthenticated(
            "this server needs its admin token: send `authorization: Bearer <token>`",
        ),
    };
    throttle.failed(peer, None);
    Err(refused)
}

/// Who sits down: the registered account a `Join` authenticated as, if any.
///
/// The name a `Join` claims is its lobby name when it waits in the lobby, else its `bot_name`.
/// A registered name is seated only on its own active key; a key presented must be valid and
/// be the claimed name's. A
/// lobby join under an unregistered name may not show a registered `bot_name` without that
/// bot's key either. (`config.registered_only` says whether the lobby seats registered bots
/// only.)
pub(crate) async fn identify(
    accounts: &Accounts,
    seat: &Option<pb::join::Seat>,
    bot_name: &str,
    key: Option<&str>,
    config: &Config,
) -> Result<Option<BotAccount>, Status> {
    let lobby = match seat {
        Some(pb::join::Seat::Lobby(name)) => Some(name.as_str()),
        _ => None,
    };
    let claimed = lobby.unwrap_or(bot_name);
    let registered_only = config.registered_only && lobby.is_some();
    let account =
        accounts.authenticate(claimed, key, registered_only).await.map_err(auth_status)?;
    if account.is_none() && claimed != bot_name && !bot_name.is_empty() {
        accounts.authenticate(bot_name, key, false).await.map_err(auth_status)?;
    }
    Ok(account)
}

/// Who takes a seat again that the registered bot `holder` holds: that bot alone, on its own
/// active key, whatever `bot_name` the rejoin claims (an SDK's default name, say). A seat token
/// names its seat, and the seat its bot.
pub(crate) async fn holder(
    accounts: &Accounts,
    holder: &str,
    key: Option<&str>,
) -> Result<Option<BotAccount>, Status> {
    accounts.authenticate(holder, key, false).await.map_err(auth_status)
}

/// PERMISSION_DENIED for a registered bot taking a seat by its token that another registered
/// bot took first.
pub(crate) fn held_by_another(holder: &str) -> Status {
    Status::permission_denied(format!(
        "this seat is held by the registered bot {holder:?}: it is taken again only on that \
         bot's key"
    ))
}

/// How often a server reads its bots' keys for changes made elsewhere: `cardroom bots revoke`
/// or `rotate` on the store, another node's rpc.
pub(crate) const KEY_WATCH: Duration = Duration::from_secs(1);

/// Why the streams of `name` end when its key was revoked.
pub(crate) fn revoked_reason(name: &str) -> String {
    format!(
        "the key of {name:?} was revoked: its operator issues a new one (`cardroom bots rotate`)"
    )
}

/// Why the streams of `name` end when its key was replaced.
pub(crate) fn replaced_reason(name: &str) -> String {
    format!(
        "the key of {name:?} was replaced (`cardroom bots rotate`): join again with the new key"
    )
}

/// Why the streams of `name` end when its key changed from `before` to `now` (status and
/// issue time), if it did. A bot not read `before` and already revoked `now` was added and
/// revoked between two reads: whatever it holds was joined with the revoked key.
fn key_change(
    name: &str,
    before: Option<(BotStatus, i64)>,
    now: (BotStatus, i64),
) -> Option<String> {
    if before.map_or(now.0 == BotStatus::Active, |before| before == now) {
        return None;
    }
    Some(match now.0 {
        BotStatus::Revoked => revoked_reason(name),
        BotStatus::Active => replaced_reason(name),
    })
}

/// Ends the streams of every registered bot whose key is revoked or replaced, wherever that
/// was done: the admin rpcs call [`revoked`] at once, and this loop reads the accounts every
/// [`KEY_WATCH`] for changes made on the store by another process. Runs until dropped.
pub(crate) async fn watch_keys(registry: Registry, accounts: Accounts) {
    let mut known: HashMap<String, (BotStatus, i64)> = HashMap::new();
    let mut every = tokio::time::interval(KEY_WATCH);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        every.tick().await;
        let bots = match accounts.list().await {
            Ok(bots) => bots,
            Err(error) => {
                warn!(cause = %error, "the bots' keys could not be read");
                continue;
            }
        };
        for bot in bots {
            let now = (bot.status, bot.key_issued_ms);
            let before = known.insert(bot.name.clone(), now);
            if let Some(reason) = key_change(&bot.name, before, now) {
                revoked(&registry, &bot.name, &reason);
            }
        }
    }
}

/// Ends what `name` holds (its waiters, its seats), with `reason`, and logs it.
pub(crate) fn revoked(registry: &Registry, name: &str, reason: &str) {
    let reached = registry.revoke(name, reason);
    if reached > 0 {
        info!(bot = %name, streams = reached, "a changed key ended the bot's streams");
    }
}

/// An authentication failure's status, by gRPC's conventions: no valid credential is
/// UNAUTHENTICATED; a valid one that does not allow this seat is PERMISSION_DENIED.
pub(crate) fn auth_status(error: AuthError) -> Status {
    match error {
        AuthError::Store(error) => store_status(error),
        error if error.is_unauthenticated() => Status::unauthenticated(error.to_string()),
        error => Status::permission_denied(error.to_string()),
    }
}

/// An account operation's failure as a status.
pub(crate) fn account_status(error: AccountError) -> Status {
    match error {
        AccountError::BadName { .. } => Status::invalid_argument(error.to_string()),
        AccountError::NoSuchAuthor(_) => Status::not_found(error.to_string()),
        AccountError::Store(StoreError::Invite(refusal)) => invite_status(refusal),
        AccountError::Store(error) => store_status(error),
    }
}

pub(crate) fn store_status(error: StoreError) -> Status {
    match error {
        StoreError::NameTaken(_) | StoreError::AuthorNameTaken(_) => {
            Status::already_exists(error.to_string())
        }
        StoreError::NoSuchBot(_) => Status::not_found(error.to_string()),
        error => {
            warn!(cause = %error, "the store failed");
            Status::unavailable(format!("the server's store failed: {error}"))
        }
    }
}

/// Notes the version a registered bot joined with, before it is seated (a join, never a
/// decision, waits for it; and only the first join with each version writes). A failure to
/// write is logged, never the bot's problem.
pub(crate) async fn note_version(accounts: &Accounts, bot: &BotAccount, version: &str) {
    if let Err(error) = accounts.note_version(bot.id, version).await {
        warn!(bot = %bot.name, %version, cause = %error, "the bot's version was not stored");
    }
}

/// An account on the wire, with its versions.
pub(crate) async fn account_to_pb(
    accounts: &Accounts,
    bot: BotAccount,
) -> Result<pb::BotAccount, Status> {
    let versions = accounts.versions(&bot.name).await.map_err(account_status)?;
    Ok(pb::BotAccount {
        status: match bot.status {
            BotStatus::Active => pb::BotStatus::Active,
            BotStatus::Revoked => pb::BotStatus::Revoked,
        } as i32,
        created_ms: bot.created_ms,
        key_issued_ms: bot.key_issued_ms,
        revoked_ms: bot.revoked_ms.unwrap_or(0),
        versions_forgotten: versions.forgotten,
        versions: versions
            .kept
            .into_iter()
            .map(|v| pb::BotVersion {
                version: v.version,
                first_seen_ms: v.first_seen_ms,
                last_seen_ms: v.last_seen_ms,
            })
            .collect(),
        name: bot.name,
        author: bot.author.unwrap_or_default(),
    })
}

/// An author on the wire.
pub(crate) fn author_to_pb(author: &Author) -> pb::Author {
    pb::Author { name: author.name.clone(), created_ms: author.created_ms }
}

/// An author's token just issued, on the wire: the one time it is sent.
pub(crate) fn issued_token_to_pb(
    issued: &cardroom_store::IssuedAuthorToken,
) -> pb::IssuedAuthorToken {
    pb::IssuedAuthorToken {
        author: Some(author_to_pb(&issued.author)),
        token: issued.token.expose().to_owned(),
    }
}

/// An invite not redeemed: a code that is nobody's is no credential (UNAUTHENTICATED); one
/// used or expired is refused (PERMISSION_DENIED).
fn invite_status(refusal: InviteRefusal) -> Status {
    match refusal {
        InviteRefusal::Unknown => Status::unauthenticated(format!(
            "{refusal}: ask the organizer for one (`cardroom authors invite`)"
        )),
        InviteRefusal::Used | InviteRefusal::Expired => Status::permission_denied(format!(
            "{refusal}: ask the organizer for another (`cardroom authors invite`)"
        )),
    }
}

/// Who calls an account rpc: the organizer (the admin token), or an author (its token).
pub(crate) enum Manager {
    Admin,
    Author(Author),
}

impl Manager {
    /// PERMISSION_DENIED unless this caller manages `bot`: the organizer manages every bot, an
    /// author their own.
    pub(crate) fn may_manage(&self, bot: &BotAccount) -> Result<(), Status> {
        match self {
            Manager::Admin => Ok(()),
            Manager::Author(author) if bot.author.as_deref() == Some(author.name.as_str()) => {
                Ok(())
            }
            Manager::Author(author) => Err(Status::permission_denied(format!(
                "{} is not a bot of {}: an author manages their own bots",
                Echo(&bot.name),
                Echo(&author.name)
            ))),
        }
    }
}

/// The caller of an account rpc, and the accounts: an author by its token (`cra_…`), else the
/// organizer by the admin token (a server without one serves the organizer no account rpc: one
/// open to anyone would hand out keys). A token that is nobody's is UNAUTHENTICATED, counted
/// by `throttle`.
pub(crate) async fn manager<'a, T>(
    config: &'a Config,
    throttle: &AuthThrottle,
    request: &tonic::Request<T>,
) -> Result<(Manager, &'a Accounts), Status> {
    let accounts = config.accounts.as_ref().ok_or_else(|| {
        Status::failed_precondition(
            "this server keeps no bot accounts: start it with --store sqlite:FILE",
        )
    })?;
    if let Some(token) = bearer(request.metadata()).filter(|t| t.starts_with(AUTHOR_TOKEN_PREFIX)) {
        let peer = PeerKey::of(request);
        throttle.check(peer, None)?;
        return match accounts.author_by_token(token).await.map_err(store_status)? {
            Some(author) => Ok((Manager::Author(author), accounts)),
            None => {
                throttle.failed(peer, None);
                Err(Status::unauthenticated("the author token presented is no author's"))
            }
        };
    }
    if config.admin_token.is_none() {
        return Err(Status::failed_precondition(
            "this server has no admin token (--admin-token), so it serves the organizer no \
             account rpcs: manage its bots with `cardroom bots` on its store, or as an author \
             with an author's token",
        ));
    }
    check_admin(config, throttle, request)?;
    Ok((Manager::Admin, accounts))
}

/// A key just issued, on the wire: the one time it is sent.
pub(crate) async fn issued_to_pb(
    accounts: &Accounts,
    issued: cardroom_store::IssuedKey,
) -> Result<pb::IssuedBotKey, Status> {
    let key = issued.key.expose().to_owned();
    Ok(pb::IssuedBotKey { bot: Some(account_to_pb(accounts, issued.bot).await?), key })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_change_ends_streams_and_a_bot_first_read_revoked_does_too() {
        let active = (BotStatus::Active, 10);
        assert_eq!(key_change("ann", Some(active), active), None);
        assert_eq!(key_change("ann", None, active), None, "a new bot, first read");
        let rotated = (BotStatus::Active, 20);
        assert_eq!(key_change("ann", Some(active), rotated), Some(replaced_reason("ann")));
        let revoked = (BotStatus::Revoked, 10);
        assert_eq!(key_change("ann", Some(active), revoked), Some(revoked_reason("ann")));
        // Added and revoked between two reads (a CI run showed it): its streams end all the same.
        assert_eq!(key_change("ann", None, revoked), Some(revoked_reason("ann")));
    }
}
