//! The bots of a ladder file, made real: the built-in bots (the example bots, in this process),
//! external programs and remote bots in a server's lobby; and the game's first deal, so that a
//! file that cannot play is refused before anything is made.

use std::sync::Arc;

use anyhow::Context;
use cardroom_arena::{AnyBotMaker, BotEntry, BotMaker, BotSource, ExternalBot, LadderFile, NetBot};
use cardroom_example_bots::catalogue::{self, ExampleGame, ExampleVisitor};
use cardroom_sdk::GameKind;

/// The built-in bot `name` of game `G` (the example bots: [`ExampleGame::builtin`]).
pub(crate) fn builtin<G: ExampleGame>(name: &str) -> anyhow::Result<BotMaker<G>> {
    G::builtin(name).with_context(|| {
        format!(
            "no built-in bot \"{name}\" for {} (built in: {})",
            G::NAME,
            G::builtin_names().join(", ")
        )
    })
}

/// The built-in bots of one game, by name ([`builtin`]).
pub(crate) type Builtin<G> = fn(&str) -> anyhow::Result<BotMaker<G>>;

/// Generic code over the game of a ladder, given that game's built-in bots
/// ([`with_builtins`]).
pub(crate) trait WithBuiltins {
    /// What the visit gives back.
    type Output;
    /// The visit, with `G` the game and `builtin` its built-in bots.
    fn with<G: ExampleGame>(self, builtin: Builtin<G>) -> Self::Output;
}

/// Runs `visitor` with `game`'s engine and its built-in bots.
pub(crate) fn with_builtins<V: WithBuiltins>(game: GameKind, visitor: V) -> V::Output {
    struct Visit<V>(V);
    impl<V: WithBuiltins> ExampleVisitor for Visit<V> {
        type Output = V::Output;
        fn visit<G: ExampleGame>(self) -> V::Output {
            self.0.with::<G>(builtin::<G>)
        }
    }
    catalogue::visit(game, Visit(visitor))
}

/// A built-in bot for the networked runner.
fn any_bot(name: &str, game: GameKind) -> anyhow::Result<AnyBotMaker> {
    struct AnyBuiltin<'a>(&'a str);
    impl WithBuiltins for AnyBuiltin<'_> {
        type Output = anyhow::Result<AnyBotMaker>;
        fn with<G: ExampleGame>(self, builtin: Builtin<G>) -> anyhow::Result<AnyBotMaker> {
            let make = builtin(self.0)?;
            Ok(Arc::new(move |seed| G::into_any(make(seed))))
        }
    }
    with_builtins(game, AnyBuiltin(name))
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
    struct FirstDeal<'a>(&'a LadderFile);
    impl WithBuiltins for FirstDeal<'_> {
        type Output = anyhow::Result<()>;
        fn with<G: ExampleGame>(self, _: Builtin<G>) -> anyhow::Result<()> {
            let file = self.0;
            let context = || format!("the {} options", G::KIND.title());
            let options: G::Options =
                serde_json::from_str(&file.options_json()).with_context(context)?;
            G::new(options, file.seats, file.seed)
                .map_err(anyhow::Error::msg)
                .with_context(context)?;
            Ok(())
        }
    }
    with_builtins(file.game, FirstDeal(file))?;
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
