//! Bot accounts over any [`Store`]: registering, rotating and revoking keys, and checking the
//! key a bot presents for the name it claims.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

use crate::Echo;
use crate::archive::{ArchiveError, ArchiveLimits, check_archive};
use crate::keys::{BotKey, KeyHash};
use crate::submissions::{NewSubmission, Submission, Submitted, SubmittedBy};
use crate::{Author, BotAccount, BotId, BotVersions, Store, StoreError, StoreLatency};

/// The (bot, version) pairs an [`Accounts`] remembers having noted, at most.
const MAX_NOTED: usize = 10_000;

/// The longest bot name, in bytes.
pub const MAX_NAME_BYTES: usize = 64;

/// A name a bot may be registered under: 1 to 64 ASCII letters, digits, `.`, `_` or `-` (it
/// names the bot in the lobby, on the command line and in web pages' addresses).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BotName(String);

impl BotName {
    /// Checks `name`.
    pub fn parse(name: &str) -> Result<BotName, AccountError> {
        let refuse = |why: &str| AccountError::BadName { name: name.to_owned(), why: why.into() };
        if name.is_empty() {
            return Err(refuse("it is empty"));
        }
        if name.len() > MAX_NAME_BYTES {
            return Err(refuse(&format!("it is longer than {MAX_NAME_BYTES} bytes")));
        }
        if let Some(bad) =
            name.chars().find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-')))
        {
            return Err(refuse(&format!(
                "{bad:?} is not one of the letters, digits, '.', '_' and '-' a name is made of"
            )));
        }
        Ok(BotName(name.to_owned()))
    }

