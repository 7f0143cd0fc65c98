//! When a sustained test has its answer: a pure rule over the per-second
//! series seen so far, asked once a second while fio runs (see
//! `src/run/watch.rs`). `docs/run.md` ("How the sustained tests stop")
//! says the same in words.
//!
//! - a credit burst seen ([`detect()`] finds `credit-burst` in the series
//!   so far) and the level after it steady through the SNIA window (five
//!   rounds, the detector's rounds at the window's scale) → stop,
//!   `burst-then-steady`;
//! - one level from the start, steady, for at least [`MIN_FLAT_S`] (scaled
//!   as the detector scales its windows), and that level cannot be a burst
//!   ([`Bursting`]) → stop, `flat-no-burst-possible`;
//! - otherwise run on, to the end of the window.

use super::detect::{detect, steady_state, FULL_SCALE_S, SKIP_S};
use crate::record::{Pattern, StopReason};

/// How long a flat volume is watched before it may stop, at the full
/// scale (a window of [`FULL_SCALE_S`] or longer); a shorter window scales
/// it by `window / FULL_SCALE_S`, as the detector scales its own windows.
pub const MIN_FLAT_S: f64 = 240.0;

/// Rounds of the SNIA steady-state window the level after a burst must
/// hold.
pub const STEADY_ROUNDS: usize = 5;

/// What is known of a volume's bursts, in the unit of the watched series
/// (IOPS, or B/s for a throughput test).
#[derive(Clone, Debug, PartialEq)]
pub enum Bursting {
    /// The offering is known not to burst (`--limits` has rows for it,
    /// none with a burst level).
    Never,
    /// Levels a burst may run at: the offering's own burst level, or,
    /// without a row for it, every burst level `--limits` knows.
    Levels(Vec<f64>),
    /// Nothing is known (no `--limits`, or a row that gives a burst level
    /// for the other unit only): any flat level could be a burst.
    Unknown,
}

impl Bursting {
    /// Whether a flat `level` could be a burst still running: it lies
    /// within `tolerance` (a fraction, the detector's) of a known burst
    /// level, or nothing is known.
    pub fn could_be_burst(&self, level: f64, tolerance: f64) -> bool {
        match self {
            Bursting::Never => false,
            Bursting::Levels(levels) => levels
                .iter()
                .any(|b| (level - b).abs() <= tolerance * b.abs()),
            Bursting::Unknown => true,
        }
    }

    /// How the dry run says it: `flat stops after 4 min unless at a known
    /// burst level`.
    pub fn words(&self) -> &'static str {
        match self {
            Bursting::Never => "the offering is known not to burst (published limits)",
            Bursting::Levels(_) => {
                "a flat level at a published burst level runs the whole window"
            }
            Bursting::Unknown => {
                "nothing is known of the volume's bursts (no published limits row): a flat volume runs the whole window"
            }
        }
    }
}

/// The scale of a window of `window_s` seconds: 1 from [`FULL_SCALE_S`]
/// up, less for a shorter one.
fn scale(window_s: f64) -> f64 {
    (window_s / FULL_SCALE_S).clamp(0.0, 1.0)
}

/// One steady-state round of a window of `window_s`, seconds: the
/// detector's 60 s, scaled, at least one sample.
pub fn round_s(window_s: f64, interval_s: f64) -> f64 {
    (60.0 * scale(window_s)).max(interval_s)
}

/// The earliest drop of a credit burst the rule accepts in a window of
/// `window_s`: the detector's 30 s, scaled, at least three samples.
pub fn min_drop_s(window_s: f64, interval_s: f64) -> f64 {
    (30.0 * scale(window_s)).max(3.0 * interval_s)
}

/// The earliest a flat volume may stop in a window of `window_s` seconds.
pub fn min_flat_s(window_s: f64, interval_s: f64) -> f64 {
    // at least the detector's own minimum of samples after its skip
    (MIN_FLAT_S * scale(window_s)).max(SKIP_S + 12.0 * interval_s)
}

