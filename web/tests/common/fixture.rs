//! The pages' one fixture: a store holding three hosted ladders, each played in process by the
//! example bots (real, verified records) and written through the store's own methods, as a
//! hosted ladder's runner writes them (planned in duplicate sets, each match claimed and
//! finished under its claim, each set rated by the runner's `rate_set`): what `cardroom serve
//! --store` shows, without a server playing it.
//!
//! - [`TT`]: Twenty-Two at two seats, a round robin of duplicate sets among three bots, one of
//!   them named [`EVIL_NAME`]. Its first match has a failure of that bot whose answer and error
//!   are markup ([`EVIL_ANSWER`], [`EVIL_ERROR`]). Every seat timed two decisions. A last set
//!   is open, its first match running. No standings snapshot: the pages work the standings
//!   out from the rated sets.
//! - [`GIN_SPRT`]: Gin Rummy, an SPRT of `gin-heuristic` against `random` over two sets, with
//!   the standings snapshot and the SPRT's state as the runner writes them.
//! - [`LONG`]: Gin Rummy to 120 points, one set between two heuristic bots named
//!   [`DIGITS_NAME`] and [`WEIRD_NAME`]; its longer match has at least [`LONG_STEPS`] steps.

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::Router;
use cardroom_arena::hosted::{Evidence, HostedLadderFile, rate_set, sprt_standing};
use cardroom_example_bots::catalogue::{ExampleGame, ExampleVisitor, visit};
use cardroom_games::{AnyRecord, Record, gin};
use cardroom_rank::Rating;
use cardroom_rank::duplicate::{derive_seed, rotations};
use cardroom_sdk::{Bot, MAX_LOCAL_DECISIONS, play_local_report};
use cardroom_store::{
    Accounts, BotId, Claim, FailureKind, KeyHash, LadderId, LadderMatchId, Lease, MatchResult,
    NewFailure, NewMatch, NewSet, SeatResult, SqliteStore, Store, StoredRating, ThinkSummary,
};
use cardroom_web::{StoreSource, WebConfig};

use super::{DIGITS_NAME, EVIL_NAME, LONG_STEPS, WEIRD_NAME};

/// The Twenty-Two ladder.
pub const TT: &str = "tt";
/// The Gin Rummy SPRT ladder.
pub const GIN_SPRT: &str = "gin-sprt";
/// The ladder of the long Gin Rummy matches.
pub const LONG: &str = "long";

/// What the failure's answer says: markup, to check that the failures are escaped.
pub const EVIL_ANSWER: &str = "<img src=x onerror=alert(1)>";

/// What the failure's error says: markup too.
pub const EVIL_ERROR: &str = "TT-12: <must follow>";

/// The observation the failure had.
pub const EVIL_OBSERVATION: &str = "{\"hand\":[\"7h\"]}";

/// The bots, each an account name and the built-in bot that plays under it, registered in this
/// order: [`WEIRD_NAME`]'s account id is 1, the number [`DIGITS_NAME`] names.
const BOTS: [(&str, &str); 6] = [
    (WEIRD_NAME, "gin-heuristic"),
    (DIGITS_NAME, "gin-heuristic"),
    ("tt-heuristic", "tt-heuristic"),
    (EVIL_NAME, "tt-heuristic"),
    ("random", "random"),
    ("gin-heuristic", "gin-heuristic"),
];

/// The ladders' files, as `cardroom serve --ladder` reads them, and each one's tables in set
/// order.
const LADDERS: [(&str, &[&[&str]]); 3] = [
    (
        "name = \"tt\"\ngame = \"twenty_two\"\nseed = 11\nrating = \"weng_lin\"\n\
         provisional_sets = 1\n",
        &[&["tt-heuristic", EVIL_NAME], &["tt-heuristic", "random"], &[EVIL_NAME, "random"]],
    ),
    (
        "name = \"gin-sprt\"\ngame = \"gin\"\nseed = 5\nformat = \"sprt\"\n\n\
         [sprt]\na = \"gin-heuristic\"\nb = \"random\"\n",
        &[&["gin-heuristic", "random"], &["gin-heuristic", "random"]],
    ),
    (
        "name = \"long\"\ngame = \"gin\"\noptions = { target = 120 }\nseed = 27\n",
        &[&[DIGITS_NAME, WEIRD_NAME]],
    ),
];

