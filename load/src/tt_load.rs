//! What the load does that is Twenty-Two's: its [`QuickGame`] implementation (the load's bot
//! plays at random).

use cardroom_sdk::games::twenty_two;
use cardroom_sdk::{AnyBot, Bot, GameKind};

use crate::load::{self, QuickGame, QuickVisitor};

impl QuickGame for twenty_two::State {
    fn into_any(bot: Box<dyn Bot<twenty_two::State>>) -> AnyBot {
        AnyBot::TwentyTwo(bot)
    }
}

/// [`load::visit`]'s step for Twenty-Two.
pub(crate) fn visit_if<V: QuickVisitor>(game: GameKind, visitor: V) -> Result<V::Output, V> {
    load::visit_if::<twenty_two::State, V>(game, visitor)
}
