//! Canonical units and the conversions into them.
//!
//! Records store canonical units only: bandwidth in `B/s`, time and latency
//! in `s`, operation rates in `IOPS` or `ops/s`, CPU in `%`, sizes in `B`,
//! plain counts in `count`. Parsers convert at the edge with the helpers
//! here; each tool's quirks (fio 2.x `KB` meaning KiB, dd's SI `MB`) are
//! decided by the caller, which says which convention applies.

/// A canonical unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Unit {
    /// Bytes per second.
    BytesPerSec,
    /// Seconds (durations and latencies).
    Seconds,
    /// I/O operations per second.
    Iops,
    /// Other operations per second (files created, seeks).
    OpsPerSec,
    /// Percent (CPU use).
    Percent,
    /// Bytes.
    Bytes,
    /// A plain count.
    Count,
}

impl Unit {
    /// Every canonical unit.
    pub const ALL: [Unit; 7] = [
        Unit::BytesPerSec,
        Unit::Seconds,
        Unit::Iops,
        Unit::OpsPerSec,
        Unit::Percent,
        Unit::Bytes,
        Unit::Count,
    ];

    /// The unit as written in records.
    pub fn as_str(self) -> &'static str {
        match self {
            Unit::BytesPerSec => "B/s",
            Unit::Seconds => "s",
            Unit::Iops => "IOPS",
            Unit::OpsPerSec => "ops/s",
            Unit::Percent => "%",
            Unit::Bytes => "B",
            Unit::Count => "count",
        }
    }

    /// The unit for a record's unit string; `None` if it is not canonical.
    pub fn parse(s: &str) -> Option<Unit> {
        Unit::ALL.into_iter().find(|u| u.as_str() == s)
    }

    /// Whether a larger value means better performance. Latency and CPU use
    /// are lower-is-better; sizes and counts are neither and count as higher.
    pub fn higher_is_better(self) -> bool {
        !matches!(self, Unit::Seconds | Unit::Percent)
    }
}

/// Whether to read a bare `K`/`KB`/`MB` as powers of 1024 (fio 2.x, bonnie++)
/// or of 1000 (dd, fio 3.x `kB`/`MB`). `KiB`/`MiB` are always binary.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Prefixes {
    /// `K`, `KB`, `MB` mean 1024, 1024², ...
    Binary,
    /// `k`, `kB`, `MB` mean 1000, 1000², ...
    Si,
}

/// Multiplier for a byte-size unit such as `KiB`, `MB`, `kB`, `G`, `B`, `bytes`.
/// `None` if the unit is not one.
pub fn byte_multiplier(unit: &str, bare: Prefixes) -> Option<f64> {
    let u = unit.trim();
    let u = u
        .strip_suffix("bytes")
        .or_else(|| u.strip_suffix("Bytes"))
        .or_else(|| u.strip_suffix('B'))
        // ioping before 0.9 prints `kb`, `mb`: still bytes
        .or_else(|| u.strip_suffix('b'))
        .unwrap_or(u);
    if u.is_empty() {
        return Some(1.0);
    }
    let (letter, binary) = match u.strip_suffix('i') {
        Some(l) => (l, true),
        None => (u, bare == Prefixes::Binary),
    };
    let power = match letter {
        "k" | "K" => 1,
        "M" | "m" => 2,
        "G" | "g" => 3,
        "T" | "t" => 4,
        "P" | "p" => 5,
        "E" | "e" => 6,
        _ => return None,
    };
    let base: f64 = if binary { 1024.0 } else { 1000.0 };
    Some(base.powi(power))
}

/// `value × multiplier`, rounded once. A power-of-ten multiplier shifts the
/// exponent of the number's decimal form before it is read, so that a
/// printed `388.4` µs becomes the double nearest 0.0003884 s rather than
/// `388.4 * 1e-6` with a second rounding (`0.00038839999999999995`); any
/// other multiplier (1024-based, 60) multiplies.
pub fn scale(value: f64, multiplier: f64) -> f64 {
    match power_of_ten(multiplier) {
        // `{value}` is the shortest text that reads back as `value`: the
        // printed decimal for every number a tool prints
        Some(k) if k != 0 => format!("{value}e{k}").parse().unwrap_or(value * multiplier),
        _ => value * multiplier,
    }
}

