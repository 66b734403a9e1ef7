//! The grace period of the first question (docs/interactive.md "Keys"): keys that arrive
//! within a short time after a questionnaire's first frame (or, in plain mode, a line completed
//! that soon after the first prompt) are not acted on, so a key typed for something else just
//! as the questions appear never answers a question nobody has read. The terminal (both
//! placements) and plain front ends share this rule; the bell or notification still comes at
//! once.

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

/// The grace period of one questionnaire: its length, then, once the first frame is up, when
/// it ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Grace {
    length: Duration,
    until: Option<Instant>,
}

impl Grace {
    /// A grace period of `length` (zero: off), not started.
    pub fn new(length: Duration) -> Self {
        Grace {
            length,
            until: None,
        }
    }

    /// The first frame (the first prompt) is up at `at`: the grace runs from here; later calls
    /// change nothing.
    pub fn start(&mut self, at: Instant) {
        if self.until.is_none() {
            self.until = Some(at + self.length);
        }
    }

    /// How much of the grace is left at `now`: `Some` while a key arriving now is not acted
    /// on; `None` before the start, after the end, and when it is off.
    pub fn left(&self, now: Instant) -> Option<Duration> {
        let left = self.until?.saturating_duration_since(now);
        (!left.is_zero()).then_some(left)
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
