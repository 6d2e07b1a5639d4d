//! Seasons (issue 41): the season file, and the steps every node takes on a season's clock.
//!
//! A season file names the season's ladders, its submission deadline and its finals rule:
//!
//! ```toml
//! name = "winter"                      # the season's name, unique in the store
//! ladders = ["gin-open"]               # its ladders, which the server runs already
//! deadline = "2026-12-31T18:00:00Z"    # the submission deadline, RFC 3339
//! notice_minutes = 60                  # "the deadline is near" this long before it (0: none)
//! # webhook = "https://hooks.example.org/cardroom"  # each public event posted there as JSON
//! # divisions = ["gin-a", "gin-b"]     # divisions among `ladders`, top first: each lists its
//! #                                    # `bots`; the same game and table
//! # promotions = ["2026-12-20T18:00:00Z"]  # when bots move between adjacent divisions
//! # moves = 1                          # at most this many up, and as many down, each time
//!
//! [finals]
//! ladder = "gin-open"                  # the ladder whose order picks the finalists (default:
//!                                      # the first of `ladders`)
//! top = 4                              # its top 4 at the deadline (0: every bot it ranks)
//! max_sets = 500                       # the finals' budget: rated sets at most
//! # name = "winter-finals"             # the finals ladder's name (default: NAME-finals)
//! # seed = 2                           # its deals' seed (default: the ladder's seed + 1)
//! ```
//!
//! At the deadline the versions freeze: the server refuses a new submission of a bot entered
//! in one of the season's ladders until the season is done. The finalists are the top `top` of
//! the finals rule's ladder in the leaderboard's order (the standings' order, which their rank
//! intervals are of), its paused bots and those with no rated set left out, and each author's
//! bots after their best (unless the ladder's `allow_same_author`: else the finals could never
//! seat them together). The finals ladder is that ladder's file with `finals = true` (each bot plays its version of its first finals
//! set, no one enters later), `stop_when_settled = true`, the budget as `max_sets`, the
//! finalists as `bots`, the adaptive schedule and its own seed. Once it closes, the season
//! keeps its final standings: each bot's rank interval at 95%, whether the order settled, the
//! sets and matches it took.
//!
//! Every node looks at the seasons once a second; each step is the store's
//! compare-and-set ([`Store::advance_season`]), so exactly one node takes it. The node that
//! starts the finals opens their ladder; the others find it in the store.
//!
//! Divisions move bots at each promotion time before the deadline. Between two adjacent
//! divisions, the upper's bots whose rank interval among its bots lies within its bottom
//! `moves` places go down, and the lower's whose interval lies within its top `moves` go up,
//! paired worst with best, as many pairs as both have: a bot moves only when its interval is
//! sure of it, and each division keeps its size. A bot's interval among a division's bots
//! counts the bots the standings are sure (at 95%) are better or worse than it. The ladders'
//! `bots` lists change; an event says who moved.
//!
//! A webhook is off unless the file names one. Every public event of the season is posted to
//! it in order, as JSON (`season`, `id`, `at_ms`, `at`, `kind`, `bot`, `text`), one at a time:
//! an answer other than 2xx, or none within 10 s, is tried again after a pause that doubles
//! from 1 s up to a minute. The store keeps how far it got, so a restart carries on. Delivery
//! is at least once: two nodes at the same moment may both post an event.

use std::collections::{HashMap, HashSet};
use std::sync::Weak;
use std::time::{Duration, Instant};

use cardroom_store::{
    EventScope, EventsFrom, Finalists, LadderStatus, MatchState, NewSeason, NewSeasonEvent,
    RankedBot, Season, SeasonChange, SeasonCursor, SeasonEventKind, SeasonOutcome, SeasonState,
    Store, StoreError, leaderboard_order,
};
use serde::Deserialize;
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;
use tracing::{info, warn};

pub use cardroom_server::rfc3339;

use super::config::check_name;
use super::{HostedError, HostedLadderFile, HostedLadders, STANDINGS_CONFIDENCE, Shared, now_ms};

/// How often a node looks at the seasons' clocks.
const LOOK: Duration = Duration::from_secs(1);

/// A season file (see the module's documentation for every key and its default).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeasonFile {
    /// The season's name.
    pub name: String,
    /// Its ladders, by name.
    pub ladders: Vec<String>,
    /// The submission deadline, RFC 3339.
    pub deadline: String,
    /// How long before the deadline its notice goes out, in minutes (0: none).
    #[serde(default = "sixty")]
    pub notice_minutes: u32,
    /// The finals rule.
    #[serde(default)]
    pub finals: FinalsRule,
    /// The organizer's URL that each public event is posted to (JSON), if any.
    #[serde(default)]
    pub webhook: Option<String>,
    /// The divisions, top first: ladders of `ladders` between which bots move (none: no
    /// divisions).
    #[serde(default)]
    pub divisions: Vec<String>,
    /// When bots move between adjacent divisions (RFC 3339), in order, before the deadline.
    #[serde(default)]
    pub promotions: Vec<String>,
    /// At most this many bots move up, and as many down, between two adjacent divisions at
    /// each time.
    #[serde(default = "one")]
    pub moves: u32,
}

fn one() -> u32 {
    1
}

/// Who plays the finals, and for how long.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FinalsRule {
    /// The ladder whose order picks the finalists (default: the season's first).
    #[serde(default)]
    pub ladder: Option<String>,
    /// Its top this many at the deadline (0: every bot it ranks).
    #[serde(default)]
    pub top: u32,
    /// The finals' budget: rated sets at most.
    #[serde(default = "five_hundred")]
    pub max_sets: u64,
    /// The finals ladder's name (default: the season's name and `-finals`).
    #[serde(default)]
    pub name: Option<String>,
    /// The finals' deals' seed (default: the ladder's seed + 1).
    #[serde(default)]
    pub seed: Option<u64>,
}

