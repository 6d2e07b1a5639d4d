//! The hosted ladders' part of the store suite (see `suite.rs`): each check runs on every
//! backend.

use std::sync::Arc;

use cardroom_store::{
    BotId, Claim, ClaimLimit, ElsewhereQuery, FailureKind, FinishedQuery, FinishedSeat, KeyHash,
    LadderId, LadderStatus, Lease, MatchResult, MatchState, NewFailure, NewLadder, NewMatch,
    NewSet, NodeBeat, RatingUpdate, Requeue, RunningCursor, SeatResult, SetState, Store,
    StoreError, StoredRating,
};

const INITIAL: StoredRating = StoredRating { mean: 25.0, sigma: 8.0, volatility: 0.0 };

fn new_ladder(name: &str) -> NewLadder {
    NewLadder {
        name: name.into(),
        game: "gin".into(),
        options_json: "{}".into(),
        table_seats: 2,
        rating: "glicko2".into(),
        seed: u64::MAX - 1,
        provisional_sets: 3,
        config: "game = \"gin\"".into(),
    }
}

/// A store with a ladder and two bots in it.
async fn ladder_with_two_bots(store: Arc<dyn Store>) -> (Arc<dyn Store>, LadderId, [BotId; 2]) {
    let ladder = store.create_ladder(&new_ladder("gin"), 1).await.unwrap().id;
    let a = store.register_bot("a", KeyHash::of("ka"), 1).await.unwrap().id;
    let b = store.register_bot("b", KeyHash::of("kb"), 1).await.unwrap().id;
    for bot in [a, b] {
        store.enter_ladder(ladder, bot, INITIAL, 2).await.unwrap();
    }
    (store, ladder, [a, b])
}

fn set(index: u64, [a, b]: [BotId; 2]) -> NewSet {
    NewSet {
        index,
        seed: 1000 + index,
        bots: vec![a, b],
        matches: vec![
            NewMatch { rotation: 0, seed: 1000 + index, seats: vec![a, b] },
            NewMatch { rotation: 1, seed: 1000 + index, seats: vec![b, a] },
        ],
    }
}

fn lease(owner: &str, until_ms: i64) -> Lease {
    Lease { owner: owner.into(), until_ms }
}

fn result(claim: &Claim, places: [u8; 2]) -> MatchResult {
    MatchResult {
        claim: claim.clone(),
        server_match_id: format!("srv-{}-{}", claim.id.0, claim.attempt),
        seats: (0..2)
            .map(|seat| SeatResult {
                seat,
                version: "v1".into(),
                place: places[usize::from(seat)],
                forfeited: false,
                think: Default::default(),
            })
            .collect(),
        record_json: Some("{\"game\":\"gin\"}".into()),
        failures: Vec::new(),
    }
}

pub(crate) async fn ladders_are_created_once_and_a_closed_one_stays_closed(store: Arc<dyn Store>) {
    let created = store.create_ladder(&new_ladder("gin"), 5).await.unwrap();
    assert_eq!(
        (created.status, created.spec.seed, created.created_ms),
        (LadderStatus::Running, u64::MAX - 1, 5)
    );
    let again = store.create_ladder(&new_ladder("gin"), 6).await.unwrap_err();
    assert!(matches!(again, StoreError::LadderExists(name) if name == "gin"));
    assert_eq!(store.ladder("gin").await.unwrap(), Some(created.clone()));
    assert_eq!(store.ladder("other").await.unwrap(), None);
    let paused = store
        .set_ladder_status(created.id, LadderStatus::Paused, Some("maintenance"), 7)
        .await
        .unwrap();
    assert_eq!(
        (paused.status, paused.status_reason.as_deref()),
        (LadderStatus::Paused, Some("maintenance"))
    );
    store.set_ladder_status(created.id, LadderStatus::Closed, None, 8).await.unwrap();
    let refused = store.set_ladder_status(created.id, LadderStatus::Running, None, 9).await;
    assert!(matches!(refused, Err(StoreError::LadderClosed(_))));
    let reopened = store.reopen_ladder(created.id, 10).await.unwrap();
    assert_eq!((reopened.status, reopened.status_reason.as_deref()), (LadderStatus::Running, None));
    let running = store.reopen_ladder(created.id, 11).await.unwrap();
    assert_eq!(running, reopened, "a running ladder is left as it is");
    let updated = store.update_ladder_config(created.id, 9, "changed").await.unwrap();
    assert_eq!((updated.spec.provisional_sets, updated.spec.config.as_str()), (9, "changed"));
    assert_eq!(store.ladders().await.unwrap().len(), 1);
}

