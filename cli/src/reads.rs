//! The read subcommands against a running server: a hosted ladder's public reads (`cardroom
//! ladders`, `leaderboard`, `bot`, `h2h`, `record`, `failures` with the bot's key), the
//! server's matches (`cardroom matches`), and the admin `cardroom bots resume`.
//!
//! Each prints its rpc's answer in one of three formats, written once for every command by
//! [`print()`]: `json` is the answer itself in the contract's JSON mapping (lowerCamelCase names,
//! 64-bit integers as strings, every field present), `table` its tables aligned for people, and
//! `csv` the table of what it lists, with a header row. A refused rpc is an [`RpcError`]: its
//! status code and message, and a non-zero exit.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Context;
use cardroom_proto::pb;
use cardroom_proto::pb::cardroom_client::CardroomClient;
use cardroom_sdk::{DEFAULT_SERVER, TlsOptions};
use tonic::metadata::MetadataValue;
use tonic::transport::Channel;
use tonic::{Code, Request, Status};

use crate::table::{Format, Table, utc_time};

/// Where the server is, and how its `https://` certificate is checked (as the bots' flags).
#[derive(Debug, clap::Args)]
pub(crate) struct ServerArgs {
    /// The server's address: `http://HOST:PORT`, or `https://HOST:PORT` for TLS.
    #[arg(long, env = "CARDROOM_SERVER", default_value = DEFAULT_SERVER)]
    server: String,
    /// Trust the certificate authorities in this PEM file for `https://` (default: the
    /// system's roots).
    #[arg(long, env = "CARDROOM_CA_FILE")]
    ca_file: Option<PathBuf>,
    /// The name the server's certificate must carry, when it is not the address's host.
    #[arg(long, env = "CARDROOM_TLS_SERVER_NAME")]
    tls_server_name: Option<String>,
}

impl ServerArgs {
    /// The server at `server`, trusting `ca_file` for `https://`.
    pub(crate) fn new(server: String, ca_file: Option<PathBuf>) -> ServerArgs {
        ServerArgs { server, ca_file, tls_server_name: None }
    }

    /// A client of the server; it connects on its first call.
    pub(crate) fn client(&self) -> anyhow::Result<CardroomClient<Channel>> {
        Ok(CardroomClient::new(self.channel()?))
    }

    /// A channel to the server; it connects on its first call.
    pub(crate) fn channel(&self) -> anyhow::Result<Channel> {
        let tls =
            TlsOptions { ca_file: self.ca_file.clone(), server_name: self.tls_server_name.clone() };
        cardroom_sdk::channel(&self.server, &tls)
            .with_context(|| format!("the server address {}", self.server))
    }

    /// The server's address, as given.
    pub(crate) fn address(&self) -> &str {
        &self.server
    }
}

/// How to print an answer.
#[derive(Debug, clap::Args)]
pub(crate) struct FormatArg {
    /// `table` (aligned, for people), `json` (the rpc's answer in the contract's JSON mapping)
    /// or `csv` (the table of what it lists, with a header row).
    #[arg(long, value_enum, default_value_t = Format::Table)]
    format: Format,
}