impl Default for FinalsRule {
    fn default() -> FinalsRule {
        FinalsRule { ladder: None, top: 0, max_sets: five_hundred(), name: None, seed: None }
    }
}

fn sixty() -> u32 {
    60
}

fn five_hundred() -> u64 {
    500
}

/// Why a season file is refused: the field and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the season file: {0}")]
pub struct SeasonFileError(pub String);

impl SeasonFile {
    /// Reads and checks a season file whole (its ladders are checked against a store by
    /// [`put`]).
    pub fn parse(text: &str) -> Result<SeasonFile, SeasonFileError> {
        let file: SeasonFile = toml::from_str(text).map_err(|e| SeasonFileError(e.to_string()))?;
        file.check()?;
        Ok(file)
    }

    fn check(&self) -> Result<(), SeasonFileError> {
        let refuse = |message: String| Err(SeasonFileError(message));
        check_name("name", &self.name).map_err(SeasonFileError)?;
        if self.ladders.is_empty() {
            return refuse("`ladders` names none: a season has at least one ladder".into());
        }
        if let Some(twice) =
            self.ladders.iter().enumerate().find(|(i, l)| self.ladders[..*i].contains(l))
        {
            return refuse(format!("`ladders` names {:?} twice", twice.1));
        }
        self.deadline_ms()?;
        let finals = self.finals_ladder();
        if !self.ladders.contains(&finals) {
            return refuse(format!("`finals.ladder` {finals:?} is not one of `ladders`"));
        }
        let name = self.finals_name();
        check_name("finals.name", &name).map_err(SeasonFileError)?;
        if self.ladders.contains(&name) {
            return refuse(format!(
                "`finals.name` {name:?} is one of `ladders`: the finals are a ladder of their own"
            ));
        }
        if self.finals.top == 1 {
            return refuse(
                "`finals.top` = 1 leaves one finalist: give 2 or more, or 0 for every bot".into(),
            );
        }
        if self.finals.max_sets == 0 {
            return refuse("`finals.max_sets` must be at least 1".into());
        }
        self.check_divisions()?;
        if let Some(url) = &self.webhook {
            let parsed = reqwest::Url::parse(url)
                .map_err(|error| SeasonFileError(format!("`webhook` {url:?}: {error}")))?;
            if !matches!(parsed.scheme(), "http" | "https") {
                return refuse(format!("`webhook` {url:?} is not an http:// or https:// URL"));
            }
        }
        Ok(())
    }

    /// Checks `divisions`, `promotions` and `moves` together.
    fn check_divisions(&self) -> Result<(), SeasonFileError> {
        let refuse = |message: String| Err(SeasonFileError(message));
        if self.divisions.is_empty() {
            if !self.promotions.is_empty() {
                return refuse("`promotions` moves bots between `divisions`: give them".into());
            }
            return Ok(());
        }
        if self.divisions.len() < 2 {
            return refuse("`divisions` names one: give two or more, top first".into());
        }
        for (i, division) in self.divisions.iter().enumerate() {
            if !self.ladders.contains(division) {
                return refuse(format!("`divisions` names {division:?}, not one of `ladders`"));
            }
            if self.divisions[..i].contains(division) {
                return refuse(format!("`divisions` names {division:?} twice"));
            }
        }
        if self.moves == 0 {
            return refuse("`moves` must be at least 1".into());
        }
        let deadline = self.deadline_ms()?;
        let mut last = i64::MIN;
        for at in self.promotion_ms()? {
            if at <= last || at >= deadline {
                return refuse("`promotions` must rise, each before the `deadline`".into());
            }
            last = at;
        }
        Ok(())
    }

    /// The promotion times in milliseconds since the Unix epoch.
    pub fn promotion_ms(&self) -> Result<Vec<i64>, SeasonFileError> {
        self.promotions.iter().map(|at| parse_time("promotions", at)).collect()
    }

    /// The deadline in milliseconds since the Unix epoch.
    pub fn deadline_ms(&self) -> Result<i64, SeasonFileError> {
        parse_time("deadline", &self.deadline)
    }

    /// The ladder whose order picks the finalists.
    pub fn finals_ladder(&self) -> String {
        self.finals.ladder.clone().or_else(|| self.ladders.first().cloned()).unwrap_or_default()
    }

    /// The finals ladder's name.
    pub fn finals_name(&self) -> String {
        self.finals.name.clone().unwrap_or_else(|| format!("{}-finals", self.name))
    }
}

/// `text`, the file's `field`, as milliseconds since the Unix epoch.
fn parse_time(field: &str, text: &str) -> Result<i64, SeasonFileError> {
    let at = OffsetDateTime::parse(text, &Rfc3339).map_err(|error| {
        SeasonFileError(format!(
            "`{field}` {text:?} is not an RFC 3339 time (like \"2026-12-31T18:00:00Z\"): {error}"
        ))
    })?;
    Ok((at.unix_timestamp_nanos() / 1_000_000) as i64)
}

