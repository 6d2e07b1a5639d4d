//! Gin Rummy on the wire: [`WireGame`] for the engine's [`State`].
//!
//! An action is a `GinAction`: the unit actions carry `Empty`, a discard or gin its card, a
//! knock its face-down discard and its melds. Melds are read with the engine's checked
//! [`Arrangement::new`] (GR-2) and so put in canonical form (touching runs of one suit merged);
//! the melds of a legal action are canonical already, so every legal action round-trips
//! exactly. Sets of cards (the hand, melds, known cards) go in the engine's set order: by suit,
//! then by rank with the ace low. An observation fills `GinObservation`; its `json` field holds
//! the engine's [`Observation`] with every detail (legal actions, hand results, the outcome). The
//! server and the SDK write and read an observation's bytes without prost's tree
//! (`gin_bytes.rs`), checked by the same code as the tree ([`TypedView`]).

use super::WireError;
use cardroom_games::gin::solver::MAX_MELDS;
use cardroom_games::gin::{
    Action, Arrangement, CardSet, GoOut, HandEnd, HandResult, Layout, Observation, Options,
    Outcome, ParseCardSetError, Phase, PileCard, PublicView, Showdown, State,
};
use cardroom_games::{Card, Seat};

use super::{
    CardList, WireGame, byte, card_from_code, card_from_pb, card_to_pb, cards_to_codes,
    cards_to_pb, count, legal_actions_from_pb_into, not_an_action_of, pair, seat_from_pb,
    seat_to_pb, size, standing_from_pb, standing_to_pb,
};
use crate::pb;

// The observation's bytes written and read by hand, without prost's typed tree
// (`WireGame::encode_observation`, `WireGame::decode_observation`).
#[path = "gin_bytes.rs"]
mod gin_bytes;

impl WireGame for State {
    const PB: pb::Game = pb::Game::GinRummy;

    /// A match of exactly two seats (GR-1) from options as a JSON object (empty for the
    /// defaults; unknown fields are refused).
    fn create(options_json: &str, seats: u32, seed: u64) -> Result<State, WireError> {
        let options = State::options_from_json(options_json)?;
        if seats != 2 {
            return Err(WireError::Rule(format!(
                "GR-1: Gin Rummy is played by 2 players, not {seats}"
            )));
        }
        State::new(options, seed).map_err(WireError::rule)
    }

    fn action_to_pb(action: &Action) -> pb::Action {
        use pb::gin_action::{Action as Pb, Empty};
        let action = match *action {
            Action::TakeUpcard => Pb::TakeUpcard(Empty {}),
            Action::PassUpcard => Pb::PassUpcard(Empty {}),
            Action::DrawStock => Pb::DrawStock(Empty {}),
            Action::DrawDiscard => Pb::DrawDiscard(Empty {}),
            Action::Discard(card) => Pb::Discard(card_to_pb(card)),
            Action::Knock { discard, melds } => Pb::Knock(pb::gin_action::Knock {
                discard: Some(card_to_pb(discard)),
                melds: melds.melds().map(|meld| pb::Cards { cards: cards_to_pb(meld) }).collect(),
            }),
            Action::Gin { discard } => Pb::Gin(card_to_pb(discard)),
            Action::BigGin => Pb::BigGin(Empty {}),
        };
        pb::Action { game: Some(pb::action::Game::Gin(pb::GinAction { action: Some(action) })) }
    }

    fn action_from_pb(action: &pb::Action) -> Result<Action, WireError> {
        use pb::gin_action::Action as Pb;
        let Some(pb::action::Game::Gin(gin)) = &action.game else {
            return Err(not_an_action_of::<State>(action));
        };
        match &gin.action {
            Some(Pb::TakeUpcard(_)) => Ok(Action::TakeUpcard),
            Some(Pb::PassUpcard(_)) => Ok(Action::PassUpcard),
            Some(Pb::DrawStock(_)) => Ok(Action::DrawStock),
            Some(Pb::DrawDiscard(_)) => Ok(Action::DrawDiscard),
            Some(Pb::Discard(card)) => Ok(Action::Discard(read_card(card, "the discard")?)),
            Some(Pb::Knock(knock)) => {
                let discard = knock
                    .discard
                    .as_ref()
                    .ok_or(WireError::Incomplete("the knock names no discard: set `discard`"))?;
                let discard = read_card(discard, "the knock's discard")?;
                let melds = knock
                    .melds
                    .iter()
                    .enumerate()
                    .map(|(i, meld)| read_meld(meld, i + 1))
                    .collect::<Result<Vec<CardSet>, WireError>>()?;
                let melds = Arrangement::new(&melds).map_err(WireError::rule)?;
                Ok(Action::Knock { discard, melds })
            }
            Some(Pb::Gin(card)) => Ok(Action::Gin { discard: read_card(card, "the gin discard")? }),
            Some(Pb::BigGin(_)) => Ok(Action::BigGin),
            None => Err(WireError::Incomplete(
                "the Gin Rummy action is empty: set one of `take_upcard`, `pass_upcard`, \
                 `draw_stock`, `draw_discard`, `discard`, `knock`, `gin`, `big_gin`",
            )),
        }
    }

    fn legal_actions_of(observation: &Observation) -> &[Action] {
        &observation.legal_actions
    }

    fn fill_legal_actions(observation: &mut Observation) {
        let mut legal = std::mem::take(&mut observation.legal_actions);
        observation.compute_legal_actions_into(&mut legal);
        observation.legal_actions = legal;
    }

    fn observer(observation: &Observation) -> Seat {
        observation.seat
    }

    fn observation_to_pb(observation: &Observation, omit: &pb::Omit) -> pb::Observation {
        super::observation_to_pb(observation, observation.seat, omit, || {
            pb::observation::Game::Gin(typed(observation, omit))
        })
    }

    fn observation_from_pb(
        observation: &pb::Observation,
        legal_actions: &[pb::LegalAction],
        options: &Options,
    ) -> Result<Observation, WireError> {
        let Some(pb::observation::Game::Gin(typed)) = &observation.game else {
            return Err(WireError::Incomplete(NO_GIN_VIEW));
        };
        let view = TypedView::of(typed);
        observation_from_view(observation.seat, &view, legal_actions, options, Lists::default())
    }

    /// Written field by field from the observation (`gin_bytes.rs`): prost's bytes without its
    /// typed tree.
    fn encode_observation(observation: &Observation, omit: &pb::Omit, buf: &mut Vec<u8>) {
        gin_bytes::encode(observation, omit, buf);
    }