pub(crate) async fn a_bot_enters_once_and_keeps_its_first_pause_reason(store: Arc<dyn Store>) {
    let (store, ladder, [a, _]) = ladder_with_two_bots(store).await;
    let again =
        store.enter_ladder(ladder, a, StoredRating { mean: 0.0, ..INITIAL }, 9).await.unwrap();
    assert_eq!((again.joined_ms, again.rating), (2, INITIAL));
    store.pause_bot(ladder, a, "crashed in 3 of its last 3 matches", 10).await.unwrap();
    let paused = store.pause_bot(ladder, a, "another reason", 11).await.unwrap();
    assert_eq!(paused.paused_reason.as_deref(), Some("crashed in 3 of its last 3 matches"));
    assert_eq!(paused.paused_ms, Some(10));
    let resumed = store.resume_bot(ladder, a).await.unwrap();
    assert_eq!((resumed.paused_reason, resumed.paused_ms), (None, None));
    let missing = store.pause_bot(ladder, BotId(99), "x", 1).await.unwrap_err();
    assert!(matches!(missing, StoreError::NotInLadder { bot: 99, .. }));
}

pub(crate) async fn sets_are_planned_in_index_order_only(store: Arc<dyn Store>) {
    let (store, ladder, bots) = ladder_with_two_bots(store).await;
    let planned = store.plan_set(ladder, &set(0, bots), 3).await.unwrap();
    assert_eq!((planned.state, planned.matches.len()), (SetState::Open, 2));
    assert_eq!(
        planned.matches[1].seats.iter().map(|s| s.bot).collect::<Vec<_>>(),
        [bots[1], bots[0]]
    );
    for index in [0, 2] {
        let refused = store.plan_set(ladder, &set(index, bots), 4).await.unwrap_err();
        assert!(matches!(refused, StoreError::Conflict(_)), "{refused}");
    }
    assert_eq!(store.set_count(ladder).await.unwrap(), 1);
}

pub(crate) async fn a_stale_claim_commits_nothing(store: Arc<dyn Store>) {
    let (store, ladder, bots) = ladder_with_two_bots(store).await;
    let planned = store.plan_set(ladder, &set(0, bots), 3).await.unwrap();
    let id = planned.matches[0].id;
    let first = store.claim_match(id, &lease("run-1", 100), 10).await.unwrap();
    assert_eq!(first.attempt, 1);
    // Held under a live lease, the match cannot be claimed again.
    let busy = store.claim_match(id, &lease("run-2", 200), 50).await.unwrap_err();
    assert!(matches!(busy, StoreError::Conflict(_)));
    // The lease expires unrenewed; another host takes the match over.
    let second = store.claim_match(id, &lease("run-2", 300), 150).await.unwrap();
    assert_eq!(second.attempt, 2);
    let stale = store.finish_match(&result(&first, [1, 2]), 160).await.unwrap_err();
    assert!(matches!(stale, StoreError::StaleClaim { attempt: 1, .. }), "{stale}");
    let still = &store.open_sets(ladder).await.unwrap()[0].matches[0];
    assert_eq!((still.state, still.seats[0].place), (MatchState::Running, None));
    store.finish_match(&result(&second, [2, 1]), 170).await.unwrap();
    let done = &store.open_sets(ladder).await.unwrap()[0].matches[0];
    assert_eq!(done.state, MatchState::Done);
    assert_eq!(done.seats.iter().map(|s| s.place).collect::<Vec<_>>(), [Some(2), Some(1)]);
    assert_eq!(done.server_match_id.as_deref(), Some("srv-1-2"));
    assert!(store.ladder_record(id).await.unwrap().is_some());
    // A done match is nobody's to claim or finish again.
    assert!(store.claim_match(id, &lease("run-3", 900), 800).await.is_err());
    assert!(store.finish_match(&result(&second, [1, 2]), 171).await.is_err());
}

pub(crate) async fn renewed_leases_hold_and_a_restart_requeues_the_old_runs_matches(
    store: Arc<dyn Store>,
) {
    let (store, ladder, bots) = ladder_with_two_bots(store).await;
    let planned = store.plan_set(ladder, &set(0, bots), 3).await.unwrap();
    let (m0, m1) = (planned.matches[0].id, planned.matches[1].id);
    let claim = store.claim_match(m0, &lease("old", 100), 10).await.unwrap();
    store.claim_match(m1, &lease("other", 100), 10).await.unwrap();
    assert_eq!(store.renew_leases("old", 1_000).await.unwrap(), 1);
    assert_eq!(
        store.requeue_matches(&Requeue::Expired, 500).await.unwrap(),
        1,
        "only other's expired"
    );
    assert_eq!(store.requeue_matches(&Requeue::NotOwnedBy("new".into()), 600).await.unwrap(), 1);
    let matches = &store.open_sets(ladder).await.unwrap()[0].matches;
    assert!(matches.iter().all(|m| m.state == MatchState::Planned && m.lease_owner.is_none()));
    // The old run's result arrives late: refused.
    assert!(matches!(
        store.finish_match(&result(&claim, [1, 2]), 700).await,
        Err(StoreError::StaleClaim { .. })
    ));
    let again = store.claim_match(m0, &lease("new", 2_000), 800).await.unwrap();
    assert_eq!(again.attempt, 2);
    store.release_match(&again).await.unwrap();
    assert_eq!(store.open_sets(ladder).await.unwrap()[0].matches[0].state, MatchState::Planned);
}

