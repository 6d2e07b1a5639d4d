//! Results this node could not store yet. A match's end is committed under the claim it was
//! played on ([`Store::finish_match`]). When the store does not answer (out of reach, or the
//! call timed out), the result is kept and tried again at every step of its ladder, until the
//! store answers:
//!
//! - stored: counted, and the bots' health checked, as for a result stored at once;
//! - refused, its claim no longer holding: the node was cut off long enough for the ladder's
//!   leader to take the match back (its heartbeat stopped, or its lease ran out), and the
//!   match is played again, or was, elsewhere. The fencing token keeps it from counting twice;
//! - any other refusal, or no answer for [`GIVE_UP`]: the match is given back, to be played
//!   again.
//!
//! A partition shorter than a node's heartbeat's time to live loses no match: the result is
//! stored once the link heals, under the claim that still holds.

use std::time::{Duration, Instant};

use cardroom_server::HostedEnd;
use cardroom_store::{BotId, MatchResult, MatchState, Store, StoreError};
use tracing::{info, warn};

use super::{LEASE, Runner, metrics, now_ms, timed};

/// How long a node tries to store a result before it gives the match back: as long as an
/// unrenewed lease, after which another node may have played the match anyway.
const GIVE_UP: Duration = LEASE;

/// A match's result, to be stored under its claim (`result.claim`).
pub(super) struct Unstored {
    /// The match's set.
    pub(super) set: u64,
    /// Its bots, seat by seat.
    pub(super) bots: Vec<BotId>,
    /// Its end as the match task reported it.
    pub(super) end: HostedEnd,
    /// What is stored.
    pub(super) result: MatchResult,
    /// When the match ended.
    pub(super) since: Instant,
}

impl Runner {
    /// Stores `pending`'s result under its claim, or keeps it to try again (see the module's
    /// documentation); `retried` if it was kept before. Returns whether the store answered.
    pub(super) async fn store_result(&mut self, pending: Unstored, retried: bool) -> bool {
        let claim = &pending.result.claim;
        let error = match timed!(self.shared, finish_match(&pending.result, now_ms())).await {
            Ok(()) => {
                if retried {
                    info!(
                        match_id = claim.id.0,
                        "a result kept while the store was out of reach is stored"
                    );
                }
                self.recorded(pending).await;
                return true;
            }
            Err(error) => error,
        };
        let name = self.ladder.spec.name.clone();
        match error {
            StoreError::StaleClaim { .. } => {
                if retried && stored_before(self.store(), &pending).await {
                    // A try that timed out had committed it.
                    self.recorded(pending).await;
                    return true;
                }
                warn!(match_id = claim.id.0, attempt = claim.attempt, cause = %error,
                    "result refused: the match was taken back while this node was cut off, and is played again");
                self.shared.metrics.released(&name, metrics::Released::Refused);
                self.set_match_state(pending.set, claim.id, MatchState::Planned);
                true
            }
            StoreError::Timeout { .. } | StoreError::Backend(_)
                if pending.since.elapsed() < GIVE_UP =>
            {
                warn!(match_id = claim.id.0, cause = %error, "result not stored yet: tried again at the next step");
                self.unstored.push_back(pending);
                false
            }
            error => {
                warn!(match_id = claim.id.0, cause = %error, "result not stored: the match will be played again");
                self.shared.metrics.released(&name, metrics::Released::NotStored);
                if timed!(self.shared, release_match(claim)).await.is_ok() {
                    self.set_match_state(pending.set, claim.id, MatchState::Planned);
                }
                true
            }
        }
    }

    /// Tries again the results kept, oldest first, until the store fails to answer one.
    pub(super) async fn retry_unstored(&mut self) {
        while let Some(pending) = self.unstored.pop_front() {
            if !self.store_result(pending, true).await {
                return;
            }
        }
    }

    /// Counts a result stored, notes it in the open set, and checks its bots' health.
    async fn recorded(&mut self, pending: Unstored) {
        let Unstored { set, bots, end, result, .. } = pending;
        self.shared.metrics.stored(&self.ladder.spec.name, &result.failures);
        let id = result.claim.id;
        if let Some(m) =
            self.open.get_mut(&set).and_then(|s| s.matches.iter_mut().find(|m| m.id == id))
        {
            m.state = MatchState::Done;
            for (seat, played) in m.seats.iter_mut().zip(&end.seats) {
                seat.place = Some(played.place);
                seat.forfeited = played.forfeited;
                seat.version = Some(played.version.clone());
                seat.failure = played.failures.first().map(|f| f.kind);
            }
        }
        for (bot, played) in bots.iter().zip(&end.seats) {
            self.check_health(*bot, played.failures.first()).await;
        }
    }
}

/// Whether `pending`'s result is the one stored for its match (an earlier try committed it
/// before its call timed out).
async fn stored_before(store: &dyn Store, pending: &Unstored) -> bool {
    let found = store.ladder_match(pending.result.claim.id).await;
    found.ok().flatten().is_some_and(|m| {
        m.state == MatchState::Done
            && m.server_match_id.as_deref() == Some(pending.result.server_match_id.as_str())
    })
}
