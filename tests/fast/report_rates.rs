//! `diskdash report --rates FILE`: a configuration priced in EUR in a study
//! whose baseline is priced in USD is converted at the file's rate for
//! every ratio, the pages say which rate of which date was used, without a
//! rate it is named as left out, and a bad row is an error naming the
//! file, line and column.

use crate::report_common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use report_common::*;

/// Study `fx`, 100 GB each, two runs each of fio 4 KiB random reads:
/// `P usd` 0.10 USD/GB (10.00 USD a month, 1,000 IOPS, the baseline),
/// `P usd2` 0.20 USD/GB (20.00 USD, 2,500 IOPS: 2.0x the cost, 2.5x the
/// IOPS, value 1.25), `Hetzner Volume` 0.20 EUR/GB (20.00 EUR, 2,200 IOPS).
fn write_study(dir: &Path) {
    let offerings = [
        ("P", "usd", 0.10, "USD", 1000.0),
        ("P", "usd2", 0.20, "USD", 2500.0),
        ("Hetzner", "Volume", 0.20, "EUR", 2200.0),
    ];
    for (provider, name, price, currency, iops) in offerings {
        for rep in 1..=2 {
            let mut r = record(
                &format!("fx-{name}-{rep}"),
                "fx",
                provider,
                name,
                Some(price),
                "fio-randread-4k-qd64",
                rep,
                &[("read_iops", iops, "IOPS")],
            );
            if let Some(p) = r.subject.price.as_mut() {
                p.currency = currency.to_string();
            }
            write_record(dir, &format!("{name}-{rep}.json"), &r);
        }
    }
}

/// A site of the study built with `rates` (a rates file's text) or without.
fn site(rates: Option<&str>) -> (tempfile::TempDir, PathBuf) {
    let (dir, out, _) = site_and_stderr(rates);
    (dir, out)
}

/// [`site`], with what the build printed on stderr.
fn site_and_stderr(rates: Option<&str>) -> (tempfile::TempDir, PathBuf, String) {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in");
    write_study(&input);
    let out = dir.path().join("site");
    let mut args = vec![
        input.into_os_string(),
        "--out".into(),
        out.clone().into_os_string(),
    ];
    if let Some(text) = rates {
        let path = dir.path().join("rates.csv");
        std::fs::write(&path, text).unwrap();
        args.push("--rates".into());
        args.push(path.into_os_string());
    }
    let args: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_os_str()).collect();
    let (ok, _, stderr) = report(&args);
    assert!(ok, "report failed: {stderr}");
    (dir, out, stderr)
}

/// `data/value.csv`'s row of a configuration, by column name.
fn value_row(site: &Path, offering: &str) -> BTreeMap<String, String> {
    let mut r = csv::Reader::from_path(site.join("data/value.csv")).unwrap();
    let headers: Vec<String> = r.headers().unwrap().iter().map(str::to_string).collect();
    r.records()
        .map(Result::unwrap)
        .map(|row| {
            headers
                .iter()
                .cloned()
                .zip(row.iter().map(str::to_string))
                .collect::<BTreeMap<_, _>>()
        })
        .find(|m| m["offering"] == offering && m["metric"] == "read_iops")
        .unwrap_or_else(|| panic!("no value row for {offering}"))
}

fn read(site: &Path, path: &str) -> String {
    std::fs::read_to_string(site.join(path)).unwrap()
}

fn json(site: &Path) -> serde_json::Value {
    serde_json::from_str(&read(site, "data/summary.json")).unwrap()
}

const HEADER: &str = "from,to,rate,as_of,source\n";

#[test]
fn without_a_rate_the_eur_configuration_is_named_as_left_out() {
    let (_dir, site) = site(None);
    let why = "priced in EUR, no EUR→USD rate in --rates";
    let doc = json(&site);
    let study = &doc["studies"][0];
    assert_eq!(study["currency"], "USD");
    assert_eq!(study["exchange_rates"], serde_json::json!([]));
    assert_eq!(
        study["excluded"],
        serde_json::json!([{"offering": "Hetzner Volume", "reason": why}])
    );
    // the most for the money is among what could be compared, and says who was not
    let headline = study["headline"].as_array().unwrap();
    let last = headline.last().unwrap().as_str().unwrap();
    assert!(
        last.contains("P usd2") && last.contains(&format!("Left out: Hetzner Volume ({why})")),
        "{last}"
    );
    let page = read(&site, "studies/fx.html");
    assert!(
        page.contains(&format!(
            "Not compared for lack of an exchange rate: Hetzner Volume ({why})."
        )),
        "the study summary names it"
    );
    // the matrix cell says why where the verdict would be
    assert!(page.contains(&format!("<strong>{why}: not compared</strong>")));
    let row = value_row(&site, "Volume");
    assert_eq!(row["price_ratio"], "");
    assert_eq!(row["verdict"], "");
    assert_eq!(row["currency"], "EUR");
    assert_eq!(row["compared_currency"], "");
    assert_eq!(row["rate"], "");
    assert!(!page.contains("converted at"));
}

