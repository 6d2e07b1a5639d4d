//! The hosted ladders' public read rpcs: each a few reads of the store
//! ([`cardroom_store::Store`]'s read methods) turned into messages. Nothing here writes, and
//! nothing but `ListFailures` (the author's, with the bot's key) shows what a bot saw.

use std::collections::HashMap;
use std::sync::Arc;

use cardroom_proto::pb;
use cardroom_store::{
    Accounts, BotId, Echo, FailureRow, Ladder, LadderMatch, LadderMatchId, LeaderboardLine,
    Standings, Store, leaderboard_order,
};
use tonic::Status;
use tonic::metadata::MetadataMap;

use crate::accounts::{auth_status, bearer, store_status};
use crate::listing::{DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, page_by_name};

/// The accounts (and the store behind them) of a server that keeps a store;
/// FAILED_PRECONDITION otherwise.
pub(crate) fn accounts(accounts: Option<&Accounts>) -> Result<&Accounts, Status> {
    accounts.ok_or_else(|| {
        Status::failed_precondition(
            "this server keeps no store, so it hosts no ladders: start it with --store sqlite:FILE",
        )
    })
}

/// The store of a server that keeps one; FAILED_PRECONDITION otherwise.
pub(crate) fn store(accounts: Option<&Accounts>) -> Result<&Arc<dyn Store>, Status> {
    self::accounts(accounts).map(Accounts::store)
}

/// A page size from the wire: 0 is the default, more than the most is the most.
fn page_size(asked: u32) -> u32 {
    match asked {
        0 => DEFAULT_PAGE_SIZE as u32,
        n => n.min(MAX_PAGE_SIZE as u32),
    }
}

/// The ladder named `name`; NOT_FOUND if there is none.
async fn ladder(store: &dyn Store, name: &str) -> Result<Ladder, Status> {
    store
        .ladder(name)
        .await
        .map_err(store_status)?
        .ok_or_else(|| Status::not_found(format!("no ladder named {}", Echo(name))))
}

fn ladder_to_pb(ladder: &Ladder) -> pb::LadderInfo {
    pb::LadderInfo {
        name: ladder.spec.name.clone(),
        game: ladder.spec.game.clone(),
        table_seats: u32::from(ladder.spec.table_seats),
        rating: ladder.spec.rating.clone(),
        status: ladder.status.as_str().to_owned(),
        status_reason: ladder.status_reason.clone().unwrap_or_default(),
        provisional_sets: ladder.spec.provisional_sets,
        created_ms: ladder.created_ms,
    }
}

/// The ladder's leaderboard lines in its one order ([`leaderboard_order`]: the standings'
/// head-to-head order), each with its rank and what its last standings snapshot says of it,
/// and the snapshot.
async fn ranked(
    store: &dyn Store,
    ladder: &Ladder,
) -> Result<(Vec<pb::LeaderboardRow>, Option<pb::LadderStandings>), Status> {
    let lines = store.leaderboard(ladder.id).await.map_err(store_status)?;
    let standings = store.standings(ladder.id).await.map_err(store_status)?;
    // One order for the rank column, the rank intervals and the order the standings print.
    let order = leaderboard_order(&lines, |bot| standings.as_ref()?.position(bot));
    let mut lines: Vec<Option<LeaderboardLine>> = lines.into_iter().map(Some).collect();
    let lines: Vec<LeaderboardLine> = order.into_iter().filter_map(|i| lines[i].take()).collect();
    let ids: Vec<BotId> = lines.iter().map(|line| line.bot).collect();
    let names: HashMap<BotId, String> =
        lines.iter().map(|line| (line.bot, line.name.clone())).collect();
    let mut rows: Vec<pb::LeaderboardRow> = lines
        .into_iter()
        .enumerate()
        .map(|(i, line)| row_to_pb(i + 1, line, ladder.spec.provisional_sets))
        .collect();
    let standings = standings.map(|s| standings_to_pb(&mut rows, &ids, &s, &names));
    Ok((rows, standings))
}

