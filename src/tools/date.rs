//! Dates as tools and `date` print them, read into UTC: fio's `time` and
//! text job lines (C `ctime`), GNU `date` in the C, English (US) and German
//! locales, ISO 8601 (`date -Iseconds`, nench's `2021-06-15 15:25:52
//! UTC`), yabs's JSON `20220817-035033` and Unix seconds. Which tool prints
//! which, and what a time without a zone is taken as, is in
//! `docs/import.md`, "Dates".
//!
//! Times are built through [`humantime`] (which checks the day of the
//! month, leap years included) and written as RFC 3339 in seconds, as
//! `run` writes `started_at`.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// When a run happened as its output says it, or why the date the output
/// prints cannot be placed in time (an unknown zone, a day that does not
/// exist, a weekday that is not that day's).
pub type Dated = Result<SystemTime, String>;

/// The first second a date is taken from (2000-01-01T00:00:00Z): every
/// tool diskdash reads is younger, so an earlier date is a clock that was
/// never set (a VM without one starts at 1970).
const FIRST: u64 = 946_684_800;

/// The last second RFC 3339 in four-digit years can write
/// (9999-12-31T23:59:59Z).
const LAST: u64 = 253_402_300_799;

/// `started_at` text of a time: RFC 3339 UTC in seconds
/// (`2023-03-01T12:00:00Z`), as `run` writes it.
pub fn rfc3339(t: SystemTime) -> String {
    humantime::format_rfc3339_seconds(t).to_string()
}

/// A time of Unix seconds (fio JSON's `timestamp`), in range.
pub fn from_unix(secs: i64) -> Dated {
    let s = u64::try_from(secs).map_err(|_| format!("{secs} is before 1970"))?;
    let t = UNIX_EPOCH
        .checked_add(Duration::from_secs(s))
        .ok_or("a time after the year 9999")?;
    in_range(t)
}

/// The time when it lies from 2000 to 9999.
fn in_range(t: SystemTime) -> Dated {
    let secs = t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    if secs < FIRST {
        return Err(format!(
            "{} is before 2000: the clock of the machine was not set",
            rfc3339(t)
        ));
    }
    if secs > LAST {
        return Err("a time after the year 9999".to_string());
    }
    Ok(t)
}

/// The time of a calendar date and time of day at `offset` seconds east
/// of UTC; an error when the day does not exist (2023-02-29).
fn civil(y: u32, mo: u32, d: u32, h: u32, mi: u32, s: u32, offset: i64) -> Dated {
    if y < 2000 {
        return Err(format!(
            "{y:04}-{mo:02}-{d:02} is before 2000: the clock of the machine was not set"
        ));
    }
    let text = format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}Z");
    let local = humantime::parse_rfc3339(&text)
        .map_err(|_| format!("no such date: {y:04}-{mo:02}-{d:02} {h:02}:{mi:02}:{s:02}"))?;
    let shift = Duration::from_secs(offset.unsigned_abs());
    let utc = if offset >= 0 {
        local.checked_sub(shift)
    } else {
        local.checked_add(shift)
    };
    in_range(utc.ok_or("a time out of range")?)
}

/// English and German month names as `date` abbreviates them, and the
/// German `Mär` as a C `ctime` would not print it but a German `date` does.
fn month(word: &str) -> Option<u32> {
    let w = word.trim_end_matches('.').to_lowercase();
    let at = |names: &[&str]| names.iter().position(|n| *n == w);
    let en = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ];
    let de = [
        "jan", "feb", "mär", "apr", "mai", "jun", "jul", "aug", "sep", "okt", "nov", "dez",
    ];
    at(&en).or_else(|| at(&de)).map(|i| i as u32 + 1)
}

/// English and German weekday names as `date` abbreviates them, Monday 0.
fn weekday(word: &str) -> Option<u32> {
    let w = word.trim_end_matches([',', '.']).to_lowercase();
    let at = |names: &[&str]| names.iter().position(|n| *n == w);
    let en = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"];
    let de = ["mo", "di", "mi", "do", "fr", "sa", "so"];
    at(&en).or_else(|| at(&de)).map(|i| i as u32)
}

