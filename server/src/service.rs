//! The `cardroom.v1.Cardroom` service: requests in, registry and match tasks behind.

use std::ops::RangeInclusive;
use std::pin::Pin;
use std::sync::Arc;

use cardroom_games::{Game, GameKind, OptionKind, Seat};
use cardroom_proto::frame::ServerFrame;
use cardroom_proto::pb;
use cardroom_proto::server::cardroom_server;
use cardroom_proto::wire::{self, WireGame, WireVisitor};
use tokio::sync::mpsc;
use tokio_stream::Stream;
use tokio_stream::wrappers::ReceiverStream;
use tonic::{Request, Response, Status, Streaming};
use tracing::info;

use crate::accounts;
use crate::elsewhere::{self, Peer, Peers};
use crate::host::{LadderCommand, LadderControl, LadderSummary, ResumedBot, ScrimmageRequest};
use crate::lend::Lent;
use crate::listing::{self, Elsewhere, PageQuery, page_by_name};
use crate::match_task::{Command, Connect, Joining};
use crate::reads;
use crate::registry::{MatchHandle, MatchRequest, Placement, Registry};
use crate::runners;
use crate::scrimmages;
use crate::seasons;
use crate::status::read_error;
use crate::submissions;
use crate::throttle::{self, AuthThrottle, PeerKey};

/// The service: a registry handle.
pub(crate) struct Cardroom {
    pub(crate) registry: Registry,
    /// The hosted ladders' runner, when the server runs ladders.
    pub(crate) ladders: Option<Arc<dyn LadderControl>>,
    /// Channels to the other nodes of a shared store, for the `GetMatch` and `Watch` of a
    /// match one hosts.
    pub(crate) peers: Arc<Peers>,
    /// Failed authentication, throttled per peer address and per bot name.
    pub(crate) throttle: Arc<AuthThrottle>,
    /// The submissions being received: at most `Config::submissions_at_once`.
    pub(crate) uploads: Arc<tokio::sync::Semaphore>,
}

pub(crate) type Boxed<T> = Pin<Box<dyn Stream<Item = Result<T, Status>> + Send + 'static>>;

/// The trailing metadata key naming the node that hosts a match asked of another node.
pub const NODE_METADATA: &str = "cardroom-node";

impl Cardroom {
    /// The store, when this server shares it with other nodes.
    fn shared_store(&self) -> Option<&Arc<dyn cardroom_store::Store>> {
        let store = self.registry.config().accounts.as_ref()?.store();
        store.is_shared().then_some(store)
    }

    /// This node's lease owner name among the nodes of its store ("" when it runs no ladders).
    fn node_name(&self) -> &str {
        self.ladders.as_deref().and_then(|ladders| ladders.node_name()).unwrap_or_default()
    }

    /// The node of a shared store other than this one that hosts the running ladder match
    /// `match_id`, if one does (a store that cannot be read is logged and taken as none).
    async fn hosting_elsewhere(&self, match_id: &str) -> Option<cardroom_store::NodeRow> {
        match self.shared_store()?.hosting_node(match_id).await {
            Ok(node) => node.filter(|node| node.beat.owner != self.node_name()),
            Err(error) => {
                tracing::warn!(cause = %error, "the match's node could not be read");
                None
            }
        }
    }

    /// The done ladder match `match_id` played, from a shared store (whichever node recorded
    /// it); a store that cannot be read is logged and taken as none.
    async fn finished_in_store(&self, match_id: &str) -> Option<cardroom_store::FinishedElsewhere> {
        match self.shared_store()?.finished_by_server_id(match_id).await {
            Ok(finished) => finished,
            Err(error) => {
                tracing::warn!(cause = %error, "the finished match could not be read");
                None
            }
        }
    }

    /// NOT_FOUND for a request that cannot be passed on to the node running `match_id`
    /// (`proxied`: it came through another node already; or the node advertises no address),
    /// naming the node in the message and the `cardroom-node` metadata; `None` when it can.
    fn unreachable(
        match_id: &str,
        proxied: bool,
        node: &cardroom_store::NodeRow,
        rpc: &str,
    ) -> Option<Status> {
        if !proxied && !node.beat.advertise.is_empty() {
            return None;
        }
        let peer = Peer::from(node);
        let message =
            format!("match {match_id} runs on the node at {}: {rpc} it there", peer.address());
        Some(elsewhere::naming(tonic::Code::NotFound, peer, message))
    }

    /// `Watch` of `match_id`, not found here, when this server shares its store with other
    /// nodes and another one runs it as a hosted ladder match: that node's stream, passed on
    /// (`elsewhere`), or NOT_FOUND naming the node when it cannot be ([`Self::unreachable`]).
    /// `None` when no other node is known to run it.
    async fn watch_elsewhere(
        &self,
        match_id: &str,
        proxied: bool,
    ) -> Option<Result<Response<Boxed<pb::WatchMessage>>, Status>> {
        let node = self.hosting_elsewhere(match_id).await?;
        if let Some(refused) = Self::unreachable(match_id, proxied, &node, "watch") {
            return Some(Err(refused));
        }
        let stream = self.peers.watch(Peer::from(&node), match_id).await;
        Some(stream.map(|stream| {
            let stream: Boxed<pb::WatchMessage> = Box::pin(stream);
            Response::new(stream)
        }))
    }

