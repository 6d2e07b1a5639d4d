//! Scrimmages on a hosted ladder (issue 41): unrated duplicate sets an author asks for, of
//! their bot against named opponents or the ladder's top bots, on the ladder's rules and clock.
//!
//! A request is checked and stored ([`request`]), under the ladder's quota an hour
//! (`scrimmages_per_hour`). The ladder's leader plays it once its bots are free, each within
//! its cap (`Runner::start_scrimmages`): every seating of the table on one deal, one match
//! after the other, through the same `Host` as the ladder's matches. Its results and records
//! go to the scrimmage's row, never to the ladder's sets: nothing of it is rated or counted.

use std::time::Duration;

use cardroom_rank::duplicate::rotations;
use cardroom_server::{
    Host, HostedMatch, HostedSeatFrom, LadderControlError, Lender, ScrimmageRequest,
};
use cardroom_store::{
    BotId, BotStatus, Ladder, LadderStatus, ScrimmageId, ScrimmageMatch, ScrimmageResults,
    ScrimmageSeat, StoreError, leaderboard_order,
};

use super::config::HostedLadderFile;
use super::{Shared, now_ms};

/// How long a scrimmage waits for a bot to be back in a lobby between its matches.
const BETWEEN_MATCHES: Duration = Duration::from_secs(30);

/// How long a scrimmage may wait for its bots to be free together; then it is given up.
pub(super) const PENDING_AT_MOST: Duration = Duration::from_secs(30 * 60);

/// Checks `request` against the ladder and stores its scrimmages.
pub(super) async fn request(
    shared: &Shared,
    ladder: &Ladder,
    request: ScrimmageRequest,
) -> Result<Vec<ScrimmageId>, LadderControlError> {
    let store = shared.store.as_ref();
    let unavailable = |error: StoreError| LadderControlError::Unavailable(error.to_string());
    let file = HostedLadderFile::parse(&ladder.spec.config)
        .map_err(|error| LadderControlError::Unavailable(error.to_string()))?;
    let name = &ladder.spec.name;
    if file.scrimmages_per_hour == 0 {
        return Err(LadderControlError::FailedPrecondition(format!(
            "ladder {name:?} takes no scrimmages (its file's scrimmages_per_hour is 0)"
        )));
    }
    if ladder.status != LadderStatus::Running {
        return Err(LadderControlError::FailedPrecondition(format!(
            "ladder {name:?} is {}: scrimmages are played while it runs",
            ladder.status
        )));
    }
    let bots = store.bots().await.map_err(unavailable)?;
    let bot = bots
        .iter()
        .find(|b| b.name == request.bot)
        .ok_or_else(|| LadderControlError::NotFound(format!("no bot named {:?}", request.bot)))?;
    if bot.author.as_deref() != Some(request.author.name.as_str()) {
        return Err(LadderControlError::PermissionDenied(format!(
            "{:?} is not a bot of {:?}: an author scrimmages their own bots",
            bot.name, request.author.name
        )));
    }
    let entrants = store.ladder_bots(ladder.id).await.map_err(unavailable)?;
    let entered = |id: BotId| entrants.iter().any(|e| e.bot == id);
    if !entered(bot.id) {
        return Err(LadderControlError::NotFound(format!(
            "{:?} has not entered ladder {name:?}: it enters by waiting in the lobby",
            bot.name
        )));
    }
    let opponents: Vec<BotId> = if request.opponents.is_empty() {
        if request.top == 0 {
            return Err(LadderControlError::Invalid(
                "name the opponents, or ask for the ladder's top N".into(),
            ));
        }
        let board = store.leaderboard(ladder.id).await.map_err(unavailable)?;
        let standings = store.standings(ladder.id).await.map_err(unavailable)?;
        let order = leaderboard_order(&board, |b| standings.as_ref()?.position(b));
        let ranked = order.into_iter().map(|i| board[i].bot).filter(|&b| b != bot.id);
        ranked.take(request.top as usize).collect()
    } else {
        let mut ids = Vec::with_capacity(request.opponents.len());
        for opponent in &request.opponents {
            let found = bots.iter().find(|b| &b.name == opponent).filter(|b| entered(b.id));
            let found = found.ok_or_else(|| {
                LadderControlError::NotFound(format!("no bot {opponent:?} in ladder {name:?}"))
            })?;
            if found.id == bot.id {
                return Err(LadderControlError::Invalid(format!(
                    "{opponent:?} is the bot itself: name its opponents"
                )));
            }
            if found.status != BotStatus::Active {
                return Err(LadderControlError::FailedPrecondition(format!(
                    "{opponent:?} is retired: it plays no scrimmage"
                )));
            }
            ids.push(found.id);
        }
        ids
    };
    let others = usize::from(file.seats) - 1;
    if opponents.is_empty() || !opponents.len().is_multiple_of(others) {
        return Err(LadderControlError::Invalid(format!(
            "a table of {} seats takes {others} opponents (or a multiple of {others}); {} given",
            file.seats,
            opponents.len()
        )));
    }
    let tables: Vec<(Vec<BotId>, u64)> = opponents
        .chunks(others)
        .map(|chunk| {
            let mut table = vec![bot.id];
            table.extend_from_slice(chunk);
            (table, server_seed())
        })
        .collect();
    let stored = store.request_scrimmages(
        ladder.id,
        request.author.id,
        &tables,
        file.scrimmages_per_hour,
        now_ms(),
    );
    stored.await.map_err(|error| match error {
        StoreError::OverQuota { .. } => LadderControlError::Exhausted(error.to_string()),
        other => unavailable(other),
    })
}

