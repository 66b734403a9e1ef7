//! The grace period of the first question (docs/interactive.md "Keys"): keys that arrive
//! within a short time after a questionnaire's first frame (or, in plain mode, a line completed
//! that soon after the first prompt) are not acted on, so a key typed for something else just
//! as the questions appear never answers a question nobody has read. A burst is dropped whole
//! (a selection key dropped, the Enter after it acted on, would choose what nobody chose): the
//! grace runs again from each dropped key, up to [`CAP`] lengths in all. The terminal (both
//! placements, an editor opened by the first frame too) and plain front ends share this rule
//! and say once that keys were dropped; the bell or notification still comes at once.

use std::time::{Duration, Instant};

/// The grace period when `PI_ASK_KEY_GRACE` is not set.
pub const DEFAULT: Duration = Duration::from_millis(250);

/// The longest grace period `PI_ASK_KEY_GRACE` may ask for.
pub const MAX: Duration = Duration::from_millis(5_000);

/// Reads `PI_ASK_KEY_GRACE`'s value: whole milliseconds from 0 (off) to [`MAX`], blanks
/// around it ignored.
///
/// Errors: not a whole number of milliseconds, or more than [`MAX`]; the message says what
/// the value may be.
pub fn parse(value: &str) -> Result<Duration, String> {
    let why = || {
        format!(
            "it is a whole number of milliseconds from 0 (off) to {}",
            MAX.as_millis()
        )
    };
    let ms: u64 = value.trim().parse().map_err(|_| why())?;
    let grace = Duration::from_millis(ms);
    if grace > MAX {
        return Err(why());
    }
    Ok(grace)
}

/// How many grace lengths a burst of dropped keys may last at most, from the first frame: a
/// held key (its repeats never stop) cannot keep the questions from answering for longer.
pub const CAP: u32 = 4;

/// The grace period of one questionnaire: once the first frame (the first prompt) is up, a key
/// (in plain mode, a line) that comes within its length is dropped, and so is every key of the
/// same burst: each dropped key starts the length again, until it passes with no key or
/// [`CAP`] lengths have passed since the first frame, whichever comes first. From then on
/// every key is acted on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Grace {
    length: Duration,
    /// When the first frame was up.
    started: Option<Instant>,
    /// When the grace ends if no key comes: the first frame's time, then the last dropped
    /// key's, plus the length (at most the cap).
    until: Option<Instant>,
    /// Keys dropped so far.
    dropped: usize,
}

impl Grace {
    /// A grace period of `length` (zero: off), not started.
    pub fn new(length: Duration) -> Self {
        Grace {
            length,
            started: None,
            until: None,
            dropped: 0,
        }
    }

    /// How long an Enter after a digit that chose an option and moved on is that choice's own
    /// confirmation (`3` then Enter, a person's habit, the two keys 100-300 ms apart): twice
    /// the grace, 500 ms by default; off with it (docs/interactive.md "Type-ahead").
    pub fn choice_confirmation(&self) -> Duration {
        self.length * 2
    }

    /// The first frame (the first prompt) is up at `at`: the grace runs from here; later calls
    /// change nothing.
    pub fn start(&mut self, at: Instant) {
        if self.started.is_none() {
            self.started = Some(at);
            self.until = Some(at + self.length);
        }
    }

    /// How much of the grace is left at `now` if no key comes: `Some` while a key arriving now
    /// is dropped; `None` before the start, after the end, and when it is off.
    pub fn left(&self, now: Instant) -> Option<Duration> {
        let left = self.until?.saturating_duration_since(now);
        (!left.is_zero()).then_some(left)
    }

    /// A key (plain mode: a line) came at `now`: whether it is dropped (within the grace: the
    /// grace then runs for its length again from `now`, up to the cap) or acted on.
    pub fn drops(&mut self, now: Instant) -> bool {
        let (Some(_), Some(started)) = (self.left(now), self.started) else {
            return false;
        };
        self.dropped += 1;
        let cap = started + self.length * CAP;
        self.until = Some((now + self.length).min(cap));
        true
    }

    /// Input came within the grace and was not a whole key yet when the wait for it ended at
    /// `now` (the start of an escape sequence, a UTF-8 character or a paste): the burst goes
    /// on, as from a dropped key (the grace runs for its length again from `now`, up to the
    /// cap), so the key is dropped whole when it completes. Nothing before the start.
    pub fn extend(&mut self, now: Instant) {
        let (Some(started), Some(until)) = (self.started, self.until) else {
            return;
        };
        let cap = started + self.length * CAP;
        self.until = Some(until.max((now + self.length).min(cap)));
    }

