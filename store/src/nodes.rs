//! Many nodes on one store: each node's row in the `nodes` table (its lease owner name, the
//! address it advertises, when it was last seen and which bots wait in its lobby), which the
//! scheduler of a ladder reads to plan tables of bots that wait on one node, and which tells a
//! dead node's matches (its row no longer seen) from a live one's.

/// What a node writes about itself at each heartbeat ([`Store::beat_node`]).
///
/// [`Store::beat_node`]: crate::Store::beat_node
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeBeat {
    /// The node's name as a lease owner (its run id): one per process, new at each start.
    pub owner: String,
    /// The address bots and spectators reach this node at (`--advertise`; "" if none given).
    pub advertise: String,
    /// The bots waiting in its lobby now, by name, with how many of each one's streams wait.
    pub lobby: Vec<(String, u32)>,
}

/// A node as the store last heard of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeRow {
    /// What it wrote last.
    pub beat: NodeBeat,
    /// Its first heartbeat, in milliseconds since the Unix epoch.
    pub started_ms: i64,
    /// Its latest heartbeat.
    pub seen_ms: i64,
}

/// The migration (number 4 of both backends; the same SQL in both dialects): one row per node
/// process, its lobby as text, one `waiting<TAB>name` line per bot (names have neither tabs nor
/// line breaks).
pub(crate) const MIGRATION: &str = "
    CREATE TABLE nodes (
        owner TEXT PRIMARY KEY,
        advertise TEXT NOT NULL,
        started_ms BIGINT NOT NULL,
        seen_ms BIGINT NOT NULL,
        lobby TEXT NOT NULL
    );
    CREATE INDEX nodes_by_seen ON nodes (seen_ms);";

/// A lobby as the `lobby` column holds it. A name with a tab or a line break (no registered
/// bot's: registered names are letters, digits, `.`, `_` and `-`) is left out.
pub(crate) fn encode_lobby(lobby: &[(String, u32)]) -> String {
    lobby
        .iter()
        .filter(|(name, _)| !name.contains(['\t', '\n', '\r']))
        .map(|(name, waiting)| format!("{waiting}\t{name}\n"))
        .collect()
}

/// The `lobby` column read back; a line that is not `waiting<TAB>name` is
/// [`StoreError::Corrupt`](crate::StoreError::Corrupt).
pub(crate) fn decode_lobby(text: &str) -> Result<Vec<(String, u32)>, crate::StoreError> {
    text.lines()
        .map(|line| {
            line.split_once('\t')
                .and_then(|(waiting, name)| Some((name.to_owned(), waiting.parse().ok()?)))
                .ok_or_else(|| crate::StoreError::Corrupt(format!("a node's lobby line {line:?}")))
        })
        .collect()
}

/// A node's row from its columns.
pub(crate) fn node_row(
    owner: String,
    advertise: String,
    started_ms: i64,
    seen_ms: i64,
    lobby: &str,
) -> Result<NodeRow, crate::StoreError> {
    Ok(NodeRow {
        beat: NodeBeat { owner, advertise, lobby: decode_lobby(lobby)? },
        started_ms,
        seen_ms,
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn a_lobby_reads_back_as_written() {
        let lobby = vec![("alice".to_owned(), 2), ("bob".to_owned(), 1)];
        assert_eq!(decode_lobby(&encode_lobby(&lobby)).unwrap(), lobby);
        assert_eq!(decode_lobby("").unwrap(), Vec::new());
        assert!(decode_lobby("two\tbob\n").is_err());
        let odd = vec![("a\tb".to_owned(), 1), ("carol".to_owned(), 1)];
        assert_eq!(decode_lobby(&encode_lobby(&odd)).unwrap(), vec![("carol".to_owned(), 1)]);
    }
}