/// Makes the season of `text`, or gives a season before its deadline its new file: every
/// ladder it names must be the server's, the finals' name not taken, the deadline ahead, and
/// the top at least a table.
pub async fn put(store: &dyn Store, text: &str) -> Result<Season, HostedError> {
    let file = SeasonFile::parse(text)?;
    let now = now_ms();
    let theirs = store.season(&file.name).await?;
    if let Some(season) = &theirs {
        season.check_changeable(now)?;
    }
    let deadline_ms = file.deadline_ms()?;
    if deadline_ms <= now {
        return Err(SeasonFileError(format!(
            "`deadline` {} has passed (it is {} now)",
            file.deadline,
            rfc3339(now)
        ))
        .into());
    }
    for name in &file.ladders {
        let Some(ladder) = store.ladder(name).await? else {
            return Err(SeasonFileError(format!(
                "`ladders` names {name:?}, which this server does not have: create it first"
            ))
            .into());
        };
        if *name == file.finals_ladder() {
            let seats = u32::from(ladder.spec.table_seats);
            if file.finals.top != 0 && file.finals.top < seats {
                return Err(SeasonFileError(format!(
                    "`finals.top` = {} is less than a table of {name:?} ({seats} seats)",
                    file.finals.top
                ))
                .into());
            }
        }
    }
    check_division_ladders(store, &file).await?;
    let finals = file.finals_name();
    let own_finals = theirs.as_ref().and_then(|s| s.finals_ladder.clone());
    if store.ladder(&finals).await?.is_some() && own_finals.as_deref() != Some(finals.as_str()) {
        return Err(SeasonFileError(format!(
            "the finals ladder's name {finals:?} is taken: give `finals.name`"
        ))
        .into());
    }
    let said = match &theirs {
        Some(_) => format!("the season's file changed: the deadline is {}", rfc3339(deadline_ms)),
        None => format!("the season opened: the deadline is {}", rfc3339(deadline_ms)),
    };
    let event =
        NewSeasonEvent { kind: SeasonEventKind::Changed, author: None, bot: None, text: said };
    let new = NewSeason {
        name: file.name.clone(),
        config: text.to_owned(),
        ladders: file.ladders.clone(),
        deadline_ms,
    };
    let season = store.put_season(&new, &event, now).await?;
    info!(season = %season.name, deadline = %rfc3339(deadline_ms), "season put");
    Ok(season)
}

/// Refuses divisions that bots could not move between: each must list its `bots`, play the
/// same game at the same table as the others, and choose its tables adaptively.
async fn check_division_ladders(store: &dyn Store, file: &SeasonFile) -> Result<(), HostedError> {
    let mut first: Option<HostedLadderFile> = None;
    for name in &file.divisions {
        let ladder = ladder_named(store, name).await?;
        let division = HostedLadderFile::parse(&ladder.spec.config)?;
        let refuse = |why: &str| -> Result<(), HostedError> {
            Err(SeasonFileError(format!("`divisions` names {name:?}, which {why}")).into())
        };
        if division.bots.is_none() {
            return refuse("lists no `bots`: a division is the bots it lists");
        }
        if division.schedule.is_planned() {
            return refuse("has a planned `schedule`: its bots cannot change");
        }
        match &first {
            Some(top) if (top.game, top.seats) != (division.game, division.seats) => {
                return refuse("plays another game or table than the first division");
            }
            Some(_) => {}
            None => first = Some(division),
        }
    }
    Ok(())
}

/// Takes every season's due steps and delivers its webhook's events, once a second, until
/// hosting stops (or is dropped).
pub(super) async fn run(shared: Weak<Shared>) {
    let mut hooks = Webhooks::new();
    loop {
        let Some(shared) = shared.upgrade() else { return };
        let stopping = shared.stopping.clone();
        let hosted = HostedLadders { shared };
        if let Err(error) = step_all(&hosted, &mut hooks).await {
            warn!(cause = %error, "the seasons' step failed");
        }
        drop(hosted);
        tokio::select! {
            () = stopping.cancelled() => return,
            () = tokio::time::sleep(LOOK) => {}
        }
    }
}

async fn step_all(hosted: &HostedLadders, hooks: &mut Webhooks) -> Result<(), HostedError> {
    let store = hosted.shared.store.as_ref();
    for season in store.seasons().await? {
        if season.state != SeasonState::Done
            && let Err(error) = step(hosted, &season).await
        {
            warn!(season = %season.name, cause = %error, "the season's step failed");
        }
        hooks.deliver(store, &season).await;
    }
    Ok(())
}

/// The most events one look delivers for a season.
const DELIVERED_AT_ONCE: u32 = 100;

/// The webhooks' deliveries: a client, and each failing season's failures and next try.
struct Webhooks {
    client: Option<reqwest::Client>,
    failing: HashMap<cardroom_store::SeasonId, (u32, Instant)>,
}

