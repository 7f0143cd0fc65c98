//! Tests of the value analysis: verdict bands, configurations, price bases,
//! uncertainty, failures, and timed tests judged on their sustained level.

use super::*;
use crate::analysis::stats::group;
use crate::analysis::testing::record;
use crate::record::{Metric, Pattern, Record};

#[test]
fn bands_split_where_the_table_says() {
    assert_eq!(band(1.0).verdict, "worth it");
    assert_eq!(band(0.999).verdict, "nearly worth it");
    assert_eq!(band(0.8).verdict, "nearly worth it");
    assert_eq!(band(0.79).verdict, "not quite");
    assert_eq!(band(0.5).verdict, "not quite");
    assert_eq!(band(0.21).verdict, "no");
}

#[test]
fn verdicts_follow_the_ratio_as_shown() {
    assert_eq!(verdict(0.9999999999999999), "worth it");
    // shown as 0.499: below the 0.5 band
    assert_eq!(verdict(0.4992), "no");
    assert_eq!(verdict(0.7996), "nearly worth it");
    // N times the price for exactly N times the performance
    let recs = [
        record(
            "a",
            "P",
            "base",
            Some(0.05),
            "t",
            &[("iops", 100.0, "IOPS")],
        ),
        record(
            "b",
            "P",
            "more",
            Some(0.07),
            "t",
            &[("iops", 140.0, "IOPS")],
        ),
    ];
    let recs: Vec<Summary> = recs.into_iter().map(Summary::from).collect();
    let refs: Vec<_> = recs.iter().collect();
    let v = analyse(&refs, &group(&refs), &PriceBook::default(), None).unwrap();
    let row = &v[0].tables[0].rows[1];
    assert_eq!(row.offering, "P more");
    assert_eq!(row.verdict, Some("worth it"));
}

#[test]
fn rackspace_ratios_and_verdicts() {
    let recs = [
        record(
            "sata",
            "Rackspace",
            "SATA",
            Some(0.15),
            "bonnie",
            &[
                ("random_seeks", 473.4, "ops/s"),
                ("seq_block_read_bw", 95981.0 * 1024.0, "B/s"),
            ],
        ),
        record(
            "ssd",
            "Rackspace",
            "SSD",
            Some(0.70),
            "bonnie",
            &[
                ("random_seeks", 1969.0, "ops/s"),
                ("seq_block_read_bw", 95927.0 * 1024.0, "B/s"),
            ],
        ),
        record(
            "local",
            "Rackspace",
            "Local",
            None,
            "bonnie",
            &[("random_seeks", 578.6, "ops/s")],
        ),
    ];
    let recs: Vec<Summary> = recs.into_iter().map(Summary::from).collect();
    let refs: Vec<_> = recs.iter().collect();
    let v = analyse(&refs, &group(&refs), &PriceBook::default(), None).unwrap();
    assert_eq!(v.len(), 1);
    assert_eq!(v[0].baseline.as_deref(), Some("Rackspace SATA"));
    let seeks = v[0]
        .tables
        .iter()
        .find(|t| t.metric == "random_seeks")
        .unwrap();
    let names: Vec<&str> = seeks.rows.iter().map(|r| r.offering.as_str()).collect();
    assert_eq!(
        names,
        ["Rackspace SATA", "Rackspace SSD", "Rackspace Local"]
    );
    let ssd = &seeks.rows[1];
    assert!((ssd.price_ratio.unwrap() - 0.70 / 0.15).abs() < 1e-12);
    assert!((ssd.performance_ratio.unwrap() - 1969.0 / 473.4).abs() < 1e-12);
    assert!((ssd.value_ratio.unwrap() - (1969.0 / 473.4) / (0.70 / 0.15)).abs() < 1e-12);
    assert_eq!(ssd.verdict, Some("nearly worth it"));
    assert_eq!(seeks.rows[0].verdict, Some(BASELINE_VERDICT));
    // no price: performance kept, no ratio against price
    let local = &seeks.rows[2];
    assert_eq!(local.median, 578.6);
    assert_eq!(local.price_ratio, None);
    assert_eq!(local.value_ratio, None);
    assert_eq!(local.verdict, None);
    assert!((local.performance_ratio.unwrap() - 578.6 / 473.4).abs() < 1e-12);
    let read = v[0]
        .tables
        .iter()
        .find(|t| t.metric == "seq_block_read_bw")
        .unwrap();
    assert_eq!(read.rows[1].verdict, Some("no"));
    // 100 GB at 0.70
    assert!((v[0].monthly_costs["Rackspace SSD"].unwrap() - 70.0).abs() < 1e-9);
    assert_eq!(v[0].monthly_costs["Rackspace Local"], None);
}

#[test]
fn latency_ratio_is_inverted() {
    let recs = [
        record(
            "a",
            "P",
            "cheap",
            Some(0.1),
            "ioping-latency",
            &[("lat_avg", 400e-6, "s")],
        ),
        record(
            "b",
            "P",
            "dear",
            Some(0.2),
            "ioping-latency",
            &[("lat_avg", 100e-6, "s")],
        ),
    ];
    let recs: Vec<Summary> = recs.into_iter().map(Summary::from).collect();
    let refs: Vec<_> = recs.iter().collect();
    let v = analyse(&refs, &group(&refs), &PriceBook::default(), None).unwrap();
    let row = &v[0].tables[0].rows[1];
    assert_eq!(row.offering, "P dear");
    assert!((row.performance_ratio.unwrap() - 4.0).abs() < 1e-12);
    assert!((row.value_ratio.unwrap() - 2.0).abs() < 1e-12);
    assert_eq!(row.verdict, Some("worth it"));
    assert_eq!(row.per_cost, None);
}