/// The earliest a watched test of a window of `window_s` can stop: a
/// flat volume's minimum where a flat level may stop (`bursting` is not
/// [`Bursting::Unknown`]), else a burst's: the detector's earliest drop
/// (30 s, scaled) and the steady-state window after it.
pub fn earliest_stop_s(window_s: f64, interval_s: f64, bursting: &Bursting) -> f64 {
    let burst =
        min_drop_s(window_s, interval_s) + STEADY_ROUNDS as f64 * round_s(window_s, interval_s);
    let earliest = match bursting {
        Bursting::Unknown => burst,
        _ => min_flat_s(window_s, interval_s).min(burst),
    };
    // the detector classifies nothing before ten samples after its skip
    earliest.max(SKIP_S + 10.0 * interval_s).min(window_s)
}

/// Whether the test may stop now, and why: `samples` is the series so
/// far (one value per `interval_s`, from the start), `window_s` the
/// longest the test may run. `None`: run on.
pub fn should_stop(
    samples: &[f64],
    interval_s: f64,
    window_s: f64,
    bursting: &Bursting,
) -> Option<StopReason> {
    let d = detect(samples, interval_s)?;
    let elapsed = samples.len() as f64 * interval_s;
    let round = round_s(window_s, interval_s);
    let per = ((round / interval_s).round() as usize).max(1);
    match d.pattern {
        Pattern::CreditBurst => {
            let t_drop = d.burst_duration_s?;
            // a drop earlier than the detector's earliest at the window's
            // scale is the start of the run settling, not a bucket; and a
            // level after it at a known burst level is a burst still running
            if t_drop < min_drop_s(window_s, interval_s)
                || matches!(bursting, Bursting::Levels(_))
                    && bursting.could_be_burst(d.sustained, d.tolerance)
            {
                return None;
            }
            let after = ((t_drop / interval_s).ceil() as usize).min(samples.len());
            let tail = &samples[after..];
            if tail.len() < STEADY_ROUNDS * per {
                return None;
            }
            let ss = steady_state(tail, interval_s, round);
            // and the record's own steady-state test, at the run's scale,
            // agrees: a record never says it stopped steady without it
            (ss.reached && d.steady.reached).then_some(StopReason::BurstThenSteady)
        }
        Pattern::Flat => {
            if elapsed < min_flat_s(window_s, interval_s) {
                return None;
            }
            let skip = ((SKIP_S / interval_s).round() as usize).min(samples.len());
            let ss = steady_state(&samples[skip..], interval_s, round);
            (ss.reached && d.steady.reached && !bursting.could_be_burst(d.sustained, d.tolerance))
                .then_some(StopReason::FlatNoBurstPossible)
        }
        Pattern::PeriodicBurst | Pattern::NotExhausted => None,
    }
}

