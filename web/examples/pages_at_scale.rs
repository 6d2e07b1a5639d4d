//! How fast the pages answer over a ladder of 100,000 matches: fills a server's store (SQLite,
//! through `cardroom_store::Store`'s own writes: each set planned, its matches claimed and
//! finished with a record, the set rated by `cardroom_rank`'s Weng-Lin) with a hosted
//! Twenty-Two ladder of `--matches` matches among `--bots` bots (outcomes drawn from fixed
//! strengths), serves the pages of `cardroom serve --store` over it (`StoreSource`) on
//! 127.0.0.1:0, and measures the time to first byte of the leaderboard, a bot's page (its first
//! and a deep page of matches), a match's replay and the list of ladders.
//!
//! ```text
//! cargo run --release -p cardroom-web --example pages_at_scale -- --matches 100000 --bots 50
//! ```
//!
//! `--file PATH` keeps the store (and reuses it when it exists; else it is a file in a
//! temporary directory); `--requests N` times each page N times after the first (cold)
//! request, a second and a little apart: a bot page's answer is given again for a second, and
//! each request here is to draw its page. `--hosted`, once the choice between this and an arena ladder file, is accepted and
//! changes nothing.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context as _, bail};
use cardroom_rank::{PairedResult, Rating, RatingSystem, Ratings};
use cardroom_web::{StoreSource, WebConfig};

/// The command line.
struct Args {
    matches: u64,
    bots: usize,
    file: Option<PathBuf>,
    requests: usize,
}

fn args() -> anyhow::Result<Args> {
    let mut args = Args { matches: 100_000, bots: 50, file: None, requests: 10 };
    let mut given = std::env::args().skip(1);
    while let Some(flag) = given.next() {
        let mut value = || given.next().with_context(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--matches" => args.matches = value()?.parse()?,
            "--bots" => args.bots = value()?.parse()?,
            "--file" => args.file = Some(value()?.into()),
            "--requests" => args.requests = value()?.parse()?,
            // The one mode left; kept so that the commands BENCHMARKS.md records still run.
            "--hosted" => {}
            other => bail!("unknown flag {other}: see the example's doc comment"),
        }
    }
    if args.bots < 2 || args.matches < 2 {
        bail!("a ladder needs two bots and a set of two matches");
    }
    Ok(args)
}

/// SplitMix64: a fixed, seeded stream of numbers, so that every run fills the same ladder.
struct Numbers(u64);

