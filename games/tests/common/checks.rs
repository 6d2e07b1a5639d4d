//! The fuzz properties of the engines, shared by the proptest suite `tests/fuzz_props.rs` (run
//! in CI) and the cargo-fuzz targets `record` and `apply` in `fuzz/` (which include this file by
//! path). Each entry point takes plain data, runs the engines on it and panics, naming the broken
//! invariant, when one breaks; it never panics on input the engines rightly refuse.

use cardroom_games::gin::{self, Arrangement, CardSet, solver};
use cardroom_games::holdem;
use cardroom_games::twenty_two::{self, Cards, MAX_HAND};
use cardroom_games::{AnyRecord, Card, Game, Record, RuleError, Seat};

/// Actions played on from a replayed record, so that a strange start (a setup with a huge deal
/// number or scores) also reaches the end of its deal or hand.
const PLAY_ON: usize = 400;

/// A match and what is done to it: the `apply` target's input.
#[derive(Clone, Debug)]
pub struct Script {
    /// `game % 3`: 0 Twenty-Two, 1 Gin Rummy, 2 Hold'em.
    pub game: u8,
    /// Twenty-Two's table: `2 + players % 15` seats (some too many for the options); Hold'em's
    /// `2 + players % 10` (11 is one too many).
    pub players: u8,
    /// Bits read as the game's options ([`twenty_two_options`], [`gin_options`],
    /// [`holdem_options`]); a few
    /// combinations are invalid, and then the match must fail to start with an error.
    pub options: u64,
    /// The match's seed.
    pub seed: u64,
    /// What happens, in order.
    pub steps: Vec<Step>,
}

/// One step of a [`Script`].
#[derive(Clone, Debug)]
pub enum Step {
    /// The seat to act plays its legal action `k % len`: it must be accepted.
    Legal(u16),
    /// Some seat tries an action built from raw bytes ([`Engine::raw_action`]): it must be
    /// accepted exactly when legal, and a refusal must name its rule and change nothing.
    Raw {
        /// Below 128: the seat to act (seat 0 once the match is over); else seat `seat - 128`.
        seat: u8,
        /// The kind of action.
        kind: u8,
        /// Its cards: a byte with the top bit set is the hand's card `(b & 0x7f) % len`, a byte
        /// below 52 that card, anything else a separator (between the melds of a knock).
        cards: Vec<u8>,
    },
}

/// What the properties need from an engine beyond [`Game`].
pub trait Engine: Game {
    /// Whether `seat`, to act, may take `action`, given the listed legal actions (`legal`).
    fn accepts(&self, legal: &[Self::Action], seat: Seat, action: &Self::Action) -> bool;
    /// An action of kind `kind` with the cards `cards` (see [`Step::Raw`]), if these bytes
    /// make one.
    fn raw_action(&self, seat: Seat, kind: u8, cards: &[u8]) -> Option<Self::Action>;
}

impl Engine for twenty_two::State {
    /// Twenty-Two lists each choice of ranks once and accepts any suits held (TT-1): an action
    /// is legal when its kind matches and its ranks equal those of a listed action, with cards
    /// the seat holds.
    fn accepts(&self, legal: &[Self::Action], seat: Seat, action: &Self::Action) -> bool {
        self.hand(seat).is_some_and(|hand| hand.contains_all(action.cards()))
            && legal.iter().any(|listed| {
                std::mem::discriminant(listed) == std::mem::discriminant(action)
                    && listed.cards().same_ranks(action.cards())
            })
    }

    /// An exchange (odd `kind`) or a play of at most 11 of the cards.
    fn raw_action(&self, seat: Seat, kind: u8, cards: &[u8]) -> Option<Self::Action> {
        let hand = self.hand(seat).map_or(&[][..], Cards::as_slice);
        let mut picked: Vec<Card> = pick_cards(hand, cards).into_iter().flatten().collect();
        picked.truncate(MAX_HAND);
        let cards = Cards::new(&picked).ok()?;
        Some(if kind % 2 == 1 {
            twenty_two::Action::Exchange(cards)
        } else {
            twenty_two::Action::Play(cards)
        })
    }
}

impl Engine for gin::State {
    /// Gin Rummy lists every legal action.
    fn accepts(&self, legal: &[Self::Action], _seat: Seat, action: &Self::Action) -> bool {
        legal.contains(action)
    }

