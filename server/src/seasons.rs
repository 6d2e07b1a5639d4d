//! Seasons on the wire (issue 41): the public `GetSeason`, `ListSeasons` and `WatchSeason`
//! read the store; the admin's `CreateSeason` goes to the hosted ladders
//! (`LadderControl::put_season`). A season's deadline also freezes submissions: `SubmitBot`
//! asks [`check_open`] first, and tells the seasons what came of it ([`note_submission`]).

use std::collections::VecDeque;
use std::time::Duration;

use cardroom_proto::pb;
use cardroom_store::{
    Accounts, Author, BotAccount, EventScope, EventsFrom, NewSeasonEvent, RankedBot,
    SEASON_EVENTS_READ, Season, SeasonEventKind, SeasonId, Store,
};
use futures::Stream;
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;
use tonic::Status;
use tracing::warn;

use crate::accounts::store_status;
use crate::listing::now_ms;

/// How often a followed feed looks for new events.
const FOLLOW_EVERY: Duration = Duration::from_secs(1);

/// Milliseconds since the Unix epoch in RFC 3339, to the second (`2026-12-31T18:00:00Z`), as
/// a season's deadline is written and shown; a time past the calendar's range as its
/// milliseconds.
pub fn rfc3339(ms: i64) -> String {
    OffsetDateTime::from_unix_timestamp(ms.div_euclid(1_000))
        .ok()
        .and_then(|at| at.format(&Rfc3339).ok())
        .unwrap_or_else(|| format!("{ms} ms since 1970"))
}

/// The season `name`, or NOT_FOUND.
pub(crate) async fn season(store: &dyn Store, name: &str) -> Result<Season, Status> {
    store
        .season(name)
        .await
        .map_err(store_status)?
        .ok_or_else(|| Status::not_found(format!("no season named {name:?}")))
}

/// A season on the wire.
pub(crate) fn to_pb(season: Season) -> Result<pb::SeasonInfo, Status> {
    let finalists = season.finalists();
    let outcome = season.outcome();
    Ok(pb::SeasonInfo {
        deadline: rfc3339(season.deadline_ms),
        name: season.name,
        ladders: season.ladders,
        deadline_ms: season.deadline_ms,
        state: season.state.as_str().to_owned(),
        finals_ladder: season.finals_ladder.unwrap_or_default(),
        finalists: finalists.map_err(store_status)?.map(|f| pb::SeasonFinalists {
            ladder: f.ladder,
            sets: f.sets,
            cut_settled: f.cut_settled,
            bots: f.bots.into_iter().map(rank_to_pb).collect(),
        }),
        outcome: outcome.map_err(store_status)?.map(|o| {
            Box::new(pb::SeasonOutcome {
                settled: o.settled,
                reason: o.reason,
                sets: o.sets,
                matches: o.matches,
                standings: o.standings.into_iter().map(rank_to_pb).collect(),
            })
        }),
        config_toml: season.config,
    })
}

fn rank_to_pb(bot: RankedBot) -> pb::SeasonRank {
    pb::SeasonRank {
        bot: bot.bot,
        rank: bot.rank,
        rank_lo: bot.rank_lo,
        rank_hi: bot.rank_hi,
        version: bot.version.unwrap_or_default(),
    }
}

/// `ListSeasons`: every season, oldest first.
pub(crate) async fn list(store: &dyn Store) -> Result<pb::ListSeasonsResponse, Status> {
    let seasons = store.seasons().await.map_err(store_status)?;
    Ok(pb::ListSeasonsResponse {
        seasons: seasons.into_iter().map(to_pb).collect::<Result<_, _>>()?,
    })
}

/// `WatchSeason`: the events of `season` after `after` that `author` (or everyone) may read,
/// then, with `follow`, each new one as it is noted, read from the store (any node's).
pub(crate) fn watch(
    store: std::sync::Arc<dyn Store>,
    season: SeasonId,
    author: Option<Author>,
    after: i64,
    follow: bool,
) -> impl Stream<Item = Result<pb::SeasonEvent, Status>> + Send + 'static {
    let author = author.map(|a| a.id);
    let start = (VecDeque::new(), after, false);
    futures::stream::try_unfold(start, move |(mut ready, mut after, mut waited)| {
        let store = std::sync::Arc::clone(&store);
        async move {
            loop {
                if let Some(event) = ready.pop_front() {
                    return Ok(Some((event, (ready, after, false))));
                }
                if waited && !follow {
                    return Ok(None);
                }
                if waited {
                    tokio::time::sleep(FOLLOW_EVERY).await;
                }
                let events = store
                    .season_events(season, EventsFrom::After(after), author, SEASON_EVENTS_READ)
                    .await
                    .map_err(store_status)?;
                // A full read may have more behind it: read again at once.
                waited = (events.len() as u32) < SEASON_EVENTS_READ;
                for event in events {
                    after = event.id;
                    ready.push_back(pb::SeasonEvent {
                        id: event.id,
                        at_ms: event.at_ms,
                        kind: event.kind.as_str().to_owned(),
                        bot: event.bot.unwrap_or_default(),
                        text: event.text,
                        private: event.author.is_some(),
                    });
                }
            }
        }
    })
}

/// Refuses a submission of `bot` while a season it plays in is past its deadline and not
/// done (FAILED_PRECONDITION, naming the season and its deadline), telling its author.
pub(crate) async fn check_open(accounts: &Accounts, bot: &BotAccount) -> Result<(), Status> {
    let store = accounts.store();
    let frozen = store.frozen_seasons(bot.id, now_ms()).await.map_err(store_status)?;
    let Some(season) = frozen.first() else { return Ok(()) };
    let why = format!(
        "season {:?}'s deadline passed at {}: {}'s version is frozen until its finals are over",
        season.name,
        rfc3339(season.deadline_ms),
        bot.name
    );
    let event = submission_event(accounts, bot, SeasonEventKind::Refused, &why).await;
    for season in &frozen {
        note(store.as_ref(), EventScope::Season(season.id), &event).await;
    }
    Err(Status::failed_precondition(why))
}

/// Tells the seasons not done that `bot`'s submission was accepted (as `version`) or refused
/// (why): an event for its author alone.
pub(crate) async fn note_submission(
    accounts: &Accounts,
    bot: &BotAccount,
    outcome: Result<&str, &Status>,
) {
    let (kind, text) = match outcome {
        Ok(version) => {
            (SeasonEventKind::Submitted, format!("{} version {version} was accepted", bot.name))
        }
        Err(status) => (
            SeasonEventKind::Refused,
            format!("a submission of {} was refused: {}", bot.name, status.message()),
        ),
    };
    let event = submission_event(accounts, bot, kind, &text).await;
    note(accounts.store().as_ref(), EventScope::Unfinished, &event).await;
}

/// An event about `bot`'s submission, for its author alone (public for an organizer's bot).
async fn submission_event(
    accounts: &Accounts,
    bot: &BotAccount,
    kind: SeasonEventKind,
    text: &str,
) -> NewSeasonEvent {
    let author = match &bot.author {
        Some(name) => match accounts.store().author(name).await {
            Ok(found) => found.map(|(author, _)| author.id),
            Err(error) => {
                warn!(cause = %error, "the bot's author was not read");
                None
            }
        },
        None => None,
    };
    NewSeasonEvent { kind, author, bot: Some(bot.name.clone()), text: text.to_owned() }
}

async fn note(store: &dyn Store, scope: EventScope, event: &NewSeasonEvent) {
    if let Err(error) = store.note_season_event(scope, event, now_ms()).await {
        warn!(cause = %error, "a season's event was not kept");
    }
}