pub(crate) async fn sets_are_rated_once_in_order_and_void_ones_are_skipped(store: Arc<dyn Store>) {
    let (store, ladder, bots) = ladder_with_two_bots(store).await;
    for index in 0..3 {
        store.plan_set(ladder, &set(index, bots), 3).await.unwrap();
    }
    let play = |index: usize| {
        let store = Arc::clone(&store);
        async move {
            let set = store
                .open_sets(ladder)
                .await
                .unwrap()
                .into_iter()
                .find(|s| s.index == index as u64)
                .unwrap();
            for m in &set.matches {
                let claim = store.claim_match(m.id, &lease("run", 1_000), 10).await.unwrap();
                store.finish_match(&result(&claim, [1, 2]), 20).await.unwrap();
            }
        }
    };
    let update =
        |bot, mean| RatingUpdate { bot, before: INITIAL, after: StoredRating { mean, ..INITIAL } };
    play(2).await;
    // Set 2 is complete, but sets 0 and 1 are open before it.
    let early = store.rate_set(ladder, 2, &[update(bots[0], 26.0)], 30).await.unwrap_err();
    assert!(matches!(early, StoreError::Conflict(_)), "{early}");
    // Set 1 is incomplete: not rated.
    assert!(store.rate_set(ladder, 1, &[], 30).await.is_err());
    store.void_set(ladder, 0, "bot a left the lobby", 31).await.unwrap();
    let refused = store.rate_set(ladder, 0, &[], 32).await.unwrap_err();
    assert!(matches!(refused, StoreError::Conflict(_)));
    play(1).await;
    store.rate_set(ladder, 1, &[update(bots[0], 27.0), update(bots[1], 23.0)], 40).await.unwrap();
    assert!(store.rate_set(ladder, 1, &[update(bots[0], 28.0)], 41).await.is_err(), "twice");
    store.rate_set(ladder, 2, &[update(bots[0], 28.0), update(bots[1], 22.0)], 42).await.unwrap();
    let changes = store.rating_changes(ladder).await.unwrap();
    let seen: Vec<(u64, u64, f64)> =
        changes.iter().map(|c| (c.seq, c.set_index, c.update.after.mean)).collect();
    assert_eq!(seen, [(1, 1, 27.0), (1, 1, 23.0), (2, 2, 28.0), (2, 2, 22.0)]);
    let rows = store.ladder_bots(ladder).await.unwrap();
    assert_eq!(
        rows.iter().map(|r| (r.rating.mean, r.sets_rated)).collect::<Vec<_>>(),
        [(28.0, 2), (22.0, 2)]
    );
    assert!(rows[0].is_provisional(3) && !rows[0].is_provisional(2));
    assert_eq!(
        store.rated_sets(ladder).await.unwrap().iter().map(|s| s.index).collect::<Vec<_>>(),
        [1, 2]
    );
    assert!(store.open_sets(ladder).await.unwrap().is_empty());
}

pub(crate) async fn failures_keep_what_the_bot_saw_and_answered(store: Arc<dyn Store>) {
    let (store, ladder, bots) = ladder_with_two_bots(store).await;
    let planned = store.plan_set(ladder, &set(0, bots), 3).await.unwrap();
    let claim = store.claim_match(planned.matches[0].id, &lease("run", 1_000), 10).await.unwrap();
    let mut played = result(&claim, [2, 1]);
    played.seats[0].forfeited = true;
    played.failures = vec![
        NewFailure {
            seat: 0,
            kind: FailureKind::Illegal,
            observation_json: Some("{\"hand\":[]}".into()),
            answer: Some("discard 7h".into()),
            error: "GR-7: 7h is not in the hand".into(),
        },
        NewFailure {
            seat: 0,
            kind: FailureKind::Forfeit,
            observation_json: None,
            answer: None,
            error: "out of strikes".into(),
        },
    ];
    store.finish_match(&played, 20).await.unwrap();
    // The node that lent "a" keeps its output by the server match's id and the bot's name.
    let kept = store.keep_output_by_server_id(&played.server_match_id, "a", "thinking aloud");
    assert!(kept.await.unwrap());
    assert!(!store.keep_output_by_server_id("srv-unknown", "a", "x").await.unwrap());
    assert!(!store.keep_output_by_server_id(&played.server_match_id, "nobody", "x").await.unwrap());
    let failures = store.failures(ladder, bots[0], 10).await.unwrap();
    assert!(failures.iter().all(|f| f.output.as_deref() == Some("thinking aloud")), "{failures:?}");
    assert_eq!(failures.len(), 2);
    assert_eq!(failures[1].failure, played.failures[0]);
    assert_eq!((failures[1].bot, failures[1].version.as_str()), (bots[0], "v1"));
    assert!(store.failures(ladder, bots[1], 10).await.unwrap().is_empty());
    let recent = store.recent_outcomes(ladder, bots[0], 5).await.unwrap();
    assert_eq!(recent.iter().map(|o| o.failure).collect::<Vec<_>>(), [Some(FailureKind::Illegal)]);
    let other = store.recent_outcomes(ladder, bots[1], 5).await.unwrap();
    assert_eq!(other.iter().map(|o| o.failure).collect::<Vec<_>>(), [None]);
    let seat = &store.open_sets(ladder).await.unwrap()[0].matches[0].seats[0];
    assert!(seat.forfeited);
    assert_eq!(seat.version.as_deref(), Some("v1"));
}

