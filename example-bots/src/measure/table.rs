//! The win-rate tables the measuring binaries print (`measure`, `gin-simple`): Markdown rows
//! with Wilson intervals, and the timing of the measured bot's decisions.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use cardroom_sdk::Bot;
use cardroom_sdk::games::Game;

use super::Tally;

/// Prints the head of a win-rate table (Markdown), as `example-bots/README.md` has it.
pub fn header() {
    println!(
        "| game | players | hero (1 seat) | others | matches | hero wins | win rate | 95% CI (Wilson) | even share | hero's average place |"
    );
    println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
}

/// Prints one row of the table [`header`] starts.
pub fn row(game: &str, players: u8, hero: &str, villain: &str, tally: Tally) {
    let (lo, hi) = tally.wilson95();
    println!(
        "| {game} | {players} | {hero} | {villain} | {} | {} | {:.1}% | {:.1}%–{:.1}% | {:.1}% | {:.2} |",
        tally.matches,
        tally.wins,
        100.0 * tally.win_rate(),
        100.0 * lo,
        100.0 * hi,
        100.0 / f64::from(players),
        tally.average_place(),
    );
}

/// Decisions with a choice, and the time spent on them.
pub type Clock = Arc<Mutex<(u64, Duration)>>;

/// A bot whose decisions with a choice are timed.
struct Timed<G: Game> {
    bot: Box<dyn Bot<G>>,
    clock: Clock,
}

impl<G: Game> Bot<G> for Timed<G>
where
    G: cardroom_sdk::PlayableGame,
{
    fn choose(&mut self, observation: &G::Observation) -> G::Action {
        let started = Instant::now();
        let action = self.bot.choose(observation);
        if G::legal_actions_of(observation).len() > 1 {
            let mut clock = self.clock.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            clock.0 += 1;
            clock.1 += started.elapsed();
        }
        action
    }

    fn comment(&mut self) -> Option<String> {
        self.bot.comment()
    }
}

/// Wraps a bot maker so that its decisions are timed on `clock`.
pub fn timed<G: cardroom_sdk::PlayableGame>(
    make: impl Fn(u64) -> Box<dyn Bot<G>>,
    clock: &Clock,
) -> impl Fn(u64) -> Box<dyn Bot<G>> {
    move |seed| Box::new(Timed { bot: make(seed), clock: Arc::clone(clock) })
}

/// Prints how long a row took and the search's average time per decision, to standard error.
pub fn report_time(started: Instant, clock: &Clock) {
    let (decisions, spent) = *clock.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let per = if decisions == 0 { 0.0 } else { spent.as_secs_f64() * 1000.0 / decisions as f64 };
    eprintln!(
        "  {:.0} s; {decisions} search decisions, {per:.1} ms each on average",
        started.elapsed().as_secs_f64()
    );
}
