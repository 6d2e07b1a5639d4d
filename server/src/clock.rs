//! A match's clock: the time each decision may take, each seat's bank, its strikes and the
//! reconnect grace of a seat without a connection. The one place where the bank arithmetic is
//! written (docs/protocol.md, "Clocks, strikes and the default action").
//!
//! Time is tokio's, so tests pause it and move it by hand.

use std::pin::Pin;
use std::task::{Context, Poll, ready};
use std::time::Duration;

use cardroom_games::Seat;
use cardroom_proto::pb;
use tokio::time::{Instant, Sleep};

/// A match's time rules, resolved against the server's defaults and limits.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct ClockRules {
    /// Time for one decision; beyond it the seat's bank pays.
    pub(crate) move_time: Duration,
    /// Each seat's bank for the whole match.
    pub(crate) bank_time: Duration,
    /// Strikes (timeouts) at which a seat forfeits.
    pub(crate) max_strikes: u32,
    /// Text replies refused in one turn at which a seat forfeits.
    pub(crate) max_bad_replies: u32,
    /// How long the turn of a seat without a connection waits for it, counted once from the
    /// drop (never longer than its clock).
    pub(crate) reconnect_grace: Duration,
}

impl ClockRules {
    /// The clock as `Joined` announces it.
    pub(crate) fn to_pb(self) -> pb::Clock {
        pb::Clock {
            move_ms: millis(self.move_time),
            bank_ms: millis(self.bank_time),
            max_bad_replies: self.max_bad_replies,
        }
    }
}

/// A duration in whole milliseconds for the wire, saturating.
fn millis(duration: Duration) -> u32 {
    duration.as_millis().try_into().unwrap_or(u32::MAX)
}

/// What a timeout did to its seat.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Strike {
    /// The seat's strikes, this one included.
    pub(crate) strikes: u32,
    /// Whether this strike makes the seat forfeit.
    pub(crate) forfeits: bool,
}

/// One seat's share of the clock.
#[derive(Clone, Debug)]
struct SeatTime {
    bank: Duration,
    strikes: u32,
    /// When the seat's last connection closed, while it has none.
    disconnected_at: Option<Instant>,
}

/// The clocks of a match: its rules, when the current decision was asked for, and every
/// seat's bank, strikes and connection state. Owned by the match task.
#[derive(Clone, Debug)]
pub(crate) struct Clock {
    rules: ClockRules,
    /// When the current decision was asked for.
    turn_started: Instant,
    seats: Vec<SeatTime>,
}

impl Clock {
    /// A clock for `seats` seats, none connected yet, every bank full; the first decision
    /// starts now.
    pub(crate) fn new(rules: ClockRules, seats: usize) -> Clock {
        let now = Instant::now();
        let seat = SeatTime { bank: rules.bank_time, strikes: 0, disconnected_at: Some(now) };
        Clock { rules, turn_started: now, seats: vec![seat; seats] }
    }

    /// The match's time rules.
    pub(crate) fn rules(&self) -> ClockRules {
        self.rules
    }

    /// A new decision starts at `now` (the caller reads the clock once for the decision just
    /// made and the next one).
    pub(crate) fn start_turn(&mut self, now: Instant) {
        self.turn_started = now;
    }

    /// `seat` has a connection again: its grace stops counting.
    pub(crate) fn connected(&mut self, seat: Seat) {
        self.seats[seat.index()].disconnected_at = None;
    }

    /// `seat` lost its connection now: its grace starts counting (once, from the drop).
    pub(crate) fn disconnected(&mut self, seat: Seat) {
        self.seats[seat.index()].disconnected_at = Some(Instant::now());
    }

    /// The strikes `seat` has taken.
    pub(crate) fn strikes(&self, seat: Seat) -> u32 {
        self.seats[seat.index()].strikes
    }

    /// The bank `seat` has left, the current decision not counted.
    #[cfg(test)]
    fn bank(&self, seat: Seat) -> Duration {
        self.seats[seat.index()].bank
    }

    /// What `seat`, deciding at `now`, has left of its move time and of its bank.
    pub(crate) fn left(&self, seat: Seat, now: Instant) -> (Duration, Duration) {
        let elapsed = now.duration_since(self.turn_started);
        let move_left = self.rules.move_time.saturating_sub(elapsed);
        (move_left, self.bank_after(seat, elapsed))
    }

    /// `seat`'s bank once a decision of `elapsed` has been paid for.
    fn bank_after(&self, seat: Seat, elapsed: Duration) -> Duration {
        let over = elapsed.saturating_sub(self.rules.move_time);
        self.seats[seat.index()].bank.saturating_sub(over)
    }

