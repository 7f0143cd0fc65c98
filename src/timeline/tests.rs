use super::detect::{changes, settled_from};
use super::*;

/// Deterministic noise in [-1, 1): a linear congruential generator.
fn noise(n: usize, seed: u64) -> Vec<f64> {
    let mut s = seed;
    (0..n)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((s >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
        })
        .collect()
}

fn with_noise(v: Vec<f64>, amp: f64, seed: u64) -> Vec<f64> {
    v.iter()
        .zip(noise(v.len(), seed))
        .map(|(x, n)| x * (1.0 + amp * n))
        .collect()
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * b.abs()
}

#[test]
fn gp2_bucket_is_found_with_its_volume() {
    // a 100 GB gp2 volume: 3000 IOPS for 2000 s, then 300, run 45 min
    let series: Vec<f64> = (0..2700)
        .map(|i| if i < 2000 { 3000.0 } else { 300.0 })
        .collect();
    let d = detect(&with_noise(series, 0.05, 1), 1.0).unwrap();
    assert_eq!(d.pattern, Pattern::CreditBurst);
    assert!(close(d.burst.unwrap(), 3000.0, 0.02), "{:?}", d.burst);
    assert!(close(d.sustained, 300.0, 0.02), "{}", d.sustained);
    let t = d.burst_duration_s.unwrap();
    assert!((t - 2000.0).abs() <= 10.0, "{t}");
    // (3000 - 300) IOPS for 2000 s: 5.4 M I/Os
    let v = d.burst_volume.unwrap();
    assert!(close(v, 5.4e6, 0.02), "{v}");
    assert!(d.steady.reached, "{:?}", d.steady);
}

#[test]
fn exact_gp2_numbers() {
    let series: Vec<f64> = (0..2700)
        .map(|i| if i < 2000 { 3000.0 } else { 300.0 })
        .collect();
    let d = detect(&series, 1.0).unwrap();
    assert_eq!(d.burst, Some(3000.0));
    assert_eq!(d.sustained, 300.0);
    assert_eq!(d.burst_duration_s, Some(2000.0));
    assert_eq!(d.burst_volume, Some(2700.0 * 2000.0));
    assert_eq!(d.steady.range_pct, 0.0);
    assert_eq!(d.steady.slope_pct, 0.0);
    assert_eq!(d.steady.round_s, 60.0);
}

#[test]
fn noise_of_15_percent_around_one_level_is_flat() {
    let d = detect(&with_noise(vec![1000.0; 1800], 0.15, 7), 1.0).unwrap();
    assert_eq!(d.pattern, Pattern::Flat, "{:?}", d.steady);
    assert!(close(d.sustained, 1000.0, 0.03));
    assert!(d.steady.reached && d.steady.range_pct < 20.0);
    assert_eq!(d.burst, None);
}

#[test]
fn a_burst_shorter_than_30_s_is_not_a_credit_burst() {
    // 20 s of 3000 after the skipped seconds, then 300 for half an hour
    let series: Vec<f64> = (0..1800)
        .map(|i| if i < 23 { 3000.0 } else { 300.0 })
        .collect();
    let d = detect(&series, 1.0).unwrap();
    assert_eq!(d.pattern, Pattern::Flat);
    assert_eq!(d.sustained, 300.0);
    assert_eq!(d.burst_duration_s, None);
}

#[test]
fn a_drop_in_the_last_5_percent_is_not_exhausted() {
    let series: Vec<f64> = (0..2000)
        .map(|i| if i < 1920 { 3000.0 } else { 300.0 })
        .collect();
    let d = detect(&series, 1.0).unwrap();
    assert_eq!(d.pattern, Pattern::NotExhausted);
    assert_eq!(d.burst, None);
    // S is a bound: the level the run had not yet left
    assert_eq!(d.sustained, 3000.0);
    assert!(!d.steady.reached, "{:?}", d.steady);
}

#[test]
fn a_level_still_falling_at_the_end_is_not_exhausted() {
    let series: Vec<f64> = (0..1800).map(|i| 3000.0 - i as f64).collect();
    let d = detect(&series, 1.0).unwrap();
    assert_eq!(d.pattern, Pattern::NotExhausted);
    assert!(!d.steady.reached);
    assert!(d.steady.slope_pct > 10.0);
}