    /// `GetMatch` of `match_id`, not found here, on a shared store: while another node runs
    /// it, that node's answer passed on (or NOT_FOUND naming it, as [`Self::watch_elsewhere`]);
    /// once done, the answer of the node that played it while that node is live and still
    /// has it, else the store's ([`elsewhere::stored_info`]). Each answer names the other node
    /// in its `cardroom-node` metadata. `None` when the store knows no such ladder match.
    async fn get_match_elsewhere(
        &self,
        match_id: &str,
        proxied: bool,
    ) -> Option<Result<Response<pb::MatchInfo>, Status>> {
        if let Some(node) = self.hosting_elsewhere(match_id).await {
            if let Some(refused) = Self::unreachable(match_id, proxied, &node, "ask") {
                return Some(Err(refused));
            }
            return Some(self.peers.get_match(Peer::from(&node), match_id).await);
        }
        let finished = self.finished_in_store(match_id).await?;
        let peer = Peer::from(&finished);
        let live_since = listing::now_ms() - cardroom_store::NODE_TTL.as_millis() as i64;
        let host_is_live = finished.seen_ms.is_some_and(|seen| seen >= live_since);
        if !proxied && host_is_live && !peer.advertise.is_empty() && peer.owner != self.node_name()
        {
            // Its own status has what only it counted (strikes, think times); forgotten
            // there or unreachable, the store's.
            if let Ok(answer) = self.peers.get_match(peer, match_id).await {
                return Some(Ok(answer));
            }
        }
        let info = elsewhere::stored_info(&finished);
        // Named unless this node played it (and has forgotten it since).
        let named =
            if peer.owner == self.node_name() { Default::default() } else { peer.metadata() };
        Some(Ok(Response::from_parts(named, info, Default::default())))
    }

    /// `GetRecord` of `match_id`, not found here, on a shared store: FAILED_PRECONDITION while
    /// another node runs it (naming the node), and the record stored with its result once it
    /// is done, whichever node recorded it (the same JSON that node serves). `None` when the
    /// store knows no such ladder match.
    async fn record_elsewhere(&self, match_id: &str) -> Option<Result<String, Status>> {
        if let Some(node) = self.hosting_elsewhere(match_id).await {
            let peer = Peer::from(&node);
            let message =
                format!("match {match_id} is still running, on the node at {}", peer.address());
            return Some(Err(elsewhere::naming(tonic::Code::FailedPrecondition, peer, message)));
        }
        let finished = self.finished_in_store(match_id).await?;
        let record = match self.shared_store()?.ladder_record(finished.id).await {
            Ok(record) => record,
            Err(error) => {
                return Some(Err(Status::unavailable(format!(
                    "the record of match {match_id} could not be read from the store: {error}"
                ))));
            }
        };
        Some(record.ok_or_else(|| {
            Status::not_found(format!("match {match_id} was recorded without its record"))
        }))
    }

    /// After a page of this server's own finished matches that ended them (`page` has no next
    /// token), the done ladder matches other nodes of a shared store recorded, from `from`, to
    /// fill the page; the next token continues among them.
    async fn list_finished_elsewhere(
        &self,
        query: &PageQuery,
        from: Elsewhere,
        page: &mut pb::ListMatchesResponse,
    ) -> Result<(), Status> {
        let Some(store) = self.shared_store() else { return Ok(()) };
        let asked = cardroom_store::FinishedQuery {
            except_owner: self.node_name().to_owned(),
            after: from.finished_after(),
            limit: elsewhere_limit(query, page),
        };
        let finished = store.finished_elsewhere(&asked).await.map_err(elsewhere_unreadable)?;
        self.fill_from_elsewhere(query, from, page, &finished, |listed| {
            let cursor = listed.cursor();
            let at = Elsewhere::After { ms: cursor.finished_ms, id: cursor.id };
            (at, &listed.server_match_id, elsewhere::finished_summary(listed))
        });
        Ok(())
    }

    /// After a page of this server's own running matches that ended them (`page` has no next
    /// token), the hosted ladder matches the other live nodes of a shared store run, from
    /// `from`, to fill the page; the next token continues among them.
    async fn list_elsewhere(
        &self,
        query: &PageQuery,
        from: Elsewhere,
        page: &mut pb::ListMatchesResponse,
    ) -> Result<(), Status> {
        let Some(store) = self.shared_store() else { return Ok(()) };
        let now_ms = listing::now_ms();
        let asked = cardroom_store::ElsewhereQuery {
            except_owner: self.node_name().to_owned(),
            seen_since_ms: now_ms - cardroom_store::NODE_TTL.as_millis() as i64,
            now_ms,
            after: from.running_after(),
            limit: elsewhere_limit(query, page),
        };
        let running = store.running_elsewhere(&asked).await.map_err(elsewhere_unreadable)?;
        self.fill_from_elsewhere(query, from, page, &running, |listed| {
            let cursor = listed.cursor();
            let at = Elsewhere::After { ms: cursor.started_ms, id: cursor.id };
            (at, &listed.server_match_id, elsewhere::summary(listed))
        });
        Ok(())
    }

