//! The subject flags (`--study`, `--provider`, ...) and how they become a
//! record's `subject`, shared by `run` and `import`.

use anyhow::{bail, Result};
use clap::Args;

use crate::record::{self, Price, Subject};

/// What is measured; goes into every record. A flag left out is recorded as unknown.
#[derive(Args, Debug, Clone, Default)]
pub struct SubjectArgs {
    /// Which comparison the run belongs to.
    #[arg(long)]
    pub study: Option<String>,
    /// Who sells the storage.
    #[arg(long)]
    pub provider: Option<String>,
    /// What is sold (volume type, instance type, plan).
    #[arg(long)]
    pub offering: Option<String>,
    /// Region or data centre.
    #[arg(long)]
    pub region: Option<String>,
    /// Size of the tested volume in GB.
    #[arg(long, value_name = "GB")]
    pub size_gb: Option<f64>,
    /// List price per GB per month.
    #[arg(long, value_name = "PRICE")]
    pub price_per_gb_month: Option<f64>,
    /// Currency of the price.
    #[arg(long, default_value = "USD")]
    pub currency: String,
    /// IOPS provisioned for the volume (gp3 above its included 3,000; io1,
    /// io2, which need it to be priced). Left out: the level the offering's
    /// price includes. Recorded as the label provisioned_iops.
    #[arg(long, value_name = "N")]
    pub provisioned_iops: Option<f64>,
    /// Throughput provisioned for the volume, in MB/s as the offering sells
    /// it (gp3: MiB/s, above its included 125). Left out: the level the
    /// offering's price includes. Recorded as the label provisioned_mbps.
    #[arg(long, value_name = "N")]
    pub provisioned_mbps: Option<f64>,
    /// Free-form label (repeatable).
    #[arg(long = "label", value_name = "KEY=VALUE")]
    pub labels: Vec<String>,
}

/// Builds the record subject from the flags. A flag left out stays unknown.
/// Fails on a malformed `--label`, a size or price that is not a positive
/// number, or a currency that is not three letters (`eur` becomes `EUR`):
/// the same rules `check` applies, so a run never writes records that
/// `check` and `report` then refuse.
pub fn from_args(args: &SubjectArgs) -> Result<Subject> {
    for (flag, value) in [
        ("--study", &args.study),
        ("--provider", &args.provider),
        ("--offering", &args.offering),
        ("--region", &args.region),
    ] {
        if let Some(v) = value {
            within(flag, v, record::MAX_NAME_CHARS)?;
        }
    }
    if args.labels.len() > record::MAX_LABELS {
        bail!(
            "--label is given {} times, over the limit of {} labels",
            args.labels.len(),
            record::MAX_LABELS
        );
    }
    let mut labels = std::collections::BTreeMap::new();
    for label in &args.labels {
        match label.split_once('=') {
            Some((k, v)) if !k.trim().is_empty() => {
                within("a --label key", k.trim(), record::MAX_NAME_CHARS)?;
                within(&format!("--label {}=", k.trim()), v, record::MAX_NAME_CHARS)?;
                labels.insert(k.trim().to_string(), v.to_string());
            }
            _ => {
                within("--label", label, 2 * record::MAX_NAME_CHARS + 1)?;
                bail!("--label `{label}`: expected KEY=VALUE")
            }
        }
    }
    for (key, text) in &labels {
        if let Err(why) = crate::plausible::check_label(key, text) {
            bail!("--label {key}={text}: {why}");
        }
    }
    // the flags write the labels `report` reads; a label that says
    // otherwise is refused rather than silently replaced
    for (flag, label, value) in [
        (
            "--provisioned-iops",
            "provisioned_iops",
            args.provisioned_iops,
        ),
        (
            "--provisioned-mbps",
            "provisioned_mbps",
            args.provisioned_mbps,
        ),
    ] {
        let Some(v) = value else { continue };
        let text = v.to_string();
        if let Err(why) = crate::plausible::check_label(label, &text) {
            bail!("{flag} {why}");
        }
        match labels.get(label) {
            Some(given) if given.trim().parse::<f64>() != Ok(v) => {
                bail!("{flag} {text} and --label {label}={given} disagree (give one of them)")
            }
            _ => {
                labels.insert(label.to_string(), text);
            }
        }
    }
    if labels.len() > record::MAX_LABELS {
        bail!(
            "{} labels with --provisioned-iops and --provisioned-mbps, over the limit of {}",
            labels.len(),
            record::MAX_LABELS
        );
    }
    for (flag, value, range) in [
        ("--size-gb", args.size_gb, crate::plausible::SIZE_GB),
        (
            "--price-per-gb-month",
            args.price_per_gb_month,
            crate::plausible::PRICE_PER_GB_MONTH,
        ),
    ] {
        if let Some(v) = value {
            if let Err(why) = range.check(v) {
                bail!("{flag} {why} (leave the flag out when unknown)");
            }
        }
    }
    let currency = match record::currency_code(&args.currency) {
        Some(code) => code,
        None if args.price_per_gb_month.is_some() => bail!(
            "--currency `{}`: expected a three-letter ISO 4217 code such as USD or EUR",
            args.currency
        ),
        // no price: the currency is never stored
        None => args.currency.clone(),
    };
    Ok(Subject {
        study: known(&args.study),
        provider: known(&args.provider),
        offering: known(&args.offering),
        region: known(&args.region),
        size_gb: args.size_gb,
        price: args.price_per_gb_month.map(|p| Price {
            per_gb_month: p,
            currency,
            note: None,
        }),
        labels,
    })
}