impl Numbers {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The record every hosted match of the filled store keeps: one real Twenty-Two record (the
/// replay page unfolds it), so that the store's size is a real store's.
fn a_record() -> anyhow::Result<String> {
    use cardroom_games::twenty_two::{Options, State};
    let mut state = State::new(Options::default(), 2, 3).map_err(|e| anyhow::anyhow!("{e}"))?;
    let mut numbers = Numbers(5);
    while let Some(seat) = state.to_act() {
        let legal = state.legal_actions();
        let action = legal[numbers.below(legal.len())];
        state.apply(seat, action).map_err(|e| anyhow::anyhow!("{e}"))?;
    }
    let record = state.record().context("a finished match has its record")?;
    Ok(cardroom_games::AnyRecord::from(record).to_json())
}

/// Fills the store at `url` with a hosted ladder `scale` of `matches` matches (duplicate sets
/// of two seatings) among `bots` registered bots, through the store's own writes.
async fn fill_hosted(url: &str, matches: u64, bots: usize) -> anyhow::Result<()> {
    use cardroom_store::{
        KeyHash, Lease, MatchResult, NewLadder, NewMatch, NewSet, RatingUpdate, SeatResult,
        StoredRating, ThinkSummary,
    };
    let store = cardroom_store::open(url).await?;
    let now = 1_796_000_000_000;
    let spec = NewLadder {
        name: "scale".into(),
        game: "twenty_two".into(),
        options_json: "{}".into(),
        table_seats: 2,
        rating: "weng_lin".into(),
        seed: 1,
        provisional_sets: 3,
        config: String::new(),
    };
    let ladder = store.create_ladder(&spec, now).await?;
    let initial = Rating::initial(RatingSystem::WengLin);
    let stored =
        |r: &Rating| StoredRating { mean: r.mean, sigma: r.sigma, volatility: r.volatility };
    let mut ids = Vec::with_capacity(bots);
    for i in 0..bots {
        let name = bot_name(i);
        let account = store.register_bot(&name, KeyHash::of(&name), now).await?;
        store.enter_ladder(ladder.id, account.id, stored(&initial), now).await?;
        ids.push(account.id);
    }
    let record = a_record()?;
    let mut ratings = Ratings::from_ratings(RatingSystem::WengLin, vec![initial; bots]);
    let mut numbers = Numbers(7);
    let strength = |bot: usize| 3.0 * bot as f64 / bots as f64;
    let lease = Lease { owner: "fill".into(), until_ms: i64::MAX };
    let started = Instant::now();
    for set in 0..matches / 2 {
        let at = now + set as i64 * 1_000;
        let a = numbers.below(bots);
        let b = (a + 1 + numbers.below(bots - 1)) % bots;
        let seed = numbers.next();
        let new = NewSet {
            index: set,
            seed,
            bots: vec![ids[a], ids[b]],
            matches: vec![
                NewMatch { rotation: 0, seed, seats: vec![ids[a], ids[b]] },
                NewMatch { rotation: 1, seed, seats: vec![ids[b], ids[a]] },
            ],
        };
        let planned = store.plan_set(ladder.id, &new, at).await?;
        let mut places = Vec::new();
        for (m, (first, second)) in planned.matches.iter().zip([(a, b), (b, a)]) {
            let claim = store.claim_match(m.id, &lease, at).await?;
            let p_first = 1.0 / (1.0 + (strength(second) - strength(first)).exp());
            let first_wins = numbers.unit() < p_first;
            let place = |wins: bool| if wins { 1 } else { 2 };
            let seats = [(0, place(first_wins)), (1, place(!first_wins))]
                .map(|(seat, place)| SeatResult {
                    seat,
                    version: "1.0".into(),
                    place,
                    forfeited: false,
                    think: ThinkSummary::default(),
                })
                .to_vec();
            let mut seats = seats;
            for seat in &mut seats {
                // Twenty decisions a seat, each 50 µs to 5 ms.
                let times: Vec<u32> =
                    (0..20).map(|_| 50 + (numbers.next() % 5_000) as u32).collect();
                seat.think = ThinkSummary::from_micros(&times);
            }
            let result = MatchResult {
                claim,
                server_match_id: format!("m{}", m.id.0),
                seats,
                record_json: Some(record.clone()),
                failures: Vec::new(),
            };
            store.finish_match(&result, at).await?;
            places.push(vec![(first, place(first_wins)), (second, place(!first_wins))]);
        }
        let paired = PairedResult::from_matches(places.iter().map(|p| &p[..]));
        let updates: Vec<RatingUpdate> = ratings
            .update(&paired)?
            .iter()
            .map(|c| RatingUpdate {
                bot: ids[c.bot],
                before: stored(&c.before),
                after: stored(&c.after),
            })
            .collect();
        store.rate_set(ladder.id, set, &updates, at).await?;
        if set % 10_000 == 9_999 {
            eprintln!("{} matches stored in {:.0?}", 2 * (set + 1), started.elapsed());
        }
    }
    eprintln!("{matches} hosted matches stored in {:.1?}", started.elapsed());
    // The standings snapshot, as the hosted runner writes it after each rated set (the pages
    // read it rather than replaying every set).
    let rated = store.rated_sets(ladder.id).await?;
    let evidence = cardroom_arena::hosted::Evidence::from_rated(&rated, ids.iter().copied(), 0);
    let at = now + (matches / 2) as i64 * 1_000;
    store.put_standings(ladder.id, &evidence.standings(2, at)).await?;
    eprintln!("standings of {} rated sets stored after {:.1?}", rated.len(), started.elapsed());
    Ok(())
}

/// The time from sending a GET for `path` to the first byte of the answer, and its status line
/// (a plain blocking client on a thread of its own, so that nothing of it runs on the pages'
/// runtime).
async fn time_to_first_byte(
    addr: std::net::SocketAddr,
    path: &str,
) -> anyhow::Result<(Duration, String)> {
    use std::io::{Read as _, Write as _};
    let request = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    tokio::task::spawn_blocking(move || {
        let mut stream = std::net::TcpStream::connect(addr)?;
        stream.set_nodelay(true)?;
        let sent = Instant::now();
        stream.write_all(request.as_bytes())?;
        let mut first = [0u8; 1];
        stream.read_exact(&mut first)?;
        let ttfb = sent.elapsed();
        let mut rest = Vec::new();
        stream.read_to_end(&mut rest)?;
        let status = String::from_utf8_lossy(&rest).lines().next().unwrap_or_default().to_owned();
        Ok((ttfb, format!("{}{status}", first[0] as char)))
    })
    .await?
}

/// Bot `i`'s name (nothing in it to escape).
fn bot_name(i: usize) -> String {
    format!("bot-{i:02}")
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = args()?;
    let dir = tempfile::tempdir()?;
    let path = args.file.clone().unwrap_or_else(|| dir.path().join("scale.sqlite"));
    let url = format!("sqlite:{}", path.display());
    if !path.exists() {
        fill_hosted(&url, args.matches, args.bots).await?;
    }
    let store = cardroom_store::open(&url).await?;
    let ladder = store.ladder("scale").await?.context("the store has no ladder `scale`")?;
    let first = store.ladder_bots(ladder.id).await?.into_iter().next().context("no bots")?;
    let (bot, name) = (first.bot, first.name);
    let newest = store.bot_matches(ladder.id, bot, None, 1).await?;
    let newest = newest.first().context("the bot played no match")?.id.0;
    let size = WebConfig::default().page_size;
    let deep = (args.matches * 2 / args.bots as u64 / size / 2).max(2);
    // The deep page's cursor, as the link of the page before it carries it.
    let before = store.bot_matches(ladder.id, bot, None, u32::try_from((deep - 1) * size)?);
    let before = before.await?.last().context("the bot played no match")?.id.0;
    let source = StoreSource::new(cardroom_store::Accounts::new(store));
    let pages = vec![
        ("leaderboard", "/ladders/scale".to_owned()),
        ("bot page", format!("/ladders/scale/bots/{name}")),
        (
            "bot page, deep page of matches by its link",
            format!("/ladders/scale/bots/{name}?page={deep}&before={before}"),
        ),
        ("bot page, deep page by number alone", format!("/ladders/scale/bots/{name}?page={deep}")),
        ("match page (replay)", format!("/ladders/scale/matches/{newest}")),
        ("list of ladders", "/ladders".to_owned()),
    ];
    let router = cardroom_web::router(Arc::new(source), WebConfig::default());
    let bytes = std::fs::metadata(&path)?.len();
    eprintln!("{} ({:.0} MB)", path.display(), bytes as f64 / 1e6);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    let server = tokio::spawn(cardroom_web::serve(
        listener,
        router,
        cardroom_web::ServeConfig { grace: Duration::from_secs(1), ..Default::default() },
        std::future::pending(),
    ));
    println!("| page | first request | median of {} | slowest |", args.requests);
    println!("| --- | --- | --- | --- |");
    for (name, path) in &pages {
        let (cold, status) = time_to_first_byte(addr, path).await?;
        if !status.contains(" 200 ") {
            bail!("{path} answered {status}");
        }
        let mut times = Vec::new();
        for _ in 0..args.requests {
            tokio::time::sleep(Duration::from_millis(1_100)).await;
            times.push(time_to_first_byte(addr, path).await?.0);
        }
        times.sort();
        let median = times.get(times.len() / 2).copied().unwrap_or(cold);
        let slowest = times.last().copied().unwrap_or(cold);
        println!("| {name} (`{path}`) | {} | {} | {} |", ms(cold), ms(median), ms(slowest));
    }
    server.abort();
    Ok(())
}
