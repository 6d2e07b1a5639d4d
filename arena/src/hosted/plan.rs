//! The planned schedules: a round robin, a gauntlet or Swiss rounds over the file's `bots`, in
//! their order. The plan is known from the start (Swiss: round by round), so the next table is
//! the plan's first table that no set holds yet and whose bots can play now. A set is matched to
//! the plan by its bots, whatever their seats: a voided set leaves its table to be planned again.

use std::collections::HashMap;

use cardroom_rank::pairwise::set_score;
use cardroom_rank::schedule::{SwissState, gauntlet, round_robin};
use cardroom_store::BotId;

use super::config::{HostedLadderFile, Schedule};
use super::standings::SetPlaces;

/// What a planned schedule does next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Next {
    /// Plan this table.
    Table(Vec<BotId>),
    /// Nothing now: the tables left wait for their bots, or for the round's sets to be rated.
    Wait,
    /// Every table of the plan is rated: the ladder is over.
    Done,
}

/// The plan's state: the file's field by id (`None` for a bot not entered yet), the rated sets
/// in set order, and the open sets' tables.
pub(super) struct PlanView<'a> {
    pub(super) file: &'a HostedLadderFile,
    pub(super) field: Vec<Option<BotId>>,
    pub(super) rated: &'a [SetPlaces],
    pub(super) open: Vec<Vec<BotId>>,
    /// The bots that never share a table (of one author): a planned table holding two of them
    /// is left out of the plan.
    pub(super) apart: Apart<'a>,
}

/// A table as the plan counts it: its bots, sorted.
fn key(bots: impl IntoIterator<Item = BotId>) -> Vec<BotId> {
    let mut key: Vec<BotId> = bots.into_iter().collect();
    key.sort_unstable();
    key
}

/// A rated set's table.
fn rated_key(set: &SetPlaces) -> Vec<BotId> {
    key(set.first().into_iter().flatten().map(|&(bot, _)| bot))
}

impl PlanView<'_> {
    /// The next table among `can_play` (the bots free to be seated now).
    pub(super) fn next(&self, can_play: impl Fn(BotId) -> bool) -> Next {
        let seats = usize::from(self.file.seats);
        let rounds = self.file.plan_rounds() as usize;
        let n = self.field.len();
        let round: Vec<Vec<usize>> = match self.file.schedule {
            Schedule::RoundRobin => round_robin(n, seats),
            Schedule::Gauntlet => {
                let challenger = self.file.challenger.as_deref().unwrap_or_default();
                let names = self.file.bots.as_deref().unwrap_or_default();
                let Some(c) = names.iter().position(|b| b == challenger) else { return Next::Done };
                gauntlet(c, n, seats)
            }
            Schedule::Swiss => return self.swiss(rounds, &can_play),
            Schedule::Adaptive | Schedule::LeastCertain => return Next::Done,
        };
        let round: Vec<Vec<usize>> = round.into_iter().filter(|t| self.allowed(t)).collect();
        let tables: Vec<Vec<usize>> = std::iter::repeat_n(round, rounds).flatten().collect();
        let rated = self.rated.iter().map(rated_key);
        self.first_unheld(&tables, rated, &can_play)
    }

    /// Whether the plan's table `table` (indices in the field) may be played: no two of its
    /// bots are apart. A bot not entered yet keeps its table (it waits for the bot).
    fn allowed(&self, table: &[usize]) -> bool {
        let bots: Vec<BotId> = table.iter().filter_map(|&i| self.field[i]).collect();
        !self.apart.any(&bots)
    }

    /// The first of `tables` that no set holds, if its bots can play; `Done` once every table
    /// is held by a rated set.
    fn first_unheld(
        &self,
        tables: &[Vec<usize>],
        rated: impl Iterator<Item = Vec<BotId>>,
        can_play: &impl Fn(BotId) -> bool,
    ) -> Next {
        let mut rated_held: HashMap<Vec<BotId>, usize> = HashMap::new();
        for table in rated {
            *rated_held.entry(table).or_default() += 1;
        }
        let mut open_held: HashMap<Vec<BotId>, usize> = HashMap::new();
        for table in &self.open {
            *open_held.entry(key(table.iter().copied())).or_default() += 1;
        }
        let mut all_rated = true;
        let mut next = None;
        for table in tables {
            // A table holding a bot not entered yet waits for it.
            let Some(bots) = table.iter().map(|&i| self.field[i]).collect::<Option<Vec<BotId>>>()
            else {
                all_rated = false;
                continue;
            };
            let k = key(bots.iter().copied());
            if let Some(held) = rated_held.get_mut(&k).filter(|held| **held > 0) {
                *held -= 1;
                continue;
            }
            all_rated = false;
            if let Some(held) = open_held.get_mut(&k).filter(|held| **held > 0) {
                *held -= 1;
                continue;
            }
            if next.is_none() && bots.iter().all(|&bot| can_play(bot)) {
                next = Some(bots);
            }
        }
        match next {
            Some(table) => Next::Table(table),
            None if all_rated => Next::Done,
            None => Next::Wait,
        }
    }

    /// Swiss rounds: each round is paired from the points of the rounds before it, once they
    /// are all rated (a set scores 1 to the bot ahead in most of its matches, ½ each when
    /// level; a bye scores 1).
    fn swiss(&self, rounds: usize, can_play: &impl Fn(BotId) -> bool) -> Next {
        let Some(field) = self.field.iter().copied().collect::<Option<Vec<BotId>>>() else {
            // Swiss pairs the whole field: it starts once every bot has entered.
            return Next::Wait;
        };
        let index: HashMap<BotId, usize> = field.iter().enumerate().map(|(i, &b)| (b, i)).collect();
        let mut state = SwissState::new(field.len());
        let mut rated = self.rated.iter();
        for _ in 0..rounds {
            let round = state.pair();
            let tables: Vec<Vec<usize>> =
                round.pairs.iter().map(|p| p.to_vec()).filter(|t| self.allowed(t)).collect();
            // This round's sets are the next rated ones (the next round is paired only once
            // this one is rated whole).
            let this_round: Vec<&SetPlaces> = rated.by_ref().take(tables.len()).collect();
            let next =
                self.first_unheld(&tables, this_round.iter().map(|set| rated_key(set)), can_play);
            if next != Next::Done {
                return next;
            }
            for set in this_round {
                let local: Vec<Vec<(usize, u8)>> = set
                    .iter()
                    .map(|m| m.iter().filter_map(|(b, p)| Some((*index.get(b)?, *p))).collect())
                    .collect();
                if let [a, b] = rated_key(set)[..]
                    && let (Some(&a), Some(&b)) = (index.get(&a), index.get(&b))
                {
                    let score = set_score(local.iter().map(Vec::as_slice), a, b).unwrap_or(0.5);
                    let points = match score.partial_cmp(&0.5) {
                        Some(std::cmp::Ordering::Greater) => 1.0,
                        Some(std::cmp::Ordering::Less) => 0.0,
                        _ => 0.5,
                    };
                    state.record(a, b, points);
                }
            }
            if let Some(bye) = round.bye {
                state.record_bye(bye);
            }
        }
        Next::Done
    }
}

