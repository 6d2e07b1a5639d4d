//! Which of a task's wake sources fired since it last looked: each source (a channel, a
//! cancellation, a timer) is polled with a waker of its own, which marks it before waking the
//! task, so the task polls only the sources that fired.
//!
//! A match task waits on its seats' streams, its commands, the server's shutdown and its clock.
//! Nearly every wake is a bot's message, yet a `select!` polls every other source as well, each
//! poll registering the task's waker again: about 600 instructions a decision (measured at
//! `8b328c5`; in BENCHMARKS.md's history, `git log -p BENCHMARKS.md`). A pending source's
//! registration holds until it fires, so polling it again before then is wasted; [`Wakeups`]
//! keeps the bits that say which fired. The seats have the same arrangement of their own
//! ([`crate::seat_streams`]).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::task::{Context, Waker};

use futures::task::{ArcWake, AtomicWaker};

/// The fired sources' bits and the task to wake.
struct Marks {
    bits: AtomicU64,
    task: AtomicWaker,
}

/// One source's waker: marks its bit, then wakes the task.
struct SourceWaker {
    bit: u64,
    marks: Arc<Marks>,
}

impl ArcWake for SourceWaker {
    fn wake_by_ref(waker: &Arc<Self>) {
        waker.marks.bits.fetch_or(waker.bit, Ordering::AcqRel);
        waker.marks.task.wake();
    }
}

/// `N` wake sources (at most 64), numbered from 0. Every source starts fired, so that the first
/// look polls each once and so registers it.
pub(crate) struct Wakeups<const N: usize> {
    marks: Arc<Marks>,
    wakers: [Waker; N],
}

impl<const N: usize> Wakeups<N> {
    pub(crate) fn new() -> Wakeups<N> {
        const { assert!(N <= 64, "one bit a source") };
        let all = if N == 64 { u64::MAX } else { (1 << N) - 1 };
        let marks = Arc::new(Marks { bits: AtomicU64::new(all), task: AtomicWaker::new() });
        let wakers = std::array::from_fn(|source| {
            futures::task::waker(Arc::new(SourceWaker { bit: 1 << source, marks: marks.clone() }))
        });
        Wakeups { marks, wakers }
    }

    /// The sources that fired since the last look, now unmarked; the task of `cx` is the one
    /// their wakers wake from now on.
    pub(crate) fn look(&self, cx: &Context<'_>) -> Look<'_, N> {
        self.marks.task.register(cx.waker());
        Look { wakeups: self, bits: self.marks.bits.swap(0, Ordering::AcqRel) }
    }

    /// Marks `source` as fired: it is polled at the next look (a source that gave a value may
    /// have another).
    pub(crate) fn mark(&self, source: usize) {
        self.marks.bits.fetch_or(1 << source, Ordering::AcqRel);
    }

    /// The context to poll `source` with.
    pub(crate) fn context(&self, source: usize) -> Context<'_> {
        Context::from_waker(&self.wakers[source])
    }
}

/// The sources one look found fired. Those not yet asked about when it is dropped (a source before
/// them was ready) are marked again, for the next look.
pub(crate) struct Look<'a, const N: usize> {
    wakeups: &'a Wakeups<N>,
    bits: u64,
}

impl<const N: usize> Look<'_, N> {
    /// Whether `source` fired; the caller polls it now, if so.
    pub(crate) fn fired(&mut self, source: usize) -> bool {
        let bit = 1 << source;
        let fired = self.bits & bit != 0;
        self.bits &= !bit;
        fired
    }
}

impl<const N: usize> Drop for Look<'_, N> {
    fn drop(&mut self) {
        if self.bits != 0 {
            self.wakeups.marks.bits.fetch_or(self.bits, Ordering::AcqRel);
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use std::future::Future;
    use std::pin::pin;
    use std::sync::atomic::AtomicUsize;
    use std::task::{Poll, Wake};

    use tokio::sync::mpsc;

    use super::*;

    /// A task waker that counts its wakes.
    struct Counter(AtomicUsize);

    impl Wake for Counter {
        fn wake(self: Arc<Self>) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }

    fn task() -> (Arc<Counter>, Waker) {
        let counter = Arc::new(Counter(AtomicUsize::new(0)));
        (counter.clone(), Waker::from(counter))
    }

    #[test]
    fn every_source_starts_fired_then_only_those_woken_are() {
        let wakeups = Wakeups::<3>::new();
        let (_, waker) = task();
        let cx = Context::from_waker(&waker);
        let mut look = wakeups.look(&cx);
        assert!(look.fired(0) && look.fired(1) && look.fired(2));
        drop(look);
        let mut look = wakeups.look(&cx);
        assert!(!look.fired(0) && !look.fired(1) && !look.fired(2), "nothing woke them");
        drop(look);
        wakeups.context(1).waker().wake_by_ref();
        let mut look = wakeups.look(&cx);
        assert!(!look.fired(0) && look.fired(1) && !look.fired(2));
    }

    #[test]
    fn a_source_not_polled_in_a_look_stays_fired() {
        let wakeups = Wakeups::<2>::new();
        let (_, waker) = task();
        let cx = Context::from_waker(&waker);
        let mut look = wakeups.look(&cx);
        assert!(look.fired(0), "the first source was ready: the look ends there");
        drop(look);
        let mut look = wakeups.look(&cx);
        assert!(!look.fired(0));
        assert!(look.fired(1), "kept for the next look");
        drop(look);
        wakeups.mark(0);
        assert!(wakeups.look(&cx).fired(0), "marked again: a source with more to give");
    }

    /// A channel polled with its source's context wakes the task that looked last, through the
    /// source's bit, when a value arrives.
    #[test]
    fn a_channel_wakes_the_task_through_its_source() {
        let wakeups = Wakeups::<2>::new();
        let (counter, waker) = task();
        let cx = Context::from_waker(&waker);
        let (tx, mut rx) = mpsc::channel::<u32>(4);
        let mut look = wakeups.look(&cx);
        assert!(look.fired(0) && look.fired(1), "every source starts fired");
        drop(look);
        assert!(rx.poll_recv(&mut wakeups.context(1)).is_pending());
        assert_eq!(counter.0.load(Ordering::SeqCst), 0);
        tx.try_send(7).unwrap();
        assert_eq!(counter.0.load(Ordering::SeqCst), 1, "the task was woken");
        let mut look = wakeups.look(&cx);
        assert!(!look.fired(0) && look.fired(1));
        assert_eq!(rx.poll_recv(&mut wakeups.context(1)), Poll::Ready(Some(7)));
    }

    /// A timer polled with its source's context fires its source at its deadline.
    #[tokio::test(start_paused = true)]
    async fn a_timer_fires_its_source() {
        let wakeups = Wakeups::<1>::new();
        let (counter, waker) = task();
        let cx = Context::from_waker(&waker);
        assert!(wakeups.look(&cx).fired(0), "every source starts fired");
        assert!(!wakeups.look(&cx).fired(0));
        let mut sleep = pin!(tokio::time::sleep(std::time::Duration::from_secs(5)));
        assert!(sleep.as_mut().poll(&mut wakeups.context(0)).is_pending());
        tokio::time::sleep(std::time::Duration::from_secs(6)).await;
        assert_eq!(counter.0.load(Ordering::SeqCst), 1);
        assert!(wakeups.look(&cx).fired(0));
        assert!(sleep.as_mut().poll(&mut wakeups.context(0)).is_ready());
    }
}