    /// Fills `page` with the other nodes' `rows`, in listing order, from `from`: a row is its
    /// cursor, its server match id and its summary (`listed`). One row more than fits was
    /// asked ([`elsewhere_limit`]): when it is there, the next token starts after the last row
    /// listed. A row this server lists among its own (its view of the store lagging) is left
    /// out.
    fn fill_from_elsewhere<'r, R>(
        &self,
        query: &PageQuery,
        from: Elsewhere,
        page: &mut pb::ListMatchesResponse,
        rows: &'r [R],
        listed: impl Fn(&'r R) -> (Elsewhere, &'r str, pb::MatchSummary),
    ) {
        let mut last = from;
        for row in rows {
            if page.matches.len() >= query.size {
                page.next_page_token = last.token();
                break;
            }
            let (at, match_id, summary) = listed(row);
            last = at;
            if self.registry.lookup(match_id).is_err() {
                page.matches.push(summary);
            }
        }
    }

    fn check_admin<T>(&self, request: &Request<T>) -> Result<(), Status> {
        accounts::check_admin(self.registry.config(), &self.throttle, request)
    }

    /// `checked`, a credential's check for a `Join` or a read from `peer` (for the bot `name`),
    /// counted by the throttle when it fails.
    fn counted<T>(
        &self,
        peer: Option<PeerKey>,
        name: Option<&str>,
        checked: Result<T, Status>,
    ) -> Result<T, Status> {
        if let Err(status) = &checked
            && throttle::is_failure(status)
        {
            self.throttle.failed(peer, name);
        }
        checked
    }

    /// The bot accounts, for an admin rpc: the server must keep accounts and have an admin
    /// token (an account rpc open to anyone would hand out keys), and the caller must send it.
    fn accounts_admin<T>(&self, request: &Request<T>) -> Result<&cardroom_store::Accounts, Status> {
        let config = self.registry.config();
        if config.admin_token.is_none() {
            return Err(Status::failed_precondition(
                "this server has no admin token (--admin-token), so it serves no account rpcs: \
                 manage its bots with `cardroom bots` on its store",
            ));
        }
        self.check_admin(request)?;
        config.accounts.as_ref().ok_or_else(|| {
            Status::failed_precondition(
                "this server keeps no bot accounts: start it with --store sqlite:FILE",
            )
        })
    }

    /// The ladder runner, for an admin ladder rpc: the admin token (a server without one serves
    /// no ladder rpcs, as no account rpcs) and a ladder runner are needed.
    fn ladder_control<T>(&self, request: &Request<T>) -> Result<&dyn LadderControl, Status> {
        if self.registry.config().admin_token.is_none() {
            return Err(Status::failed_precondition(
                "this server has no admin token (--admin-token), so it serves no ladder rpcs",
            ));
        }
        self.check_admin(request)?;
        self.ladders.as_deref().ok_or_else(|| {
            Status::failed_precondition(
                "this server runs no hosted ladders: start it with --store sqlite:FILE",
            )
        })
    }

    /// Runs an admin ladder command ([`Self::ladder_control`]).
    async fn ladder_command<T>(
        &self,
        request: &Request<T>,
        command: LadderCommand,
    ) -> Result<Response<pb::LadderStatusReply>, Status> {
        let control = self.ladder_control(request)?;
        let LadderSummary { name, status, reason, game, table_seats } =
            control.command(command).await?;
        info!(ladder = %name, %status, "ladder command");
        Ok(Response::new(pb::LadderStatusReply { name, status, reason, game, table_seats }))
    }
}

/// A game's entry in `ListGames`, from the catalogue: its name, the seats some options allow
/// and its option table with the defaults.
struct GameInfo;

impl WireVisitor for GameInfo {
    type Output = pb::GameInfo;

    fn visit<G: WireGame>(self) -> pb::GameInfo {
        let seats = seat_bounds::<G>();
        let options = G::describe_options()
            .iter()
            .map(|spec| pb::OptionInfo {
                name: spec.name.to_owned(),
                description: spec.description.to_owned(),
                default_json: spec.default_json(),
                choices_json: spec.choices_json(),
            })
            .collect();
        pb::GameInfo {
            game: G::PB as i32,
            name: G::NAME.to_owned(),
            min_seats: u32::from(*seats.start()),
            max_seats: u32::from(*seats.end()),
            options,
        }
    }
}

/// The fewest and the most seats any options allow: the default options' range, widened by
/// every choice of every option that takes one of a list (TT-4: Twenty-Two seats more players
/// with more packs; the `packs` option says how many each choice seats).
fn seat_bounds<G: Game>() -> RangeInclusive<u8> {
    let defaults = serde_json::to_value(G::Options::default()).unwrap_or_default();
    let mut seats = G::seats(&G::Options::default());
    for spec in G::describe_options() {
        let OptionKind::Choice(choices) = spec.kind else { continue };
        for choice in choices {
            let mut options = defaults.clone();
            let Ok(value) = serde_json::from_str(choice) else { continue };
            options[spec.name] = value;
            let Ok(options) = serde_json::from_value::<G::Options>(options) else { continue };
            let range = G::seats(&options);
            seats = *seats.start().min(range.start())..=*seats.end().max(range.end());
        }
    }
    seats
}

/// The games and their options, from the catalogue, in its order.
fn catalogue() -> Vec<pb::GameInfo> {
    GameKind::ALL.into_iter().map(|kind| wire::visit(kind, GameInfo)).collect()
}

#[tonic::async_trait]
impl cardroom_server::Cardroom for Cardroom {
    async fn list_games(
        &self,
        _request: Request<pb::ListGamesRequest>,
    ) -> Result<Response<pb::ListGamesResponse>, Status> {
        Ok(Response::new(pb::ListGamesResponse { games: catalogue() }))
    }

    #[tracing::instrument(skip_all)]
    async fn create_match(
        &self,
        request: Request<pb::CreateMatchRequest>,
    ) -> Result<Response<pb::CreateMatchResponse>, Status> {
        self.check_admin(&request)?;
        let request = request.into_inner();
        let game = pb::Game::try_from(request.game).unwrap_or(pb::Game::Unspecified);
        let (match_id, tokens) = self.registry.create_match(MatchRequest {
            game,
            options_json: request.options_json,
            seats: request.seats,
            seed: request.seed,
            clock: request.clock,
            lobby_bots: request.lobby_bots,
            borrowed: Vec::new(),
        })?;
        info!(%match_id, ?game, "match created");
        let seats = tokens
            .into_iter()
            .enumerate()
            .map(|(seat, token)| pb::SeatToken { seat: seat as u32, token })
            .collect();
        Ok(Response::new(pb::CreateMatchResponse { match_id, seats }))
    }