    /// How many keys (plain mode: lines) were dropped so far: the front ends say so once.
    pub fn dropped(&self) -> usize {
        self.dropped
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_grace_runs_from_the_first_frame_for_its_length_and_zero_is_off() {
        let t = Instant::now();
        let mut g = Grace::new(DEFAULT);
        assert_eq!(g.left(t), None);
        g.start(t);
        g.start(t + Duration::from_secs(9));
        assert_eq!(
            g.left(t + Duration::from_millis(100)),
            Some(Duration::from_millis(150))
        );
        assert_eq!(g.left(t + DEFAULT), None);
        let mut off = Grace::new(Duration::ZERO);
        off.start(t);
        assert_eq!(off.left(t), None);
    }

    #[test]
    fn a_burst_is_dropped_whole_until_the_length_passes_with_no_key() {
        let t = Instant::now();
        let ms = Duration::from_millis;
        let mut g = Grace::new(DEFAULT);
        // Before the first frame no key is the grace's.
        assert!(!g.drops(t));
        g.start(t);
        // "2" at 200 ms and Enter at 300 ms: both dropped (Enter is within 250 ms of "2").
        assert!(g.drops(t + ms(200)));
        assert_eq!(g.left(t + ms(300)), Some(ms(150)));
        assert!(g.drops(t + ms(300)));
        assert_eq!(g.dropped(), 2);
        // 250 ms with no key: over, for good.
        assert_eq!(g.left(t + ms(550)), None);
        assert!(!g.drops(t + ms(550)));
        assert!(!g.drops(t + ms(600)));
        assert_eq!(g.dropped(), 2);
        // A key that comes after the grace ran out with none is acted on.
        let mut g = Grace::new(DEFAULT);
        g.start(t);
        assert!(!g.drops(t + ms(250)));
        assert_eq!(g.dropped(), 0);
    }

    #[test]
    fn a_held_key_is_dropped_for_at_most_the_cap() {
        let t = Instant::now();
        let ms = Duration::from_millis;
        let mut g = Grace::new(DEFAULT);
        g.start(t);
        // A key every 30 ms (a held key's repeats): dropped up to 4 x 250 ms, then acted on.
        let mut at = ms(30);
        while at < DEFAULT * CAP {
            assert!(g.drops(t + at), "{at:?}");
            at += ms(30);
        }
        assert_eq!(g.left(t + ms(990)), Some(ms(10)));
        assert!(!g.drops(t + DEFAULT * CAP));
        // Off: nothing is ever dropped.
        let mut off = Grace::new(Duration::ZERO);
        off.start(t);
        assert!(!off.drops(t));
        assert_eq!(off.dropped(), 0);
    }

    #[test]
    fn a_key_begun_within_the_grace_extends_it_up_to_the_cap() {
        let t = Instant::now();
        let ms = Duration::from_millis;
        let mut g = Grace::new(DEFAULT);
        // Before the start: nothing to extend.
        g.extend(t);
        assert_eq!(g.left(t), None);
        g.start(t);
        // An ESC at 240 ms, the wait ended at 250 ms with it incomplete: the rest of it, at
        // 260 ms, is dropped (and the grace runs on from there).
        g.extend(t + ms(250));
        assert_eq!(g.left(t + ms(260)), Some(ms(240)));
        assert!(g.drops(t + ms(260)));
        assert_eq!(g.dropped(), 1);
        // Never past the cap.
        g.extend(t + ms(990));
        assert_eq!(g.left(t + DEFAULT * CAP), None);
        // Off: nothing.
        let mut off = Grace::new(Duration::ZERO);
        off.start(t);
        off.extend(t);
        assert_eq!(off.left(t), None);
    }

    #[test]
    fn the_setting_is_whole_milliseconds_up_to_the_bound() {
        assert_eq!(parse(" 0 "), Ok(Duration::ZERO));
        assert_eq!(parse("400"), Ok(Duration::from_millis(400)));
        assert_eq!(parse("5000"), Ok(MAX));
        for bad in ["5001", "-1", "0.5", "250ms", ""] {
            assert_eq!(
                parse(bad),
                Err("it is a whole number of milliseconds from 0 (off) to 5000".to_string()),
                "{bad}"
            );
        }
    }
}