/// A node claims only the matches whose every bot waits in its lobby, earliest first, up to
/// its limit; a match whose lease expired is claimable again under a new attempt.
pub(crate) async fn a_node_claims_the_matches_its_ready_bots_can_play(store: Arc<dyn Store>) {
    let (store, ladder, [a, b]) = ladder_with_two_bots(store).await;
    let c = store.register_bot("c", KeyHash::of("kc"), 1).await.unwrap().id;
    store.enter_ladder(ladder, c, INITIAL, 2).await.unwrap();
    store.plan_set(ladder, &set(0, [a, b]), 3).await.unwrap();
    let owner = lease("node-1", 100);
    // Only a and c wait here: no match of set 0 has both its bots.
    assert!(
        store
            .claim_ready(ladder, &[a, c], &owner, 10, ClaimLimit::claims(8))
            .await
            .unwrap()
            .is_empty()
    );
    let first =
        store.claim_ready(ladder, &[a, b, c], &owner, 10, ClaimLimit::claims(1)).await.unwrap();
    let planned = &store.open_sets(ladder).await.unwrap()[0].matches;
    assert_eq!(first.len(), 1);
    assert_eq!((first[0].id, first[0].attempt), (planned[0].id, 1), "earliest first");
    assert_eq!(planned[0].lease_owner.as_deref(), Some("node-1"));
    let second =
        store.claim_ready(ladder, &[a, b], &owner, 10, ClaimLimit::claims(8)).await.unwrap();
    assert_eq!(second.iter().map(|c| c.id).collect::<Vec<_>>(), [planned[1].id]);
    assert!(
        store
            .claim_ready(ladder, &[a, b], &owner, 20, ClaimLimit::claims(8))
            .await
            .unwrap()
            .is_empty()
    );
    // node-1's leases lapse; node-2 takes both matches over, and node-1's results are refused.
    let taken = store
        .claim_ready(ladder, &[a, b], &lease("node-2", 500), 200, ClaimLimit::claims(8))
        .await
        .unwrap();
    assert_eq!(taken.iter().map(|c| c.attempt).collect::<Vec<_>>(), [2, 2]);
    let stale = store.finish_match(&result(&first[0], [1, 2]), 210).await.unwrap_err();
    assert!(matches!(stale, StoreError::StaleClaim { .. }), "{stale}");
    store.finish_match(&result(&taken[0], [1, 2]), 220).await.unwrap();
}

/// The scheduler's lock: a handle that leads keeps leading until it resigns.
pub(crate) async fn a_leader_keeps_its_ladder_until_it_resigns(store: Arc<dyn Store>) {
    let ladder = store.create_ladder(&new_ladder("led"), 1).await.unwrap().id;
    assert!(store.try_lead(ladder).await.unwrap());
    assert!(store.try_lead(ladder).await.unwrap(), "leading again is staying the leader");
    store.resign(ladder).await.unwrap();
    assert!(store.try_lead(ladder).await.unwrap(), "a free ladder is led again");
    store.resign(ladder).await.unwrap();
}

pub(crate) async fn node_heartbeats_tell_live_nodes_and_requeue_a_dead_ones_matches(
    store: Arc<dyn Store>,
) {
    let beat = |owner: &str, lobby: &[(&str, u32)]| NodeBeat {
        owner: owner.into(),
        advertise: format!("http://{owner}:50051"),
        lobby: lobby.iter().map(|&(name, n)| (name.to_owned(), n)).collect(),
        secret: format!("secret of {owner}"),
    };
    store.beat_node(&beat("live", &[("alice", 2)]), 100).await.unwrap();
    store.beat_node(&beat("dead", &[("bob", 1)]), 100).await.unwrap();
    // A later heartbeat replaces the lobby and keeps the start.
    store.beat_node(&beat("live", &[("alice", 1), ("bob", 1)]), 5_000).await.unwrap();
    let live = store.nodes(4_000).await.unwrap();
    assert_eq!(live.len(), 1);
    assert_eq!(live[0].beat, beat("live", &[("alice", 1), ("bob", 1)]));
    assert_eq!((live[0].started_ms, live[0].seen_ms), (100, 5_000));
    let all: Vec<String> =
        store.nodes(0).await.unwrap().into_iter().map(|n| n.beat.owner).collect();
    assert_eq!(all, ["dead", "live"]);

    // The dead node's match returns to planned, the live node's keeps running, leases unexpired.
    let (store, ladder, bots) = ladder_with_two_bots(store).await;
    let planned = store.plan_set(ladder, &set(0, bots), 3).await.unwrap();
    let (m0, m1) = (planned.matches[0].id, planned.matches[1].id);
    let dead = store.claim_match(m0, &lease("dead", 1_000_000), 10).await.unwrap();
    store.claim_match(m1, &lease("live", 1_000_000), 10).await.unwrap();
    let gone = Requeue::OwnerGone { seen_since_ms: 4_000 };
    assert_eq!(store.requeue_matches(&gone, 5_001).await.unwrap(), 1);
    let matches = &store.open_sets(ladder).await.unwrap()[0].matches;
    let states: Vec<(MatchState, Option<&str>)> =
        matches.iter().map(|m| (m.state, m.lease_owner.as_deref())).collect();
    assert_eq!(states, [(MatchState::Planned, None), (MatchState::Running, Some("live"))]);
    // Should the dead node only have been cut off, its result is refused.
    assert!(matches!(
        store.finish_match(&result(&dead, [1, 2]), 5_002).await,
        Err(StoreError::StaleClaim { .. })
    ));
}