    async fn get_match(
        &self,
        request: Request<pb::GetMatchRequest>,
    ) -> Result<Response<pb::MatchInfo>, Status> {
        let proxied = request.metadata().contains_key(elsewhere::PROXIED_METADATA);
        let match_id = request.into_inner().match_id;
        match self.registry.info(&match_id).await {
            Err(status) if status.code() == tonic::Code::NotFound => {
                self.get_match_elsewhere(&match_id, proxied).await.unwrap_or(Err(status))
            }
            found => Ok(Response::new(found?)),
        }
    }

    type PlayStream = Boxed<ServerFrame>;

    async fn play(
        &self,
        request: Request<Streaming<pb::BotMessage>>,
    ) -> Result<Response<Self::PlayStream>, Status> {
        let key = accounts::bearer(request.metadata()).map(str::to_owned);
        let peer = PeerKey::of(&request);
        // A hosted bot is known by its process, not by a key (`crate::sandboxed`), or by its
        // runner's admin token on another machine (`crate::runners`).
        let sandboxed = match peer {
            Some(PeerKey::Process(pid)) => self.registry.sandboxed().of_process(pid),
            _ => None,
        };
        let hosted = match sandboxed {
            Some(bot) => Some(HostedBy::Sandbox(bot)),
            None => {
                runners::hosted_as(&self.registry, &self.throttle, &request)?.map(HostedBy::Runner)
            }
        };
        let mut inbound = request.into_inner();
        let id = self.registry.next_id();
        let join = {
            // Until its Join, a stream counts among the pending ones (not the joined bots'),
            // for `join_timeout` at most, and newer streams may displace it.
            let mut pending = self.registry.pending_join(id);
            let timeout = self.registry.config().join_timeout;
            let first = tokio::select! {
                first = tokio::time::timeout(timeout, inbound.message()) => first,
                _ = &mut pending.displaced => {
                    return Err(Status::resource_exhausted(format!(
                        "displaced: the server holds its limit of {} Play streams waiting for \
                         their Join (send Join as soon as the stream opens)",
                        self.registry.config().max_pending_joins
                    )));
                }
            };
            let first = first.map_err(|_| {
                Status::deadline_exceeded(format!(
                    "no Join within {} ms of opening the Play stream (the server's join timeout)",
                    timeout.as_millis()
                ))
            })?;
            match first.map_err(read_error)? {
                Some(pb::BotMessage { message: Some(pb::bot_message::Message::Join(join)) }) => {
                    join
                }
                _ => {
                    return Err(Status::invalid_argument(
                        "the first message on a Play stream must be Join",
                    ));
                }
            }
        };
        let config = self.registry.config();
        check_name("Join.bot_name", &join.bot_name, config.max_name_bytes)?;
        check_name("Join.bot_version", &join.bot_version, config.max_name_bytes)?;
        if let Some(pb::join::Seat::Lobby(name)) = &join.seat {
            check_name("Join.lobby", name, config.max_name_bytes)?;
            if name.is_empty() {
                // Before any key is looked at: an empty name is malformed, whoever sends it.
                return Err(Status::invalid_argument("a lobby name cannot be empty"));
            }
        }
        let omit = wire::check_omit(join.omit)?;
        if let Some(bot) = &hosted {
            check_hosted_join(bot, &join.seat)?;
        }
        // The name whose key is checked: the lobby's, else the bot's.
        let claimed = match &join.seat {
            Some(pb::join::Seat::Lobby(name)) => Some(name.clone()),
            _ => Some(join.bot_name.clone()).filter(|name| !name.is_empty()),
        };
        let claimed = claimed.as_deref();
        if hosted.is_none() {
            self.throttle.check(peer, claimed)?;
        }
        // A seat token names its seat, and the seat its holder: looked up first, so that a
        // rejoin is checked against the bot that sat there, not the name it claims.
        let seat = match &join.seat {
            Some(pb::join::Seat::SeatToken(token)) => {
                Some(self.counted(peer, None, self.registry.seat(token))?)
            }
            _ => None,
        };
        let holder = seat.as_ref().and_then(|(seat, _)| seat.holder.as_deref());
        let mut bot_name = join.bot_name;
        let mut bot_version = join.bot_version;
        let mut account = None;
        if let Some(bot) = hosted.as_ref() {
            if holder.is_some_and(|holder| holder != bot.name()) {
                return Err(accounts::held_by_another(holder.unwrap_or("")));
            }
            match bot {
                // It is who its runner filed it as, at the version the runner started.
                HostedBy::Sandbox(bot) => bot_version = bot.version.clone(),
                // A runner elsewhere names the version in the Join, and the bot must be one
                // that may play.
                HostedBy::Runner(name) => {
                    let accounts = submissions::accounts(config)?;
                    let account = accounts.get(name).await.map_err(accounts::account_status)?;
                    if account.status != cardroom_store::BotStatus::Active {
                        return Err(Status::permission_denied(format!(
                            "{} is revoked: its runner may not play it",
                            cardroom_store::Echo(name)
                        )));
                    }
                }
            }
            bot_name = bot.name().to_owned();
            account = Some(bot_name.clone());
        } else if let Some(accounts) = &config.accounts {
            let bot = match holder {
                Some(holder) => {
                    let checked = accounts::holder(accounts, holder, key.as_deref()).await;
                    self.counted(peer, Some(holder), checked)?
                }
                None => {
                    let checked =
                        accounts::identify(accounts, &join.seat, &bot_name, key.as_deref(), config)
                            .await;
                    self.counted(peer, claimed, checked)?
                }
            };
            if let Some(bot) = bot {
                accounts::note_version(accounts, &bot, &bot_version).await;
                // A registered bot plays under its registered name.
                bot_name = bot.name;
                account = Some(bot_name.clone());
            }
        }
        let permit = self.registry.connection_permit()?;
        let (tx, rx) = mpsc::channel(self.registry.config().outbound_buffer);
        let registry = self.registry.clone();
        // A runner elsewhere keeps its bot's clock: its relay freezes it, not the match task.
        let hosted = match hosted {
            Some(HostedBy::Sandbox(bot)) => Some(bot.control),
            _ => None,
        };
        let text = join.text;
        let joining = Joining { id, bot_name, bot_version, omit, text, tx, permit, hosted };
        match join.seat {
            Some(pb::join::Seat::SeatToken(token)) => {
                let (seat, handle) = match seat {
                    Some(found) => found,
                    None => registry.seat(&token)?,
                };
                if let (None, Some(account)) = (&seat.holder, &account) {
                    // The first registered bot to take a seat by its token holds it.
                    let held = registry.hold(&token, account);
                    if held.as_ref().is_some_and(|held| held != account) {
                        return Err(accounts::held_by_another(held.as_deref().unwrap_or("")));
                    }
                }
                match handle {
                    Some(handle) => connect(&handle, seat.seat, joining, inbound).await,
                    None => {
                        // The match is over: say how it ended.
                        let info = registry.info(&seat.match_id).await?;
                        let end = ServerFrame::message(&pb::ServerMessage {
                            message: info.end.map(pb::server_message::Message::End),
                        });
                        let _ = joining.tx.try_send(Ok(end));
                    }
                }
            }
            Some(pb::join::Seat::Queue(queue)) => {
                if !registry.config().queue_is_open() {
                    return Err(Status::permission_denied(
                        "this server's queue is closed (its operator creates the matches): \
                         join with a seat token or a lobby name",
                    ));
                }
                let seated = registry.join_queue(queue, id, account)?;
                tokio::spawn(wait_to_be_seated(registry, seated, joining, inbound));
            }
            Some(pb::join::Seat::Lobby(name)) => {
                let seated = registry.join_lobby(name, id, account)?;
                tokio::spawn(wait_to_be_seated(registry, seated, joining, inbound));
            }
            None => {
                return Err(Status::invalid_argument(
                    "Join needs a seat_token, a queue or a lobby",
                ));
            }
        }
        Ok(Response::new(Box::pin(ReceiverStream::new(rx))))
    }

