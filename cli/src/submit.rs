//! `cardroom bots submit` and `cardroom bots submissions`: a bot's code sent to a running
//! server (`SubmitBot`, with the bot's key or the admin token) and its submissions listed
//! (`ListSubmissions`).

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Context;
use cardroom_proto::pb;

use crate::reads::{ServerArgs, answer, with_bearer};
use crate::table::{Format, Table, utc_time};

/// Archive bytes a `SubmitBot` message carries: well within a server's 64 KiB message limit.
const CHUNK_BYTES: usize = 32 * 1024;

/// Hex digits of a version a table shows (`--format csv` and `json` show all 64).
const SHORT_VERSION: usize = 12;

/// `cardroom bots submit`'s arguments.
#[derive(Debug, clap::Args)]
pub(crate) struct SubmitArgs {
    /// The bot's registered name.
    name: String,
    /// The bot's code: a directory (packed into a .tar.gz here, the same tree giving the same
    /// bytes) or a .tar.gz file, sent as it is.
    path: PathBuf,
    /// The command that runs the bot from its unpacked tree, split at spaces and never read by
    /// a shell: `--run "python3 bot.py"`. For words with spaces give them after `--` instead.
    #[arg(long, required_unless_present = "argv", conflicts_with = "argv")]
    run: Option<String>,
    /// The command as words, after `--` (`-- python3 "my bot.py"`), each word as it is.
    #[arg(last = true, value_name = "WORD")]
    argv: Vec<String>,
    /// The bot's key (`crk_…`): its author submits with it.
    #[arg(long, env = "CARDROOM_KEY", hide_env_values = true)]
    key: Option<String>,
    /// The server's admin token: the organizer submits with it (the key wins when both are
    /// given).
    #[arg(long, env = "CARDROOM_ADMIN_TOKEN", hide_env_values = true)]
    admin_token: Option<String>,
    /// The bot's author's token (`cardroom authors join`): its author submits with it.
    #[arg(long, env = "CARDROOM_AUTHOR_TOKEN", hide_env_values = true)]
    author_token: Option<String>,
    #[command(flatten)]
    server: ServerArgs,
}

/// `cardroom bots submissions`'s arguments.
#[derive(Debug, clap::Args)]
pub(crate) struct SubmissionsArgs {
    /// The bot's registered name.
    name: String,
    #[command(flatten)]
    server: ServerArgs,
    /// How to print them.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    format: Format,
}

/// The run command as argv: `--run` split at spaces, or the words after `--`.
fn argv(run: Option<String>, words: Vec<String>) -> Vec<String> {
    match run {
        Some(run) => run.split_whitespace().map(str::to_owned).collect(),
        None => words,
    }
}

/// The archive at `path`: a directory packed, a file read.
fn archive(path: &Path) -> anyhow::Result<Vec<u8>> {
    if path.is_dir() {
        cardroom_store::pack_dir(path).with_context(|| format!("packing {}", path.display()))
    } else {
        std::fs::read(path).with_context(|| format!("reading {}", path.display()))
    }
}

/// `cardroom bots submit NAME PATH --run CMD…`.
pub(crate) async fn submit(args: SubmitArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let SubmitArgs { name, path, run, argv: words, key, admin_token, author_token, server } = args;
    let bytes = archive(&path)?;
    let mut chunks: Vec<pb::SubmitBotChunk> = bytes
        .chunks(CHUNK_BYTES)
        .map(|piece| pb::SubmitBotChunk { archive: piece.to_vec(), ..Default::default() })
        .collect();
    if chunks.is_empty() {
        chunks.push(pb::SubmitBotChunk::default());
    }
    chunks[0].bot = name;
    chunks[0].run = argv(run, words);
    let stream = tokio_stream::iter(chunks);
    let request = match (&key, &author_token, &admin_token) {
        (Some(key), _, _) => with_bearer(stream, key, "a bot's key")?,
        (None, Some(token), _) => with_bearer(stream, token, "the author's token")?,
        (None, None, Some(token)) => with_bearer(stream, token, "the admin token")?,
        // The server answers UNAUTHENTICATED, and that is what is printed.
        (None, None, None) => tonic::Request::new(stream),
    };
    let submitted = answer("SubmitBot", server.client()?.submit_bot(request).await)?;
    let s = submitted.submission.context("SubmitBot answered no submission")?;
    let what = if submitted.new { "submitted" } else { "submitted before, the newest again" };
    writeln!(
        out,
        "{} version {} ({} bytes, {} unpacked): {what}; it plays from its next set on",
        s.bot, s.sha256, s.archive_bytes, s.unpacked_bytes
    )?;
    Ok(())
}

/// `cardroom bots submissions NAME`: newest first.
pub(crate) async fn list(args: SubmissionsArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let request = pb::ListSubmissionsRequest { bot: args.name };
    let reply = answer("ListSubmissions", args.server.client()?.list_submissions(request).await)?;
    let short = matches!(args.format, Format::Table);
    let columns = ["version", "submitted", "by", "bytes", "unpacked", "run", "archive"];
    let table = Table::of(&columns, &reply.submissions, |s| {
        let version =
            if short { &s.sha256[..s.sha256.len().min(SHORT_VERSION)] } else { &s.sha256 };
        let by = match pb::SubmittedBy::try_from(s.submitted_by) {
            Ok(pb::SubmittedBy::Admin) => "admin",
            Ok(pb::SubmittedBy::Bot) => "bot",
            Ok(pb::SubmittedBy::Author) => "author",
            _ => "?",
        };
        vec![
            version.to_owned(),
            utc_time(s.submitted_ms),
            by.to_owned(),
            s.archive_bytes.to_string(),
            s.unpacked_bytes.to_string(),
            s.run.join(" "),
            if s.archive_kept { "kept" } else { "dropped" }.to_owned(),
        ]
    });
    table.write(args.format, out)
}