#[test]
fn a_rate_converts_the_eur_price_for_every_ratio_and_the_pages_say_which() {
    let (_dir, site) = site(Some(&format!(
        "{HEADER}EUR,USD,1.16,2026-11-30,https://example.org/fx\n"
    )));
    let row = value_row(&site, "Volume");
    // 20.00 EUR at 1.16 is 23.20 USD: 2.32x the baseline's 10.00 USD
    let eur_price = 20.0;
    let usd_price = 10.0;
    let expected = eur_price * 1.16 / usd_price;
    assert_eq!(row["price_ratio"], format!("{expected:.3}"));
    assert_eq!(row["price_ratio"], "2.320");
    assert_eq!(row["per_gb_ratio"], "2.320");
    assert_eq!(row["price_basis"], "monthly");
    assert_eq!(row["performance_ratio"], "2.200");
    // 2.2 / 2.32 = 0.948: nearly worth it (unconverted, 2.2 / 2.0 would be worth it)
    assert_eq!(row["value_ratio"], "0.948");
    assert_eq!(row["verdict"], "nearly worth it");
    assert_eq!(row["monthly_cost"], "20.00");
    assert_eq!(row["currency"], "EUR");
    assert_eq!(row["compared_currency"], "USD");
    assert_eq!(row["rate"], "1.16");
    assert_eq!(row["rate_as_of"], "2026-11-30");
    assert_eq!(row["converted_monthly_cost"], "23.20");
    // a USD row is compared in USD without a rate
    let usd2 = value_row(&site, "usd2");
    assert_eq!(
        (
            usd2["compared_currency"].as_str(),
            usd2["rate"].as_str(),
            usd2["converted_monthly_cost"].as_str()
        ),
        ("USD", "", "")
    );

    let sentence = "Prices in EUR converted at 1 EUR = 1.16 USD (as of 2026-11-30, source https://example.org/fx).";
    let page = read(&site, "studies/fx.html");
    // near the answer: right after it, before the value matrix
    let at = page.find(sentence).expect("the study page names the rate");
    assert!(at > page.find("lead answer").unwrap());
    assert!(at < page.find("id=\"value\"").unwrap());
    // the configuration's own price stays, its converted price beside it
    assert!(page.contains("20.00 EUR (23.20 USD)"), "monthly cost");
    assert!(page.contains("0.200 EUR (0.232 USD)"), "price per GB");
    assert!(!page.contains("Not compared for lack of an exchange rate"));
    let value = read(&site, "value.html");
    assert!(value.contains(sentence));
    // IOPS per USD of monthly cost: 2,200 / 23.20 = 94.8, in the USD column
    assert!(
        value.contains("<td class=\"num\">94.8 IOPS</td>"),
        "{value}"
    );
    assert!(!value.contains("per EUR"));
    // in Markdown the address is an autolink, nothing escaped inside it
    let md_sentence = sentence.replace("https://example.org/fx", "<https://example.org/fx>");
    assert!(read(&site, "data/fx.md").contains(&md_sentence));
    assert!(read(&site, "data/summary.md").contains(&md_sentence));
    // the chart places it at its converted cost, in USD
    let chart = read(&site, "charts/fx/overview.svg");
    assert!(
        chart.contains("Hetzner Volume: 23.2 monthly cost (USD)"),
        "{chart}"
    );
    assert!(chart.contains("Prices in EUR converted to USD"));
    // its own page: both prices and the rate
    let offering = read(&site, "offerings/fx/hetzner-volume.html");
    assert!(offering.contains("20.00 EUR (23.20 USD)"));
    assert!(offering.contains(sentence));

    let doc = json(&site);
    let study = &doc["studies"][0];
    assert_eq!(study["currency"], "USD");
    assert_eq!(study["excluded"], serde_json::json!([]));
    assert_eq!(
        study["exchange_rates"],
        serde_json::json!([{
            "from": "EUR", "to": "USD", "rate": 1.16, "inverse": false,
            "as_of": "2026-11-30", "source": "https://example.org/fx"
        }])
    );
    let hetzner = study["offerings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["name"] == "Hetzner Volume")
        .unwrap();
    assert_eq!(hetzner["currency"], "EUR");
    assert_eq!(hetzner["monthly_cost"], 20.0);
    assert!((hetzner["converted_monthly_cost"].as_f64().unwrap() - 23.2).abs() < 1e-9);
    let headline = study["headline"].as_array().unwrap();
    let text: Vec<&str> = headline.iter().filter_map(|h| h.as_str()).collect();
    let text = text.join(" ");
    assert!(!text.contains("Left out"), "{text}");
    // usd2's 1.25 beats the converted 0.948
    assert!(
        text.contains("The most for the money: 4 KiB random read IOPS, P usd2"),
        "{text}"
    );
}

#[test]
fn the_inverse_rate_is_used_when_only_it_is_given_and_changes_the_verdict() {
    // 1 USD = 1.25 EUR: 1 EUR = 0.8 USD, 20.00 EUR is 16.00 USD
    let (_dir, site) = site(Some(&format!("{HEADER}USD,EUR,1.25,2026-12-01,ECB\n")));
    let row = value_row(&site, "Volume");
    assert_eq!(row["price_ratio"], "1.600");
    // 2.2 / 1.6 = 1.375: worth it, and now the most for the money
    assert_eq!(row["value_ratio"], "1.375");
    assert_eq!(row["verdict"], "worth it");
    assert_eq!(row["rate"], "0.8");
    assert_eq!(row["converted_monthly_cost"], "16.00");
    let page = read(&site, "studies/fx.html");
    assert!(page.contains(
        "Prices in EUR converted at 1 EUR = 0.8 USD (the inverse of 1 USD = 1.25 EUR, as of 2026-12-01, source ECB)."
    ));
    let doc = json(&site);
    let study = &doc["studies"][0];
    assert_eq!(study["exchange_rates"][0]["inverse"], true);
    assert_eq!(study["exchange_rates"][0]["rate"], 0.8);
    let headline: Vec<&str> = study["headline"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|h| h.as_str())
        .collect();
    assert!(
        headline
            .join(" ")
            .contains("The most for the money: 4 KiB random read IOPS, Hetzner Volume"),
        "{headline:?}"
    );
}

#[test]
fn a_rate_for_another_pair_leaves_the_configuration_out() {
    let (_dir, site, stderr) =
        site_and_stderr(Some(&format!("{HEADER}GBP,USD,1.27,2026-11-30,\n")));
    assert!(
        stderr.contains("warning: rates row GBP,USD converts nothing: the prices are in EUR, USD"),
        "{stderr}"
    );
    let study = &json(&site)["studies"][0];
    assert_eq!(study["exchange_rates"], serde_json::json!([]));
    assert_eq!(study["excluded"][0]["offering"], "Hetzner Volume");
    assert_eq!(value_row(&site, "Volume")["price_ratio"], "");
}

#[test]
fn bad_rows_are_errors_naming_file_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in");
    write_study(&input);
    let cases = [
        ("EUR,USD,abc,2026-11-30,x\n", 2, Some(3), "is not a number"),
        (
            "EUR,USD,1.1,2026-11-30,x\nGBP,USD,0,2026-11-30,x\n",
            3,
            Some(3),
            "expected a number above zero",
        ),
        ("EUR,USD,-2,2026-11-30,x\n", 2, Some(3), "above zero"),
        ("EUR,USD,1.1,30.11.2026,x\n", 2, Some(4), "YYYY-MM-DD"),
        ("EUR,USD,1.1\n", 2, Some(4), "is missing"),
        (
            "EUR,USD,1.1,2026-11-30,x\nEUR,USD,1.2,2026-11-30,y\n",
            3,
            Some(3),
            "EUR→USD is 1.2 here and 1.1 on line 2",
        ),
        ("USD,USD,1,2026-11-30,x\n", 2, Some(2), "same currency"),
        ("EUR,dollars,1.1,2026-11-30,x\n", 2, Some(2), "ISO 4217"),
    ];
    for (i, (body, line, column, what)) in cases.iter().enumerate() {
        let path = dir.path().join(format!("rates-{i}.csv"));
        std::fs::write(&path, format!("{HEADER}{body}")).unwrap();
        let out = dir.path().join(format!("site-{i}"));
        let (ok, _, stderr) = report(&[
            input.as_os_str(),
            "--out".as_ref(),
            out.as_os_str(),
            "--rates".as_ref(),
            path.as_os_str(),
        ]);
        assert!(!ok, "{body} was accepted");
        let mut at = format!("{}:{line}:", path.display());
        if let Some(c) = column {
            at.push_str(&format!(" column {c} ("));
        }
        assert!(stderr.contains(&at), "{body}: expected `{at}` in {stderr}");
        assert!(
            stderr.contains(what),
            "{body}: expected `{what}` in {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
    // a header without a column
    let path = dir.path().join("no-date.csv");
    std::fs::write(&path, "from,to,rate,source\nEUR,USD,1.1,x\n").unwrap();
    let out = dir.path().join("site-header");
    let (ok, _, stderr) = report(&[
        input.as_os_str(),
        "--out".as_ref(),
        out.as_os_str(),
        "--rates".as_ref(),
        path.as_os_str(),
    ]);
    assert!(!ok);
    assert!(
        stderr.contains(&format!("{}:1: missing column `as_of`", path.display())),
        "{stderr}"
    );
}

#[test]
fn a_hostile_source_is_text_on_every_page() {
    let (_dir, site) = site(Some(&format!(
        "{HEADER}EUR,USD,1.16,2026-11-30,\"<script>alert(1)</script> *bold* [x](y)\"\n"
    )));
    for page in [
        "studies/fx.html",
        "value.html",
        "offerings/fx/hetzner-volume.html",
    ] {
        let html = read(&site, page);
        assert!(!html.contains("<script>alert"), "{page}");
        assert!(
            html.contains("&lt;script&gt;alert(1)&lt;/script&gt;")
                || html.contains("&#60;script&#62;alert(1)&#60;/script&#62;"),
            "{page}"
        );
    }
    let md = read(&site, "data/fx.md");
    assert!(
        md.contains("source &lt;script&gt;alert(1)&lt;/script&gt; \\*bold\\* \\[x\\](y))."),
        "{md}"
    );
    let doc = json(&site);
    assert_eq!(
        doc["studies"][0]["exchange_rates"][0]["source"],
        "<script>alert(1)</script> *bold* [x](y)"
    );
}

#[test]
fn an_address_in_a_source_runs_no_liquid_or_hugo_tag_in_the_post() {
    // an autolink keeps its characters as they are, but `{{`, `{%` there
    // would still run as a tag in Jekyll or Hugo before Markdown is read
    let (_dir, site) = site(Some(&format!(
        "{HEADER}EUR,USD,1.16,2026-11-30,https://example.org/{{{{site.github}}}}/{{%raw%}}\n"
    )));
    for page in ["data/fx.md", "data/summary.md"] {
        let md = read(&site, page);
        assert!(!md.contains("{{") && !md.contains("{%"), "{page}: {md}");
        assert!(
            md.contains("source <https://example.org/%7B%7Bsite.github%7D%7D/%7B%raw%%7D>)."),
            "{page}: {md}"
        );
    }
    // the HTML pages keep the address as written, escaped as text
    assert!(read(&site, "studies/fx.html").contains("https://example.org/{{site.github}}/{%raw%}"));
}

#[test]
fn a_bad_row_after_35000_rates_is_named_by_its_line() {
    // some 35,000 rows of 220 bytes (the same rate each time, accepted),
    // then a bad one: its line number is counted once over the file, not
    // again from the start for every row
    let rows = 35_000;
    let source = "s".repeat(195);
    let mut text = String::from(HEADER);
    for _ in 0..rows {
        text.push_str(&format!("EUR,USD,1.16,2026-11-30,{source}\n"));
    }
    text.push_str("EUR,GBP,abc,2026-11-30,x\n");
    assert!(text.len() < 8 << 20, "{} bytes", text.len());
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in");
    write_study(&input);
    let path = dir.path().join("rates.csv");
    std::fs::write(&path, &text).unwrap();
    let out = dir.path().join("site");
    let (ok, _, stderr) = report(&[
        input.as_os_str(),
        "--out".as_ref(),
        out.as_os_str(),
        "--rates".as_ref(),
        path.as_os_str(),
    ]);
    assert!(!ok);
    assert!(
        stderr.contains(&format!("{}:{}: column 3 (rate)", path.display(), rows + 2)),
        "{stderr}"
    );
}