    /// When the decision of `seat` (the seat to act) times out: its move time and bank, or
    /// sooner the end of its reconnect grace when it has no connection (never before the
    /// decision started).
    pub(crate) fn deadline(&self, seat: Seat) -> Instant {
        let slot = &self.seats[seat.index()];
        let clock = self.turn_started + self.rules.move_time + slot.bank;
        match slot.disconnected_at {
            Some(at) => clock.min((at + self.rules.reconnect_grace).max(self.turn_started)),
            None => clock,
        }
    }

    /// `seat` decided at `now`: its bank pays what the decision took beyond the move time.
    pub(crate) fn decided(&mut self, seat: Seat, now: Instant) {
        let bank = self.bank_after(seat, now.duration_since(self.turn_started));
        self.seats[seat.index()].bank = bank;
    }

    /// `seat`'s decision timed out: a strike, and its bank is spent.
    pub(crate) fn strike(&mut self, seat: Seat) -> Strike {
        let slot = &mut self.seats[seat.index()];
        slot.strikes += 1;
        slot.bank = Duration::ZERO;
        Strike { strikes: slot.strikes, forfeits: slot.strikes >= self.rules.max_strikes }
    }
}

/// The timer of a match task's deadline, which nearly always moves later (each decision's is
/// its own start plus the clock). Moving a tokio timer costs a lock of the timer wheel, so the
/// timer is moved only when a deadline comes sooner than it is set for; a later deadline lets it
/// fire at the earlier time, then sets it again. A decision costs no timer work, and a match at
/// most one extra wake per move time.
pub(crate) struct DeadlineTimer {
    sleep: Pin<Box<Sleep>>,
}

impl DeadlineTimer {
    pub(crate) fn new() -> DeadlineTimer {
        DeadlineTimer { sleep: Box::pin(tokio::time::sleep_until(Instant::now())) }
    }

    /// Completes at `deadline`, not before.
    #[cfg(test)]
    async fn until(&mut self, deadline: Instant) {
        std::future::poll_fn(|cx| self.poll_until(deadline, cx)).await
    }

    /// Ready at `deadline`, not before. Pending, it has registered `cx` to be woken when the
    /// timer fires: at `deadline`, or at the earlier deadline it was set for (polled then, it
    /// sets itself again). A sooner deadline than any polled since must be polled at once.
    pub(crate) fn poll_until(&mut self, deadline: Instant, cx: &mut Context<'_>) -> Poll<()> {
        loop {
            if deadline < self.sleep.deadline() || self.sleep.is_elapsed() {
                self.sleep.as_mut().reset(deadline);
            }
            ready!(self.sleep.as_mut().poll(cx));
            if Instant::now() >= deadline {
                return Poll::Ready(());
            }
            // It was set for an earlier deadline: it is set again for this one.
        }
    }

