//! A test page's sections drawn from its runs: the per-second timelines of
//! those that kept one, and the list of runs (or, past
//! [`runlist::RUNS_SHOWN`], of configurations).

use super::*;

/// Per-second charts of the records of `keyed` that kept a timeline, and
/// which of them are drawn, in words (empty when all are).
pub(super) fn timelines(
    scope: Scope,
    kind: TestKind,
    keyed: &[(&str, &Summary)],
    site: &dyn Output,
) -> Result<(Vec<timeline::TimelineView>, String)> {
    let Scope {
        ctx, sslug, tslug, ..
    } = scope;
    let (drawn, timelines_note) = timeline::on_test_page(keyed);
    // their series, read again where the build holds records without them
    let parts: Vec<Parts> = drawn
        .iter()
        .map(|r| ctx.whole.parts(r))
        .collect::<Result<_>>()?;
    let timed: Vec<(&Summary, &crate::record::Timeline)> = drawn
        .iter()
        .zip(&parts)
        .filter_map(|(r, p)| Some((*r, p.timeline.as_deref()?)))
        .collect();
    let timelines = timeline::charts(&ctx, site, &timed, sslug, tslug, kind, false)?;
    Ok((timelines, timelines_note))
}

/// The runs of a test page: each, or past [`runlist::RUNS_SHOWN`] a row per
/// configuration.
pub(super) struct RunList {
    pub runs: Vec<RunLink>,
    pub run_groups: Vec<runlist::RunGroup>,
    pub runs_note: String,
}

/// The list of the runs `sorted` of the test.
pub(super) fn list(scope: Scope, sorted: &[&Summary]) -> RunList {
    let Scope {
        ctx,
        s,
        study,
        test,
        ..
    } = scope;
    let bounded = runlist::test_bounded(s, test);
    RunList {
        runs: if bounded {
            Vec::new()
        } else {
            sorted.iter().map(|r| ctx.run_link(r)).collect()
        },
        run_groups: if bounded {
            s.offerings
                .values()
                .filter_map(|o| Some((o, o.tests.get(test)?)))
                .map(|(o, t)| {
                    let link = ctx.link(&o.name, &ctx.paths.offering_page(study, &o.name));
                    runlist::group(&ctx, study, link, &o.name, test, t.records.len())
                })
                .collect()
        } else {
            Vec::new()
        },
        runs_note: if bounded {
            format!(
                "{} runs, too many for one page: each configuration's are listed on pages of at most {}.",
                sorted.len(),
                runlist::RUNS_SHOWN
            )
        } else {
            String::new()
        },
    }
}