/// The read subcommands, each one rpc (`bot` two).
#[derive(Debug, clap::Subcommand)]
pub(crate) enum ReadCommand {
    /// The hosted ladders (`ListLadders`).
    Ladders {
        #[command(flatten)]
        server: ServerArgs,
        #[command(flatten)]
        format: FormatArg,
    },
    /// A hosted ladder's leaderboard, best rating first (`GetLeaderboard`).
    Leaderboard {
        /// The ladder's name.
        ladder: String,
        #[command(flatten)]
        server: ServerArgs,
        #[command(flatten)]
        format: FormatArg,
    },
    /// A bot in a ladder: its leaderboard line, rating history, versions, record against each
    /// opponent, and a page of its matches, newest first (`GetLadderBot`, `ListBotMatches`).
    /// The CSV is the page of matches; the next page's cursor is printed after the table (on
    /// stderr with CSV).
    Bot {
        /// The ladder's name.
        ladder: String,
        /// The bot's registered name.
        name: String,
        /// Matches on the page (0: the server's default, 50; at most 200).
        #[arg(long, default_value_t = 20)]
        limit: u32,
        /// Where the page starts: the cursor printed with the page before.
        #[arg(long, default_value = "")]
        cursor: String,
        #[command(flatten)]
        server: ServerArgs,
        #[command(flatten)]
        format: FormatArg,
    },
    /// Two bots of a ladder against each other, over the matches both played
    /// (`GetHeadToHead`): wins are A's.
    H2h {
        /// The ladder's name.
        ladder: String,
        /// The first bot.
        a: String,
        /// The second bot.
        b: String,
        #[command(flatten)]
        server: ServerArgs,
        #[command(flatten)]
        format: FormatArg,
    },
    /// A finished ladder match's record, the JSON `cardroom replay` reads (`GetLadderMatch`):
    /// on stdout, or into FILE with --out (then the match's seats are printed as --format
    /// says).
    Record {
        /// The ladder's name (the match must be one of its own).
        ladder: String,
        /// The ladder match's id (the `id` `cardroom bot` lists).
        id: i64,
        /// Write the record to this file instead of stdout.
        #[arg(long)]
        out: Option<PathBuf>,
        #[command(flatten)]
        server: ServerArgs,
        /// How to print the match's seats, with --out.
        #[arg(long, value_enum, default_value_t = Format::Table, requires = "out")]
        format: Format,
    },
    /// A bot's failures in a ladder, newest first, with what it saw, what it answered and the
    /// error (`ListFailures`): for its author, with the bot's key.
    Failures {
        /// The ladder's name.
        ladder: String,
        /// The bot's registered name.
        name: String,
        /// The bot's key (`crk_…`), sent as `authorization: Bearer <key>`.
        #[arg(long, env = "CARDROOM_KEY", hide_env_values = true)]
        key: Option<String>,
        /// At most this many (0: the server's default, 50; at most 200).
        #[arg(long, default_value_t = 0)]
        limit: u32,
        #[command(flatten)]
        server: ServerArgs,
        #[command(flatten)]
        format: FormatArg,
    },
    /// The server's matches, newest first, a page at a time (`ListMatches`): those running, or
    /// with --finished those over that it still remembers.
    Matches {
        /// The matches over instead of those running.
        #[arg(long)]
        finished: bool,
        /// Matches on the page (0: the server's default, 50; at most 200).
        #[arg(long, default_value_t = 50)]
        limit: u32,
        /// Where the page starts: the cursor printed with the page before.
        #[arg(long, default_value = "")]
        cursor: String,
        #[command(flatten)]
        server: ServerArgs,
        #[command(flatten)]
        format: FormatArg,
    },
}

/// A refused rpc: its name, status code and message.
#[derive(Debug)]
pub(crate) struct RpcError {
    pub(crate) rpc: &'static str,
    pub(crate) status: Status,
}

impl std::fmt::Display for RpcError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} refused: {}: {}",
            self.rpc,
            code_name(self.status.code()),
            self.status.message()
        )
    }
}

impl std::error::Error for RpcError {}

/// A gRPC status code's canonical name, as grpcurl and the other languages print it.
fn code_name(code: Code) -> &'static str {
    match code {
        Code::Ok => "OK",
        Code::Cancelled => "CANCELLED",
        Code::Unknown => "UNKNOWN",
        Code::InvalidArgument => "INVALID_ARGUMENT",
        Code::DeadlineExceeded => "DEADLINE_EXCEEDED",
        Code::NotFound => "NOT_FOUND",
        Code::AlreadyExists => "ALREADY_EXISTS",
        Code::PermissionDenied => "PERMISSION_DENIED",
        Code::ResourceExhausted => "RESOURCE_EXHAUSTED",
        Code::FailedPrecondition => "FAILED_PRECONDITION",
        Code::Aborted => "ABORTED",
        Code::OutOfRange => "OUT_OF_RANGE",
        Code::Unimplemented => "UNIMPLEMENTED",
        Code::Internal => "INTERNAL",
        Code::Unavailable => "UNAVAILABLE",
        Code::DataLoss => "DATA_LOSS",
        Code::Unauthenticated => "UNAUTHENTICATED",
    }
}

