//! What the load does that is Gin Rummy's: its [`QuickGame`] implementation (the load's bot
//! goes out as soon as it may), and the default game.

use cardroom_sdk::games::gin;
use cardroom_sdk::{AnyBot, Bot, GameKind};

use crate::load::QuickGame;

/// The game the load and the idle run play unless told otherwise.
pub(crate) const DEFAULT_GAME: GameKind = GameKind::Gin;

impl QuickGame for gin::State {
    /// A knock, gin or big gin (GR-9 to GR-11).
    fn goes_out(action: &gin::Action) -> bool {
        matches!(action, gin::Action::Knock { .. } | gin::Action::Gin { .. } | gin::Action::BigGin)
    }

    fn into_any(bot: Box<dyn Bot<gin::State>>) -> AnyBot {
        AnyBot::Gin(bot)
    }
}