    /// The name.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Why an account operation failed.
#[derive(Debug, thiserror::Error)]
pub enum AccountError {
    /// The name cannot be registered (a bot's or an author's).
    #[error("the name {} cannot be registered: {why}", Echo(name))]
    BadName {
        /// The name given.
        name: String,
        /// What is wrong with it.
        why: String,
    },
    /// No author has this name.
    #[error("no author named {}", Echo(.0))]
    NoSuchAuthor(String),
    /// The store failed, or refused (a name taken, a bot unknown).
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// The most words in a submission's run command.
pub const MAX_RUN_WORDS: usize = 64;

/// The most bytes in a submission's run command, its words together.
pub const MAX_RUN_BYTES: usize = 4096;

/// Refuses a run command that is empty, too long or holds a NUL (no program takes one).
fn check_run(run: &[String]) -> Result<(), SubmitError> {
    let refuse = |why: String| Err(SubmitError::BadRun(why));
    if run.first().is_none_or(String::is_empty) {
        return refuse(
            "it is empty: give the program and its arguments, as `python3 bot.py`".into(),
        );
    }
    if run.len() > MAX_RUN_WORDS {
        return refuse(format!("it has {} words; at most {MAX_RUN_WORDS} are kept", run.len()));
    }
    let bytes: usize = run.iter().map(String::len).sum();
    if bytes > MAX_RUN_BYTES {
        return refuse(format!("it is {bytes} bytes; at most {MAX_RUN_BYTES} are kept"));
    }
    if let Some(word) = run.iter().find(|word| word.contains('\0')) {
        return refuse(format!("the word {} holds a NUL byte", Echo(word)));
    }
    Ok(())
}

/// Why a submission is refused.
#[derive(Debug, thiserror::Error)]
pub enum SubmitError {
    /// The archive is refused (its size, or an entry).
    #[error(transparent)]
    Archive(#[from] ArchiveError),
    /// The run command is refused.
    #[error("the run command is refused: {0}")]
    BadRun(String),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Why a bot may not sit down under the name it claims. [`AuthError::is_unauthenticated`] sorts
/// them by gRPC's conventions: no valid credential is UNAUTHENTICATED, a valid one that does
/// not allow this is PERMISSION_DENIED.
#[derive(Debug, thiserror::Error)]
pub enum AuthError {
    /// The name is registered and no key came with it.
    #[error(
        "{} is a registered bot: send its key as `authorization: Bearer <key>` (--key or \
         CARDROOM_KEY in the SDKs)",
        Echo(name)
    )]
    MissingKey {
        /// The name claimed.
        name: String,
    },
    /// The key presented is no active bot's.
    #[error("the key presented for {} is not its key (nor any active bot's)", Echo(name))]
    WrongKey {
        /// The name claimed.
        name: String,
    },
    /// The name's key was revoked.
    #[error(
        "the key of {} was revoked: its operator issues a new one (`cardroom bots rotate`)",
        Echo(name)
    )]
    Revoked {
        /// The name claimed.
        name: String,
    },
    /// The key is another bot's.
    #[error("the key presented is {key_of:?}'s; it does not seat {}", Echo(name))]
    OtherBotsKey {
        /// The name claimed.
        name: String,
        /// The bot the key belongs to.
        key_of: String,
    },
    /// The server seats registered bots only, and this name is not one.
    #[error("{} is not a registered bot, and this server seats registered bots only", Echo(name))]
    NotRegistered {
        /// The name claimed.
        name: String,
    },
    /// The store could not answer.
    #[error("the bot accounts cannot be read: {0}")]
    Store(#[from] StoreError),
}

impl AuthError {
    /// Whether this is a missing or invalid credential (gRPC's UNAUTHENTICATED); otherwise the
    /// caller is refused what it asked for (PERMISSION_DENIED), or the store failed
    /// ([`AuthError::Store`]).
    pub fn is_unauthenticated(&self) -> bool {
        matches!(
            self,
            AuthError::MissingKey { .. } | AuthError::WrongKey { .. } | AuthError::Revoked { .. }
        )
    }
}

/// A key just issued, with its bot: the only time the key is seen.
#[derive(Debug)]
pub struct IssuedKey {
    /// The bot.
    pub bot: BotAccount,
    /// Its new key.
    pub key: BotKey,
}

/// An author's token just issued, with the author: the only time the token is seen.
#[derive(Debug)]
pub struct IssuedAuthorToken {
    /// The author.
    pub author: Author,
    /// Its token (`cra_…`).
    pub token: BotKey,
}

/// An invite code just issued: the only time the code is seen.
#[derive(Debug)]
pub struct IssuedInvite {
    /// The code (`cri_…`).
    pub code: BotKey,
    /// When it stops working, in milliseconds since the Unix epoch.
    pub expires_ms: i64,
}

/// The prefix of an author's token.
pub const AUTHOR_TOKEN_PREFIX: &str = "cra_";

/// The prefix of an invite code.
pub const INVITE_PREFIX: &str = "cri_";

/// Bot accounts over a store: a cheap-to-clone handle.
#[derive(Clone, Debug)]
pub struct Accounts {
    store: Arc<dyn Store>,
    /// The (bot, version) pairs noted since this handle was made: a bot that joins again with
    /// the same version costs no write.
    noted: Arc<Mutex<HashSet<(BotId, String)>>>,
    /// Where the calls a bot's `Join` makes are timed (nowhere read until registered).
    latency: StoreLatency,
}

impl Accounts {
    /// Accounts kept in `store`.
    pub fn new(store: Arc<dyn Store>) -> Accounts {
        Accounts { store, noted: Arc::default(), latency: StoreLatency::default() }
    }

    /// These accounts, timing the store calls of [`Accounts::authenticate`] and
    /// [`Accounts::note_version`] (a bot's `Join`, the Play path) into `latency`.
    pub fn timed(self, latency: StoreLatency) -> Accounts {
        Accounts { latency, ..self }
    }

    /// The store behind.
    pub fn store(&self) -> &Arc<dyn Store> {
        &self.store
    }

    /// Registers `name` and issues its first key.
    pub async fn register(&self, name: &str) -> Result<IssuedKey, AccountError> {
        let name = BotName::parse(name)?;
        let key = BotKey::generate();
        let bot = self.store.register_bot(name.as_str(), key.hash(), now_ms()).await?;
        Ok(IssuedKey { bot, key })
    }

    /// Registers `name` for `author`, who owns it, and issues its first key.
    pub async fn register_for(
        &self,
        author: &Author,
        name: &str,
    ) -> Result<IssuedKey, AccountError> {
        let name = BotName::parse(name)?;
        let key = BotKey::generate();
        let store = &self.store;
        let bot = store.register_bot_of(name.as_str(), key.hash(), Some(author.id), now_ms());
        Ok(IssuedKey { bot: bot.await?, key })
    }

