//! The seats' inbound streams of one match, read by its task: a stream is polled only after its
//! own waker fired.
//!
//! A match task wakes once per decision, for one seat's `Act`. Polling every seat's stream on
//! each wake (as `StreamMap` does) costs a lock of each idle stream's HTTP/2 connection and a
//! waker registration, for nothing: two polls a decision at two seats, twelve at twelve. Here
//! each seat's stream is polled with a waker of its own, which marks the seat ready and wakes
//! the task; a wake polls only the marked seats.

use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::task::{Context, Poll, Waker};

use futures::task::{ArcWake, AtomicWaker};
use tokio_stream::Stream;

/// Words of ready bits: enough for every seat a `Seat` (a `u8`) can name.
const WORDS: usize = 4;

/// Which seats' streams have something to say, and the task to wake when one does.
struct Ready {
    /// One bit per seat, 64 seats a word.
    seats: [AtomicU64; WORDS],
    task: AtomicWaker,
}

impl Ready {
    fn mark(&self, seat: usize) {
        self.seats[seat / 64].fetch_or(1 << (seat % 64), Ordering::AcqRel);
    }
}

/// The waker a seat's stream is polled with.
struct SeatWaker {
    seat: usize,
    ready: Arc<Ready>,
}

impl ArcWake for SeatWaker {
    fn wake_by_ref(waker: &Arc<Self>) {
        waker.ready.mark(waker.seat);
        waker.ready.task.wake();
    }
}

/// Every seat's current stream, by seat index (at most 256 seats, as `Seat` counts); a match
/// task's are its bots' `Streaming<pb::BotMessage>`.
pub(crate) struct SeatStreams<S> {
    streams: Vec<Option<S>>,
    wakers: Vec<Waker>,
    ready: Arc<Ready>,
    /// The seat looked at first on the next wake: the one after the seat last read, so that a
    /// seat with many messages waiting cannot keep the others waiting.
    next: usize,
}

impl<S: Stream + Unpin> SeatStreams<S> {
    pub(crate) fn new(seats: usize) -> SeatStreams<S> {
        let seats = seats.min(WORDS * 64);
        let ready = Arc::new(Ready { seats: Default::default(), task: AtomicWaker::new() });
        let wakers = (0..seats)
            .map(|seat| futures::task::waker(Arc::new(SeatWaker { seat, ready: ready.clone() })))
            .collect();
        SeatStreams { streams: (0..seats).map(|_| None).collect(), wakers, ready, next: 0 }
    }

    /// Reads `seat` from `stream` from now on (replacing its old stream, which is dropped).
    pub(crate) fn insert(&mut self, seat: usize, stream: S) {
        let Some(slot) = self.streams.get_mut(seat) else { return };
        *slot = Some(stream);
        // Polled at the next wake: it may hold messages already.
        self.ready.mark(seat);
        self.ready.task.wake();
    }

    /// Stops reading `seat` (its stream is dropped).
    pub(crate) fn remove(&mut self, seat: usize) {
        if let Some(slot) = self.streams.get_mut(seat) {
            *slot = None;
        }
    }