/// Whether a test that ran its whole window (`window-end`,
/// `full-window-requested`) leaves a longer burst possible: it ended flat
/// or still high at a level that could be a burst. A series too short to
/// classify leaves it possible.
pub fn burst_not_excluded(samples: &[f64], interval_s: f64, bursting: &Bursting) -> bool {
    match detect(samples, interval_s) {
        None => true,
        Some(d) => match d.pattern {
            Pattern::Flat | Pattern::NotExhausted => {
                bursting.could_be_burst(d.sustained, d.tolerance)
            }
            Pattern::CreditBurst | Pattern::PeriodicBurst => false,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A deterministic wobble of ±`pct`% around `level`.
    fn noisy(level: f64, n: usize, pct: f64, seed: u64) -> Vec<f64> {
        let mut x = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
        (0..n)
            .map(|_| {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let u = (x >> 11) as f64 / (1u64 << 53) as f64;
                level * (1.0 + pct / 100.0 * (2.0 * u - 1.0))
            })
            .collect()
    }

    /// The first second at which the rule stops a series fed one sample at
    /// a time, and why.
    fn first_stop(series: &[f64], window_s: f64, b: &Bursting) -> Option<(usize, StopReason)> {
        (1..=series.len()).find_map(|n| should_stop(&series[..n], 1.0, window_s, b).map(|r| (n, r)))
    }

    const WINDOW: f64 = 2700.0;

    #[test]
    fn a_flat_volume_that_cannot_burst_stops_after_four_minutes() {
        let flat = noisy(3000.0, 2700, 5.0, 1);
        let (at, why) = first_stop(&flat, WINDOW, &Bursting::Never).unwrap();
        assert_eq!(why, StopReason::FlatNoBurstPossible);
        assert_eq!(at, 240);
        // the level is no burst level of the list: the same
        let levels = Bursting::Levels(vec![16000.0, 30000.0]);
        assert_eq!(first_stop(&flat, WINDOW, &levels).unwrap().0, 240);
    }

    #[test]
    fn a_flat_level_at_a_known_burst_level_or_unknown_runs_the_whole_window() {
        let flat = noisy(3000.0, 2700, 5.0, 2);
        // gp2's 3,000 IOPS burst: flat at 3,000 may be a burst still running
        assert_eq!(
            first_stop(&flat, WINDOW, &Bursting::Levels(vec![3000.0])),
            None
        );
        assert_eq!(
            first_stop(&flat[..600], WINDOW, &Bursting::Levels(vec![3100.0])),
            None
        );
        assert_eq!(first_stop(&flat[..600], WINDOW, &Bursting::Unknown), None);
        assert!(burst_not_excluded(&flat, 1.0, &Bursting::Unknown));
        assert!(burst_not_excluded(
            &flat,
            1.0,
            &Bursting::Levels(vec![3000.0])
        ));
        assert!(!burst_not_excluded(&flat, 1.0, &Bursting::Never));
        assert!(!burst_not_excluded(
            &flat,
            1.0,
            &Bursting::Levels(vec![16000.0])
        ));
    }

    #[test]
    fn a_credit_burst_stops_five_rounds_after_its_drop() {
        // gp2-like: 3,000 IOPS for 30 minutes, then 300
        let mut s = noisy(3000.0, 1800, 3.0, 3);
        s.extend(noisy(300.0, 900, 3.0, 4));
        let (at, why) = first_stop(&s, WINDOW, &Bursting::Levels(vec![3000.0])).unwrap();
        assert_eq!(why, StopReason::BurstThenSteady);
        // 1,800 s of burst, then five 60 s rounds of the level after it
        assert!((2100..=2130).contains(&at), "stopped at {at}");
        // nothing known changes nothing here: the burst was seen
        assert_eq!(first_stop(&s, WINDOW, &Bursting::Unknown).unwrap().0, at);
        assert!(!burst_not_excluded(&s, 1.0, &Bursting::Unknown));
    }

    #[test]
    fn a_burst_longer_than_the_window_never_stops_early() {
        // gp2 at 500 GiB: a 60-minute burst in a 45-minute window
        let s = noisy(3000.0, 2700, 3.0, 5);
        assert_eq!(
            first_stop(&s, WINDOW, &Bursting::Levels(vec![3000.0])),
            None
        );
        assert!(burst_not_excluded(&s, 1.0, &Bursting::Levels(vec![3000.0])));
    }

    #[test]
    fn a_short_step_at_the_start_or_a_drop_to_a_burst_level_is_no_answer() {
        // 3,500 for 10 s as the run settles, then a 3,000 burst for the
        // whole window: not a burst seen and its end
        let mut s = noisy(3500.0, 10, 2.0, 7);
        s.extend(noisy(3000.0, 2690, 2.0, 8));
        let gp2 = Bursting::Levels(vec![3000.0]);
        assert_eq!(first_stop(&s, WINDOW, &gp2), None);
        // a real drop, but to 3,000, where the list knows bursts at 6,000
        // and 3,000: a second burst level is still a burst
        let mut s = noisy(6000.0, 600, 2.0, 9);
        s.extend(noisy(3000.0, 900, 2.0, 10));
        let two = Bursting::Levels(vec![6000.0, 3000.0]);
        assert_eq!(first_stop(&s, WINDOW, &two), None);
        // the same drop where 3,000 is no burst level: answered
        assert_eq!(
            first_stop(&s, WINDOW, &Bursting::Levels(vec![6000.0])).map(|x| x.1),
            Some(StopReason::BurstThenSteady)
        );
    }

    #[test]
    fn a_periodic_volume_is_not_stopped() {
        // 60 s at 2,000, 60 s at 200, for 20 minutes
        let s: Vec<f64> = (0..1200)
            .map(|i| if (i / 60) % 2 == 0 { 2000.0 } else { 200.0 })
            .collect();
        assert_eq!(first_stop(&s, 1200.0, &Bursting::Never), None);
        assert!(!burst_not_excluded(&s, 1.0, &Bursting::Unknown));
    }

    #[test]
    fn short_windows_scale_the_minimum_and_the_rounds() {
        // a 2-minute window: 16 s of flat, rounds of 4 s
        assert_eq!(min_flat_s(120.0, 1.0), 16.0);
        assert_eq!(round_s(120.0, 1.0), 4.0);
        assert_eq!(min_flat_s(2700.0, 1.0), 240.0);
        assert_eq!(min_flat_s(1200.0, 1.0), 160.0);
        let flat = noisy(200.0, 120, 5.0, 6);
        assert_eq!(
            first_stop(&flat, 120.0, &Bursting::Never),
            Some((16, StopReason::FlatNoBurstPossible))
        );
    }

    #[test]
    fn a_flat_volume_stops_only_where_its_record_will_say_steady() {
        // the first 16 s of a 200-IOPS throttle on a loaded machine: steady
        // in 4-s rounds, not in the 1-s rounds a 16-s record is judged by
        // (the last five seconds span 179 to 220, 20.5% of their mean)
        let s = [
            200.0, 220.0, 200.0, 180.0, 174.0, 200.0, 180.0, 239.0, 200.0, 200.0, 200.0, 200.0,
            179.0, 220.0, 200.0, 200.0,
        ];
        let record = detect(&s, 1.0).unwrap();
        assert!(!record.steady.reached, "{:?}", record.steady);
        assert_eq!(should_stop(&s, 1.0, 120.0, &Bursting::Never), None);
        // a few seconds more at the level, and both agree
        let mut longer = s.to_vec();
        longer.extend([200.0; 6]);
        assert!(detect(&longer, 1.0).unwrap().steady.reached);
        assert_eq!(
            should_stop(&longer, 1.0, 120.0, &Bursting::Never),
            Some(StopReason::FlatNoBurstPossible)
        );
    }

    #[test]
    fn the_earliest_stop_is_a_flat_minimum_or_a_burst_and_its_window() {
        assert_eq!(earliest_stop_s(2700.0, 1.0, &Bursting::Never), 240.0);
        assert_eq!(
            earliest_stop_s(2700.0, 1.0, &Bursting::Levels(vec![3000.0])),
            240.0
        );
        // nothing known: only a burst seen ends it early
        assert_eq!(earliest_stop_s(2700.0, 1.0, &Bursting::Unknown), 330.0);
        assert_eq!(earliest_stop_s(10.0, 1.0, &Bursting::Never), 10.0);
    }

    #[test]
    fn could_be_burst_uses_the_tolerance_around_the_burst_level() {
        let b = Bursting::Levels(vec![3000.0]);
        assert!(b.could_be_burst(2750.0, 0.10));
        assert!(!b.could_be_burst(2650.0, 0.10));
        assert!(b.could_be_burst(2650.0, 0.15));
        assert!(!Bursting::Levels(vec![]).could_be_burst(2650.0, 0.5));
    }
}
