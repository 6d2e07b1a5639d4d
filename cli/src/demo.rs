//! `cardroom demo`: a short round robin of the example bots over real gRPC, on a server started
//! in this process, with the Python example bot when a Python with the SDK is found.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Context;
use cardroom_arena::{BotEntry, Format, LadderFile, Store, Transport};

use crate::arena::{open_store, run_ladder};

/// `cardroom demo`'s flags.
#[derive(Debug, clap::Args)]
pub(crate) struct DemoArgs {
    /// Matches to play, about (whole rounds of the round robin are played).
    #[arg(long, default_value_t = 120)]
    matches: u64,
    /// Keep the ladder in this SQLite file (default: in memory).
    #[arg(long)]
    db: Option<PathBuf>,
    /// The Python interpreter for the Python example bot (default: $CARDROOM_PYTHON, then
    /// `.venv/bin/python`, then `python3`; it needs the `cardroom` package).
    #[arg(long)]
    python: Option<PathBuf>,
    /// Leave the Python example bot out.
    #[arg(long)]
    no_python: bool,
}

/// Runs `cardroom demo`.
pub(crate) fn demo(args: DemoArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    crate::init_tracing("warn");
    let started = Instant::now();
    // The Python bot's output goes to a temporary folder, removed at the end; kept (and named)
    // only if the demo fails.
    let logs = tempfile::Builder::new()
        .prefix("cardroom-demo-")
        .tempdir()
        .context("making a folder for the external bots' logs")?;
    let (game, mut bots) = crate::bots::demo_lineup();
    let python = if args.no_python {
        Err("--no-python".to_owned())
    } else {
        find_python_bot(args.python.as_deref())
    };
    match python {
        Ok((python, script)) => {
            writeln!(out, "Python example bot: {} {}", python.display(), script.display())?;
            bots.push(BotEntry::command(
                "python-tt",
                vec![python.to_string_lossy().into_owned(), script.to_string_lossy().into_owned()],
            ));
        }
        Err(why) => writeln!(out, "Python example bot skipped: {why}")?,
    }
    // Round robin of two-seat tables: every pair, in both seatings.
    let per_round = (bots.len() * (bots.len() - 1)) as u64;
    let rounds = args.matches.div_ceil(per_round).max(1);
    let file = LadderFile {
        game,
        seats: 2,
        options: Default::default(),
        seed: 2024,
        duplicate: true,
        max_rotations: None,
        rating: None,
        db: args.db.clone().unwrap_or_default(),
        log_dir: logs.path().to_owned(),
        parallel: 4,
        transport: Transport::Grpc,
        standings_every: (rounds * per_round / 4).max(1),
        move_ms: None,
        bank_ms: None,
        reconnect_grace_ms: 10_000,
        max_restarts: 2,
        listen: None,
        server: None,
        ca_file: None,
        admin_token: None,
        remote_wait_ms: 60_000,
        format: Format::RoundRobin { rounds: u32::try_from(rounds).unwrap_or(u32::MAX) },
        bots,
    };
    file.check()?;
    crate::bots::check(&file)?;
    writeln!(
        out,
        "{}, two seats, duplicate deals: {} matches over gRPC on a server in this process",
        game.title(),
        rounds * per_round
    )?;
    out.flush()?;
    let mut store = match &args.db {
        Some(db) => open_store(db)?,
        None => Store::in_memory()?,
    };
    if let Err(error) = run_ladder(&file, &mut store, out) {
        let kept = logs.keep();
        return Err(
            error.context(format!("the external bots' logs are kept in {}", kept.display()))
        );
    }
    writeln!(out, "demo done in {:.1} s", started.elapsed().as_secs_f64())?;
    Ok(())
}

/// The workspace this binary was built from, to find the example bots and `.venv` from a
/// checkout wherever the command runs.
const WORKSPACE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

/// A Python that can import `cardroom`, and the Python example bot; or why not.
fn find_python_bot(explicit: Option<&Path>) -> Result<(PathBuf, PathBuf), String> {
    let script =
        ["example-bots/python/tt_bot.py", &format!("{WORKSPACE}/example-bots/python/tt_bot.py")]
            .into_iter()
            .map(PathBuf::from)
            .find(|p| p.is_file())
            .ok_or("example-bots/python/tt_bot.py not found")?;
    let mut candidates: Vec<PathBuf> = Vec::new();
    if let Some(python) = explicit {
        candidates.push(python.to_owned());
    } else {
        if let Some(python) = std::env::var_os("CARDROOM_PYTHON") {
            candidates.push(python.into());
        }
        candidates.push(".venv/bin/python".into());
        candidates.push(format!("{WORKSPACE}/.venv/bin/python").into());
        candidates.push("python3".into());
    }
    for python in &candidates {
        let works = std::process::Command::new(python)
            .args(["-c", "import cardroom"])
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if works {
            let script = std::fs::canonicalize(&script).unwrap_or(script);
            return Ok((python.clone(), script));
        }
    }
    Err("no python3 with the `cardroom` package (make .venv with `bash .ci/run`, or set CARDROOM_PYTHON)".into())
}