/// What to say when the catalogue prices the subject's offering per
/// provisioned IOPS or MB/s with none included (io1, io2, Azure Ultra) and
/// the flags name no figure: `AWS io2: provisioned IOPS unknown: ...; give
/// --provisioned-iops N, or report cannot price it`. `None` when the
/// offering is priced without it, the records carry their own price, or
/// the catalogue does not know the offering.
pub fn unpriced_warning(subject: &Subject) -> Option<String> {
    use crate::analysis::prices::{EffectivePrice, Missing};
    if subject.price.is_some() {
        return None;
    }
    let book = crate::catalogue::prices().ok()?;
    let (provider, offering) = (subject.provider.as_deref()?, subject.offering.as_deref()?);
    let entry = book.for_region(Some(provider), Some(offering), subject.region.as_deref())?;
    // a size stands in when none is given: only the provisioned figures count here
    let size = subject.size_gb.or(Some(1.0));
    match EffectivePrice::from_entry(entry).try_monthly_cost(size, &subject.labels) {
        Err(m @ (Missing::ProvisionedIops | Missing::ProvisionedMbps)) => Some(format!(
            "{provider} {offering}: {m}, or `report` cannot price it"
        )),
        _ => None,
    }
}

/// Refuses a flag's text longer than `limit` characters (the limits of
/// [`record::length_problems`], so `check` accepts what the flag gives),
/// naming the flag, the length and the limit, not the text.
pub fn within(flag: &str, value: &str, limit: usize) -> Result<()> {
    match record::over_limit(value, limit) {
        Some(n) => bail!("{}", record::too_long(flag, n, limit)),
        None => Ok(()),
    }
}

