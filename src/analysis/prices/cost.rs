//! What a price is made of (capacity, size tiers, a fixed charge, IOPS and
//! MB/s bands) and what a configuration costs per month under it.

use std::collections::BTreeMap;
use std::fmt;

/// One part of a monthly bill.
#[derive(Clone, Debug, PartialEq)]
pub enum Component {
    /// A price per GB of capacity per month.
    Capacity {
        /// Price per GB-month (above zero).
        per_gb_month: f64,
    },
    /// A price per month for a volume of more than `above_gb` and at most
    /// `up_to_gb` GB: sizes are rounded up to the tier (Azure Premium SSD
    /// P10, P15, ...).
    CapacityTier {
        /// The tier holds sizes above this.
        above_gb: f64,
        /// The tier holds sizes up to and including this.
        up_to_gb: f64,
        /// Price per month for any size in the tier (above zero).
        per_month: f64,
    },
    /// A charge per month, whatever the configuration.
    Fixed {
        /// Price per month.
        per_month: f64,
    },
    /// Provisioned IOPS, label `provisioned_iops`.
    Iops(Band),
    /// Provisioned throughput in MB/s, label `provisioned_mbps`.
    Throughput(Band),
}

/// A price per provisioned unit (IOPS or MB/s) per month, for the units in
/// (`above`, `up_to`] that are not included.
#[derive(Clone, Debug, PartialEq)]
pub struct Band {
    /// Price per unit-month; zero bills nothing.
    pub per_unit_month: f64,
    /// Units included in the price: the first `included` units are free.
    pub included: f64,
    /// The band bills units above this (0 for the first band).
    pub above: f64,
    /// The band bills units up to and including this; `None`: no limit.
    pub up_to: Option<f64>,
}

impl Band {
    /// A band that bills every unit above `included`.
    pub fn above_included(per_unit_month: f64, included: f64) -> Band {
        Band {
            per_unit_month,
            included,
            above: 0.0,
            up_to: None,
        }
    }

    /// `(low, high]`: the provisioned units this band bills; empty when
    /// `high <= low`.
    fn billed(&self, provisioned: f64) -> (f64, f64) {
        let high = self.up_to.map_or(provisioned, |t| t.min(provisioned));
        (self.above.max(self.included), high)
    }
}

/// Why a configuration's monthly cost is unknown. Its `Display` is the
/// reason in words, for pages and warnings.
#[derive(Clone, Debug, PartialEq)]
pub enum Missing {
    /// The price bills capacity and the records give no size (`size_gb`).
    Size,
    /// The price bills every provisioned IOPS (none included: io1, io2)
    /// and the records give no `provisioned_iops` label.
    ProvisionedIops,
    /// The price bills every provisioned MB/s (none included: Azure Ultra)
    /// and the records give no `provisioned_mbps` label.
    ProvisionedMbps,
    /// The size is above every tier of a tiered price; holds the largest
    /// tier's upper bound in GB.
    AboveLargestTier(f64),
    /// The size falls in no tier (the list leaves a gap there); holds the size.
    NoTier(f64),
    /// More IOPS or MB/s are provisioned than any band of the price
    /// reaches: holds the unit (`IOPS`, `MB/s`) and the highest band's
    /// upper bound. Billing only the part the bands cover would understate
    /// the cost.
    AboveLargestBand(&'static str, f64),
}

impl fmt::Display for Missing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Missing::Size => f.write_str("size unknown"),
            Missing::ProvisionedIops => f.write_str(
                "provisioned IOPS unknown: billed per provisioned IOPS, none included; give --provisioned-iops N",
            ),
            Missing::ProvisionedMbps => f.write_str(
                "provisioned MB/s unknown: billed per provisioned MB/s, none included; give --provisioned-mbps N",
            ),
            Missing::AboveLargestTier(gb) => {
                write!(f, "size above the largest tier ({gb} GB)")
            }
            Missing::NoTier(gb) => write!(f, "no tier of the price holds {gb} GB"),
            Missing::AboveLargestBand(unit, top) => {
                write!(
                    f,
                    "provisioned {unit} above the highest priced band ({top} {unit})"
                )
            }
        }
    }
}

