//! The `--timeout` rules every interactive front end shares (docs/interactive.md,
//! docs/plain-mode.md): no key for the timeout ends the flow (`Command::TimeOut`, exit 124,
//! the answers given so far kept); the last [`COUNTDOWN`] shows a countdown; any key starts
//! the time again. The scripted front end never times out.
//!
//! [`Deadline`] is pure: the time is passed in, so the front ends' tests run on a fake clock.
//! Each front end waits with [`Deadline::wait`] (up to the next change of what is shown),
//! draws [`Deadline::countdown`] while it is `Some`, calls [`Deadline::reset`] on a key, and
//! ends the flow with [`Deadline::message`] once [`Deadline::is_past`].

use std::time::{Duration, Instant};

/// How long before the end the countdown shows: 10 seconds.
pub const COUNTDOWN: Duration = Duration::from_secs(10);

/// When the flow times out: the timeout and the instant the last key started it from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Deadline {
    /// How long without a key ends the flow.
    idle: Duration,
    /// When it ends; `None` when that is past the end of time (a huge timeout).
    at: Option<Instant>,
}

impl Deadline {
    /// A deadline `idle` after `now`.
    pub fn new(idle: Duration, now: Instant) -> Self {
        Deadline {
            idle,
            at: now.checked_add(idle),
        }
    }

    /// A key came at `now`: the time starts again.
    pub fn reset(&mut self, now: Instant) {
        *self = Deadline::new(self.idle, now);
    }

    /// The timeout (`--timeout`).
    pub fn idle(&self) -> Duration {
        self.idle
    }

    /// The time left at `now` (`None`: no end in sight).
    pub fn left(&self, now: Instant) -> Option<Duration> {
        self.at.map(|at| at.saturating_duration_since(now))
    }

    /// Whether the time is up at `now`: the flow times out.
    pub fn is_past(&self, now: Instant) -> bool {
        self.left(now).is_some_and(|left| left.is_zero())
    }

    /// The seconds the countdown shows at `now` (the time left, rounded up), during the last
    /// [`COUNTDOWN`]; `None` before (and once the time is up).
    pub fn countdown(&self, now: Instant) -> Option<u64> {
        let left = self.left(now)?;
        if left.is_zero() || left > COUNTDOWN {
            return None;
        }
        Some(left.as_nanos().div_ceil(1_000_000_000) as u64)
    }

    /// How long to wait for a key at `now` before what is shown changes: until the countdown
    /// starts, then until its next second, then until the end. `None`: no end in sight.
    pub fn wait(&self, now: Instant) -> Option<Duration> {
        let left = self.left(now)?;
        Some(match self.countdown(now) {
            None if left > COUNTDOWN => left - COUNTDOWN,
            None => Duration::ZERO,
            Some(shown) => left.saturating_sub(Duration::from_secs(shown - 1)),
        })
    }

    /// What the timeout result says happened: "no key for 30 seconds"
    /// ([`crate::result::timeout_message`]).
    pub fn message(&self) -> String {
        crate::result::timeout_message(self.idle)
    }
}

/// The countdown line of the terminal front end, in the header: "Closing in 9 s without an
/// answer: press any key".
pub fn countdown_line(seconds: u64) -> String {
    format!("Closing in {seconds} s without an answer: press any key")
}

/// The countdown line of plain mode, printed once: "Closing in 10 s without an answer: type a
/// line to keep going".
pub fn plain_countdown_line(seconds: u64) -> String {
    format!("Closing in {seconds} s without an answer: type a line to keep going.")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(n: u64) -> Duration {
        Duration::from_secs(n)
    }

    #[test]
    fn the_countdown_shows_the_last_ten_seconds_rounded_up() {
        let t0 = Instant::now();
        let d = Deadline::new(s(30), t0);
        assert_eq!(d.countdown(t0), None);
        assert_eq!(d.wait(t0), Some(s(20)));
        assert_eq!(d.countdown(t0 + s(20)), Some(10));
        assert_eq!(d.wait(t0 + s(20)), Some(s(1)));
        let later = t0 + Duration::from_millis(20_300);
        assert_eq!(d.countdown(later), Some(10));
        assert_eq!(d.wait(later), Some(Duration::from_millis(700)));
        assert_eq!(d.countdown(t0 + s(29)), Some(1));
        assert!(!d.is_past(t0 + s(29)));
        assert_eq!(d.wait(t0 + s(29)), Some(s(1)));
        assert_eq!(d.countdown(t0 + s(30)), None);
        assert!(d.is_past(t0 + s(30)));
        assert_eq!(d.wait(t0 + s(31)), Some(Duration::ZERO));
        assert_eq!(d.message(), "no key for 30 seconds");
    }

    #[test]
    fn a_short_timeout_counts_down_from_the_start() {
        let t0 = Instant::now();
        let d = Deadline::new(Duration::from_millis(2500), t0);
        assert_eq!(d.countdown(t0), Some(3));
        assert_eq!(d.wait(t0), Some(Duration::from_millis(500)));
    }

    #[test]
    fn a_key_starts_the_time_again() {
        let t0 = Instant::now();
        let mut d = Deadline::new(s(12), t0);
        assert_eq!(d.countdown(t0 + s(5)), Some(7));
        d.reset(t0 + s(5));
        assert_eq!(d.countdown(t0 + s(5)), None);
        assert_eq!(d.left(t0 + s(5)), Some(s(12)));
    }

    #[test]
    fn a_timeout_past_the_end_of_time_never_ends() {
        let t0 = Instant::now();
        let d = Deadline::new(Duration::MAX, t0);
        assert_eq!(
            (d.wait(t0), d.countdown(t0), d.is_past(t0)),
            (None, None, false)
        );
    }
}
