//! `cardroom arena power`: how many matches each ranking method needs to get a field of bots
//! of known order right at 95% confidence, on simulated ladders (`cardroom_rank::power`).
//!
//! The field is one game's heuristic diluted by more and more random moves
//! (`cardroom_example_bots::diluted`), strongest first, down to the random bot: its order is
//! known by construction, and the pool of played matches must confirm it (`OutcomePool::truth`)
//! before any ladder is simulated. The frozen reference bot of the luck-adjusted scores is the
//! undiluted heuristic. Every match is played in this process with the engines, no network.

use std::io::Write;

use anyhow::Context;
use cardroom_example_bots::catalogue::{ExampleGame, ExampleVisitor, visit};
use cardroom_example_bots::diluted::Diluted;
use cardroom_example_bots::random::RandomBot;
use cardroom_rank::duplicate::derive_seed;
use cardroom_rank::power::{self, Method, OutcomePool, Player};
use cardroom_sdk::{Bot, GameKind, MAX_LOCAL_DECISIONS, play_local_report};

/// `cardroom arena power`'s flags.
#[derive(Debug, clap::Args)]
pub(crate) struct PowerArgs {
    /// The game: `gin`, `twenty_two` or `holdem`.
    #[arg(long)]
    game: GameKind,
    /// The game's options as JSON, as a ladder file's `options` gives them (default: the
    /// game's defaults). Hold'em's `{"score": "all_in_adjusted"}` ranks by chips with each
    /// all-in's luck taken out (HE-21).
    #[arg(long, default_value = "")]
    options: String,
    /// Seats per table (Gin Rummy: 2; Twenty-Two: 2 up to the bots of the field). Default:
    /// 4 where the game seats four, else the nearest it seats.
    #[arg(long)]
    seats: Option<u8>,
    /// Simulated ladders per method.
    #[arg(long, default_value_t = 20)]
    trials: usize,
    /// Deals in the pool of played matches (each played at every table in every seating).
    #[arg(long, default_value_t = 300)]
    deals: usize,
    /// The field: the heuristic diluted by each of these shares of random moves (rising, each
    /// in 0 to 1), strongest first, and the random bot last. The default is eight bots, a
    /// field larger than a table, as a ladder's is (`0,0.1,0.25,0.5` is the five-bot field of
    /// earlier measurements).
    #[arg(long, value_delimiter = ',', default_value = "0,0.1,0.25,0.5,0.65,0.8,0.9")]
    shares: Vec<f64>,
    /// Seeds the pool's deals and the ladders' draws.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// A simulated ladder still undecided after this many matches stops there.
    #[arg(long, default_value_t = 100_000)]
    max_matches: u64,
    /// Threads (default: every core).
    #[arg(long)]
    parallel: Option<usize>,
    /// Keeps the pool in this file: read from it when it holds the pool of the same game,
    /// seats, deals and seed, else played and written there (to rerun the methods without
    /// playing the pool again).
    #[arg(long)]
    pool: Option<std::path::PathBuf>,
}

/// A pool as `--pool` keeps it.
#[derive(serde::Serialize, serde::Deserialize)]
struct KeptPool {
    game: String,
    #[serde(default)]
    options: String,
    seats: u8,
    deals: usize,
    seed: u64,
    bots: usize,
    shares: Vec<f64>,
    places: Vec<u8>,
    reference: Vec<u8>,
}