    type WatchStream = Boxed<pb::WatchMessage>;

    async fn watch(
        &self,
        request: Request<pb::WatchRequest>,
    ) -> Result<Response<Self::WatchStream>, Status> {
        let proxied = request.metadata().contains_key(elsewhere::PROXIED_METADATA);
        let match_id = request.into_inner().match_id;
        let rx = match self.registry.watch(&match_id).await {
            Err(status) if status.code() == tonic::Code::NotFound => {
                return self.watch_elsewhere(&match_id, proxied).await.unwrap_or(Err(status));
            }
            found => found?,
        };
        Ok(Response::new(Box::pin(ReceiverStream::new(rx))))
    }

    async fn get_record(
        &self,
        request: Request<pb::GetRecordRequest>,
    ) -> Result<Response<pb::GetRecordResponse>, Status> {
        let match_id = request.into_inner().match_id;
        let record_json = match self.registry.record(&match_id).await {
            Err(status) if status.code() == tonic::Code::NotFound => {
                self.record_elsewhere(&match_id).await.unwrap_or(Err(status))?
            }
            found => found?,
        };
        Ok(Response::new(pb::GetRecordResponse { record_json }))
    }

    async fn list_matches(
        &self,
        request: Request<pb::ListMatchesRequest>,
    ) -> Result<Response<pb::ListMatchesResponse>, Status> {
        let query = PageQuery::from_request(request.get_ref())?;
        let mut page = match query.elsewhere {
            Some(_) => pb::ListMatchesResponse::default(),
            None => self.registry.list_matches(query).await?,
        };
        if page.next_page_token.is_empty() {
            let from = query.elsewhere.unwrap_or(Elsewhere::Start);
            if query.finished {
                self.list_finished_elsewhere(&query, from, &mut page).await?;
            } else {
                self.list_elsewhere(&query, from, &mut page).await?;
            }
        }
        Ok(Response::new(page))
    }

    async fn list_ladders(
        &self,
        request: Request<pb::ListLaddersRequest>,
    ) -> Result<Response<pb::ListLaddersResponse>, Status> {
        let store = reads::store(self.registry.config().accounts.as_ref())?;
        Ok(Response::new(reads::list_ladders(store.as_ref(), request.get_ref()).await?))
    }

    async fn get_leaderboard(
        &self,
        request: Request<pb::GetLeaderboardRequest>,
    ) -> Result<Response<pb::LadderLeaderboard>, Status> {
        let store = reads::store(self.registry.config().accounts.as_ref())?;
        Ok(Response::new(reads::leaderboard(store.as_ref(), request.get_ref()).await?))
    }

    async fn list_bot_matches(
        &self,
        request: Request<pb::ListBotMatchesRequest>,
    ) -> Result<Response<pb::ListBotMatchesResponse>, Status> {
        let store = reads::store(self.registry.config().accounts.as_ref())?;
        Ok(Response::new(reads::bot_matches(store.as_ref(), request.get_ref()).await?))
    }

    async fn get_ladder_bot(
        &self,
        request: Request<pb::GetLadderBotRequest>,
    ) -> Result<Response<pb::LadderBot>, Status> {
        let store = reads::store(self.registry.config().accounts.as_ref())?;
        Ok(Response::new(reads::ladder_bot(store.as_ref(), request.get_ref()).await?))
    }

    async fn get_head_to_head(
        &self,
        request: Request<pb::GetHeadToHeadRequest>,
    ) -> Result<Response<pb::HeadToHeadResponse>, Status> {
        let store = reads::store(self.registry.config().accounts.as_ref())?;
        Ok(Response::new(reads::head_to_head(store.as_ref(), request.get_ref()).await?))
    }