    /// `kind % 8` picks the action; the first card is the discard; a knock's melds are the
    /// groups of the other cards between separators or, with none, one of the arrangements of
    /// the other ten cards of the hand (`kind / 8` picks which).
    fn raw_action(&self, seat: Seat, kind: u8, cards: &[u8]) -> Option<Self::Action> {
        let hand = self.hand(seat);
        let picked = pick_cards(&hand.to_vec(), cards);
        let first = picked.iter().flatten().next().copied();
        Some(match kind % 8 {
            0 => gin::Action::TakeUpcard,
            1 => gin::Action::PassUpcard,
            2 => gin::Action::DrawStock,
            3 => gin::Action::DrawDiscard,
            4 => gin::Action::Discard(first?),
            5 => gin::Action::Gin { discard: first? },
            6 => gin::Action::BigGin,
            _ => {
                let discard = first?;
                let mut melds = Vec::new();
                for group in picked.split(Option::is_none).skip(1) {
                    let meld: CardSet = group.iter().flatten().copied().collect();
                    if !meld.is_empty() {
                        melds.push(meld);
                    }
                }
                let melds = if melds.is_empty() {
                    let rest = hand - CardSet::single(discard);
                    let all = solver::knock_arrangements(rest, u8::MAX).ok()?;
                    *all.get(usize::from(kind / 8) % all.len().max(1))?
                } else {
                    Arrangement::new(&melds).ok()?
                };
                gin::Action::Knock { discard, melds }
            }
        })
    }
}

/// Reads card bytes (see [`Step::Raw`]): `None` marks a separator.
fn pick_cards(hand: &[Card], bytes: &[u8]) -> Vec<Option<Card>> {
    bytes
        .iter()
        .map(|&b| match b {
            0x80.. if !hand.is_empty() => Some(hand[usize::from(b & 0x7f) % hand.len()]),
            _ => Card::from_index(b),
        })
        .collect()
}

/// Everything the seats and spectators can tell about a state, and its record (which fixes the
/// hidden cards too), as JSON: equal fingerprints are the same position.
pub fn fingerprint<G: Game>(state: &G) -> String {
    let seats: Vec<G::Observation> =
        (0..state.players()).map(|s| state.observation(Seat(s))).collect();
    let view = (state.to_act(), state.public_view(), seats, state.standings(), state.record());
    serde_json::to_string(&view).unwrap_or_else(|err| panic!("a state does not serialize: {err}"))
}

/// The legal actions, checked: sorted and distinct, empty exactly when the match is over (and
/// then the standings hold every seat, best first).
pub fn checked_legal_actions<G: Game>(state: &G) -> Vec<G::Action> {
    let legal = state.legal_actions();
    assert!(
        legal.windows(2).all(|w| w[0] < w[1]),
        "legal actions not sorted and distinct: {legal:?}"
    );
    assert_eq!(legal.is_empty(), state.to_act().is_none(), "legal actions {legal:?}");
    if state.to_act().is_none() {
        let standings =
            state.standings().unwrap_or_else(|| panic!("a match over has no standings"));
        assert_eq!(standings.len(), usize::from(state.players()), "standings {standings:?}");
        assert!(standings.windows(2).all(|w| w[0] < w[1]), "not best first: {standings:?}");
    }
    legal
}

/// The Twenty-Two options that `bits` stand for (some invalid: 5 packs, a first hand of 0 or
/// 12, a limit of 0).
pub fn twenty_two_options(bits: u64) -> twenty_two::Options {
    use twenty_two::{Packs, TiedDealer, TrickWinner, Variant};
    let field = |shift: u32, width: u32| ((bits >> shift) & ((1 << width) - 1)) as usize;
    twenty_two::Options {
        packs: match field(0, 3) {
            0..=2 => Packs::Auto,
            n => Packs::Fixed(n as u8 - 2),
        },
        first_hand: (field(3, 4) % 13) as u8,
        limit: [0, 1, 5, 12, 22, 22, 40, u32::MAX][field(7, 3)],
        trick_winner: if field(10, 1) == 0 {
            TrickWinner::StrongestCombination
        } else {
            TrickWinner::HighestCard
        },
        tied_dealer: if field(11, 1) == 0 {
            TiedDealer::Random
        } else {
            TiedDealer::NearestLeftOfPreviousDealer
        },
        variant: if field(12, 2) == 0 { Variant::Elimination } else { Variant::Standard },
    }
}