/// The answer of an rpc, or an [`RpcError`] naming it.
pub(crate) fn answer<T>(
    rpc: &'static str,
    result: Result<tonic::Response<T>, Status>,
) -> anyhow::Result<T> {
    result.map(tonic::Response::into_inner).map_err(|status| RpcError { rpc, status }.into())
}

/// `message` with `secret` as its `authorization: Bearer` metadata.
pub(crate) fn with_bearer<T>(message: T, secret: &str, what: &str) -> anyhow::Result<Request<T>> {
    let value: MetadataValue<_> = format!("Bearer {secret}")
        .parse()
        .with_context(|| format!("{what} must be printable ASCII"))?;
    let mut request = Request::new(message);
    request.metadata_mut().insert("authorization", value);
    Ok(request)
}

/// Runs `future` to its end on a runtime of this thread.
pub(crate) fn block_on<F: std::future::Future<Output = anyhow::Result<()>>>(
    future: F,
) -> anyhow::Result<()> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?
        .block_on(future)
}

/// Runs a read subcommand.
pub(crate) fn run_command(command: ReadCommand, out: &mut dyn Write) -> anyhow::Result<()> {
    block_on(async move {
        match command {
            ReadCommand::Ladders { server, format } => {
                // Every page, into one answer.
                let mut client = server.client()?;
                let mut reply = pb::ListLaddersResponse::default();
                loop {
                    let request = pb::ListLaddersRequest {
                        page_size: 0,
                        page_token: std::mem::take(&mut reply.next_page_token),
                    };
                    let page = answer("ListLadders", client.list_ladders(request).await)?;
                    reply.ladders.extend(page.ladders);
                    reply.next_page_token = page.next_page_token;
                    if reply.next_page_token.is_empty() {
                        break;
                    }
                }
                let table = ladders_table(&reply, Exact::of(format.format));
                print(&reply, &[Titled::plain(table)], 0, None, format.format, out)
            }
            ReadCommand::Leaderboard { ladder, server, format } => {
                print_leaderboard(&mut server.client()?, ladder, format.format, out).await
            }
            ReadCommand::Bot { ladder, name, limit, cursor, server, format } => {
                let mut client = server.client()?;
                let request = pb::GetLadderBotRequest { ladder: ladder.clone(), bot: name.clone() };
                let bot = answer("GetLadderBot", client.get_ladder_bot(request).await)?;
                let request = pb::ListBotMatchesRequest {
                    ladder,
                    bot: name,
                    page_size: limit,
                    page_token: cursor,
                };
                let page = answer("ListBotMatches", client.list_bot_matches(request).await)?;
                print_bot(&bot, &page, format.format, out)
            }
            ReadCommand::H2h { ladder, a, b, server, format } => {
                let request = pb::GetHeadToHeadRequest { ladder, a: a.clone(), b };
                let reply =
                    answer("GetHeadToHead", server.client()?.get_head_to_head(request).await)?;
                let mut table = against_table(true);
                if let Some(h) = &reply.a_against_b {
                    table.row(against_row(Some(&a), h));
                }
                print(&reply, &[Titled::plain(table)], 0, None, format.format, out)
            }
            ReadCommand::Record { ladder, id, out: file, server, format } => {
                let request = pb::GetLadderMatchRequest { id };
                let found =
                    answer("GetLadderMatch", server.client()?.get_ladder_match(request).await)?;
                write_record(&found, &ladder, file.as_deref(), format, out)
            }
            ReadCommand::Failures { ladder, name, key, limit, server, format } => {
                let message = pb::ListFailuresRequest { ladder, bot: name, limit };
                // Without a key the server answers UNAUTHENTICATED, and that is what is printed.
                let request = match &key {
                    Some(key) => with_bearer(message, key, "a bot's key")?,
                    None => Request::new(message),
                };
                let reply = answer("ListFailures", server.client()?.list_failures(request).await)?;
                let table = failures_table(&reply, Exact::of(format.format));
                print(&reply, &[Titled::plain(table)], 0, None, format.format, out)
            }
            ReadCommand::Matches { finished, limit, cursor, server, format } => {
                let state =
                    if finished { pb::MatchState::Finished } else { pb::MatchState::Running };
                let request = pb::ListMatchesRequest {
                    state: state as i32,
                    page_size: limit,
                    page_token: cursor,
                };
                let page = answer("ListMatches", server.client()?.list_matches(request).await)?;
                let table = matches_table(&page, Exact::of(format.format));
                let next = Some(page.next_page_token.as_str());
                print(&page, &[Titled::plain(table)], 0, next, format.format, out)
            }
        }
    })
}

