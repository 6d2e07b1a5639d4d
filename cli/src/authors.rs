//! `cardroom authors`: the people who own bots (issue 41). The organizer issues invite codes
//! on the store; an author redeems one through the server and then manages their own bots
//! there with their own token, never the admin's.

use std::io::Write;
use std::time::Duration;

use anyhow::Context as _;
use cardroom_proto::pb;

use crate::accounts::StoreArg;
use crate::reads::{ServerArgs, answer, block_on, with_bearer};
use crate::table::{Format, Table, utc_time};

/// An author's token, as the author's commands take it.
#[derive(Debug, clap::Args)]
pub(crate) struct TokenArg {
    /// The author's token (`cra_…`), from `cardroom authors join`.
    #[arg(long, env = "CARDROOM_AUTHOR_TOKEN", hide_env_values = true)]
    token: String,
}

/// The subcommands of `cardroom authors`.
#[derive(Debug, clap::Subcommand)]
pub(crate) enum AuthorsCommand {
    /// Issue an invite code, on the store (the organizer): it makes one author, once, before it
    /// expires. The code alone goes to stdout, a note to stderr.
    Invite {
        /// How long the code works, in hours.
        #[arg(long, default_value_t = 168)]
        valid_hours: u64,
        #[command(flatten)]
        store: StoreArg,
    },
    /// Redeem an invite code for an author account under NAME, through the server
    /// (`JoinAsAuthor`): prints the author's token, shown this once.
    Join {
        /// The invite code (`cri_…`).
        code: String,
        /// The author's name (1 to 64 ASCII letters, digits, '.', '_', '-').
        name: String,
        #[command(flatten)]
        server: ServerArgs,
    },
    /// Register a bot of your own (`RegisterBot` with your token): prints its key, shown this
    /// once.
    AddBot {
        /// The bot's name: its lobby name.
        name: String,
        #[command(flatten)]
        token: TokenArg,
        #[command(flatten)]
        server: ServerArgs,
    },
    /// Issue a bot of your own a new key (`RotateBotKey`); the old one stops working.
    RotateBot {
        /// The bot's name.
        name: String,
        #[command(flatten)]
        token: TokenArg,
        #[command(flatten)]
        server: ServerArgs,
    },
    /// Retire a bot of your own (`RevokeBot`): it plays no more until its key is rotated; its
    /// name and results stay.
    RetireBot {
        /// The bot's name.
        name: String,
        #[command(flatten)]
        token: TokenArg,
        #[command(flatten)]
        server: ServerArgs,
    },
    /// Issue yourself a new token (`RotateAuthorToken`); the old one stops working at once.
    RotateToken {
        #[command(flatten)]
        token: TokenArg,
        #[command(flatten)]
        server: ServerArgs,
    },
    /// An author and their bots (`GetAuthor`), for anyone.
    Show {
        /// The author's name.
        name: String,
        #[command(flatten)]
        server: ServerArgs,
        /// How to print them.
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
    },
}