/// When the first ladder was created; each match finishes a second after the one before.
const NOW: i64 = 1_796_000_000_000;

/// The store, its bots and its ladders.
pub struct Fixture {
    pub store: Arc<dyn Store>,
    /// Each bot's name, account id and key, in [`BOTS`]' order.
    pub bots: Vec<(String, BotId, String)>,
    /// The [`TT`] ladder's store id.
    pub tt: LadderId,
    /// The [`GIN_SPRT`] ladder's store id.
    pub gin: LadderId,
    /// The [`LONG`] ladder's store id.
    pub long: LadderId,
    /// The [`TT`] ladder match that is still running (claimed, not finished).
    pub running: LadderMatchId,
    /// The [`LONG`] ladder's longer match and its record.
    pub long_match: LadderMatchId,
    pub long_record: Record<gin::State>,
}

impl Fixture {
    pub async fn new() -> Fixture {
        let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().await.unwrap());
        let mut bots = Vec::new();
        for (i, (name, _)) in BOTS.iter().enumerate() {
            // The store itself takes any name (accounts refuse markup): the pages escape
            // whatever it holds.
            let key = format!("key-of-bot-{i}");
            let account = store.register_bot(name, KeyHash::of(&key), NOW).await.unwrap();
            bots.push((name.to_string(), account.id, key));
        }
        assert_eq!(bots[0].1.0.to_string(), DIGITS_NAME, "the digits name the first account's id");
        let mut fill = Fill { store: Arc::clone(&store), bots: &bots, at: NOW, failed: false };
        let mut ladders = Vec::new();
        for (text, tables) in LADDERS {
            ladders.push(fill.ladder(text, tables).await);
        }
        // One more set of the first table of `tt`, its first match running.
        let (tt, tt_file) = (ladders[0].0, HostedLadderFile::parse(LADDERS[0].0).unwrap());
        let running = fill.plan(tt, &tt_file, LADDERS[0].1[0]).await[0];
        fill.claim(running).await;
        // The SPRT ladder's standings and test, as its runner writes them after its last set.
        let (gin, gin_file) = (ladders[1].0, HostedLadderFile::parse(LADDERS[1].0).unwrap());
        let rated = store.rated_sets(gin).await.unwrap();
        let evidence = Evidence::from_rated(&rated, rated[0].bots.iter().copied(), 0);
        let mut standings = evidence.standings(2, fill.at);
        let sprt = gin_file.sprt.as_ref().unwrap();
        let (a, b) = (fill.id(&sprt.a), fill.id(&sprt.b));
        standings.sprt = Some(sprt_standing(a, b, &evidence.sprt(a, b, sprt.config())));
        store.put_standings(gin, &standings).await.unwrap();
        // The long ladder's longer match.
        let (long, long_matches) = ladders.remove(2);
        let mut records = Vec::new();
        for id in long_matches {
            let json = store.ladder_record(id).await.unwrap().unwrap();
            let AnyRecord::Gin(record) = AnyRecord::from_json(&json).unwrap() else {
                panic!("a Gin Rummy record")
            };
            records.push((id, record));
        }
        let (long_match, long_record) =
            records.into_iter().max_by_key(|(_, record)| record.actions.len()).unwrap();
        assert!(
            long_record.actions.len() + 1 >= LONG_STEPS,
            "{} actions",
            long_record.actions.len()
        );
        Fixture { store, bots, tt, gin, long, running, long_match, long_record }
    }

    /// The pages over the store, two lines a page of a long list, with no game server.
    pub fn router(&self) -> Router {
        self.router_with(WebConfig { page_size: 2, ..WebConfig::default() })
    }

    /// The pages over the store with `config`.
    pub fn router_with(&self, config: WebConfig) -> Router {
        cardroom_web::router(Arc::new(self.source()), config)
    }

    /// The pages' source: the store, with no game server.
    pub fn source(&self) -> StoreSource {
        StoreSource::new(Accounts::new(Arc::clone(&self.store)))
    }

    /// The account id of the bot named `name`.
    pub fn id_of(&self, name: &str) -> BotId {
        self.bots.iter().find(|(n, _, _)| n == name).unwrap().1
    }

    /// The key of the bot named `name`.
    pub fn key_of(&self, name: &str) -> &str {
        &self.bots.iter().find(|(n, _, _)| n == name).unwrap().2
    }

    /// The name of the bot whose account is `id`.
    pub fn name_of(&self, id: BotId) -> String {
        self.bots.iter().find(|(_, bot, _)| *bot == id).unwrap().0.clone()
    }

    /// Finishes the running match of [`TT`] (its seat 0 first, no record) at `at_ms`.
    pub async fn finish_running(&self, at_ms: i64) {
        let claim = Claim { id: self.running, owner: "test".into(), attempt: 1 };
        let seats = [0u8, 1].map(|seat| SeatResult {
            seat,
            version: "2.0".into(),
            place: seat + 1,
            forfeited: false,
            think: ThinkSummary::default(),
        });
        let result = MatchResult {
            claim,
            server_match_id: "late".into(),
            seats: seats.to_vec(),
            record_json: None,
            failures: Vec::new(),
        };
        self.store.finish_match(&result, at_ms).await.unwrap();
    }
}

