//! The import of old arena files into the one store: three files made by the old
//! `cardroom arena run` (tests/fixtures/), imported into SQLite and PostgreSQL stores, checked
//! against the old files read here on their own: the ladder, its bots, its sets and matches, the
//! records (replayed by the engines), the ratings and the standings; and the refusals.
#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::sync::Arc;

use cardroom_arena::hosted::{HostedLadderFile, Schedule};
use cardroom_arena::{ImportError, import_arena_file};
use cardroom_games::{AnyRecord, Game, Record, RecordVisitor};
use cardroom_store::testing::{fresh_schema_url, test_pg_url};
use cardroom_store::{Accounts, LadderStatus, PgStore, SqliteStore, Store, leaderboard_order};
use rusqlite::{Connection, OpenFlags};

/// A copy of the committed fixture `name` in a temporary directory: SQLite may make its
/// `-shm` and `-wal` files beside a WAL database it reads, and the committed files stay as
/// they are.
fn fixture(name: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    let committed = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(name);
    std::fs::copy(committed, &path).unwrap();
    (dir, path)
}

/// What a fixture is, as its maker knows it.
struct Expected {
    file: &'static str,
    game: &'static str,
    seats: u8,
    bots: usize,
    matches: u64,
    sets: u64,
    schedule: Schedule,
    rounds: Option<u32>,
    max_sets: Option<u64>,
    stop_when_settled: bool,
    max_rotations: Option<usize>,
    rating: &'static str,
}

const FIXTURES: [Expected; 3] = [
    Expected {
        file: "old-arena-twenty-two.sqlite",
        game: "twenty_two",
        seats: 2,
        bots: 3,
        matches: 12,
        sets: 6,
        schedule: Schedule::RoundRobin,
        rounds: Some(2),
        max_sets: None,
        stop_when_settled: false,
        max_rotations: None,
        rating: "glicko2",
    },
    Expected {
        file: "old-arena-gin.sqlite",
        game: "gin",
        seats: 2,
        bots: 2,
        matches: 6,
        sets: 3,
        schedule: Schedule::LeastCertain,
        rounds: None,
        max_sets: Some(3),
        stop_when_settled: false,
        max_rotations: None,
        rating: "glicko2",
    },
    Expected {
        file: "old-arena-twenty-two-4.sqlite",
        game: "twenty_two",
        seats: 4,
        bots: 4,
        matches: 6,
        sets: 3,
        schedule: Schedule::Adaptive,
        rounds: None,
        max_sets: Some(3),
        stop_when_settled: true,
        max_rotations: Some(2),
        rating: "weng_lin",
    },
];

/// An old bot as the old file keeps it.
struct OldBot {
    name: String,
    mean: f64,
    sigma: f64,
}

/// An old done match: its seats (old bot indices), places by seat, and record.
struct OldMatch {
    seats: Vec<usize>,
    places: Vec<u8>,
    record: String,
}

/// The old file read on its own, with SQL of this test's: its bots and its done matches, in
/// set order.
struct Old {
    bots: Vec<OldBot>,
    matches: Vec<OldMatch>,
    options: serde_json::Value,
}

fn read_old(path: &Path) -> Old {
    let conn = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY).unwrap();
    let mut stmt = conn.prepare("SELECT name, mean, sigma FROM bots ORDER BY id").unwrap();
    let bots = stmt
        .query_map([], |r| Ok(OldBot { name: r.get(0)?, mean: r.get(1)?, sigma: r.get(2)? }))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let mut stmt = conn
        .prepare(
            "SELECT seats, outcome, record FROM matches WHERE status = 'done'
             ORDER BY set_id, id",
        )
        .unwrap();
    let rows: Vec<(String, String, String)> = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let matches: Vec<OldMatch> = rows
        .into_iter()
        .map(|(seats, outcome, record)| {
            let outcome: serde_json::Value = serde_json::from_str(&outcome).unwrap();
            let places = outcome["places"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p[1].as_u64().unwrap() as u8)
                .collect();
            OldMatch { seats: serde_json::from_str(&seats).unwrap(), places, record }
        })
        .collect();
    let first: serde_json::Value = serde_json::from_str(&matches[0].record).unwrap();
    Old { bots, matches, options: first["options"].clone() }
}

/// Replays a record with its game's engine: each seat's final place, by seat.
struct FinalPlaces;

impl RecordVisitor for FinalPlaces {
    type Output = Vec<u8>;
    fn visit<G: Game>(self, record: &Record<G>) -> Vec<u8> {
        let state = record.replay().unwrap_or_else(|_| panic!("the record does not replay"));
        let mut standings = state.standings().expect("the replayed match is over");
        standings.sort_by_key(|s| s.seat.index());
        standings.iter().map(|s| s.place).collect()
    }
}

