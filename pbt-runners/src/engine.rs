//! Fuzz engines: any property as a libFuzzer or AFL++ target, and the
//! engine's crash files as saved cases of the property.
//!
//! A [`FuzzTarget`] reads an engine's input through the compact byte source
//! [`Bytes`] (see its docs for the format): the first draw is the size, in
//! `0..=max_size`, and the property's generators draw the rest. So the
//! empty input is the simplest case (size 0, every choice 0), truncating an
//! input simplifies it, and every input the engine tries is one the
//! property's generators could have produced.
//!
//! - [`FuzzTarget::fuzz_one`] is the body of the engine's target: a
//!   failure becomes a panic (which libFuzzer and afl.rs record as a
//!   crash), a discard is [`Interest::Reject`] (not added to the corpus);
//!   `pbt::fuzz_target!` writes the whole target;
//! - [`FuzzTarget::import`] turns an engine input into a saved case (a choice
//!   sequence at a size, a `cx` line of the regressions file), and
//!   [`FuzzTarget::import_crashes`] appends every crash file of a directory
//!   to the property's regressions file, where every runner replays it first
//!   and pbt's own shrinkers shrink it;
//! - [`FuzzTarget::export`] and [`FuzzTarget::export_corpus`] go the other
//!   way: pbt's saved cases seed the engine's corpus.
//!
//! ```
//! use pbt_core::{gen::int, property::{Check, Forall, Prop}};
//! use pbt_runners::components::Tested;
//! use pbt_runners::engine::FuzzTarget;
//! let prop = Prop::new(Forall::new("x", "u8", Check::new(|&(x, ()): &(u8, ())| x < 200))
//!     .gen(|_: &()| int(0..=255u8)));
//! let target = FuzzTarget::new(&prop);
//! assert_eq!(target.test(&[]), Tested::Passed); // size 0, x = 0
//! let Tested::Failed(fault) = target.test(&[0, 250]) else { panic!() }; // x = 250
//! assert_eq!(target.crash(&[0, 250], fault).counterexample[0].value, "250");
//! ```

use crate::components::regressions::RegressionsFile;
use crate::components::{catch_quietly, DynProperty, Fault, Found, NotGenerated, Plan, Tested};
use crate::config::Config;
use pbt_core::choices::Tracer;
use pbt_core::overrun::{Overrun, DEFAULT_MAX_DRAWS};
use pbt_core::source::{mix, Bytes};
use pbt_core::{Binding, Discarded, Property, Source};
use std::ffi::OsString;
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The environment variable naming a regressions file that
/// [`FuzzTarget::fuzz_one`] appends each failure to before it crashes.
pub const REGRESSIONS_ENV: &str = "PBT_FUZZ_REGRESSIONS";

/// The largest size a [`FuzzTarget`] draws unless told otherwise: the
/// default configuration's `max_size`.
pub const DEFAULT_MAX_SIZE: usize = 100;

/// A property as a fuzz engine's target: decodes the engine's bytes into
/// the property's inputs at a size up to `max_size` ([`DEFAULT_MAX_SIZE`]
/// unless set).
///
/// ```
/// use pbt_core::{gen::int, property::{Check, Forall, Prop}};
/// use pbt_runners::components::Found;
/// use pbt_runners::engine::FuzzTarget;
/// let prop = Prop::new(Forall::new("x", "u8", Check::new(|_: &(u8, ())| true))
///     .gen(|_: &()| int(0..=255u8)));
/// // The size draw reads 4 bits for 0..=10 (0xb wraps to 0); the u8 draw
/// // is a wide one, so it starts at the next byte.
/// let target = FuzzTarget::new(&prop).max_size(10);
/// assert_eq!(target.import(&[0x0b, 7]), Found::Choices { choices: vec![7], size: 0 });
/// ```
#[derive(Debug)]
pub struct FuzzTarget<'p, P> {
    prop: &'p P,
    max_size: usize,
}