/// Seconds east of UTC of a zone as `date` prints it: a numeric offset
/// (`+0200`, `+02:00`, `-03`, tzdata's name for zones without a letter
/// abbreviation) or an abbreviation that means one offset only. `Err`
/// for letters it does not know or that name several zones (`CST` is
/// China's and the US's, `IST` India's, Ireland's and Israel's).
fn zone(word: &str) -> Option<Result<i64, String>> {
    if let Some(rest) = word.strip_prefix(['+', '-']) {
        let digits: String = rest.chars().filter(|c| *c != ':').collect();
        if !(digits.len() == 2 || digits.len() == 4) || !digits.bytes().all(|b| b.is_ascii_digit())
        {
            return None;
        }
        let h: i64 = digits.get(..2)?.parse().ok()?;
        let m: i64 = digits
            .get(2..)
            .filter(|m| !m.is_empty())
            .map_or(Some(0), |m| m.parse().ok())?;
        if h > 14 || m > 59 {
            return None;
        }
        let secs = h * 3600 + m * 60;
        return Some(Ok(if word.starts_with('-') { -secs } else { secs }));
    }
    if !(2..=5).contains(&word.len()) || !word.bytes().all(|b| b.is_ascii_uppercase()) {
        return None;
    }
    let hours: f64 = match word {
        "UTC" | "GMT" | "UT" | "WET" => 0.0,
        "CET" | "WEST" | "BST" => 1.0,
        "CEST" | "EET" | "SAST" => 2.0,
        "EEST" | "MSK" => 3.0,
        "HKT" | "SGT" | "AWST" | "PHT" => 8.0,
        "JST" | "KST" => 9.0,
        "ACST" => 9.5,
        "AEST" => 10.0,
        "ACDT" => 10.5,
        "AEDT" => 11.0,
        "NZST" => 12.0,
        "NZDT" => 13.0,
        "HST" => -10.0,
        "AKST" => -9.0,
        "AKDT" | "PST" => -8.0,
        "PDT" | "MST" => -7.0,
        "MDT" => -6.0,
        "EST" | "CDT" => -5.0,
        "EDT" => -4.0,
        _ => {
            return Some(Err(format!(
                "it names the time zone `{word}`, which diskdash does not place \
                 (it knows UTC, numeric offsets and abbreviations of one offset such as CEST or EDT)"
            )))
        }
    };
    Some(Ok((hours * 3600.0) as i64))
}

/// `12:00:00` → (12, 0, 0).
fn clock(word: &str) -> Option<(u32, u32, u32)> {
    let mut it = word.split(':');
    let mut part = |max: u32| -> Option<u32> {
        let p = it.next()?;
        (p.len() == 2 || (max == 23 && p.len() == 1))
            .then(|| p.parse().ok())
            .flatten()
            .filter(|v| *v <= max)
    };
    let t = (part(23)?, part(59)?, part(60)?);
    it.next().is_none().then_some(t)
}

/// A line that is a date alone as `date` or a C `ctime` prints it, in any
/// order of its words: `Wed Mar  1 12:00:00 2023` (fio, `ctime`), `Wed Mar
/// 1 12:00:00 UTC 2023` (`date` in the C locale), `Sun 23 Apr 2023
/// 01:41:14 PM EDT` and `Wed Mar  1 12:00:00 PM UTC 2023` (English US),
/// `Sa 3. Jul 23:56:12 CEST 2021` (German), and ISO 8601 (`2023-03-01
/// 12:00:00 UTC`, `2023-03-01T12:00:00+01:00`). `None` when the line is
/// not a date; `Some(Err)` when it is one that cannot be placed in time
/// (see [`Dated`]). A date without a zone is read as UTC.
pub fn line(line: &str) -> Option<Dated> {
    let t = line.trim();
    if t.len() > 64 {
        return None;
    }
    iso(t).or_else(|| words(t))
}

