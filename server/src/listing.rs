//! `ListMatches`: the registry's index of matches in the order they are listed, and its pages.
//!
//! Running matches are listed newest created first, finished ones latest ended first. Each
//! match gets a sequence number when it is created and another when it ends; a page token is
//! the number of the last match on the page before (`r` or `f` and the number), so a page is
//! found in the index by a range, never by counting from the start. The index holds ids and
//! times only: what each seat shows is asked of the match (running) or read from its status
//! (finished) when a page is built.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::time::{SystemTime, UNIX_EPOCH};

use cardroom_proto::pb;
use cardroom_store::{FinishedCursor, LadderMatchId, RunningCursor};
use tonic::Status;

/// Matches on a page when the request says 0.
pub(crate) const DEFAULT_PAGE_SIZE: usize = 50;
/// The most matches on a page; more is read as this.
pub(crate) const MAX_PAGE_SIZE: usize = 200;

/// A page of `items` (sorted by `name`, distinct names) of `page_size` items (0: the
/// default, bounded by [`MAX_PAGE_SIZE`]) after the name `token` (empty: from the first),
/// and the token of the next page (empty on the last): how the rpcs that list named things
/// (`ListBots`, `ListLadders`) page them. The token is the last name given.
pub(crate) fn page_by_name<T>(
    items: Vec<T>,
    name: impl Fn(&T) -> &str,
    page_size: u32,
    token: &str,
) -> (Vec<T>, String) {
    let size = match page_size as usize {
        0 => DEFAULT_PAGE_SIZE,
        n => n.min(MAX_PAGE_SIZE),
    };
    let mut page: Vec<T> =
        items.into_iter().filter(|item| token.is_empty() || name(item) > token).collect();
    let more = page.len() > size;
    page.truncate(size);
    let next = if more { page.last().map(|item| name(item).to_owned()) } else { None };
    (page, next.unwrap_or_default())
}

/// A match in the index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Listed {
    pub(crate) id: String,
    /// Milliseconds since the Unix epoch.
    pub(crate) created_ms: i64,
    /// 0 while it runs.
    pub(crate) ended_ms: i64,
}

/// The index. It lives inside the registry's state, under its lock.
#[derive(Debug, Default)]
pub(crate) struct MatchIndex {
    next_seq: u64,
    /// Running matches by creation number.
    running: BTreeMap<u64, Listed>,
    /// A running match's creation number, by id.
    running_seq: HashMap<String, u64>,
    /// Finished matches the registry still remembers, by end number, oldest first.
    finished: VecDeque<(u64, Listed)>,
}

/// Which list, and from where: a request read and checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PageQuery {
    pub(crate) finished: bool,
    /// Only matches numbered below this (the last one of the page before).
    pub(crate) before: Option<u64>,
    /// Past this server's own matches, among those other nodes of its store host (running:
    /// tokens `n`, `n<started_ms>.<id>`) or recorded (finished: `n`, `n<finished_ms>.<id>`):
    /// from where.
    pub(crate) elsewhere: Option<Elsewhere>,
    pub(crate) size: usize,
}

/// Where a page of the matches other nodes host (running) or recorded (finished) starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Elsewhere {
    /// At the newest.
    Start,
    /// After this one (the last of the page before): the match with id `id` that started
    /// (running) or finished (finished) at `ms`.
    After { ms: i64, id: LadderMatchId },
}

impl Elsewhere {
    /// The page token of a page that starts here.
    pub(crate) fn token(self) -> String {
        match self {
            Elsewhere::Start => "n".to_owned(),
            Elsewhere::After { ms, id } => format!("n{ms}.{}", id.0),
        }
    }

    /// The place a token after `n` names: empty for the start, else `<ms>.<id>`.
    fn parse(rest: &str) -> Option<Elsewhere> {
        if rest.is_empty() {
            return Some(Elsewhere::Start);
        }
        let (ms, id) = rest.split_once('.')?;
        Some(Elsewhere::After { ms: ms.parse().ok()?, id: LadderMatchId(id.parse().ok()?) })
    }

    /// Where the store's listing of running matches continues.
    pub(crate) fn running_after(self) -> Option<RunningCursor> {
        match self {
            Elsewhere::Start => None,
            Elsewhere::After { ms, id } => Some(RunningCursor { started_ms: ms, id }),
        }
    }

    /// Where the store's listing of finished matches continues.
    pub(crate) fn finished_after(self) -> Option<FinishedCursor> {
        match self {
            Elsewhere::Start => None,
            Elsewhere::After { ms, id } => Some(FinishedCursor { finished_ms: ms, id }),
        }
    }
}

