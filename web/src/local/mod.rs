//! [`LocalSource`]: the pages' data from what exists on one machine: the arena's ladder files
//! (`cardroom arena run` writes one SQLite file per ladder) and a running server reached over
//! gRPC.

mod ladders;
mod server;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use futures::stream::BoxStream;
use tonic::transport::Channel;

use crate::source::{
    BotPage, Failures, FinishedMatch, LadderInfo, Leaderboard, LiveMatch, MatchList, MatchState,
    PageRequest, ServerStats, Source, SourceError, WatchUpdate,
};
use ladders::LadderFile;
use server::ServerClient;

/// Ladder files and, optionally, a game server.
#[derive(Clone, Debug, Default)]
pub struct LocalSource {
    /// Ladder files by id (the file's stem, made unique).
    ladders: BTreeMap<String, PathBuf>,
    server: Option<ServerClient>,
}

impl LocalSource {
    /// A source of the ladder files `ladders`; each ladder's id in URLs is its file's stem (a
    /// number appended when two stems are equal), kept to letters, digits, `-` and `_`.
    pub fn new(ladders: impl IntoIterator<Item = PathBuf>) -> LocalSource {
        let mut by_id = BTreeMap::new();
        for path in ladders {
            let stem = ladder_id(&path);
            let mut id = stem.clone();
            let mut n = 2;
            while by_id.contains_key(&id) {
                id = format!("{stem}-{n}");
                n += 1;
            }
            by_id.insert(id, path);
        }
        LocalSource { ladders: by_id, server: None }
    }

    /// Adds the game server on `channel` (a lazy channel is fine: the pages connect when first
    /// asked). `admin_token`, if the server has one, is sent with `GetStats` only.
    pub fn with_server(mut self, channel: Channel, admin_token: Option<String>) -> LocalSource {
        self.server = Some(ServerClient::new(channel, admin_token));
        self
    }

    /// The ladders' ids and files.
    pub fn ladder_files(&self) -> impl Iterator<Item = (&str, &Path)> {
        self.ladders.iter().map(|(id, path)| (id.as_str(), path.as_path()))
    }

    fn server(&self) -> Result<&ServerClient, SourceError> {
        self.server.as_ref().ok_or(SourceError::NoServer)
    }

    /// Runs `read` on ladder `id`'s file on a blocking thread; `None` for an unknown ladder or
    /// one not yet begun.
    async fn with_ladder<T: Send + 'static>(
        &self,
        id: &str,
        read: impl FnOnce(&LadderFile) -> Result<T, ladders::ReadError> + Send + 'static,
    ) -> Result<Option<T>, SourceError> {
        let Some(path) = self.ladders.get(id).cloned() else { return Ok(None) };
        let id = id.to_owned();
        let ladder = id.clone();
        let error = move |message: String| SourceError::Ladder { ladder: ladder.clone(), message };
        tokio::task::spawn_blocking(move || match LadderFile::open(&id, &path)? {
            Some(file) => read(&file).map(Some),
            None => Ok(None),
        })
        .await
        .map_err(|e| error(e.to_string()))?
        .map_err(|e| error(e.to_string()))
    }
}

/// A ladder's id from its file name.
fn ladder_id(path: &Path) -> String {
    let stem = path.file_stem().map(|s| s.to_string_lossy()).unwrap_or_default();
    let id: String = stem
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '-' })
        .collect();
    if id.is_empty() { "ladder".to_owned() } else { id }
}

impl Source for LocalSource {
    async fn ladders(&self) -> Result<Vec<LadderInfo>, SourceError> {
        let mut out = Vec::new();
        for id in self.ladders.keys() {
            if let Some(info) = self.with_ladder(id, LadderFile::info).await? {
                out.push(info);
            }
        }
        Ok(out)
    }

    async fn leaderboard(&self, ladder: &str) -> Result<Option<Leaderboard>, SourceError> {
        self.with_ladder(ladder, LadderFile::leaderboard).await
    }

    async fn ladder_revision(&self, ladder: &str) -> Result<Option<u64>, SourceError> {
        self.with_ladder(ladder, LadderFile::revision).await
    }

    async fn bot(
        &self,
        ladder: &str,
        name: &str,
        matches: PageRequest,
    ) -> Result<Option<BotPage>, SourceError> {
        let name = name.to_owned();
        Ok(self.with_ladder(ladder, move |file| file.bot(&name, matches)).await?.flatten())
    }

    async fn bot_name(&self, ladder: &str, number: u64) -> Result<Option<String>, SourceError> {
        Ok(self.with_ladder(ladder, move |file| Ok(file.bot_name(number))).await?.flatten())
    }

    fn keeps_failures(&self) -> bool {
        false
    }

    async fn failures(
        &self,
        _ladder: &str,
        _name: &str,
        _key: &str,
    ) -> Result<Failures, SourceError> {
        // Ladder files keep neither bot keys nor the observations behind failures.
        Ok(Failures::NotKept)
    }

    async fn ladder_match(
        &self,
        ladder: &str,
        id: &str,
    ) -> Result<Option<FinishedMatch>, SourceError> {
        let id = id.to_owned();
        Ok(self.with_ladder(ladder, move |file| file.finished_match(&id)).await?.flatten())
    }

    async fn server_stats(&self) -> Result<ServerStats, SourceError> {
        self.server()?.stats().await
    }

    async fn server_matches(
        &self,
        state: MatchState,
        before: Option<&str>,
        limit: u64,
    ) -> Result<MatchList, SourceError> {
        self.server()?.matches(state, before, limit).await
    }

    async fn live_match(&self, id: &str) -> Result<Option<LiveMatch>, SourceError> {
        self.server()?.live_match(id).await
    }

    async fn server_match(&self, id: &str) -> Result<Option<FinishedMatch>, SourceError> {
        self.server()?.finished_match(id).await
    }

    async fn watch(
        &self,
        id: &str,
    ) -> Result<BoxStream<'static, Result<WatchUpdate, SourceError>>, SourceError> {
        self.server()?.watch(id).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ladder_ids_are_the_file_stems_made_safe_and_unique() {
        let source = LocalSource::new([
            PathBuf::from("/a/tt.sqlite"),
            PathBuf::from("/b/tt.sqlite"),
            PathBuf::from("/c/my ladder<1>.sqlite"),
        ]);
        let ids: Vec<&str> = source.ladder_files().map(|(id, _)| id).collect();
        assert_eq!(ids, ["my-ladder-1-", "tt", "tt-2"]);
    }
}