    /// Read field by field into the engine's observation (`gin_bytes.rs`), checked by the same
    /// code as [`WireGame::observation_from_pb`]; bytes it leaves to prost (malformed ones, or
    /// a form no server sends) are read as the default does.
    fn decode_observation(
        bytes: &[u8],
        legal_actions: &[pb::LegalAction],
        options: &Options,
    ) -> Result<Observation, WireError> {
        gin_bytes::decode(bytes, legal_actions, options, Lists::default())
    }

    /// As [`WireGame::decode_observation`], keeping the allocations of `observation`'s lists
    /// (its legal actions and discard pile).
    fn decode_observation_into(
        bytes: &[u8],
        legal_actions: &[pb::LegalAction],
        options: &Options,
        observation: &mut Observation,
    ) -> Result<(), WireError> {
        let lists = Lists::take(observation);
        *observation = gin_bytes::decode(bytes, legal_actions, options, lists)?;
        Ok(())
    }
}

/// The lists an observation is read into: new ones, or a kept observation's, cleared, their
/// allocations kept ([`WireGame::decode_observation_into`]).
#[derive(Default)]
struct Lists {
    legal_actions: Vec<Action>,
    discard_pile: Vec<PileCard>,
}

impl Lists {
    /// `observation`'s lists, taken out of it (it keeps empty ones).
    fn take(observation: &mut Observation) -> Lists {
        Lists {
            legal_actions: std::mem::take(&mut observation.legal_actions),
            discard_pile: std::mem::take(&mut observation.public.discard_pile),
        }
    }
}

/// The error for an observation without the Gin Rummy view.
const NO_GIN_VIEW: &str = "the observation has no Gin Rummy view (`Observation.gin`)";

/// A seat's typed view as its two readers hold it: prost's `GinObservation`
/// ([`TypedView::of`]), or the fields `gin_bytes.rs` reads in place from the bytes. Both rebuild
/// the engine's observation through [`observation_from_view`], so they accept and refuse the
/// same views, with the same words. `K` is a list of `Card` messages (`known_cards`' entries),
/// `C` a list of card codes (`known_cards_codes`' entries).
struct TypedView<'a, K, C> {
    hand: &'a [pb::Card],
    hand_codes: &'a [u8],
    drawn: Option<pb::Card>,
    scores: &'a [u32],
    dealer: u32,
    deal: u32,
    /// `GinPhase`'s number, as sent (a number the enum lacks is unspecified).
    phase: i32,
    stock_size: u32,
    discard_pile: &'a [pb::Card],
    discard_pile_codes: &'a [u8],
    known_cards: &'a [K],
    known_cards_codes: &'a [C],
    knock_limit: u32,
    to_act: Option<u32>,
    hands_won: &'a [u32],
    multiplier: u32,
    hand_sizes: &'a [u32],
    upcard_draws: u32,
    dealt_upcards: u32,
    discarded_by: &'a [u32],
    stock_only: bool,
    taken: Option<pb::Card>,
    must_go_out: bool,
    last_result: Option<HandResultView<'a, K>>,
    outcome: Option<&'a pb::GinOutcome>,
}

/// A hand's result as its two readers hold it (see [`TypedView`]).
struct HandResultView<'a, K> {
    deal: u32,
    dealer: u32,
    /// `GinHandEnd`'s number, as sent.
    end: i32,
    showdown: Option<ShowdownView<'a, K>>,
    winner: Option<u32>,
    undercut: bool,
    points: u32,
    scores: &'a [u32],
}

/// A showdown as its two readers hold it (see [`TypedView`]).
struct ShowdownView<'a, K> {
    knocker: u32,
    /// `GinGoOut`'s number, as sent.
    kind: i32,
    discard: Option<pb::Card>,
    melds: &'a [K],
    deadwood_cards: &'a [pb::Card],
    deadwood: u32,
    defender: u32,
    layout: Option<LayoutView<'a, K>>,
}

/// A defender's layout as its two readers hold it (see [`TypedView`]).
struct LayoutView<'a, K> {
    melds: &'a [K],
    layoffs: &'a [pb::Card],
    onto: &'a [K],
    deadwood_cards: &'a [pb::Card],
    deadwood: u32,
}

