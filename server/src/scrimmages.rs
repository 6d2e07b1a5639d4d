//! Scrimmages on the wire (issue 41): `RequestScrimmage`, `ListScrimmages` and
//! `GetScrimmageRecord`, for the author who asked. The hosted ladders play them
//! (`LadderControl::request_scrimmages`); their results come from the store.

use std::collections::HashMap;

use cardroom_proto::pb;
use cardroom_store::{Accounts, Author, Scrimmage, ScrimmageId, ScrimmageResults};
use tonic::Status;

use crate::accounts::{Manager, store_status};

/// The most scrimmages `ListScrimmages` answers.
const LISTED: u32 = 50;

/// The author an author's rpc (a scrimmage, a new token) is for: an author's token, never
/// the admin's.
pub(crate) fn author_only(manager: Manager) -> Result<Author, Status> {
    match manager {
        Manager::Author(author) => Ok(author),
        Manager::Admin => Err(Status::permission_denied(
            "this is an author's: send your author token (`cardroom authors join`)",
        )),
    }
}

/// `author`'s scrimmages, newest first: all of them, or those of `only`.
pub(crate) async fn listed(
    accounts: &Accounts,
    author: &Author,
    only: Option<&[ScrimmageId]>,
) -> Result<pb::ScrimmagesReply, Status> {
    let store = accounts.store();
    let mut scrimmages = store.author_scrimmages(author.id, LISTED).await.map_err(store_status)?;
    if let Some(only) = only {
        scrimmages.retain(|s| only.contains(&s.id));
    }
    let ladders: HashMap<_, _> = store
        .ladders()
        .await
        .map_err(store_status)?
        .into_iter()
        .map(|ladder| (ladder.id, ladder.spec.name))
        .collect();
    let bots: HashMap<_, _> =
        store.bots().await.map_err(store_status)?.into_iter().map(|b| (b.id, b.name)).collect();
    let scrimmages = scrimmages
        .into_iter()
        .map(|s| to_pb(s, &ladders, &bots))
        .collect::<Result<Vec<_>, Status>>()?;
    Ok(pb::ScrimmagesReply { scrimmages })
}

/// The record of the match `rotation` of scrimmage `id`, for its author only.
pub(crate) async fn record(
    accounts: &Accounts,
    author: &Author,
    id: i64,
    rotation: u32,
) -> Result<pb::GetRecordResponse, Status> {
    let found = accounts.store().scrimmage(ScrimmageId(id)).await.map_err(store_status)?;
    let scrimmage = found.ok_or_else(|| Status::not_found(format!("no scrimmage {id}")))?;
    if scrimmage.author != author.id {
        return Err(Status::permission_denied(format!(
            "scrimmage {id} is another author's: only its author reads it"
        )));
    }
    let results =
        ScrimmageResults::from_json(scrimmage.results.as_deref()).map_err(store_status)?;
    let played = results.matches.into_iter().find(|m| m.rotation == rotation);
    let record = played.and_then(|m| m.record).ok_or_else(|| {
        Status::not_found(format!("scrimmage {id} has no recorded match of seating {rotation}"))
    })?;
    Ok(pb::GetRecordResponse { record_json: record })
}

fn to_pb(
    scrimmage: Scrimmage,
    ladders: &HashMap<cardroom_store::LadderId, String>,
    bots: &HashMap<cardroom_store::BotId, String>,
) -> Result<pb::ScrimmageInfo, Status> {
    let results =
        ScrimmageResults::from_json(scrimmage.results.as_deref()).map_err(store_status)?;
    Ok(pb::ScrimmageInfo {
        id: scrimmage.id.0,
        ladder: ladders.get(&scrimmage.ladder).cloned().unwrap_or_default(),
        bots: scrimmage.bots.iter().map(|b| bots.get(b).cloned().unwrap_or_default()).collect(),
        state: scrimmage.state.as_str().to_owned(),
        requested_ms: scrimmage.requested_ms,
        finished_ms: scrimmage.finished_ms.unwrap_or(0),
        matches: results
            .matches
            .into_iter()
            .map(|m| pb::ScrimmageMatch {
                rotation: m.rotation,
                match_id: m.match_id,
                reason: m.reason,
                seats: m
                    .seats
                    .into_iter()
                    .map(|s| pb::ScrimmageSeat {
                        bot: s.bot,
                        place: s.place,
                        forfeit: s.forfeit,
                        version: s.version,
                    })
                    .collect(),
            })
            .collect(),
        failure: results.failure.unwrap_or_default(),
    })
}
