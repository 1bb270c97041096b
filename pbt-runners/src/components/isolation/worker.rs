//! The parent's handle on a child process that tests inputs out of process
//! ([`super::child`] is the other side): spawn it, send it an input, wait
//! for its replies within the time limit, kill it when it hangs, and read
//! how it died when it does.

use super::super::found::Found;
use super::super::regressions::encode;
use super::super::tested::{Fault, Tested};
use super::{Reply, CHILD, MARK};
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Why a worker that hung failed: the reason of every hang the isolated
/// mode reports (the shrinker of hangs tells a hang from a crash by it).
pub(crate) const HUNG: &str =
    "the test did not return within the time limit; its process was killed";

/// The least time a worker is given to start and reach the property.
const STARTUP: Duration = Duration::from_secs(30);

/// What stands for the printed input when printing it did not return.
pub const UNPRINTED: &str = "<printing did not return>";

/// How to start a worker: this executable, re-run on the same test.
#[derive(Clone, Debug)]
pub struct Spawn {
    /// The libtest name of the test (`None` outside libtest: the executable
    /// is re-run without arguments).
    pub test: Option<String>,
    /// The property's name, which the child serves.
    pub property: String,
}

/// A running worker: a child process testing the inputs it is sent.
///
/// The child is this executable re-run; it must reach the same runner call
/// (under libtest, by running the same test), where it serves. Here, in a
/// program of its own, `main` sends a worker straight to that call:
///
/// ```
/// use pbt_core::property::{Check, Forall, Prop};
/// use pbt_runners::components::isolation::{Answer, Spawn, Worker, CHILD};
/// use pbt_runners::components::{CaseSeed, Found, Tested};
/// use pbt_runners::{generational, Config};
/// let prop = Prop::new(Forall::new("x", "u8", Check::new(|&(x, ()): &(u8, ())| x < 200)));
/// if std::env::var_os(CHILD).is_some() {
///     generational(&prop, Config::default()); // serves; does not return
/// }
/// let spawn = Spawn { test: None, property: "property".to_string() };
/// let mut worker = Worker::spawn(&spawn).unwrap();
/// match worker.test(&Found::Case(CaseSeed { seed: 1, size: 10 }), None) {
///     Answer { shown: Some(shown), tested } => {
///         let x: u8 = shown.printed[0].parse().unwrap();
///         assert_eq!(tested == Tested::Passed, x < 200);
///     }
///     other => panic!("{other:?}"),
/// }
/// ```
#[derive(Debug)]
pub struct Worker {
    child: Child,
    stdin: Option<ChildStdin>,
    replies: Receiver<Reply>,
    stderr: Arc<Mutex<VecDeque<String>>>,
    /// Whether the worker said it reached the property.
    ready: bool,
}

/// A worker's answer on one input: what the test came to (a process that
/// died or hung is a [`Fault::Died`]), with the input as the worker showed
/// it when it was generated first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// What the test came to.
    pub tested: Tested,
    /// The input's choices and printing, when it was generated (always
    /// when the check ran; for a death, when generation finished first).
    pub shown: Option<Shown>,
}

impl Answer {
    /// An answer about an input that was not generated, or not shown.
    fn unshown(tested: Tested) -> Answer {
        Answer {
            tested,
            shown: None,
        }
    }
}

/// An input as a worker showed it: the choices its generators drew and its
/// variables printed (what the parent reports and shrinks).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shown {
    /// The choices the generators drew.
    pub choices: Vec<u64>,
    /// Each variable printed, in quantification order.
    pub printed: Vec<String>,
}