impl std::error::Error for Missing {}

/// The per-GB capacity price, if the components have one.
pub(super) fn per_gb_month(components: &[Component]) -> Option<f64> {
    components.iter().find_map(|c| match c {
        Component::Capacity { per_gb_month } => Some(*per_gb_month),
        _ => None,
    })
}

/// Whether the components are a per-GB price and nothing else that bills.
pub(super) fn is_flat(components: &[Component]) -> bool {
    per_gb_month(components).is_some()
        && components.iter().all(|c| match c {
            Component::Capacity { .. } => true,
            Component::CapacityTier { .. } => false,
            Component::Fixed { per_month } => *per_month == 0.0,
            Component::Iops(b) | Component::Throughput(b) => b.per_unit_month == 0.0,
        })
}

/// A `provisioned_iops` / `provisioned_mbps` label as a number of zero or
/// more; `None` when absent or not a number.
fn provisioned_label(labels: &BTreeMap<String, String>, label: &str) -> Option<f64> {
    labels
        .get(label)
        .and_then(|v| v.trim().parse::<f64>().ok())
        .filter(|v| v.is_finite() && *v >= 0.0)
}

/// The IOPS (`iops`) or MB/s the price includes before its bands bill
/// (gp3: 3,000 IOPS and 125 MB/s); `None` when it bills those units and
/// includes none (io1, io2), or does not bill them.
fn included_level(components: &[Component], iops: bool) -> Option<f64> {
    components
        .iter()
        .filter_map(|c| match c {
            Component::Iops(b) if iops => Some(b),
            Component::Throughput(b) if !iops => Some(b),
            _ => None,
        })
        .filter(|b| b.per_unit_month > 0.0)
        .map(|b| b.included)
        .reduce(f64::max)
        .filter(|v| *v > 0.0)
}

/// What a configuration without `provisioned_iops` or `provisioned_mbps`
/// labels is priced at: the level its price includes, for each of the two
/// the price bills above an included level and the labels leave out.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Included {
    /// IOPS included in the price and assumed (no `provisioned_iops`).
    pub iops: Option<f64>,
    /// Throughput included in the price and assumed (no `provisioned_mbps`).
    pub mbps: Option<f64>,
}

impl Included {
    /// The included levels `components` price a configuration with
    /// `labels` at; both `None` when the labels give every billed figure.
    pub fn assumed(components: &[Component], labels: &BTreeMap<String, String>) -> Included {
        let of = |iops: bool, label: &str| match provisioned_label(labels, label) {
            Some(_) => None,
            None => included_level(components, iops),
        };
        Included {
            iops: of(true, "provisioned_iops"),
            mbps: of(false, "provisioned_mbps"),
        }
    }

    /// Beside the price, for the reader: `3,000 IOPS and 125 MiB/s
    /// included; --provisioned-iops, --provisioned-mbps if you bought
    /// more`, throughput in `mbps_unit`, the unit the offering sells it in
    /// (its published limits'); `None` when nothing was assumed.
    pub fn words(&self, mbps_unit: &str) -> Option<String> {
        let count = crate::format::number;
        let (what, flags) = match (self.iops, self.mbps) {
            (Some(i), Some(m)) => (
                format!("{} IOPS and {} {mbps_unit}", count(i), count(m)),
                "--provisioned-iops, --provisioned-mbps",
            ),
            (Some(i), None) => (format!("{} IOPS", count(i)), "--provisioned-iops"),
            (None, Some(m)) => (format!("{} {mbps_unit}", count(m)), "--provisioned-mbps"),
            (None, None) => return None,
        };
        Some(format!("{what} included; {flags} if you bought more"))
    }
}