/// The Gin Rummy options that `bits` stand for (some invalid: a knock limit of 11, no upcard
/// draws, a target of 0 or past the cap, spades doubling without Oklahoma, no hands).
pub fn gin_options(bits: u64) -> gin::Options {
    let field = |shift: u32, width: u32| ((bits >> shift) & ((1 << width) - 1)) as usize;
    let flag = |shift: u32| field(shift, 1) == 1;
    let points = [0, 25, 31, gin::MAX_POINTS];
    let oklahoma = flag(6);
    gin::Options {
        first_upcard: if flag(0) { gin::FirstUpcard::Seed } else { gin::FirstUpcard::Standard },
        discard_taken_upcard: flag(1),
        knock_limit: (field(2, 4) % 12) as u8,
        oklahoma,
        oklahoma_spades_double: flag(7) && (oklahoma || flag(8)),
        big_gin: flag(9),
        tie_is_undercut: flag(10),
        wall_knock: flag(11),
        max_upcard_draws: [0, 1, 2, 5, 50, 50, 50, u32::MAX][field(12, 3)],
        target: [0, 1, 10, 30, 100, 100, gin::MAX_POINTS, gin::MAX_POINTS + 1][field(15, 3)],
        gin_bonus: points[field(18, 2)],
        undercut_bonus: points[field(20, 2)],
        big_gin_bonus: points[field(22, 2)],
        game_bonus: flag(24),
        box_bonus: flag(25),
        shutout_double: flag(26),
        max_hands: [0, 1, 3, 100][field(27, 2)],
    }
}

impl Engine for holdem::State {
    /// Hold'em lists every legal action, every raise size among them (HE-9).
    fn accepts(&self, legal: &[Self::Action], _seat: Seat, action: &Self::Action) -> bool {
        legal.contains(action)
    }

    /// `kind % 4` picks fold, check, call or a raise, whose size is the bytes read as a
    /// little-endian number.
    fn raw_action(&self, _seat: Seat, kind: u8, cards: &[u8]) -> Option<Self::Action> {
        Some(match kind % 4 {
            0 => holdem::Action::Fold,
            1 => holdem::Action::Check,
            2 => holdem::Action::Call,
            _ => {
                let size = cards.iter().take(4).rev().fold(0u32, |n, &b| n << 8 | u32::from(b));
                holdem::Action::RaiseTo(size)
            }
        })
    }
}

/// Hold'em's options from bits: limit or not, blinds, ante and stack from small tables of
/// values (some invalid), a few hands, either score.
pub fn holdem_options(bits: u64) -> holdem::Options {
    let field = |shift: u32, width: u32| ((bits >> shift) & ((1 << width) - 1)) as usize;
    let big_blind = [0, 1, 2, 5, 10, 50, 100, 1000][field(1, 3)];
    holdem::Options {
        betting: if bits & 1 == 1 { holdem::Betting::Limit } else { holdem::Betting::NoLimit },
        small_blind: [0, 1, 2, 3, 5, 50, 100, 2000][field(4, 3)],
        big_blind,
        ante: [0, 0, 0, 1, 2, 5, 100, 5000][field(7, 3)],
        stack: [0, 10, 40, 100, 200, 1000, 20_000, 20_001][field(10, 3)],
        hands: [0, 1, 3, 20][field(13, 2)],
        raise_cap: [0, 1, 3, 4][field(15, 2)],
        score: if bits >> 17 & 1 == 1 {
            holdem::Score::AllInAdjusted
        } else {
            holdem::Score::Chips
        },
    }
}

/// The match a script plays.
pub enum Match {
    /// A Twenty-Two match.
    TwentyTwo(twenty_two::State),
    /// A Gin Rummy match.
    Gin(gin::State),
    /// A Hold'em match.
    Holdem(holdem::State),
}

/// The script's match, or `None` when its options are invalid (checked to be the reason).
pub fn start(script: &Script) -> Option<Match> {
    if script.game % 3 == 2 {
        let options = holdem_options(script.options);
        let players = 2 + script.players % 10;
        return match holdem::State::new(options, players, script.seed) {
            Ok(state) => Some(Match::Holdem(state)),
            Err(err) => {
                let too_many = players > holdem::MAX_SEATS;
                assert!(options.validate().is_err() || too_many, "{options:?}: {err}");
                None
            }
        };
    }
    if script.game.is_multiple_of(3) {
        let options = twenty_two_options(script.options);
        let players = 2 + script.players % 15;
        match twenty_two::State::new(options, players, script.seed) {
            Ok(state) => Some(Match::TwentyTwo(state)),
            Err(err) => {
                assert!(options.validate(players).is_err(), "{options:?}: {err}");
                None
            }
        }
    } else {
        let options = gin_options(script.options);
        match gin::State::new(options, script.seed) {
            Ok(state) => Some(Match::Gin(state)),
            Err(err) => {
                assert!(options.validate().is_err(), "{options:?}: {err}");
                None
            }
        }
    }
}

/// The `apply` property: the script's match starts unless its options are invalid, every
/// listed action is accepted, raw actions are accepted exactly when legal and refusals name
/// their rule and change nothing, the legal list stays sorted, distinct and non-empty until the
/// end, and the record of the result replays to the same state.
pub fn apply_script(script: &Script) {
    match start(script) {
        Some(Match::TwentyTwo(state)) => run(state, &script.steps),
        Some(Match::Gin(state)) => run(state, &script.steps),
        Some(Match::Holdem(state)) => run(state, &script.steps),
        None => {}
    }
}