    /// When the timer is set to fire.
    #[cfg(test)]
    fn set_for(&self) -> Instant {
        self.sleep.deadline()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SEAT: Seat = Seat(0);
    const OTHER: Seat = Seat(1);

    fn rules() -> ClockRules {
        ClockRules {
            max_bad_replies: 3,
            move_time: Duration::from_secs(2),
            bank_time: Duration::from_secs(10),
            max_strikes: 3,
            reconnect_grace: Duration::from_secs(5),
        }
    }

    /// A clock whose seats are both connected, the first decision just started.
    fn connected() -> Clock {
        let mut clock = Clock::new(rules(), 2);
        clock.connected(SEAT);
        clock.connected(OTHER);
        clock.start_turn(Instant::now());
        clock
    }

    async fn advance(ms: u64) {
        tokio::time::advance(Duration::from_millis(ms)).await;
    }

    #[tokio::test(start_paused = true)]
    async fn a_decision_within_the_move_time_costs_no_bank() {
        let mut clock = connected();
        let start = Instant::now();
        assert_eq!(clock.deadline(SEAT), start + Duration::from_secs(12));
        advance(1_500).await;
        assert_eq!(
            clock.left(SEAT, Instant::now()),
            (Duration::from_millis(500), Duration::from_secs(10))
        );
        clock.decided(SEAT, Instant::now());
        assert_eq!(clock.bank(SEAT), Duration::from_secs(10));
        // A time read before the decision started (by the caller, once for several uses)
        // counts as none of it.
        clock.start_turn(Instant::now());
        let before = Instant::now() - Duration::from_millis(1);
        assert_eq!(clock.left(SEAT, before), (Duration::from_secs(2), Duration::from_secs(10)));
    }

    #[tokio::test(start_paused = true)]
    async fn time_beyond_the_move_time_comes_out_of_the_bank() {
        let mut clock = connected();
        advance(5_000).await;
        assert_eq!(clock.left(SEAT, Instant::now()), (Duration::ZERO, Duration::from_secs(7)));
        clock.decided(SEAT, Instant::now());
        assert_eq!(clock.bank(SEAT), Duration::from_secs(7));
        // The next decision has the move time again and the smaller bank.
        clock.start_turn(Instant::now());
        let start = Instant::now();
        assert_eq!(clock.deadline(SEAT), start + Duration::from_secs(9));
        assert_eq!(
            clock.left(SEAT, Instant::now()),
            (Duration::from_secs(2), Duration::from_secs(7))
        );
        // The other seat's bank is its own.
        assert_eq!(clock.bank(OTHER), Duration::from_secs(10));
    }

    #[tokio::test(start_paused = true)]
    async fn a_bank_never_goes_below_zero() {
        let mut clock = connected();
        advance(60_000).await;
        assert_eq!(clock.left(SEAT, Instant::now()), (Duration::ZERO, Duration::ZERO));
        clock.decided(SEAT, Instant::now());
        assert_eq!(clock.bank(SEAT), Duration::ZERO);
        clock.start_turn(Instant::now());
        assert_eq!(clock.deadline(SEAT), Instant::now() + Duration::from_secs(2));
    }

    #[tokio::test(start_paused = true)]
    async fn strikes_empty_the_bank_and_the_last_one_forfeits() {
        let mut clock = connected();
        assert_eq!(clock.strike(SEAT), Strike { strikes: 1, forfeits: false });
        assert_eq!(clock.bank(SEAT), Duration::ZERO);
        assert_eq!(clock.strike(SEAT), Strike { strikes: 2, forfeits: false });
        assert_eq!(clock.strike(SEAT), Strike { strikes: 3, forfeits: true });
        assert_eq!(clock.strikes(SEAT), 3);
        assert_eq!((clock.strikes(OTHER), clock.bank(OTHER)), (0, Duration::from_secs(10)));
        let once = ClockRules { max_strikes: 1, ..rules() };
        assert_eq!(Clock::new(once, 2).strike(SEAT), Strike { strikes: 1, forfeits: true });
    }

    #[tokio::test(start_paused = true)]
    async fn a_seat_without_a_connection_waits_out_its_grace_counted_from_the_drop() {
        let mut clock = connected();
        let dropped = Instant::now();
        clock.disconnected(SEAT);
        assert_eq!(clock.deadline(SEAT), dropped + Duration::from_secs(5));
        // A later decision does not restart the grace: it still ends 5 s after the drop.
        advance(3_000).await;
        clock.start_turn(Instant::now());
        assert_eq!(clock.deadline(SEAT), dropped + Duration::from_secs(5));
        // Once it is over, the next decision times out as soon as it starts.
        advance(4_000).await;
        clock.start_turn(Instant::now());
        assert_eq!(clock.deadline(SEAT), Instant::now());
        // Back, the seat has its whole clock again.
        clock.connected(SEAT);
        assert_eq!(clock.deadline(SEAT), Instant::now() + Duration::from_secs(12));
    }

    #[tokio::test(start_paused = true)]
    async fn the_grace_never_outlasts_the_clock() {
        let long_grace = ClockRules { reconnect_grace: Duration::from_secs(60), ..rules() };
        let mut clock = Clock::new(long_grace, 2);
        clock.start_turn(Instant::now());
        assert_eq!(clock.deadline(SEAT), Instant::now() + Duration::from_secs(12));
    }

    #[test]
    fn the_wire_form_saturates() {
        let huge = ClockRules { bank_time: Duration::from_secs(10_000_000), ..rules() };
        assert_eq!(
            huge.to_pb(),
            pb::Clock { move_ms: 2_000, bank_ms: u32::MAX, max_bad_replies: 3 }
        );
    }

    #[tokio::test(start_paused = true)]
    async fn the_deadline_timer_fires_at_each_deadline_and_moves_only_for_a_sooner_one() {
        let start = Instant::now();
        let at = |ms| start + Duration::from_millis(ms);
        let mut timer = DeadlineTimer::new();
        timer.until(at(2_000)).await;
        assert_eq!(Instant::now(), at(2_000));
        // Set for 4 s; the deadline then moves to 5 s before it fires, as decisions go on.
        let sooner = tokio::time::timeout(Duration::from_millis(500), timer.until(at(4_000)));
        assert!(sooner.await.is_err(), "not before its deadline");
        assert_eq!(timer.set_for(), at(4_000));
        let _ = tokio::time::timeout(Duration::ZERO, timer.until(at(5_000))).await;
        assert_eq!(timer.set_for(), at(4_000), "a later deadline leaves the timer where it is");
        timer.until(at(5_000)).await;
        assert_eq!(Instant::now(), at(5_000), "fired at 4 s, set again, completed at 5 s");
        // A sooner deadline than the timer is set for moves it.
        let _ = tokio::time::timeout(Duration::ZERO, timer.until(at(9_000))).await;
        assert_eq!(timer.set_for(), at(9_000));
        timer.until(at(6_000)).await;
        assert_eq!(Instant::now(), at(6_000));
    }
}
