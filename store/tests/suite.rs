//! One test suite for every store: each check is a function over `Arc<dyn Store>`, run against
//! SQLite in memory, against a SQLite file (its reads on its reader connections) and against
//! PostgreSQL (a fresh schema of the test cluster
//! that `CARDROOM_TEST_PG` names: see `cardroom_store::testing`).
#![allow(clippy::unwrap_used)]

use std::sync::Arc;

use cardroom_store::{SqliteStore, Store};

#[path = "suite/accounts.rs"]
mod accounts;
#[path = "suite/ladders.rs"]
mod ladders;
#[path = "suite/reads.rs"]
mod reads;
#[path = "suite/standings.rs"]
mod standings;
#[path = "suite/submissions.rs"]
mod submissions;

/// Instantiates every check of the suite for one backend: `$open` is an async function of the
/// test's name giving `Option<Arc<dyn Store>>` (`None`: the backend's tests are skipped, as
/// said).
macro_rules! suite {
    ($backend:ident, $open:path) => {
        mod $backend {
            suite!(@checks $open, ladders;
                ladders_are_created_once_and_a_closed_one_stays_closed,
                a_bot_enters_once_and_keeps_its_first_pause_reason,
                sets_are_planned_in_index_order_only,
                a_stale_claim_commits_nothing,
                renewed_leases_hold_and_a_restart_requeues_the_old_runs_matches,
                sets_are_rated_once_in_order_and_void_ones_are_skipped,
                failures_keep_what_the_bot_saw_and_answered,
                a_node_claims_the_matches_its_ready_bots_can_play,
                a_leader_keeps_its_ladder_until_it_resigns,
                node_heartbeats_tell_live_nodes_and_requeue_a_dead_ones_matches,
                a_claim_keeps_the_ladders_running_matches_under_its_cap,
                a_node_lists_the_matches_other_live_nodes_host,
                a_node_lists_the_matches_other_nodes_recorded,
                scrimmages_keep_their_quota_and_their_course,
                seasons_change_state_once_and_keep_their_feed,
            );
            suite!(@checks $open, reads;
                the_leaderboard_sums_each_bots_matches_wins_and_failures,
                a_bots_matches_page_newest_first_by_cursor,
                history_head_to_head_and_versions_are_the_bots_own,
                think_times_merge_a_bots_latest_matches_per_version,
            );
            suite!(@checks $open, standings;
                standings_are_replaced_whole_and_never_by_an_older_revision,
            );
            suite!(@checks $open, accounts;
                registering_keeps_the_hash_and_refuses_a_taken_name,
                bots_are_listed_by_name,
                revoking_and_replacing_a_key,
                a_key_hash_belongs_to_one_bot,
                a_version_keeps_its_first_sighting_and_moves_its_last,
                a_flood_of_versions_keeps_the_last_ones_and_a_count,
                concurrent_registrations_commit_whole,
                an_invite_makes_one_author_who_owns_the_bots_registered_for_it,
            );
            suite!(@checks $open, submissions;
                the_newest_submission_plays_and_the_same_archive_is_one_row,
                old_submissions_stay_listed_and_lose_their_archives,
            );
        }
    };
    (@checks $open:path, $module:ident; $($check:ident),* $(,)?) => {
        $(
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $check() {
                if let Some(store) = $open(stringify!($check)).await {
                    crate::$module::$check(store).await;
                }
            }
        )*
    };
}

async fn sqlite(_test: &'static str) -> Option<Arc<dyn Store>> {
    Some(Arc::new(SqliteStore::in_memory().await.unwrap()))
}

/// A SQLite file, whose reads run on its reader connections beside the writer.
async fn sqlite_file(test: &'static str) -> Option<Arc<dyn Store>> {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("store-suite");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{test}.sqlite"));
    for stale in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{stale}", path.display()));
    }
    Some(Arc::new(SqliteStore::open(path).await.unwrap()))
}

async fn postgres(test: &'static str) -> Option<Arc<dyn Store>> {
    let store = cardroom_store::testing::fresh_pg_store(test).await?;
    Some(Arc::new(store))
}

suite!(on_sqlite, crate::sqlite);
suite!(on_sqlite_file, crate::sqlite_file);
suite!(on_postgres, crate::postgres);

/// Migration 10's counts, kept by each result, equal a recount of what the store holds (the
/// migration's own count of an older store's matches), on a SQLite file read raw.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_kept_leaderboard_counts_equal_a_recount_of_the_stored_matches() {
    let test = "kept_leaderboard_counts";
    let store = sqlite_file(test).await.unwrap();
    let (store, ladder, _) = crate::reads::played(store, 4).await;
    let kept = store.leaderboard(ladder).await.unwrap();
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("store-suite")
        .join(format!("{test}.sqlite"));
    let raw = rusqlite::Connection::open(&path).unwrap();
    raw.execute_batch(
        "UPDATE ladder_bots SET matches_done = 0, wins = 0, crashes = 0, forfeits = 0, \
         illegal = 0, timeouts = 0",
    )
    .unwrap();
    assert!(store.leaderboard(ladder).await.unwrap().iter().all(|l| l.matches == 0));
    raw.execute_batch(cardroom_store::testing::LEADERBOARD_RECOUNT).unwrap();
    assert_eq!(store.leaderboard(ladder).await.unwrap(), kept);
    assert!(kept.iter().any(|l| l.matches > 0 && l.health.illegal > 0), "{kept:?}");
}