/// The monthly cost of a configuration under `components`; see
/// [`super::EffectivePrice::try_monthly_cost`].
pub(super) fn monthly_cost(
    components: &[Component],
    size_gb: Option<f64>,
    labels: &BTreeMap<String, String>,
) -> Result<f64, Missing> {
    let mut total = Total::default();
    let bills_size = components.iter().any(|c| {
        matches!(
            c,
            Component::Capacity { .. } | Component::CapacityTier { .. }
        )
    });
    let size = size_gb.filter(|s| s.is_finite() && *s > 0.0);
    if bills_size && size.is_none() {
        return Err(Missing::Size);
    }
    let size = size.unwrap_or(0.0);
    let tiers: Vec<(f64, f64, f64)> = components
        .iter()
        .filter_map(|c| match c {
            Component::CapacityTier {
                above_gb,
                up_to_gb,
                per_month,
            } => Some((*above_gb, *up_to_gb, *per_month)),
            _ => None,
        })
        .collect();
    if !tiers.is_empty() {
        match tiers.iter().find(|(a, u, _)| *a < size && size <= *u) {
            Some((_, _, p)) => total.add(*p),
            None => {
                let largest = tiers.iter().map(|t| t.1).fold(0.0, f64::max);
                return Err(if size > largest {
                    Missing::AboveLargestTier(largest)
                } else {
                    Missing::NoTier(size)
                });
            }
        }
    }
    let bands = |iops: bool| {
        components
            .iter()
            .filter_map(move |c| match c {
                Component::Iops(b) if iops => Some(b),
                Component::Throughput(b) if !iops => Some(b),
                _ => None,
            })
            .filter(|b| b.per_unit_month > 0.0)
    };
    for c in components {
        match c {
            Component::Capacity { per_gb_month } => total.add_product(*per_gb_month, size),
            Component::Fixed { per_month } => total.add(*per_month),
            _ => {}
        }
    }
    for (iops, label, missing, unit) in [
        (true, "provisioned_iops", Missing::ProvisionedIops, "IOPS"),
        (false, "provisioned_mbps", Missing::ProvisionedMbps, "MB/s"),
    ] {
        if bands(iops).next().is_none() {
            continue;
        }
        // no figure given: the level the price includes, where it has one
        let provisioned = match provisioned_label(labels, label) {
            Some(v) => v,
            None => included_level(components, iops).ok_or(missing)?,
        };
        // every band bounded and the count above them all: part unpriced
        let top = bands(iops).try_fold(0.0_f64, |top, b| b.up_to.map(|t| top.max(t)));
        if let Some(top) = top.filter(|t| provisioned > *t) {
            return Err(Missing::AboveLargestBand(unit, top));
        }
        for b in bands(iops) {
            let (low, high) = b.billed(provisioned);
            if high > low {
                total.add_band(b.per_unit_month, low, high);
            }
        }
    }
    Ok(total.value())
}

/// A sum of charges, kept as an exact decimal of the numbers as written
/// (`0.065 × 32000` is 2080, not 2080.0000000000002) and rounded to a
/// double once at the end; plain doubles only if the decimal overflows.
#[derive(Debug)]
struct Total {
    exact: Option<Decimal>,
    approx: f64,
}

impl Default for Total {
    fn default() -> Total {
        Total {
            exact: Some(Decimal { digits: 0, exp: 0 }),
            approx: 0.0,
        }
    }
}

impl Total {
    fn add(&mut self, x: f64) {
        self.approx += x;
        self.exact = self.exact.and_then(|t| t.add(Decimal::of(x)?));
    }

    fn add_product(&mut self, a: f64, b: f64) {
        self.approx += a * b;
        self.exact = self
            .exact
            .and_then(|t| t.add(Decimal::of(a)?.mul(Decimal::of(b)?)?));
    }

