//! The child's side of the isolated mode: a worker that tests the inputs its
//! parent sends, one per line on stdin, and answers on stdout.
//!
//! For each input it answers three times: once generated (the choices its
//! generators drew), once printed, then with the verdict of the check. A
//! child that dies or hangs after the first has shown its input first, so
//! the parent can report and shrink it, and knows which stage failed.

use super::super::erased::DynProperty;
use super::super::execute::quietly;
use super::super::found::Found;
use super::super::regressions::parse_line;
use super::super::tested::NotGenerated;
use super::super::watch::Watch;
use super::{Reply, MARK};
use pbt_core::Outcome;
use std::io::{BufRead, Write};

/// Serve `prop`'s inputs until stdin closes, then end the process.
pub(super) fn serve(prop: &dyn DynProperty) -> ! {
    let watch = Watch::new(None);
    send(&Reply::Ready);
    let stdin = std::io::stdin();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let reply = match parse_line(line.trim()) {
            Some(found) => test(prop, &found, &watch),
            None => Reply::Refused(format!("not an input: {line:?}")),
        };
        send(&reply);
    }
    let _ = std::io::stdout().flush();
    std::process::exit(0)
}

/// Generate `found` (answering with its choices and printed input), then run
/// it: the second reply.
fn test(prop: &dyn DynProperty, found: &Found, watch: &Watch) -> Reply {
    let traced = match prop.generate_traced(found, watch) {
        Ok(traced) => traced,
        Err(NotGenerated::Discarded(why)) => return Reply::Rejected(why),
        Err(NotGenerated::Failed(reason)) => return Reply::GeneratorFailed(reason),
    };
    send(&Reply::Drawn(traced.choices));
    let printed = match quietly(|| prop.print_any(&*traced.inputs)) {
        Ok(bindings) => bindings.into_iter().map(|b| b.value).collect(),
        Err(panic) => vec![format!("<printing panicked: {panic}>")],
    };
    send(&Reply::Printed(printed));
    match prop.run_any(&*traced.inputs, watch) {
        Outcome::Pass => Reply::Passed,
        Outcome::Discard => Reply::Discarded,
        Outcome::Fail(reason) => Reply::Failed(reason),
    }
}

/// One reply, on a line of its own, in one write.
fn send(reply: &Reply) {
    let json = serde_json::to_string(reply).unwrap_or_default();
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(format!("\n{MARK}{json}\n").as_bytes());
    let _ = out.flush();
}