/// The record of the script's match after its [`Step::Legal`] steps alone.
pub fn legal_record(script: &Script) -> Option<AnyRecord> {
    fn play<G: Game>(mut state: G, steps: &[Step]) -> Option<AnyRecord> {
        for step in steps {
            if let (Step::Legal(k), Some(seat)) = (step, state.to_act()) {
                let legal = state.legal_actions();
                state.apply(seat, legal[usize::from(*k) % legal.len()]).ok()?;
            }
        }
        state.record().map(AnyRecord::from)
    }
    match start(script)? {
        Match::TwentyTwo(state) => play(state, &script.steps),
        Match::Gin(state) => play(state, &script.steps),
        Match::Holdem(state) => play(state, &script.steps),
    }
}

fn run<G: Engine>(mut state: G, steps: &[Step]) {
    for step in steps {
        let legal = checked_legal_actions(&state);
        match step {
            Step::Legal(k) => {
                let Some(seat) = state.to_act() else { continue };
                let action = legal[usize::from(*k) % legal.len()];
                if let Err(err) = state.apply(seat, action) {
                    panic!("the listed action {action:?} of {seat} is refused: {err}");
                }
            }
            Step::Raw { seat, kind, cards } => {
                let seat = match *seat {
                    0..128 => state.to_act().unwrap_or(Seat(0)),
                    _ => Seat(seat - 128),
                };
                let Some(action) = state.raw_action(seat, *kind, cards) else { continue };
                let legal_now =
                    state.to_act() == Some(seat) && state.accepts(&legal, seat, &action);
                let before = fingerprint(&state);
                match state.apply(seat, action) {
                    Ok(_) => assert!(legal_now, "{seat} {action:?} accepted; legal: {legal:?}"),
                    Err(err) => {
                        assert!(!legal_now, "{seat} {action:?} refused ({err}); legal: {legal:?}");
                        assert!(err.to_string().starts_with(err.rule()), "{err} names no rule");
                        assert_eq!(fingerprint(&state), before, "{seat} {action:?} refused");
                    }
                }
            }
        }
    }
    checked_legal_actions(&state);
    let record = state.record().unwrap_or_else(|| panic!("a played match has no record"));
    let replayed = replays(&record);
    assert_eq!(fingerprint::<G>(&replayed), fingerprint(&state), "the record replays elsewhere");
}

/// Reads `record`'s JSON back (it must be equal) and replays it.
fn replays<G: Engine>(record: &Record<G>) -> G {
    let json = record.to_json();
    let back = AnyRecord::from_json(&json)
        .unwrap_or_else(|err| panic!("{json}\nreads back as {err}"))
        .downcast::<G>()
        .unwrap_or_else(|| panic!("{json}\nis a record of another game"));
    assert_eq!(&back, record, "the record changes through JSON");
    back.replay().unwrap_or_else(|err| panic!("{json}\ndoes not replay: {err}"))
}

/// The `record` property: any bytes either are not a record, or a record that does not replay
/// (with an error), or one that replays; then the state's record is the record, the record
/// reads back from its JSON and replays to the same state, and play goes on from it.
pub fn record_json(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(record) = AnyRecord::from_json(text) else { return };
    match record {
        AnyRecord::TwentyTwo(record) => replayed::<twenty_two::State>(&record),
        AnyRecord::Gin(record) => replayed::<gin::State>(&record),
        AnyRecord::Holdem(record) => replayed::<holdem::State>(&record),
    }
}

fn replayed<G: Engine>(record: &Record<G>) {
    let Ok(mut state) = record.replay() else { return };
    // Replay ignores the termination (metadata); the state's record has the engine's own.
    let own = state.record().unwrap_or_else(|| panic!("a replayed match has no record"));
    assert_eq!(own.termination, state.end_reason(), "the record's termination is the engine's");
    let expected = Record { termination: own.termination.clone(), ..record.clone() };
    assert_eq!(own, expected, "the replayed state's record differs");
    let again = replays::<G>(record);
    assert_eq!(fingerprint(&again), fingerprint(&state), "the record replays elsewhere");
    for i in 0..PLAY_ON {
        let legal = checked_legal_actions(&state);
        let Some(seat) = state.to_act() else { break };
        let action = legal[i * 7 % legal.len()];
        if let Err(err) = state.apply(seat, action) {
            panic!("the listed action {action:?} of {seat} is refused: {err}");
        }
    }
}