/// Prints a ladder's leaderboard (`GetLeaderboard`): its standings and the pairwise table.
pub(crate) async fn print_leaderboard(
    client: &mut CardroomClient<Channel>,
    ladder: String,
    format: Format,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let request = pb::GetLeaderboardRequest { ladder };
    let board = answer("GetLeaderboard", client.get_leaderboard(request).await)?;
    let title = board.ladder.as_ref().map(ladder_title).unwrap_or_default();
    let exact = Exact::of(format);
    let title = match &board.standings {
        Some(standings) => format!("{title}\n{}", standings_line(standings)),
        None => title,
    };
    let tables = [
        Titled::new(title, leaderboard_table(&board.rows, exact)),
        Titled::new(PAIRWISE_TITLE.into(), pairwise_table(&board.rows, exact)),
    ];
    print(&board, &tables, 0, None, format, out)
}

/// `cardroom bots resume LADDER NAME`: the admin `ResumeBot`.
pub(crate) async fn resume_bot(
    ladder: String,
    bot: String,
    admin_token: &str,
    server: &ServerArgs,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let request =
        with_bearer(pb::ResumeBotRequest { ladder, bot }, admin_token, "the admin token")?;
    let resumed = answer("ResumeBot", server.client()?.resume_bot(request).await)?;
    writeln!(
        out,
        "{} resumed in ladder {} (it was paused: {})",
        resumed.bot, resumed.ladder, resumed.paused_reason
    )?;
    Ok(())
}

/// How numbers and times are written: rounded for people in a table, exactly (floats as Rust
/// prints them, times as milliseconds since the Unix epoch) in CSV, for scripts.
#[derive(Clone, Copy)]
struct Exact(bool);

impl Exact {
    fn of(format: Format) -> Exact {
        Exact(format != Format::Table)
    }

    fn float(self, value: f64, places: usize) -> String {
        if self.0 { value.to_string() } else { format!("{value:.places$}") }
    }

    fn time(self, ms: i64) -> String {
        if self.0 { ms.to_string() } else { utc_time(ms) }
    }
}

/// A table with the line printed above it in the text format ("" for none).
struct Titled {
    title: String,
    table: Table,
}

impl Titled {
    fn new(title: String, table: Table) -> Titled {
        Titled { title, table }
    }

    fn plain(table: Table) -> Titled {
        Titled::new(String::new(), table)
    }
}

/// Prints an rpc's answer: `message` itself for JSON; the tables with their titles for the text
/// format, then the next page's cursor when there is one; the table numbered `csv` for CSV (the
/// cursor, if any, on stderr, so that stdout stays one CSV document).
fn print<M: serde::Serialize>(
    message: &M,
    tables: &[Titled],
    csv: usize,
    next_cursor: Option<&str>,
    format: Format,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let next_cursor = next_cursor.filter(|c| !c.is_empty());
    match format {
        Format::Json => {
            serde_json::to_writer_pretty(&mut *out, message)?;
            writeln!(out)?;
        }
        Format::Csv => {
            if let Some(listed) = tables.get(csv) {
                listed.table.write(Format::Csv, out)?;
            }
            if let Some(cursor) = next_cursor {
                eprintln!("next page: --cursor {cursor}");
            }
        }
        Format::Table => {
            for (i, titled) in tables.iter().enumerate() {
                if i > 0 {
                    writeln!(out)?;
                }
                if !titled.title.is_empty() {
                    writeln!(out, "{}", titled.title)?;
                }
                titled.table.write(Format::Table, out)?;
            }
            if let Some(cursor) = next_cursor {
                writeln!(out, "\nnext page: --cursor {cursor}")?;
            }
        }
    }
    Ok(())
}