/// `k` when `x` is exactly the double nearest 10^k, for |k| <= 24.
fn power_of_ten(x: f64) -> Option<i32> {
    if !(x.is_normal() && x > 0.0) {
        return None;
    }
    let k = x.log10().round() as i32;
    (k.abs() <= 24 && format!("1e{k}").parse::<f64>() == Ok(x)).then_some(k)
}

/// Converts a bandwidth printed as `value unit` (`MB/s`, `KiB/s`, `K/sec`,
/// `GB/s`, `B/s`) to bytes per second.
pub fn bytes_per_sec(value: f64, unit: &str, bare: Prefixes) -> Option<f64> {
    let u = unit.trim();
    let per = u
        .strip_suffix("/s")
        .or_else(|| u.strip_suffix("/sec"))
        .or_else(|| u.strip_suffix("ps"))?;
    Some(scale(value, byte_multiplier(per, bare)?))
}

/// Multiplier from a time unit (`ns`, `us`, `usec`, `µs`, `ms`, `msec`, `s`,
/// `sec`, `min`, `hour`, `h`, `d`) to seconds.
pub fn seconds_multiplier(unit: &str) -> Option<f64> {
    Some(match unit.trim() {
        "ns" | "nsec" => 1e-9,
        "us" | "usec" | "µs" | "μs" => 1e-6,
        "ms" | "msec" => 1e-3,
        "s" | "sec" | "secs" | "seconds" => 1.0,
        "min" | "m" | "mins" => 60.0,
        "hour" | "h" | "hours" => 3600.0,
        "d" | "day" | "days" => 86400.0,
        _ => return None,
    })
}

/// Converts a time printed as `value unit` to seconds.
pub fn seconds(value: f64, unit: &str) -> Option<f64> {
    Some(scale(value, seconds_multiplier(unit)?))
}

/// Converts a count printed with a suffix (`5.67 k`, `26.2k`) to a number.
pub fn count(value: f64, suffix: &str) -> Option<f64> {
    Some(scale(value, count_multiplier(suffix)?))
}

/// Multiplier for a count suffix as fio and ioping print them (`k`, `K`, `M`,
/// `G`: powers of 1000); empty is 1.
pub fn count_multiplier(suffix: &str) -> Option<f64> {
    Some(match suffix.trim() {
        "" => 1.0,
        "k" | "K" => 1e3,
        "M" | "m" => 1e6,
        "G" | "g" => 1e9,
        "T" | "t" => 1e12,
        _ => return None,
    })
}

/// Splits `"12.5MiB/s"` or `"309.7"` into the number and the rest.
/// `None` if the text does not start with a number.
pub fn split_number(text: &str) -> Option<(f64, &str)> {
    let t = text.trim();
    let b = t.as_bytes();
    let mut end = 0;
    if end < b.len() && (b[end] == b'-' || b[end] == b'+') {
        end += 1;
    }
    while end < b.len() && (b[end].is_ascii_digit() || b[end] == b'.') {
        end += 1;
    }
    // an exponent only when digits follow it: "2.4e-05", not "12e" of a word
    if end < b.len() && (b[end] == b'e' || b[end] == b'E') {
        let mut j = end + 1;
        if j < b.len() && (b[j] == b'-' || b[j] == b'+') {
            j += 1;
        }
        if j < b.len() && b[j].is_ascii_digit() {
            while j < b.len() && b[j].is_ascii_digit() {
                j += 1;
            }
            end = j;
        }
    }
    let value: f64 = t[..end].parse().ok()?;
    value.is_finite().then_some((value, t[end..].trim_start()))
}