    async fn get_ladder_match(
        &self,
        request: Request<pb::GetLadderMatchRequest>,
    ) -> Result<Response<pb::LadderMatchInfo>, Status> {
        let store = reads::store(self.registry.config().accounts.as_ref())?;
        Ok(Response::new(reads::ladder_match(store.as_ref(), request.get_ref()).await?))
    }

    async fn list_failures(
        &self,
        request: Request<pb::ListFailuresRequest>,
    ) -> Result<Response<pb::ListFailuresResponse>, Status> {
        let accounts = reads::accounts(self.registry.config().accounts.as_ref())?;
        let peer = PeerKey::of(&request);
        let bot = request.get_ref().bot.as_str();
        self.throttle.check(peer, Some(bot))?;
        let read = reads::failures(accounts, request.metadata(), request.get_ref()).await;
        Ok(Response::new(self.counted(peer, Some(bot), read)?))
    }

    async fn get_stats(
        &self,
        request: Request<pb::GetStatsRequest>,
    ) -> Result<Response<pb::ServerStats>, Status> {
        self.check_admin(&request)?;
        Ok(Response::new(self.registry.server_stats(request.into_inner().reset)))
    }

    #[tracing::instrument(skip_all)]
    async fn register_bot(
        &self,
        request: Request<pb::RegisterBotRequest>,
    ) -> Result<Response<pb::IssuedBotKey>, Status> {
        let (manager, accounts) =
            accounts::manager(self.registry.config(), &self.throttle, &request).await?;
        let name = request.into_inner().name;
        let issued = match &manager {
            accounts::Manager::Admin => accounts.register(&name).await,
            accounts::Manager::Author(author) => accounts.register_for(author, &name).await,
        };
        let issued = issued.map_err(accounts::account_status)?;
        info!(bot = %issued.bot.name, author = ?issued.bot.author, "bot registered");
        Ok(Response::new(accounts::issued_to_pb(accounts, issued).await?))
    }

    async fn list_bots(
        &self,
        request: Request<pb::ListBotsRequest>,
    ) -> Result<Response<pb::ListBotsResponse>, Status> {
        let accounts = self.accounts_admin(&request)?;
        let listed = accounts.list().await.map_err(accounts::account_status)?;
        let asked = request.get_ref();
        let (page, next_page_token) =
            page_by_name(listed, |bot| &bot.name, asked.page_size, &asked.page_token);
        let mut bots = Vec::with_capacity(page.len());
        for bot in page {
            bots.push(accounts::account_to_pb(accounts, bot).await?);
        }
        Ok(Response::new(pb::ListBotsResponse { bots, next_page_token }))
    }

    #[tracing::instrument(skip_all)]
    async fn revoke_bot(
        &self,
        request: Request<pb::RevokeBotRequest>,
    ) -> Result<Response<pb::BotAccount>, Status> {
        let (manager, accounts) =
            accounts::manager(self.registry.config(), &self.throttle, &request).await?;
        let name = request.into_inner().name;
        manager.may_manage(&accounts.get(&name).await.map_err(accounts::account_status)?)?;
        let bot = accounts.revoke(&name).await.map_err(accounts::account_status)?;
        info!(bot = %bot.name, "bot key revoked");
        accounts::revoked(&self.registry, &bot.name, &accounts::revoked_reason(&bot.name));
        Ok(Response::new(accounts::account_to_pb(accounts, bot).await?))
    }

    async fn get_bot(
        &self,
        request: Request<pb::GetBotRequest>,
    ) -> Result<Response<pb::BotAccount>, Status> {
        let accounts = self.registry.config().accounts.as_ref().ok_or_else(|| {
            Status::failed_precondition("this server keeps no bot accounts (no --store)")
        })?;
        let bot =
            accounts.get(&request.into_inner().name).await.map_err(accounts::account_status)?;
        Ok(Response::new(accounts::account_to_pb(accounts, bot).await?))
    }

    #[tracing::instrument(skip_all)]
    async fn rotate_bot_key(
        &self,
        request: Request<pb::RotateBotKeyRequest>,
    ) -> Result<Response<pb::IssuedBotKey>, Status> {
        let (manager, accounts) =
            accounts::manager(self.registry.config(), &self.throttle, &request).await?;
        let name = request.into_inner().name;
        manager.may_manage(&accounts.get(&name).await.map_err(accounts::account_status)?)?;
        let issued = accounts.rotate(&name).await.map_err(accounts::account_status)?;
        info!(bot = %issued.bot.name, "bot key rotated");
        let reason = accounts::replaced_reason(&issued.bot.name);
        accounts::revoked(&self.registry, &issued.bot.name, &reason);
        Ok(Response::new(accounts::issued_to_pb(accounts, issued).await?))
    }

    async fn join_as_author(
        &self,
        request: Request<pb::JoinAsAuthorRequest>,
    ) -> Result<Response<pb::IssuedAuthorToken>, Status> {
        let accounts = submissions::accounts(self.registry.config())?;
        let peer = PeerKey::of(&request);
        // A code is a credential: its failures count as a wrong key's do.
        self.throttle.check(peer, None)?;
        let pb::JoinAsAuthorRequest { code, name } = request.into_inner();
        let joined = accounts.join(&code, &name).await.map_err(accounts::account_status);
        let issued = self.counted(peer, None, joined)?;
        info!(author = %issued.author.name, "author joined");
        Ok(Response::new(accounts::issued_token_to_pb(&issued)))
    }

    async fn rotate_author_token(
        &self,
        request: Request<pb::RotateAuthorTokenRequest>,
    ) -> Result<Response<pb::IssuedAuthorToken>, Status> {
        let (manager, accounts) =
            accounts::manager(self.registry.config(), &self.throttle, &request).await?;
        let author = scrimmages::author_only(manager)?;
        let issued =
            accounts.rotate_author_token(&author).await.map_err(accounts::account_status)?;
        info!(author = %issued.author.name, "author token rotated");
        Ok(Response::new(accounts::issued_token_to_pb(&issued)))
    }