/// Whether the engine should keep an input that did not fail (libFuzzer's
/// `Corpus`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Interest {
    /// A tested input: the engine may add it to its corpus.
    Keep,
    /// A discarded input: the engine should not add it to its corpus.
    Reject,
}

/// A failure found from an engine's input, as the engine reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Crash {
    /// The input as a saved case of the property (a `cx` line).
    pub found: Found,
    /// Why it failed.
    pub reason: String,
    /// The inputs, printed (empty when a generator failed).
    pub counterexample: Vec<Binding>,
}

impl fmt::Display for Crash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "pbt: the property failed on this engine input")?;
        for b in &self.counterexample {
            writeln!(f, "  {}: {} = {}", b.name, b.ty, b.value)?;
        }
        writeln!(f, "reason: {}", self.reason)?;
        writeln!(
            f,
            "to replay and shrink it under cargo test, add this line to the property's \
             regressions file (or use FuzzTarget::import_crashes on the crash file):"
        )?;
        write!(
            f,
            "  {}",
            crate::components::regressions::encode(&self.found)
        )
    }
}

/// Why a saved case cannot become engine bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unexportable {
    /// It was mutated by value: no choice sequence draws it.
    MutatedByValue,
    /// Its size is above the target's `max_size`, so the size draw cannot
    /// say it.
    SizeAbove {
        /// The case's size.
        size: usize,
        /// The target's largest size.
        max_size: usize,
    },
    /// Generating it failed (a discard, or a generator's fault).
    NotGenerated(String),
}

impl fmt::Display for Unexportable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unexportable::MutatedByValue => {
                write!(f, "an input mutated by value has no choice sequence")
            }
            Unexportable::SizeAbove { size, max_size } => write!(
                f,
                "its size {size} is above the target's max_size {max_size}"
            ),
            Unexportable::NotGenerated(why) => write!(f, "it does not generate: {why}"),
        }
    }
}

impl<'p, P: Property> FuzzTarget<'p, P> {
    /// `prop` as a target, at the default configuration's `max_size`.
    pub fn new(prop: &'p P) -> Self {
        FuzzTarget {
            prop,
            max_size: DEFAULT_MAX_SIZE,
        }
    }

    /// The largest size the size draw yields.
    pub fn max_size(self, max_size: usize) -> Self {
        FuzzTarget { max_size, ..self }
    }

    /// Decode `data` into inputs and run the check, panics caught. A
    /// discard (a precondition, a filter or the check; or the bytes ran out
    /// while a generator retried) is uninteresting to the engine; a failure
    /// is the check's or a generator's [`Fault`], which [`FuzzTarget::crash`]
    /// turns into the engine's crash report.
    ///
    /// ```
    /// use pbt_core::{gen::int, property::{Check, Forall, Implies, Prop}};
    /// use pbt_runners::components::Tested;
    /// use pbt_runners::engine::FuzzTarget;
    /// let prop = Prop::new(Forall::new("x", "u8",
    ///     Implies::new(|&(x, ()): &(u8, ())| x % 2 == 0, Check::new(|_: &(u8, ())| true)))
    ///     .gen(|_: &()| int(0..=255u8)));
    /// assert_eq!(FuzzTarget::new(&prop).test(&[0, 2]), Tested::Passed);
    /// assert!(matches!(FuzzTarget::new(&prop).test(&[0, 3]), Tested::Discarded(_)));
    /// ```
    pub fn test(&self, data: &[u8]) -> Tested {
        let mut src = Bytes::new(data);
        let mut generated = false;
        let result = catch_quietly(|| {
            let size = src.draw(self.max_size as u64) as usize;
            let inputs = self.prop.generate(&mut src, size)?;
            generated = true;
            Ok(self.prop.run(&inputs))
        });
        match result {
            Ok(Ok(outcome)) => Tested::from(outcome),
            Ok(Err(why)) => Tested::Discarded(why),
            Err(panic) if matches!(panic.overrun, Some(Overrun::Replay { .. })) => {
                Tested::Discarded(Discarded::Rejected)
            }
            Err(panic) if !generated => Tested::Failed(Fault::Generator(panic.generator_reason())),
            Err(panic) => Tested::Failed(Fault::Check(format!("panicked: {}", panic.message))),
        }
    }

