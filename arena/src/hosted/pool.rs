//! One pool of bots across the nodes of a store: which node hosts a planned match, and where
//! each of its bots comes from.
//!
//! A ladder's table may seat bots that wait on different nodes. Every node reads the live
//! nodes' lobbies from their heartbeats and sees the same pool (within a heartbeat). For each
//! match whose bots all wait somewhere, every node picks the same host
//! ([`Pool::host`]): the node where most of its bots wait, ties broken by a hash of the match
//! and the node, so that the ties spread over the nodes. Only that node claims it. It takes
//! its own bots from its lobby and borrows the others from their nodes
//! (`cardroom_server::Host::start`), whose streams stay where they are.

use std::collections::HashMap;

use cardroom_server::Lender;
use cardroom_store::{BotId, LadderMatchId};

/// One node's lobby as a step of the ladder sees it.
pub(super) struct NodeLobby {
    /// The node's lease owner name.
    pub(super) owner: String,
    /// How to borrow from it: `None` for this node, and for a node that lends nothing.
    pub(super) lender: Option<Lender>,
    /// Whether it lends its bots to the others (it advertises an address).
    pub(super) lends: bool,
    /// The ladder's bots waiting there, with their free streams.
    pub(super) free: HashMap<BotId, usize>,
}

/// Every live node's lobby, this node's first.
pub(super) struct Pool {
    pub(super) lobbies: Vec<NodeLobby>,
}

impl Pool {
    /// Every bot's free streams, summed over the nodes.
    pub(super) fn anywhere(&self) -> HashMap<BotId, usize> {
        let mut anywhere: HashMap<BotId, usize> = HashMap::new();
        for (&bot, &n) in self.lobbies.iter().flat_map(|lobby| &lobby.free) {
            *anywhere.entry(bot).or_default() += n;
        }
        anywhere
    }

    /// The lobby (an index into `lobbies`) whose node hosts match `id` of `bots`: of the nodes
    /// that can seat them all (from their own lobby, or borrowed from nodes that lend), the one
    /// where most of them wait, ties broken by [`tie_break`]. `None` when no node can.
    pub(super) fn host(&self, bots: &[BotId], id: LadderMatchId) -> Option<usize> {
        let waits = |lobby: &NodeLobby, bot: &BotId| lobby.free.get(bot).is_some_and(|&n| n > 0);
        let can_seat = |i: usize| {
            bots.iter().all(|bot| {
                let lobbies = self.lobbies.iter().enumerate();
                lobbies.into_iter().any(|(j, lobby)| waits(lobby, bot) && (j == i || lobby.lends))
            })
        };
        (0..self.lobbies.len()).filter(|&i| can_seat(i)).max_by_key(|&i| {
            let lobby = &self.lobbies[i];
            let here = bots.iter().filter(|bot| waits(lobby, bot)).count();
            (here, tie_break(id, &lobby.owner))
        })
    }

    /// Where each of `bots` comes from when this node hosts match `id` (its own lobby first,
    /// else a node that lends it), their streams taken from the pool; `None` (nothing taken)
    /// when another node hosts it or a bot waits nowhere.
    pub(super) fn seat(
        &mut self,
        bots: &[BotId],
        id: LadderMatchId,
    ) -> Option<Vec<(BotId, Option<Lender>)>> {
        if self.host(bots, id)? != 0 {
            return None;
        }
        self.seat_here(bots)
    }

    /// Where each of `bots` comes from when this node hosts them, whichever node [`Pool::host`]
    /// would pick (a scrimmage's leader hosts it), their streams taken from the pool; `None`
    /// (nothing taken) when this node cannot seat them all.
    pub(super) fn seat_here(&mut self, bots: &[BotId]) -> Option<Vec<(BotId, Option<Lender>)>> {
        let seatable = bots.iter().all(|bot| {
            self.lobbies.iter().enumerate().any(|(i, lobby)| {
                lobby.free.get(bot).is_some_and(|&n| n > 0) && (i == 0 || lobby.lender.is_some())
            })
        });
        if !seatable {
            return None;
        }
        let mut seating = Vec::with_capacity(bots.len());
        for &bot in bots {
            let lobby = self.lobbies.iter_mut().enumerate().find_map(|(i, lobby)| {
                let waits = lobby.free.get(&bot).is_some_and(|&n| n > 0);
                (waits && (i == 0 || lobby.lender.is_some())).then_some(lobby)
            });
            // Found: `host` saw every bot waiting somewhere.
            let lobby = lobby?;
            if let Some(n) = lobby.free.get_mut(&bot) {
                *n -= 1;
            }
            seating.push((bot, lobby.lender.clone()));
        }
        Some(seating)
    }
}