    /// `price × (high - low)`.
    fn add_band(&mut self, price: f64, low: f64, high: f64) {
        self.approx += price * (high - low);
        self.exact = self.exact.and_then(|t| {
            let units = Decimal::of(high)?.sub(Decimal::of(low)?)?;
            t.add(Decimal::of(price)?.mul(units)?)
        });
    }

    fn value(&self) -> f64 {
        self.exact.map_or(self.approx, Decimal::to_f64)
    }
}

/// `digits × 10^exp`, exactly.
#[derive(Clone, Copy, Debug)]
struct Decimal {
    digits: i128,
    exp: i32,
}

impl Decimal {
    /// The shortest decimal that reads back as `x`: what the price list says.
    fn of(x: f64) -> Option<Decimal> {
        if !x.is_finite() {
            return None;
        }
        let text = format!("{x:e}");
        let (mantissa, exp) = text.split_once('e')?;
        let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        Some(Decimal {
            digits: format!("{int}{frac}").parse().ok()?,
            exp: exp.parse::<i32>().ok()? - i32::try_from(frac.len()).ok()?,
        })
    }

    fn mul(self, o: Decimal) -> Option<Decimal> {
        Some(Decimal {
            digits: self.digits.checked_mul(o.digits)?,
            exp: self.exp.checked_add(o.exp)?,
        })
    }

    /// Both digit counts at the smaller exponent.
    fn aligned(self, o: Decimal) -> Option<(i128, i128, i32)> {
        let exp = self.exp.min(o.exp);
        let at = |d: Decimal| -> Option<i128> {
            let shift = u32::try_from(d.exp - exp).ok()?;
            d.digits.checked_mul(10i128.checked_pow(shift)?)
        };
        Some((at(self)?, at(o)?, exp))
    }

    fn add(self, o: Decimal) -> Option<Decimal> {
        let (a, b, exp) = self.aligned(o)?;
        Some(Decimal {
            digits: a.checked_add(b)?,
            exp,
        })
    }

    fn sub(self, o: Decimal) -> Option<Decimal> {
        let (a, b, exp) = self.aligned(o)?;
        Some(Decimal {
            digits: a.checked_sub(b)?,
            exp,
        })
    }