    /// The body of an engine's target: test `data`; on a failure, append it
    /// to the file [`REGRESSIONS_ENV`] names (when set) and panic with the
    /// [`Crash`] report, which the engine records as a crash.
    ///
    /// ```
    /// use pbt_core::{gen::int, property::{Check, Forall, Prop}};
    /// use pbt_runners::engine::{FuzzTarget, Interest};
    /// let prop = Prop::new(Forall::new("x", "u8", Check::new(|&(x, ()): &(u8, ())| x < 200))
    ///     .gen(|_: &()| int(0..=255u8)));
    /// let target = FuzzTarget::new(&prop);
    /// assert_eq!(target.fuzz_one(&[0, 7]), Interest::Keep);
    /// assert!(std::panic::catch_unwind(|| target.fuzz_one(&[0, 201])).is_err());
    /// ```
    pub fn fuzz_one(&self, data: &[u8]) -> Interest {
        match self.test(data) {
            Tested::Passed => Interest::Keep,
            Tested::Discarded(_) => Interest::Reject,
            Tested::Failed(fault) => {
                let crash = self.crash(data, fault);
                if let Some(path) = std::env::var_os(REGRESSIONS_ENV) {
                    let file = RegressionsFile::at(PathBuf::from(path));
                    // Without a test's key: every test of the file replays it.
                    let note = format!("fuzz: {}", crash.reason);
                    if let Err(e) = file.save(&crash.found, "", &note) {
                        eprintln!(
                            "pbt: cannot save the crash to {}: {e}",
                            file.path().display()
                        );
                    }
                }
                panic!("{crash}")
            }
        }
    }

    /// `data` as a saved case: the size and the choices the property's
    /// generators draw from it. Replayed, the saved case generates exactly
    /// the inputs `data` does.
    ///
    /// ```
    /// use pbt_core::property::{Check, Forall, Prop};
    /// use pbt_runners::components::Found;
    /// use pbt_runners::engine::FuzzTarget;
    /// let prop = Prop::new(Forall::new("x", "u16", Check::new(|_: &(u16, ())| true)));
    /// let found = FuzzTarget::new(&prop).import(&[3]);
    /// assert!(matches!(found, Found::Choices { size: 3, .. }));
    /// ```
    pub fn import(&self, data: &[u8]) -> Found {
        let mut tracer = Tracer::new(Bytes::new(data));
        let size = tracer.draw(self.max_size as u64) as usize;
        // A generator fault is found again on replay; here only the choices
        // drawn up to it matter.
        let generated = catch_quietly(|| self.prop.generate(&mut tracer, size));
        // A check that draws (a `Data`) goes on with the sequence: its
        // draws end the choices, so the saved case draws them again.
        if let Ok(Ok(inputs)) = &generated {
            let inputs: &dyn std::any::Any = inputs;
            let prop: &dyn DynProperty = self.prop;
            if let Some(tail) = prop.run_for_draws(inputs) {
                tracer.append(&tail);
            }
        }
        let (mut choices, _) = tracer.into_trace();
        choices.remove(0);
        Found::Choices { choices, size }
    }

