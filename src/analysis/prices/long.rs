//! The long price-list format: one row per price component,
//! `provider,offering,currency,as_of,source,component,price,from,to,included`
//! and an optional `region`, the rows of one provider, offering and region
//! making one price.

use std::collections::BTreeMap;

use anyhow::{bail, Context, Result};

use super::{currency_code, key, line_of, number_in, Band, Component, Key, PriceEntry};
use crate::plausible;

/// The columns, in the order the docs give them.
const COLUMNS: &str =
    "provider,offering,currency,as_of,source,component,price,from,to,included,region";

/// An entry being gathered from its rows: the line each part came from, for
/// messages about a later row that contradicts it.
struct Gathering {
    entry: PriceEntry,
    currency_line: usize,
    as_of_line: Option<usize>,
    source_line: Option<usize>,
    /// Per component: its kind, the interval it covers, and its line.
    spans: Vec<(&'static str, f64, Option<f64>, usize)>,
}

/// Reads the rows after the header; errors name the line (1-based).
pub(super) fn parse(
    text: &str,
    mut reader: csv::Reader<&[u8]>,
    headers: &csv::StringRecord,
) -> Result<BTreeMap<Key, PriceEntry>> {
    let col = |name: &str| headers.iter().position(|h| h == name);
    if col("per_gb_month").is_some() {
        bail!(
            "line 1: both `per_gb_month` and `component` columns; a list is either one row per offering or one row per price component ({COLUMNS})"
        );
    }
    let mut cols: BTreeMap<&str, usize> = BTreeMap::new();
    for name in COLUMNS.split(',') {
        match col(name) {
            Some(i) => {
                cols.insert(name, i);
            }
            None if matches!(
                name,
                "as_of" | "source" | "from" | "to" | "included" | "region"
            ) => {}
            None => bail!("line 1: missing column `{name}` (expected {COLUMNS})"),
        }
    }
    let mut gathered: BTreeMap<Key, Gathering> = BTreeMap::new();
    for (i, row) in reader.records().enumerate() {
        let fallback = i + 2;
        let row = row.with_context(|| format!("line {fallback}: unreadable row"))?;
        let line = line_of(text, &row, fallback);
        let text = |name: &str| -> Option<String> {
            row.get(*cols.get(name)?)
                .filter(|s| !s.is_empty())
                .map(str::to_string)
        };
        let number = |name: &str| -> Result<Option<f64>> {
            match text(name) {
                None => Ok(None),
                Some(s) => match s.parse::<f64>() {
                    Ok(v) if v.is_finite() && v >= 0.0 => Ok(Some(v)),
                    _ => bail!("line {line}: `{name}` is `{s}`, expected a number of zero or more"),
                },
            }
        };
        let provider =
            text("provider").with_context(|| format!("line {line}: empty `provider`"))?;
        let offering =
            text("offering").with_context(|| format!("line {line}: empty `offering`"))?;
        let currency = currency_code(
            line,
            text("currency").with_context(|| format!("line {line}: empty `currency`"))?,
        )?;
        let kind = text("component").with_context(|| format!("line {line}: empty `component`"))?;
        let price = number("price")?.with_context(|| format!("line {line}: empty `price`"))?;
        let (from, to, included) = (number("from")?, number("to")?, number("included")?);
        // an empty `from` is 0: `to` of 0 holds nothing either
        if let Some(t) = to.filter(|t| from.unwrap_or(0.0) >= *t) {
            let f = from.unwrap_or(0.0);
            bail!("line {line}: `from` ({f}) must be below `to` ({t})");
        }
        let no_bounds = |kind: &str| -> Result<()> {
            if from.is_some() || to.is_some() || included.is_some() {
                bail!("line {line}: a `{kind}` price takes no `from`, `to` or `included`");
            }
            Ok(())
        };
        let above_zero = |kind: &str| -> Result<()> {
            if price <= 0.0 {
                bail!("line {line}: a `{kind}` price must be above zero (leave an offering without a price out of the list)");
            }
            Ok(())
        };
        let band = || Band {
            per_unit_month: price,
            included: included.unwrap_or(0.0),
            above: from.unwrap_or(0.0),
            up_to: to,
        };
        let (kind, component): (&'static str, Component) = match kind.as_str() {
            "capacity" => {
                no_bounds("capacity")?;
                above_zero("capacity")?;
                ("capacity", Component::Capacity { per_gb_month: price })
            }
            "capacity_tier" => {
                above_zero("capacity_tier")?;
                let up_to_gb = to.with_context(|| {
                    format!("line {line}: a `capacity_tier` needs `to`, the largest size in GB it holds")
                })?;
                if included.is_some() {
                    bail!("line {line}: a `capacity_tier` price takes no `included`");
                }
                (
                    "capacity_tier",
                    Component::CapacityTier {
                        above_gb: from.unwrap_or(0.0),
                        up_to_gb,
                        per_month: price,
                    },
                )
            }
            "fixed" => {
                no_bounds("fixed")?;
                ("fixed", Component::Fixed { per_month: price })
            }
            "iops" => ("iops", Component::Iops(band())),
            "throughput" => ("throughput", Component::Throughput(band())),
            other => bail!(
                "line {line}: `component` is `{other}`, expected capacity, capacity_tier, fixed, iops or throughput"
            ),
        };
        // each column in the plausible range of what this component counts
        let (price_range, bound_range) = match kind {
            "capacity" => (plausible::PRICE_PER_GB_MONTH, plausible::SIZE_EDGE_GB),
            "iops" => (plausible::PRICE_PER_IOPS_MONTH, plausible::PROVISIONED_IOPS),
            "throughput" => (plausible::PRICE_PER_MBPS_MONTH, plausible::PROVISIONED_MBPS),
            // capacity_tier and fixed: a price per month; a tier's bounds are GB
            _ => (plausible::PRICE_MONTHLY, plausible::SIZE_EDGE_GB),
        };
        for (name, range) in [
            ("price", price_range),
            ("from", bound_range),
            ("to", bound_range),
            ("included", bound_range),
        ] {
            if let Some(t) = text(name) {
                number_in(line, name, &t, range)?;
            }
        }
        let region = text("region");
        let g = gathered
            .entry(key(&provider, &offering, region.as_deref()))
            .or_insert_with(|| Gathering {
                entry: PriceEntry {
                    provider,
                    offering,
                    region,
                    currency: currency.clone(),
                    as_of: None,
                    source: None,
                    components: Vec::new(),
                },
                currency_line: line,
                as_of_line: None,
                source_line: None,
                spans: Vec::new(),
            });
        let name = match &g.entry.region {
            Some(r) => format!("{} {} in {r}", g.entry.provider, g.entry.offering),
            None => format!("{} {}", g.entry.provider, g.entry.offering),
        };
        if currency != g.entry.currency {
            bail!(
                "line {line}: `{name}` priced in {currency} here and in {} on line {}; one price has one currency",
                g.entry.currency,
                g.currency_line
            );
        }
        for (column, value, first) in [
            ("as_of", &mut g.entry.as_of, &mut g.as_of_line),
            ("source", &mut g.entry.source, &mut g.source_line),
        ] {
            match (text(column), &value, *first) {
                (Some(v), Some(seen), Some(at)) if v != *seen => bail!(
                    "line {line}: `{column}` of `{name}` is `{v}` here and `{seen}` on line {at}; give it once, or the same on every row"
                ),
                (Some(v), None, _) => {
                    *value = Some(v);
                    *first = Some(line);
                }
                _ => {}
            }
        }
        // capacity and fixed cover everything: a second one overlaps the first
        let (low, high) = match &component {
            Component::CapacityTier {
                above_gb, up_to_gb, ..
            } => (*above_gb, Some(*up_to_gb)),
            Component::Iops(b) | Component::Throughput(b) => (b.above, b.up_to),
            _ => (0.0, None),
        };
        let overlaps = |l: f64, h: Option<f64>| {
            low < h.unwrap_or(f64::INFINITY) && l < high.unwrap_or(f64::INFINITY)
        };
        if let Some((_, l, h, at)) = g
            .spans
            .iter()
            .find(|(k, l, h, _)| *k == kind && overlaps(*l, *h))
        {
            let span = |l: f64, h: Option<f64>| match h {
                Some(h) => format!("({l}, {h}]"),
                None => format!("above {l}"),
            };
            bail!(
                "line {line}: this `{kind}` price for `{name}` covers {}, overlapping line {at}'s {}",
                span(low, high),
                span(*l, *h)
            );
        }
        g.spans.push((kind, low, high, line));
        g.entry.components.push(component);
    }
    Ok(gathered.into_iter().map(|(k, g)| (k, g.entry)).collect())
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use crate::analysis::prices::{Component, Missing, PriceBook};

    const HEADER: &str =
        "provider,offering,currency,as_of,source,component,price,from,to,included\n";

    const LIST: &str = "\
AWS,gp3,USD,2024-06,pricing page,capacity,0.08,,,
AWS,gp3,USD,,,iops,0.005,,,3000
AWS,gp3,USD,,,throughput,0.04,,,125
AWS,io2,USD,2024-06,pricing page,capacity,0.125,,,
aws,IO2,usd,2024-06,,iops,0.065,,32000,
AWS,io2,USD,,,iops,0.0455,32000,64000,
AWS,io2,USD,,,iops,0.032,64000,,
Azure,Premium SSD,USD,2024-06,pricing page,capacity_tier,19.71,0,128,
Azure,Premium SSD,USD,,,capacity_tier,38.02,128,256,
Azure,Premium SSD,USD,,,capacity_tier,73.22,256,512,
";

    fn book() -> PriceBook {
        PriceBook::parse(&format!("{HEADER}{LIST}")).unwrap()
    }

    fn labels(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    fn cents(x: f64) -> f64 {
        (x * 100.0).round() / 100.0
    }

    fn err(rows: &str) -> String {
        format!(
            "{:#}",
            PriceBook::parse(&format!("{HEADER}{rows}")).unwrap_err()
        )
    }

    #[test]
    fn rows_of_one_offering_make_one_price() {
        let book = book();
        let p = book
            .effective(Some("AWS"), Some("gp3"), None, None)
            .unwrap();
        assert_eq!(p.currency, "USD");
        assert_eq!(p.note.as_deref(), Some("pricing page, as of 2024-06"));
        assert_eq!(p.components.len(), 3);
        assert_eq!(p.per_gb_month(), Some(0.08));
        assert!(!p.is_flat());
        let l = labels(&[("provisioned_iops", "6000"), ("provisioned_mbps", "250")]);
        let cost = p.try_monthly_cost(Some(500.0), &l).unwrap();
        assert_eq!(cents(cost), 60.0);
        assert_eq!(format!("{cost:.2}"), "60.00");
    }

    #[test]
    fn io2_bands_from_the_list() {
        let p = book()
            .effective(Some("AWS"), Some("io2"), None, None)
            .unwrap();
        let l = labels(&[("provisioned_iops", "40000")]);
        // 100 × 0.125 + 32000 × 0.065 + 8000 × 0.0455 = 12.50 + 2080 + 364
        let cost = p.try_monthly_cost(Some(100.0), &l).unwrap();
        assert_eq!(cents(cost), 2456.5);
        assert_eq!(cost, 2456.5);
        assert_eq!(
            p.try_monthly_cost(Some(100.0), &BTreeMap::new()),
            Err(Missing::ProvisionedIops)
        );
    }

    #[test]
    fn units_above_every_band_leave_the_cost_unknown() {
        // io2 with only its first band known: 40,000 IOPS is not 32,000 × 0.065
        let book = PriceBook::parse(&format!(
            "{HEADER}AWS,io2,USD,,,capacity,0.125,,,\nAWS,io2,USD,,,iops,0.065,,32000,\n"
        ))
        .unwrap();
        let p = book
            .effective(Some("AWS"), Some("io2"), None, None)
            .unwrap();
        let at =
            |iops: &str| p.try_monthly_cost(Some(100.0), &labels(&[("provisioned_iops", iops)]));
        assert_eq!(at("32000"), Ok(2092.5));
        let e = at("40000").unwrap_err();
        assert_eq!(e, Missing::AboveLargestBand("IOPS", 32000.0));
        assert_eq!(
            e.to_string(),
            "provisioned IOPS above the highest priced band (32000 IOPS)"
        );
        // an open last band prices every unit
        assert_eq!(
            book_of_full_io2()
                .try_monthly_cost(Some(100.0), &labels(&[("provisioned_iops", "40000")])),
            Ok(2456.5)
        );
    }

    fn book_of_full_io2() -> crate::analysis::prices::EffectivePrice {
        book()
            .effective(Some("AWS"), Some("io2"), None, None)
            .unwrap()
    }

    #[test]
    fn azure_tiers_from_the_list() {
        let p = book()
            .effective(Some("azure"), Some("premium ssd"), None, None)
            .unwrap();
        let none = BTreeMap::new();
        assert_eq!(p.try_monthly_cost(Some(200.0), &none), Ok(38.02));
        assert_eq!(p.try_monthly_cost(Some(128.0), &none), Ok(19.71));
        assert_eq!(p.try_monthly_cost(Some(129.0), &none), Ok(38.02));
        let too_big = p.try_monthly_cost(Some(1024.0), &none).unwrap_err();
        assert_eq!(too_big.to_string(), "size above the largest tier (512 GB)");
        assert_eq!(p.monthly_cost(Some(1024.0), &none), None);
        assert_eq!(
            p.per_gb_month(),
            None,
            "a tier-only price has no per-GB price"
        );
        assert!(!p.is_flat());
    }

    #[test]
    fn capacity_alone_is_flat_and_unmatched_rows_are_found() {
        let book =
            PriceBook::parse(&format!("{HEADER}A,flat,EUR,,,capacity,0.1,,,\n{LIST}")).unwrap();
        let p = book.effective(Some("A"), Some("flat"), None, None).unwrap();
        assert!(p.is_flat());
        assert_eq!(p.per_gb_month(), Some(0.1));
        assert_eq!(p.note.as_deref(), Some("price list"));
        let left = book.unmatched([(Some("AWS"), Some("gp3")), (Some("aws"), Some("io2"))]);
        let names: Vec<&str> = left.iter().map(|e| e.offering.as_str()).collect();
        assert_eq!(names, ["flat", "Premium SSD"]);
        assert!(matches!(
            book.get(Some("azure"), Some("premium ssd"))
                .unwrap()
                .components[0],
            Component::CapacityTier { .. }
        ));
    }

    #[test]
    fn regions_of_one_offering_are_kept_apart() {
        let book = PriceBook::parse(
            "# a comment line, and a blank one\n\nprovider,offering,region,currency,component,price\n\
             AWS,gp3,us-east-1,USD,capacity,0.08\n\
             # between rows\n\
             AWS,gp3,eu-central-1,USD,capacity,0.0952\n\
             AWS,gp3,,USD,capacity,0.09\n\
             AWS,gp3,US-EAST-1,USD,fixed,1\n",
        )
        .unwrap();
        assert_eq!(book.entries().count(), 3);
        let east = book
            .get_in(Some("aws"), Some("GP3"), Some("us-east-1"))
            .unwrap();
        assert_eq!(east.region.as_deref(), Some("us-east-1"));
        assert_eq!(east.components.len(), 2);
        let frankfurt = book
            .get_in(Some("AWS"), Some("gp3"), Some("eu-central-1"))
            .unwrap();
        assert_eq!(frankfurt.per_gb_month(), Some(0.0952));
        // `get` is the price for any region, a row without one
        let any = book.get(Some("AWS"), Some("gp3")).unwrap();
        assert_eq!(
            (any.region.as_ref(), any.per_gb_month()),
            (None, Some(0.09))
        );
        assert!(book
            .get_in(Some("AWS"), Some("gp3"), Some("us-west-2"))
            .is_none());
        // comment lines count in the line numbers of errors
        let e = format!(
            "{:#}",
            PriceBook::parse(
                "provider,offering,region,currency,component,price\n# c\nA,b,r1,USD,capacity,0.1\nA,b,R1,USD,capacity,0.2\n"
            )
            .unwrap_err()
        );
        assert!(
            e.contains("line 4") && e.contains("`A b in r1`") && e.contains("overlapping line 3"),
            "{e}"
        );
        // two books with the same provider, offering and region do not merge
        let one = PriceBook::parse(
            "provider,offering,region,currency,component,price\nA,b,r1,USD,capacity,0.1\n",
        )
        .unwrap();
        let e = one.clone().merged(one).unwrap_err().to_string();
        assert_eq!(e, "a second price for `A b` in r1");
    }

    #[test]
    fn columns_may_come_in_any_order_and_optional_ones_may_be_left_out() {
        let book = PriceBook::parse(
            "component,price,provider,offering,currency\nfixed,4.99,A,b,USD\ncapacity,0.1,A,b,USD\n",
        )
        .unwrap();
        let p = book.effective(Some("A"), Some("b"), None, None).unwrap();
        assert_eq!(p.try_monthly_cost(Some(10.0), &BTreeMap::new()), Ok(5.99));
    }

    #[test]
    fn malformed_rows_name_the_line() {
        let cases = [
            ("A,b,USD,,,disk,0.1,,,\n", "line 2", "`component` is `disk`"),
            ("A,b,USD,,,capacity,,,,\n", "line 2", "empty `price`"),
            ("A,b,USD,,,capacity,0,,,\n", "line 2", "above zero"),
            ("A,b,USD,,,iops,-0.1,,,\n", "line 2", "`price` is `-0.1`"),
            ("A,b,USD,,,iops,0.1,,,-5\n", "line 2", "`included` is `-5`"),
            (
                "A,b,USD,,,iops,0.1,64000,32000,\n",
                "line 2",
                "must be below `to`",
            ),
            (
                "A,b,USD,,,capacity_tier,9,128,128,\n",
                "line 2",
                "must be below `to`",
            ),
            ("A,b,USD,,,capacity_tier,9,128,,\n", "line 2", "needs `to`"),
            (
                "A,b,USD,,,capacity_tier,9,,0,\n",
                "line 2",
                "`from` (0) must be below `to` (0)",
            ),
            (
                "A,b,USD,,,capacity,0.1,0,10,\n",
                "line 2",
                "takes no `from`",
            ),
            (
                "A,b,USD,,,capacity,0.1,,,\nA,b,EUR,,,fixed,1,,,\n",
                "line 3",
                "in EUR here and in USD on line 2",
            ),
            (
                "A,b,USD,,,capacity_tier,9,0,128,\nA,b,USD,,,capacity_tier,19,100,256,\n",
                "line 3",
                "covers (100, 256], overlapping line 2's (0, 128]",
            ),
            (
                "A,b,USD,,,iops,0.06,,32000,\nA,b,USD,,,iops,0.03,16000,,\n",
                "line 3",
                "overlapping line 2's (0, 32000]",
            ),
            (
                "A,b,USD,,,capacity,0.1,,,\na,B,USD,,,capacity,0.2,,,\n",
                "line 3",
                "this `capacity` price for `A b`",
            ),
            (
                "A,b,USD,2024-01,,capacity,0.1,,,\nA,b,USD,2024-06,,fixed,1,,,\n",
                "line 3",
                "`as_of` of `A b` is `2024-06` here and `2024-01` on line 2",
            ),
            ("A,b,$,,,capacity,0.1,,,\n", "line 2", "ISO 4217"),
            ("A,b,USD,,,capacity,0.1,,\n", "line 2", "unreadable row"),
        ];
        for (rows, line, what) in cases {
            let e = err(rows);
            assert!(e.contains(line) && e.contains(what), "{rows}: {e}");
        }
        // bands that only touch do not overlap; iops and throughput are apart
        PriceBook::parse(&format!(
            "{HEADER}A,b,USD,,,iops,0.06,,32000,\nA,b,USD,,,iops,0.03,32000,,\nA,b,USD,,,throughput,0.04,,,\n"
        ))
        .unwrap();
        let e = format!(
            "{:#}",
            PriceBook::parse("provider,offering,per_gb_month,currency,component,price\n")
                .unwrap_err()
        );
        assert!(e.contains("line 1") && e.contains("either"), "{e}");
        let e = format!(
            "{:#}",
            PriceBook::parse("provider,offering,component,price\n").unwrap_err()
        );
        assert!(e.contains("missing column `currency`"), "{e}");
    }
}