#[test]
fn a_60_s_periodic_burst() {
    // 20 s at 3000, 40 s at 500, for half an hour
    let series: Vec<f64> = (0..1800)
        .map(|i| if i % 60 < 20 { 3000.0 } else { 500.0 })
        .collect();
    let d = detect(&with_noise(series, 0.05, 3), 1.0).unwrap();
    assert_eq!(d.pattern, Pattern::PeriodicBurst);
    assert!(close(d.burst.unwrap(), 3000.0, 0.03));
    assert!(close(d.sustained, 500.0, 0.03));
    let (on, off) = (d.on_s.unwrap(), d.off_s.unwrap());
    assert!(
        (on - 20.0).abs() <= 2.0 && (off - 40.0).abs() <= 2.0,
        "{on} {off}"
    );
}

/// A series at `level` whose every second strays by up to `amp` (a
/// fraction, uniform), `n` seconds long.
fn noisy(level: f64, n: usize, amp: f64, seed: u64) -> Vec<f64> {
    with_noise(vec![level; n], amp, seed)
}

#[test]
fn a_flat_volume_with_15_percent_noise_is_flat_at_any_length() {
    // an HDD's per-second IOPS, +-15% around 1,000, from a 1-minute
    // run (3-sample rolling median) to a 45-minute one; the sustained
    // level and the steady state never contradict each other
    for n in [60, 120, 300, 600, 1200, 2700] {
        for seed in 1..=20 {
            let d = detect(&noisy(1000.0, n, 0.15, seed), 1.0).unwrap();
            assert_eq!(d.pattern, Pattern::Flat, "{n} s, seed {seed}: {d:?}");
            assert!(
                close(d.sustained, 1000.0, 0.1),
                "{n} {seed} {}",
                d.sustained
            );
            assert_eq!(d.burst, None);
            assert!(d.tolerance >= MIN_TOLERANCE && d.tolerance <= MAX_TOLERANCE);
        }
    }
    // the tolerance comes from the noise: a quiet run keeps 10%, a
    // noisy short one gets more
    let quiet = detect(&noisy(1000.0, 120, 0.01, 1), 1.0).unwrap();
    assert_eq!(quiet.tolerance, MIN_TOLERANCE);
    let loud = detect(&noisy(1000.0, 120, 0.15, 1), 1.0).unwrap();
    assert!(loud.tolerance > 0.15, "{}", loud.tolerance);
    assert_eq!(loud.length_s, 120.0);
}

#[test]
fn noise_does_not_hide_a_burst_or_a_fall() {
    // the same noise on a 2-minute credit burst: 2,000 for 22 s, then 200
    let series: Vec<f64> = (0..120)
        .map(|i| if i < 22 { 2000.0 } else { 200.0 })
        .collect();
    for seed in 1..=10 {
        let d = detect(&with_noise(series.clone(), 0.15, seed), 1.0).unwrap();
        assert_eq!(d.pattern, Pattern::CreditBurst, "seed {seed}: {d:?}");
        assert!(close(d.burst.unwrap(), 2000.0, 0.1), "{d:?}");
        assert!(close(d.sustained, 200.0, 0.1), "{}", d.sustained);
        let t = d.burst_duration_s.unwrap();
        assert!((t - 22.0).abs() <= 2.0, "seed {seed}: {t}");
    }
    // and a level still falling 30% over the run is not a level
    let falling: Vec<f64> = (0..600).map(|i| 1000.0 - 0.5 * i as f64).collect();
    let d = detect(&with_noise(falling, 0.15, 4), 1.0).unwrap();
    assert_eq!(d.pattern, Pattern::NotExhausted, "{d:?}");
}

/// A throttle's jitter: `level` alternating `swing` (a fraction) above
/// and below it, `slice` seconds at a time.
fn jitter(level: f64, swing: f64, slice: usize, i: usize) -> f64 {
    if (i / slice) % 2 == 0 {
        level * (1.0 + swing)
    } else {
        level * (1.0 - swing)
    }
}