    /// The engine bytes that decode to `found`'s inputs (a corpus entry).
    ///
    /// ```
    /// use pbt_core::property::{Check, Forall, Prop};
    /// use pbt_runners::components::{CaseSeed, Found};
    /// use pbt_runners::engine::FuzzTarget;
    /// let prop = Prop::new(Forall::new("xs", "Vec<u32>", Check::new(|_: &(Vec<u32>, ())| true)));
    /// let target = FuzzTarget::new(&prop);
    /// let case = Found::Case(CaseSeed { seed: 42, size: 30 });
    /// let bytes = target.export(&case).unwrap();
    /// let again = target.import(&bytes);
    /// assert_eq!(target.export(&again).unwrap(), bytes);
    /// ```
    pub fn export(&self, found: &Found) -> Result<Vec<u8>, Unexportable> {
        if found.mutations() > 0 {
            return Err(Unexportable::MutatedByValue);
        }
        let size = found.size();
        if size > self.max_size {
            return Err(Unexportable::SizeAbove {
                size,
                max_size: self.max_size,
            });
        }
        let prop: &dyn DynProperty = self.prop;
        let traced = match prop.trace_unwatched(found, DEFAULT_MAX_DRAWS) {
            Ok(traced) => traced,
            Err(NotGenerated::Discarded(why)) => {
                return Err(Unexportable::NotGenerated(format!("discarded ({why:?})")))
            }
            Err(NotGenerated::Failed(reason)) => return Err(Unexportable::NotGenerated(reason)),
        };
        let mut choices = vec![size as u64];
        choices.extend(traced.choices);
        let mut bounds = vec![self.max_size as u64];
        bounds.extend(traced.bounds);
        Ok(Bytes::encode(&choices, &bounds))
    }

    /// Append every file in `crashes` (a file, or a directory of crash
    /// files, such as `fuzz/artifacts/<target>` or AFL++'s
    /// `<out>/default/crashes`) to the regressions file
    /// `config` names for this property (see [`Plan`]), so that every
    /// runner replays them first and shrinks the ones that fail. Returns
    /// the imported cases, in file-name order.
    ///
    /// ```
    /// use pbt_core::{gen::int, property::{Check, Forall, Prop}};
    /// use pbt_runners::engine::FuzzTarget;
    /// use pbt_runners::{generational, Config, Regressions};
    /// let dir = std::env::temp_dir().join(format!("pbt-doc-crashes-{}", std::process::id()));
    /// std::fs::create_dir_all(&dir).unwrap();
    /// std::fs::write(dir.join("crash-1"), [0, 250]).unwrap();
    /// let prop = Prop::new(Forall::new("x", "u8", Check::new(|&(x, ()): &(u8, ())| x < 200))
    ///     .gen(|_: &()| int(0..=255u8)));
    /// let config = Config::default().ignore_env().cases(0)
    ///     .regressions(Regressions::File(dir.join("saved")));
    /// assert_eq!(FuzzTarget::new(&prop).import_crashes(&dir, &config).unwrap().len(), 1);
    /// let report = generational(&prop, config);
    /// // Replayed from the regressions file and shrunk by pbt: x = 200.
    /// assert_eq!(report.failure.unwrap().counterexample[0].value, "200");
    /// std::fs::remove_dir_all(&dir).unwrap();
    /// ```
    pub fn import_crashes(&self, crashes: &Path, config: &Config) -> io::Result<Vec<Found>> {
        let plan = Plan::new(config, &Property::structure(self.prop));
        let Some(file) = plan.regressions else {
            return Err(io::Error::other(
                "the configuration saves no regressions (Regressions::Off, or the property's \
                 source file was not found): name a file with Regressions::File",
            ));
        };
        let mut imported = Vec::new();
        for path in files_in(crashes)? {
            let data = std::fs::read(&path)?;
            let found = self.import(&data);
            let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
            let note = format!("imported from {}", name.unwrap_or_default());
            file.save(&found, &plan.test, &note)?;
            imported.push(found);
        }
        Ok(imported)
    }

