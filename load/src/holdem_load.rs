//! What the load does that is Hold'em's: its [`QuickGame`] implementation (the load's bot
//! plays at random, raising all in more often than a real bot, so its matches are short).

use cardroom_sdk::games::holdem;
use cardroom_sdk::{AnyBot, Bot};

use crate::load::QuickGame;

impl QuickGame for holdem::State {
    fn into_any(bot: Box<dyn Bot<holdem::State>>) -> AnyBot {
        AnyBot::Holdem(bot)
    }
}
