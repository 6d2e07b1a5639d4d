//! Live feeds: what the live pages' streams send, worked out once for all the streams of a
//! feed. The server's figures and each ladder's leaderboard are polled by one task per feed,
//! not one per stream (two thousand watchers of a ladder cost one read of the store a poll,
//! not two thousand, and no pile of blocking threads waiting on it); the task renders each
//! new fragment once and publishes it on a `watch` channel, and each stream sends the latest
//! fragment it has not sent. The task runs while a stream watches and ends with the last.

use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use axum::response::sse::Event;
use futures::{Stream, StreamExt as _};
use tokio::sync::watch;
use tokio_stream::wrappers::WatchStream;

/// The latest fragment of a feed (HTML), shared by its streams; none before the first.
type Latest = Option<Arc<str>>;

/// Which feed.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum FeedKey {
    /// The server's figures (`/server/live`).
    Server,
    /// A ladder's leaderboard (`/ladders/{ladder}/live`).
    Ladder(String),
}

/// The feeds running, by key. A cheap handle: clones share the feeds.
#[derive(Clone, Debug, Default)]
pub(crate) struct Feeds {
    /// A std mutex: it is held to look a feed up or to add or remove one, never across an
    /// `.await`.
    running: Arc<Mutex<HashMap<FeedKey, watch::Sender<Latest>>>>,
    /// Held by the stream that starts a feed, across its first read of the source.
    starting: Arc<tokio::sync::Mutex<()>>,
}

impl Feeds {
    /// The feed `key` from now on: joined when it runs. Else `first` reads what the feed
    /// starts from (and whether what it watches exists), and `start` runs the feed as a task
    /// from that, given its [`Publisher`] (which ticks `every`, the first tick one `every`
    /// from now). One stream at a time starts a feed: those that come meanwhile wait, then
    /// join it, so a crowd that arrives at once costs the source one read, and a stream that
    /// joins a running feed costs it none.
    pub(crate) async fn watch<T, E, F>(
        &self,
        key: FeedKey,
        every: Duration,
        first: impl Future<Output = Result<T, E>>,
        start: impl FnOnce(T, Publisher) -> F,
    ) -> Result<Feed, E>
    where
        F: Future<Output = ()> + Send + 'static,
    {
        if let Some(feed) = self.join(&key) {
            return Ok(feed);
        }
        let _starting = self.starting.lock().await;
        if let Some(feed) = self.join(&key) {
            return Ok(feed);
        }
        let first = first.await?;
        let (sender, receiver) = watch::channel(None);
        self.lock().insert(key.clone(), sender.clone());
        let mut interval = tokio::time::interval_at(tokio::time::Instant::now() + every, every);
        interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let feeds = self.clone();
        tokio::spawn(start(first, Publisher { sender, key, feeds, interval, retired: false }));
        Ok(Feed(receiver))
    }