/// The ladder's cap on running matches holds at the claim: a claim counts every node's running
/// matches whose lease holds (not one whose lease expired), and claims no more than leaves the
/// cap met.
pub(crate) async fn a_claim_keeps_the_ladders_running_matches_under_its_cap(store: Arc<dyn Store>) {
    let (store, ladder, [a, b]) = ladder_with_two_bots(store).await;
    for index in 0..3 {
        store.plan_set(ladder, &set(index, [a, b]), 3).await.unwrap();
    }
    let capped = |claims| ClaimLimit { claims, running: 3 };
    let one = store.claim_ready(ladder, &[a, b], &lease("node-1", 100), 10, capped(2)).await;
    assert_eq!(one.unwrap().len(), 2);
    // Another node: one more, to the cap of 3, however many it asks for.
    let two = store.claim_ready(ladder, &[a, b], &lease("node-2", 200), 10, capped(8)).await;
    assert_eq!(two.unwrap().len(), 1);
    assert_eq!(store.running_matches(ladder, 10).await.unwrap(), 3);
    let full = store.claim_ready(ladder, &[a, b], &lease("node-2", 200), 20, capped(8)).await;
    assert!(full.unwrap().is_empty(), "a claim past the cap");
    // node-1's two leases lapse at 100: they no longer count, and are claimable again.
    assert_eq!(store.running_matches(ladder, 150).await.unwrap(), 1);
    let again = store.claim_ready(ladder, &[a, b], &lease("node-2", 300), 150, capped(8)).await;
    assert_eq!(again.unwrap().len(), 2);
    assert_eq!(store.running_matches(ladder, 150).await.unwrap(), 3);
    // Without a cap, the rest.
    let uncapped = ClaimLimit::claims(8);
    let rest = store.claim_ready(ladder, &[a, b], &lease("node-3", 300), 150, uncapped).await;
    assert_eq!(rest.unwrap().len(), 3);
}

/// A node lists the ladder matches other live nodes host, newest started first, by cursor:
/// not its own, not one of a node no longer seen, not one whose lease expired, not one whose
/// server id is not noted yet.
pub(crate) async fn a_node_lists_the_matches_other_live_nodes_host(store: Arc<dyn Store>) {
    let (store, ladder, [a, b]) = ladder_with_two_bots(store).await;
    for index in 0..3 {
        store.plan_set(ladder, &set(index, [a, b]), 3).await.unwrap();
    }
    let beat = |owner: &str| NodeBeat {
        owner: owner.into(),
        advertise: format!("http://{owner}:50051"),
        lobby: Vec::new(),
        secret: String::new(),
    };
    for owner in ["here", "there", "gone"] {
        store.beat_node(&beat(owner), if owner == "gone" { 100 } else { 1_000 }).await.unwrap();
    }
    let open = store.open_sets(ladder).await.unwrap();
    let ids: Vec<_> = open.iter().flat_map(|s| &s.matches).map(|m| m.id).collect();
    // Claimed at 10, 20, ... by: there, there, here, gone, there (noted), there (not noted).
    let owners = ["there", "there", "here", "gone", "there", "there"];
    for (i, (&id, owner)) in ids.iter().zip(owners).enumerate() {
        let claim = store.claim_match(id, &lease(owner, 5_000), 10 * (i as i64 + 1)).await.unwrap();
        if i < 5 {
            store.note_hosting(&claim, &format!("srv-{i}")).await.unwrap();
        }
    }
    let query = |after: Option<RunningCursor>, limit: u32, now_ms: i64| ElsewhereQuery {
        except_owner: "here".into(),
        seen_since_ms: 500,
        now_ms,
        after,
        limit,
    };
    let all = store.running_elsewhere(&query(None, 10, 1_000)).await.unwrap();
    let listed: Vec<&str> = all.iter().map(|m| m.server_match_id.as_str()).collect();
    assert_eq!(listed, ["srv-4", "srv-1", "srv-0"], "newest started first");
    assert_eq!(all[0].id, ids[4]);
    assert_eq!((all[0].game.as_str(), all[0].started_ms), ("gin", 50));
    assert_eq!(all[0].bots, ["a", "b"], "seat 0 first");
    assert_eq!(all[1].bots, ["b", "a"]);
    assert_eq!((all[0].owner.as_str(), all[0].advertise.as_str()), ("there", "http://there:50051"));
    // Page by page.
    let first = store.running_elsewhere(&query(None, 2, 1_000)).await.unwrap();
    assert_eq!(first, all[..2]);
    let rest = store.running_elsewhere(&query(Some(first[1].cursor()), 2, 1_000)).await.unwrap();
    assert_eq!(rest, all[2..]);
    // Once the leases lapse, nothing is running anywhere.
    assert!(store.running_elsewhere(&query(None, 10, 6_000)).await.unwrap().is_empty());
}