#[test]
fn explicit_baseline_and_errors() {
    let recs = [
        record(
            "a",
            "P",
            "cheap",
            Some(0.1),
            "t",
            &[("iops", 100.0, "IOPS")],
        ),
        record("b", "P", "dear", Some(0.2), "t", &[("iops", 300.0, "IOPS")]),
        record("c", "P", "free", None, "t", &[("iops", 300.0, "IOPS")]),
    ];
    let recs: Vec<Summary> = recs.into_iter().map(Summary::from).collect();
    let refs: Vec<_> = recs.iter().collect();
    let data = group(&refs);
    let v = analyse(&refs, &data, &PriceBook::default(), Some("p-dear")).unwrap();
    assert_eq!(v[0].baseline.as_deref(), Some("P dear"));
    assert_eq!(v[0].baseline_reason, "chosen with --baseline");
    let cheap = v[0].tables[0]
        .rows
        .iter()
        .find(|r| r.offering == "P cheap")
        .unwrap();
    assert!((cheap.price_ratio.unwrap() - 0.5).abs() < 1e-12);
    assert!((cheap.performance_ratio.unwrap() - 100.0 / 300.0).abs() < 1e-12);
    // placeholder slugs match nothing but the exact name
    let recs = [
        record(
            "j",
            "日本",
            "クラウド",
            Some(0.1),
            "t",
            &[("iops", 1.0, "IOPS")],
        ),
        record("k", "X", "", Some(0.2), "t", &[("iops", 1.0, "IOPS")]),
    ];
    let recs: Vec<Summary> = recs.into_iter().map(Summary::from).collect();
    let refs: Vec<_> = recs.iter().collect();
    let odd = group(&refs);
    let err = analyse(&refs, &odd, &PriceBook::default(), Some("!!!")).unwrap_err();
    assert!(format!("{err}").contains("names no offering"), "{err}");
    let v = analyse(&refs, &odd, &PriceBook::default(), Some("日本 クラウド")).unwrap();
    assert_eq!(v[0].baseline.as_deref(), Some("日本 クラウド"));
    let err = analyse(&refs, &data, &PriceBook::default(), Some("nope")).unwrap_err();
    assert!(format!("{err}").contains("names no offering"));
    let err = analyse(&refs, &data, &PriceBook::default(), Some("P free")).unwrap_err();
    assert!(format!("{err}").contains("has no price"));
}

#[test]
fn zero_performance_is_a_verdict_not_a_gap() {
    let recs = [
        record(
            "a",
            "P",
            "cheap",
            Some(0.1),
            "t",
            &[("iops", 100.0, "IOPS")],
        ),
        record("b", "P", "dead", Some(0.2), "t", &[("iops", 0.0, "IOPS")]),
        record("c", "P", "odd", Some(0.3), "u", &[("iops", 5.0, "IOPS")]),
    ];
    let recs: Vec<Summary> = recs.into_iter().map(Summary::from).collect();
    let refs: Vec<_> = recs.iter().collect();
    let v = analyse(&refs, &group(&refs), &PriceBook::default(), None).unwrap();
    let t = &v[0].tables[0];
    let dead = &t.rows[1];
    assert_eq!(dead.offering, "P dead");
    assert_eq!(dead.performance_ratio, Some(0.0));
    assert_eq!(dead.value_ratio, Some(0.0));
    assert_eq!(dead.verdict, Some("no"));
    // lower is better: a baseline latency of zero gives no ratio, not "0x"
    let recs2 = [
        record(
            "a",
            "P",
            "cheap",
            Some(0.1),
            "ioping-latency",
            &[("lat_avg", 0.0, "s")],
        ),
        record(
            "b",
            "P",
            "dear",
            Some(0.2),
            "ioping-latency",
            &[("lat_avg", 5e-3, "s")],
        ),
    ];
    let recs2: Vec<Summary> = recs2.into_iter().map(Summary::from).collect();
    let refs2: Vec<_> = recs2.iter().collect();
    let v2 = analyse(&refs2, &group(&refs2), &PriceBook::default(), None).unwrap();
    let lat = &v2[0].tables[0].rows[1];
    assert_eq!(lat.offering, "P dear");
    assert_eq!((lat.performance_ratio, lat.verdict), (None, None));
    // CPU use is bookkeeping: never a value table
    let recs3 = [
        record(
            "a",
            "P",
            "cheap",
            Some(0.1),
            "bonnie",
            &[("random_seeks_cpu", 0.0, "%")],
        ),
        record(
            "b",
            "P",
            "dear",
            Some(0.2),
            "bonnie",
            &[("random_seeks_cpu", 5.0, "%")],
        ),
    ];
    let recs3: Vec<Summary> = recs3.into_iter().map(Summary::from).collect();
    let refs3: Vec<_> = recs3.iter().collect();
    let v3 = analyse(&refs3, &group(&refs3), &PriceBook::default(), None).unwrap();
    assert!(v3[0].tables.is_empty());
    // test `u`: the baseline named with --baseline has no result, and the row says so
    let v = analyse(&refs, &group(&refs), &PriceBook::default(), Some("P cheap")).unwrap();
    let u = &v[0].tables[1];
    assert_eq!(
        u.rows[0].no_verdict.as_deref(),
        Some("no baseline result for this metric: not compared")
    );
}

#[test]
fn a_cheapest_baseline_without_the_metric_gives_way_in_that_table() {
    let mut failed = record("a", "P", "cheap", Some(0.1), "fio", &[]);
    failed.status = crate::record::Status::Failed;
    failed.error = Some("libaio missing".into());
    let recs = [
        failed,
        record(
            "a2",
            "P",
            "cheap",
            Some(0.1),
            "dd",
            &[("write_bw", 1e8, "B/s")],
        ),
        record(
            "b",
            "P",
            "mid",
            Some(0.2),
            "fio",
            &[("read_iops", 1000.0, "IOPS")],
        ),
        record(
            "b2",
            "P",
            "mid",
            Some(0.2),
            "dd",
            &[("write_bw", 1e8, "B/s")],
        ),
        record(
            "c",
            "P",
            "dear",
            Some(0.4),
            "fio",
            &[("read_iops", 4000.0, "IOPS")],
        ),
    ];
    let recs: Vec<Summary> = recs.into_iter().map(Summary::from).collect();
    let refs: Vec<_> = recs.iter().collect();
    let data = group(&refs);
    let v = analyse(&refs, &data, &PriceBook::default(), None).unwrap();
    assert_eq!(v[0].baseline.as_deref(), Some("P cheap"));
    let fio = v[0].tables.iter().find(|t| t.test == "fio").unwrap();
    assert_eq!(fio.baseline_row().unwrap().offering, "P mid");
    let dear = fio.rows.iter().find(|r| r.offering == "P dear").unwrap();
    assert!((dear.price_ratio.unwrap() - 2.0).abs() < 1e-12);
    assert!((dear.performance_ratio.unwrap() - 4.0).abs() < 1e-12);
    assert_eq!(dear.verdict, Some("worth it"));
    let dd = v[0].tables.iter().find(|t| t.test == "dd").unwrap();
    assert_eq!(dd.baseline_row().unwrap().offering, "P cheap");
    // a baseline named with --baseline is kept: the table has no ratios
    let v = analyse(&refs, &data, &PriceBook::default(), Some("P cheap")).unwrap();
    let fio = v[0].tables.iter().find(|t| t.test == "fio").unwrap();
    assert!(fio.baseline_row().is_none());
    assert!(fio.rows.iter().all(|r| r.verdict.is_none()));
}