    /// The feed `key` from now on, if it runs.
    fn join(&self, key: &FeedKey) -> Option<Feed> {
        self.lock().get(key).map(|feed| Feed(feed.subscribe()))
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<FeedKey, watch::Sender<Latest>>> {
        self.running.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The feeds running.
    #[cfg(test)]
    fn running(&self) -> usize {
        self.lock().len()
    }
}

/// A stream's side of a feed.
pub(crate) struct Feed(watch::Receiver<Latest>);

impl Feed {
    /// The feed's fragments from now on, as events named `name`; it ends with the feed.
    pub(crate) fn events(
        self,
        name: &'static str,
    ) -> impl Stream<Item = Result<Event, Infallible>> {
        WatchStream::from_changes(self.0).filter_map(move |latest| {
            let event = latest.map(|fragment| Ok(Event::default().event(name).data(&*fragment)));
            std::future::ready(event)
        })
    }
}

/// A feed's task's side: it waits for the next poll with [`Publisher::tick`] and publishes
/// with [`Publisher::publish`]. Dropped (the task over: the ladder went away, the source
/// failed, no stream watches), it ends the feed and its streams.
pub(crate) struct Publisher {
    sender: watch::Sender<Latest>,
    key: FeedKey,
    feeds: Feeds,
    interval: tokio::time::Interval,
    /// Taken out of the running feeds already (a newer feed may run under its key).
    retired: bool,
}

impl Publisher {
    /// Waits for the next poll: true then, false once no stream watches (the feed has then
    /// stopped running, and the task should end).
    pub(crate) async fn tick(&mut self) -> bool {
        loop {
            tokio::select! {
                () = self.sender.closed() => {
                    // Under the lock: a stream that joins meanwhile is counted.
                    let mut running = self.feeds.lock();
                    if self.sender.receiver_count() == 0 {
                        running.remove(&self.key);
                        self.retired = true;
                        return false;
                    }
                }
                _ = self.interval.tick() => return true,
            }
        }
    }

    /// Sends `fragment` to every stream of the feed.
    pub(crate) fn publish(&self, fragment: String) {
        self.sender.send_replace(Some(fragment.into()));
    }
}

impl Drop for Publisher {
    fn drop(&mut self) {
        if !self.retired {
            self.feeds.lock().remove(&self.key);
        }
        // With the last sender gone, every stream of the feed ends.
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use std::sync::atomic::{AtomicU32, Ordering};

    use super::*;

    const EVERY: Duration = Duration::from_secs(1);

    /// A stream of the feed `Server`, which counts its first reads in `reads` and its polls
    /// in `polls` and publishes the count of polls at each.
    async fn watch(feeds: &Feeds, reads: &AtomicU32, polls: &Arc<AtomicU32>) -> Feed {
        let first = async {
            reads.fetch_add(1, Ordering::Relaxed);
            // The source takes its time: other streams come meanwhile.
            tokio::time::sleep(EVERY / 10).await;
            Ok::<_, Infallible>(())
        };
        let polls = Arc::clone(polls);
        let feed = feeds.watch(FeedKey::Server, EVERY, first, |(), mut publisher| async move {
            while publisher.tick().await {
                let n = polls.fetch_add(1, Ordering::Relaxed) + 1;
                publisher.publish(n.to_string());
            }
        });
        feed.await.unwrap()
    }

    #[tokio::test(start_paused = true)]
    async fn a_crowd_of_streams_reads_once_shares_the_polls_and_the_feed_ends_with_the_last() {
        let feeds = Feeds::default();
        let (reads, polls) = (AtomicU32::new(0), Arc::new(AtomicU32::new(0)));
        let crowd = futures::future::join_all((0..50).map(|_| watch(&feeds, &reads, &polls)));
        let mut streams: Vec<_> =
            crowd.await.into_iter().map(|f| Box::pin(f.events("n"))).collect();
        assert_eq!(reads.load(Ordering::Relaxed), 1);
        assert_eq!(feeds.running(), 1);
        for stream in &mut streams {
            assert!(stream.next().await.is_some());
        }
        assert_eq!(polls.load(Ordering::Relaxed), 1);
        drop(streams);
        // The feed notices at once, and stops polling.
        tokio::time::sleep(2 * EVERY).await;
        assert_eq!(feeds.running(), 0);
        let polled = polls.load(Ordering::Relaxed);
        tokio::time::sleep(10 * EVERY).await;
        assert_eq!(polls.load(Ordering::Relaxed), polled);
        // A new stream starts it again.
        let mut again = Box::pin(watch(&feeds, &reads, &polls).await.events("n"));
        assert!(again.next().await.is_some());
        assert_eq!((reads.load(Ordering::Relaxed), feeds.running()), (2, 1));
    }

    #[tokio::test(start_paused = true)]
    async fn a_feed_that_fails_to_start_or_ends_leaves_nothing_running() {
        let feeds = Feeds::default();
        let key = || FeedKey::Ladder("gone".into());
        let failed = feeds.watch(key(), EVERY, async { Err("no ladder") }, |(), _| async {});
        assert_eq!(failed.await.err(), Some("no ladder"));
        assert_eq!(feeds.running(), 0);
        let first = async { Ok::<_, Infallible>("last") };
        let feed = feeds.watch(key(), EVERY, first, |last, mut publisher| async move {
            publisher.tick().await;
            publisher.publish(last.into());
        });
        let mut stream = Box::pin(feed.await.unwrap().events("board"));
        assert!(stream.next().await.is_some());
        assert!(stream.next().await.is_none());
        assert_eq!(feeds.running(), 0);
    }
}