impl Worker {
    /// Start a worker.
    pub fn spawn(spawn: &Spawn) -> std::io::Result<Worker> {
        let exe = std::env::current_exe()?;
        let mut command = Command::new(exe);
        if let Some(test) = &spawn.test {
            command.args([
                test.as_str(),
                "--exact",
                "--include-ignored",
                "--test-threads=1",
            ]);
            command.arg("--quiet");
        }
        let mut child = command
            .env(CHILD, &spawn.property)
            .env_remove("PBT_ISOLATE")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("piped");
        let stderr = child.stderr.take().expect("piped");
        let (send, replies) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).split(b'\n') {
                let Ok(line) = line else { break };
                let line = String::from_utf8_lossy(&line);
                if let Some(json) = line.split_once(MARK).map(|(_, json)| json) {
                    let Ok(reply) = serde_json::from_str::<Reply>(json) else {
                        break;
                    };
                    if send.send(reply).is_err() {
                        break;
                    }
                }
            }
        });
        let tail = Arc::new(Mutex::new(VecDeque::new()));
        let keep = Arc::clone(&tail);
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stderr);
            let mut buf = Vec::new();
            while let Ok(n) = reader.read_until(b'\n', &mut buf) {
                if n == 0 {
                    break;
                }
                let line = String::from_utf8_lossy(&buf).trim_end().to_string();
                buf.clear();
                if let Ok(mut tail) = keep.lock() {
                    if !line.is_empty() {
                        tail.push_back(line);
                    }
                    if tail.len() > 8 {
                        tail.pop_front();
                    }
                }
            }
            let _ = reader.read_to_end(&mut buf);
        });
        Ok(Worker {
            child,
            stdin,
            replies,
            stderr: tail,
            ready: false,
        })
    }

    /// Test `found`, allowing it `limit` (`None`: no limit) for generation
    /// and check together. After a [`Fault::Died`] the worker is gone.
    pub fn test(&mut self, found: &Found, limit: Option<Duration>) -> Answer {
        if !self.ready {
            // Starting the process and reaching the property is not the
            // test's time: it gets the limit ten times over, and 30 s.
            let start = limit.map(|l| Instant::now() + (l * 10).max(STARTUP));
            match self.reply(start) {
                Ok(Reply::Ready) => self.ready = true,
                Ok(other) => return self.protocol(other),
                Err(hung) => {
                    let stage = "while starting: the test did not reach the property's runner call";
                    return self.died(None, hung, stage);
                }
            }
        }
        let deadline = limit.map(|l| Instant::now() + l);
        let sent = self
            .stdin
            .as_mut()
            .map(|stdin| stdin.write_all(format!("{}\n", encode(found)).as_bytes()));
        if !matches!(sent, Some(Ok(()))) {
            return self.died(None, false, "before the input was sent");
        }
        let choices = match self.reply(deadline) {
            Ok(Reply::Drawn(choices)) => choices,
            Ok(Reply::Rejected(why)) => return Answer::unshown(Tested::Discarded(why)),
            Ok(Reply::GeneratorFailed(reason)) => {
                return Answer::unshown(Tested::Failed(Fault::Generator(reason)))
            }
            Ok(other) => return self.protocol(other),
            Err(hung) => return self.died(None, hung, "while generating the input"),
        };
        let printed = match self.reply(deadline) {
            Ok(Reply::Printed(printed)) => printed,
            Ok(other) => return self.protocol(other),
            Err(hung) => {
                let printed = vec![UNPRINTED.to_string()];
                let shown = Shown { choices, printed };
                return self.died(Some(shown), hung, "while printing the input");
            }
        };
        let shown = Shown { choices, printed };
        let tested = match self.reply(deadline) {
            Ok(Reply::Passed) => Tested::Passed,
            Ok(Reply::Discarded) => Tested::Discarded(pbt_core::Discarded::Precondition),
            Ok(Reply::Failed(reason)) => Tested::Failed(Fault::Check(reason)),
            Ok(other) => return self.protocol(other),
            Err(hung) => return self.died(Some(shown), hung, "in the check"),
        };
        Answer {
            tested,
            shown: Some(shown),
        }
    }

    /// The next reply before `deadline`; `Err(true)` when it hung, `Err(false)`
    /// when the child closed its output (it died).
    fn reply(&self, deadline: Option<Instant>) -> Result<Reply, bool> {
        match deadline {
            Some(at) => match self
                .replies
                .recv_timeout(at.saturating_duration_since(Instant::now()))
            {
                Ok(reply) => Ok(reply),
                Err(RecvTimeoutError::Timeout) => Err(true),
                Err(RecvTimeoutError::Disconnected) => Err(false),
            },
            None => self.replies.recv().map_err(|_| false),
        }
    }

    fn protocol(&mut self, reply: Reply) -> Answer {
        let reason = format!("the test process answered out of turn: {reply:?}");
        let _ = self.child.kill();
        let _ = self.child.wait();
        Answer::unshown(Tested::Failed(Fault::Died(reason)))
    }

    /// The child hung (killed now) or died: how.
    fn died(&mut self, shown: Option<Shown>, hung: bool, stage: &str) -> Answer {
        let limit_note = if hung {
            let _ = self.child.kill();
            HUNG.to_string()
        } else {
            String::new()
        };
        let status = self.child.wait();
        // Let the stderr reader catch up with what the child wrote last.
        std::thread::sleep(Duration::from_millis(20));
        let reason = if hung {
            limit_note
        } else {
            let how = match status {
                Ok(status) => describe_exit(status),
                Err(e) => format!("the test process was lost ({e})"),
            };
            let last = self
                .stderr
                .lock()
                .ok()
                .and_then(|t| t.iter().rev().find(|l| !l.starts_with("note:")).cloned());
            match last {
                Some(line) => format!("{how}: {line}"),
                None => how,
            }
        };
        let reason = match stage {
            "in the check" => reason,
            _ => format!("{reason} ({stage})"),
        };
        Answer {
            tested: Tested::Failed(Fault::Died(reason)),
            shown,
        }
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        // Closing stdin ends a healthy worker; a stuck one is killed.
        drop(self.stdin.take());
        let waited = Instant::now();
        while waited.elapsed() < Duration::from_millis(200) {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// How a test process ended, in words.
fn describe_exit(status: std::process::ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            let name = match signal {
                libc::SIGABRT => {
                    "SIGABRT (an abort: a double panic, an allocation failure or a stack overflow)"
                }
                libc::SIGSEGV => "SIGSEGV (a stack overflow or an invalid memory access)",
                libc::SIGBUS => "SIGBUS (an invalid memory access)",
                libc::SIGILL => "SIGILL (an illegal instruction)",
                libc::SIGKILL => "SIGKILL (killed, perhaps for running out of memory)",
                _ => "a signal",
            };
            return format!("the test process died of signal {signal}, {name}");
        }
    }
    match status.code() {
        Some(code) => format!("the test process exited with code {code} (exit() in the test?)"),
        None => "the test process died".to_string(),
    }
}