#[test]
fn no_prices_means_no_baseline_and_no_ratios() {
    let recs = [record("a", "P", "x", None, "t", &[("iops", 100.0, "IOPS")])];
    let recs: Vec<Summary> = recs.into_iter().map(Summary::from).collect();
    let refs: Vec<_> = recs.iter().collect();
    let v = analyse(&refs, &group(&refs), &PriceBook::default(), None).unwrap();
    assert_eq!(v[0].baseline, None);
    let row = &v[0].tables[0].rows[0];
    assert_eq!(
        (row.price_ratio, row.performance_ratio, row.verdict),
        (None, None, None)
    );
}

#[test]
fn another_currency_gets_no_price_ratio() {
    // 0.05 EUR is not "cheaper" than 0.10 USD: the baseline is the
    // cheapest in the currency most offerings use
    let mut eur = record(
        "b",
        "P",
        "euro",
        Some(0.05),
        "t",
        &[("iops", 300.0, "IOPS")],
    );
    if let Some(p) = eur.subject.price.as_mut() {
        p.currency = "EUR".into();
    }
    let recs = [
        record("a", "P", "usd", Some(0.1), "t", &[("iops", 100.0, "IOPS")]),
        eur,
        record("c", "P", "usd2", Some(0.2), "t", &[("iops", 250.0, "IOPS")]),
    ];
    let recs: Vec<Summary> = recs.into_iter().map(Summary::from).collect();
    let refs: Vec<_> = recs.iter().collect();
    let v = analyse(&refs, &group(&refs), &PriceBook::default(), None).unwrap();
    assert_eq!(v[0].baseline.as_deref(), Some("P usd"));
    let t = &v[0].tables[0];
    // the baseline's currency first, by price; the other currency after
    let names: Vec<&str> = t.rows.iter().map(|r| r.offering.as_str()).collect();
    assert_eq!(names, ["P usd", "P usd2", "P euro"]);
    let usd2 = &t.rows[1];
    assert!((usd2.price_ratio.unwrap() - 2.0).abs() < 1e-12);
    assert_eq!(usd2.verdict, Some("worth it"));
    let row = &t.rows[2];
    assert_eq!(row.price_ratio, None);
    assert_eq!(row.verdict, None);
    assert!((row.performance_ratio.unwrap() - 3.0).abs() < 1e-12);
    assert_eq!(
        row.no_verdict.as_deref(),
        Some("priced in EUR, no EUR→USD rate in --rates: not compared")
    );
    assert_eq!(usd2.no_verdict, None);
    assert_eq!(v[0].currency.as_deref(), Some("USD"));
    assert!(v[0].conversions.is_empty());
    assert_eq!(
        v[0].no_rate.get("P euro").map(String::as_str),
        Some("priced in EUR, no EUR→USD rate in --rates")
    );
}

#[test]
fn a_rate_converts_another_currency_into_the_baselines() {
    use crate::analysis::prices::Rates;
    // 0.05 EUR at 1.16 USD is 0.058 USD per GB, 5.80 USD a month for 100 GB
    let mut eur = record(
        "b",
        "P",
        "euro",
        Some(0.05),
        "t",
        &[("iops", 300.0, "IOPS")],
    );
    if let Some(p) = eur.subject.price.as_mut() {
        p.currency = "EUR".into();
    }
    let recs = [
        record("a", "P", "usd", Some(0.1), "t", &[("iops", 100.0, "IOPS")]),
        eur,
        record("c", "P", "usd2", Some(0.2), "t", &[("iops", 250.0, "IOPS")]),
    ];
    let recs: Vec<Summary> = recs.into_iter().map(Summary::from).collect();
    let refs: Vec<_> = recs.iter().collect();
    let rates = Rates::parse(
        "from,to,rate,as_of,source\nEUR,USD,1.16,2026-11-30,ECB\n",
        "r.csv",
    )
    .unwrap();
    let book = PriceBook::default().with_rates(rates);
    let v = analyse(&refs, &group(&refs), &book, None).unwrap();
    assert_eq!(v[0].baseline.as_deref(), Some("P usd"));
    assert!(v[0].no_rate.is_empty());
    assert_eq!(v[0].conversions.len(), 1);
    assert_eq!(v[0].conversions[0].factor, 1.16);
    let t = &v[0].tables[0];
    // the converted price ranks among the USD ones: 5.80 < 10.00 < 20.00
    let names: Vec<&str> = t.rows.iter().map(|r| r.offering.as_str()).collect();
    assert_eq!(names, ["P euro", "P usd", "P usd2"]);
    let euro = &t.rows[0];
    assert_eq!(euro.rate, Some(1.16));
    assert!((euro.price_ratio.unwrap() - 0.58).abs() < 1e-12);
    assert!((euro.per_gb_ratio.unwrap() - 0.58).abs() < 1e-12);
    assert_eq!(euro.price_basis, Some(PriceBasis::Monthly));
    // 3x the IOPS for 0.58x the cost: 5.172
    assert!((euro.value_ratio.unwrap() - 3.0 / 0.58).abs() < 1e-9);
    assert_eq!(euro.verdict, Some("worth it"));
    // its own cost stays in EUR; the converted one is in USD
    assert_eq!(euro.monthly_cost, Some(5.0));
    assert!((euro.converted_monthly_cost().unwrap() - 5.8).abs() < 1e-12);
    assert!((euro.converted_per_gb().unwrap() - 0.058).abs() < 1e-12);
    // IOPS per USD of monthly cost: 300 / 5.80
    assert!((euro.per_cost.unwrap() - 300.0 / 5.8).abs() < 1e-9);
    assert_eq!(t.rows[1].rate, None);

    // only the inverse given: USD→EUR 0.8 makes 1 EUR = 1.25 USD
    let rates = Rates::parse(
        "from,to,rate,as_of,source\nUSD,EUR,0.8,2026-11-30,\n",
        "r.csv",
    )
    .unwrap();
    let book = PriceBook::default().with_rates(rates);
    let v = analyse(&refs, &group(&refs), &book, None).unwrap();
    let euro = v[0].tables[0]
        .rows
        .iter()
        .find(|r| r.offering == "P euro")
        .unwrap();
    assert!(v[0].conversions[0].inverse);
    assert!((euro.price_ratio.unwrap() - 0.625).abs() < 1e-12);
}