    fn to_f64(self) -> f64 {
        // parsing rounds correctly: the one rounding of the whole sum
        format!("{}e{}", self.digits, self.exp)
            .parse()
            .unwrap_or(f64::NAN)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    fn cents(x: f64) -> f64 {
        (x * 100.0).round() / 100.0
    }

    fn band(per_unit_month: f64, above: f64, up_to: Option<f64>) -> Band {
        Band {
            per_unit_month,
            included: 0.0,
            above,
            up_to,
        }
    }

    #[test]
    fn gp3_bills_iops_and_throughput_above_what_is_included() {
        let gp3 = [
            Component::Capacity { per_gb_month: 0.08 },
            Component::Iops(Band::above_included(0.005, 3000.0)),
            Component::Throughput(Band::above_included(0.04, 125.0)),
        ];
        let l = labels(&[("provisioned_iops", "6000"), ("provisioned_mbps", "250")]);
        // 500 × 0.08 + (6000 - 3000) × 0.005 + (250 - 125) × 0.04 = 40 + 15 + 5
        let cost = monthly_cost(&gp3, Some(500.0), &l).unwrap();
        assert_eq!(cents(cost), 60.0);
        assert_eq!(cost, 60.0);
        assert!(!is_flat(&gp3));
        assert_eq!(per_gb_month(&gp3), Some(0.08));
    }

    #[test]
    fn io2_bills_each_iops_band_at_its_own_price() {
        let io2 = [
            Component::Capacity {
                per_gb_month: 0.125,
            },
            Component::Iops(band(0.065, 0.0, Some(32000.0))),
            Component::Iops(band(0.0455, 32000.0, Some(64000.0))),
            Component::Iops(band(0.032, 64000.0, None)),
        ];
        let l = labels(&[("provisioned_iops", "40000")]);
        // 12.50 + 32000 × 0.065 + 8000 × 0.0455 + nothing above 64000
        let cost = monthly_cost(&io2, Some(100.0), &l).unwrap();
        assert_eq!(cents(cost), 2456.5);
        assert_eq!(cost, 2456.5, "no float noise");
        assert_eq!(format!("{cost:.2}"), "2456.50");
        // the third band bills from 64000 on: 12.5 + 2080 + 1456 + 16000 × 0.032
        let l = labels(&[("provisioned_iops", "80000")]);
        assert_eq!(monthly_cost(&io2, Some(100.0), &l).unwrap(), 4060.5);
    }

    #[test]
    fn size_tiers_round_the_size_up() {
        let azure = [
            Component::CapacityTier {
                above_gb: 0.0,
                up_to_gb: 128.0,
                per_month: 19.71,
            },
            Component::CapacityTier {
                above_gb: 128.0,
                up_to_gb: 256.0,
                per_month: 38.02,
            },
            Component::CapacityTier {
                above_gb: 256.0,
                up_to_gb: 512.0,
                per_month: 73.22,
            },
        ];
        let none = BTreeMap::new();
        let cost = |gb: f64| monthly_cost(&azure, Some(gb), &none);
        assert_eq!(cost(200.0), Ok(38.02));
        assert_eq!(cost(128.0), Ok(19.71), "P10 holds exactly 128 GB");
        assert_eq!(cost(129.0), Ok(38.02), "129 GB needs P15");
        assert_eq!(cost(512.0), Ok(73.22));
        // a bigger disk is a tier the list does not give: no cost, not the
        // largest tier's
        assert_eq!(cost(513.0), Err(Missing::AboveLargestTier(512.0)));
        assert_eq!(
            cost(513.0).unwrap_err().to_string(),
            "size above the largest tier (512 GB)"
        );
        assert_eq!(monthly_cost(&azure, None, &none), Err(Missing::Size));
        assert!(!is_flat(&azure));
        assert_eq!(per_gb_month(&azure), None);
        let gap = [azure[0].clone(), azure[2].clone()];
        assert_eq!(
            monthly_cost(&gap, Some(200.0), &none),
            Err(Missing::NoTier(200.0))
        );
    }

    #[test]
    fn throughput_bands_bill_like_iops_bands() {
        let price = [
            Component::Capacity { per_gb_month: 0.08 },
            Component::Throughput(Band {
                per_unit_month: 0.04,
                included: 125.0,
                above: 0.0,
                up_to: Some(1000.0),
            }),
            Component::Throughput(band(0.024, 1000.0, None)),
        ];
        // 200 × 0.08 + (1000 - 125) × 0.04 + (1500 - 1000) × 0.024 = 16 + 35 + 12
        let l = labels(&[("provisioned_mbps", "1500")]);
        assert_eq!(monthly_cost(&price, Some(200.0), &l), Ok(63.0));
        // within what is included: capacity only
        let l = labels(&[("provisioned_mbps", "100")]);
        assert_eq!(monthly_cost(&price, Some(200.0), &l), Ok(16.0));
        // within the first band only
        let l = labels(&[("provisioned_mbps", "600.5")]);
        assert_eq!(monthly_cost(&price, Some(200.0), &l), Ok(35.02));
    }

    #[test]
    fn unknowns_are_named_never_guessed() {
        let price = [
            Component::Capacity { per_gb_month: 0.1 },
            Component::Iops(Band::above_included(0.005, 3000.0)),
            Component::Throughput(Band::above_included(0.04, 125.0)),
        ];
        let err = |size: Option<f64>, l: &[(&str, &str)]| {
            monthly_cost(&price, size, &labels(l))
                .unwrap_err()
                .to_string()
        };
        assert_eq!(err(None, &[]), "size unknown");
        assert_eq!(err(Some(0.0), &[]), "size unknown");
        // a price that includes none: the figure is needed, and the flag named
        let io1 = [
            Component::Capacity {
                per_gb_month: 0.125,
            },
            Component::Iops(Band::above_included(0.065, 0.0)),
            Component::Throughput(Band::above_included(0.35, 0.0)),
        ];
        let io1_err = |l: &[(&str, &str)]| {
            monthly_cost(&io1, Some(100.0), &labels(l))
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            io1_err(&[]),
            "provisioned IOPS unknown: billed per provisioned IOPS, none included; give --provisioned-iops N"
        );
        assert_eq!(
            io1_err(&[("provisioned_iops", "-1")]),
            io1_err(&[]),
            "a negative count is no count"
        );
        assert_eq!(
            io1_err(&[("provisioned_iops", "5000")]),
            "provisioned MB/s unknown: billed per provisioned MB/s, none included; give --provisioned-mbps N"
        );
        assert_eq!(
            Included::assumed(&io1, &labels(&[])),
            Included::default(),
            "nothing included is nothing assumed"
        );
        // a part that bills nothing needs no label; a fixed-only price no size
        let free = [
            Component::Capacity { per_gb_month: 0.1 },
            Component::Iops(Band::above_included(0.0, 0.0)),
        ];
        assert_eq!(monthly_cost(&free, Some(10.0), &BTreeMap::new()), Ok(1.0));
        assert!(is_flat(&free));
        let fixed = [Component::Fixed { per_month: 4.99 }];
        assert_eq!(monthly_cost(&fixed, None, &BTreeMap::new()), Ok(4.99));
        assert!(!is_flat(&fixed));
    }

    #[test]
    fn without_provisioned_figures_the_included_level_is_priced_and_said() {
        let gp3 = [
            Component::Capacity { per_gb_month: 0.08 },
            Component::Iops(Band::above_included(0.005, 3000.0)),
            Component::Throughput(Band::above_included(0.04, 125.0)),
        ];
        // plain gp3 at 100 GB: 100 × 0.08, nothing above the included level
        assert_eq!(monthly_cost(&gp3, Some(100.0), &labels(&[])), Ok(8.0));
        assert_eq!(
            Included::assumed(&gp3, &labels(&[])).words("MiB/s").as_deref(),
            Some("3,000 IOPS and 125 MiB/s included; --provisioned-iops, --provisioned-mbps if you bought more")
        );
        // 16,000 IOPS and 500 MB/s bought: 8 + 13,000 × 0.005 + 375 × 0.04
        let bought = labels(&[("provisioned_iops", "16000"), ("provisioned_mbps", "500")]);
        assert_eq!(monthly_cost(&gp3, Some(100.0), &bought), Ok(88.0));
        assert_eq!(Included::assumed(&gp3, &bought).words("MiB/s"), None);
        // one given, the other at its included level, and only it said
        let iops_only = labels(&[("provisioned_iops", "16000")]);
        assert_eq!(monthly_cost(&gp3, Some(100.0), &iops_only), Ok(73.0));
        assert_eq!(
            Included::assumed(&gp3, &iops_only).words("MB/s").as_deref(),
            Some("125 MB/s included; --provisioned-mbps if you bought more")
        );
    }

    #[test]
    fn sums_are_exact_decimals_rounded_once() {
        let mut t = Total::default();
        t.add_product(0.1, 3.0);
        assert_eq!(t.value(), 0.3);
        assert_ne!(0.1 * 3.0, 0.3, "what plain doubles would give");
        t.add_band(0.7, 0.1, 100.1);
        assert_eq!(t.value(), 70.3);
        // 10^600 has no i128: the sum falls back to doubles
        let mut big = Total::default();
        big.add(1e300);
        big.add(1e-300);
        assert!(big.exact.is_none());
        assert_eq!(big.value(), 1e300);
    }
}