impl Webhooks {
    fn new() -> Webhooks {
        let client = reqwest::Client::builder()
            .timeout(Duration::from_secs(10))
            .user_agent(concat!("cardroom/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|error| warn!(cause = %error, "no webhooks: the HTTP client failed"));
        Webhooks { client: client.ok(), failing: HashMap::new() }
    }

    /// Posts `season`'s public events its webhook has not had yet, in order, until one fails.
    async fn deliver(&mut self, store: &dyn Store, season: &Season) {
        let Some(client) = &self.client else { return };
        let Some(url) = SeasonFile::parse(&season.config).ok().and_then(|file| file.webhook) else {
            return;
        };
        if self.failing.get(&season.id).is_some_and(|(_, next)| Instant::now() < *next) {
            return;
        }
        let name = &season.name;
        // Read again: its step may have noted events, another node delivered some.
        let season = match store.season(name).await {
            Ok(Some(season)) => season,
            Ok(None) => return,
            Err(error) => {
                warn!(season = %name, cause = %error, "the season was not read");
                return;
            }
        };
        let read = store.season_events(
            season.id,
            EventsFrom::After(season.webhook_sent),
            None,
            DELIVERED_AT_ONCE,
        );
        let events = match read.await {
            Ok(events) => events,
            Err(error) => {
                warn!(season = %name, cause = %error, "the webhook's events were not read");
                return;
            }
        };
        let mut sent = season.webhook_sent;
        for event in events {
            let body = serde_json::json!({
                "season": season.name,
                "id": event.id,
                "at_ms": event.at_ms,
                "at": rfc3339(event.at_ms),
                "kind": event.kind.as_str(),
                "bot": event.bot,
                "text": event.text,
            });
            let failed = match client.post(&url).json(&body).send().await {
                Ok(answer) if answer.status().is_success() => None,
                Ok(answer) => Some(format!("it answered {}", answer.status())),
                Err(error) => Some(error.to_string()),
            };
            if let Some(why) = failed {
                let failures = self.failing.get(&season.id).map_or(0, |(failures, _)| *failures);
                let pause = Duration::from_secs(1 << failures.min(6)).min(Duration::from_secs(60));
                warn!(season = %name, %url, event = event.id, %why, retry_in = ?pause, "the webhook failed");
                self.failing.insert(season.id, (failures + 1, Instant::now() + pause));
                return;
            }
            self.failing.remove(&season.id);
            let cursor = SeasonCursor::Webhook;
            match store.move_season_cursor(season.id, cursor, sent, event.id, None, now_ms()).await
            {
                Ok(true) => sent = event.id,
                // Another node delivered it meanwhile: carry on from the store's at the next look.
                Ok(false) => return,
                Err(error) => {
                    warn!(season = %name, cause = %error, "the webhook's progress was not kept");
                    return;
                }
            }
        }
    }
}

/// Takes `season`'s step, if one is due: the deadline's notice, the finals' start, their end.
async fn step(hosted: &HostedLadders, season: &Season) -> Result<(), HostedError> {
    let store = hosted.shared.store.as_ref();
    let file = SeasonFile::parse(&season.config)?;
    let now = now_ms();
    let public = |kind, text: String| NewSeasonEvent { kind, author: None, bot: None, text };
    match season.state {
        SeasonState::Open | SeasonState::Closing if now >= season.deadline_ms => {
            start_finals(hosted, season, &file).await
        }
        SeasonState::Open | SeasonState::Closing if promotion_due(season, &file)? => {
            promote(hosted, season, &file).await
        }
        SeasonState::Open => {
            let notice = i64::from(file.notice_minutes) * 60_000;
            if notice > 0 && now >= season.deadline_ms - notice {
                let left = (season.deadline_ms - now + 59_999) / 60_000;
                let text = format!(
                    "the deadline is near: {} ({left} min): no submission is taken after it",
                    rfc3339(season.deadline_ms)
                );
                let event = public(SeasonEventKind::DeadlineNear, text);
                let open = [SeasonState::Open];
                let change = SeasonChange::default();
                store
                    .advance_season(season.id, &open, SeasonState::Closing, &change, &event, now)
                    .await?;
            }
            Ok(())
        }
        SeasonState::Closing => Ok(()),
        SeasonState::Finals => finals_step(hosted, season, &file).await,
        SeasonState::Done => Ok(()),
    }
}

/// Whether a promotion time has come that was not acted on.
fn promotion_due(season: &Season, file: &SeasonFile) -> Result<bool, SeasonFileError> {
    let times = file.promotion_ms()?;
    let done = usize::try_from(season.promotions_done).unwrap_or(usize::MAX);
    Ok(times.get(done).is_some_and(|at| now_ms() >= *at))
}

/// The promotion time has come: between each two adjacent divisions, the lower's best move up
/// and the upper's worst down, by their rank intervals among the division's bots; once, on
/// one node (the store's cursor), announced by an event.
async fn promote(
    hosted: &HostedLadders,
    season: &Season,
    file: &SeasonFile,
) -> Result<(), HostedError> {
    let store = hosted.shared.store.as_ref();
    let mut divisions = Vec::with_capacity(file.divisions.len());
    for name in &file.divisions {
        let ladder = ladder_named(store, name).await?;
        let members = HostedLadderFile::parse(&ladder.spec.config)?.bots.unwrap_or_default();
        let standings = store.standings(ladder.id).await?;
        let ids: HashMap<cardroom_store::BotId, String> =
            store.ladder_bots(ladder.id).await?.into_iter().map(|b| (b.bot, b.name)).collect();
        let ranks = division_ranks(standings.as_ref(), &ids, &members);
        divisions.push((ladder, members, ranks));
    }
    let mut moved = Vec::new();
    let mut lists: Vec<Vec<String>> =
        divisions.iter().map(|(_, members, _)| members.clone()).collect();
    for upper in 0..divisions.len() - 1 {
        let (down, up) = moves(&divisions[upper].2, &divisions[upper + 1].2, file.moves);
        for bot in &down {
            lists[upper].retain(|b| b != bot);
            lists[upper + 1].push(bot.clone());
            moved.push(format!("{bot} down to {}", file.divisions[upper + 1]));
        }
        for bot in &up {
            lists[upper + 1].retain(|b| b != bot);
            lists[upper].push(bot.clone());
            moved.push(format!("{bot} up to {}", file.divisions[upper]));
        }
    }
    let text = if moved.is_empty() {
        "promotion and relegation: no rank interval was settled enough to move a bot".to_owned()
    } else {
        format!("promotion and relegation: {}", moved.join(", "))
    };
    let event = NewSeasonEvent { kind: SeasonEventKind::Moved, author: None, bot: None, text };
    let done = season.promotions_done;
    let cursor = SeasonCursor::Promotions;
    if !store.move_season_cursor(season.id, cursor, done, done + 1, Some(&event), now_ms()).await? {
        return Ok(());
    }
    for ((ladder, members, _), list) in divisions.iter().zip(lists) {
        if *members == list {
            continue;
        }
        let bots = toml::Value::Array(list.into_iter().map(toml::Value::String).collect());
        let (parsed, text) = edited(ladder, &[], [("bots", bots)])?;
        hosted.open(&parsed, &text).await?;
    }
    info!(season = %season.name, ?moved, "promotion and relegation");
    Ok(())
}

/// Each of `members` with its rank interval among them at 95%, in the standings' order (those
/// the standings do not hold last, with an interval of every place): a bot is surely behind
/// another when the standings are sure at 95% that the other is better.
fn division_ranks(
    standings: Option<&cardroom_store::Standings>,
    names: &HashMap<cardroom_store::BotId, String>,
    members: &[String],
) -> Vec<RankedBot> {
    let n = members.len() as u32;
    let rows: Vec<&cardroom_store::StandingsRow> = standings
        .map(|s| {
            s.rows
                .iter()
                .filter(|row| names.get(&row.bot).is_some_and(|name| members.contains(name)))
                .collect()
        })
        .unwrap_or_default();
    let index: HashMap<cardroom_store::BotId, usize> = standings
        .map(|s| s.rows.iter().enumerate().map(|(i, row)| (row.bot, i)).collect())
        .unwrap_or_default();
    let sure = |a: &cardroom_store::StandingsRow, b: &cardroom_store::StandingsRow| {
        a.p_better.get(index[&b.bot]).is_some_and(|p| *p >= STANDINGS_CONFIDENCE)
    };
    let mut ranked: Vec<RankedBot> = rows
        .iter()
        .enumerate()
        .map(|(at, row)| {
            let above = rows.iter().filter(|other| sure(other, row)).count() as u32;
            let below = rows.iter().filter(|other| sure(row, other)).count() as u32;
            RankedBot {
                bot: names[&row.bot].clone(),
                rank: at as u32 + 1,
                rank_lo: above + 1,
                rank_hi: n - below,
                version: None,
            }
        })
        .collect();
    for member in members {
        if !ranked.iter().any(|bot| bot.bot == *member) {
            let rank = ranked.len() as u32 + 1;
            ranked.push(RankedBot {
                bot: member.clone(),
                rank,
                rank_lo: 1,
                rank_hi: n,
                version: None,
            });
        }
    }
    ranked
}

/// Who moves between two adjacent divisions: the upper's bots surely within its bottom
/// `moves` places go down, the lower's surely within its top `moves` go up, paired worst
/// with best, as many pairs as both have (so each division keeps its size).
fn moves(upper: &[RankedBot], lower: &[RankedBot], moves: u32) -> (Vec<String>, Vec<String>) {
    let n = upper.len() as u32;
    let mut down: Vec<&RankedBot> =
        upper.iter().filter(|bot| n > moves && bot.rank_lo > n - moves).collect();
    down.sort_by_key(|bot| std::cmp::Reverse(bot.rank));
    let mut up: Vec<&RankedBot> = lower.iter().filter(|bot| bot.rank_hi <= moves).collect();
    up.sort_by_key(|bot| bot.rank);
    let pairs = down.len().min(up.len());
    let names = |bots: &[&RankedBot]| bots[..pairs].iter().map(|bot| bot.bot.clone()).collect();
    (names(&down), names(&up))
}

/// The deadline passed: picks the finalists and starts the finals, or ends the season when
/// there are too few for a table.
async fn start_finals(
    hosted: &HostedLadders,
    season: &Season,
    file: &SeasonFile,
) -> Result<(), HostedError> {
    let store = hosted.shared.store.as_ref();
    let now = now_ms();
    let source = file.finals_ladder();
    let ladder = ladder_named(store, &source).await?;
    let finalists = finalists(store, &ladder, file.finals.top).await?;
    let seats = usize::from(ladder.spec.table_seats);
    let open = [SeasonState::Open, SeasonState::Closing];
    if finalists.bots.len() < seats {
        let text = format!(
            "the deadline passed with {} bot(s) ranked in {source:?}, too few for a table of \
             {seats}: no finals",
            finalists.bots.len()
        );
        let outcome = SeasonOutcome { reason: text.clone(), ..SeasonOutcome::default() };
        let change = SeasonChange {
            finalists: Some(finalists.to_json()),
            outcome: Some(outcome.to_json()),
            ..SeasonChange::default()
        };
        let event =
            NewSeasonEvent { kind: SeasonEventKind::FinalsFinished, author: None, bot: None, text };
        store.advance_season(season.id, &open, SeasonState::Done, &change, &event, now).await?;
        return Ok(());
    }
    let name = file.finals_name();
    let names: Vec<&str> = finalists.bots.iter().map(|b| b.bot.as_str()).collect();
    let cut = if finalists.cut_settled { "" } else { " (the cut was not settled at 95%)" };
    let text = format!(
        "the deadline passed: versions are frozen; the finals ladder {name:?} starts with {}{cut}",
        names.join(", ")
    );
    let change = SeasonChange {
        finals_ladder: Some(name),
        finalists: Some(finalists.to_json()),
        outcome: None,
    };
    let event =
        NewSeasonEvent { kind: SeasonEventKind::FinalsStarted, author: None, bot: None, text };
    if store.advance_season(season.id, &open, SeasonState::Finals, &change, &event, now).await? {
        info!(season = %season.name, finalists = ?names, "the season's finals start");
        open_finals(hosted, season, file, &finalists).await?;
    }
    Ok(())
}

/// The finalists of `ladder` now: its top `top` (0: all) in the leaderboard's order, paused
/// bots and bots with no rated set left out, and (unless the ladder allows one author's bots
/// at a table) each author's bots after their best.
async fn finalists(
    store: &dyn Store,
    ladder: &cardroom_store::Ladder,
    top: u32,
) -> Result<Finalists, HostedError> {
    let (mut ranked, standings) = ranked(store, ladder, true).await?;
    // One bot an author, their best, unless the ladder lets one author's bots share a table:
    // the finals never could seat the others.
    let file = HostedLadderFile::parse(&ladder.spec.config)?;
    if !file.allow_same_author {
        let authors: HashMap<String, Option<String>> =
            store.bots().await?.into_iter().map(|bot| (bot.name, bot.author)).collect();
        let mut seen = HashSet::new();
        ranked.retain(|bot| match authors.get(&bot.bot).cloned().flatten() {
            Some(author) => seen.insert(author),
            None => true,
        });
    }
    let take = if top == 0 { ranked.len() } else { ranked.len().min(top as usize) };
    // Settled: no bot left out could have been placed with the finalists.
    let last_in = ranked[..take].last().map_or(0, |bot| bot.rank);
    let cut_settled = ranked[take..].iter().all(|bot| bot.rank_lo > last_in);
    ranked.truncate(take);
    Ok(Finalists {
        ladder: ladder.spec.name.clone(),
        sets: standings.map_or(0, |s| s.sets),
        cut_settled,
        bots: ranked,
    })
}

/// The finals ladder's file: the source ladder's, made a finals among `finalists`.
fn finals_file(
    source: &cardroom_store::Ladder,
    file: &SeasonFile,
    finalists: &Finalists,
) -> Result<String, HostedError> {
    let seed = file.finals.seed.unwrap_or(source.spec.seed.wrapping_add(1));
    let bots = finalists.bots.iter().map(|b| toml::Value::String(b.bot.clone())).collect();
    let set = [
        ("name", toml::Value::String(file.finals_name())),
        ("finals", toml::Value::Boolean(true)),
        ("stop_when_settled", toml::Value::Boolean(true)),
        ("max_sets", toml::Value::Integer(file.finals.max_sets.min(i64::MAX as u64) as i64)),
        ("seed", toml::Value::Integer(seed as i64)),
        ("scrimmages_per_hour", toml::Value::Integer(0)),
        ("bots", toml::Value::Array(bots)),
    ];
    let plan = ["rounds", "challenger", "format", "sprt", "schedule"];
    Ok(edited(source, &plan, set)?.1)
}

/// `ladder`'s file without the keys `remove` and with those of `set`, checked, and its text.
fn edited<'a>(
    ladder: &cardroom_store::Ladder,
    remove: &[&str],
    set: impl IntoIterator<Item = (&'a str, toml::Value)>,
) -> Result<(HostedLadderFile, String), HostedError> {
    let unreadable = |error: &dyn std::fmt::Display| {
        SeasonFileError(format!("the ladder {:?}'s file: {error}", ladder.spec.name))
    };
    let mut table: toml::Table =
        toml::from_str(&ladder.spec.config).map_err(|error| unreadable(&error))?;
    for key in remove {
        table.remove(*key);
    }
    for (key, value) in set {
        table.insert(key.to_owned(), value);
    }
    let text = toml::to_string(&table).map_err(|error| unreadable(&error))?;
    Ok((HostedLadderFile::parse(&text)?, text))
}

/// The ladder `name` in the store.
async fn ladder_named(
    store: &dyn Store,
    name: &str,
) -> Result<cardroom_store::Ladder, HostedError> {
    let found = store.ladder(name).await?;
    Ok(found.ok_or_else(|| StoreError::NoSuchLadder(format!("named {name:?}")))?)
}

/// Opens the finals ladder (made, or resumed if another node or an earlier run made it).
async fn open_finals(
    hosted: &HostedLadders,
    season: &Season,
    file: &SeasonFile,
    finalists: &Finalists,
) -> Result<(), HostedError> {
    let store = hosted.shared.store.as_ref();
    let source = ladder_named(store, &finalists.ladder).await?;
    let text = finals_file(&source, file, finalists)?;
    let parsed = HostedLadderFile::parse(&text)?;
    hosted.open(&parsed, &text).await?;
    info!(season = %season.name, ladder = %parsed.name, "the finals ladder runs");
    Ok(())
}

/// The finals run: their ladder made if it is not (its maker went away before it did), and
/// the season done once it closed.
async fn finals_step(
    hosted: &HostedLadders,
    season: &Season,
    file: &SeasonFile,
) -> Result<(), HostedError> {
    let store = hosted.shared.store.as_ref();
    let name = season.finals_ladder.clone().unwrap_or_else(|| file.finals_name());
    let Some(ladder) = store.ladder(&name).await? else {
        let finalists = season.finalists()?.unwrap_or_default();
        return open_finals(hosted, season, file, &finalists).await;
    };
    if ladder.status != LadderStatus::Closed {
        return Ok(());
    }
    let outcome = outcome(store, &ladder).await?;
    let order: Vec<String> = outcome
        .standings
        .iter()
        .map(|b| format!("{}. {} [{}-{}]", b.rank, b.bot, b.rank_lo, b.rank_hi))
        .collect();
    let text = format!(
        "the finals are over ({}, {} sets, {} matches): {}",
        if outcome.settled { "settled at 95%" } else { outcome.reason.as_str() },
        outcome.sets,
        outcome.matches,
        order.join(", ")
    );
    let change = SeasonChange { outcome: Some(outcome.to_json()), ..SeasonChange::default() };
    let event =
        NewSeasonEvent { kind: SeasonEventKind::FinalsFinished, author: None, bot: None, text };
    let finals = [SeasonState::Finals];
    if store
        .advance_season(season.id, &finals, SeasonState::Done, &change, &event, now_ms())
        .await?
    {
        info!(season = %season.name, "the season is done");
    }
    Ok(())
}

/// The final standings of a closed finals ladder.
async fn outcome(
    store: &dyn Store,
    ladder: &cardroom_store::Ladder,
) -> Result<SeasonOutcome, HostedError> {
    let (ranked, standings) = ranked(store, ladder, false).await?;
    let sets = store.rated_sets(ladder.id).await?;
    let matches =
        sets.iter().flat_map(|set| &set.matches).filter(|m| m.state == MatchState::Done).count()
            as u64;
    Ok(SeasonOutcome {
        settled: standings.as_ref().is_some_and(|s| s.settled),
        reason: ladder.status_reason.clone().unwrap_or_else(|| "closed".to_owned()),
        sets: sets.len() as u64,
        matches,
        standings: ranked,
    })
}

/// `ladder`'s bots in the leaderboard's order, each with its place there, its rank interval at
/// 95% (its place, when the standings hold no interval of it) and the last version it played
/// there, and the standings they are of. With `entered`, only the bots with a rated set and no
/// pause.
async fn ranked(
    store: &dyn Store,
    ladder: &cardroom_store::Ladder,
    entered: bool,
) -> Result<(Vec<RankedBot>, Option<cardroom_store::Standings>), HostedError> {
    let lines = store.leaderboard(ladder.id).await?;
    let standings = store.standings(ladder.id).await?;
    let order = leaderboard_order(&lines, |bot| standings.as_ref().and_then(|s| s.position(bot)));
    let mut ranked = Vec::with_capacity(order.len());
    for (at, i) in order.into_iter().enumerate() {
        let line = &lines[i];
        if entered && (line.sets_rated == 0 || line.paused_reason.is_some()) {
            continue;
        }
        let rank = at as u32 + 1;
        let interval = standings
            .as_ref()
            .and_then(|s| s.rows.iter().find(|row| row.bot == line.bot))
            .map_or((rank, rank), |row| (row.rank_lo, row.rank_hi));
        let version =
            store.bot_ladder_versions(ladder.id, line.bot).await?.pop().map(|v| v.version);
        ranked.push(RankedBot {
            bot: line.name.clone(),
            rank,
            rank_lo: interval.0,
            rank_hi: interval.1,
            version,
        });
    }
    Ok((ranked, standings))
}

/// Notes `event` in the seasons of `scope`; a failure is logged (an event never holds up what
/// it tells of).
pub(super) async fn note(store: &dyn Store, scope: EventScope, event: NewSeasonEvent) {
    if let Err(error) = store.note_season_event(scope, &event, now_ms()).await {
        warn!(cause = %error, "a season's event was not kept");
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    const BASE: &str =
        "name = \"winter\"\nladders = [\"gin\"]\ndeadline = \"2026-12-31T18:00:00Z\"\n";

    #[test]
    fn a_minimal_file_takes_the_defaults() {
        let file = SeasonFile::parse(BASE).unwrap();
        assert_eq!(file.deadline_ms().unwrap(), 1_798_740_000_000);
        assert_eq!(
            (file.finals_ladder(), file.finals_name()),
            ("gin".into(), "winter-finals".into())
        );
        assert_eq!((file.notice_minutes, file.finals.top, file.finals.max_sets), (60, 0, 500));
    }

    #[test]
    fn each_refusal_names_its_field() {
        let cases = [
            ("name = \"a b\"\nladders = [\"gin\"]\ndeadline = \"2026-12-31T18:00:00Z\"", "`name`"),
            ("name = \"w\"\nladders = []\ndeadline = \"2026-12-31T18:00:00Z\"", "`ladders`"),
            (
                "name = \"w\"\nladders = [\"a\", \"a\"]\ndeadline = \"2026-12-31T18:00:00Z\"",
                "twice",
            ),
            ("name = \"w\"\nladders = [\"a\"]\ndeadline = \"tomorrow\"", "RFC 3339"),
            (&format!("{BASE}[finals]\nladder = \"tt\""), "`finals.ladder`"),
            (&format!("{BASE}[finals]\nname = \"gin\""), "`finals.name`"),
            (&format!("{BASE}[finals]\ntop = 1"), "`finals.top`"),
            (&format!("{BASE}[finals]\nmax_sets = 0"), "`finals.max_sets`"),
            (&format!("{BASE}deadlines = 3"), "deadlines"),
        ];
        for (text, field) in cases {
            let refused = SeasonFile::parse(text).unwrap_err();
            assert!(refused.to_string().contains(field), "{text:?}: {refused}");
        }
    }

    #[test]
    fn divisions_are_ladders_of_the_season_with_promotions_before_the_deadline() {
        let base = "name = \"w\"\nladders = [\"a\", \"b\"]\ndeadline = \"2026-12-31T18:00:00Z\"\n";
        let file = SeasonFile::parse(&format!(
            "{base}divisions = [\"a\", \"b\"]\npromotions = [\"2026-12-20T18:00:00Z\"]"
        ))
        .unwrap();
        assert_eq!((file.promotion_ms().unwrap(), file.moves), (vec![1_797_789_600_000], 1));
        let cases = [
            ("divisions = [\"a\"]", "names one"),
            ("divisions = [\"a\", \"c\"]", "not one of `ladders`"),
            ("divisions = [\"a\", \"a\"]", "twice"),
            ("promotions = [\"2026-12-20T18:00:00Z\"]", "give them"),
            ("divisions = [\"a\", \"b\"]\nmoves = 0", "`moves`"),
            ("divisions = [\"a\", \"b\"]\npromotions = [\"2027-01-01T00:00:00Z\"]", "before"),
            ("divisions = [\"a\", \"b\"]\npromotions = [\"soon\"]", "`promotions`"),
        ];
        for (more, says) in cases {
            let refused = SeasonFile::parse(&format!("{base}{more}")).unwrap_err();
            assert!(refused.to_string().contains(says), "{more:?}: {refused}");
        }
    }

    fn ranked(name: &str, rank: u32, lo: u32, hi: u32) -> RankedBot {
        RankedBot { bot: name.into(), rank, rank_lo: lo, rank_hi: hi, version: None }
    }

    #[test]
    fn only_bots_whose_interval_is_sure_move_in_pairs() {
        let upper = [ranked("u1", 1, 1, 2), ranked("u2", 2, 1, 3), ranked("u3", 3, 3, 3)];
        let lower = [ranked("l1", 1, 1, 1), ranked("l2", 2, 2, 3), ranked("l3", 3, 2, 3)];
        assert_eq!(moves(&upper, &lower, 1), (vec!["u3".into()], vec!["l1".into()]));
        // Nobody in the lower division is surely first: nobody moves either way.
        let unsure = [ranked("l1", 1, 1, 2), ranked("l2", 2, 1, 3)];
        assert_eq!(moves(&upper, &unsure, 1), (vec![], vec![]));
        // Two may move; as many go down as come up.
        let two = [ranked("l1", 1, 1, 1), ranked("l2", 2, 2, 2), ranked("l3", 3, 3, 3)];
        assert_eq!(moves(&upper, &two, 2), (vec!["u3".into()], vec!["l1".into()]));
    }

    #[test]
    fn a_divisions_intervals_count_only_its_own_bots() {
        use cardroom_store::{BotId, Standings, StandingsRow};
        // The standings are sure a > b > c, and hold d, which left the division.
        let row = |bot: i64, p_better: [f64; 4]| StandingsRow {
            bot: BotId(bot),
            rank_lo: 1,
            rank_hi: 4,
            indistinguishable_from_first: false,
            p_better: p_better.to_vec(),
        };
        let standings = Standings {
            revision: 9,
            first_set: 0,
            sets: 9,
            confidence: 0.95,
            settled: true,
            computed_ms: 0,
            rows: vec![
                row(1, [0.0, 0.99, 0.99, 0.99]),
                row(4, [0.0, 0.0, 0.5, 0.5]),
                row(2, [0.0, 0.5, 0.0, 0.99]),
                row(3, [0.0, 0.5, 0.0, 0.0]),
            ],
            sprt: None,
        };
        let names: HashMap<BotId, String> =
            [(1, "a"), (2, "b"), (3, "c"), (4, "d")].map(|(i, n)| (BotId(i), n.to_owned())).into();
        let members = ["c", "a", "b", "e"].map(str::to_owned);
        let ranks = division_ranks(Some(&standings), &names, &members);
        let got: Vec<(&str, u32, u32, u32)> =
            ranks.iter().map(|b| (b.bot.as_str(), b.rank, b.rank_lo, b.rank_hi)).collect();
        // e is new: it may be anywhere (so a may be second), and never moves.
        assert_eq!(got, [("a", 1, 1, 2), ("b", 2, 2, 3), ("c", 3, 3, 4), ("e", 4, 1, 4)]);
    }

    #[test]
    fn the_finals_file_is_the_ladders_made_a_finals_among_the_finalists() {
        let config = "name = \"gin\"\ngame = \"gin\"\nseed = 7\nschedule = \"least_certain\"\n\
                      scrimmages_per_hour = 5\nmax_concurrent = 2\n";
        let source = cardroom_store::Ladder {
            id: cardroom_store::LadderId(1),
            spec: HostedLadderFile::parse(config).unwrap().new_ladder(config),
            status: LadderStatus::Running,
            status_reason: None,
            created_ms: 0,
            status_ms: 0,
        };
        let file = SeasonFile::parse(&format!("{BASE}[finals]\ntop = 2\nmax_sets = 40")).unwrap();
        let bot = |name: &str, rank| RankedBot {
            bot: name.into(),
            rank,
            rank_lo: rank,
            rank_hi: rank,
            version: None,
        };
        let finalists = Finalists {
            ladder: "gin".into(),
            sets: 9,
            cut_settled: true,
            bots: vec![bot("a", 1), bot("b", 2)],
        };
        let finals =
            HostedLadderFile::parse(&finals_file(&source, &file, &finalists).unwrap()).unwrap();
        assert_eq!(finals.name, "winter-finals");
        assert!(finals.finals && finals.stop_when_settled);
        assert_eq!((finals.max_sets, finals.seed, finals.scrimmages_per_hour), (Some(40), 8, 0));
        assert_eq!(finals.bots, Some(vec!["a".to_owned(), "b".to_owned()]));
        assert_eq!(
            (finals.schedule, finals.max_concurrent),
            (crate::hosted::Schedule::Adaptive, 2)
        );
    }
}