/// A record of configuration `offering` at `size` GB with labels.
fn sized(
    id: &str,
    offering: &str,
    size: Option<f64>,
    labels: &[(&str, &str)],
    test: &str,
    metrics: &[(&str, f64, &str)],
) -> Record {
    let mut r = record(id, "AWS", offering, None, test, metrics);
    r.subject.size_gb = size;
    r.subject.labels = labels
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    r
}

const LONG: &str = "provider,offering,currency,as_of,source,component,price,from,to,included
AWS,gp3,USD,2026-11,list,capacity,0.08,,,
AWS,gp3,USD,2026-11,list,iops,0.005,,,3000
AWS,gp3,USD,2026-11,list,throughput,0.04,,,125
AWS,io2,USD,2026-11,list,capacity,0.125,,,
AWS,io2,USD,2026-11,list,iops,0.065,0,32000,
AWS,io2,USD,2026-11,list,iops,0.0455,32000,64000,
AWS,io2,USD,2026-11,list,iops,0.032,64000,,
";

#[test]
fn configurations_are_judged_on_their_monthly_cost() {
    let recs = [
        sized(
            "a",
            "gp3",
            Some(500.0),
            &[("provisioned_iops", "6000"), ("provisioned_mbps", "250")],
            "fio-randread",
            &[("read_iops", 6000.0, "IOPS")],
        ),
        sized(
            "b",
            "gp3",
            Some(100.0),
            &[("provisioned_iops", "3000"), ("provisioned_mbps", "125")],
            "fio-randread",
            &[("read_iops", 3000.0, "IOPS")],
        ),
        sized(
            "c",
            "io2",
            Some(100.0),
            &[("provisioned_iops", "40000")],
            "fio-randread",
            &[("read_iops", 40000.0, "IOPS")],
        ),
    ];
    let recs: Vec<Summary> = recs.into_iter().map(Summary::from).collect();
    let refs: Vec<_> = recs.iter().collect();
    let book = PriceBook::parse(LONG).unwrap();
    let v = analyse(&refs, &group(&refs), &book, None).unwrap();
    let sv = &v[0];
    // two sizes of gp3 are two configurations, named by what differs
    let names: Vec<&str> = sv.prices.keys().map(String::as_str).collect();
    assert_eq!(
        names,
        [
            "AWS gp3 · 100 GB · 3,000 IOPS · 125 MB/s",
            "AWS gp3 · 500 GB · 6,000 IOPS · 250 MB/s",
            "AWS io2 · 100 GB · 40,000 IOPS",
        ]
    );
    assert_eq!(
        sv.baseline.as_deref(),
        Some("AWS gp3 · 100 GB · 3,000 IOPS · 125 MB/s")
    );
    assert_eq!(sv.baseline_reason, "cheapest monthly cost");
    assert_eq!(sv.basis, Some(PriceBasis::Monthly));
    let t = &sv.tables[0];
    let row = |n: &str| t.rows.iter().find(|r| r.offering.starts_with(n)).unwrap();
    // 8.00 a month for the baseline; 60.00 for gp3 at 500 GB
    let big = row("AWS gp3 · 500");
    assert_eq!(big.monthly_cost, Some(60.0));
    assert_eq!(big.price_basis, Some(PriceBasis::Monthly));
    assert!((big.price_ratio.unwrap() - 7.5).abs() < 1e-12);
    // the same price per GB: the per-GB ratio alone would have said 1.0x
    assert!((big.per_gb_ratio.unwrap() - 1.0).abs() < 1e-12);
    assert!((big.value_ratio.unwrap() - 2.0 / 7.5).abs() < 1e-12);
    assert_eq!(big.verdict, Some("no"));
    // io2: 2456.50 a month, 307x the baseline's, for 13.3x the IOPS
    let io2 = row("AWS io2");
    assert_eq!(io2.monthly_cost, Some(2456.5));
    assert!((io2.price_ratio.unwrap() - 2456.5 / 8.0).abs() < 1e-9);
    assert!((io2.per_gb_ratio.unwrap() - 0.125 / 0.08).abs() < 1e-12);
    assert_eq!(io2.verdict, Some("no"));
    // rows in monthly-cost order
    let order: Vec<Option<f64>> = t.rows.iter().map(|r| r.monthly_cost).collect();
    assert_eq!(order, [Some(8.0), Some(60.0), Some(2456.5)]);
}

