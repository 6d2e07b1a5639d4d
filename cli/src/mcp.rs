//! `cardroom mcp`: a registered bot's seat for any agent that speaks the Model Context
//! Protocol, on stdio or, with `--http`, streamable HTTP (on `rmcp`, the protocol's official
//! Rust SDK).
//!
//! The server holds the bot's seat as a [`TextSeat`]: it waits in the lobby under the bot's
//! name, with its key, as a stock bot does, until a ladder or an organizer seats it; each turn's
//! text form and JSON go to the agent, and its replies go to the game server as `Act.reply`.
//! The game server reads them: it answers a reply it cannot read with the reason, and forfeits
//! the seat after the ladder's number of them in one turn. Tools: `list_ladders`,
//! `wait_in_lobby`, `wait_for_turn`, `act` and `match_result`. One seat, one match at a time:
//! after a match, `wait_in_lobby` again.

use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use cardroom_proto::pb;
use cardroom_proto::pb::cardroom_client::CardroomClient;
use cardroom_sdk::{
    ActErrorCode, ConnectArgs, ConnectConfig, MatchEnd, MatchStart, RunError, TextSeat,
};
use cardroom_sdk::{TextTurn, TextUpdate};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock, Implementation, ServerCapabilities, ServerConfig};
use rmcp::{ErrorData, ServerHandler, ServiceExt, schemars, tool, tool_handler, tool_router};
use tokio::sync::Mutex;
use tokio::task::JoinHandle;

/// How long a tool waits when the agent does not say.
const DEFAULT_WAIT_S: u32 = 60;
/// The longest a tool waits: an agent's call should come back within its client's timeout.
const MAX_WAIT_S: u32 = 600;

/// `cardroom mcp`'s flags: a bot's (the server, the key, the lobby name), and the transport.
#[derive(Debug, clap::Args)]
pub(crate) struct McpArgs {
    #[command(flatten)]
    connect: ConnectArgs,
    /// Serve streamable HTTP at this address (`127.0.0.1:8765`; the endpoint is `/mcp`)
    /// instead of stdio.
    #[arg(long)]
    http: Option<String>,
    /// The log's format on stderr: `text` or `json`.
    #[arg(long, value_enum, default_value_t = crate::LogFormat::Text)]
    log_format: crate::LogFormat,
}

/// Runs `cardroom mcp` until its client goes (stdio) or the process is stopped (HTTP). Logs go
/// to stderr: on stdio, stdout is the protocol's.
pub(crate) fn run(args: McpArgs) -> anyhow::Result<()> {
    crate::init_tracing("warn", args.log_format);
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    runtime.block_on(serve(args))
}

async fn serve(args: McpArgs) -> anyhow::Result<()> {
    let config = args.connect.config("mcp").context("the bot's flags")?;
    let ladders = CardroomClient::new(
        cardroom_sdk::channel(&config.server, &config.tls)
            .with_context(|| format!("the server address {}", config.server))?,
    );
    let seat = Seat::new(config, ladders);
    match args.http {
        None => {
            let running = seat.serve(rmcp::transport::stdio()).await.context("the MCP session")?;
            running.waiting().await.context("the MCP session")?;
        }
        Some(address) => {
            use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
            use rmcp::transport::streamable_http_server::{
                StreamableHttpServerConfig, StreamableHttpService,
            };
            // One seat for every session: the agent may reconnect and carry on its match.
            let service: StreamableHttpService<Seat, LocalSessionManager> =
                StreamableHttpService::new(
                    move || Ok(seat.clone()),
                    Arc::default(),
                    StreamableHttpServerConfig::default(),
                );
            let router = axum::Router::new().nest_service("/mcp", service);
            let listener = tokio::net::TcpListener::bind(&address)
                .await
                .with_context(|| format!("--http {address}"))?;
            // The address bound, for a caller that asked for port 0.
            crate::serve::announce(&format!(
                "mcp listening on http://{}/mcp",
                listener.local_addr()?
            ));
            axum::serve(listener, router).await.context("the MCP HTTP server")?;
        }
    }
    Ok(())
}

/// How long to wait, in seconds.
#[derive(Debug, Default, serde::Deserialize, schemars::JsonSchema)]
struct Wait {
    /// Seconds to wait at most before answering "not yet" (default 60, at most 600).
    wait_seconds: Option<u32>,
}

impl Wait {
    fn duration(&self) -> Duration {
        Duration::from_secs(u64::from(self.wait_seconds.unwrap_or(DEFAULT_WAIT_S).min(MAX_WAIT_S)))
    }
}

/// A reply to the turn.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
struct Reply {
    /// The action: its number in the turn's list, its words as listed (`discard 7d`,
    /// `knock`, `call`), or both.
    reply: String,
    /// Why, in at most 2048 bytes: kept in the match's record and shown beside the step in
    /// replays once the match is over, never to the other seats.
    comment: Option<String>,
    /// Seconds to wait for what follows (the next turn, a refusal, the end), default 60.
    wait_seconds: Option<u32>,
}