    async fn get_author(
        &self,
        request: Request<pb::GetAuthorRequest>,
    ) -> Result<Response<pb::AuthorProfile>, Status> {
        let accounts = submissions::accounts(self.registry.config())?;
        let name = request.into_inner().name;
        let (author, owned) = accounts.author(&name).await.map_err(accounts::account_status)?;
        let mut bots = Vec::with_capacity(owned.len());
        for bot in owned {
            bots.push(accounts::account_to_pb(accounts, bot).await?);
        }
        Ok(Response::new(pb::AuthorProfile { author: Some(accounts::author_to_pb(&author)), bots }))
    }

    async fn request_scrimmage(
        &self,
        request: Request<pb::RequestScrimmageRequest>,
    ) -> Result<Response<pb::ScrimmagesReply>, Status> {
        let (manager, accounts) =
            accounts::manager(self.registry.config(), &self.throttle, &request).await?;
        let author = scrimmages::author_only(manager)?;
        let ladders = self.ladders.as_deref().ok_or_else(|| {
            Status::failed_precondition("this server runs no hosted ladders: no scrimmages")
        })?;
        let pb::RequestScrimmageRequest { ladder, bot, opponents, top } = request.into_inner();
        let asked = ScrimmageRequest { ladder, author: author.clone(), bot, opponents, top };
        let ids = ladders.request_scrimmages(asked).await?;
        info!(author = %author.name, scrimmages = ids.len(), "scrimmages requested");
        Ok(Response::new(scrimmages::listed(accounts, &author, Some(&ids)).await?))
    }

    async fn list_scrimmages(
        &self,
        request: Request<pb::ListScrimmagesRequest>,
    ) -> Result<Response<pb::ScrimmagesReply>, Status> {
        let (manager, accounts) =
            accounts::manager(self.registry.config(), &self.throttle, &request).await?;
        let author = scrimmages::author_only(manager)?;
        Ok(Response::new(scrimmages::listed(accounts, &author, None).await?))
    }

    async fn get_scrimmage_record(
        &self,
        request: Request<pb::GetScrimmageRecordRequest>,
    ) -> Result<Response<pb::GetRecordResponse>, Status> {
        let (manager, accounts) =
            accounts::manager(self.registry.config(), &self.throttle, &request).await?;
        let author = scrimmages::author_only(manager)?;
        let pb::GetScrimmageRecordRequest { id, rotation } = request.into_inner();
        Ok(Response::new(scrimmages::record(accounts, &author, id, rotation).await?))
    }

    async fn create_ladder(
        &self,
        request: Request<pb::CreateLadderRequest>,
    ) -> Result<Response<pb::LadderStatusReply>, Status> {
        let config_toml = request.get_ref().config_toml.clone();
        self.ladder_command(&request, LadderCommand::Create { config_toml }).await
    }

    async fn pause_ladder(
        &self,
        request: Request<pb::LadderRequest>,
    ) -> Result<Response<pb::LadderStatusReply>, Status> {
        let pb::LadderRequest { name, reason } = request.get_ref().clone();
        self.ladder_command(&request, LadderCommand::Pause { name, reason }).await
    }

    async fn resume_ladder(
        &self,
        request: Request<pb::LadderRequest>,
    ) -> Result<Response<pb::LadderStatusReply>, Status> {
        let name = request.get_ref().name.clone();
        self.ladder_command(&request, LadderCommand::Resume { name }).await
    }

    async fn close_ladder(
        &self,
        request: Request<pb::LadderRequest>,
    ) -> Result<Response<pb::LadderStatusReply>, Status> {
        let pb::LadderRequest { name, reason } = request.get_ref().clone();
        self.ladder_command(&request, LadderCommand::Close { name, reason }).await
    }

    async fn resume_bot(
        &self,
        request: Request<pb::ResumeBotRequest>,
    ) -> Result<Response<pb::ResumedBot>, Status> {
        let control = self.ladder_control(&request)?;
        let pb::ResumeBotRequest { ladder, bot } = request.get_ref();
        let ResumedBot { ladder, bot, paused_reason } = control.resume_bot(ladder, bot).await?;
        info!(%ladder, %bot, "bot resumed");
        Ok(Response::new(pb::ResumedBot { ladder, bot, paused_reason }))
    }

    #[tracing::instrument(skip_all)]
    async fn submit_bot(
        &self,
        request: Request<Streaming<pb::SubmitBotChunk>>,
    ) -> Result<Response<pb::SubmittedBot>, Status> {
        let config = self.registry.config();
        let accounts = submissions::accounts(config)?;
        let peer = PeerKey::of(&request);
        self.throttle.check(peer, None)?;
        let (metadata, _, chunks) = request.into_parts();
        let submitted =
            submissions::submit(accounts, config, &self.uploads, &metadata, chunks).await;
        Ok(Response::new(self.counted(peer, None, submitted)?))
    }

    async fn list_submissions(
        &self,
        request: Request<pb::ListSubmissionsRequest>,
    ) -> Result<Response<pb::ListSubmissionsResponse>, Status> {
        let accounts = submissions::accounts(self.registry.config())?;
        Ok(Response::new(submissions::list(accounts, request.get_ref()).await?))
    }

    async fn create_season(
        &self,
        request: Request<pb::CreateSeasonRequest>,
    ) -> Result<Response<pb::SeasonInfo>, Status> {
        let control = self.ladder_control(&request)?;
        let season = control.put_season(&request.get_ref().config_toml).await?;
        info!(season = %season.name, "season put");
        Ok(Response::new(seasons::to_pb(season)?))
    }