/// Imports `expected`'s fixture into `store` as `name` and checks what a user relies on.
async fn import_and_check(store: &Arc<dyn Store>, expected: &Expected, name: &str) {
    let (_dir, path) = fixture(expected.file);
    let old = read_old(&path);
    let imported = import_arena_file(&path, store, name).await.unwrap();
    assert_eq!(
        (imported.ladder.as_str(), imported.sets, imported.matches),
        (name, expected.sets, expected.matches),
        "{imported}"
    );
    assert_eq!((imported.incomplete_sets, imported.byes), (0, 0));
    let names: Vec<&str> = old.bots.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(imported.bots, names);
    assert_eq!(names.len(), expected.bots);
    let shown = imported.to_string();
    assert!(shown.contains(&format!("{} matches", expected.matches)), "{shown}");

    // The ladder: paused, saying whence, with the old game, table, options and format.
    let ladder = store.ladder(name).await.unwrap().unwrap();
    assert_eq!(ladder.status, LadderStatus::Paused);
    assert_eq!(ladder.status_reason, Some(format!("imported from {}", path.display())));
    assert_eq!(
        (ladder.spec.game.as_str(), ladder.spec.table_seats, ladder.spec.rating.as_str()),
        (expected.game, expected.seats, expected.rating)
    );
    let options: serde_json::Value = serde_json::from_str(&ladder.spec.options_json).unwrap();
    assert_eq!(options, old.options);
    let file = HostedLadderFile::parse(&ladder.spec.config).unwrap();
    assert_eq!(
        (file.name.as_str(), file.game.name(), file.seats),
        (name, expected.game, expected.seats)
    );
    assert_eq!(
        (file.schedule, file.rounds, file.max_sets, file.stop_when_settled),
        (expected.schedule, expected.rounds, expected.max_sets, expected.stop_when_settled),
        "{}",
        ladder.spec.config
    );
    assert_eq!(file.max_rotations, expected.max_rotations);
    assert_eq!(file.bots.as_deref().map(|b| b.to_vec()), Some(imported.bots.clone()));
    assert_eq!(file.options_json(), ladder.spec.options_json);

    // Every bot, each an account of the store, in the ladder.
    let rows = store.ladder_bots(ladder.id).await.unwrap();
    let mut in_ladder: Vec<&str> = rows.iter().map(|r| r.name.as_str()).collect();
    in_ladder.sort_unstable();
    let mut sorted = names.clone();
    sorted.sort_unstable();
    assert_eq!(in_ladder, sorted);
    let id_of = |name: &str| rows.iter().find(|r| r.name == name).unwrap().bot;

    // Every old match in a rated set, in order, with its seats, places and record, which
    // replays to those places.
    let rated = store.rated_sets(ladder.id).await.unwrap();
    assert_eq!(rated.len() as u64, expected.sets);
    assert_eq!(store.set_count(ladder.id).await.unwrap(), expected.sets);
    let stored: Vec<_> = rated.iter().flat_map(|s| &s.matches).collect();
    assert_eq!(stored.len() as u64, expected.matches);
    for (m, old_match) in stored.iter().zip(&old.matches) {
        let seats: Vec<_> = m.seats.iter().map(|s| s.bot).collect();
        let old_seats: Vec<_> = old_match.seats.iter().map(|&b| id_of(&old.bots[b].name)).collect();
        assert_eq!(seats, old_seats);
        let places: Vec<u8> = m.seats.iter().map(|s| s.place.unwrap()).collect();
        assert_eq!(places, old_match.places);
        let record = store.ladder_record(m.id).await.unwrap().unwrap();
        assert_eq!(record, old_match.record);
        let replayed = AnyRecord::from_json(&record).unwrap();
        assert_eq!(replayed.kind().name(), expected.game);
        assert_eq!(replayed.visit(FinalPlaces), places);
        assert!(m.finished_ms.is_some());
    }

    // The ratings are the old ones (the same maths, set by set), so the leaderboard agrees
    // with the old order wherever the old ratings are clearly apart.
    let lines = store.leaderboard(ladder.id).await.unwrap();
    for bot in &old.bots {
        let line = lines.iter().find(|l| l.name == bot.name).unwrap();
        assert!((line.rating.mean - bot.mean).abs() < 1e-6, "{}: {:?}", bot.name, line.rating);
        assert!((line.rating.sigma - bot.sigma).abs() < 1e-6, "{}: {:?}", bot.name, line.rating);
    }
    let matches_played: u64 = lines.iter().map(|l| l.matches).sum();
    assert_eq!(matches_played, expected.matches * u64::from(expected.seats));
    let standings = store.standings(ladder.id).await.unwrap().expect("a standings snapshot");
    assert_eq!((standings.revision, standings.sets), (expected.sets, expected.sets));
    assert_eq!(standings.rows.len(), expected.bots);
    let order = leaderboard_order(&lines, |bot| standings.position(bot));
    let rank = |name: &str| order.iter().position(|&i| lines[i].name == name).unwrap();
    let mut apart = 0;
    for a in &old.bots {
        for b in &old.bots {
            if a.mean - b.mean > a.sigma.max(b.sigma) {
                apart += 1;
                assert!(rank(&a.name) < rank(&b.name), "{} above {}", a.name, b.name);
            }
        }
    }
    assert!(apart > 0, "{}: no two bots clearly apart", expected.file);

    // The same name again is refused, and nothing is written.
    let ladders = store.ladders().await.unwrap();
    let accounts = store.bots().await.unwrap();
    let again = import_arena_file(&path, store, name).await.unwrap_err();
    assert!(matches!(&again, ImportError::LadderExists { ladder } if ladder == name), "{again}");
    assert!(again.to_string().contains("nothing was imported"), "{again}");
    assert_eq!(store.ladders().await.unwrap(), ladders);
    assert_eq!(store.bots().await.unwrap(), accounts);
    assert_eq!(store.set_count(ladder.id).await.unwrap(), expected.sets);
}