/// Which bots never share a table: two bots of one author, unless the ladder's file allows it
/// (`allow_same_author`). Bots with no author are apart from none.
#[derive(Clone, Copy)]
pub(super) struct Apart<'a> {
    authors: Option<&'a HashMap<BotId, String>>,
}

impl<'a> Apart<'a> {
    /// No two bots apart.
    pub(super) const NONE: Apart<'static> = Apart { authors: None };

    /// Bots of one author in `authors` apart.
    pub(super) fn by_author(authors: &'a HashMap<BotId, String>) -> Apart<'a> {
        Apart { authors: Some(authors) }
    }

    /// Whether `a` and `b` never share a table.
    pub(super) fn pair(&self, a: BotId, b: BotId) -> bool {
        let Some(authors) = self.authors else { return false };
        a != b && authors.get(&a).is_some_and(|author| authors.get(&b) == Some(author))
    }

    /// Whether any two of `bots` are apart.
    pub(super) fn any(&self, bots: &[BotId]) -> bool {
        bots.iter().enumerate().any(|(i, &a)| bots[i + 1..].iter().any(|&b| self.pair(a, b)))
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// The plan of `file` over `field`, no bots apart.
    fn plan<'a>(
        file: &'a HostedLadderFile,
        field: Vec<Option<BotId>>,
        rated: &'a [SetPlaces],
        open: Vec<Vec<BotId>>,
    ) -> PlanView<'a> {
        PlanView { file, field, rated, open, apart: Apart::NONE }
    }

    #[test]
    fn two_bots_of_one_author_never_meet_in_a_plan() {
        let file = file("schedule = \"round_robin\"\nbots = [\"a\", \"b\", \"c\", \"d\"]");
        let field = ids(4);
        let authors: HashMap<BotId, String> =
            [(BotId(1), "x".to_owned()), (BotId(2), "x".to_owned())].into();
        let mut rated = Vec::new();
        loop {
            let view = PlanView {
                file: &file,
                field: field.clone(),
                rated: &rated,
                open: Vec::new(),
                apart: Apart::by_author(&authors),
            };
            match view.next(|_| true) {
                Next::Table(table) => {
                    assert!(!(table.contains(&BotId(1)) && table.contains(&BotId(2))), "{table:?}");
                    rated.push(won(table[0].0, table[1].0));
                }
                Next::Done => break,
                Next::Wait => panic!("nothing waits"),
            }
        }
        assert_eq!(rated.len(), 5, "the six pairs but the one of one author");
    }