/// `ladder tt: twenty-two, 2 seats, weng_lin, running`.
fn ladder_title(ladder: &pb::LadderInfo) -> String {
    let reason = if ladder.status_reason.is_empty() {
        String::new()
    } else {
        format!(" ({})", ladder.status_reason)
    };
    format!(
        "ladder {}: {}, {} seats, {}, {}{reason}",
        ladder.name, ladder.game, ladder.table_seats, ladder.rating, ladder.status
    )
}

/// `standings after 12 of 12 sets rated: settled at 95%, strong > weak` (and an SPRT's state).
fn standings_line(standings: &pb::LadderStandings) -> String {
    let confidence = standings.confidence * 100.0;
    let verdict = if standings.settled { "settled" } else { "not settled" };
    let mut line = format!(
        "standings after {} of {} sets rated: {verdict} at {confidence:.0}%, {}",
        standings.sets,
        standings.revision,
        standings.order.join(" > ")
    );
    if let Some(sprt) = &standings.sprt {
        line.push_str(&format!(
            "\nsprt {} vs {}: LLR {:.2} in [{:.2}, {:.2}] after {} sets, {}",
            sprt.a, sprt.b, sprt.llr, sprt.lower, sprt.upper, sprt.samples, sprt.decision
        ));
    }
    line
}

/// A row's rank interval, `1-2` (`1` when it is one rank), empty when the standings do not
/// hold the bot yet.
fn rank_interval(row: &pb::LeaderboardRow) -> String {
    match (row.rank_lo, row.rank_hi) {
        (0, _) => String::new(),
        (lo, hi) if lo == hi => lo.to_string(),
        (lo, hi) => format!("{lo}-{hi}"),
    }
}

/// The pairwise matrix's title: what its figures are.
const PAIRWISE_TITLE: &str =
    "how sure that each row's bot is better than each column's (anytime-valid, whole table)";

/// The pairwise matrix: row `i`, column `j` is how sure the evidence is that row `i`'s bot is
/// better than row `j`'s (empty where the standings do not hold the bot yet).
fn pairwise_table(rows: &[pb::LeaderboardRow], exact: Exact) -> Table {
    let mut header = vec!["bot"];
    header.extend(rows.iter().map(|r| r.bot.as_str()));
    Table::of(&header, rows, |r| {
        let mut line = vec![r.bot.clone()];
        line.extend(
            (0..rows.len())
                .map(|j| r.p_better.get(j).map_or_else(String::new, |&p| exact.float(p, 2))),
        );
        line
    })
}

/// Leaderboard rows, one line per bot in the order given (rank order).
fn leaderboard_table(rows: &[pb::LeaderboardRow], exact: Exact) -> Table {
    let columns = [
        "rank",
        "bot",
        "ranks_95",
        "may_be_first",
        "rating",
        "sigma",
        "matches",
        "wins",
        "win_rate",
        "sets",
        "provisional",
        "crashes",
        "forfeits",
        "illegal",
        "timeouts",
        "paused",
    ];
    Table::of(&columns, rows, |r| {
        let h = r.health.unwrap_or_default();
        vec![
            r.rank.to_string(),
            r.bot.clone(),
            rank_interval(r),
            if r.rank_lo == 0 { String::new() } else { r.indistinguishable_from_first.to_string() },
            exact.float(r.rating, 2),
            exact.float(r.sigma, 2),
            r.matches.to_string(),
            r.wins.to_string(),
            exact.float(r.win_rate, 3),
            r.sets_rated.to_string(),
            r.provisional.to_string(),
            h.crashes.to_string(),
            h.forfeits.to_string(),
            h.illegal.to_string(),
            h.timeouts.to_string(),
            r.paused_reason.clone(),
        ]
    })
}