impl PageQuery {
    /// Reads `request`: INVALID_ARGUMENT for an unspecified state or a token not of this list.
    pub(crate) fn from_request(request: &pb::ListMatchesRequest) -> Result<PageQuery, Status> {
        let (finished, prefix) = match pb::MatchState::try_from(request.state) {
            Ok(pb::MatchState::Running) => (false, 'r'),
            Ok(pb::MatchState::Finished) => (true, 'f'),
            _ => {
                return Err(Status::invalid_argument(
                    "ListMatches needs a state: MATCH_STATE_RUNNING or MATCH_STATE_FINISHED",
                ));
            }
        };
        let refused = || {
            Status::invalid_argument(format!(
                "page_token {:?} is not a next_page_token of ListMatches for {} matches",
                request.page_token,
                if finished { "finished" } else { "running" }
            ))
        };
        let (mut before, mut elsewhere) = (None, None);
        if let Some(rest) = request.page_token.strip_prefix('n') {
            elsewhere = Some(Elsewhere::parse(rest).ok_or_else(refused)?);
        } else if !request.page_token.is_empty() {
            let seq = request
                .page_token
                .strip_prefix(prefix)
                .and_then(|n| n.parse::<u64>().ok())
                .ok_or_else(refused)?;
            before = Some(seq);
        }
        let size = match request.page_size as usize {
            0 => DEFAULT_PAGE_SIZE,
            n => n.min(MAX_PAGE_SIZE),
        };
        Ok(PageQuery { finished, before, elsewhere, size })
    }

    /// The token of the page after one that ended with the match numbered `seq`.
    pub(crate) fn token_after(&self, seq: u64) -> String {
        format!("{}{seq}", if self.finished { 'f' } else { 'r' })
    }
}

/// One page out of the index: the matches, newest first, and the number to continue from.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Page {
    pub(crate) matches: Vec<Listed>,
    pub(crate) next: Option<u64>,
}

impl MatchIndex {
    fn next_seq(&mut self) -> u64 {
        self.next_seq += 1;
        self.next_seq
    }

    /// Notes a match created at `now_ms`.
    pub(crate) fn created(&mut self, id: &str, now_ms: i64) {
        let seq = self.next_seq();
        self.running_seq.insert(id.to_owned(), seq);
        self.running.insert(seq, Listed { id: id.to_owned(), created_ms: now_ms, ended_ms: 0 });
    }

    /// Notes that match `id` ended at `now_ms`; then the oldest finished are forgotten until
    /// `keep` remain, and their ids returned.
    pub(crate) fn ended(&mut self, id: &str, now_ms: i64, keep: usize) -> Vec<String> {
        let mut listed = match self.running_seq.remove(id).and_then(|s| self.running.remove(&s)) {
            Some(listed) => listed,
            None => Listed { id: id.to_owned(), created_ms: now_ms, ended_ms: 0 },
        };
        listed.ended_ms = now_ms;
        let seq = self.next_seq();
        self.finished.push_back((seq, listed));
        let excess = self.finished.len().saturating_sub(keep);
        self.finished.drain(..excess).map(|(_, listed)| listed.id).collect()
    }

    /// The page `query` asks for.
    pub(crate) fn page(&self, query: &PageQuery) -> Page {
        let before = query.before.unwrap_or(u64::MAX);
        // One more than the page, to know whether another follows.
        let mut picked: Vec<(u64, &Listed)> = if query.finished {
            let end = self.finished.partition_point(|(seq, _)| *seq < before);
            self.finished.range(..end).rev().take(query.size + 1).map(|(s, l)| (*s, l)).collect()
        } else {
            self.running.range(..before).rev().take(query.size + 1).map(|(s, l)| (*s, l)).collect()
        };
        let more = picked.len() > query.size;
        picked.truncate(query.size);
        let next = if more { picked.last().map(|(seq, _)| *seq) } else { None };
        Page { matches: picked.into_iter().map(|(_, listed)| listed.clone()).collect(), next }
    }
}

/// A match's summary from its status: seats and end, nothing hidden (a `MatchInfo` holds none).
pub(crate) fn summary(listed: &Listed, info: &pb::MatchInfo) -> pb::MatchSummary {
    pb::MatchSummary {
        match_id: listed.id.clone(),
        game: info.game,
        seats: info
            .seats
            .iter()
            .map(|s| pb::SeatSummary {
                seat: s.seat,
                bot_name: s.bot_name.clone(),
                connected: s.connected,
            })
            .collect(),
        created_ms: listed.created_ms,
        ended_ms: listed.ended_ms,
        end: info.end.clone(),
        host: String::new(),
    }
}

