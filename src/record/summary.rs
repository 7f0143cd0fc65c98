//! [`Summary`]: what a report build holds of a record.

use std::sync::Arc;

use super::{
    Host, Metrics, Prefill, PriorIo, Record, Source, Status, Subject, Target, TestInfo, Timeline,
};

/// A record as the analysis and the pages hold it: what it measured,
/// where and how, without the tool output (`raw`), the timeline's series
/// or the test's command line. Fields are named as in [`Record`]; the
/// parts left out are read again, by the pages that show them, from the
/// record's file (see `ingest::reread`) or from the whole record a test
/// build keeps (`ingest::Found::new`).
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// See [`Record::id`].
    pub id: String,
    /// See [`Record::source`].
    pub source: Arc<Source>,
    /// See [`Record::subject`].
    pub subject: Arc<Subject>,
    /// See [`Record::host`].
    pub host: Arc<Host>,
    /// See [`Record::target`].
    pub target: Arc<Target>,
    /// The test, its `command` always `None` (held apart, see
    /// `ingest::Found::command`); shared as in [`Record::test`].
    pub test: Arc<TestInfo>,
    /// See [`Record::run_id`].
    pub run_id: Option<String>,
    /// See [`Record::repetition`].
    pub repetition: u32,
    /// See [`Record::started_at`].
    pub started_at: Option<String>,
    /// See [`Record::duration_s`].
    pub duration_s: Option<f64>,
    /// See [`Record::status`].
    pub status: Status,
    /// See [`Record::error`].
    pub error: Option<String>,
    /// See [`Record::warnings`].
    pub warnings: Vec<String>,
    /// See [`Record::stop`].
    pub stop: Option<super::Stop>,
    /// See [`Record::metrics`].
    pub metrics: Metrics,
    /// The timeline's interval and classification (pattern, burst phases),
    /// its series always `None`. The record's own type, so that the
    /// analysis and the pages read its fields as they did a record's; a
    /// build loaded from files also leaves its log digests out.
    pub timeline: Option<Box<Timeline>>,
    /// See [`Record::prior_io`].
    pub prior_io: Option<PriorIo>,
    /// See [`Record::prefill`].
    pub prefill: Option<Box<Prefill>>,
}

impl From<Record> for Summary {
    /// The record without its tool output, its timeline's series and its
    /// test's command line.
    fn from(r: Record) -> Summary {
        let mut test = r.test;
        test.command = None;
        let timeline = r.timeline.map(|mut tl| {
            (tl.read, tl.write, tl.trim) = (None, None, None);
            tl
        });
        Summary {
            id: r.id,
            source: Arc::new(r.source),
            subject: Arc::new(r.subject),
            host: Arc::new(r.host),
            target: Arc::new(r.target),
            test: Arc::new(test),
            run_id: r.run_id,
            repetition: r.repetition,
            started_at: r.started_at,
            duration_s: r.duration_s,
            status: r.status,
            error: r.error,
            warnings: r.warnings,
            stop: r.stop,
            metrics: r.metrics,
            timeline,
            prior_io: r.prior_io,
            prefill: r.prefill,
        }
    }
}

impl Summary {
    /// The study, or `unknown` when the record names none.
    pub fn study(&self) -> &str {
        self.subject.study()
    }

    /// `provider offering` as one display name (see [`Subject::offering_name`]).
    pub fn offering_name(&self) -> String {
        self.subject.offering_name()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_summary_leaves_out_the_output_the_series_and_the_command() {
        let test = TestInfo {
            id: "t".into(),
            suite: None,
            tool: super::super::Tool::Fio,
            tool_version: None,
            parameters: Default::default(),
            command: Some("fio --name=t".into()),
        };
        let source = Source::Run {
            diskdash_version: "0".into(),
        };
        let r = Record {
            raw: Some(Box::default()),
            timeline: Some(Box::new(Timeline {
                interval_s: 1.0,
                read: Some(Box::default()),
                write: None,
                trim: None,
                logs: [("a.log".to_string(), "00".to_string())].into(),
                pattern: Some(super::super::Pattern::Flat),
                burst_on_s: None,
                burst_off_s: None,
            })),
            ..Record::new("a", source, Subject::default(), test)
        };
        let s = Summary::from(r.clone());
        assert_eq!((s.id.as_str(), s.study()), ("a", "unknown"));
        assert_eq!(s.offering_name(), "unknown provider unknown offering");
        assert_eq!(s.test.command, None);
        assert_eq!(r.test.command.as_deref(), Some("fio --name=t"));
        let tl = s.timeline.unwrap();
        assert!(tl.read.is_none() && tl.pattern.is_some() && tl.logs.len() == 1);
    }
}