/// `ListLadders`: one line per ladder.
fn ladders_table(reply: &pb::ListLaddersResponse, exact: Exact) -> Table {
    let columns =
        ["name", "game", "seats", "rating", "status", "reason", "provisional_sets", "created"];
    Table::of(&columns, &reply.ladders, |l| {
        vec![
            l.name.clone(),
            l.game.clone(),
            l.table_seats.to_string(),
            l.rating.clone(),
            l.status.clone(),
            l.status_reason.clone(),
            l.provisional_sets.to_string(),
            exact.time(l.created_ms),
        ]
    })
}

/// Head-to-head lines, with a first column `bot` when `with_bot` (it is implied otherwise).
fn against_table(with_bot: bool) -> Table {
    let columns = ["bot", "opponent", "wins", "ties", "losses"];
    Table::new(if with_bot { &columns } else { &columns[1..] })
}

/// One head-to-head line, under [`against_table`].
fn against_row(bot: Option<&str>, h: &pb::HeadToHead) -> Vec<String> {
    let numbers = [h.wins, h.ties, h.losses].map(|n| n.to_string());
    bot.map(str::to_owned).into_iter().chain([h.opponent.clone()]).chain(numbers).collect()
}

/// `ListFailures`: one line per failure, the observation and a hosted bot's output last (they
/// are long).
fn failures_table(reply: &pb::ListFailuresResponse, exact: Exact) -> Table {
    let columns = ["match", "at", "kind", "version", "error", "answer", "observation", "output"];
    Table::of(&columns, &reply.failures, |f| {
        vec![
            f.match_id.to_string(),
            exact.time(f.at_ms),
            f.kind.clone(),
            f.version.clone(),
            f.error.clone(),
            f.answer.clone(),
            f.observation_json.clone(),
            f.output.clone(),
        ]
    })
}

/// `ListMatches`: one line per match, its seats' names in seat order (`(away)` for a running
/// match's seat whose bot is not connected).
fn matches_table(page: &pb::ListMatchesResponse, exact: Exact) -> Table {
    let columns = ["match", "game", "seats", "created", "ended", "end"];
    Table::of(&columns, &page.matches, |m| {
        let game = pb::Game::try_from(m.game).unwrap_or(pb::Game::Unspecified);
        let seats: Vec<String> = m
            .seats
            .iter()
            .map(|s| {
                let name = if s.bot_name.is_empty() { "-" } else { &s.bot_name };
                if m.ended_ms == 0 && !s.connected {
                    format!("{name} (away)")
                } else {
                    name.to_owned()
                }
            })
            .collect();
        vec![
            m.match_id.clone(),
            game.as_str_name().to_owned(),
            seats.join(" "),
            exact.time(m.created_ms),
            if m.ended_ms == 0 { String::new() } else { exact.time(m.ended_ms) },
            m.end.as_ref().map(end_summary).unwrap_or_default(),
        ]
    })
}

/// Who sat where and how each did: `alice:1 bob:2(illegal)`.
fn seats_summary(seats: &[pb::LadderSeat]) -> String {
    let seats: Vec<String> = seats
        .iter()
        .map(|s| {
            let place = if s.place == 0 { "-".to_owned() } else { s.place.to_string() };
            let failure =
                if s.failure.is_empty() { String::new() } else { format!("({})", s.failure) };
            format!("{}:{place}{failure}", s.bot)
        })
        .collect();
    seats.join(" ")
}

/// How a match ended, in a cell: `aborted: …`, or its places by seat (`1st seat 0, 2nd seat 1`).
fn end_summary(end: &pb::MatchEnd) -> String {
    if end.aborted {
        return format!("aborted: {}", end.reason);
    }
    let places: Vec<String> =
        end.standings.iter().map(|s| format!("seat {} place {}", s.seat, s.place)).collect();
    places.join(", ")
}