/// Runs `cardroom arena power`.
pub(crate) fn run(args: PowerArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    // Four seats where the game seats four, else the nearest table it seats (Gin Rummy: 2).
    let table = args.game.seats();
    let seats = args.seats.unwrap_or_else(|| 4.clamp(*table.start(), *table.end()));
    let parallel = args
        .parallel
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    check_shares(&args.shares)?;
    let bots = args.shares.len() + 1;
    let started = std::time::Instant::now();
    let kept = args.pool.as_deref().and_then(|path| {
        let kept: KeptPool = serde_json::from_slice(&std::fs::read(path).ok()?).ok()?;
        let same = kept.game == args.game.name()
            && kept.options == args.options
            && (kept.seats, kept.deals, kept.seed, kept.bots)
                == (seats, args.deals, args.seed, bots)
            && kept.shares == args.shares;
        same.then(|| {
            OutcomePool::from_places(bots, usize::from(seats), kept.places, kept.reference)
        })
    });
    let pool = match kept {
        Some(pool) => pool,
        None => {
            let pool = visit(
                args.game,
                Pool {
                    options: args.options.clone(),
                    seats,
                    deals: args.deals,
                    seed: args.seed,
                    parallel,
                    shares: args.shares.clone(),
                },
            )?;
            if let Some(path) = &args.pool {
                let (places, reference) = pool.places_played();
                let kept = KeptPool {
                    game: args.game.name().to_owned(),
                    options: args.options.clone(),
                    seats,
                    deals: args.deals,
                    seed: args.seed,
                    bots,
                    shares: args.shares.clone(),
                    places: places.to_vec(),
                    reference: reference.to_vec(),
                };
                std::fs::write(path, serde_json::to_vec(&kept)?)
                    .with_context(|| format!("writing the pool to {}", path.display()))?;
            }
            pool
        }
    };
    let played = started.elapsed();
    let names = names(&args.shares);
    let truth = pool.truth().context("the pool of matches")?;
    let h2h = pool.head_to_head();
    let options = if args.options.trim().is_empty() {
        String::new()
    } else {
        format!(" {}", args.options.trim())
    };
    writeln!(
        out,
        "{}{options} at {seats} seats: {bots} bots, {} deals, {} matches pooled in {:.1} s",
        args.game.title(),
        pool.deals(),
        pool.matches(),
        played.as_secs_f64()
    )?;
    let shown: Vec<String> = truth
        .windows(2)
        .map(|w| format!("{} > {} ({:.3})", names[w[0]], names[w[1]], h2h[w[0]][w[1]]))
        .collect();
    writeln!(out, "true order (pool head-to-head): {}", shown.join(", "))?;
    if truth != (0..bots).collect::<Vec<_>>() {
        writeln!(
            out,
            "note: the pool's order differs from the construction's; the pool's is used"
        )?;
    }
    let reports = power::measure(
        &pool,
        &Method::ALL,
        args.trials,
        args.seed,
        0.05,
        args.max_matches,
        parallel,
    )?;
    writeln!(
        out,
        "{:<34}  {:>9}  {:>9}  {:>9}  {:>7}  {:>7}",
        "method", "median", "q1", "q3", "settled", "right"
    )?;
    for r in &reports {
        writeln!(
            out,
            "{:<34}  {:>9.0}  {:>9.0}  {:>9.0}  {:>6.0}%  {:>6.0}%",
            r.method.name,
            r.median(),
            r.quantile(0.25),
            r.quantile(0.75),
            100.0 * r.settled(),
            100.0 * r.right()
        )?;
    }
    match power::best(&reports) {
        Some((best, ratio)) => {
            writeln!(out, "best: {}", best.method.name)?;
            let worst = reports.iter().min_by(|a, b| a.right().total_cmp(&b.right()));
            if let Some(worst) = worst {
                writeln!(
                    out,
                    "right: the best {:.1}%, the least {:.1}% ({}), of {} trials each",
                    100.0 * best.right(),
                    100.0 * worst.right(),
                    worst.method.name,
                    args.trials
                )?;
            }
            writeln!(out, "ratio {ratio:.2}")?;
        }
        None => {
            writeln!(out, "best: none right in {:.0}% of trials", 100.0 * power::MIN_RIGHT)?;
            writeln!(out, "ratio 0.00")?;
        }
    }
    Ok(())
}

/// Refuses a field whose order is not known by construction: shares that do not rise, or
/// that are not shares.
fn check_shares(shares: &[f64]) -> anyhow::Result<()> {
    anyhow::ensure!(!shares.is_empty(), "--shares: at least one share (the field's strongest bot)");
    if let Some(bad) = shares.iter().find(|s| !(0.0..=1.0).contains(*s)) {
        anyhow::bail!("--shares: {bad} is not a share of moves (0 to 1)");
    }
    if let Some(w) = shares.windows(2).find(|w| w[1] <= w[0]) {
        anyhow::bail!(
            "--shares: {} then {}: the shares rise, strongest bot first (more random moves is \
             weaker play: that is the order the pool must confirm)",
            w[0],
            w[1]
        );
    }
    Ok(())
}

/// The field's names, strongest first.
fn names(shares: &[f64]) -> Vec<String> {
    let mut names: Vec<String> =
        shares.iter().map(|s| format!("heuristic-{:.0}%", 100.0 * s)).collect();
    names.push("random".into());
    names
}

/// Plays the pool for the game the visit is given.
struct Pool {
    options: String,
    seats: u8,
    deals: usize,
    seed: u64,
    parallel: usize,
    shares: Vec<f64>,
}

impl ExampleVisitor for Pool {
    type Output = anyhow::Result<OutcomePool>;

    fn visit<G: ExampleGame>(self) -> anyhow::Result<OutcomePool> {
        let seats = self.seats;
        let bot = |player: Player, seed: u64| -> Box<dyn Bot<G>> {
            match player {
                Player::Reference => G::heuristic(seed),
                Player::Bot(b) => match self.shares.get(b) {
                    Some(&share) => Box::new(Diluted::new(G::heuristic(seed), share, seed)),
                    None => Box::new(RandomBot::new(seed)),
                },
            }
        };
        let options = G::options_from_json(&self.options).context("--options")?;
        // Checked once, so that bad options or seats are one clear error, not one per deal.
        G::new(options, seats, self.seed)
            .map_err(|e| anyhow::anyhow!("{} at {seats} seats: {e}", G::KIND.title()))?;
        let play = |deal: u64, players: &[Player]| -> Result<Vec<u8>, String> {
            let state = G::new(options, seats, deal).map_err(|e| e.to_string())?;
            let mut bots: Vec<Box<dyn Bot<G>>> = players
                .iter()
                .enumerate()
                .map(|(s, &p)| bot(p, derive_seed(deal, 1000 + s as u64)))
                .collect();
            let report = play_local_report(state, &mut bots, MAX_LOCAL_DECISIONS)
                .map_err(|e| e.to_string())?;
            let mut places = vec![0u8; players.len()];
            for standing in &report.standings {
                if let Some(p) = places.get_mut(standing.seat.index()) {
                    *p = standing.place;
                }
            }
            Ok(places)
        };
        let bots = self.shares.len() + 1;
        Ok(OutcomePool::build(
            bots,
            usize::from(seats),
            self.deals,
            self.seed,
            self.parallel,
            &play,
        )?)
    }
}
