//! The head of a test page: its tools, the command once per form, and its
//! parameters.

use super::*;

/// The head of a test page.
pub(super) struct Header {
    pub tools: String,
    pub commands: Vec<command::CommandView>,
    pub more_commands: String,
    pub parameters: Vec<Pair>,
}

/// The head of the page of the records `keyed` (with their configuration's
/// name), `sorted` the same records alone.
pub(super) fn build(ctx: PageCtx, keyed: &[(&str, &Summary)], sorted: &[&Summary]) -> Header {
    let tools: BTreeSet<String> = sorted
        .iter()
        .map(|r| r.test.tool.name().to_string())
        .collect();
    // the command once, with what differs between runs listed below it
    // taken one at a time: a large build holds each run's command apart
    let mut summary = command::Summary::default();
    for (name, r) in keyed {
        if let Some(line) = ctx.whole.command(r) {
            summary.add(name, &line);
        }
    }
    let (commands, more) = summary.finish();
    let more_commands = match more {
        0 => String::new(),
        n => format!("... and {n} more forms of the command (see the runs)"),
    };
    let mut params: BTreeMap<&str, BTreeSet<String>> = BTreeMap::new();
    for r in sorted {
        for (k, v) in &r.test.parameters {
            params
                .entry(k.as_str())
                .or_default()
                .insert(format::parameter(k, v));
        }
    }
    // a parameter with a value per run (the scratch path) would fill a
    // phone's screen: it is counted here, and listed under the command
    let parameters = params
        .into_iter()
        .map(|(k, v)| Pair {
            key: k.to_string(),
            value: if v.len() > PARAMETER_VALUES_SHOWN {
                format!("{} different values (each run's page has its own)", v.len())
            } else {
                capped(&v.into_iter().collect::<Vec<_>>())
            },
        })
        .collect();
    Header {
        tools: tools.into_iter().collect::<Vec<_>>().join(", "),
        commands,
        more_commands,
        parameters,
    }
}