    /// Issues an invite code, good for one author for `valid`.
    pub async fn invite(&self, valid: std::time::Duration) -> Result<IssuedInvite, AccountError> {
        let code = BotKey::with_prefix(INVITE_PREFIX);
        let now = now_ms();
        let expires_ms = now.saturating_add(i64::try_from(valid.as_millis()).unwrap_or(i64::MAX));
        self.store.create_invite(code.hash(), now, expires_ms).await?;
        Ok(IssuedInvite { code, expires_ms })
    }

    /// Redeems the invite `code` for a new author `name` (a bot name's characters), and issues
    /// the author's token.
    pub async fn join(&self, code: &str, name: &str) -> Result<IssuedAuthorToken, AccountError> {
        let name = BotName::parse(name)?;
        let token = BotKey::with_prefix(AUTHOR_TOKEN_PREFIX);
        let redeemed =
            self.store.redeem_invite(KeyHash::of(code), name.as_str(), token.hash(), now_ms());
        Ok(IssuedAuthorToken { author: redeemed.await?, token })
    }

    /// Issues `author` a new token; the old one stops working at once.
    pub async fn rotate_author_token(
        &self,
        author: &Author,
    ) -> Result<IssuedAuthorToken, AccountError> {
        let token = BotKey::with_prefix(AUTHOR_TOKEN_PREFIX);
        let author = self.store.replace_author_token(author.id, token.hash(), now_ms()).await?;
        Ok(IssuedAuthorToken { author, token })
    }

    /// The author whose token is `token`, if any.
    pub async fn author_by_token(&self, token: &str) -> Result<Option<Author>, StoreError> {
        self.store.author_by_token(&KeyHash::of(token)).await
    }

    /// The author `name` and its bots.
    pub async fn author(&self, name: &str) -> Result<(Author, Vec<BotAccount>), AccountError> {
        self.store.author(name).await?.ok_or_else(|| AccountError::NoSuchAuthor(name.to_owned()))
    }

    /// Issues `name` a new key; the old one stops working, and a revoked bot is active again.
    pub async fn rotate(&self, name: &str) -> Result<IssuedKey, AccountError> {
        let key = BotKey::generate();
        let bot = self.store.replace_key(name, key.hash(), now_ms()).await?;
        Ok(IssuedKey { bot, key })
    }

    /// Revokes `name`'s key.
    pub async fn revoke(&self, name: &str) -> Result<BotAccount, AccountError> {
        Ok(self.store.revoke_bot(name, now_ms()).await?)
    }

    /// The bot registered as `name`.
    pub async fn get(&self, name: &str) -> Result<BotAccount, AccountError> {
        match self.store.bot_credential(name).await? {
            Some(credential) => Ok(credential.account),
            None => Err(StoreError::NoSuchBot(name.to_owned()).into()),
        }
    }

    /// Every registered bot, by name.
    pub async fn list(&self) -> Result<Vec<BotAccount>, AccountError> {
        Ok(self.store.bots().await?)
    }

    /// The versions kept of `name` (its last [`crate::VERSIONS_KEPT`]), first seen first, and
    /// how many it forgot.
    pub async fn versions(&self, name: &str) -> Result<BotVersions, AccountError> {
        Ok(self.store.bot_versions(name).await?)
    }

    /// Checks `archive` against `limits` (off the async threads: it is read whole) and `run`,
    /// then stores them as `bot`'s newest submission, its SHA-256 a version of `bot`.
    pub async fn submit(
        &self,
        bot: BotId,
        archive: Vec<u8>,
        run: Vec<String>,
        by: SubmittedBy,
        limits: ArchiveLimits,
    ) -> Result<Submitted, SubmitError> {
        check_run(&run)?;
        let (checked, archive) = tokio::task::spawn_blocking(move || {
            check_archive(&archive, &limits).map(|checked| (checked, archive))
        })
        .await
        .map_err(StoreError::from)??;
        let new = NewSubmission {
            sha256: checked.sha256,
            run,
            archive,
            unpacked_bytes: checked.unpacked_bytes,
            by,
        };
        Ok(self.store.submit_bot(bot, &new, now_ms()).await?)
    }

