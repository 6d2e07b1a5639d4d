//! Move generation and the legality check (HE-8 to HE-12), over the public [`Round`] alone:
//! a state and a seat's observation give the same legal actions in the same order.

use std::ops::RangeInclusive;

use super::action::Action;
use super::error::IllegalAction;
use super::options::{Betting, Options};
use super::view::{Round, SeatStatus};
use crate::seat::Seat;

impl Round {
    /// `seat`'s legal actions when it is to act, sorted: fold, check or call, then every raise
    /// size from the smallest; empty when it is not its turn.
    pub fn legal_actions(&self, options: &Options, seat: Seat) -> Vec<Action> {
        let mut legal = Vec::new();
        self.legal_actions_into(options, seat, &mut legal);
        legal
    }

    /// [`Round::legal_actions`] written over `legal`.
    pub fn legal_actions_into(&self, options: &Options, seat: Seat, legal: &mut Vec<Action>) {
        legal.clear();
        if self.to_act != Some(seat) {
            return;
        }
        if self.to_call(seat) > 0 {
            legal.extend([Action::Fold, Action::Call]);
        } else {
            legal.push(Action::Check);
        }
        if let Ok(sizes) = self.raise_sizes(options, seat) {
            legal.extend(sizes.map(Action::RaiseTo));
        }
    }

    /// The chips `seat` needs to put in to match the round's bet (before any all-in cap).
    pub fn to_call(&self, seat: Seat) -> u32 {
        self.seats.get(seat.index()).map_or(0, |chips| self.bet.saturating_sub(chips.bet))
    }

    /// The sizes `seat` may raise to (each the round's bet in all), or why it may not raise.
    pub fn raise_sizes(
        &self,
        options: &Options,
        seat: Seat,
    ) -> Result<RangeInclusive<u32>, IllegalAction> {
        let Some(me) = self.seats.get(seat.index()) else {
            return Err(IllegalAction::NoSuchSeat { seat, players: self.seats.len() as u8 });
        };
        let all_in = me.bet + me.stack;
        if all_in <= self.bet {
            return Err(IllegalAction::ShortOfTheBet { chips: all_in, bet: self.bet });
        }
        let others_can_call = self
            .seats
            .iter()
            .enumerate()
            .any(|(i, other)| i != seat.index() && other.status == SeatStatus::Active);
        if !others_can_call {
            return Err(IllegalAction::NobodyToCall);
        }
        let limit = options.limit_bet(self.street);
        if options.betting == Betting::Limit && self.raises >= options.raise_cap {
            return Err(IllegalAction::RaiseCapped { cap: options.raise_cap });
        }
        if let Some(acted_at) = me.acted_at {
            let reopens = match options.betting {
                Betting::NoLimit => self.raise_by,
                Betting::Limit => limit.div_ceil(2),
            };
            if self.bet - acted_at < reopens {
                return Err(IllegalAction::NotReopened { acted_at, bet: self.bet });
            }
        }
        Ok(match options.betting {
            Betting::NoLimit => (self.bet + self.raise_by).min(all_in)..=all_in,
            Betting::Limit => {
                let to = (self.bet + limit).min(all_in);
                to..=to
            }
        })
    }

    /// Whether `seat` may take `action` now, and if not, the rule it breaks.
    pub fn check(
        &self,
        options: &Options,
        seat: Seat,
        action: Action,
    ) -> Result<(), IllegalAction> {
        let to_call = self.to_call(seat);
        match action {
            Action::Fold if to_call == 0 => Err(IllegalAction::FoldWithoutBet),
            Action::Check if to_call > 0 => Err(IllegalAction::CheckFacingBet { to_call }),
            Action::Call if to_call == 0 => Err(IllegalAction::CallWithoutBet),
            Action::Fold | Action::Check | Action::Call => Ok(()),
            Action::RaiseTo(to) => {
                let sizes = self.raise_sizes(options, seat)?;
                let (min, max) = (*sizes.start(), *sizes.end());
                if options.betting == Betting::Limit && to != min {
                    Err(IllegalAction::LimitSize { to, size: min })
                } else if to < min {
                    Err(IllegalAction::RaiseTooSmall { to, min })
                } else if to > max {
                    Err(IllegalAction::RaiseTooLarge { to, max })
                } else {
                    Ok(())
                }
            }
        }
    }
}