impl<'a> HandResultView<'a, pb::Cards> {
    /// The result prost decoded.
    fn of(result: &'a pb::GinHandResult) -> HandResultView<'a, pb::Cards> {
        HandResultView {
            deal: result.deal,
            dealer: result.dealer,
            end: result.end,
            showdown: result.showdown.as_ref().map(|showdown| ShowdownView {
                knocker: showdown.knocker,
                kind: showdown.kind,
                discard: showdown.discard,
                melds: &showdown.melds,
                deadwood_cards: &showdown.deadwood_cards,
                deadwood: showdown.deadwood,
                defender: showdown.defender,
                layout: showdown.layout.as_ref().map(|layout| LayoutView {
                    melds: &layout.melds,
                    layoffs: &layout.layoffs,
                    onto: &layout.onto,
                    deadwood_cards: &layout.deadwood_cards,
                    deadwood: layout.deadwood,
                }),
            }),
            winner: result.winner,
            undercut: result.undercut,
            points: result.points,
            scores: &result.scores,
        }
    }
}

impl<'a> TypedView<'a, pb::Cards, Vec<u8>> {
    /// The view prost decoded.
    fn of(typed: &'a pb::GinObservation) -> TypedView<'a, pb::Cards, Vec<u8>> {
        TypedView {
            hand: &typed.hand,
            hand_codes: &typed.hand_codes,
            drawn: typed.drawn,
            scores: &typed.scores,
            dealer: typed.dealer,
            deal: typed.deal,
            phase: typed.phase,
            stock_size: typed.stock_size,
            discard_pile: &typed.discard_pile,
            discard_pile_codes: &typed.discard_pile_codes,
            known_cards: &typed.known_cards,
            known_cards_codes: &typed.known_cards_codes,
            knock_limit: typed.knock_limit,
            to_act: typed.to_act,
            hands_won: &typed.hands_won,
            multiplier: typed.multiplier,
            hand_sizes: &typed.hand_sizes,
            upcard_draws: typed.upcard_draws,
            dealt_upcards: typed.dealt_upcards,
            discarded_by: &typed.discarded_by,
            stock_only: typed.stock_only,
            taken: typed.taken,
            must_go_out: typed.must_go_out,
            last_result: typed.last_result.as_deref().map(HandResultView::of),
            outcome: typed.outcome.as_deref(),
        }
    }
}

/// A `Cards` message's cards, as the typed view's readers take `known_cards`, melds and `onto`.
impl AsRef<[pb::Card]> for pb::Cards {
    fn as_ref(&self) -> &[pb::Card] {
        &self.cards
    }
}

/// A seat's observation from its seat number, its typed view and the `Turn`'s legal actions
/// (see [`WireGame::observation_from_pb`]), its lists written into `lists`: every check of
/// either reader, in one order.
fn observation_from_view<K: AsRef<[pb::Card]>, C: AsRef<[u8]>>(
    seat: u32,
    view: &TypedView<'_, K, C>,
    legal_actions: &[pb::LegalAction],
    options: &Options,
    lists: Lists,
) -> Result<Observation, WireError> {
    let Lists { legal_actions: mut legal, discard_pile } = lists;
    let seat = seat_from_pb(seat)?;
    let hand = set_from_list(CardList::of(view.hand, view.hand_codes, "hand")?, "the hand")?;
    let drawn = view.drawn.as_ref().map(card_from_pb).transpose()?;
    legal_actions_from_pb_into::<State>(legal_actions, &mut legal)?;
    let public = public_from_view(view, *options, discard_pile)?;
    Ok(Observation { seat, hand, drawn, legal_actions: legal, public })
}

/// A seat's typed view: its hand and everything public but the options (in `Joined`); the hand
/// and the discard pile as card codes when the connection asked for them (`Omit.cards`), and
/// the known cards too when it asked for those (`Omit.known_cards`).
fn typed(observation: &Observation, omit: &pb::Omit) -> pb::GinObservation {
    let (codes, known_codes) = (omit.cards, omit.known_cards);
    let public = &observation.public;
    let dealt_upcards = public.discard_pile.iter().take_while(|pile| pile.by.is_none()).count();
    let pile_cards = || public.discard_pile.iter().map(|pile| pile.card);
    let (stock_only, taken, must_go_out) = match public.phase {
        Phase::Draw { stock_only, .. } => (stock_only, None, false),
        Phase::Discard { taken, must_go_out, .. } => (false, taken.map(card_to_pb), must_go_out),
        Phase::FirstUpcard { .. } | Phase::Wall { .. } | Phase::MatchOver => (false, None, false),
    };
    pb::GinObservation {
        hand: if codes { Vec::new() } else { cards_to_pb(observation.hand) },
        hand_codes: if codes { cards_to_codes(observation.hand) } else { Vec::new() },
        drawn: observation.drawn.map(card_to_pb),
        scores: public.scores.to_vec(),
        dealer: seat_to_pb(public.dealer),
        deal: public.hand_number,
        phase: phase_to_pb(public.phase) as i32,
        stock_size: count(public.stock_size),
        discard_pile: if codes { Vec::new() } else { cards_to_pb(pile_cards()) },
        discard_pile_codes: if codes { cards_to_codes(pile_cards()) } else { Vec::new() },
        known_cards: if known_codes {
            Vec::new()
        } else {
            public.known_cards.iter().map(|&known| set_to_pb(known)).collect()
        },
        known_cards_codes: if known_codes {
            public.known_cards.iter().map(|&known| cards_to_codes(known)).collect()
        } else {
            Vec::new()
        },
        knock_limit: u32::from(public.knock_limit),
        to_act: public.to_act.map(seat_to_pb),
        hands_won: public.hands_won.to_vec(),
        multiplier: public.multiplier,
        hand_sizes: public.hand_sizes.iter().map(|&n| count(n)).collect(),
        upcard_draws: public.upcard_draws,
        dealt_upcards: count(dealt_upcards),
        discarded_by: public.discard_pile[dealt_upcards..]
            .iter()
            .map(|pile| pile.by.map_or(u32::MAX, seat_to_pb))
            .collect(),
        stock_only,
        taken,
        must_go_out,
        last_result: public.last_result.as_ref().map(|result| Box::new(hand_result_to_pb(result))),
        outcome: public.outcome.as_ref().map(|outcome| Box::new(outcome_to_pb(outcome))),
    }
}

fn set_to_pb(cards: CardSet) -> pb::Cards {
    pb::Cards { cards: cards_to_pb(cards) }
}

fn melds_to_pb(melds: &Arrangement) -> Vec<pb::Cards> {
    melds.melds().map(set_to_pb).collect()
}

fn hand_result_to_pb(result: &HandResult) -> pb::GinHandResult {
    let showdown = match &result.end {
        HandEnd::Showdown(showdown) => Some(showdown_to_pb(showdown)),
        HandEnd::Wall | HandEnd::UpcardLimit => None,
    };
    pb::GinHandResult {
        deal: result.hand_number,
        dealer: seat_to_pb(result.dealer),
        end: hand_end_to_pb(&result.end) as i32,
        showdown,
        winner: result.winner.map(seat_to_pb),
        undercut: result.undercut,
        points: result.points,
        scores: result.scores.to_vec(),
    }
}

/// How a hand ended, on the wire.
fn hand_end_to_pb(end: &HandEnd) -> pb::GinHandEnd {
    match end {
        HandEnd::Showdown(_) => pb::GinHandEnd::Showdown,
        HandEnd::Wall => pb::GinHandEnd::Wall,
        HandEnd::UpcardLimit => pb::GinHandEnd::UpcardLimit,
    }
}

/// How a player went out, on the wire.
fn go_out_to_pb(kind: GoOut) -> pb::GinGoOut {
    match kind {
        GoOut::Knock => pb::GinGoOut::Knock,
        GoOut::Gin => pb::GinGoOut::Gin,
        GoOut::BigGin => pb::GinGoOut::BigGin,
    }
}

/// How many entries of a layout's `onto` go on the wire: trailing empty ones are left out.
fn onto_len(layout: &Layout) -> usize {
    layout.onto.iter().rposition(|set| !set.is_empty()).map_or(0, |last| last + 1)
}

fn showdown_to_pb(showdown: &Showdown) -> pb::GinShowdown {
    let layout = &showdown.layout;
    let onto = onto_len(layout);
    pb::GinShowdown {
        knocker: seat_to_pb(showdown.knocker),
        kind: go_out_to_pb(showdown.kind) as i32,
        discard: showdown.discard.map(card_to_pb),
        melds: melds_to_pb(&showdown.melds),
        deadwood_cards: cards_to_pb(showdown.deadwood_cards),
        deadwood: u32::from(showdown.deadwood),
        defender: seat_to_pb(showdown.defender),
        layout: Some(pb::GinLayout {
            melds: melds_to_pb(&layout.melds),
            layoffs: cards_to_pb(layout.layoffs),
            onto: layout.onto[..onto].iter().map(|&set| set_to_pb(set)).collect(),
            deadwood_cards: cards_to_pb(layout.deadwood_cards),
            deadwood: u32::from(layout.deadwood),
        }),
    }
}

fn outcome_to_pb(outcome: &Outcome) -> pb::GinOutcome {
    pb::GinOutcome {
        totals: outcome.totals.to_vec(),
        points: outcome.points.to_vec(),
        hands_won: outcome.hands_won.to_vec(),
        winner: outcome.winner.map(seat_to_pb),
        standings: outcome.standings.iter().map(standing_to_pb).collect(),
    }
}

/// A set of cards from the wire: real cards (`what` names them in the error about a card),
/// each once (GR-1).
fn set_from_pb(cards: &[pb::Card], what: &str) -> Result<CardSet, WireError> {
    set_from_list(CardList::Messages(cards), what)
}

/// [`set_from_pb`] for a list sent either way (`Omit.cards`). Every `Turn` reads three (the hand
/// and each seat's known cards): a list of real cards, each once, is read by table lookups
/// alone; anything else is read again by [`set_from_list_checked`] for its error.
fn set_from_list(cards: CardList<'_>, what: &str) -> Result<CardSet, WireError> {
    let mut bits = 0u64;
    let mut add = |code: Option<u8>| {
        let bit = code.map_or(0, |code| CARD_BITS[usize::from(code)]);
        let fresh = bit != 0 && bits & bit == 0;
        bits |= bit;
        fresh
    };
    let all_fresh = match cards {
        CardList::Codes(codes) => codes.iter().all(|&code| add(Some(code))),
        CardList::Messages(cards) => cards.iter().all(|card| add(card_code(card))),
    };
    if !all_fresh {
        return set_from_list_checked(cards, what);
    }
    // Every bit is a card's (`CARD_BITS`).
    Ok(CardSet::from_bits(bits).unwrap_or_default())
}

/// A `Card` message's card code (`(rank - 2) * 4 + (suit - 1)`, as [`cards_to_codes`] writes
/// it), if it is a card.
fn card_code(card: &pb::Card) -> Option<u8> {
    let rank = u8::try_from(card.rank.wrapping_sub(2)).ok().filter(|&rank| rank < 13)?;
    let suit = u8::try_from(card.suit.wrapping_sub(1)).ok().filter(|&suit| suit < 4)?;
    Some(rank * 4 + suit)
}

/// [`set_from_list`] card by card, with the error about the first card that is none or is
/// there twice.
fn set_from_list_checked(cards: CardList<'_>, what: &str) -> Result<CardSet, WireError> {
    let mut bits = 0;
    each_card(cards, |card| {
        let card = card.map_err(|err| err.within(what))?;
        let bit = CARD_BITS[usize::from(card.index())];
        if bits & bit != 0 {
            return Err(WireError::rule(ParseCardSetError::Duplicate(card)));
        }
        bits |= bit;
        Ok(())
    })?;
    // Every bit is a card's (`CARD_BITS`).
    Ok(CardSet::from_bits(bits).unwrap_or_default())
}

/// Each card's bit in a [`CardSet`] by its code ([`Card::index`], below 52; the table has a
/// byte's 256 entries so that no index is out of bounds): `CardSet::single`, computed once. The
/// engine's `CardSet::insert`, a few calls across crates, was a third of reading a `Turn`'s
/// cards.
const CARD_BITS: [u64; 256] = {
    let mut bits = [0; 256];
    let mut code = 0;
    while code < 52 {
        if let Some(card) = Card::from_index(code) {
            bits[code as usize] = CardSet::single(card).bits();
        }
        code += 1;
    }
    bits
};

/// Calls `each` with every card of a list in order, or with the error about one that is no
/// card, until `each` gives an error. One loop per form: [`CardList::iter`] chains both forms'
/// iterators, which took half the instructions of reading a `Turn`'s few cards.
fn each_card(
    cards: CardList<'_>,
    mut each: impl FnMut(Result<Card, WireError>) -> Result<(), WireError>,
) -> Result<(), WireError> {
    match cards {
        CardList::Messages(cards) => cards.iter().try_for_each(|card| each(card_from_pb(card))),
        CardList::Codes(codes) => codes.iter().try_for_each(|&code| each(card_from_code(code))),
    }
}

/// Melds from the wire, checked and put in canonical form (GR-2).
fn melds_from_pb<K: AsRef<[pb::Card]>>(melds: &[K], what: &str) -> Result<Arrangement, WireError> {
    // No more than a hand holds on the stack; more are refused by `Arrangement::new`, for
    // which they are gathered in a `Vec`.
    let mut few = [CardSet::EMPTY; MAX_MELDS];
    let mut many = Vec::new();
    let sets = match few.get_mut(..melds.len()) {
        Some(few) => few,
        None => {
            many.resize(melds.len(), CardSet::EMPTY);
            &mut many[..]
        }
    };
    for (set, meld) in sets.iter_mut().zip(melds) {
        *set = set_from_pb(meld.as_ref(), what)?;
    }
    Arrangement::new(sets).map_err(|err| WireError::rule(err).within(what))
}

/// The public view from a seat's typed view, with the match's options (which it does not
/// repeat).
fn public_from_view<K: AsRef<[pb::Card]>, C: AsRef<[u8]>>(
    view: &TypedView<'_, K, C>,
    options: Options,
    mut discard_pile: Vec<PileCard>,
) -> Result<PublicView, WireError> {
    let to_act = view.to_act.map(seat_from_pb).transpose()?;
    let seat = || {
        to_act.ok_or(WireError::Incomplete("the phase has a seat to act, but `to_act` is unset"))
    };
    let phase = match pb::GinPhase::try_from(view.phase).unwrap_or(pb::GinPhase::Unspecified) {
        pb::GinPhase::FirstUpcard => Phase::FirstUpcard { seat: seat()? },
        pb::GinPhase::Draw => Phase::Draw { seat: seat()?, stock_only: view.stock_only },
        pb::GinPhase::Discard => Phase::Discard {
            seat: seat()?,
            taken: view.taken.as_ref().map(card_from_pb).transpose()?,
            must_go_out: view.must_go_out,
        },
        pb::GinPhase::Wall => Phase::Wall { seat: seat()? },
        pb::GinPhase::MatchOver => Phase::MatchOver,
        pb::GinPhase::Unspecified => {
            return Err(WireError::Incomplete("the Gin Rummy phase is not set"));
        }
    };
    let dealt = size(view.dealt_upcards);
    let pile = CardList::of(view.discard_pile, view.discard_pile_codes, "discard_pile")?;
    if dealt.saturating_add(view.discarded_by.len()) != pile.len() {
        return Err(WireError::Inconsistent(format!(
            "the discard pile holds {} cards, but {dealt} dealt and {} discarded",
            pile.len(),
            view.discarded_by.len()
        )));
    }
    // Sized once: collecting `Result`s would grow the pile from nothing, once a Turn.
    discard_pile.clear();
    discard_pile.reserve(pile.len());
    // As many as the pile holds above the dealt cards (checked above).
    let mut discarded_by = view.discarded_by.iter();
    each_card(pile, |card| {
        let card = card?;
        let by = if discard_pile.len() < dealt {
            None
        } else {
            discarded_by.next().map(|&seat| seat_from_pb(seat)).transpose()?
        };
        discard_pile.push(PileCard { card, by });
        Ok(())
    })?;
    // Every entry is checked, however many; two are kept (one per seat, checked below).
    let known_lists = match (view.known_cards.len(), view.known_cards_codes.len()) {
        (0, entries) | (entries, 0) => entries,
        _ => return Err(WireError::BothCardForms { field: "known_cards".to_owned() }),
    };
    let mut known = [CardSet::EMPTY; 2];
    for i in 0..known_lists {
        let cards = match (view.known_cards.get(i), view.known_cards_codes.get(i)) {
            (Some(cards), _) => CardList::Messages(cards.as_ref()),
            (None, codes) => CardList::Codes(codes.map_or(&[][..], AsRef::as_ref)),
        };
        let cards = set_from_list(cards, "the known cards")?;
        if let Some(slot) = known.get_mut(i) {
            *slot = cards;
        }
    }
    let hand_sizes = pair(view.hand_sizes, "hand_sizes")?;
    Ok(PublicView {
        options,
        hand_number: view.deal,
        dealer: seat_from_pb(view.dealer)?,
        phase,
        to_act,
        scores: pair(view.scores, "scores")?,
        hands_won: pair(view.hands_won, "hands_won")?,
        knock_limit: byte(view.knock_limit, "knock_limit")?,
        multiplier: view.multiplier,
        stock_size: size(view.stock_size),
        discard_pile,
        hand_sizes: hand_sizes.map(size),
        known_cards: if known_lists == 2 {
            known
        } else {
            pair(&vec![CardSet::EMPTY; known_lists], "known_cards")?
        },
        upcard_draws: view.upcard_draws,
        last_result: view.last_result.as_ref().map(hand_result_from_view).transpose()?,
        outcome: view.outcome.map(outcome_from_pb).transpose()?,
    })
}

/// A hand's result from either reader's view of it.
fn hand_result_from_view<K: AsRef<[pb::Card]>>(
    result: &HandResultView<'_, K>,
) -> Result<HandResult, WireError> {
    let end = match pb::GinHandEnd::try_from(result.end).unwrap_or(pb::GinHandEnd::Unspecified) {
        pb::GinHandEnd::Showdown => {
            let showdown = result
                .showdown
                .as_ref()
                .ok_or(WireError::Incomplete("a showdown's hand end has no `showdown`"))?;
            HandEnd::Showdown(showdown_from_view(showdown)?)
        }
        pb::GinHandEnd::Wall => HandEnd::Wall,
        pb::GinHandEnd::UpcardLimit => HandEnd::UpcardLimit,
        pb::GinHandEnd::Unspecified => {
            return Err(WireError::Incomplete("the hand's end is not set"));
        }
    };
    Ok(HandResult {
        hand_number: result.deal,
        dealer: seat_from_pb(result.dealer)?,
        end,
        winner: result.winner.map(seat_from_pb).transpose()?,
        undercut: result.undercut,
        points: result.points,
        scores: pair(result.scores, "scores")?,
    })
}

fn showdown_from_view<K: AsRef<[pb::Card]>>(
    showdown: &ShowdownView<'_, K>,
) -> Result<Showdown, WireError> {
    let kind = match pb::GinGoOut::try_from(showdown.kind).unwrap_or(pb::GinGoOut::Unspecified) {
        pb::GinGoOut::Knock => GoOut::Knock,
        pb::GinGoOut::Gin => GoOut::Gin,
        pb::GinGoOut::BigGin => GoOut::BigGin,
        pb::GinGoOut::Unspecified => {
            return Err(WireError::Incomplete("the showdown's `kind` is not set"));
        }
    };
    let layout =
        showdown.layout.as_ref().ok_or(WireError::Incomplete("the showdown has no `layout`"))?;
    if layout.onto.len() > MAX_MELDS {
        return Err(WireError::Inconsistent(format!(
            "the layout lays off onto {} melds, not at most {MAX_MELDS}",
            layout.onto.len()
        )));
    }
    let mut onto = [CardSet::EMPTY; MAX_MELDS];
    for (slot, cards) in onto.iter_mut().zip(layout.onto) {
        *slot = set_from_pb(cards.as_ref(), "the layoffs onto a meld")?;
    }
    Ok(Showdown {
        knocker: seat_from_pb(showdown.knocker)?,
        kind,
        discard: showdown.discard.as_ref().map(card_from_pb).transpose()?,
        melds: melds_from_pb(showdown.melds, "the knocker's melds")?,
        deadwood_cards: set_from_pb(showdown.deadwood_cards, "the knocker's deadwood")?,
        deadwood: byte(showdown.deadwood, "deadwood")?,
        defender: seat_from_pb(showdown.defender)?,
        layout: Layout {
            melds: melds_from_pb(layout.melds, "the defender's melds")?,
            layoffs: set_from_pb(layout.layoffs, "the layoffs")?,
            onto,
            deadwood_cards: set_from_pb(layout.deadwood_cards, "the defender's deadwood")?,
            deadwood: byte(layout.deadwood, "deadwood")?,
        },
    })
}

fn outcome_from_pb(outcome: &pb::GinOutcome) -> Result<Outcome, WireError> {
    Ok(Outcome {
        totals: pair(&outcome.totals, "totals")?,
        points: pair(&outcome.points, "points")?,
        hands_won: pair(&outcome.hands_won, "hands_won")?,
        winner: outcome.winner.map(seat_from_pb).transpose()?,
        standings: outcome.standings.iter().map(standing_from_pb).collect::<Result<_, _>>()?,
    })
}

/// One card from the wire; the error says which card of the action it is.
fn read_card(card: &pb::Card, what: &str) -> Result<Card, WireError> {
    card_from_pb(card).map_err(|err| err.within(what))
}

/// One meld of a knock from the wire, the `number`th (from 1): real cards, each once.
fn read_meld(meld: &pb::Cards, number: usize) -> Result<CardSet, WireError> {
    if meld.cards.is_empty() {
        return Err(WireError::Rule(format!("GR-2: meld {number} of the knock holds no cards")));
    }
    set_from_pb(&meld.cards, &format!("meld {number} of the knock"))
}

/// The phase on the wire.
fn phase_to_pb(phase: Phase) -> pb::GinPhase {
    match phase {
        Phase::FirstUpcard { .. } => pb::GinPhase::FirstUpcard,
        Phase::Draw { .. } => pb::GinPhase::Draw,
        Phase::Discard { .. } => pb::GinPhase::Discard,
        Phase::Wall { .. } => pb::GinPhase::Wall,
        Phase::MatchOver => pb::GinPhase::MatchOver,
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use std::collections::{BTreeSet, HashSet};

    use cardroom_games::Game;
    use cardroom_games::gin::FirstUpcard;

    use super::*;
    use crate::wire::TestRng as Rng;
    use crate::wire::enum_tag;

    /// Options over every switch that changes which actions exist, with short matches.
    fn random_options(rng: &mut Rng) -> Options {
        let oklahoma = rng.coin();
        Options {
            first_upcard: if rng.coin() { FirstUpcard::Seed } else { FirstUpcard::Standard },
            discard_taken_upcard: rng.coin(),
            knock_limit: [10, 10, 7, 3, 0][rng.below(5)],
            oklahoma,
            oklahoma_spades_double: oklahoma && rng.coin(),
            big_gin: rng.coin(),
            wall_knock: rng.coin(),
            max_upcard_draws: [50, 5][rng.below(2)],
            target: [100, 50, 25][rng.below(3)],
            ..Options::default()
        }
    }

    /// Most actions played in one random match: random play seldom goes gin, so with
    /// `knock_limit` 0 most hands end at the wall and a match can take thousands of hands
    /// (and observations, which list every hand's result, grow with them).
    const MAX_ACTIONS: usize = 600;

    /// Plays `matches` random matches (to the end, or [`MAX_ACTIONS`] actions) and calls
    /// `check` on every state on the way (the final one included), with the events of the
    /// action that led to it. Random play goes out whenever it can half of the time, so that
    /// hands end by knocks and gin as well as at the wall.
    pub(super) fn for_random_states(
        matches: u64,
        mut check: impl FnMut(&State, &[cardroom_games::gin::Event]),
    ) {
        for seed in 0..matches {
            let mut rng = Rng::new(seed);
            let options = random_options(&mut rng);
            let mut state = State::new(options, seed).unwrap();
            check(&state, &state.opening_events());
            for _ in 0..MAX_ACTIONS {
                let Some(seat) = state.to_act() else { break };
                let legal = state.legal_actions();
                let going_out: Vec<Action> = legal
                    .iter()
                    .copied()
                    .filter(|a| matches!(a, Action::Knock { .. } | Action::Gin { .. }))
                    .collect();
                let action = if !going_out.is_empty() && rng.coin() {
                    going_out[rng.below(going_out.len())]
                } else {
                    legal[rng.below(legal.len())]
                };
                let events = state
                    .apply(seat, action)
                    .unwrap_or_else(|err| panic!("seed {seed}, {options:?}: {err}"));
                check(&state, &events);
            }
        }
    }

    fn card(code: &str) -> Card {
        code.parse().unwrap()
    }

    fn pb_card(code: &str) -> pb::Card {
        card_to_pb(card(code))
    }

    fn pb_meld(codes: &str) -> pb::Cards {
        pb::Cards { cards: codes.split(' ').map(pb_card).collect() }
    }

    fn pb_gin(action: pb::gin_action::Action) -> pb::Action {
        pb::Action { game: Some(pb::action::Game::Gin(pb::GinAction { action: Some(action) })) }
    }

    fn pb_knock(discard: Option<pb::Card>, melds: Vec<pb::Cards>) -> pb::Action {
        pb_gin(pb::gin_action::Action::Knock(pb::gin_action::Knock { discard, melds }))
    }

    #[test]
    fn every_legal_action_round_trips() {
        let mut kinds = HashSet::new();
        for_random_states(120, |state, _| {
            for action in state.legal_actions() {
                let wire = State::action_to_pb(&action);
                assert_eq!(State::action_from_pb(&wire), Ok(action));
                kinds.insert(std::mem::discriminant(&action));
            }
        });
        // Big gin is too rare in random play to count on; it is checked below.
        assert!(kinds.len() >= 7, "every other kind of action was met");
        let big_gin = State::action_to_pb(&Action::BigGin);
        assert_eq!(big_gin, pb_gin(pb::gin_action::Action::BigGin(pb::gin_action::Empty {})));
        assert_eq!(State::action_from_pb(&big_gin), Ok(Action::BigGin));
    }

    #[test]
    fn knocks_carry_their_melds_in_set_order() {
        let melds = Arrangement::new(&[
            "5C 5D 5H".parse().unwrap(),
            "AS 2S 3S".parse().unwrap(),
            "7D 8D 9D TD".parse().unwrap(),
        ])
        .unwrap();
        let action = Action::Knock { discard: card("9H"), melds };
        let wire = State::action_to_pb(&action);
        let expected = pb_knock(
            Some(pb_card("9H")),
            vec![pb_meld("5C 5D 5H"), pb_meld("7D 8D 9D TD"), pb_meld("AS 2S 3S")],
        );
        assert_eq!(wire, expected);
        assert_eq!(State::action_from_pb(&wire), Ok(action));
        let bad = pb_knock(Some(pb_card("9H")), vec![pb_meld("9D TD"), pb_meld("5H 5D 5C")]);
        assert!(State::action_from_pb(&bad).is_err(), "9D TD alone is no meld");
        // Melds in any order, cards in any order, a run laid in two parts: the same knock,
        // read in canonical form.
        let long_run =
            Arrangement::new(&["5C 5D 5H".parse().unwrap(), "AS 2S 3S 4S 5S 6S".parse().unwrap()])
                .unwrap();
        let action = Action::Knock { discard: card("9H"), melds: long_run };
        let split = pb_knock(
            Some(pb_card("9H")),
            vec![pb_meld("6S 5S 4S"), pb_meld("5H 5D 5C"), pb_meld("3S AS 2S")],
        );
        assert_eq!(State::action_from_pb(&split), Ok(action));
        assert_eq!(
            State::action_to_pb(&action),
            pb_knock(Some(pb_card("9H")), vec![pb_meld("5C 5D 5H"), pb_meld("AS 2S 3S 4S 5S 6S")])
        );
        let no_melds = Action::Knock { discard: card("KC"), melds: Arrangement::EMPTY };
        assert_eq!(State::action_from_pb(&State::action_to_pb(&no_melds)), Ok(no_melds));
    }

    #[test]
    fn malformed_actions_are_refused() {
        use pb::gin_action::Action as Pb;
        let check = |action: pb::Action, expected: &str| {
            assert_eq!(
                State::action_from_pb(&action).map_err(|e| e.to_string()),
                Err(expected.to_owned())
            );
        };
        check(pb::Action { game: None }, "the action names no game: set `gin`");
        check(
            pb::Action {
                game: Some(pb::action::Game::TwentyTwo(pb::TwentyTwoAction {
                    action: Some(pb::twenty_two_action::Action::Play(pb_meld("7S"))),
                })),
            },
            "this match plays Gin Rummy, but the action is a Twenty-Two action",
        );
        check(
            pb::Action { game: Some(pb::action::Game::Gin(pb::GinAction { action: None })) },
            "the Gin Rummy action is empty: set one of `take_upcard`, `pass_upcard`, \
             `draw_stock`, `draw_discard`, `discard`, `knock`, `gin`, `big_gin`",
        );
        check(
            pb_gin(Pb::Discard(pb::Card { rank: 1, suit: 2 })),
            "the discard: 1 is not a rank (2 to 14)",
        );
        check(
            pb_gin(Pb::Gin(pb::Card { rank: 12, suit: 7 })),
            "the gin discard: 7 is not a suit (1 to 4)",
        );
        check(pb_gin(Pb::Discard(pb::Card::default())), "the discard: 0 is not a rank (2 to 14)");
        check(pb_knock(None, vec![]), "the knock names no discard: set `discard`");
        check(
            pb_knock(Some(pb::Card { rank: 15, suit: 1 }), vec![]),
            "the knock's discard: 15 is not a rank (2 to 14)",
        );
        let bad_card = pb::Cards { cards: vec![pb_card("AS"), pb::Card { rank: 3, suit: 0 }] };
        check(
            pb_knock(Some(pb_card("KC")), vec![pb_meld("5C 5D 5H"), bad_card]),
            "meld 2 of the knock: 0 is not a suit (1 to 4)",
        );
        check(
            pb_knock(Some(pb_card("KC")), vec![pb_meld("5C 6D 7H")]),
            "GR-2: 5♣ 6♦ 7♥ is not a meld (3 or 4 cards of one rank, or 3 or more of one suit \
             in sequence, ace low)",
        );
        check(
            pb_knock(Some(pb_card("KC")), vec![pb_meld("QS KS AS")]),
            "GR-2: A♠ Q♠ K♠ is not a meld (3 or 4 cards of one rank, or 3 or more of one suit \
             in sequence, ace low)",
        );
        check(
            pb_knock(Some(pb_card("KC")), vec![pb_meld("5C 5D 5H"), pb_meld("5H 6H 7H")]),
            "GR-2: a card belongs to at most one meld, but 5♥ is in two",
        );
        check(
            pb_knock(Some(pb_card("KC")), vec![pb_meld("5C 5D 5D 5H")]),
            "GR-1: 5♦ is named twice; there is one pack",
        );
        check(
            pb_knock(Some(pb_card("KC")), vec![pb_meld("5C 5D 5H"), pb::Cards::default()]),
            "GR-2: meld 2 of the knock holds no cards",
        );
        check(
            pb_knock(
                Some(pb_card("KC")),
                vec![
                    pb_meld("AC 2C 3C"),
                    pb_meld("AD 2D 3D"),
                    pb_meld("AH 2H 3H"),
                    pb_meld("AS 2S 3S"),
                ],
            ),
            "GR-2: a hand of at most 11 cards holds at most 3 melds, not 4",
        );
    }

    #[test]
    fn observations_match_the_engine() {
        let mut phases = BTreeSet::new();
        for_random_states(40, |state, _| {
            for seat in [Seat(0), Seat(1)] {
                let observation = state.observation(seat);
                let wire = State::observation_to_pb(&observation, &pb::Omit::default());
                check_observation(&observation, &wire);
                phases.insert(phase_to_pb(observation.public.phase));
            }
        });
        assert_eq!(phases.len(), 5, "{phases:?}");
    }

    /// The typed form alone rebuilds the engine's observation, for both seats at every step of
    /// random matches over every switch (hand results of every kind and the outcome included),
    /// without the options (they are in `Joined`).
    #[test]
    fn every_observation_is_rebuilt_from_the_typed_form() {
        let mut ends = HashSet::new();
        let mut outcomes = 0;
        for_random_states(30, |state, _| {
            crate::wire::assert_every_seat_rebuilt(state);
            let public = state.public_view();
            if let Some(result) = public.last_result {
                ends.insert(std::mem::discriminant(&result.end));
            }
            outcomes += usize::from(public.outcome.is_some());
        });
        assert_eq!(ends.len(), 3, "showdowns, walls and the upcard limit were met");
        assert!(outcomes > 0, "finished matches were met");
    }

    #[test]
    fn a_typed_observation_that_cannot_be_one_is_refused() {
        let state = State::new(Options::default(), 3).unwrap();
        let options = *state.options();
        let omit = pb::Omit { json: true, ..pb::Omit::default() };
        let wire = State::observation_to_pb(&state.observation(Seat(0)), &omit);
        let refuse = |wire: &pb::Observation, expected: &str| {
            assert_eq!(
                State::observation_from_pb(wire, &[], &options).map_err(|e| e.to_string()),
                Err(expected.to_owned())
            );
        };
        refuse(
            &pb::Observation { game: None, ..wire.clone() },
            "the observation has no Gin Rummy view (`Observation.gin`)",
        );
        let typed = |edit: &dyn Fn(&mut pb::GinObservation)| {
            let mut bad = wire.clone();
            let Some(pb::observation::Game::Gin(typed)) = &mut bad.game else { panic!() };
            edit(typed);
            bad
        };
        let first = state.observation(Seat(0)).hand.first().unwrap();
        refuse(
            &typed(&|t| t.hand.push(card_to_pb(first))),
            &ParseCardSetError::Duplicate(first).to_string(),
        );
        refuse(&typed(&|t| t.scores.push(0)), "`scores` holds 3 values, not one per seat (2)");
        refuse(
            &typed(&|t| t.dealt_upcards = 5),
            "the discard pile holds 1 cards, but 5 dealt and 0 discarded",
        );
        refuse(&typed(&|t| t.to_act = None), "the phase has a seat to act, but `to_act` is unset");
    }

    fn check_observation(observation: &Observation, wire: &pb::Observation) {
        let back: Observation = serde_json::from_str(&wire.json).unwrap();
        assert_eq!(&back, observation);
        assert_eq!(wire.seat, u32::from(observation.seat.0));
        let Some(pb::observation::Game::Gin(typed)) = &wire.game else {
            panic!("not a Gin Rummy observation: {wire:?}");
        };
        let public = &observation.public;
        assert_eq!(typed.hand, cards_to_pb(observation.hand));
        assert_eq!(typed.hand.len(), observation.hand.len());
        assert_eq!(typed.drawn, observation.drawn.map(card_to_pb));
        assert_eq!(typed.scores, public.scores);
        assert_eq!(typed.dealer, u32::from(public.dealer.0));
        assert_eq!(typed.deal, public.hand_number);
        assert_eq!(typed.stock_size as usize, public.stock_size);
        let pile: Vec<pb::Card> = public.discard_pile.iter().map(|p| card_to_pb(p.card)).collect();
        assert_eq!(typed.discard_pile, pile);
        assert_eq!(typed.known_cards.len(), 2);
        for (wire_known, known) in typed.known_cards.iter().zip(public.known_cards) {
            assert_eq!(wire_known.cards, cards_to_pb(known));
        }
        assert_eq!(typed.knock_limit, u32::from(public.knock_limit));
        // The phase's name is the engine's serde tag.
        let json = serde_json::to_value(public.phase).unwrap();
        assert_eq!(json["phase"], enum_tag(typed.phase().as_str_name(), "GIN_PHASE_"));
        assert_eq!(public.to_act, public.phase.to_act());
        assert_eq!(typed.to_act, public.to_act.map(|seat| u32::from(seat.0)));
    }

    #[test]
    fn a_card_messages_code_is_the_engines_card_index() {
        for rank in -3..20 {
            for suit in -2..8 {
                let card = pb::Card { rank, suit };
                let engine = card_from_pb(&card).ok().map(Card::index);
                assert_eq!(card_code(&card), engine, "rank {rank}, suit {suit}");
            }
        }
        let far = pb::Card { rank: i32::MIN, suit: i32::MAX };
        assert_eq!(card_code(&far), None);
    }

    /// The quick reading of a card list gives what the card-by-card one gives, the set or the
    /// same error, for lists of real cards, cards sent twice and codes that are no card, in
    /// both forms.
    #[test]
    fn card_lists_are_read_as_card_by_card() {
        let mut rng = Rng::new(22);
        for _ in 0..20_000 {
            let len = rng.below(14);
            // Mostly real cards (0 to 51), some that are none.
            let codes: Vec<u8> = (0..len).map(|_| rng.below(56) as u8).collect();
            let messages: Vec<pb::Card> = codes
                .iter()
                .map(|&code| match Card::from_index(code) {
                    Some(card) => card_to_pb(card),
                    None => pb::Card { rank: 2 + i32::from(code) / 4, suit: 5 },
                })
                .collect();
            for list in [CardList::Codes(&codes), CardList::Messages(&messages)] {
                assert_eq!(
                    set_from_list(list, "the hand"),
                    set_from_list_checked(list, "the hand"),
                    "{list:?}"
                );
            }
        }
    }

    #[test]
    fn create_reads_options_and_checks_seats() {
        let state = State::create("", 2, 7).unwrap();
        assert_eq!(state.options(), &Options::default());
        let state = State::create(r#"{"knock_limit": 7, "first_upcard": "seed"}"#, 2, 7).unwrap();
        assert_eq!(state.options().knock_limit, 7);
        assert_eq!(state.options().first_upcard, FirstUpcard::Seed);
        let json = state.options_json();
        assert_eq!(serde_json::from_str::<Options>(&json).unwrap(), *state.options());
        assert!(json.contains("\"shutout_double\":false"), "{json}");
        let again = State::create(&json, 2, 7).unwrap();
        assert_eq!(again.observation(Seat(0)), state.observation(Seat(0)));
    }

    #[test]
    fn create_refuses_bad_options_and_seat_counts() {
        let error =
            |options: &str, seats: u32| State::create(options, seats, 1).unwrap_err().to_string();
        let bad_json = error("[1,", 2);
        assert!(bad_json.starts_with("the Gin Rummy options are not valid: "), "{bad_json}");
        let unknown = error(r#"{"knock_limt": 7}"#, 2);
        assert!(
            unknown.starts_with("the Gin Rummy options are not valid: unknown field `knock_limt`"),
            "{unknown}"
        );
        assert_eq!(error(r#"{"knock_limit": 11}"#, 2), "GR-7: knock_limit must be 0 to 10, not 11");
        assert_eq!(
            error(r#"{"oklahoma_spades_double": true}"#, 2),
            "GR-14: oklahoma_spades_double needs oklahoma"
        );
        for seats in [0, 1, 3, 4, u32::MAX] {
            assert_eq!(
                error("", seats),
                format!("GR-1: Gin Rummy is played by 2 players, not {seats}")
            );
        }
    }

    #[test]
    fn event_kinds_are_the_serde_tags() {
        let mut kinds = BTreeSet::new();
        for_random_states(40, |_, events| {
            for event in events {
                let json = serde_json::to_value(event).unwrap();
                let kind = State::event_to_pb(event).kind;
                assert_eq!(json["event"], kind.as_str());
                kinds.insert(kind);
            }
        });
        assert_eq!(kinds.len(), 10, "{kinds:?}");
    }

    #[test]
    fn the_wire_game_is_gin_rummy() {
        assert_eq!(State::PB, pb::Game::GinRummy);
        assert_eq!(<State as Game>::NAME, "gin");
    }
}