#[test]
fn plain_gp3_is_priced_at_its_included_level_and_says_so() {
    let recs = [
        sized(
            "a",
            "gp3",
            Some(100.0),
            &[],
            "t",
            &[("iops", 3000.0, "IOPS")],
        ),
        sized(
            "b",
            "gp3",
            Some(100.0),
            &[("provisioned_iops", "16000"), ("provisioned_mbps", "500")],
            "t",
            &[("iops", 16000.0, "IOPS")],
        ),
    ];
    let recs: Vec<Summary> = recs.into_iter().map(Summary::from).collect();
    let refs: Vec<_> = recs.iter().collect();
    let book = PriceBook::parse(LONG).unwrap();
    let v = analyse(&refs, &group(&refs), &book, None).unwrap();
    let sv = &v[0];
    assert_eq!(sv.baseline_reason, "cheapest monthly cost");
    // two configurations of one size: the one without figures says so
    let plain = "AWS gp3 · no provisioned IOPS or MB/s";
    assert_eq!(sv.baseline.as_deref(), Some(plain));
    assert_eq!(sv.monthly_costs[plain], Some(8.0));
    let bought = "AWS gp3 · 16,000 IOPS · 500 MB/s";
    assert_eq!(sv.monthly_costs[bought], Some(88.0));
    assert_eq!(
        sv.cost_notes[plain],
        "3,000 IOPS and 125 MB/s included; --provisioned-iops, --provisioned-mbps if you bought more"
    );
    assert!(!sv.cost_notes.contains_key(bought));
    // 11x the bill for 5.33x the IOPS
    let row = sv.tables[0]
        .rows
        .iter()
        .find(|r| r.offering == bought)
        .unwrap();
    assert_eq!(row.price_ratio, Some(11.0));
}

#[test]
fn gp3_labelled_with_its_included_figures_is_gp3_as_sold_and_named_by_them() {
    // plain gp3 on two machines, one typed with the figures its price
    // includes (3,000 IOPS, 125 MiB/s), and one with 16,000 IOPS bought
    let recs = [
        sized(
            "a",
            "gp3",
            Some(100.0),
            &[],
            "t",
            &[("iops", 3000.0, "IOPS")],
        ),
        sized(
            "b",
            "gp3",
            Some(100.0),
            &[("provisioned_iops", "3000"), ("provisioned_mbps", "125")],
            "t",
            &[("iops", 3010.0, "IOPS")],
        ),
        sized(
            "c",
            "gp3",
            Some(100.0),
            &[("provisioned_iops", "16000"), ("provisioned_mbps", "500")],
            "t",
            &[("iops", 16000.0, "IOPS")],
        ),
    ];
    let recs: Vec<Summary> = recs.into_iter().map(Summary::from).collect();
    let refs: Vec<_> = recs.iter().collect();
    let limits = crate::catalogue::limits().unwrap();
    let data = crate::analysis::stats::group_with(&refs, &limits);
    let names: Vec<&String> = data.studies["s"].offerings.keys().collect();
    // one configuration as sold, named by what it includes, in gp3's MiB/s
    assert_eq!(
        names,
        [
            "AWS gp3 · 16,000 IOPS · 500 MiB/s",
            "AWS gp3 · 3,000 IOPS · 125 MiB/s"
        ]
    );
    let plain = &data.studies["s"].offerings["AWS gp3 · 3,000 IOPS · 125 MiB/s"];
    assert_eq!(plain.records.len(), 2);
    let v = analyse(&refs, &data, &PriceBook::parse(LONG).unwrap(), None).unwrap();
    let costs: Vec<Option<f64>> = v[0].monthly_costs.values().copied().collect();
    assert_eq!(costs, [Some(88.0), Some(8.0)]);
}

#[test]
fn a_cost_that_cannot_be_known_gives_no_verdict_and_says_why() {
    let recs = [
        sized(
            "a",
            "gp3",
            Some(100.0),
            &[("provisioned_iops", "3000"), ("provisioned_mbps", "125")],
            "t",
            &[("iops", 100.0, "IOPS")],
        ),
        // io2 without its provisioned IOPS: its bill cannot be known
        sized(
            "b",
            "io2",
            Some(100.0),
            &[],
            "t",
            &[("iops", 900.0, "IOPS")],
        ),
    ];
    let recs: Vec<Summary> = recs.into_iter().map(Summary::from).collect();
    let refs: Vec<_> = recs.iter().collect();
    let book = PriceBook::parse(LONG).unwrap();
    let v = analyse(&refs, &group(&refs), &book, None).unwrap();
    let sv = &v[0];
    // io2's cost is unknown and its price not flat: it compares on no
    // basis, and leaves gp3 judged on its monthly cost
    assert_eq!(sv.baseline_reason, "cheapest monthly cost");
    assert_eq!(sv.baseline.as_deref(), Some("AWS gp3"));
    assert_eq!(sv.cost_missing["AWS io2"], "provisioned IOPS unknown: billed per provisioned IOPS, none included; give --provisioned-iops N");
    // gp3 with its included figures named: nothing assumed, nothing said
    assert!(sv.cost_notes.is_empty(), "{:?}", sv.cost_notes);
    let io2 = sv.tables[0]
        .rows
        .iter()
        .find(|r| r.offering == "AWS io2")
        .unwrap();
    assert_eq!((io2.price_ratio, io2.verdict), (None, None));
    assert_eq!(
        io2.no_verdict.as_deref(),
        Some("provisioned IOPS unknown: billed per provisioned IOPS, none included; give --provisioned-iops N: not compared")
    );
    // flat prices of unknown size compare per GB, the seeds' question
    let recs = [
        sized("a", "st1", None, &[], "t", &[("iops", 100.0, "IOPS")]),
        sized("b", "sc1", None, &[], "t", &[("iops", 100.0, "IOPS")]),
    ];
    let recs: Vec<Summary> = recs.into_iter().map(Summary::from).collect();
    let refs: Vec<_> = recs.iter().collect();
    let book = PriceBook::parse(
        "provider,offering,per_gb_month,currency\nAWS,st1,0.045,USD\nAWS,sc1,0.015,USD\n",
    )
    .unwrap();
    let v = analyse(&refs, &group(&refs), &book, None).unwrap();
    let st1 = &v[0].tables[0].rows[1];
    assert_eq!(st1.offering, "AWS st1");
    assert_eq!(st1.price_basis, Some(PriceBasis::PerGb));
    assert!((st1.price_ratio.unwrap() - 3.0).abs() < 1e-12);
    assert_eq!(v[0].cost_missing["AWS st1"], "size unknown");
}

