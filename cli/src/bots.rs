//! The bots of a ladder file, made real: the built-in bots (the example bots, in this process)
//! and bot programs, which wait in the lobby through [`crate::lineup`]; and the game's first
//! deal, so that a file that cannot play is refused before anything is made.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::Context;
use cardroom_arena::{BotEntry, BotSource, LadderFile};
use cardroom_example_bots::catalogue::{self, BotFactory, ExampleGame, ExampleVisitor};
use cardroom_sdk::GameKind;

use crate::lineup::{AnyBotMaker, Program};

/// The built-in bot `name` of game `G` (the example bots: [`ExampleGame::builtin`]).
pub(crate) fn builtin<G: ExampleGame>(name: &str) -> anyhow::Result<BotFactory<G>> {
    G::builtin(name).with_context(|| {
        format!(
            "no built-in bot \"{name}\" for {} (built in: {})",
            G::NAME,
            G::builtin_names().join(", ")
        )
    })
}

/// The built-in bots of one game, by name ([`builtin`]).
pub(crate) type Builtin<G> = fn(&str) -> anyhow::Result<BotFactory<G>>;

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

/// A built-in bot, made for any game's runner.
pub(crate) fn any_bot(name: &str, game: GameKind) -> anyhow::Result<AnyBotMaker> {
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

/// A ladder file's bot program, its first word checked: one that cannot start fails the
/// ladder before anything is made.
pub(crate) fn program(
    file: &LadderFile,
    entry: &BotEntry,
    command: &[String],
) -> anyhow::Result<Program> {
    let env: Vec<(String, String)> =
        entry.env.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
    let first = command.first().context("an empty command")?;
    check_program(&entry.name, Path::new(first), &env)?;
    Ok(Program {
        command: command.to_vec(),
        env,
        flags: entry.flags,
        log: Some(file.log_dir.join(format!("{}.log", file_name(&entry.name)))),
        max_restarts: file.max_restarts,
        concurrency: file.parallel,
    })
}

/// Where `program` is found: a path given (more than one component) if it is an executable
/// file, else the first executable of that name on `PATH` (the bot's `env` first).
fn check_program(name: &str, program: &Path, env: &[(String, String)]) -> anyhow::Result<PathBuf> {
    let cannot = |why: &str| {
        anyhow::anyhow!("bot \"{name}\": cannot start \"{}\": {why}", program.display())
    };
    if program.components().count() > 1 {
        return if is_executable(program) {
            Ok(program.to_owned())
        } else if program.is_file() {
            Err(cannot("the file is not executable"))
        } else {
            Err(cannot("no such file"))
        };
    }
    let path = env
        .iter()
        .rev()
        .find(|(k, _)| k == "PATH")
        .map(|(_, v)| std::ffi::OsString::from(v))
        .or_else(|| std::env::var_os("PATH"))
        .unwrap_or_default();
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|candidate| is_executable(candidate))
        .ok_or_else(|| cannot("no such program on PATH"))
}

/// Whether `path` is a file its owner may run.
fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// Checks everything a ladder needs before its store or its server is made: the game's
/// options and a first deal at this table size, every built-in bot's name, every program.
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
    for entry in &file.bots {
        match entry.source()? {
            BotSource::Builtin(name) => drop(any_bot(name, file.game)?),
            BotSource::Command(command) => drop(program(file, entry, command)?),
            BotSource::Lobby(_) => {}
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