/// The writes of the fixture's ladders, in time order.
struct Fill<'a> {
    store: Arc<dyn Store>,
    bots: &'a [(String, BotId, String)],
    /// The time of the last write.
    at: i64,
    /// Whether the [`EVIL_NAME`] bot's failure is written yet.
    failed: bool,
}

impl Fill<'_> {
    fn lease() -> Lease {
        Lease { owner: "test".into(), until_ms: NOW + 3_600_000 }
    }

    fn id(&self, name: &str) -> BotId {
        self.bots.iter().find(|(n, _, _)| n == name).unwrap().1
    }

    fn name(&self, id: BotId) -> &str {
        &self.bots.iter().find(|(_, bot, _)| *bot == id).unwrap().0
    }

    /// The built-in bot that plays under the account `id`.
    fn kind(&self, id: BotId) -> &'static str {
        let name = self.name(id);
        BOTS.iter().find(|(n, _)| *n == name).unwrap().1
    }

    /// Creates the ladder of the file `text`, enters its tables' bots, and plays, finishes and
    /// rates one set of each table in turn. Returns the ladder and its matches.
    async fn ladder(&mut self, text: &str, tables: &[&[&str]]) -> (LadderId, Vec<LadderMatchId>) {
        let file = HostedLadderFile::parse(text).unwrap();
        // What the runner creates from the file.
        let spec = file.new_ladder(text);
        let ladder = self.store.create_ladder(&spec, self.at).await.unwrap();
        let initial = Rating::initial(file.rating_system());
        let mut entered = Vec::new();
        for name in tables.iter().flat_map(|t| t.iter()) {
            if !entered.contains(name) {
                entered.push(name);
                let stored = StoredRating {
                    mean: initial.mean,
                    sigma: initial.sigma,
                    volatility: initial.volatility,
                };
                self.store.enter_ladder(ladder.id, self.id(name), stored, self.at).await.unwrap();
            }
        }
        let mut all = Vec::new();
        for table in tables {
            let matches = self.plan(ladder.id, &file, table).await;
            for &id in &matches {
                self.play(id, &file).await;
            }
            self.rate(ladder.id, &file).await;
            all.extend(matches);
        }
        (ladder.id, all)
    }

    /// Plans the ladder's next set at `table`, one match a seating, as the runner does.
    async fn plan(
        &mut self,
        ladder: LadderId,
        file: &HostedLadderFile,
        table: &[&str],
    ) -> Vec<LadderMatchId> {
        let index = self.store.set_count(ladder).await.unwrap();
        let bots: Vec<BotId> = table.iter().map(|name| self.id(name)).collect();
        let seed = derive_seed(file.seed, index);
        let matches = rotations(bots.len(), file.max_rotations)
            .into_iter()
            .zip(0..)
            .map(|(seating, rotation)| NewMatch {
                rotation,
                seed,
                seats: seating.iter().map(|&pos| bots[pos]).collect(),
            })
            .collect();
        let set = NewSet { index, seed, bots, matches };
        let planned = self.store.plan_set(ladder, &set, self.at).await.unwrap();
        planned.matches.iter().map(|m| m.id).collect()
    }

    async fn claim(&mut self, id: LadderMatchId) -> Claim {
        self.at += 1_000;
        self.store.claim_match(id, &Self::lease(), self.at).await.unwrap()
    }

    /// Claims the match `id` of `file`'s ladder, plays it in process and finishes it under its
    /// claim.
    async fn play(&mut self, id: LadderMatchId, file: &HostedLadderFile) {
        let claim = self.claim(id).await;
        let planned = self.store.ladder_match(id).await.unwrap().unwrap();
        let kinds = planned.seats.iter().map(|s| self.kind(s.bot)).collect();
        let options_json = &file.options_json();
        let (places, record_json) =
            visit(file.game, Play { options_json, seed: planned.seed, kinds });
        let evil = planned.seats.iter().position(|s| self.name(s.bot) == EVIL_NAME);
        let failures = match evil {
            Some(seat) if !self.failed => vec![NewFailure {
                seat: u8::try_from(seat).unwrap(),
                kind: FailureKind::Illegal,
                observation_json: Some(EVIL_OBSERVATION.into()),
                answer: Some(EVIL_ANSWER.into()),
                error: EVIL_ERROR.into(),
            }],
            _ => Vec::new(),
        };
        self.failed |= !failures.is_empty();
        let result = MatchResult {
            claim,
            server_match_id: format!("server{}", id.0),
            seats: places
                .iter()
                .zip(0..)
                .map(|(&place, seat)| SeatResult {
                    seat,
                    version: "1.0".into(),
                    place,
                    forfeited: false,
                    // Two decisions a seat: 150 µs (300 µs on seat 1) and 40 ms.
                    think: ThinkSummary::from_micros(&[150 * (u32::from(seat) + 1), 40_000]),
                })
                .collect(),
            record_json: Some(record_json),
            failures,
        };
        self.store.finish_match(&result, self.at).await.unwrap();
    }

    /// Rates the ladder's complete open set, as the runner does.
    async fn rate(&mut self, ladder: LadderId, file: &HostedLadderFile) {
        let open = self.store.open_sets(ladder).await.unwrap();
        let set = open.iter().find(|s| s.is_complete()).unwrap();
        let ratings: BTreeMap<BotId, StoredRating> = self
            .store
            .ladder_bots(ladder)
            .await
            .unwrap()
            .into_iter()
            .map(|b| (b.bot, b.rating))
            .collect();
        let before = |bot: BotId| {
            let r = ratings[&bot];
            Rating { mean: r.mean, sigma: r.sigma, volatility: r.volatility }
        };
        let updates = rate_set(file.rating_system(), set, before).unwrap();
        self.store.rate_set(ladder, set.index, &updates, self.at).await.unwrap();
    }
}

/// A match played in process: the game's options, the deal's seed and the built-in bot at each
/// seat. Its places by seat and its record.
struct Play<'a> {
    options_json: &'a str,
    seed: u64,
    kinds: Vec<&'static str>,
}

impl ExampleVisitor for Play<'_> {
    type Output = (Vec<u8>, String);

    fn visit<G: ExampleGame>(self) -> (Vec<u8>, String) {
        let seats = u32::try_from(self.kinds.len()).unwrap();
        let state = G::create(self.options_json, seats, self.seed).unwrap();
        let mut bots: Vec<Box<dyn Bot<G>>> = self
            .kinds
            .iter()
            .zip(0..)
            .map(|(kind, seat)| G::builtin(kind).unwrap()(self.seed + seat))
            .collect();
        let report = play_local_report(state, &mut bots, MAX_LOCAL_DECISIONS).unwrap();
        let mut places = vec![0; self.kinds.len()];
        for standing in &report.standings {
            places[standing.seat.index()] = standing.place;
        }
        (places, report.state.record().unwrap().to_json())
    }
}