    /// Write every saved case of the property's regressions file (the one
    /// `config` names) that has a choice sequence into `corpus` as an engine
    /// input named `pbt-<hash>`; returns how many were written. Cases that
    /// cannot be exported ([`Unexportable`]) are skipped.
    pub fn export_corpus(&self, config: &Config, corpus: &Path) -> io::Result<usize> {
        let plan = Plan::new(config, &Property::structure(self.prop));
        let saved = plan.saved();
        std::fs::create_dir_all(corpus)?;
        let mut written = 0;
        for found in &saved {
            if let Ok(bytes) = self.export(found) {
                let hash = bytes
                    .iter()
                    .fold(bytes.len() as u64, |h, &b| mix(h ^ u64::from(b)));
                std::fs::write(corpus.join(format!("pbt-{hash:016x}")), bytes)?;
                written += 1;
            }
        }
        Ok(written)
    }

    /// The `main` of a target binary built without an engine: test every
    /// file named in `args` (a directory stands for the files in it), or
    /// standard input when there is none; print one line per input and,
    /// for the first failure, its [`Crash`] report, then exit with status 1
    /// (status 2 when a file cannot be read).
    pub fn replay_main(&self, args: impl IntoIterator<Item = OsString>) -> ExitCode {
        let mut inputs: Vec<(String, io::Result<Vec<u8>>)> = Vec::new();
        for arg in args {
            match files_in(Path::new(&arg)) {
                Ok(files) => inputs.extend(
                    files
                        .into_iter()
                        .map(|f| (f.display().to_string(), std::fs::read(&f))),
                ),
                Err(e) => inputs.push((Path::new(&arg).display().to_string(), Err(e))),
            }
        }
        if inputs.is_empty() {
            let mut data = Vec::new();
            let read = io::Read::read_to_end(&mut io::stdin(), &mut data).map(|_| data);
            inputs.push(("<stdin>".to_string(), read));
        }
        for (name, data) in inputs {
            let data = match data {
                Ok(data) => data,
                Err(e) => {
                    eprintln!("{name}: cannot be read: {e}");
                    return ExitCode::from(2);
                }
            };
            match self.test(&data) {
                Tested::Passed => println!("{name}: passed"),
                Tested::Discarded(why) => println!("{name}: discarded ({why:?})"),
                Tested::Failed(fault) => {
                    println!("{name}: FAILED\n{}", self.crash(&data, fault));
                    return ExitCode::from(1);
                }
            }
        }
        ExitCode::SUCCESS
    }

    /// The crash report of `data`, which [`FuzzTarget::test`] found failing
    /// with `fault`: the input as a saved case, the reason, and the inputs
    /// printed (none when a generator failed).
    pub fn crash(&self, data: &[u8], fault: Fault) -> Crash {
        let reason = match fault {
            Fault::Check(r) | Fault::Generator(r) | Fault::Annotation(r) | Fault::Died(r) => r,
        };
        let found = self.import(data);
        let mut src = Bytes::new(data);
        let counterexample = catch_quietly(|| {
            let size = src.draw(self.max_size as u64) as usize;
            let inputs = self.prop.generate(&mut src, size).ok()?;
            Some(self.prop.print(&inputs))
        });
        Crash {
            found,
            reason,
            counterexample: counterexample.ok().flatten().unwrap_or_default(),
        }
    }
}

/// `path` itself when it is a file, else the files directly in it, sorted
/// by name; hidden files and the `README.txt` AFL++ writes into its crashes
/// directory are skipped.
fn files_in(path: &Path) -> io::Result<Vec<PathBuf>> {
    if path.is_file() {
        return Ok(vec![path.to_path_buf()]);
    }
    let mut files = Vec::new();
    for entry in std::fs::read_dir(path)? {
        let p = entry?.path();
        let name = p.file_name().map(|n| n.to_string_lossy().into_owned());
        let skipped = name.is_some_and(|n| n.starts_with('.') || n == "README.txt");
        if p.is_file() && !skipped {
            files.push(p);
        }
    }
    files.sort();
    Ok(files)
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_default_max_size_is_the_configurations() {
        assert_eq!(super::DEFAULT_MAX_SIZE, crate::Config::default().max_size);
    }
}