/// Every fixture into one store, as an operator imports a directory of old files: the bots
/// the files share are one account each.
async fn import_every_fixture(store: Arc<dyn Store>) {
    for (i, expected) in FIXTURES.iter().enumerate() {
        import_and_check(&store, expected, &format!("old-{i}")).await;
    }
    let names: Vec<String> = store.bots().await.unwrap().into_iter().map(|b| b.name).collect();
    assert_eq!(names, ["gin-heuristic", "random", "random-2", "random-3", "tt-heuristic"]);
}

#[tokio::test]
async fn old_files_import_whole_into_sqlite() {
    import_every_fixture(Arc::new(SqliteStore::in_memory().await.unwrap())).await;
}

#[tokio::test]
async fn old_files_import_whole_into_postgres() {
    let Some(base) = test_pg_url("old_files_import_whole_into_postgres") else { return };
    let url = fresh_schema_url(&base).await.unwrap();
    import_every_fixture(Arc::new(PgStore::connect(&url).await.unwrap())).await;
}

#[tokio::test]
async fn an_existing_account_is_used_and_new_ones_are_registered() {
    let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().await.unwrap());
    let accounts = Accounts::new(Arc::clone(&store));
    let random = accounts.register("random").await.unwrap().bot;
    let (_dir, path) = fixture("old-arena-twenty-two.sqlite");
    let imported = import_arena_file(&path, &store, "tt").await.unwrap();
    assert_eq!(imported.registered, ["tt-heuristic", "random-2"]);
    let shown = imported.to_string();
    assert!(shown.contains("tt-heuristic, random-2") && shown.contains("bots rotate"), "{shown}");
    let rows = store.ladder_bots(imported.ladder_id).await.unwrap();
    assert_eq!(rows.iter().find(|r| r.name == "random").unwrap().bot, random.id);
}

#[tokio::test]
async fn incomplete_sets_and_byes_are_skipped_and_counted() {
    let (_dir, path) = fixture("old-arena-twenty-two.sqlite");
    {
        let conn = Connection::open(&path).unwrap();
        // The last set's second match not played, and a Swiss-style bye after it.
        conn.execute_batch(
            "UPDATE matches SET status = 'pending', outcome = NULL, record = NULL
                 WHERE id = (SELECT MAX(id) FROM matches);
             INSERT INTO deal_sets (round, bots, paired, rated) VALUES (2, '[1]', NULL, 1);",
        )
        .unwrap();
    }
    let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().await.unwrap());
    let imported = import_arena_file(&path, &store, "tt").await.unwrap();
    assert_eq!((imported.sets, imported.matches), (5, 10));
    assert_eq!((imported.incomplete_sets, imported.byes), (1, 1));
    assert!(imported.to_string().contains("1 sets with a match not done, 1 Swiss byes"));
    let rated = store.rated_sets(imported.ladder_id).await.unwrap();
    assert_eq!(rated.iter().map(|s| s.index).collect::<Vec<_>>(), [0, 1, 2, 3, 4]);
    assert!(store.open_sets(imported.ladder_id).await.unwrap().is_empty());
}