    fn file(text: &str) -> HostedLadderFile {
        HostedLadderFile::parse(&format!("name = \"p\"\ngame = \"twenty_two\"\n{text}")).unwrap()
    }

    fn ids(n: i64) -> Vec<Option<BotId>> {
        (1..=n).map(|i| Some(BotId(i))).collect()
    }

    /// A rated set of two seatings in which `winner` is ahead both times.
    fn won(winner: i64, loser: i64) -> SetPlaces {
        let (w, l) = (BotId(winner), BotId(loser));
        vec![vec![(w, 1), (l, 2)], vec![(l, 2), (w, 1)]]
    }

    #[test]
    fn a_round_robin_plans_each_table_once_a_round_then_is_done() {
        let file = file("schedule = \"round_robin\"\nrounds = 2\nbots = [\"a\", \"b\", \"c\"]");
        let field = ids(3);
        let mut rated = Vec::new();
        let mut open: Vec<Vec<BotId>> = Vec::new();
        let mut planned = Vec::new();
        loop {
            let view = plan(&file, field.clone(), &rated, open.clone());
            match view.next(|_| true) {
                Next::Table(table) => {
                    planned.push(key(table.iter().copied()));
                    open.push(table);
                }
                Next::Wait => {
                    // Everything planned is rated, in order.
                    let table = open.remove(0);
                    rated.push(won(table[0].0, table[1].0));
                }
                Next::Done => break,
            }
        }
        assert_eq!(planned.len(), 6, "3 tables, 2 rounds: {planned:?}");
        for table in &planned {
            assert_eq!(planned.iter().filter(|t| *t == table).count(), 2);
        }
        assert!(open.is_empty());
    }

    #[test]
    fn a_table_waits_for_a_busy_bot_while_the_others_are_planned() {
        let file = file("schedule = \"round_robin\"\nbots = [\"a\", \"b\", \"c\", \"d\"]");
        let field = ids(4);
        let view = plan(&file, field.clone(), &[], Vec::new());
        let busy = BotId(1);
        match view.next(|bot| bot != busy) {
            Next::Table(table) => assert!(!table.contains(&busy), "{table:?}"),
            other => panic!("{other:?}"),
        }
        assert_eq!(view.next(|_| false), Next::Wait);
    }

    #[test]
    fn a_voided_set_leaves_its_table_to_plan_again_and_an_absent_bot_is_waited_for() {
        let file =
            file("schedule = \"gauntlet\"\nchallenger = \"a\"\nbots = [\"a\", \"b\", \"c\"]");
        let mut field = ids(3);
        field[2] = None;
        let view = plan(&file, field.clone(), &[], Vec::new());
        assert_eq!(view.next(|_| true), Next::Table(vec![BotId(1), BotId(2)]));
        let rated = [won(1, 2)];
        let view = plan(&file, field.clone(), &rated, Vec::new());
        assert_eq!(view.next(|_| true), Next::Wait, "c has not entered");
        let field = ids(3);
        let view = plan(&file, field.clone(), &rated, Vec::new());
        assert_eq!(view.next(|_| true), Next::Table(vec![BotId(1), BotId(3)]));
    }

    #[test]
    fn swiss_pairs_the_next_round_by_points_once_the_round_is_rated() {
        let file = file("schedule = \"swiss\"\nrounds = 2\nbots = [\"a\", \"b\", \"c\", \"d\"]");
        let field = ids(4);
        let view = plan(&file, field.clone(), &[], Vec::new());
        let Next::Table(first) = view.next(|_| true) else { panic!("round 1") };
        let open = vec![first.clone()];
        let view = plan(&file, field.clone(), &[], open.clone());
        let Next::Table(second) = view.next(|_| true) else { panic!("round 1, second table") };
        let open = vec![first.clone(), second.clone()];
        let view = plan(&file, field.clone(), &[], open);
        assert_eq!(view.next(|_| true), Next::Wait, "round 2 waits for round 1's ratings");
        // Round 1: the first of each pair wins; round 2 pairs the two winners.
        let rated = [won(first[0].0, first[1].0), won(second[0].0, second[1].0)];
        let view = plan(&file, field.clone(), &rated, Vec::new());
        let Next::Table(top) = view.next(|_| true) else { panic!("round 2") };
        assert_eq!(key(top), key([first[0], second[0]]), "the winners meet");
    }
}