/// Runs a `cardroom authors` subcommand.
pub(crate) fn run_command(command: AuthorsCommand, out: &mut dyn Write) -> anyhow::Result<()> {
    block_on(async move {
        match command {
            AuthorsCommand::Invite { valid_hours, store } => {
                let valid = Duration::from_secs(valid_hours.saturating_mul(3600));
                let invite = store.accounts().await?.invite(valid).await?;
                eprintln!(
                    "an invite for one author, until {}; the code follows, shown this once (the \
                     store keeps only its hash): the author runs `cardroom authors join CODE NAME`",
                    utc_time(invite.expires_ms)
                );
                writeln!(out, "{}", invite.code.expose())?;
                Ok(())
            }
            AuthorsCommand::Join { code, name, server } => {
                let request = pb::JoinAsAuthorRequest { code, name };
                let joined =
                    answer("JoinAsAuthor", server.client()?.join_as_author(request).await)?;
                let author = joined.author.context("JoinAsAuthor answered no author")?;
                eprintln!(
                    "author {} joined; the token follows, shown this once (the server keeps only \
                     its hash): give it as --token or CARDROOM_AUTHOR_TOKEN",
                    author.name
                );
                writeln!(out, "{}", joined.token)?;
                Ok(())
            }
            AuthorsCommand::AddBot { name, token, server } => {
                let request =
                    with_bearer(pb::RegisterBotRequest { name }, &token.token, "the token")?;
                let issued = answer("RegisterBot", server.client()?.register_bot(request).await)?;
                print_key(&issued, "registered")?;
                writeln!(out, "{}", issued.key)?;
                Ok(())
            }
            AuthorsCommand::RotateBot { name, token, server } => {
                let request =
                    with_bearer(pb::RotateBotKeyRequest { name }, &token.token, "the token")?;
                let issued =
                    answer("RotateBotKey", server.client()?.rotate_bot_key(request).await)?;
                print_key(&issued, "has a new key")?;
                writeln!(out, "{}", issued.key)?;
                Ok(())
            }
            AuthorsCommand::RetireBot { name, token, server } => {
                let request =
                    with_bearer(pb::RevokeBotRequest { name }, &token.token, "the token")?;
                let bot = answer("RevokeBot", server.client()?.revoke_bot(request).await)?;
                writeln!(out, "{}: retired", bot.name)?;
                Ok(())
            }
            AuthorsCommand::RotateToken { token, server } => {
                let asked = pb::RotateAuthorTokenRequest {};
                let request = with_bearer(asked, &token.token, "the token")?;
                let rotated = answer(
                    "RotateAuthorToken",
                    server.client()?.rotate_author_token(request).await,
                )?;
                eprintln!("a new token follows, shown this once; the old one no longer works");
                writeln!(out, "{}", rotated.token)?;
                Ok(())
            }
            AuthorsCommand::Show { name, server, format } => {
                let request = pb::GetAuthorRequest { name };
                let profile = answer("GetAuthor", server.client()?.get_author(request).await)?;
                let author = profile.author.context("GetAuthor answered no author")?;
                eprintln!("author {}, joined {}", author.name, utc_time(author.created_ms));
                let mut table = Table::new(&["bot", "status", "registered", "versions"]);
                for bot in profile.bots {
                    let status = match pb::BotStatus::try_from(bot.status) {
                        Ok(pb::BotStatus::Revoked) => "retired",
                        _ => "active",
                    };
                    let versions: Vec<&str> =
                        bot.versions.iter().map(|v| v.version.as_str()).collect();
                    table.row(vec![
                        bot.name.clone(),
                        status.to_owned(),
                        utc_time(bot.created_ms),
                        versions.join(" "),
                    ]);
                }
                table.write(format, out)
            }
        }
    })
}

/// What a key just issued is, on stderr (the key itself goes to stdout).
fn print_key(issued: &pb::IssuedBotKey, what: &str) -> anyhow::Result<()> {
    let bot = issued.bot.as_ref().context("the answer names no bot")?;
    eprintln!(
        "bot {} {what}; its key follows, shown this once (the server keeps only its hash): give \
         it to the bot as --key or CARDROOM_KEY",
        bot.name
    );
    Ok(())
}

/// `cardroom scrim`'s arguments: unrated sets of an author's own bot (`RequestScrimmage`).
#[derive(Debug, clap::Args)]
pub(crate) struct ScrimArgs {
    /// The hosted ladder whose rules they play.
    ladder: String,
    /// Your bot.
    bot: String,
    /// An opponent, by name (again for more): one set each at two seats.
    #[arg(long = "against", value_name = "BOT")]
    against: Vec<String>,
    /// Else the ladder's top this many.
    #[arg(long, conflicts_with = "against")]
    top: Option<u32>,
    #[command(flatten)]
    token: TokenArg,
    #[command(flatten)]
    server: ServerArgs,
}