#[test]
fn a_range_across_a_band_edge_is_uncertain_and_single_runs_say_so() {
    let r = |id: &str, off: &str, price: f64, iops: f64| {
        record(id, "P", off, Some(price), "t", &[("iops", iops, "IOPS")])
    };
    // baseline 100 IOPS (95..105); dearer at 2x the price with 180..220
    let recs = [
        r("a1", "base", 0.1, 95.0),
        r("a2", "base", 0.1, 100.0),
        r("a3", "base", 0.1, 105.0),
        r("b1", "dear", 0.2, 180.0),
        r("b2", "dear", 0.2, 190.0),
        r("b3", "dear", 0.2, 220.0),
        r("c1", "once", 0.3, 400.0),
    ];
    let recs: Vec<Summary> = recs.into_iter().map(Summary::from).collect();
    let refs: Vec<_> = recs.iter().collect();
    let v = analyse(&refs, &group(&refs), &PriceBook::default(), None).unwrap();
    let t = &v[0].tables[0];
    let dear = t.rows.iter().find(|r| r.offering == "P dear").unwrap();
    // median 190 / 100 at 2x: 0.95, nearly worth it; 180/105/2 = 0.857 to 220/95/2 = 1.158
    assert_eq!(dear.verdict, Some("nearly worth it"));
    let (lo, hi) = dear.value_range.unwrap();
    assert!((lo - 180.0 / 105.0 / 2.0).abs() < 1e-12);
    assert!((hi - 220.0 / 95.0 / 2.0).abs() < 1e-12);
    assert!(dear.uncertain && !dear.single_run);
    assert_eq!(
        dear.verdict_text().as_deref(),
        Some("nearly worth it, uncertain: 0.86 to 1.16")
    );
    let once = t.rows.iter().find(|r| r.offering == "P once").unwrap();
    assert!(once.single_run && once.value_range.is_none());
    assert_eq!(once.verdict_text().as_deref(), Some("worth it, single run"));
    // a range inside one band is not uncertain
    let recs = [
        r("a1", "base", 0.1, 99.0),
        r("a2", "base", 0.1, 101.0),
        r("b1", "dear", 0.2, 400.0),
        r("b2", "dear", 0.2, 410.0),
    ];
    let recs: Vec<Summary> = recs.into_iter().map(Summary::from).collect();
    let refs: Vec<_> = recs.iter().collect();
    let v = analyse(&refs, &group(&refs), &PriceBook::default(), None).unwrap();
    let dear = &v[0].tables[0].rows[1];
    assert!(!dear.uncertain);
    assert_eq!(dear.verdict_text().as_deref(), Some("worth it"));
}

#[test]
fn failed_runs_are_part_of_the_answer() {
    let mut failed = record("b2", "P", "dear", Some(0.2), "fio-randread", &[]);
    failed.status = Status::Failed;
    failed.error =
        Some("fio exited with status 1\nfio: io_u error on file /mnt/x: Input/output error".into());
    let recs = [
        record(
            "a",
            "P",
            "cheap",
            Some(0.1),
            "fio-randread",
            &[("read_iops", 100.0, "IOPS")],
        ),
        record(
            "b",
            "P",
            "dear",
            Some(0.2),
            "fio-randread",
            &[("read_iops", 300.0, "IOPS")],
        ),
        failed,
    ];
    let recs: Vec<Summary> = recs.into_iter().map(Summary::from).collect();
    let refs: Vec<_> = recs.iter().collect();
    let v = analyse(&refs, &group(&refs), &PriceBook::default(), None).unwrap();
    let f = &v[0].failures["P dear"];
    assert_eq!(f.len(), 1);
    assert_eq!(f[0].test, "fio-randread");
    assert_eq!(f[0].status, Status::Failed);
    assert_eq!(f[0].error, "fio exited with status 1");
    assert!(!v[0].failures.contains_key("P cheap"));
}

#[test]
fn seed_names_read_as_before_and_collisions_spell_out_every_part() {
    // one size known, one unknown price: names stay `provider offering`
    let recs = [
        sized("a", "sata", Some(100.0), &[], "t", &[("iops", 1.0, "IOPS")]),
        sized("b", "ssd", Some(100.0), &[], "t", &[("iops", 1.0, "IOPS")]),
        sized("c", "local", None, &[], "t", &[("iops", 1.0, "IOPS")]),
    ];
    let recs: Vec<Summary> = recs.into_iter().map(Summary::from).collect();
    let refs: Vec<_> = recs.iter().collect();
    let data = group(&refs);
    let names: Vec<&str> = data.studies["s"]
        .offerings
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(names, ["AWS local", "AWS sata", "AWS ssd"]);
    // the same offering with and without a size: both say theirs
    let recs = [
        sized("a", "gp2", Some(100.0), &[], "t", &[("iops", 1.0, "IOPS")]),
        sized("b", "gp2", None, &[], "t", &[("iops", 1.0, "IOPS")]),
    ];
    let recs: Vec<Summary> = recs.into_iter().map(Summary::from).collect();
    let refs: Vec<_> = recs.iter().collect();
    let data = group(&refs);
    let names: Vec<&str> = data.studies["s"]
        .offerings
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(names, ["AWS gp2 · 100 GB", "AWS gp2 · size unknown"]);
}

/// A record of the sustained random-read test with a timeline of `pattern`
/// (`None`: a timeline too short to classify) and `metrics`.
fn timed(
    id: &str,
    offering: &str,
    price: f64,
    pattern: Option<Pattern>,
    metrics: &[(&str, f64, &str)],
) -> Record {
    let mut r = record(
        id,
        "AWS",
        offering,
        Some(price),
        "fio-sustained-randread-4k-qd32",
        metrics,
    );
    r.timeline = Some(Box::new(crate::record::Timeline {
        interval_s: 1.0,
        read: None,
        write: None,
        trim: None,
        logs: BTreeMap::new(),
        pattern,
        burst_on_s: None,
        burst_off_s: None,
    }));
    r
}

