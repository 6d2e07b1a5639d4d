//! `cardroom bots`: bot accounts, against the server's store (the file `cardroom serve
//! --store` opens; a running server sees the changes at the bot's next join).

use std::io::Write;

use anyhow::Context;
use cardroom_store::{Accounts, BotAccount, IssuedKey};

use crate::reads::ServerArgs;
use crate::table::{Format, Table, utc_time};

/// The store's address, as `cardroom serve --store` takes it.
#[derive(Debug, clap::Args)]
pub(crate) struct StoreArg {
    /// The store: `sqlite:FILE` or `postgres://USER@HOST[:PORT]/DATABASE`.
    #[arg(long, env = "CARDROOM_STORE")]
    store: String,
}

impl StoreArg {
    pub(crate) async fn accounts(&self) -> anyhow::Result<Accounts> {
        let store = cardroom_store::open(&self.store)
            .await
            .with_context(|| format!("opening the store {}", self.store))?;
        Ok(Accounts::new(store))
    }
}

/// The subcommands of `cardroom bots`.
#[derive(Debug, clap::Subcommand)]
pub(crate) enum BotsCommand {
    /// Register a bot and print its key: shown this once, the store keeps only its SHA-256.
    /// The key alone goes to stdout (for scripts), a note to stderr.
    Add {
        /// The bot's name (1 to 64 ASCII letters, digits, '.', '_', '-'): its lobby name.
        name: String,
        #[command(flatten)]
        store: StoreArg,
    },
    /// List the registered bots, their status and the versions they reported.
    List {
        #[command(flatten)]
        store: StoreArg,
        /// How to print them.
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
    },
    /// Revoke a bot's key: it cannot join until its key is rotated (its name and results stay).
    Revoke {
        /// The bot's name.
        name: String,
        #[command(flatten)]
        store: StoreArg,
    },
    /// Issue a bot a new key (printed as by `add`); the old one stops working, and a revoked
    /// bot is active again.
    Rotate {
        /// The bot's name.
        name: String,
        #[command(flatten)]
        store: StoreArg,
    },
    /// Lift a bot's pause in a hosted ladder, through the running server (the admin rpc
    /// `ResumeBot`), so that the ladder schedules it again.
    Resume {
        /// The ladder's name.
        ladder: String,
        /// The bot's name.
        name: String,
        /// The server's admin token.
        #[arg(long, env = "CARDROOM_ADMIN_TOKEN", hide_env_values = true)]
        admin_token: String,
        #[command(flatten)]
        server: ServerArgs,
    },
    /// Submit a bot's code for the server to run, through the running server (`SubmitBot`),
    /// with the bot's key or the admin token: prints its version (the archive's SHA-256) and
    /// size. The newest submission plays from its next set on.
    Submit(crate::submit::SubmitArgs),
    /// A bot's submissions through the running server (`ListSubmissions`), newest first.
    Submissions(crate::submit::SubmissionsArgs),
}

/// Runs a `cardroom bots` subcommand.
pub(crate) fn run_command(command: BotsCommand, out: &mut dyn Write) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    runtime.block_on(async move {
        match command {
            BotsCommand::Add { name, store } => {
                let issued = store.accounts().await?.register(&name).await?;
                print_key(&issued, "registered", out)
            }
            BotsCommand::Rotate { name, store } => {
                let issued = store.accounts().await?.rotate(&name).await?;
                print_key(&issued, "has a new key", out)
            }
            BotsCommand::Revoke { name, store } => {
                let bot = store.accounts().await?.revoke(&name).await?;
                writeln!(out, "{}: {}", bot.name, bot.status)?;
                Ok(())
            }
            BotsCommand::List { store, format } => {
                let accounts = store.accounts().await?;
                let mut table =
                    Table::new(&["name", "status", "registered", "key_issued", "versions"]);
                for bot in accounts.list().await? {
                    let versions = accounts.versions(&bot.name).await?;
                    let mut listed: Vec<&str> =
                        versions.kept.iter().map(|v| v.version.as_str()).collect();
                    let forgotten = (versions.forgotten > 0)
                        .then(|| format!("(and {} older, forgotten)", versions.forgotten));
                    listed.extend(forgotten.as_deref());
                    table.row(account_row(&bot, &listed.join(" ")));
                }
                table.write(format, out)
            }
            BotsCommand::Resume { ladder, name, admin_token, server } => {
                crate::reads::resume_bot(ladder, name, &admin_token, &server, out).await
            }
            BotsCommand::Submit(args) => crate::submit::submit(args, out).await,
            BotsCommand::Submissions(args) => crate::submit::list(args, out).await,
        }
    })
}

fn account_row(bot: &BotAccount, versions: &str) -> Vec<String> {
    vec![
        bot.name.clone(),
        bot.status.to_string(),
        utc_time(bot.created_ms),
        utc_time(bot.key_issued_ms),
        versions.to_owned(),
    ]
}

/// The key on stdout, alone on its line; what it is on stderr.
fn print_key(issued: &IssuedKey, what: &str, out: &mut dyn Write) -> anyhow::Result<()> {
    eprintln!(
        "bot {} {what}; its key follows, shown this once (the store keeps only its hash): \
         give it to the bot as --key or CARDROOM_KEY",
        issued.bot.name
    );
    writeln!(out, "{}", issued.key.expose())?;
    Ok(())
}
