//! A configuration's price within a study: what it costs a month, its
//! ratio against the baseline's, the study's main currency and basis, and
//! its cheapest configuration.

use std::collections::BTreeMap;

use super::PriceBasis;
use crate::analysis::prices::{Conversion, EffectivePrice};
use crate::plausible::{finite, show};

/// A configuration's price and what it costs a month.
pub(super) struct Priced {
    pub(super) price: Option<EffectivePrice>,
    pub(super) monthly: Result<f64, String>,
    /// Into the baseline's currency, for a price in another currency with
    /// a rate in `--rates`.
    pub(super) to_base: Option<Conversion>,
}

impl Priced {
    pub(super) fn per_gb(&self) -> Option<f64> {
        self.price.as_ref().and_then(EffectivePrice::per_gb_month)
    }

    pub(super) fn flat(&self) -> bool {
        self.price.as_ref().is_some_and(EffectivePrice::is_flat)
    }

    pub(super) fn currency(&self) -> Option<&str> {
        self.price.as_ref().map(|p| p.currency.as_str())
    }

    /// Units of the baseline's currency per unit of this price's, when
    /// the price is converted.
    pub(super) fn factor(&self) -> Option<f64> {
        self.to_base.as_ref().map(|c| c.factor)
    }

    /// The currency the price compares in: the baseline's when converted.
    pub(super) fn compared_currency(&self) -> Option<&str> {
        match &self.to_base {
            Some(c) => Some(c.to.as_str()),
            None => self.currency(),
        }
    }

    /// The cost the study's basis ranks by.
    pub(super) fn cost(&self, basis: PriceBasis) -> Option<f64> {
        match basis {
            PriceBasis::Monthly => self.monthly.as_ref().ok().copied(),
            PriceBasis::PerGb => self.per_gb(),
        }
    }
}

/// The price ratio of `row` against `base` and its basis, or why there is
/// none ("size unknown", "priced in EUR, the baseline in USD").
pub(super) fn price_ratio(row: &Priced, base: &Priced) -> Result<(PriceBasis, f64), String> {
    let (Some(p), Some(b)) = (&row.price, &base.price) else {
        return Err(if row.price.is_none() {
            "no price".into()
        } else {
            "no priced baseline".into()
        });
    };
    // a price in another currency compares once converted into the
    // baseline's; the baseline itself is never converted
    let factor = if p.currency == b.currency {
        1.0
    } else {
        match row.to_base.as_ref().filter(|c| c.to == b.currency) {
            Some(c) => c.factor,
            None => return Err(no_rate_reason(&p.currency, &b.currency)),
        }
    };
    // a ratio that overflows, or divides by about zero, is no ratio
    let out_of_range = |r: f64| format!("a price ratio of {} is out of range", show(r));
    if let (Ok(m), Ok(mb)) = (&row.monthly, &base.monthly) {
        if *mb > 0.0 {
            let r = m * factor / mb;
            return finite(r)
                .map(|r| (PriceBasis::Monthly, r))
                .ok_or_else(|| out_of_range(r));
        }
    }
    if let (true, true, Some(g), Some(gb)) = (row.flat(), base.flat(), row.per_gb(), base.per_gb())
    {
        let r = g * factor / gb;
        return finite(r)
            .map(|r| (PriceBasis::PerGb, r))
            .ok_or_else(|| out_of_range(r));
    }
    Err(match (&row.monthly, &base.monthly) {
        (Err(m), _) => m.clone(),
        (_, Err(m)) => format!("the baseline's {m}"),
        _ => "the baseline's monthly cost is zero".into(),
    })
}

/// Why a price in `currency` cannot be compared with a baseline priced in
/// `base`: `priced in EUR, no EUR→USD rate in --rates`.
pub fn no_rate_reason(currency: &str, base: &str) -> String {
    format!("priced in {currency}, no {currency}→{base} rate in --rates")
}

/// The currency most priced configurations use (on a tie, the first code
/// alphabetically): prices in different currencies cannot be compared.
pub(super) fn main_currency(priced: &BTreeMap<String, Priced>) -> Option<String> {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for p in priced.values() {
        if let Some(c) = p.currency() {
            *counts.entry(c).or_default() += 1;
        }
    }
    counts
        .iter()
        .fold(None::<(&str, usize)>, |best, (c, n)| match best {
            Some((_, bn)) if bn >= *n => best,
            _ => Some((c, *n)),
        })
        .map(|(c, _)| c.to_string())
}

/// The basis a study can rank on in `currency`: monthly cost when every
/// configuration priced in it that could be compared per GB has one, else
/// price per GB. A configuration whose cost is unknown and whose price is
/// not flat (io2 without its provisioned IOPS) compares on neither basis,
/// so it does not take the monthly basis from the others; without any
/// monthly cost the basis is per GB.
pub(super) fn study_basis(
    priced: &BTreeMap<String, Priced>,
    currency: Option<&str>,
) -> Option<PriceBasis> {
    let currency = currency?;
    let in_currency = || priced.values().filter(|p| p.currency() == Some(currency));
    let per_gb_only = in_currency().any(|p| p.monthly.is_err() && p.flat());
    let any_monthly = in_currency().any(|p| p.monthly.is_ok());
    Some(if any_monthly && !per_gb_only {
        PriceBasis::Monthly
    } else {
        PriceBasis::PerGb
    })
}

/// The cheapest configuration in the main currency on the study's basis,
/// and that basis. Ties go to the first name: the choice is deterministic.
pub(super) fn cheapest(priced: &BTreeMap<String, Priced>) -> Option<(String, PriceBasis)> {
    let currency = main_currency(priced)?;
    let basis = study_basis(priced, Some(&currency))?;
    cheapest_of(priced.iter(), &currency, basis).map(|n| (n.to_string(), basis))
}

/// The cheapest of `candidates` in `currency` on `basis`.
pub(super) fn cheapest_of<'a>(
    candidates: impl Iterator<Item = (&'a String, &'a Priced)>,
    currency: &str,
    basis: PriceBasis,
) -> Option<&'a str> {
    candidates
        .filter(|(_, p)| p.currency() == Some(currency))
        .filter_map(|(n, p)| Some((n.as_str(), p.cost(basis)?)))
        .fold(None::<(&str, f64)>, |best, (n, c)| match best {
            Some((_, bc)) if bc <= c => best,
            _ => Some((n, c)),
        })
        .map(|(n, _)| n)
}