    async fn get_season(
        &self,
        request: Request<pb::GetSeasonRequest>,
    ) -> Result<Response<pb::SeasonInfo>, Status> {
        let accounts = submissions::accounts(self.registry.config())?;
        let season = seasons::season(accounts.store().as_ref(), &request.get_ref().name).await?;
        Ok(Response::new(seasons::to_pb(season)?))
    }

    async fn list_seasons(
        &self,
        _request: Request<pb::ListSeasonsRequest>,
    ) -> Result<Response<pb::ListSeasonsResponse>, Status> {
        let accounts = submissions::accounts(self.registry.config())?;
        Ok(Response::new(seasons::list(accounts.store().as_ref()).await?))
    }

    type WatchSeasonStream = Boxed<pb::SeasonEvent>;

    async fn watch_season(
        &self,
        request: Request<pb::WatchSeasonRequest>,
    ) -> Result<Response<Self::WatchSeasonStream>, Status> {
        let config = self.registry.config();
        let accounts = submissions::accounts(config)?;
        // An author's token shows the author's own events too; none, only the public ones.
        let author = match accounts::bearer(request.metadata()) {
            Some(_) => match accounts::manager(config, &self.throttle, &request).await?.0 {
                accounts::Manager::Author(author) => Some(author),
                accounts::Manager::Admin => None,
            },
            None => None,
        };
        let pb::WatchSeasonRequest { name, after, follow } = request.into_inner();
        let store = std::sync::Arc::clone(accounts.store());
        let season = seasons::season(store.as_ref(), &name).await?;
        Ok(Response::new(Box::pin(seasons::watch(store, season.id, author, after, follow))))
    }
}

/// Refuses a name (a bot's, a lobby's) longer than the server keeps.
fn check_name(field: &str, name: &str, max_bytes: usize) -> Result<(), Status> {
    if name.len() > max_bytes {
        return Err(Status::invalid_argument(format!(
            "{field} is {} bytes; this server keeps names of at most {max_bytes} bytes",
            name.len()
        )));
    }
    if let Some(at) = name.find(char::is_control) {
        return Err(Status::invalid_argument(format!(
            "{field} holds a control character at byte {at}: names and versions are printable \
             text"
        )));
    }
    Ok(())
}

/// Waits (in a queue or the lobby) until the bot is seated, unless it goes away first, then
/// connects it to its match (or hands its stream over to the `Lend` of another node).
pub(crate) async fn wait_to_be_seated(
    registry: Registry,
    seated: tokio::sync::oneshot::Receiver<Result<Placement, Status>>,
    joining: Joining,
    mut inbound: Streaming<pb::BotMessage>,
) {
    let seated = tokio::select! {
        seated = seated => seated,
        _ = wait_for_close(&mut inbound) => {
            registry.leave_queue(joining.id);
            return;
        }
    };
    match seated {
        Ok(Ok(Placement::Seated(seated))) => {
            connect(&seated.handle, seated.seat.seat, joining, inbound).await;
        }
        Ok(Ok(Placement::Lent(handover))) => {
            let _ = handover.send(Lent { joining, inbound });
        }
        Ok(Err(status)) => {
            let _ = joining.tx.send(Err(status)).await;
        }
        Err(_) => {
            let _ = joining.tx.send(Err(Status::unavailable("the queue closed"))).await;
        }
    }
}

/// Hands the connection, both its ends, to its match task, which reads the bot's messages
/// itself from then on (no task in between: an `Act` wakes the match task directly). If the
/// match has just ended, the connection is dropped and the stream ends.
async fn connect(
    handle: &MatchHandle,
    seat: Seat,
    joining: Joining,
    inbound: Streaming<pb::BotMessage>,
) {
    let connect = Box::new(Connect { seat, joining, inbound });
    let _ = handle.commands.send(Command::Connect(connect)).await;
}

/// A hosted bot's stream: a sandboxed process on this node, or a runner's bot elsewhere, by
/// the name it plays as.
enum HostedBy {
    Sandbox(crate::sandboxed::SandboxedBot),
    Runner(String),
}

impl HostedBy {
    fn name(&self) -> &str {
        match self {
            HostedBy::Sandbox(bot) => &bot.name,
            HostedBy::Runner(name) => name,
        }
    }

    /// Whether a newer submission replaces it here (a runner elsewhere refuses its own).
    fn retiring(&self) -> bool {
        match self {
            HostedBy::Sandbox(bot) => bot.retiring.load(std::sync::atomic::Ordering::SeqCst),
            HostedBy::Runner(_) => false,
        }
    }
}

/// [`crate::sandboxed::check_hosted_join`] for the stream's hosted bot.
fn check_hosted_join(bot: &HostedBy, seat: &Option<pb::join::Seat>) -> Result<(), Status> {
    crate::sandboxed::check_hosted_join(bot.name(), bot.retiring(), seat)
}

/// Resolves when the bot's stream ends; messages before the seat exists are refused.
async fn wait_for_close(inbound: &mut Streaming<pb::BotMessage>) {
    while let Ok(Some(_)) = inbound.message().await {}
}

/// How many of the other nodes' matches to ask for to fill what `page` leaves of `query`'s
/// size: one more than fits, to know whether another page follows.
fn elsewhere_limit(query: &PageQuery, page: &pb::ListMatchesResponse) -> u32 {
    let room = query.size.saturating_sub(page.matches.len());
    u32::try_from(room + 1).unwrap_or(u32::MAX)
}

/// UNAVAILABLE for a store that could not list the other nodes' matches.
fn elsewhere_unreadable(error: cardroom_store::StoreError) -> Status {
    Status::unavailable(format!("the other nodes' matches could not be read: {error}"))
}