/// A flat volume at 300 IOPS (the baseline, 2.50 a month), gp2 at 4x its
/// monthly cost bursting to 3,000 then giving 300, one at 2x that never
/// settled, one imported without logs and one whose timeline was too short.
fn credit_study() -> Vec<Record> {
    let steady = |reached: f64| {
        [
            ("steady_state", reached, "count"),
            ("ss_range", 4.0, "%"),
            ("ss_slope", 2.0, "%"),
        ]
    };
    let with = |a: &[(&'static str, f64, &'static str)],
                b: [(&'static str, f64, &'static str); 3]| {
        let mut v = a.to_vec();
        v.extend(b);
        v
    };
    vec![
        timed(
            "a-flat",
            "flat",
            0.025,
            Some(Pattern::Flat),
            &with(
                &[
                    ("read_iops", 300.0, "IOPS"),
                    ("read_clat_p99", 0.004, "s"),
                    ("read_iops_sustained", 300.0, "IOPS"),
                ],
                steady(1.0),
            ),
        ),
        timed(
            "b-gp2",
            "gp2",
            0.10,
            Some(Pattern::CreditBurst),
            &with(
                &[
                    // the whole run mixes the burst and the drained level
                    ("read_iops", 1500.0, "IOPS"),
                    ("read_clat_p99", 0.002, "s"),
                    ("read_iops_sustained", 300.0, "IOPS"),
                    ("read_iops_burst", 3000.0, "IOPS"),
                    ("burst_duration", 2000.0, "s"),
                    ("burst_ios", 5.4e6, "count"),
                ],
                steady(1.0),
            ),
        ),
        timed(
            "c-unsteady",
            "unsteady",
            0.05,
            Some(Pattern::Flat),
            &with(
                &[
                    ("read_iops", 600.0, "IOPS"),
                    ("read_iops_sustained", 600.0, "IOPS"),
                ],
                steady(0.0),
            ),
        ),
        record(
            "d-imported",
            "AWS",
            "imported",
            Some(0.05),
            "fio-sustained-randread-4k-qd32",
            &[("read_iops", 900.0, "IOPS"), ("read_clat_p99", 0.001, "s")],
        ),
        timed(
            "e-short",
            "short",
            0.06,
            None,
            &[("read_iops", 400.0, "IOPS")],
        ),
        // an untimed test of the same study keeps its whole-run verdicts
        record(
            "f-classic",
            "AWS",
            "flat",
            Some(0.025),
            "fio-randread-4k-qd64",
            &[("read_iops", 300.0, "IOPS")],
        ),
        record(
            "g-classic",
            "AWS",
            "gp2",
            Some(0.10),
            "fio-randread-4k-qd64",
            &[("read_iops", 300.0, "IOPS")],
        ),
    ]
}

#[test]
fn a_timed_test_is_judged_on_its_sustained_level_with_the_burst_beside_it() {
    let recs = credit_study();
    let recs: Vec<Summary> = recs.into_iter().map(Summary::from).collect();
    let refs: Vec<_> = recs.iter().collect();
    let v = analyse(&refs, &group(&refs), &PriceBook::default(), None).unwrap();
    let sv = &v[0];
    assert_eq!(sv.baseline.as_deref(), Some("AWS flat"));
    let sustained: Vec<&str> = sv
        .tables
        .iter()
        .filter(|t| t.test == "fio-sustained-randread-4k-qd32")
        .map(|t| t.metric.as_str())
        .collect();
    // not read_iops, not read_clat_p99, not the steady-state flag
    assert_eq!(sustained, ["read_iops_sustained"]);
    let classic: Vec<&str> = sv
        .tables
        .iter()
        .filter(|t| t.test == "fio-randread-4k-qd64")
        .map(|t| t.metric.as_str())
        .collect();
    assert_eq!(classic, ["read_iops"]);

    let t = sv
        .tables
        .iter()
        .find(|t| t.metric == "read_iops_sustained")
        .unwrap();
    assert!(t.is_sustained());
    let row = |name: &str| t.rows.iter().find(|r| r.offering == name).unwrap();
    let gp2 = row("AWS gp2");
    assert!((gp2.price_ratio.unwrap() - 4.0).abs() < 1e-12);
    assert_eq!(gp2.price_basis, Some(PriceBasis::Monthly));
    assert!((gp2.performance_ratio.unwrap() - 1.0).abs() < 1e-12);
    assert!((gp2.value_ratio.unwrap() - 0.25).abs() < 1e-12);
    assert_eq!(gp2.verdict, Some("no"));
    assert_eq!(gp2.verdict_text().as_deref(), Some("no, single run"));
    let b = gp2.burst.as_ref().unwrap();
    assert_eq!(b.level, 3000.0);
    assert_eq!(b.pattern, Pattern::CreditBurst);
    assert!(!b.baseline_only);
    assert!((b.performance_ratio.unwrap() - 10.0).abs() < 1e-12);
    assert!((b.value_ratio.unwrap() - 2.5).abs() < 1e-12);
    assert_eq!(b.while_words(), "while credits last");
    assert_eq!(b.after_words(), "after");
    assert_eq!(gp2.qualifier, None);
    assert_eq!(
        gp2.steady.as_ref().unwrap().text(),
        "reached (range 4.0%, slope 2.0%)"
    );

    // the flat baseline has no burst of its own and none to compare with
    let flat = row("AWS flat");
    assert_eq!(flat.verdict_text().as_deref(), Some("baseline"));
    assert_eq!(flat.burst, None);

    // a verdict whose steady state was not reached says so
    let unsteady = row("AWS unsteady");
    assert!((unsteady.value_ratio.unwrap() - 1.0).abs() < 1e-12);
    assert_eq!(unsteady.burst, None);
    assert_eq!(
        unsteady.verdict_text().as_deref(),
        Some("worth it, single run, steady state not reached")
    );
    assert_eq!(
        unsteady.steady.as_ref().unwrap().text(),
        "not reached (range 4.0%, slope 2.0%)"
    );

    // measured without a sustained level: named, with the reason, no row
    assert_eq!(t.rows.len(), 3);
    let unmeasured: Vec<(&str, &str)> = t
        .unmeasured
        .iter()
        .map(|u| (u.offering.as_str(), u.reason.as_str()))
        .collect();
    assert_eq!(
        unmeasured,
        [
            ("AWS imported", "no timeline: not compared"),
            ("AWS short", "timeline too short to classify: not compared"),
        ]
    );
    // whole-run tables carry no timeline additions
    let c = sv.tables.iter().find(|t| t.metric == "read_iops").unwrap();
    assert!(c.unmeasured.is_empty());
    assert!(c
        .rows
        .iter()
        .all(|r| r.burst.is_none() && r.steady.is_none()));
}