/// `cardroom bot`: the bot's line, history, versions and opponents, then the page of matches
/// (the CSV's table); JSON is the `LadderBot` with the page's `matches` and `nextPageToken`.
fn print_bot(
    bot: &pb::LadderBot,
    page: &pb::ListBotMatchesResponse,
    format: Format,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let exact = Exact::of(format);
    let columns = ["id", "set", "rotation", "state", "finished", "seats", "server_match"];
    let matches = Table::of(&columns, &page.matches, |m| {
        vec![
            m.id.to_string(),
            m.set_index.to_string(),
            m.rotation.to_string(),
            m.state.clone(),
            if m.finished_ms == 0 { String::new() } else { exact.time(m.finished_ms) },
            seats_summary(&m.seats),
            m.server_match_id.clone(),
        ]
    });
    let history = Table::of(&["set", "rating", "sigma", "at"], &bot.history, |h| {
        vec![
            h.set_index.to_string(),
            exact.float(h.rating, 2),
            exact.float(h.sigma, 2),
            exact.time(h.at_ms),
        ]
    });
    let versions = Table::of(&["version", "first", "last", "matches"], &bot.versions, |v| {
        vec![
            v.version.clone(),
            exact.time(v.first_ms),
            exact.time(v.last_ms),
            v.matches.to_string(),
        ]
    });
    let mut against = against_table(false);
    for h in &bot.head_to_head {
        against.row(against_row(None, h));
    }
    let line = leaderboard_table(bot.row.as_slice(), exact);
    let tables = [
        Titled::new("leaderboard line".into(), line),
        Titled::new("rating after each rated set".into(), history),
        Titled::new("versions".into(), versions),
        Titled::new("against each opponent".into(), against),
        Titled::new("matches, newest first".into(), matches),
    ];
    // One JSON document: the bot, with its page of matches beside its other fields.
    let mut json = serde_json::to_value(bot)?;
    if let serde_json::Value::Object(fields) = &mut json {
        let page = serde_json::to_value(page)?;
        if let serde_json::Value::Object(page) = page {
            fields.extend(page);
        }
    }
    print(&json, &tables, tables.len() - 1, Some(&page.next_page_token), format, out)
}

/// `cardroom record`: the record to `file` (or stdout), once the match is done and if it is
/// the ladder's; with a file, the match's seats printed as `format` says.
fn write_record(
    found: &pb::LadderMatchInfo,
    ladder: &str,
    file: Option<&Path>,
    format: Format,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    if found.ladder != ladder {
        anyhow::bail!("ladder match {} is in ladder {}, not {ladder}", found.id, found.ladder);
    }
    if found.record_json.is_empty() {
        if found.state == "done" {
            anyhow::bail!("ladder match {} is done but its record was not kept", found.id);
        }
        anyhow::bail!(
            "ladder match {} is {}: its record is served once it is done",
            found.id,
            found.state
        );
    }
    let Some(file) = file else {
        writeln!(out, "{}", found.record_json)?;
        return Ok(());
    };
    std::fs::write(file, format!("{}\n", found.record_json))
        .with_context(|| format!("writing the record to {}", file.display()))?;
    let exact = Exact::of(format);
    let mut seats = Table::new(&["seat", "bot", "version", "place", "forfeited", "failure"]);
    for s in &found.seats {
        seats.row(vec![
            s.seat.to_string(),
            s.bot.clone(),
            s.version.clone(),
            s.place.to_string(),
            s.forfeited.to_string(),
            s.failure.clone(),
        ]);
    }
    let title = format!(
        "ladder match {} of {}: set {}, rotation {}, {}, finished {}; record in {}",
        found.id,
        found.ladder,
        found.set_index,
        found.rotation,
        found.state,
        exact.time(found.finished_ms),
        file.display()
    );
    print(found, &[Titled::new(title, seats)], 0, None, format, out)
}
