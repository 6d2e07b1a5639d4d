//! `cardroom seasons`: a competition's seasons (issue 41). The organizer puts a season file on
//! the server (`create`, again to move its deadline); anyone reads a season, its finalists and
//! final standings (`show`) and its events (`events`, an author's own too with their token).

use std::io::Write;
use std::path::PathBuf;

use anyhow::Context as _;
use cardroom_proto::pb;
use tokio_stream::StreamExt as _;

use crate::reads::{ServerArgs, answer, block_on, with_bearer};
use crate::table::{Format, Table, utc_time};

/// The subcommands of `cardroom seasons`.
#[derive(Debug, clap::Subcommand)]
pub(crate) enum SeasonsCommand {
    /// Put a season file on the server (`CreateSeason`, the admin's): the season is made, or
    /// takes the new file while its deadline is ahead (a moved deadline).
    Create {
        /// The season file (TOML: docs/competition.md).
        file: PathBuf,
        /// The server's admin token.
        #[arg(long, env = "CARDROOM_ADMIN_TOKEN", hide_env_values = true)]
        admin_token: String,
        #[command(flatten)]
        server: ServerArgs,
    },
    /// Every season on the server (`ListSeasons`).
    List {
        #[command(flatten)]
        server: ServerArgs,
        /// How to print them.
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
    },
    /// One season (`GetSeason`): its deadline and state, the finalists the deadline found and,
    /// once the finals are over, the final standings with each rank's interval.
    Show {
        /// The season's name.
        name: String,
        #[command(flatten)]
        server: ServerArgs,
        /// How to print the standings.
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
    },
    /// A season's events (`WatchSeason`): submissions accepted or refused, bots paused, the
    /// deadline near, the finals started and finished. With --token, your own submissions'
    /// events too; with --follow, new ones as they happen until interrupted.
    Events {
        /// The season's name.
        name: String,
        /// Your author token (`cra_…`), for your own events.
        #[arg(long, env = "CARDROOM_AUTHOR_TOKEN", hide_env_values = true)]
        token: Option<String>,
        /// Only the events numbered after this one.
        #[arg(long, default_value_t = 0)]
        after: i64,
        /// Stay and print each new event.
        #[arg(long)]
        follow: bool,
        #[command(flatten)]
        server: ServerArgs,
        /// How to print them.
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
    },
}

/// Runs `cardroom seasons`.
pub(crate) fn run_command(command: SeasonsCommand, out: &mut dyn Write) -> anyhow::Result<()> {
    block_on(async move {
        match command {
            SeasonsCommand::Create { file, admin_token, server } => {
                let text = std::fs::read_to_string(&file)
                    .with_context(|| format!("reading {}", file.display()))?;
                let request = pb::CreateSeasonRequest { config_toml: text };
                let request = with_bearer(request, &admin_token, "the admin token")?;
                let mut client = server.client()?;
                let season = answer("CreateSeason", client.create_season(request).await)?;
                writeln!(
                    out,
                    "season {} is {}: its deadline is {}",
                    season.name, season.state, season.deadline
                )?;
                Ok(())
            }
            SeasonsCommand::List { server, format } => {
                let mut client = server.client()?;
                let reply =
                    answer("ListSeasons", client.list_seasons(pb::ListSeasonsRequest {}).await)?;
                let mut table = Table::new(&["season", "state", "deadline", "ladders", "finals"]);
                for s in reply.seasons {
                    table.row(vec![
                        s.name,
                        s.state,
                        s.deadline,
                        s.ladders.join(" "),
                        s.finals_ladder,
                    ]);
                }
                table.write(format, out)
            }
            SeasonsCommand::Show { name, server, format } => {
                let mut client = server.client()?;
                let asked = pb::GetSeasonRequest { name };
                let season = answer("GetSeason", client.get_season(asked).await)?;
                show(&season, format, out)
            }
            SeasonsCommand::Events { name, token, after, follow, server, format } => {
                let asked = pb::WatchSeasonRequest { name, after, follow };
                let request = match &token {
                    Some(token) => with_bearer(asked, token, "the token")?,
                    None => tonic::Request::new(asked),
                };
                let mut client = server.client()?;
                let mut events = answer("WatchSeason", client.watch_season(request).await)?;
                let header = ["id", "at", "kind", "bot", "event"];
                let mut table = Table::new(&header);
                while let Some(event) = events.next().await {
                    let event = event
                        .map_err(|status| crate::reads::RpcError { rpc: "WatchSeason", status })?;
                    table.row(event_row(event));
                    if follow {
                        // One line an event, as it comes.
                        table.write(format, out)?;
                        out.flush()?;
                        table = Table::new(&header);
                    }
                }
                if follow { Ok(()) } else { table.write(format, out) }
            }
        }
    })
}

fn event_row(event: pb::SeasonEvent) -> Vec<String> {
    let kind = if event.private { format!("{} (yours)", event.kind) } else { event.kind };
    vec![event.id.to_string(), utc_time(event.at_ms), kind, event.bot, event.text]
}

/// A season: a header of lines, then its final standings or its finalists as a table.
fn show(season: &pb::SeasonInfo, format: Format, out: &mut dyn Write) -> anyhow::Result<()> {
    writeln!(out, "season {}: {}", season.name, season.state)?;
    writeln!(out, "deadline {}", season.deadline)?;
    writeln!(out, "ladders {}", season.ladders.join(" "))?;
    let rows = |bots: &[pb::SeasonRank]| {
        let mut table = Table::new(&["rank", "bot", "interval", "version"]);
        for bot in bots {
            table.row(vec![
                bot.rank.to_string(),
                bot.bot.clone(),
                format!("{}-{}", bot.rank_lo, bot.rank_hi),
                bot.version.clone(),
            ]);
        }
        table
    };
    if let Some(outcome) = &season.outcome {
        let settled = if outcome.settled { "settled at 95%" } else { outcome.reason.as_str() };
        writeln!(
            out,
            "finals {}: {settled}, {} sets, {} matches",
            season.finals_ladder, outcome.sets, outcome.matches
        )?;
        return rows(&outcome.standings).write(format, out);
    }
    if let Some(finalists) = &season.finalists {
        let cut = if finalists.cut_settled { "settled" } else { "not settled at 95%" };
        writeln!(
            out,
            "finals {}: playing; finalists from {} after {} sets (the cut {cut})",
            season.finals_ladder, finalists.ladder, finalists.sets
        )?;
        return rows(&finalists.bots).write(format, out);
    }
    Ok(())
}