/// A deal's seed from the operating system: the server's choice, which no author can aim at.
fn server_seed() -> u64 {
    let mut bytes = [0u8; 8];
    // The OS generator failing is not recoverable for a service that deals cards.
    getrandom::fill(&mut bytes).expect("the operating system's random number generator works");
    u64::from_le_bytes(bytes)
}

/// A scrimmage ready to be played: its table by name and where each bot waits.
pub(super) struct Table {
    pub(super) seed: u64,
    /// Per seat of the table (the author's bot first): its name and lender.
    pub(super) seats: Vec<(String, Option<Lender>)>,
}

/// Plays every seating of `table` on its deal, one match after the other; the results, with a
/// failure if it could not go on.
pub(super) async fn play(host: Host, file: HostedLadderFile, table: Table) -> ScrimmageResults {
    let mut results = ScrimmageResults::default();
    let seats = table.seats.len();
    for (rotation, seating) in rotations(seats, file.max_rotations).into_iter().enumerate() {
        let request = HostedMatch {
            game: file.game,
            options_json: file.options_json(),
            seed: table.seed,
            seats: seating
                .iter()
                .map(|&i| HostedSeatFrom {
                    bot: table.seats[i].0.clone(),
                    lender: table.seats[i].1.clone(),
                })
                .collect(),
            move_ms: file.move_ms,
            bank_ms: file.bank_ms,
            max_bad_replies: file.max_bad_replies,
        };
        match start_when_back(&host, request).await {
            Ok(played) => results.matches.push(ScrimmageMatch {
                rotation: rotation as u32,
                match_id: played.match_id,
                reason: played.reason,
                seats: played
                    .seats
                    .iter()
                    .zip(&seating)
                    .map(|(seat, &i)| ScrimmageSeat {
                        bot: table.seats[i].0.clone(),
                        place: u32::from(seat.place),
                        forfeit: seat.forfeited,
                        version: seat.version.clone(),
                    })
                    .collect(),
                record: played.record_json,
            }),
            Err(why) => {
                results.failure = Some(why);
                break;
            }
        }
    }
    results
}

/// Starts `request` once its bots are back in their lobbies (they join again after each
/// match), waiting [`BETWEEN_MATCHES`] at most, and waits for its end.
async fn start_when_back(
    host: &Host,
    request: HostedMatch,
) -> Result<cardroom_server::HostedEnd, String> {
    let mut arrivals = host.lobby_arrivals();
    let deadline = tokio::time::Instant::now() + BETWEEN_MATCHES;
    loop {
        match host.start(request.clone()).await {
            Ok(started) => {
                let end = started.end().await.map_err(|error| error.to_string())?;
                if end.aborted {
                    return Err(format!("match {} was aborted: the server stopped", end.match_id));
                }
                return Ok(end);
            }
            Err(error) => match tokio::time::timeout_at(deadline, arrivals.changed()).await {
                Ok(Ok(())) => {}
                _ => return Err(format!("its bots did not come back: {error}")),
            },
        }
    }
}