/// The seat and its match, shared by every tool call (one at a time).
#[derive(Default)]
struct Held {
    /// Waiting in the lobby.
    joining: Option<JoinHandle<Result<TextSeat, RunError>>>,
    /// Seated in a match.
    seat: Option<TextSeat>,
    /// The seat's last turn, and whether a reply to it was sent (a refused reply opens it
    /// again: the server does not send the turn twice).
    turn: Option<(TextTurn, bool)>,
    /// The last match finished.
    last: Option<(MatchStart, MatchEnd)>,
}

/// The MCP server: one bot's seat (see the [module docs](self)).
#[derive(Clone)]
pub(crate) struct Seat {
    config: ConnectConfig,
    ladders: CardroomClient<tonic::transport::Channel>,
    held: Arc<Mutex<Held>>,
    tool_router: ToolRouter<Seat>,
}

/// A tool's answer of text.
fn text(text: impl Into<String>) -> Result<CallToolResult, ErrorData> {
    Ok(CallToolResult::success(vec![ContentBlock::text(text.into())]))
}

/// A tool's refusal: the agent called it at the wrong time, or the server said no.
fn refused(text: impl Into<String>) -> Result<CallToolResult, ErrorData> {
    Ok(CallToolResult::error(vec![ContentBlock::text(text.into())]))
}

#[tool_router]
impl Seat {
    fn new(config: ConnectConfig, ladders: CardroomClient<tonic::transport::Channel>) -> Seat {
        Seat { config, ladders, held: Arc::default(), tool_router: Seat::tool_router() }
    }

    #[tool(description = "The server's hosted ladders: name, game, seats per table, status.")]
    async fn list_ladders(&self) -> Result<CallToolResult, ErrorData> {
        let mut client = self.ladders.clone();
        let request = pb::ListLaddersRequest { page_size: 200, page_token: String::new() };
        let ladders = match client.list_ladders(request).await {
            Ok(reply) => reply.into_inner().ladders,
            Err(status) => return refused(format!("ListLadders: {}", status.message())),
        };
        if ladders.is_empty() {
            return text("No ladders on this server.");
        }
        let lines: Vec<String> = ladders
            .iter()
            .map(|l| format!("{}: {}, {} seats, {}", l.name, l.game, l.table_seats, l.status))
            .collect();
        text(lines.join("\n"))
    }