/// `cardroom scrims`'s arguments: your scrimmages (`ListScrimmages`), or one match's record
/// (`GetScrimmageRecord`).
#[derive(Debug, clap::Args)]
pub(crate) struct ScrimsArgs {
    /// Write the record of this scrimmage's match (`ID/SEATING`, as listed) to --out, for
    /// `cardroom replay`, instead of listing.
    #[arg(long, value_name = "ID/SEATING", requires = "out")]
    record: Option<String>,
    /// Where the record goes.
    #[arg(long)]
    out: Option<std::path::PathBuf>,
    #[command(flatten)]
    token: TokenArg,
    #[command(flatten)]
    server: ServerArgs,
    /// How to print them.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    format: Format,
}

/// Runs `cardroom scrim`: prints the scrimmages made.
pub(crate) fn scrim(args: ScrimArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    block_on(async move {
        let ScrimArgs { ladder, bot, against, top, token, server } = args;
        let asked =
            pb::RequestScrimmageRequest { ladder, bot, opponents: against, top: top.unwrap_or(0) };
        let request = with_bearer(asked, &token.token, "the token")?;
        let reply = answer("RequestScrimmage", server.client()?.request_scrimmage(request).await)?;
        eprintln!(
            "{} scrimmage(s) asked for: played when their bots are free, never rated; \
             `cardroom scrims` lists them",
            reply.scrimmages.len()
        );
        write_scrims(&reply.scrimmages, Format::Table, out)
    })
}

/// Runs `cardroom scrims`.
pub(crate) fn scrims(args: ScrimsArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    block_on(async move {
        let ScrimsArgs { record, out: path, token, server, format } = args;
        let mut client = server.client()?;
        if let (Some(which), Some(path)) = (record, path) {
            let (id, rotation) = which
                .split_once('/')
                .and_then(|(id, r)| Some((id.parse().ok()?, r.parse().ok()?)))
                .context("--record takes ID/SEATING, as `cardroom scrims` lists them (12/0)")?;
            let asked = pb::GetScrimmageRecordRequest { id, rotation };
            let request = with_bearer(asked, &token.token, "the token")?;
            let record = answer("GetScrimmageRecord", client.get_scrimmage_record(request).await)?;
            std::fs::write(&path, record.record_json)
                .with_context(|| format!("writing {}", path.display()))?;
            eprintln!("wrote {}: `cardroom replay {}` replays it", path.display(), path.display());
            return Ok(());
        }
        let request = with_bearer(pb::ListScrimmagesRequest {}, &token.token, "the token")?;
        let reply = answer("ListScrimmages", client.list_scrimmages(request).await)?;
        write_scrims(&reply.scrimmages, format, out)
    })
}

/// Scrimmages as a table: one row a match played (or one for a scrimmage not played yet).
fn write_scrims(
    scrims: &[pb::ScrimmageInfo],
    format: Format,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let mut table =
        Table::new(&["id", "ladder", "table", "state", "seating", "match", "places", "note"]);
    for s in scrims {
        let note = if s.failure.is_empty() { String::new() } else { s.failure.clone() };
        if s.matches.is_empty() {
            let cells =
                [&s.id.to_string(), &s.ladder, &s.bots.join(" "), &s.state, "", "", "", &note];
            table.row(cells.iter().map(|c| c.to_string()).collect());
        }
        for m in &s.matches {
            let places: Vec<String> = m
                .seats
                .iter()
                .map(|seat| {
                    let forfeit = if seat.forfeit { " (forfeit)" } else { "" };
                    format!("{} {}{forfeit}", seat.bot, seat.place)
                })
                .collect();
            table.row(vec![
                s.id.to_string(),
                s.ladder.clone(),
                s.bots.join(" "),
                s.state.clone(),
                format!("{}/{}", s.id, m.rotation),
                m.match_id.clone(),
                places.join(", "),
                note.clone(),
            ]);
        }
    }
    table.write(format, out)
}
