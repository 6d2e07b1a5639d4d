//! The bots of a ladder file, made real: the built-in bots (the example bots, in this process),
//! external programs and remote bots in a server's lobby; and the game's first deal, so that a
//! file that cannot play is refused before anything is made.

use std::sync::Arc;

use anyhow::{Context, bail};
use cardroom_arena::{AnyBotMaker, BotEntry, BotMaker, BotSource, ExternalBot, LadderFile, NetBot};
use cardroom_example_bots::gin_heuristic::GinHeuristic;
use cardroom_example_bots::random::RandomBot;
use cardroom_example_bots::search::{SearchBot, SearchConfig, Searchable};
use cardroom_example_bots::tt_heuristic::TtHeuristic;
use cardroom_games::{gin, twenty_two};
use cardroom_sdk::{AnyBot, GameKind, PlayableGame};

/// The search bot with its default budget (100 ms a decision).
fn search_bot<G: Searchable>(seed: u64) -> SearchBot<G> {
    SearchBot::new(SearchConfig { seed, ..SearchConfig::default() })
}

/// A built-in Twenty-Two bot.
pub(crate) fn tt_bot(name: &str) -> anyhow::Result<BotMaker<twenty_two::State>> {
    Ok(match name {
        "random" => Arc::new(|seed| Box::new(RandomBot::new(seed))),
        "tt-heuristic" => Arc::new(|_| Box::new(TtHeuristic::new())),
        "search" => Arc::new(|seed| Box::new(search_bot::<twenty_two::State>(seed))),
        _ => bail!(
            "no built-in bot \"{name}\" for twenty_two (built in: random, tt-heuristic, search)"
        ),
    })
}

/// A built-in Gin Rummy bot.
pub(crate) fn gin_bot(name: &str) -> anyhow::Result<BotMaker<gin::State>> {
    Ok(match name {
        "random" => Arc::new(|seed| Box::new(RandomBot::new(seed))),
        "gin-heuristic" => Arc::new(|_| Box::new(GinHeuristic::new())),
        "search" => Arc::new(|seed| Box::new(search_bot::<gin::State>(seed))),
        _ => bail!("no built-in bot \"{name}\" for gin (built in: random, gin-heuristic, search)"),
    })
}

/// The built-in bots of one game, by name ([`tt_bot`], [`gin_bot`]).
pub(crate) type Builtin<G> = fn(&str) -> anyhow::Result<BotMaker<G>>;

/// Generic code over the game of a ladder, given that game's built-in bots
/// ([`with_builtins`]).
pub(crate) trait WithBuiltins {
    /// What the visit gives back.
    type Output;
    /// The visit, with `G` the game and `builtin` its built-in bots.
    fn with<G: PlayableGame>(self, builtin: Builtin<G>) -> Self::Output;
}

/// Runs `visitor` with `game`'s engine and its built-in bots.
pub(crate) fn with_builtins<V: WithBuiltins>(game: GameKind, visitor: V) -> V::Output {
    match game {
        GameKind::TwentyTwo => visitor.with::<twenty_two::State>(tt_bot),
        GameKind::Gin => visitor.with::<gin::State>(gin_bot),
    }
}

/// The game `cardroom demo` plays and its built-in bots in the demo's line-up: Twenty-Two,
/// the bots that play it (the Python example bot, when found, joins them).
pub(crate) fn demo_lineup() -> (GameKind, Vec<BotEntry>) {
    (
        GameKind::TwentyTwo,
        vec![
            BotEntry::builtin("random", "random"),
            BotEntry::builtin("tt-heuristic", "tt-heuristic"),
        ],
    )
}

/// A built-in bot for the networked runner.
fn any_bot(name: &str, game: GameKind) -> anyhow::Result<AnyBotMaker> {
    Ok(match game {
        GameKind::TwentyTwo => {
            let make = tt_bot(name)?;
            Arc::new(move |seed| AnyBot::TwentyTwo(make(seed)))
        }
        GameKind::Gin => {
            let make = gin_bot(name)?;
            Arc::new(move |seed| AnyBot::Gin(make(seed)))
        }
    })
}

/// The rules' options of the file's game, parsed.
pub(crate) fn twenty_two_options(file: &LadderFile) -> anyhow::Result<twenty_two::Options> {
    serde_json::from_str(&file.options_json()).context("the Twenty-Two options")
}

/// The rules' options of the file's game, parsed.
pub(crate) fn gin_options(file: &LadderFile) -> anyhow::Result<gin::Options> {
    serde_json::from_str(&file.options_json()).context("the Gin Rummy options")
}

/// Deals a Twenty-Two match as the ladder does.
pub(crate) fn new_twenty_two(
    options: twenty_two::Options,
    seats: u8,
    seed: u64,
) -> Result<twenty_two::State, String> {
    twenty_two::State::new(options, seats, seed).map_err(|e| e.to_string())
}

/// Deals a Gin Rummy match as the ladder does.
pub(crate) fn new_gin(options: gin::Options, seed: u64) -> Result<gin::State, String> {
    gin::State::new(options, seed).map_err(|e| e.to_string())
}

/// The networked ladder's bots, by name.
pub(crate) fn net_bots(file: &LadderFile) -> anyhow::Result<Vec<(String, NetBot)>> {
    file.bots
        .iter()
        .map(|b| {
            let bot = match b.source()? {
                BotSource::Builtin(name) => NetBot::InProcess(any_bot(name, file.game)?),
                BotSource::Command(command) => NetBot::External(external(file, b, command)?),
                BotSource::Lobby(lobby) => NetBot::Remote(lobby.to_owned()),
            };
            Ok((b.name.clone(), bot))
        })
        .collect()
}

/// An external bot, its program checked: one that cannot start fails the ladder before its
/// first match, instead of every match waiting out the reconnect grace for it.
fn external(
    file: &LadderFile,
    entry: &BotEntry,
    command: &[String],
) -> anyhow::Result<ExternalBot> {
    let (program, args) = command.split_first().context("empty command")?;
    let bot = ExternalBot {
        program: program.into(),
        args: args.to_vec(),
        env: entry.env.iter().map(|(k, v)| (k.clone(), v.clone())).collect(),
        flags: entry.flags,
        log: file.log_dir.join(format!("{}.log", file_name(&entry.name))),
    };
    bot.check_program(&entry.name)?;
    Ok(bot)
}

/// Checks everything a ladder needs before its SQLite file or its server is made: the game's
/// options and a first deal at this table size, every built-in bot's name, every external
/// program.
pub(crate) fn check(file: &LadderFile) -> anyhow::Result<()> {
    match file.game {
        GameKind::TwentyTwo => {
            new_twenty_two(twenty_two_options(file)?, file.seats, file.seed)
                .map_err(anyhow::Error::msg)
                .context("the Twenty-Two options")?;
        }
        GameKind::Gin => {
            if file.seats != 2 {
                bail!("Gin Rummy is played at tables of 2, not seats = {}", file.seats);
            }
            new_gin(gin_options(file)?, file.seed)
                .map_err(anyhow::Error::msg)
                .context("the Gin Rummy options")?;
        }
    }
    if file.uses_grpc() {
        net_bots(file)?;
    } else {
        for b in &file.bots {
            if let BotSource::Builtin(name) = b.source()? {
                any_bot(name, file.game)?;
            }
        }
    }
    Ok(())
}

/// A bot's name made safe as a file name.
fn file_name(name: &str) -> String {
    name.chars()
        .map(|c| if c.is_ascii_alphanumeric() || "-_.".contains(c) { c } else { '_' })
        .collect()
}