/// A node lists the done ladder matches other nodes recorded, latest finished first, by
/// cursor, each with the node that recorded it (its advertised address while its row lasts),
/// not its own and not a running one; any done match is found by its server id, with its
/// result, whoever recorded it.
pub(crate) async fn a_node_lists_the_matches_other_nodes_recorded(store: Arc<dyn Store>) {
    let (store, ladder, [a, b]) = ladder_with_two_bots(store).await;
    for index in 0..3 {
        store.plan_set(ladder, &set(index, [a, b]), 3).await.unwrap();
    }
    store
        .beat_node(
            &NodeBeat {
                owner: "there".into(),
                advertise: "http://there:50051".into(),
                lobby: Vec::new(),
                secret: String::new(),
            },
            1_000,
        )
        .await
        .unwrap();
    let open = store.open_sets(ladder).await.unwrap();
    let ids: Vec<_> = open.iter().flat_map(|s| &s.matches).map(|m| m.id).collect();
    // Recorded at 100, 200, ... by: there, here, there, unseen (no row), there; the last one
    // still runs.
    let owners = ["there", "here", "there", "unseen", "there", "there"];
    let mut server_ids = Vec::new();
    for (i, (&id, owner)) in ids.iter().zip(owners).enumerate() {
        let claim = store.claim_match(id, &lease(owner, 50_000), 10).await.unwrap();
        if i < 5 {
            let done = result(&claim, [1, 2]);
            store.finish_match(&done, 100 * (i as i64 + 1)).await.unwrap();
            server_ids.push(done.server_match_id);
        } else {
            store.note_hosting(&claim, "srv-running").await.unwrap();
        }
    }
    let query = |after, limit| FinishedQuery { except_owner: "here".into(), after, limit };
    let all = store.finished_elsewhere(&query(None, 10)).await.unwrap();
    let listed: Vec<&str> = all.iter().map(|m| m.server_match_id.as_str()).collect();
    let expected = [&server_ids[4], &server_ids[3], &server_ids[2], &server_ids[0]];
    assert_eq!(listed, expected, "latest finished first, not here's, not the running one");
    assert_eq!(all[0].id, ids[4]);
    assert_eq!((all[0].game.as_str(), all[0].options_json.as_str()), ("gin", "{}"));
    assert_eq!((all[0].started_ms, all[0].finished_ms), (10, 500));
    let seat = |bot: &str, place| FinishedSeat { bot: bot.into(), place, forfeited: false };
    assert_eq!(all[0].seats, [seat("a", 1), seat("b", 2)], "seat 0 first");
    assert_eq!(
        (all[0].owner.as_str(), all[0].advertise.as_str(), all[0].seen_ms),
        ("there", "http://there:50051", Some(1_000))
    );
    // A node whose row is gone is named by its owner name alone.
    assert_eq!(
        (all[1].owner.as_str(), all[1].advertise.as_str(), all[1].seen_ms),
        ("unseen", "", None)
    );
    // Page by page.
    let first = store.finished_elsewhere(&query(None, 3)).await.unwrap();
    assert_eq!(first, all[..3]);
    let rest = store.finished_elsewhere(&query(Some(first[2].cursor()), 3)).await.unwrap();
    assert_eq!(rest, all[3..]);
    // By server id: any node's, here's too; not a running match's, not an unknown one.
    let here = store.finished_by_server_id(&server_ids[1]).await.unwrap().unwrap();
    assert_eq!((here.id, here.owner.as_str(), here.finished_ms), (ids[1], "here", 200));
    assert_eq!(here.seats, [seat("b", 1), seat("a", 2)]);
    let there = store.finished_by_server_id(&server_ids[4]).await.unwrap();
    assert_eq!(there.as_ref(), Some(&all[0]));
    assert_eq!(store.finished_by_server_id("srv-running").await.unwrap(), None);
    assert_eq!(store.finished_by_server_id("srv-unknown").await.unwrap(), None);
    assert_eq!(
        store.ladder_record(here.id).await.unwrap().as_deref(),
        Some("{\"game\":\"gin\"}"),
        "the record is read apart, by the ladder match's id"
    );
}