/// Fills each of `rows` (bot `ids[i]` on row `i`) from the snapshot `s`, its pairwise
/// confidences in the rows' order (0 against a bot the snapshot does not hold), and returns
/// the snapshot's message.
fn standings_to_pb(
    rows: &mut [pb::LeaderboardRow],
    ids: &[BotId],
    s: &Standings,
    names: &HashMap<BotId, String>,
) -> pb::LadderStandings {
    let at: HashMap<BotId, usize> = s.rows.iter().enumerate().map(|(i, r)| (r.bot, i)).collect();
    for (row, bot) in rows.iter_mut().zip(ids) {
        let Some(line) = at.get(bot).map(|&i| &s.rows[i]) else { continue };
        row.rank_lo = line.rank_lo;
        row.rank_hi = line.rank_hi;
        row.indistinguishable_from_first = line.indistinguishable_from_first;
        row.p_better = ids
            .iter()
            .map(|other| at.get(other).and_then(|&j| line.p_better.get(j)).copied().unwrap_or(0.0))
            .collect();
    }
    let name = |bot: &BotId| names.get(bot).cloned().unwrap_or_default();
    pb::LadderStandings {
        revision: s.revision,
        first_set: s.first_set,
        sets: s.sets,
        confidence: s.confidence,
        settled: s.settled,
        computed_ms: s.computed_ms,
        order: s.rows.iter().map(|r| name(&r.bot)).collect(),
        sprt: s.sprt.as_ref().map(|t| pb::LadderSprt {
            a: name(&t.a),
            b: name(&t.b),
            samples: t.samples,
            llr: t.llr,
            lower: t.lower,
            upper: t.upper,
            decision: t.decision.clone(),
        }),
    }
}

fn row_to_pb(rank: usize, line: LeaderboardLine, provisional_sets: u32) -> pb::LeaderboardRow {
    let h = line.health;
    pb::LeaderboardRow {
        rank: u32::try_from(rank).unwrap_or(u32::MAX),
        rating: line.rating.mean,
        sigma: line.rating.sigma,
        matches: line.matches,
        wins: line.wins,
        win_rate: if line.matches == 0 { 0.0 } else { line.wins as f64 / line.matches as f64 },
        health: Some(pb::BotHealth {
            crashes: h.crashes,
            forfeits: h.forfeits,
            illegal: h.illegal,
            timeouts: h.timeouts,
        }),
        sets_rated: line.sets_rated,
        provisional: line.sets_rated < provisional_sets,
        paused_reason: line.paused_reason.unwrap_or_default(),
        bot: line.name,
        rank_lo: 0,
        rank_hi: 0,
        indistinguishable_from_first: false,
        p_better: Vec::new(),
    }
}

/// The ladder's bots' names by id.
async fn names(store: &dyn Store, ladder: &Ladder) -> Result<HashMap<BotId, String>, Status> {
    let bots = store.ladder_bots(ladder.id).await.map_err(store_status)?;
    Ok(bots.into_iter().map(|b| (b.bot, b.name)).collect())
}

/// The bot named `name` in `ladder`; NOT_FOUND if it is not in it.
fn bot_in(names: &HashMap<BotId, String>, ladder: &Ladder, name: &str) -> Result<BotId, Status> {
    names.iter().find(|(_, n)| n.as_str() == name).map(|(id, _)| *id).ok_or_else(|| {
        Status::not_found(format!("no bot named {} in ladder {:?}", Echo(name), ladder.spec.name))
    })
}