/// The same number on every node for a match and a node: FNV-1a over the node's name, then
/// mixed with the match's id.
fn tie_break(id: LadderMatchId, owner: &str) -> u64 {
    let fnv = owner.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    });
    (fnv ^ id.0 as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lobby(owner: &str, bots: &[i64]) -> NodeLobby {
        let lender = (!owner.is_empty())
            .then(|| Lender { address: format!("http://{owner}"), secret: String::new() });
        NodeLobby {
            owner: owner.to_owned(),
            lender,
            lends: true,
            free: bots.iter().map(|&b| (BotId(b), 1)).collect(),
        }
    }

    #[test]
    fn a_node_that_lends_nothing_hosts_only_what_it_can_seat_itself() {
        let bots = [BotId(1), BotId(2)];
        let mut silent = lobby("b", &[1, 2]);
        (silent.lender, silent.lends) = (None, false);
        // It has both: it hosts.
        let pool = Pool { lobbies: vec![lobby("", &[1]), silent] };
        assert_eq!(pool.host(&bots, LadderMatchId(1)), Some(1));
        // It has one and this node the other, neither lends: nobody hosts.
        let mut silent = lobby("b", &[2]);
        (silent.lender, silent.lends) = (None, false);
        let mut here = lobby("", &[1]);
        here.lends = false;
        let mut pool = Pool { lobbies: vec![here, silent] };
        assert_eq!(pool.host(&bots, LadderMatchId(1)), None);
        assert_eq!(pool.seat(&bots, LadderMatchId(1)), None);
    }

    #[test]
    fn the_node_with_most_of_a_matchs_bots_hosts_it_borrowing_the_rest() {
        let bots = [BotId(1), BotId(2), BotId(3)];
        // This node has one of the three, another node two: the other hosts.
        let mut pool = Pool { lobbies: vec![lobby("", &[1]), lobby("b", &[2, 3])] };
        assert_eq!(pool.host(&bots, LadderMatchId(7)), Some(1));
        assert_eq!(pool.seat(&bots, LadderMatchId(7)), None);
        // This node has two: it hosts, borrowing the third, and its streams are taken.
        let mut pool = Pool { lobbies: vec![lobby("", &[1, 2]), lobby("b", &[3])] };
        let seating = pool.seat(&bots, LadderMatchId(7)).unwrap();
        let from: Vec<Option<&str>> =
            seating.iter().map(|(_, l)| l.as_ref().map(|l| l.address.as_str())).collect();
        assert_eq!(from, [None, None, Some("http://b")]);
        assert_eq!(pool.anywhere().values().sum::<usize>(), 0);
        assert_eq!(pool.seat(&bots, LadderMatchId(7)), None, "no stream left to seat");
    }

    #[test]
    fn a_match_with_a_bot_waiting_nowhere_has_no_host() {
        let pool = Pool { lobbies: vec![lobby("", &[1]), lobby("b", &[2])] };
        assert_eq!(pool.host(&[BotId(1), BotId(3)], LadderMatchId(1)), None);
    }

    #[test]
    fn ties_spread_over_the_nodes_and_every_node_picks_the_same_host() {
        // One bot on each of three nodes: each node, seeing the same pool from its place,
        // picks the same host for a match, and over many matches each node hosts some.
        let names = ["n0", "n1", "n2"];
        let bots = [BotId(1), BotId(2), BotId(3)];
        let mut hosted = [0; 3];
        for id in 0..300 {
            let picks: Vec<&str> = (0..3)
                .map(|me| {
                    // Node `me` lists its own lobby first.
                    let mut order: Vec<usize> = vec![me];
                    order.extend((0..3).filter(|&i| i != me));
                    let pool = Pool {
                        lobbies: order.iter().map(|&i| lobby(names[i], &[i as i64 + 1])).collect(),
                    };
                    let host = pool.host(&bots, LadderMatchId(id)).unwrap();
                    names[order[host]]
                })
                .collect();
            assert!(picks.iter().all(|&p| p == picks[0]), "match {id}: {picks:?}");
            hosted[names.iter().position(|&n| n == picks[0]).unwrap()] += 1;
        }
        assert!(hosted.iter().all(|&n| n > 50), "{hosted:?}");
    }
}