/// ISO 8601 and RFC 3339: `2023-03-01T12:00:00Z`, `2023-03-01
/// 12:00:00+01:00`, `2023-03-01 12:00:00 UTC`, fractions of seconds
/// dropped.
fn iso(t: &str) -> Option<Dated> {
    let b = t.as_bytes();
    if b.len() < 19 || b.get(4) != Some(&b'-') || b.get(7) != Some(&b'-') {
        return None;
    }
    if !matches!(b.get(10), Some(b'T' | b't' | b' ')) {
        return None;
    }
    let num = |r: std::ops::Range<usize>| -> Option<u32> {
        let s = t.get(r)?;
        s.bytes()
            .all(|c| c.is_ascii_digit())
            .then(|| s.parse().ok())?
    };
    let (y, mo, d) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let (h, mi, s) = clock(t.get(11..19)?)?;
    let mut rest = t.get(19..)?;
    if let Some(frac) = rest.strip_prefix(['.', ',']) {
        let n = frac.bytes().take_while(u8::is_ascii_digit).count();
        if n == 0 {
            return None;
        }
        rest = frac.get(n..)?;
    }
    let rest = rest.trim_start();
    let offset = match rest {
        "" | "Z" | "z" => 0,
        _ => match zone(rest)? {
            Ok(o) => o,
            Err(why) => return Some(Err(why)),
        },
    };
    Some(civil(y, mo, d, h, mi, s.min(59), offset))
}

/// A date of words (see [`line`]): every word must be one of a weekday, a
/// month, a day of the month, a time, `AM`/`PM`, a zone and a year, each
/// at most once, with month, day, time and year present.
fn words(t: &str) -> Option<Dated> {
    let (mut wd, mut mo, mut day, mut time, mut pm, mut off, mut year) =
        (None, None, None, None, None, None, None);
    /// Fills a slot once; `None` for a word seen twice.
    fn set<T>(slot: &mut Option<T>, v: T) -> Option<()> {
        slot.replace(v).is_none().then_some(())
    }
    for w in t.split_whitespace() {
        if let Some(c) = clock(w) {
            set(&mut time, c)?;
        } else if w.eq_ignore_ascii_case("am") || w.eq_ignore_ascii_case("pm") {
            set(&mut pm, w.eq_ignore_ascii_case("pm"))?;
        } else if let Some(n) = weekday(w) {
            set(&mut wd, n)?;
        } else if let Some(n) = month(w) {
            set(&mut mo, n)?;
        } else if w.len() == 4 && w.bytes().all(|b| b.is_ascii_digit()) {
            set(&mut year, w.parse::<u32>().ok()?)?;
        } else if let Some(n) = w
            .strip_suffix('.')
            .or(Some(w))
            .filter(|d| (1..=2).contains(&d.len()) && d.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|d| d.parse::<u32>().ok())
        {
            set(&mut day, n)?;
        } else if let Some(z) = zone(w) {
            set(&mut off, z)?;
        } else {
            return None;
        }
    }
    let (mo, day, (mut h, mi, s), y) = (mo?, day?, time?, year?);
    if let Some(pm) = pm {
        if !(1..=12).contains(&h) {
            return None;
        }
        h = match (pm, h) {
            (false, 12) => 0,
            (true, 12) => 12,
            (true, h) => h + 12,
            (false, h) => h,
        };
    }
    let offset = match off {
        Some(Ok(o)) => o,
        Some(Err(why)) => return Some(Err(why)),
        None => 0,
    };
    let at = match civil(y, mo, day, h, mi, s.min(59), offset) {
        Ok(at) => at,
        Err(why) => return Some(Err(why)),
    };
    if let Some(wd) = wd {
        // the weekday of the local day, before the zone moved it
        let local = civil(y, mo, day, 12, 0, 0, 0).ok()?;
        let days = local.duration_since(UNIX_EPOCH).ok()?.as_secs() / 86_400;
        // 1970-01-01 was a Thursday (3, Monday being 0)
        let actual = ((days + 3) % 7) as u32;
        if actual != wd {
            let names = [
                "Monday",
                "Tuesday",
                "Wednesday",
                "Thursday",
                "Friday",
                "Saturday",
                "Sunday",
            ];
            return Some(Err(format!(
                "it says {} but {y:04}-{mo:02}-{day:02} was a {}",
                names.get(wd as usize).copied().unwrap_or("?"),
                names.get(actual as usize).copied().unwrap_or("?")
            )));
        }
    }
    Some(Ok(at))
}