fn match_to_pb(
    m: LadderMatch,
    ladder: &Ladder,
    names: &HashMap<BotId, String>,
    record_json: String,
) -> pb::LadderMatchInfo {
    pb::LadderMatchInfo {
        id: m.id.0,
        ladder: ladder.spec.name.clone(),
        set_index: m.set_index,
        rotation: m.rotation,
        state: m.state.as_str().to_owned(),
        seats: m
            .seats
            .into_iter()
            .map(|s| pb::LadderSeat {
                seat: u32::from(s.seat),
                bot: names.get(&s.bot).cloned().unwrap_or_default(),
                version: s.version.unwrap_or_default(),
                place: s.place.map_or(0, u32::from),
                forfeited: s.forfeited,
                failure: s.failure.map(|f| f.as_str().to_owned()).unwrap_or_default(),
            })
            .collect(),
        finished_ms: m.finished_ms.unwrap_or(0),
        server_match_id: m.server_match_id.unwrap_or_default(),
        record_json,
    }
}

/// `ListLadders`.
pub(crate) async fn list_ladders(
    store: &dyn Store,
    request: &pb::ListLaddersRequest,
) -> Result<pb::ListLaddersResponse, Status> {
    let mut ladders = store.ladders().await.map_err(store_status)?;
    ladders.sort_by(|a, b| a.spec.name.cmp(&b.spec.name));
    let (page, next_page_token) =
        page_by_name(ladders, |l| &l.spec.name, request.page_size, &request.page_token);
    Ok(pb::ListLaddersResponse {
        ladders: page.iter().map(ladder_to_pb).collect(),
        next_page_token,
    })
}

/// `GetLeaderboard`.
pub(crate) async fn leaderboard(
    store: &dyn Store,
    request: &pb::GetLeaderboardRequest,
) -> Result<pb::LadderLeaderboard, Status> {
    let ladder = ladder(store, &request.ladder).await?;
    let (rows, standings) = ranked(store, &ladder).await?;
    Ok(pb::LadderLeaderboard { ladder: Some(ladder_to_pb(&ladder)), rows, standings })
}

/// `ListBotMatches`: the page token is the last match id of the page before.
pub(crate) async fn bot_matches(
    store: &dyn Store,
    request: &pb::ListBotMatchesRequest,
) -> Result<pb::ListBotMatchesResponse, Status> {
    let ladder = ladder(store, &request.ladder).await?;
    let names = names(store, &ladder).await?;
    let bot = bot_in(&names, &ladder, &request.bot)?;
    let before = match request.page_token.as_str() {
        "" => None,
        token => Some(LadderMatchId(token.parse().map_err(|_| {
            Status::invalid_argument(format!(
                "page_token {token:?} is not a next_page_token of ListBotMatches"
            ))
        })?)),
    };
    let size = page_size(request.page_size);
    // One more than the page, to know whether another follows.
    let mut found =
        store.bot_matches(ladder.id, bot, before, size + 1).await.map_err(store_status)?;
    let more = found.len() > size as usize;
    found.truncate(size as usize);
    let next_page_token = if more {
        found.last().map(|m| m.id.0.to_string()).unwrap_or_default()
    } else {
        String::new()
    };
    let matches =
        found.into_iter().map(|m| match_to_pb(m, &ladder, &names, String::new())).collect();
    Ok(pb::ListBotMatchesResponse { matches, next_page_token })
}

/// `GetLadderBot`.
pub(crate) async fn ladder_bot(
    store: &dyn Store,
    request: &pb::GetLadderBotRequest,
) -> Result<pb::LadderBot, Status> {
    let ladder = ladder(store, &request.ladder).await?;
    let names = names(store, &ladder).await?;
    let bot = bot_in(&names, &ladder, &request.bot)?;
    let row = ranked(store, &ladder).await?.0.into_iter().find(|r| r.bot == request.bot);
    let history = store.bot_rating_history(ladder.id, bot).await.map_err(store_status)?;
    let versions = store.bot_ladder_versions(ladder.id, bot).await.map_err(store_status)?;
    let against = store.head_to_head(ladder.id, bot).await.map_err(store_status)?;
    Ok(pb::LadderBot {
        row,
        history: history
            .into_iter()
            .map(|h| pb::RatingPoint {
                set_index: h.set_index,
                rating: h.update.after.mean,
                sigma: h.update.after.sigma,
                at_ms: h.at_ms,
            })
            .collect(),
        versions: versions
            .into_iter()
            .map(|v| pb::LadderVersion {
                version: v.version,
                first_ms: v.first_ms,
                last_ms: v.last_ms,
                matches: v.matches,
            })
            .collect(),
        head_to_head: against
            .into_iter()
            .map(|h| pb::HeadToHead {
                opponent: h.name,
                wins: h.wins,
                ties: h.ties,
                losses: h.losses,
            })
            .collect(),
    })
}