#[test]
fn a_throttle_jittering_around_its_level_is_that_level() {
    // a real cgroup throttle after the bucket empties: 2,000 IOPS for
    // 22 s, then 200 alternating 12% each second (224, 176, ...)
    let series: Vec<f64> = (0..120)
        .map(|i| {
            if i < 22 {
                2000.0
            } else {
                jitter(200.0, 0.12, 1, i)
            }
        })
        .collect();
    let d = detect(&series, 1.0).unwrap();
    assert_eq!(d.pattern, Pattern::CreditBurst, "{d:?}");
    assert_eq!(d.burst, Some(2000.0));
    assert_eq!(d.burst_duration_s, Some(22.0));
    assert!(close(d.sustained, 200.0, 0.13), "{}", d.sustained);
    // 45 minutes of gp2 whose baseline swings 12% in 3 s slices: its
    // 15 s rolling median alternates between 264 and 336, a few
    // samples at a time
    let series: Vec<f64> = (0..2700)
        .map(|i| {
            if i < 2000 {
                3000.0
            } else {
                jitter(300.0, 0.12, 3, i)
            }
        })
        .collect();
    let d = detect(&series, 1.0).unwrap();
    assert_eq!(d.pattern, Pattern::CreditBurst, "{d:?}");
    assert_eq!(d.burst, Some(3000.0));
    let t = d.burst_duration_s.unwrap();
    assert!((t - 2000.0).abs() <= 10.0, "{t}");
    // the same baseline without the burst is flat, not periodic and not
    // "not exhausted": a 24% swing is the level's noise, not two levels
    let series: Vec<f64> = (0..2700).map(|i| jitter(300.0, 0.12, 3, i)).collect();
    let d = detect(&series, 1.0).unwrap();
    assert_eq!(d.pattern, Pattern::Flat, "{d:?}");
    assert!(close(d.sustained, 300.0, 0.13), "{}", d.sustained);
    let (lo, hi) = d
        .rolling
        .iter()
        .fold((f64::MAX, 0.0f64), |(l, h), &r| (l.min(r), h.max(r)));
    assert!(
        close(lo, 264.0, 1e-9) && close(hi, 336.0, 1e-9),
        "{lo} {hi}"
    );
}

#[test]
fn a_change_of_level_must_persist() {
    // the rolling median of a flat run with one excursion of a single
    // sample (one stalled second is smoothed, two of five are not)
    let mut r = vec![100.0; 20];
    r[10] = 150.0;
    assert!(!changes(&r, 100.0, 0.1, 2));
    assert_eq!(settled_from(&r, 100.0, 0.1, 2), Some(0));
    // alternating sides never persist
    for (i, v) in r.iter_mut().enumerate().skip(5) {
        *v = if i % 2 == 0 { 115.0 } else { 85.0 };
    }
    assert!(!changes(&r, 100.0, 0.1, 2));
    // two on one side do
    r[6] = 120.0;
    r[7] = 120.0;
    assert!(changes(&r, 100.0, 0.1, 2));
    assert_eq!(
        settled_from(&r, 100.0, 0.1, 2),
        None,
        "no sample after 7 is within 10%"
    );
    assert_eq!(persistence(3), 2);
    assert_eq!(persistence(15), 8);
    assert_eq!(tolerance(0.0, 15), MIN_TOLERANCE);
    assert_eq!(tolerance(10.0, 3), MAX_TOLERANCE);
    assert_eq!(tolerance(f64::NAN, 3), MAX_TOLERANCE);
    assert_eq!(super::noise(&[], &[]), 0.0);
    assert_eq!(step_noise(&[5.0]), 0.0);
    assert_eq!(step_noise(&[0.0, 0.0, 0.0]), 0.0);
    // 90, 110, 90, 110: each step is 20% of the pair's mean
    let s = step_noise(&[90.0, 110.0, 90.0, 110.0]);
    assert!(
        (s - 1.4826 * 0.2 / std::f64::consts::SQRT_2).abs() < 1e-12,
        "{s}"
    );
}

/// The read IOPS per second of a record of `tests/fixtures/emulated/`
/// (real fio behind a throttled loop device, 90 s).
fn emulated(json: &str) -> Vec<f64> {
    let r: crate::record::Record = serde_json::from_str(json).unwrap();
    r.timeline.unwrap().read.unwrap().iops
}