    /// `name`'s submissions, newest first.
    pub async fn submissions(&self, name: &str) -> Result<Vec<Submission>, AccountError> {
        Ok(self.store.submissions(name).await?)
    }

    /// Checks that `key` allows sitting down as `name`: a registered name needs its own active
    /// key; an unregistered one needs none unless `registered_only`, but a key presented must
    /// be valid and the name's. Returns the account when the name is registered.
    pub async fn authenticate(
        &self,
        name: &str,
        key: Option<&str>,
        registered_only: bool,
    ) -> Result<Option<BotAccount>, AuthError> {
        let credential =
            self.latency.time("bot_credential", self.store.bot_credential(name)).await?;
        let name = name.to_owned();
        match (credential, key) {
            (Some(_), None) => Err(AuthError::MissingKey { name }),
            (Some(credential), Some(key)) => match credential.key_hash {
                None => Err(AuthError::Revoked { name }),
                Some(hash) if hash == KeyHash::of(key) => Ok(Some(credential.account)),
                Some(_) => Err(self.wrong_key(name, key).await),
            },
            (None, None) if registered_only => Err(AuthError::NotRegistered { name }),
            (None, None) => Ok(None),
            (None, Some(key)) => Err(self.wrong_key(name, key).await),
        }
    }

    /// Why `key` does not seat `name`: it is another bot's, or nobody's.
    async fn wrong_key(&self, name: String, key: &str) -> AuthError {
        let hash = KeyHash::of(key);
        match self.latency.time("bot_by_key", self.store.bot_by_key(&hash)).await {
            Ok(Some(owner)) => AuthError::OtherBotsKey { name, key_of: owner.name },
            Ok(None) => AuthError::WrongKey { name },
            Err(error) => AuthError::Store(error),
        }
    }

    /// Notes that `bot` joined reporting `version` (nothing for an empty version, and one
    /// write per bot and version for the life of this handle).
    pub async fn note_version(&self, bot: BotId, version: &str) -> Result<(), StoreError> {
        if version.is_empty() {
            return Ok(());
        }
        let pair = (bot, version.to_owned());
        if self.noted.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).contains(&pair) {
            return Ok(());
        }
        let noting = self.store.note_version(bot, version, now_ms());
        self.latency.time("note_version", noting).await?;
        let mut noted = self.noted.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if noted.len() >= MAX_NOTED {
            // A flood of versions: forget what was noted rather than grow (the next join of
            // each costs one write again).
            noted.clear();
        }
        noted.insert(pair);
        Ok(())
    }
}

