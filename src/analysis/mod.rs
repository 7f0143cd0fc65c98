//! Statistics over repetitions and the price/performance value analysis.

pub mod prices;
pub mod stats;
pub mod value;

#[cfg(test)]
pub(crate) mod testing {
    //! Records built in code for unit tests.

    use crate::record::{
        Host, Metric, Price, Record, Source, Status, Subject, Target, TestInfo, Tool,
    };

    /// An `ok` bonnie++-tool record in study `s` with the given metrics, 100 GB.
    pub fn record(
        id: &str,
        provider: &str,
        offering: &str,
        price: Option<f64>,
        test: &str,
        metrics: &[(&str, f64, &str)],
    ) -> Record {
        Record {
            schema: crate::record::SCHEMA.to_string(),
            id: id.to_string(),
            source: Source::Run {
                diskdash_version: "0.1.0".to_string(),
            },
            subject: Subject {
                study: Some("s".to_string()),
                provider: Some(provider.to_string()),
                offering: Some(offering.to_string()),
                size_gb: Some(100.0),
                price: price.map(|p| Price {
                    per_gb_month: p,
                    currency: "USD".to_string(),
                    note: None,
                }),
                ..Subject::default()
            },
            host: Host::default(),
            target: Target::default(),
            test: TestInfo {
                id: test.to_string(),
                tool: Tool::Bonnie,
                tool_version: None,
                parameters: Default::default(),
                command: None,
            },
            run_id: None,
            repetition: 1,
            started_at: None,
            duration_s: None,
            status: Status::Ok,
            error: None,
            metrics: metrics
                .iter()
                .map(|(n, v, u)| {
                    (
                        n.to_string(),
                        Metric {
                            value: *v,
                            unit: u.to_string(),
                        },
                    )
                })
                .collect(),
            raw: None,
        }
    }
}