#[test]
fn the_emulated_volumes_keep_their_class_under_15_percent_noise() {
    let burst = emulated(include_str!(
        "../../tests/fixtures/emulated/credit-burst.json"
    ));
    let flat = emulated(include_str!(
        "../../tests/fixtures/emulated/empty-bucket.json"
    ));
    // as recorded: the real throttle's jitter is within 10%
    let d = detect(&burst, 1.0).unwrap();
    assert_eq!(d.pattern, Pattern::CreditBurst);
    assert_eq!((d.burst, d.sustained), (Some(2000.0), 200.0));
    assert_eq!(d.tolerance, MIN_TOLERANCE);
    let d = detect(&flat, 1.0).unwrap();
    assert_eq!(
        (d.pattern, d.sustained, d.burst),
        (Pattern::Flat, 200.0, None)
    );
    // the same seconds with +-15% noise on each (an HDD, a busy host)
    for seed in 1..=10 {
        let d = detect(&with_noise(burst.clone(), 0.15, seed), 1.0).unwrap();
        assert_eq!(d.pattern, Pattern::CreditBurst, "seed {seed}: {d:?}");
        assert!(close(d.burst.unwrap(), 2000.0, 0.1), "{:?}", d.burst);
        assert!(close(d.sustained, 200.0, 0.1), "{}", d.sustained);
        let t = d.burst_duration_s.unwrap();
        assert!((t - 23.0).abs() <= 2.0, "seed {seed}: {t}");
        assert!(d.tolerance > MIN_TOLERANCE, "{}", d.tolerance);
        let d = detect(&with_noise(flat.clone(), 0.15, seed), 1.0).unwrap();
        assert_eq!(d.pattern, Pattern::Flat, "seed {seed}: {d:?}");
        assert!(close(d.sustained, 200.0, 0.1), "{}", d.sustained);
    }
}

#[test]
fn short_runs_scale_the_windows() {
    // 60 s: 2000 IOPS for 20 s, then 200 (the emulated volume's shape)
    let series: Vec<f64> = (0..60)
        .map(|i| if i < 20 { 2000.0 } else { 200.0 })
        .collect();
    let d = detect(&series, 1.0).unwrap();
    assert_eq!(d.pattern, Pattern::CreditBurst);
    assert_eq!((d.burst, d.sustained), (Some(2000.0), 200.0));
    assert_eq!(d.burst_duration_s, Some(20.0));
    // the three skipped seconds count at the burst level
    assert_eq!(d.burst_volume, Some(1800.0 * 20.0));
    // a limit toggling every 5 s over 60 s
    let toggling: Vec<f64> = (0..60)
        .map(|i| if (i / 5) % 2 == 0 { 2000.0 } else { 200.0 })
        .collect();
    let d = detect(&toggling, 1.0).unwrap();
    assert_eq!(d.pattern, Pattern::PeriodicBurst);
    assert_eq!((d.burst, d.sustained), (Some(2000.0), 200.0));
    // and an empty bucket is one level
    let d = detect(&with_noise(vec![200.0; 60], 0.05, 9), 1.0).unwrap();
    assert_eq!(d.pattern, Pattern::Flat);
}

#[test]
fn a_real_toggling_throttle_with_mixed_seconds_is_periodic() {
    // read IOPS per second of real fio behind a cgroup throttle toggling
    // between 2000 and 200 every 5 s (tests/burst_emulated.rs): each
    // edge falls inside a second, so every period has a mixed sample
    // (1081, 1282, 1000, ...), the throttle's slices jitter (2160,
    // 1936), and the first high phase is cut short by fio's start
    let series = [
        2000.0, 2000.0, 1081.0, 199.0, 200.0, 200.0, 200.0, 1282.0, 2000.0, 2000.0, 2000.0, 2000.0,
        1000.0, 180.0, 199.0, 200.0, 200.0, 1288.0, 1998.0, 2000.0, 2000.0, 2000.0, 1000.0, 160.0,
        199.0, 200.0, 199.0, 1284.0, 2000.0, 1998.0, 2000.0, 2000.0, 1000.0, 128.0, 200.0, 180.0,
        219.0, 1146.0, 1936.0, 2160.0, 2040.0, 2000.0, 1000.0, 155.0, 200.0, 200.0, 200.0, 1281.0,
        2000.0, 2000.0, 2000.0, 2000.0, 952.0, 200.0, 200.0, 200.0, 200.0, 1288.0, 2000.0, 2000.0,
        2000.0, 2000.0, 928.0, 200.0, 200.0, 200.0, 200.0, 1281.0, 2000.0, 2000.0, 2000.0, 2000.0,
        1000.0, 135.0, 200.0, 199.0, 200.0, 1281.0, 2000.0, 2000.0, 2000.0, 2000.0, 800.0, 160.0,
        200.0, 200.0, 200.0, 1280.0, 2000.0, 2000.0,
    ];
    let d = detect(&series, 1.0).unwrap();
    assert_eq!(d.pattern, Pattern::PeriodicBurst);
    assert_eq!((d.burst, d.sustained), (Some(2000.0), 200.0));
    let (on, off) = (d.on_s.unwrap(), d.off_s.unwrap());
    assert!(
        (on - 5.0).abs() <= 0.5 && (off - 5.0).abs() <= 0.5,
        "{on} {off}"
    );
    assert!((on + off - 10.0).abs() < 1e-9, "{on} {off}");
}