/// `GetHeadToHead`.
pub(crate) async fn head_to_head(
    store: &dyn Store,
    request: &pb::GetHeadToHeadRequest,
) -> Result<pb::HeadToHeadResponse, Status> {
    let ladder = ladder(store, &request.ladder).await?;
    let names = names(store, &ladder).await?;
    let a = bot_in(&names, &ladder, &request.a)?;
    let b = bot_in(&names, &ladder, &request.b)?;
    let against = store.head_to_head(ladder.id, a).await.map_err(store_status)?;
    let line = against.into_iter().find(|h| h.opponent == b);
    Ok(pb::HeadToHeadResponse {
        a_against_b: Some(pb::HeadToHead {
            opponent: request.b.clone(),
            wins: line.as_ref().map_or(0, |h| h.wins),
            ties: line.as_ref().map_or(0, |h| h.ties),
            losses: line.as_ref().map_or(0, |h| h.losses),
        }),
    })
}

/// `GetLadderMatch`: the record only once the match is done.
pub(crate) async fn ladder_match(
    store: &dyn Store,
    request: &pb::GetLadderMatchRequest,
) -> Result<pb::LadderMatchInfo, Status> {
    let id = LadderMatchId(request.id);
    let not_found = || Status::not_found(format!("no ladder match {}", request.id));
    let found = store.ladder_match(id).await.map_err(store_status)?.ok_or_else(not_found)?;
    let ladder = store
        .ladders()
        .await
        .map_err(store_status)?
        .into_iter()
        .find(|l| l.id == found.ladder)
        .ok_or_else(not_found)?;
    let names = names(store, &ladder).await?;
    let record = if found.state == cardroom_store::MatchState::Done {
        store.ladder_record(id).await.map_err(store_status)?.unwrap_or_default()
    } else {
        String::new()
    };
    Ok(match_to_pb(found, &ladder, &names, record))
}

/// `ListFailures`, for the holder of the bot's key only.
pub(crate) async fn failures(
    accounts: &Accounts,
    metadata: &MetadataMap,
    request: &pb::ListFailuresRequest,
) -> Result<pb::ListFailuresResponse, Status> {
    let store = accounts.store().as_ref();
    let ladder = ladder(store, &request.ladder).await?;
    let names = names(store, &ladder).await?;
    let bot = bot_in(&names, &ladder, &request.bot)?;
    // The bot's own active key, or nothing: no key is UNAUTHENTICATED, another's PERMISSION_DENIED.
    let key = bearer(metadata).ok_or_else(|| {
        Status::unauthenticated(
            "a bot's failures are for its author: send its key as `authorization: Bearer <key>`",
        )
    })?;
    accounts.authenticate(&request.bot, Some(key), true).await.map_err(auth_status)?;
    let rows =
        store.failures(ladder.id, bot, page_size(request.limit)).await.map_err(store_status)?;
    Ok(pb::ListFailuresResponse { failures: rows.into_iter().map(failure_to_pb).collect() })
}

fn failure_to_pb(row: FailureRow) -> pb::Failure {
    pb::Failure {
        match_id: row.match_id.0,
        kind: row.failure.kind.as_str().to_owned(),
        version: row.version,
        observation_json: row.failure.observation_json.unwrap_or_default(),
        answer: row.failure.answer.unwrap_or_default(),
        error: row.failure.error,
        at_ms: row.at_ms,
        output: row.output.unwrap_or_default(),
    }
}