/// Milliseconds since the Unix epoch, by the system clock.
fn now_ms() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |since| since.as_millis() as i64)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::{BotStatus, SqliteStore};

    async fn accounts() -> Accounts {
        Accounts::new(Arc::new(SqliteStore::in_memory().await.unwrap()))
    }

    #[tokio::test]
    async fn a_registered_name_sits_down_only_on_its_own_active_key() {
        let accounts = accounts().await;
        let alice = accounts.register("alice").await.unwrap();
        let bob = accounts.register("bob").await.unwrap();
        assert_eq!(alice.bot.status, BotStatus::Active);
        let seated = accounts.authenticate("alice", Some(alice.key.expose()), false).await;
        assert_eq!(seated.unwrap().unwrap().id, alice.bot.id);

        let check = |name: &'static str, key: Option<String>| {
            let accounts = accounts.clone();
            async move { accounts.authenticate(name, key.as_deref(), false).await.unwrap_err() }
        };
        let missing = check("alice", None).await;
        assert!(matches!(missing, AuthError::MissingKey { .. }) && missing.is_unauthenticated());
        let wrong = check("alice", Some(BotKey::generate().expose().into())).await;
        assert!(matches!(wrong, AuthError::WrongKey { .. }) && wrong.is_unauthenticated());
        let others = check("alice", Some(bob.key.expose().into())).await;
        assert!(
            matches!(&others, AuthError::OtherBotsKey { key_of, .. } if key_of == "bob")
                && !others.is_unauthenticated()
        );
        // A key claiming an unregistered name must still be valid, and is still its bot's.
        let unknown = check("carol", Some(BotKey::generate().expose().into())).await;
        assert!(matches!(unknown, AuthError::WrongKey { .. }));
        let borrowed = check("carol", Some(bob.key.expose().into())).await;
        assert!(matches!(borrowed, AuthError::OtherBotsKey { .. }));
    }

    #[tokio::test]
    async fn unregistered_names_need_no_key_unless_the_server_seats_registered_bots_only() {
        let accounts = accounts().await;
        assert_eq!(accounts.authenticate("anyone", None, false).await.unwrap(), None);
        let refused = accounts.authenticate("anyone", None, true).await.unwrap_err();
        assert!(matches!(refused, AuthError::NotRegistered { .. }));
        assert!(!refused.is_unauthenticated());
    }

    #[tokio::test]
    async fn revoking_stops_the_key_and_rotating_issues_a_new_one() {
        let accounts = accounts().await;
        let first = accounts.register("alice").await.unwrap();
        let revoked = accounts.revoke("alice").await.unwrap();
        assert_eq!(revoked.status, BotStatus::Revoked);
        assert!(revoked.revoked_ms.is_some());
        let refused =
            accounts.authenticate("alice", Some(first.key.expose()), false).await.unwrap_err();
        assert!(matches!(refused, AuthError::Revoked { .. }) && refused.is_unauthenticated());

        let second = accounts.rotate("alice").await.unwrap();
        assert_eq!(second.bot.status, BotStatus::Active);
        assert_eq!(second.bot.revoked_ms, None);
        assert_ne!(first.key, second.key);
        let old = accounts.authenticate("alice", Some(first.key.expose()), false).await;
        assert!(matches!(old.unwrap_err(), AuthError::WrongKey { .. }));
        let new = accounts.authenticate("alice", Some(second.key.expose()), false).await;
        assert_eq!(new.unwrap().map(|bot| bot.name), Some("alice".to_owned()));
    }

    #[tokio::test]
    async fn names_are_checked_and_unique() {
        let accounts = accounts().await;
        for bad in ["", "has space", "émile", &"x".repeat(MAX_NAME_BYTES + 1)] {
            let refused = accounts.register(bad).await.unwrap_err();
            assert!(matches!(refused, AccountError::BadName { .. }), "{bad:?}: {refused}");
        }
        accounts.register("a.b_c-9").await.unwrap();
        let taken = accounts.register("a.b_c-9").await.unwrap_err();
        assert!(matches!(taken, AccountError::Store(StoreError::NameTaken(_))));
        let unknown = accounts.rotate("nobody").await.unwrap_err();
        assert!(matches!(unknown, AccountError::Store(StoreError::NoSuchBot(_))));
        let unknown = accounts.revoke("nobody").await.unwrap_err();
        assert!(matches!(unknown, AccountError::Store(StoreError::NoSuchBot(_))));
        let names: Vec<String> =
            accounts.list().await.unwrap().into_iter().map(|bot| bot.name).collect();
        assert_eq!(names, ["a.b_c-9"]);
        assert_eq!(accounts.get("a.b_c-9").await.unwrap().name, "a.b_c-9");
        let unknown = accounts.get("nobody").await.unwrap_err();
        assert!(matches!(unknown, AccountError::Store(StoreError::NoSuchBot(_))));
    }

    #[tokio::test]
    async fn each_version_is_noted_once_with_when_it_was_first_seen() {
        let accounts = accounts().await;
        let alice = accounts.register("alice").await.unwrap().bot;
        for version in ["v1", "v1", "", "v2", "v1"] {
            accounts.note_version(alice.id, version).await.unwrap();
        }
        let versions: Vec<String> =
            accounts.versions("alice").await.unwrap().kept.into_iter().map(|v| v.version).collect();
        assert_eq!(versions, ["v1", "v2"]);
        let unknown = accounts.versions("nobody").await.unwrap_err();
        assert!(matches!(unknown, AccountError::Store(StoreError::NoSuchBot(_))));
    }
}