#[tokio::test]
async fn an_import_that_fails_midway_says_so_and_leaves_the_ladder_paused() {
    let (_dir, path) = fixture("old-arena-twenty-two.sqlite");
    {
        let conn = Connection::open(&path).unwrap();
        conn.execute(
            "UPDATE matches SET outcome = '{\"places\": \"none\"}'
             WHERE set_id = (SELECT id FROM deal_sets ORDER BY id LIMIT 1 OFFSET 2)",
            [],
        )
        .unwrap();
    }
    let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().await.unwrap());
    let failed = import_arena_file(&path, &store, "tt").await.unwrap_err();
    let ImportError::Incomplete { sets, of, cause, .. } = &failed else { panic!("{failed}") };
    assert_eq!((*sets, *of), (2, 6));
    assert!(matches!(**cause, ImportError::Corrupt { .. }), "{cause}");
    let message = failed.to_string();
    assert!(message.contains("outcome cannot be read"), "{message}");
    assert!(message.contains("incomplete and paused"), "{message}");
    let ladder = store.ladder("tt").await.unwrap().unwrap();
    assert_eq!(ladder.status, LadderStatus::Paused);
    assert!(ladder.status_reason.unwrap().contains("it is incomplete"));
    assert_eq!(store.rated_sets(ladder.id).await.unwrap().len(), 2);
}

#[tokio::test]
async fn an_sprt_ladder_carries_its_test_into_the_standings() {
    let (_dir, path) = fixture("old-arena-twenty-two.sqlite");
    Connection::open(&path)
        .unwrap()
        .execute(
            "UPDATE ladder SET config = json_set(config, '$.format', json(?1))",
            [r#"{"kind":"sprt","a":"tt-heuristic","b":"random","max_sets":40,"sprt":{"elo1":80.0}}"#],
        )
        .unwrap();
    let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().await.unwrap());
    let imported = import_arena_file(&path, &store, "sprt").await.unwrap();
    let ladder = store.ladder("sprt").await.unwrap().unwrap();
    let file = HostedLadderFile::parse(&ladder.spec.config).unwrap();
    let sprt = file.sprt.unwrap();
    assert_eq!((sprt.a.as_str(), sprt.b.as_str(), sprt.elo1), ("tt-heuristic", "random", 80.0));
    assert_eq!(file.max_sets, Some(40));
    let standings = store.standings(imported.ladder_id).await.unwrap().unwrap();
    let test = standings.sprt.expect("the SPRT's state");
    let rows = store.ladder_bots(imported.ladder_id).await.unwrap();
    let id_of = |name: &str| rows.iter().find(|r| r.name == name).unwrap().bot;
    assert_eq!((test.a, test.b), (id_of("tt-heuristic"), id_of("random")));
    // One sample per set holding both: one a round, two rounds.
    assert_eq!(test.samples, 2);
}

#[tokio::test]
async fn files_that_are_not_old_arena_files_are_refused_with_what_they_are() {
    let dir = tempfile::tempdir().unwrap();
    let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().await.unwrap());
    let refused = |path: PathBuf| {
        let store = Arc::clone(&store);
        async move {
            let error = import_arena_file(&path, &store, "old").await.unwrap_err();
            let message = error.to_string();
            assert!(message.contains(&path.display().to_string()), "{message}");
            error
        }
    };

    let missing = refused(dir.path().join("missing.sqlite")).await;
    assert!(matches!(missing, ImportError::Unreadable { .. }), "{missing}");
    assert!(!dir.path().join("missing.sqlite").exists(), "a read-only open makes no file");

    let noise = dir.path().join("noise.sqlite");
    std::fs::write(&noise, (0..4096u32).map(|i| (i * 7919 % 251) as u8).collect::<Vec<_>>())
        .unwrap();
    let error = refused(noise).await;
    assert!(error.to_string().contains("not a SQLite database"), "{error}");

    let cardroom = dir.path().join("cardroom.sqlite");
    drop(SqliteStore::open(cardroom.clone()).await.unwrap());
    let error = refused(cardroom).await;
    assert!(matches!(error, ImportError::NotArenaFile { .. }), "{error}");
    assert!(error.to_string().contains("it is a cardroom store"), "{error}");

    let empty = dir.path().join("empty.sqlite");
    std::fs::write(&empty, b"").unwrap();
    let error = refused(empty).await;
    assert!(error.to_string().contains("none of the old arena's tables"), "{error}");

    let (_fixture_dir, newer) = fixture("old-arena-gin.sqlite");
    Connection::open(&newer).unwrap().pragma_update(None, "user_version", 2).unwrap();
    let error = refused(newer).await;
    assert!(matches!(error, ImportError::UnknownVersion { found: 2, known: 1, .. }), "{error}");

    let (_fixture_dir, fine) = fixture("old-arena-gin.sqlite");
    let error = import_arena_file(&fine, &store, "a name with spaces").await.unwrap_err();
    assert!(matches!(error, ImportError::Ladder { .. }), "{error}");
    assert!(error.to_string().contains("`name`"), "{error}");

    // Nothing of any of them reached the store.
    assert!(store.ladders().await.unwrap().is_empty());
    assert!(store.bots().await.unwrap().is_empty());
}
