//! `data/hosts.csv`: a row per machine and configuration of a fleet run
//! (records from two named machines or more): its runs by status, and the
//! tests and metrics on which it is an outlier.

use anyhow::Result;

use crate::analysis::machines::HostLine;
use crate::format;

/// The columns of `data/hosts.csv`.
pub const HOSTS_COLUMNS: [&str; 8] = [
    "study",
    "configuration",
    "host",
    "ok",
    "failed",
    "skipped",
    "outlier",
    "outlier_on",
];

/// `data/hosts.csv` of `lines`: `outlier` is `yes` or `no`, `outlier_on`
/// the `test:metric` pairs it is one on, joined by spaces.
pub fn hosts_csv(lines: &[HostLine]) -> Result<Vec<u8>> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(HOSTS_COLUMNS)?;
    for l in lines {
        let on: Vec<String> = l
            .outlier
            .iter()
            .map(|o| format!("{}:{}", o.test, o.metric))
            .collect();
        w.write_record(format::csv_row([
            l.study.as_str(),
            l.config.as_str(),
            l.host.as_str(),
            &l.ok.to_string(),
            &l.failed.to_string(),
            &l.skipped.to_string(),
            if on.is_empty() { "no" } else { "yes" },
            &on.join(" "),
        ]))?;
    }
    Ok(w.into_inner()?)
}

/// The line `diskdash report` prints for a host: `web-4 (P x, study s): 12
/// ok, 0 failed; outlier on fio-randread-4k-qd64 read IOPS: 1,800 IOPS, 40%
/// below the others' 2,950–3,050 IOPS`, or `...; no outlier`.
pub fn host_text(l: &HostLine) -> String {
    let mut s = format!(
        "{} ({}, study {}): {} ok, {} failed",
        l.host, l.config, l.study, l.ok, l.failed
    );
    if l.skipped > 0 {
        s.push_str(&format!(", {} skipped", l.skipped));
    }
    if l.outlier.is_empty() {
        s.push_str("; no outlier");
    } else {
        let on: Vec<String> = l
            .outlier
            .iter()
            .map(|o| {
                format!(
                    "{} {}: {}",
                    o.test,
                    crate::metrics::human_name(&o.metric),
                    o.words
                )
            })
            .collect();
        s.push_str(&format!("; outlier on {}", on.join("; ")));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::machines::HostOutlier;

    #[test]
    fn a_host_row_and_line_say_its_counts_and_where_it_is_an_outlier() {
        let mut l = HostLine {
            host: "=web-4".into(),
            study: "s".into(),
            config: "P x".into(),
            ok: 11,
            failed: 1,
            skipped: 0,
            outlier: vec![HostOutlier {
                test: "fio-randread-4k-qd64".into(),
                metric: "read_iops".into(),
                words: "1,800 IOPS, 40% below the others' 2,950–3,050 IOPS".into(),
            }],
        };
        let csv = String::from_utf8(hosts_csv(std::slice::from_ref(&l)).unwrap()).unwrap();
        assert_eq!(
            csv,
            "study,configuration,host,ok,failed,skipped,outlier,outlier_on\n\
             s,P x,'=web-4,11,1,0,yes,fio-randread-4k-qd64:read_iops\n"
        );
        assert_eq!(
            host_text(&l),
            "=web-4 (P x, study s): 11 ok, 1 failed; outlier on fio-randread-4k-qd64 read IOPS: \
             1,800 IOPS, 40% below the others' 2,950–3,050 IOPS"
        );
        l.outlier.clear();
        l.skipped = 2;
        assert_eq!(
            host_text(&l),
            "=web-4 (P x, study s): 11 ok, 1 failed, 2 skipped; no outlier"
        );
    }
}