#[test]
fn steady_state_follows_the_snia_limits() {
    // five rounds whose means are 90, 100, 110, 100, 100: range 20% of 100
    let mut x = Vec::new();
    for m in [90.0, 100.0, 110.0, 100.0, 100.0] {
        x.extend(std::iter::repeat_n(m, 60));
    }
    let s = steady_state(&x, 1.0, 60.0);
    assert!((s.range_pct - 20.0).abs() < 1e-9);
    assert!(s.reached, "{s:?}");
    // a ramp of 1 per sample over 300 samples at mean ~1000: 29.9%
    let ramp: Vec<f64> = (0..300).map(|i| 850.0 + i as f64).collect();
    let s = steady_state(&ramp, 1.0, 60.0);
    assert!((s.slope_pct - 299.0 / 999.5 * 100.0).abs() < 1e-9, "{s:?}");
    assert!(!s.reached);
}

#[test]
fn a_timeline_gives_judged_and_shown_metrics() {
    let iops: Vec<f64> = (0..2700)
        .map(|i| if i < 2000 { 3000.0 } else { 300.0 })
        .collect();
    let bw = iops.iter().map(|v| v * 4096.0).collect();
    let mut tl = Timeline {
        interval_s: 1.0,
        read: Some(Box::new(Series {
            iops,
            bw,
            lat: None,
            clat: None,
        })),
        write: None,
        trim: None,
        logs: BTreeMap::new(),
        pattern: None,
        burst_on_s: None,
        burst_off_s: None,
    };
    let m = classify(&mut tl, TestKind::BlockIo);
    let v = |n: &str| m.get(n).map(|m| (m.value, m.unit));
    assert_eq!(tl.pattern, Some(Pattern::CreditBurst));
    assert_eq!(v("read_iops_burst"), Some((3000.0, "IOPS")));
    assert_eq!(v("read_iops_sustained"), Some((300.0, "IOPS")));
    assert_eq!(v("read_bw_sustained"), Some((300.0 * 4096.0, "B/s")));
    assert_eq!(v("burst_duration"), Some((2000.0, "s")));
    assert_eq!(v("burst_ios"), Some((5.4e6, "count")));
    assert_eq!(v("steady_state"), Some((1.0, "count")));
    assert_eq!(v("ss_range"), Some((0.0, "%")));
    assert_eq!(v("burst_bytes"), None);
    // a throughput test is judged on its bandwidth series
    let m = classify(&mut tl, TestKind::Throughput);
    assert_eq!(m.get("burst_bytes").map(|m| m.value), Some(5.4e6 * 4096.0));
    assert!(!m.contains_key("burst_ios"));
    for name in m.keys() {
        let unit = crate::metrics::expected_unit(name).unwrap();
        assert_eq!(unit.as_str(), m[name].unit, "{name}");
    }
}

#[test]
fn bad_input_gives_nothing() {
    assert_eq!(detect(&[1.0; 12], 0.0), None);
    assert_eq!(
        detect(&[1.0; 13], 1.0).map(|d| d.pattern),
        Some(Pattern::Flat)
    );
    assert_eq!(detect(&[1.0; 13], 1.0).unwrap().start_s, 3.0);
    // three skipped, nine left
    assert_eq!(detect(&[1.0; 12], 1.0), None);
    assert_eq!(detect(&[1.0, f64::NAN, 1.0, 1.0], 1.0), None);
    assert_eq!(median(&[3.0, 1.0, 2.0, 10.0]), Some(2.5));
    assert_eq!(
        rolling_median(&[1.0, 9.0, 1.0, 1.0], 3),
        vec![5.0, 1.0, 1.0, 1.0]
    );
}