#[test]
fn a_bursting_baseline_is_compared_burst_for_burst_and_periodic_bursts_are_said_so() {
    let mut recs = [
        // the cheap volume bursts in cycles; the dear one is flat at 600
        timed(
            "a",
            "cycling",
            0.05,
            Some(Pattern::PeriodicBurst),
            &[
                ("read_iops_sustained", 200.0, "IOPS"),
                ("read_iops_burst", 2000.0, "IOPS"),
            ],
        ),
        timed(
            "b",
            "flat",
            0.10,
            Some(Pattern::Flat),
            &[("read_iops_sustained", 600.0, "IOPS")],
        ),
    ];
    // the baseline's steady state was not reached in its one run
    for (r, reached) in recs.iter_mut().zip([0.0, 1.0]) {
        r.metrics
            .insert("steady_state", Metric::new(reached, Unit::Count));
    }
    let recs: Vec<Summary> = recs.into_iter().map(Summary::from).collect();
    let refs: Vec<_> = recs.iter().collect();
    let v = analyse(&refs, &group(&refs), &PriceBook::default(), None).unwrap();
    let t = &v[0].tables[0];
    assert_eq!(t.metric, "read_iops_sustained");
    let flat = t.rows.iter().find(|r| r.offering == "AWS flat").unwrap();
    assert!((flat.performance_ratio.unwrap() - 3.0).abs() < 1e-12);
    let b = flat.burst.as_ref().unwrap();
    // a flat volume's burst level is its sustained level
    assert_eq!(b.level, 600.0);
    assert!(b.baseline_only);
    assert!((b.performance_ratio.unwrap() - 0.3).abs() < 1e-12);
    assert!((b.value_ratio.unwrap() - 0.15).abs() < 1e-12);
    assert_eq!(b.while_words(), "while the baseline bursts");
    assert_eq!(b.after_words(), "between bursts");
    assert_eq!(
        flat.verdict_text().as_deref(),
        Some("worth it, single run, the baseline's steady state not reached")
    );
    let base = t.baseline_row().unwrap();
    assert_eq!(base.burst.as_ref().unwrap().while_words(), "while bursting");
    assert_eq!(base.burst.as_ref().unwrap().performance_ratio, None);
    assert_eq!(
        base.verdict_text().as_deref(),
        Some("baseline, steady state not reached")
    );
}

#[test]
fn a_price_ratio_that_overflows_is_unknown_with_its_reason() {
    use super::price::{price_ratio, Priced};
    let priced = |monthly: f64| Priced {
        price: Some(crate::analysis::prices::EffectivePrice::flat(
            1.0, "USD", None,
        )),
        monthly: Ok(monthly),
        to_base: None,
    };
    assert_eq!(
        price_ratio(&priced(1e300), &priced(1e-300)),
        Err("a price ratio of inf is out of range".to_string())
    );
    assert_eq!(
        price_ratio(&priced(10.0), &priced(5.0)),
        Ok((PriceBasis::Monthly, 2.0))
    );
}

#[test]
fn a_short_tests_figure_at_the_instance_cap_gets_no_verdict_as_the_volumes() {
    // gp3 (the baseline) and io2 on an m5.large, whose EBS cap is 3,600
    // IOPS: io2's 3,610 is the VM's limit, not a measure of io2
    let on = |id: &str, offering: &str, price: f64, iops: f64, instance: Option<&str>| {
        let mut r = record(
            id,
            "AWS",
            offering,
            Some(price),
            "fio-randread-4k-qd64",
            &[("read_iops", iops, "IOPS")],
        );
        r.host.instance_type = instance.map(str::to_string);
        Summary::from(r)
    };
    let limits = crate::analysis::limits::Limits::parse(
        "provider,offering,size_min_gb,size_max_gb,baseline_iops,burst_iops,baseline_mbps,burst_mbps,source,as_of,instance\n\
         AWS,,,,3600,18750,81.25,593.75,aws,2026-12-03,m5.large\n",
    )
    .unwrap();
    let verdict_of = |recs: &[Summary]| {
        let refs: Vec<_> = recs.iter().collect();
        let data = crate::analysis::stats::group_with(&refs, &limits);
        let v = analyse(&refs, &data, &PriceBook::default(), None).unwrap();
        let t = v[0]
            .tables
            .iter()
            .find(|t| t.metric == "read_iops")
            .unwrap()
            .clone();
        let row = t
            .rows
            .iter()
            .find(|r| r.offering == "AWS io2")
            .unwrap()
            .clone();
        (row.verdict, row.no_verdict)
    };
    let (verdict, why) = verdict_of(&[
        on("a", "gp3", 0.08, 3000.0, Some("m5.large")),
        on("b", "io2", 0.125, 3610.0, Some("m5.large")),
    ]);
    assert_eq!(verdict, None);
    assert_eq!(
        why.as_deref(),
        Some("at the instance's limit of 3,600 IOPS (m5.large): not judged as the volume's")
    );
    // off the cap, or on an instance the list does not cap: judged
    for (iops, instance) in [
        (5000.0, Some("m5.large")),
        (3610.0, Some("m5.4xlarge")),
        (3610.0, None),
    ] {
        let (verdict, why) = verdict_of(&[
            on("a", "gp3", 0.08, 3000.0, instance),
            on("b", "io2", 0.125, iops, instance),
        ]);
        assert!(verdict.is_some(), "{iops} {instance:?}: {why:?}");
    }
}