    /// The next message of a seat whose stream woke the task, or the end of that stream (after
    /// which the seat is read no more); pending while no seat has anything.
    pub(crate) fn poll_next(&mut self, cx: &mut Context<'_>) -> Poll<(usize, Option<S::Item>)> {
        self.ready.task.register(cx.waker());
        let mut marked = [0u64; WORDS];
        // The words the seats use (one up to 64 seats): each swap is an atomic write.
        let words = &self.ready.seats[..self.streams.len().div_ceil(64)];
        for (word, bits) in words.iter().zip(&mut marked) {
            *bits = word.swap(0, Ordering::AcqRel);
        }
        let seats = self.streams.len();
        for step in 0..seats {
            let seat = (self.next + step) % seats;
            let bit = 1u64 << (seat % 64);
            if marked[seat / 64] & bit == 0 {
                continue;
            }
            marked[seat / 64] &= !bit;
            let Some(stream) = self.streams[seat].as_mut() else { continue };
            let mut seat_cx = Context::from_waker(&self.wakers[seat]);
            let Poll::Ready(read) = Pin::new(stream).poll_next(&mut seat_cx) else { continue };
            if read.is_none() {
                self.streams[seat] = None;
            } else {
                // It may have more: look again at the next wake.
                self.ready.mark(seat);
            }
            // The seats not looked at yet keep their marks.
            for (word, bits) in words.iter().zip(marked) {
                if bits != 0 {
                    word.fetch_or(bits, Ordering::AcqRel);
                }
            }
            self.next = (seat + 1) % seats;
            return Poll::Ready((seat, read));
        }
        Poll::Pending
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use std::sync::atomic::AtomicUsize;

    use futures::task::noop_waker;
    use tokio::sync::mpsc;
    use tokio_stream::wrappers::UnboundedReceiverStream;

    use super::*;

    /// A seat's stream that counts how often it is polled.
    struct Counted {
        inner: UnboundedReceiverStream<u32>,
        polls: Arc<AtomicUsize>,
    }

    impl Stream for Counted {
        type Item = u32;
        fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<u32>> {
            self.polls.fetch_add(1, Ordering::Relaxed);
            Pin::new(&mut self.inner).poll_next(cx)
        }
    }

    /// `seats` seats, each with its sender and its poll count.
    fn seats(
        seats: usize,
    ) -> (SeatStreams<Counted>, Vec<mpsc::UnboundedSender<u32>>, Vec<Arc<AtomicUsize>>) {
        let mut streams = SeatStreams::new(seats);
        let (mut senders, mut polls) = (Vec::new(), Vec::new());
        for seat in 0..seats {
            let (tx, rx) = mpsc::unbounded_channel();
            let count = Arc::new(AtomicUsize::new(0));
            streams.insert(seat, Counted { inner: rx.into(), polls: count.clone() });
            senders.push(tx);
            polls.push(count);
        }
        (streams, senders, polls)
    }

    fn poll(streams: &mut SeatStreams<Counted>) -> Poll<(usize, Option<u32>)> {
        streams.poll_next(&mut Context::from_waker(&noop_waker()))
    }

    fn polls(counts: &[Arc<AtomicUsize>]) -> Vec<usize> {
        counts.iter().map(|count| count.load(Ordering::Relaxed)).collect()
    }

    #[test]
    fn a_wake_polls_only_the_seat_whose_stream_has_something() {
        let (mut streams, senders, counts) = seats(12);
        // Every new stream is looked at once.
        assert!(poll(&mut streams).is_pending());
        assert_eq!(polls(&counts), [1; 12]);
        senders[7].send(70).unwrap();
        assert_eq!(poll(&mut streams), Poll::Ready((7, Some(70))));
        // Seat 7 is looked at again (it may have more), and no other seat is.
        assert!(poll(&mut streams).is_pending());
        let mut expected = [1; 12];
        expected[7] = 3;
        assert_eq!(polls(&counts), expected);
        assert!(poll(&mut streams).is_pending(), "nothing woke any seat");
        assert_eq!(polls(&counts), expected);
    }

    #[test]
    fn the_end_of_a_stream_is_told_once_and_the_seat_is_read_no_more() {
        let (mut streams, mut senders, counts) = seats(2);
        assert!(poll(&mut streams).is_pending());
        senders.remove(1);
        assert_eq!(poll(&mut streams), Poll::Ready((1, None)));
        assert!(poll(&mut streams).is_pending());
        assert_eq!(polls(&counts)[1], 2, "not polled after its end");
        // A new stream for the seat is read.
        let (tx, rx) = mpsc::unbounded_channel();
        streams.insert(1, Counted { inner: rx.into(), polls: counts[1].clone() });
        tx.send(5).unwrap();
        assert_eq!(poll(&mut streams), Poll::Ready((1, Some(5))));
    }

    #[test]
    fn seats_with_messages_waiting_take_turns() {
        let (mut streams, senders, _) = seats(3);
        for message in 0..3 {
            senders[0].send(message).unwrap();
            senders[2].send(20 + message).unwrap();
        }
        let order: Vec<(usize, Option<u32>)> = (0..6)
            .map(|_| match poll(&mut streams) {
                Poll::Ready(read) => read,
                Poll::Pending => panic!("pending with messages waiting"),
            })
            .collect();
        assert_eq!(
            order,
            [(0, Some(0)), (2, Some(20)), (0, Some(1)), (2, Some(21)), (0, Some(2)), (2, Some(22))]
        );
        assert!(poll(&mut streams).is_pending());
    }

    #[test]
    fn a_message_wakes_the_task() {
        let (mut streams, senders, _) = seats(2);
        let woken = Arc::new(Woken::default());
        let waker = futures::task::waker(woken.clone());
        let mut cx = Context::from_waker(&waker);
        assert!(streams.poll_next(&mut cx).is_pending());
        assert_eq!(woken.0.load(Ordering::Relaxed), 0);
        senders[1].send(1).unwrap();
        assert_eq!(woken.0.load(Ordering::Relaxed), 1, "the seat's waker woke the task");
        assert_eq!(streams.poll_next(&mut cx), Poll::Ready((1, Some(1))));
    }

    #[derive(Default)]
    struct Woken(AtomicUsize);

    impl ArcWake for Woken {
        fn wake_by_ref(woken: &Arc<Self>) {
            woken.0.fetch_add(1, Ordering::Relaxed);
        }
    }
}