/// Scrimmages: requested under an author's hourly quota (counted with the request), played
/// once (pending, then running for one owner), ended with their results, given back to
/// pending when their owner went away, and listed for their author newest first.
pub(crate) async fn scrimmages_keep_their_quota_and_their_course(store: Arc<dyn Store>) {
    use cardroom_store::{ScrimmageState, StoreError};
    let (store, ladder, [a, b]) = ladder_with_two_bots(store).await;
    store.create_invite(KeyHash::of("cri_x"), 1, 1_000_000_000).await.unwrap();
    let ann = store.redeem_invite(KeyHash::of("cri_x"), "ann", KeyHash::of("t"), 1).await.unwrap();
    let now = 10_000_000;
    let tables = [(vec![a, b], 7), (vec![a, b], 8)];
    let ids = store.request_scrimmages(ladder, ann.id, &tables, 3, now).await.unwrap();
    assert_eq!(ids.len(), 2);
    let over = store.request_scrimmages(ladder, ann.id, &tables, 3, now + 60_000).await;
    match over.unwrap_err() {
        StoreError::OverQuota { used: 2, asked: 2, quota: 3, retry_after_ms } => {
            assert_eq!(retry_after_ms, 3_600_000 - 60_000);
        }
        other => panic!("{other}"),
    }
    // An hour on, the quota is free again.
    let later = now + 3_600_001;
    store.request_scrimmages(ladder, ann.id, &tables[..1], 3, later).await.unwrap();

    let pending = store.ladder_scrimmages(ladder, ScrimmageState::Pending).await.unwrap();
    assert_eq!(pending.len(), 3);
    assert_eq!((pending[0].bots.clone(), pending[0].seed), (vec![a, b], 7));
    assert!(store.start_scrimmage(ids[0], "node-1").await.unwrap());
    assert!(!store.start_scrimmage(ids[0], "node-2").await.unwrap(), "started once");
    assert!(store.start_scrimmage(ids[1], "node-1").await.unwrap());
    store.end_scrimmage(ids[1], ScrimmageState::Done, "[]", later).await.unwrap();
    // Its owner went away: the running one is pending again; a done one stays done.
    assert_eq!(store.requeue_scrimmages(ladder, "node-2").await.unwrap(), 1);
    assert_eq!(store.requeue_scrimmages(ladder, "node-2").await.unwrap(), 0);
    let mine = store.author_scrimmages(ann.id, 10).await.unwrap();
    let states: Vec<ScrimmageState> = mine.iter().map(|s| s.state).collect();
    use ScrimmageState::{Done, Pending};
    assert_eq!(states, [Pending, Done, Pending], "newest first");
    let done = store.scrimmage(ids[1]).await.unwrap().unwrap();
    assert_eq!((done.results.as_deref(), done.finished_ms), (Some("[]"), Some(later)));
}

