//! What the load does that is Twenty-Two's: its [`QuickGame`] implementation (the load's bot
//! plays at random).

use cardroom_sdk::games::twenty_two;
use cardroom_sdk::{AnyBot, Bot};

use crate::load::QuickGame;

impl QuickGame for twenty_two::State {
    fn into_any(bot: Box<dyn Bot<twenty_two::State>>) -> AnyBot {
        AnyBot::TwentyTwo(bot)
    }
}
