//! What the load does that is Twenty-Two's: its [`QuickGame`] implementation (the load's bot
//! plays at random), and the default game of `pages`.

use cardroom_sdk::games::twenty_two;
use cardroom_sdk::{AnyBot, Bot, GameKind};

use crate::load::QuickGame;

/// The game the ladder of `pages` plays unless told otherwise.
pub(crate) const PAGES_GAME: GameKind = GameKind::TwentyTwo;

impl QuickGame for twenty_two::State {
    fn into_any(bot: Box<dyn Bot<twenty_two::State>>) -> AnyBot {
        AnyBot::TwentyTwo(bot)
    }
}