/// Seasons: made once and given a new file only before their deadline; each state change
/// taken once, with its event; events go to the seasons of a ladder or to every season not
/// done, and an author reads the public ones and their own; a bot entered in a season's ladder is
/// frozen from the deadline until the season is done.
pub(crate) async fn seasons_change_state_once_and_keep_their_feed(store: Arc<dyn Store>) {
    use cardroom_store::{
        EventScope, NewSeason, NewSeasonEvent, SeasonChange, SeasonEventKind, SeasonState,
    };
    let (store, _, [a, _]) = ladder_with_two_bots(store).await;
    let stray = store.register_bot("stray", KeyHash::of("ks"), 1).await.unwrap().id;
    store.create_invite(KeyHash::of("cri_s"), 1, 1_000_000_000).await.unwrap();
    let ann = store.redeem_invite(KeyHash::of("cri_s"), "ann", KeyHash::of("t"), 1).await.unwrap();
    let event =
        |kind, text: &str| NewSeasonEvent { kind, author: None, bot: None, text: text.to_owned() };
    let new = NewSeason {
        name: "winter".into(),
        config: "name = \"winter\"".into(),
        ladders: vec!["gin".into(), "other".into()],
        deadline_ms: 5_000,
    };
    let made =
        store.put_season(&new, &event(SeasonEventKind::Changed, "opened"), 10).await.unwrap();
    assert_eq!((made.state, made.ladders.clone()), (SeasonState::Open, new.ladders.clone()));
    // A new deadline before the old one passed; never after.
    let moved = NewSeason { deadline_ms: 2_000, ladders: vec!["gin".into()], ..new.clone() };
    let season =
        store.put_season(&moved, &event(SeasonEventKind::Changed, "moved"), 20).await.unwrap();
    assert_eq!((season.id, season.deadline_ms, season.ladders.len()), (made.id, 2_000, 1));
    let late = store.put_season(&new, &event(SeasonEventKind::Changed, "late"), 2_000).await;
    assert!(matches!(late, Err(StoreError::Conflict(ref why)) if why.contains("deadline")));

    // Frozen from the deadline on, for a bot entered in one of its ladders only.
    assert!(store.frozen_seasons(a, 1_999).await.unwrap().is_empty());
    let frozen = store.frozen_seasons(a, 2_000).await.unwrap();
    assert_eq!(frozen.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(), ["winter"]);
    assert!(store.frozen_seasons(stray, 2_000).await.unwrap().is_empty());

    // Events by ladder, by bot; an author's own are theirs alone.
    let paused = event(SeasonEventKind::Paused, "a paused");
    assert_eq!(
        store.note_season_event(EventScope::Ladder("gin".into()), &paused, 30).await.unwrap(),
        1
    );
    assert_eq!(
        store.note_season_event(EventScope::Ladder("x".into()), &paused, 30).await.unwrap(),
        0
    );
    let own = NewSeasonEvent {
        author: Some(ann.id),
        bot: Some("a".into()),
        ..event(SeasonEventKind::Submitted, "a submitted")
    };
    assert_eq!(store.note_season_event(EventScope::Unfinished, &own, 40).await.unwrap(), 1);
    let public = store
        .season_events(season.id, cardroom_store::EventsFrom::After(0), None, 100)
        .await
        .unwrap();
    let texts = |events: &[cardroom_store::SeasonEvent]| {
        events.iter().map(|e| e.text.clone()).collect::<Vec<_>>()
    };
    assert_eq!(texts(&public), ["opened", "moved", "a paused"]);
    let newest = cardroom_store::EventsFrom::Newest;
    let tail = store.season_events(season.id, newest, None, 2).await.unwrap();
    assert_eq!(texts(&tail), ["moved", "a paused"], "the newest, oldest first");
    let hers = store
        .season_events(
            season.id,
            cardroom_store::EventsFrom::After(public[0].id),
            Some(ann.id),
            100,
        )
        .await
        .unwrap();
    assert_eq!(texts(&hers), ["moved", "a paused", "a submitted"]);
    assert_eq!(hers[2].bot.as_deref(), Some("a"));

    // Each step once: of two callers, one takes it.
    let finals = SeasonChange {
        finals_ladder: Some("winter-finals".into()),
        finalists: Some("{}".into()),
        outcome: None,
    };
    let started = event(SeasonEventKind::FinalsStarted, "finals");
    let open = [SeasonState::Open, SeasonState::Closing];
    let first = store.advance_season(season.id, &open, SeasonState::Finals, &finals, &started, 50);
    assert!(first.await.unwrap());
    let second = store.advance_season(season.id, &open, SeasonState::Finals, &finals, &started, 51);
    assert!(!second.await.unwrap());
    let season = store.season("winter").await.unwrap().unwrap();
    assert_eq!(season.state, SeasonState::Finals);
    assert_eq!(season.ladders, ["gin", "winter-finals"]);
    assert_eq!(season.finals_ladder.as_deref(), Some("winter-finals"));
    let outcome = SeasonChange { outcome: Some("{\"settled\":true}".into()), ..Default::default() };
    let finished = event(SeasonEventKind::FinalsFinished, "done");
    let done = [SeasonState::Finals];
    assert!(
        store
            .advance_season(season.id, &done, SeasonState::Done, &outcome, &finished, 60)
            .await
            .unwrap()
    );
    let season = store.season("winter").await.unwrap().unwrap();
    assert_eq!(season.outcome.as_deref(), Some("{\"settled\":true}"));
    assert_eq!(season.finalists.as_deref(), Some("{}"), "kept from the step before");
    // Done: nothing is frozen, and no event goes to it.
    assert!(store.frozen_seasons(a, 100).await.unwrap().is_empty());
    assert_eq!(
        store.note_season_event(EventScope::Ladder("gin".into()), &paused, 70).await.unwrap(),
        0
    );
    assert_eq!(store.note_season_event(EventScope::Unfinished, &own, 70).await.unwrap(), 0);
    assert_eq!(store.seasons().await.unwrap().len(), 1);
    // The webhook's cursor moves once from where it was.
    assert_eq!(season.webhook_sent, 0);
    use cardroom_store::SeasonCursor::{Promotions, Webhook};
    assert!(store.move_season_cursor(season.id, Webhook, 0, 3, None, 80).await.unwrap());
    let again = store.move_season_cursor(season.id, Webhook, 0, 4, None, 80);
    assert!(!again.await.unwrap(), "moved already");
    let moved = event(SeasonEventKind::Moved, "a up");
    assert!(store.move_season_cursor(season.id, Promotions, 0, 1, Some(&moved), 90).await.unwrap());
    let twice = store.move_season_cursor(season.id, Promotions, 0, 1, Some(&moved), 90);
    assert!(!twice.await.unwrap(), "once, with its event");
    let season = store.season("winter").await.unwrap().unwrap();
    assert_eq!((season.webhook_sent, season.promotions_done), (3, 1));
    let last = store
        .season_events(season.id, cardroom_store::EventsFrom::After(0), None, 100)
        .await
        .unwrap()
        .pop()
        .unwrap();
    assert_eq!((last.kind, last.text.as_str()), (SeasonEventKind::Moved, "a up"));
}