/// The time now, in milliseconds since the Unix epoch.
pub(crate) fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn query(finished: bool, before: Option<u64>, size: usize) -> PageQuery {
        PageQuery { finished, before, elsewhere: None, size }
    }

    fn ids(page: &Page) -> Vec<&str> {
        page.matches.iter().map(|m| m.id.as_str()).collect()
    }

    #[test]
    fn pages_run_newest_first_and_continue_where_the_last_ended() {
        let mut index = MatchIndex::default();
        for (i, id) in ["a", "b", "c", "d", "e"].iter().enumerate() {
            index.created(id, i as i64);
        }
        let first = index.page(&query(false, None, 2));
        assert_eq!(ids(&first), ["e", "d"]);
        let second = index.page(&query(false, first.next, 2));
        assert_eq!(ids(&second), ["c", "b"]);
        let last = index.page(&query(false, second.next, 2));
        assert_eq!((ids(&last), last.next), (vec!["a"], None));

        // Ending moves a match to the finished list, latest ended first.
        assert!(index.ended("b", 10, 10).is_empty());
        assert!(index.ended("e", 11, 10).is_empty());
        assert_eq!(ids(&index.page(&query(false, None, 10))), ["d", "c", "a"]);
        let finished = index.page(&query(true, None, 10));
        assert_eq!(ids(&finished), ["e", "b"]);
        assert_eq!((finished.matches[1].created_ms, finished.matches[1].ended_ms), (1, 10));
        // Beyond `keep`, the oldest ended is forgotten.
        assert_eq!(index.ended("a", 12, 2), ["b"]);
        assert_eq!(ids(&index.page(&query(true, None, 10))), ["a", "e"]);
    }

    #[test]
    fn named_things_page_by_their_last_name() {
        let names: Vec<String> = (0..450).map(|i| format!("bot{i:03}")).collect();
        let (first, next) = page_by_name(names.clone(), String::as_str, 0, "");
        assert_eq!((first.len(), next.as_str()), (DEFAULT_PAGE_SIZE, "bot049"));
        let (second, next) = page_by_name(names.clone(), String::as_str, 1_000, &next);
        assert_eq!((second.len(), second[0].as_str()), (MAX_PAGE_SIZE, "bot050"));
        let (last, next) = page_by_name(names, String::as_str, 500, &next);
        assert_eq!((last.len(), next.as_str()), (200, ""));
    }

    #[test]
    fn requests_are_checked_and_their_page_sizes_bounded() {
        let request = |state: pb::MatchState, size: u32, token: &str| pb::ListMatchesRequest {
            state: state as i32,
            page_size: size,
            page_token: token.to_owned(),
        };
        let read = |r: &pb::ListMatchesRequest| PageQuery::from_request(r);
        assert_eq!(
            read(&request(pb::MatchState::Running, 0, "")).unwrap(),
            query(false, None, DEFAULT_PAGE_SIZE)
        );
        assert_eq!(
            read(&request(pb::MatchState::Finished, 10_000, "f7")).unwrap(),
            query(true, Some(7), MAX_PAGE_SIZE)
        );
        let invalid = |r: pb::ListMatchesRequest| {
            read(&r).map(|_| ()).map_err(|s| s.code()) == Err(tonic::Code::InvalidArgument)
        };
        assert!(invalid(request(pb::MatchState::Unspecified, 0, "")));
        assert!(invalid(request(pb::MatchState::Running, 0, "f7")));
        assert!(invalid(request(pb::MatchState::Finished, 0, "fx")));
        assert_eq!(query(true, None, 1).token_after(9), "f9");
        // Past this server's own matches, the other nodes', running and finished.
        let after = |ms, id| Elsewhere::After { ms, id: LadderMatchId(id) };
        for elsewhere in [Elsewhere::Start, after(1_700_000_000_000, 42)] {
            let token = elsewhere.token();
            for (state, finished) in
                [(pb::MatchState::Running, false), (pb::MatchState::Finished, true)]
            {
                let read_back = read(&request(state, 5, &token)).unwrap();
                assert_eq!(
                    read_back,
                    PageQuery { elsewhere: Some(elsewhere), ..query(finished, None, 5) }
                );
            }
        }
        let cursor = after(7, 3);
        assert_eq!(
            cursor.running_after(),
            Some(RunningCursor { started_ms: 7, id: LadderMatchId(3) })
        );
        assert_eq!(
            cursor.finished_after(),
            Some(FinishedCursor { finished_ms: 7, id: LadderMatchId(3) })
        );
        assert!(invalid(request(pb::MatchState::Running, 0, "n12")));
        assert!(invalid(request(pb::MatchState::Running, 0, "n1.x")));
    }
}