/// A block size in its shortest lowercase form, as test ids write it:
/// 1048576 → `1m`, 131072 → `128k`, 8192 → `8k`, 512 → `512`.
pub fn short_size(bytes: u64) -> String {
    const K: u64 = 1024;
    for (unit, suffix) in [(K * K * K, "g"), (K * K, "m"), (K, "k")] {
        if bytes > 0 && bytes % unit == 0 {
            return format!("{}{suffix}", bytes / unit);
        }
    }
    bytes.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fio2_kb_is_kib() {
        // fio 2.x: "bw=104857KB/s" means 104857 KiB/s
        assert_eq!(
            bytes_per_sec(104857.0, "KB/s", Prefixes::Binary),
            Some(104857.0 * 1024.0)
        );
    }

    #[test]
    fn dd_mb_is_si() {
        // dd: "536 MB/s" means 536e6 B/s
        assert_eq!(bytes_per_sec(536.0, "MB/s", Prefixes::Si), Some(536e6));
        assert_eq!(bytes_per_sec(1.0, "GB/s", Prefixes::Si), Some(1e9));
    }

    #[test]
    fn ioping_mib_is_binary_whatever_the_convention() {
        assert_eq!(
            bytes_per_sec(12.6, "MiB/s", Prefixes::Si),
            Some(12.6 * 1048576.0)
        );
        assert_eq!(
            bytes_per_sec(4.17, "GiB/s", Prefixes::Si),
            Some(4.17 * 1073741824.0)
        );
    }

    #[test]
    fn bonnie_k_per_sec_is_kib() {
        assert_eq!(
            bytes_per_sec(95981.0, "K/sec", Prefixes::Binary),
            Some(95981.0 * 1024.0)
        );
    }

    #[test]
    fn decimal_scaling_rounds_once() {
        // ioping `309.7 us`, fio `avg=880.55` usec, bonnie++ `5523us`
        assert_eq!(seconds(309.7, "us"), Some(0.0003097));
        // Linode's `388.4 us`: one multiplication would round twice
        assert_eq!(seconds(388.4, "us"), Some(0.0003884));
        assert_ne!(388.4 * 1e-6, 0.0003884);
        assert_eq!(seconds(880.55, "usec"), Some(0.00088055));
        assert_eq!(seconds(5523.0, "us"), Some(0.005523));
        assert_eq!(seconds(1.2, "min"), Some(72.0));
        // ioping `5.67 k` requests, fio `IOPS=26.2k`
        assert_eq!(count(5.67, "k"), Some(5670.0));
        assert_eq!(count(26.2, "k"), Some(26200.0));
        assert_eq!(count(1.0, "x"), None);
        // dd `1.5 MB/s` (SI) and ioping `22.6 MiB/s` (binary, exact)
        assert_eq!(bytes_per_sec(1.5, "MB/s", Prefixes::Si), Some(1.5e6));
        assert_eq!(
            bytes_per_sec(22.6, "MiB/s", Prefixes::Si),
            Some(22.6 * 1048576.0)
        );
        // ioping before 0.9 prints lowercase `mb/s`, binary there
        assert_eq!(
            bytes_per_sec(1.0, "mb/s", Prefixes::Binary),
            Some(1048576.0)
        );
        assert_eq!(scale(3.0, 1024.0), 3072.0);
        assert_eq!(scale(f64::MAX, 1e3), f64::INFINITY);
    }

    #[test]
    fn times_convert_to_seconds() {
        assert_eq!(seconds(309.7, "us"), Some(309.7e-6));
        assert_eq!(seconds(1.64, "ms"), Some(1.64e-3));
        assert_eq!(seconds(5000.0, "msec"), Some(5.0));
        assert_eq!(seconds(2.0, "min"), Some(120.0));
        assert_eq!(seconds(1.0, "fortnight"), None);
    }

    #[test]
    fn split_number_handles_exponents_and_units() {
        assert_eq!(split_number("2.4e-05 s"), Some((2.4e-05, "s")));
        assert_eq!(split_number("12.6MiB/s"), Some((12.6, "MiB/s")));
        assert_eq!(split_number("3 ms"), Some((3.0, "ms")));
        assert_eq!(split_number("MiB"), None);
        assert_eq!(split_number("inf"), None);
    }

    #[test]
    fn unit_strings_round_trip() {
        for u in Unit::ALL {
            assert_eq!(Unit::parse(u.as_str()), Some(u));
        }
        assert_eq!(Unit::parse("MB/s"), None);
        assert!(!Unit::Seconds.higher_is_better());
        assert!(Unit::Iops.higher_is_better());
    }

    #[test]
    fn sizes_format_shortest_lowercase() {
        assert_eq!(short_size(1048576), "1m");
        assert_eq!(short_size(131072), "128k");
        assert_eq!(short_size(8192), "8k");
        assert_eq!(short_size(512), "512");
        assert_eq!(short_size(1000), "1000");
        assert_eq!(short_size(1 << 30), "1g");
        assert_eq!(short_size(3 << 29), "1536m");
        assert_eq!(short_size(0), "0");
        assert_eq!(short_size(1536), "1536");
    }
}