/// yabs's JSON `time`, `date '+%Y%m%d-%H%M%S'` (`20220817-035033`),
/// local time without a zone, read as UTC.
pub fn compact(t: &str) -> Option<Dated> {
    let (d, c) = t.trim().split_once('-')?;
    if d.len() != 8 || c.len() != 6 || !(d.bytes().chain(c.bytes())).all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n = |s: &str, r: std::ops::Range<usize>| s.get(r).and_then(|x| x.parse::<u32>().ok());
    Some(civil(
        n(d, 0..4)?,
        n(d, 4..6)?,
        n(d, 6..8)?,
        n(c, 0..2)?,
        n(c, 2..4)?,
        n(c, 4..6)?,
        0,
    ))
}

/// The date lines of `text` (see [`line`]) with the byte offset of each.
pub fn lines_in(text: &str) -> Vec<(usize, Dated)> {
    let mut out = Vec::new();
    let mut offset = 0;
    for l in text.split_inclusive('\n') {
        if let Some(d) = line(l) {
            out.push((offset, d));
        }
        offset += l.len();
    }
    out
}

/// `--started-at`: RFC 3339 (`2023-03-01T12:00:00Z`, an offset allowed)
/// or a plain date (`2023-03-01`, its midnight UTC). The bool says whether
/// it was a plain date.
pub fn flag(value: &str) -> Result<(SystemTime, bool), String> {
    let v = value.trim();
    let expected =
        "expected an RFC 3339 time such as 2023-03-01T12:00:00Z or a date such as 2023-03-01";
    if v.len() == 10 {
        let at = iso(&format!("{v}T00:00:00Z"))
            .ok_or_else(|| format!("`{v}`: {expected}"))?
            .map_err(|why| format!("`{v}`: {why}"))?;
        return Ok((at, true));
    }
    // RFC 3339: a `T` between date and time, and a zone
    let zoned = v
        .get(19..)
        .is_some_and(|z| z.contains(['Z', 'z', '+', '-']));
    let at = iso(v)
        .filter(|_| zoned && v.get(10..11).is_some_and(|s| s.eq_ignore_ascii_case("t")))
        .ok_or_else(|| format!("`{v}`: {expected}"))?
        .map_err(|why| format!("`{v}`: {why}"))?;
    Ok((at, false))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> String {
        match line(s) {
            Some(Ok(t)) => rfc3339(t),
            Some(Err(e)) => format!("error: {e}"),
            None => "none".into(),
        }
    }

    #[test]
    fn every_date_form_of_a_real_line_reads_as_its_utc_time() {
        // fio 3.x text job line's and JSON `time` (tests/fixtures/fio/randread-4k-qd64.*)
        assert_eq!(at("Mon Nov 30 00:39:23 2026"), "2026-11-30T00:39:23Z");
        // fio 2.0.13: a single-digit day padded with a space
        assert_eq!(at("Tue Dec  1 08:15:42 2026"), "2026-12-01T08:15:42Z");
        // yabs v2020-02-04's header: `date` in the C locale
        assert_eq!(at("Tue Feb  4 19:04:24 UTC 2020"), "2020-02-04T19:04:24Z");
        // yabs v2020-01-08 and v2023-04-23: `date` in en_US, 12-hour clock
        assert_eq!(
            at("Wed 08 Jan 2020 07:33:21 PM UTC"),
            "2020-01-08T19:33:21Z"
        );
        assert_eq!(
            at("Sun 23 Apr 2023 01:41:14 PM EDT"),
            "2023-04-23T17:41:14Z"
        );
        // yabs v2021-06-05 in a German locale, CEST and 12 AM
        assert_eq!(at("Sa 3. Jul 23:56:12 CEST 2021"), "2021-07-03T21:56:12Z");
        assert_eq!(
            at("Sun 04 Jul 2021 12:04:27 AM CEST"),
            "2021-07-03T22:04:27Z"
        );
        assert_eq!(at("Sat Jul  3 23:55:17 CEST 2021"), "2021-07-03T21:55:17Z");
        // nench's `benchmark timestamp:` value
        assert_eq!(at("2021-06-15 15:25:52 UTC"), "2021-06-15T15:25:52Z");
        // `date -Iseconds`, `date --rfc-3339=ns`
        assert_eq!(at("2023-03-01T12:00:00+01:00"), "2023-03-01T11:00:00Z");
        assert_eq!(
            at("2023-03-01 12:00:00.123456789-05:00"),
            "2023-03-01T17:00:00Z"
        );
        // coreutils 9 in en_US: `Wed Mar  1 12:00:00 PM UTC 2023`
        assert_eq!(
            at("Wed Mar  1 12:00:00 PM UTC 2023"),
            "2023-03-01T12:00:00Z"
        );
        assert_eq!(
            at("Wed Mar  1 12:00:00 AM UTC 2023"),
            "2023-03-01T00:00:00Z"
        );
        // yabs JSON `time`
        assert_eq!(
            compact("20220817-035033").map(|d| rfc3339(d.unwrap())),
            Some("2022-08-17T03:50:33Z".into())
        );
    }

    #[test]
    fn a_date_that_cannot_be_placed_says_why_and_other_lines_are_none() {
        assert!(at("Tue Mar  1 12:00:00 UTC 2023")
            .contains("it says Tuesday but 2023-03-01 was a Wednesday"));
        assert!(at("Wed Mar  1 12:00:00 CST 2023").contains("the time zone `CST`"));
        assert_eq!(
            at("Wed Feb 29 12:00:00 UTC 2023"),
            "error: no such date: 2023-02-29 12:00:00"
        );
        assert_eq!(
            at("Thu Jan  1 00:00:05 UTC 1970"),
            "error: 1970-01-01 is before 2000: the clock of the machine was not set"
        );
        assert!(at("1999-12-31T22:00:00-01:00").contains("before 2000"));
        assert!(at("2000-01-01T00:30:00+01:00").contains("before 2000"));
        for not in [
            "",
            "Run status group 0 (all jobs):",
            "read: IOPS=891, BW=3566KiB/s (3651kB/s)(7140KiB/2002msec)",
            "12:00:00",
            "Mar 1 2023",
            "Wed Mar 1 25:00:00 2023",
            "Wed Mar 1 12:00:00 2023 extra",
            "2023-03-01",
            "I/O Speed(1st run) : 12.4 MB/s",
        ] {
            assert_eq!(at(not), "none", "{not}");
        }
        assert!(compact("2022081-0350330").is_none());
        assert!(from_unix(-1).is_err());
        assert_eq!(
            rfc3339(from_unix(1_795_999_163).unwrap()),
            "2026-11-30T00:39:23Z"
        );
    }

    proptest::proptest! {
        /// Whatever the words, reading them never panics, and a time read
        /// is one `started_at` can hold (2000 to 9999, written in 20
        /// characters), including edges of the calendar and odd zones.
        #[test]
        fn any_line_reads_without_panic_into_a_writable_time(
            line_text in "(Mon|Sa|Feb|Mär|Dez|[0-9]{1,4}|[0-9]{2}:[0-9]{2}:[0-9]{2}|PM|AM|[A-Z]{2,5}|[+-][0-9]{2,4}|[0-9]{4}-[0-9]{2}-[0-9]{2}[T ][0-9:]{8}[Z+-]?[0-9:]{0,5}|.){0,8}( |  )?",
            secs in proptest::prelude::any::<i64>(),
        ) {
            let read = [line(&line_text), compact(&line_text), Some(from_unix(secs))];
            for t in read.into_iter().flatten().flatten() {
                proptest::prop_assert_eq!(rfc3339(t).len(), 20);
            }
            let _ = flag(&line_text);
        }
    }

    #[test]
    fn the_flag_takes_rfc_3339_or_a_plain_date() {
        let f = |v: &str| flag(v).map(|(t, plain)| (rfc3339(t), plain));
        assert_eq!(f("2023-03-01"), Ok(("2023-03-01T00:00:00Z".into(), true)));
        assert_eq!(
            f("2023-03-01T12:00:00+02:00"),
            Ok(("2023-03-01T10:00:00Z".into(), false))
        );
        assert_eq!(
            f("2023-03-01T12:00:00Z"),
            Ok(("2023-03-01T12:00:00Z".into(), false))
        );
        for bad in [
            "yesterday",
            "2023-02-30",
            "2023-03-01 12:00:00Z",
            "2023-03-01T12:00:00",
            "2023-3-1",
            "2023-03-01T12:00",
        ] {
            let e = f(bad).unwrap_err();
            assert!(e.starts_with(&format!("`{bad}`: ")), "{e}");
        }
    }
}