/// A flag's text, trimmed; blank counts as not given.
fn known(flag: &Option<String>) -> Option<String> {
    flag.as_deref()
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blank_flags_are_unknown() {
        let args = SubjectArgs {
            provider: Some("  ".into()),
            offering: Some(" Block Storage ".into()),
            currency: "USD".into(),
            ..Default::default()
        };
        let s = from_args(&args).unwrap();
        assert_eq!(s.provider, None);
        assert_eq!(s.offering.as_deref(), Some("Block Storage"));
    }

    #[test]
    fn missing_flags_stay_unknown_and_labels_split() {
        let args = SubjectArgs {
            provider: Some("Linode".into()),
            labels: vec!["plan=1GB".into(), "note=a=b".into()],
            currency: "USD".into(),
            ..Default::default()
        };
        let s = from_args(&args).unwrap();
        assert_eq!(s.provider.as_deref(), Some("Linode"));
        assert_eq!(s.offering, None);
        assert_eq!(s.price, None);
        assert_eq!(s.labels["note"], "a=b");
    }

    #[test]
    fn bad_label_and_negative_price_are_refused() {
        let mut args = SubjectArgs {
            labels: vec!["novalue".into()],
            ..Default::default()
        };
        assert!(from_args(&args).is_err());
        args.labels.clear();
        args.price_per_gb_month = Some(-1.0);
        let e = from_args(&args).unwrap_err().to_string();
        assert!(e.contains("--price-per-gb-month"), "{e}");
    }

    #[test]
    fn flags_check_refuses_are_refused_up_front() {
        let args = SubjectArgs {
            price_per_gb_month: Some(0.1),
            currency: "eur".into(),
            ..Default::default()
        };
        assert_eq!(from_args(&args).unwrap().price.unwrap().currency, "EUR");
        for (price, size, currency, flag) in [
            (Some(0.0), None, "USD", "--price-per-gb-month 0"),
            (None, Some(0.0), "USD", "--size-gb 0"),
            (Some(0.1), None, "dollars", "--currency `dollars`"),
            (Some(0.1), None, "E1R", "--currency `E1R`"),
        ] {
            let args = SubjectArgs {
                price_per_gb_month: price,
                size_gb: size,
                currency: currency.into(),
                ..Default::default()
            };
            let e = from_args(&args).unwrap_err().to_string();
            assert!(e.contains(flag), "{e}");
        }
        // the size, the price and a billed label in their plausible ranges
        for (size, price, label, said) in [
            (
                Some(5e-324),
                None,
                None,
                "--size-gb 5e-324 is implausibly small (plausible: 1e-6 to 1e7 GB)",
            ),
            (
                None,
                Some(1e308),
                None,
                "--price-per-gb-month 1e308 is implausibly large (plausible: 1e-6 to 1e7 per GB-month)",
            ),
            (
                None,
                None,
                Some("provisioned_iops=1e308"),
                "--label provisioned_iops=1e308: 1e308 is implausibly large (plausible: 0, or 0.001 to 1e9 IOPS)",
            ),
            (
                None,
                None,
                Some("provisioned_mbps=fast"),
                "--label provisioned_mbps=fast: `fast` is not a number (expected 0, or 1e-6 to 1e7 MB/s)",
            ),
        ] {
            let args = SubjectArgs {
                size_gb: size,
                price_per_gb_month: price,
                labels: label.into_iter().map(String::from).collect(),
                currency: "USD".into(),
                ..Default::default()
            };
            let e = from_args(&args).unwrap_err().to_string();
            assert!(e.starts_with(said), "{e}");
        }
        // the provisioned flags write the labels, and refuse a label that
        // says otherwise
        let args = SubjectArgs {
            provisioned_iops: Some(16000.0),
            provisioned_mbps: Some(500.0),
            labels: vec!["provisioned_iops=16000".into()],
            currency: "USD".into(),
            ..Default::default()
        };
        let s = from_args(&args).unwrap();
        assert_eq!(s.labels["provisioned_iops"], "16000");
        assert_eq!(s.labels["provisioned_mbps"], "500");
        let args = SubjectArgs {
            provisioned_iops: Some(16000.0),
            labels: vec!["provisioned_iops=3000".into()],
            currency: "USD".into(),
            ..Default::default()
        };
        assert_eq!(
            from_args(&args).unwrap_err().to_string(),
            "--provisioned-iops 16000 and --label provisioned_iops=3000 disagree (give one of them)"
        );
        let args = SubjectArgs {
            provisioned_mbps: Some(-5.0),
            currency: "USD".into(),
            ..Default::default()
        };
        let e = from_args(&args).unwrap_err().to_string();
        assert!(e.starts_with("--provisioned-mbps -5 is "), "{e}");
        // io2 typed without its IOPS: said up front, with the flag
        let subject = |offering: &str, labels: &[&str]| {
            from_args(&SubjectArgs {
                provider: Some("Amazon".into()),
                offering: Some(offering.into()),
                size_gb: Some(100.0),
                labels: labels.iter().map(|l| l.to_string()).collect(),
                currency: "USD".into(),
                ..Default::default()
            })
            .unwrap()
        };
        assert_eq!(
            unpriced_warning(&subject("io2", &[])).as_deref(),
            Some("Amazon io2: provisioned IOPS unknown: billed per provisioned IOPS, none included; give --provisioned-iops N, or `report` cannot price it")
        );
        assert_eq!(
            unpriced_warning(&subject("io2", &["provisioned_iops=5000"])),
            None
        );
        assert_eq!(
            unpriced_warning(&subject("gp3", &[])),
            None,
            "gp3 includes 3,000"
        );
        assert_eq!(unpriced_warning(&subject("Volumes", &[])), None);
        // without a price the currency is not stored, and not checked
        let args = SubjectArgs {
            currency: String::new(),
            ..Default::default()
        };
        assert_eq!(from_args(&args).unwrap().price, None);
    }
}