    #[tool(
        description = "Wait in the lobby under this bot's name until a ladder seats it in a match. Answers with the match (game, seat, clock), or 'not yet' after wait_seconds: call it again."
    )]
    async fn wait_in_lobby(
        &self,
        Parameters(wait): Parameters<Wait>,
    ) -> Result<CallToolResult, ErrorData> {
        let mut held = self.held.lock().await;
        if let Some(seat) = &held.seat {
            return text(format!("Already seated: {}", describe(seat.start())));
        }
        let config = self.config.clone();
        let joining = held
            .joining
            .get_or_insert_with(|| tokio::spawn(async move { TextSeat::join(&config).await }));
        let joined = match tokio::time::timeout(wait.duration(), joining).await {
            Err(_) => return text("Not seated yet: call wait_in_lobby again."),
            Ok(joined) => joined,
        };
        held.joining = None;
        match joined {
            Ok(Ok(seat)) => {
                let seated = format!("Seated: {}. Call wait_for_turn.", describe(seat.start()));
                held.seat = Some(seat);
                held.turn = None;
                text(seated)
            }
            Ok(Err(error)) => refused(format!("The server did not seat the bot: {error}")),
            Err(error) => refused(format!("The lobby wait failed: {error}")),
        }
    }

    #[tool(
        description = "Wait for this seat's turn. Answers with the table in words, what happened since, and the legal actions numbered from 1 (and the same as JSON); or a refusal of the last reply with its reason; or the match's end. 'Not yet' after wait_seconds: call it again."
    )]
    async fn wait_for_turn(
        &self,
        Parameters(wait): Parameters<Wait>,
    ) -> Result<CallToolResult, ErrorData> {
        let mut held = self.held.lock().await;
        // An open turn is shown at once, unless the match moved on meanwhile (a forfeit).
        let open = matches!(held.turn, Some((_, false)));
        let wait = if open { Duration::ZERO } else { wait.duration() };
        next_update(&mut held, wait).await
    }

    #[tool(
        description = "Answer the turn: the action's number, its words, or both. Then waits for what follows: the next turn, a refusal of the reply with its reason (a few in one turn forfeit the match), or the end."
    )]
    async fn act(&self, Parameters(reply): Parameters<Reply>) -> Result<CallToolResult, ErrorData> {
        let mut held = self.held.lock().await;
        let Held { seat: Some(seat), turn: Some((turn, answered @ false)), .. } = &mut *held else {
            return refused("Not your turn: call wait_for_turn first.");
        };
        let comment = reply.comment.unwrap_or_default();
        if let Err(error) = seat.reply(turn.turn, &reply.reply, &comment).await {
            return refused(format!("The reply was not sent: {error}"));
        }
        *answered = true;
        let wait = Wait { wait_seconds: reply.wait_seconds };
        next_update(&mut held, wait.duration()).await
    }

    #[tool(description = "The result of the last match this seat finished: each seat's place.")]
    async fn match_result(&self) -> Result<CallToolResult, ErrorData> {
        let held = self.held.lock().await;
        match &held.last {
            Some((start, end)) => text(result(start, end)),
            None => refused("No match finished yet."),
        }
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Seat {
    fn get_info(&self) -> ServerConfig {
        let cardroom = Implementation::new("cardroom", env!("CARGO_PKG_VERSION"));
        let capabilities = ServerCapabilities::builder().enable_tools().build();
        ServerConfig::new(capabilities).with_server_info(cardroom).with_instructions(
            "A cardroom bot's seat. Call wait_in_lobby until seated, then wait_for_turn and act \
             in turn until the match ends, then match_result. Reply to a turn with the number \
             of a legal action or its words, as the turn lists them.",
        )
    }
}

/// Waits up to `wait` for the seat's next update and answers with it.
async fn next_update(held: &mut Held, wait: Duration) -> Result<CallToolResult, ErrorData> {
    let Some(seat) = held.seat.as_mut() else {
        return refused("Not seated: call wait_in_lobby first.");
    };
    let update = match tokio::time::timeout(wait, seat.next()).await {
        Err(_) => {
            return match &held.turn {
                Some((turn, false)) => show_turn(turn, "Still your turn"),
                _ => text("Not your turn yet: call wait_for_turn again."),
            };
        }
        Ok(Err(error)) => {
            held.seat = None;
            return refused(format!("The seat was lost: {error}"));
        }
        Ok(Ok(update)) => update,
    };
    match update {
        TextUpdate::Turn(turn) => {
            let shown = show_turn(&turn, "Your turn");
            held.turn = Some((turn, false));
            shown
        }
        TextUpdate::Refused(error) if error.code == ActErrorCode::Forfeited => {
            // The seat is out of the match: nothing to answer until its end.
            held.turn = None;
            refused(format!(
                "Your seat forfeited: {}. Call wait_for_turn for the match's end.",
                error.message
            ))
        }
        TextUpdate::Refused(error) => {
            // The turn is open again: the server does not send it twice. (A time out played
            // the default action, and the next turn follows.)
            if let Some((turn, answered)) = &mut held.turn
                && turn.turn == error.turn
            {
                *answered = false;
            }
            refused(format!(
                "Your reply to turn {} was refused: {} ({}). Reply again with act.",
                error.turn, error.message, error.code
            ))
        }
        // Not sent to a seat joined with `TextSeat::join`, which takes no events.
        TextUpdate::Moved(_) => text("Not your turn yet: call wait_for_turn again."),
        TextUpdate::Ended(end) => {
            held.turn = None;
            let start = held.seat.take().map(|seat| seat.start().clone());
            let Some(start) = start else { return refused("Not seated.") };
            let shown = format!("The match is over. {}", result(&start, &end));
            held.last = Some((start, end));
            text(shown)
        }
    }
}

/// A turn for the agent: its text, then its JSON.
fn show_turn(turn: &TextTurn, heading: &str) -> Result<CallToolResult, ErrorData> {
    let seconds = |ms: u32| f64::from(ms) / 1000.0;
    let head = format!(
        "{heading} (turn {}; {:.0} s for this move, then {:.0} s of bank). Answer with act.\n\n",
        turn.turn,
        seconds(turn.move_ms),
        seconds(turn.bank_ms)
    );
    let json = serde_json::json!({
        "turn": turn.turn,
        "move_ms": turn.move_ms,
        "bank_ms": turn.bank_ms,
        "observation": serde_json::from_str::<serde_json::Value>(&turn.json).unwrap_or_default(),
    });
    Ok(CallToolResult::success(vec![
        ContentBlock::text(head + &turn.text),
        ContentBlock::text(json.to_string()),
    ]))
}

/// A match in a sentence.
fn describe(start: &MatchStart) -> String {
    let clock = start.clock.map_or_else(String::new, |clock| {
        format!(", {} s a move and a bank of {} s", clock.move_ms / 1000, clock.bank_ms / 1000)
    });
    format!(
        "match {}, {}, seat {} of {} seats{clock}",
        start.match_id,
        start.game.title(),
        start.seat.0,
        start.seats
    )
}

/// A finished match's standings in words.
fn result(start: &MatchStart, end: &MatchEnd) -> String {
    if end.aborted {
        return format!("Match {} was aborted: {}", start.match_id, end.reason);
    }
    let places: Vec<String> = end
        .standings
        .iter()
        .map(|s| {
            let me = if s.seat == end.seat { " (you)" } else { "" };
            let forfeited = if end.forfeited.contains(&s.seat) { ", forfeited" } else { "" };
            format!("place {}: seat {}{me}{forfeited}", s.place, s.seat.0)
        })
        .collect();
    let reason = if end.reason.is_empty() { String::new() } else { format!(" {}.", end.reason) };
    format!("Match {}:{reason} {}.", start.match_id, places.join("; "))
}
