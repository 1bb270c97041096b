//! The integrated-shrinking runner (*Programmable Property-Based Testing* §2.2, Fig. 4; Hypothesis,
//! Hedgehog, falsify).
//!
//! ```text
//! loop: input ← generate(case)       (as the generational runner)
//!       fail → shrink the *choices* that generated the input, regenerating
//!              every candidate through the property's own generators
//! ```
//!
//! Generator invariants hold by construction during shrinking; the price is
//! that the result is only as small as the generators can express
//! (*Programmable Property-Based Testing* §6.4 compares both). `Shrinker::Both` runs the external
//! shrinker on the integrated result as well.

use crate::config::{Config, Shrinker};
use crate::report::Report;
use pbt_core::Property;

/// Run `prop` like [`crate::generational`], but shrink a counterexample
/// through its choice sequence ([`Shrinker::Integrated`], or
/// [`Shrinker::Both`] when the configuration asks for both).
///
/// ```
/// use pbt_core::property::{Check, Forall, Prop};
/// use pbt_runners::{integrated, Config, Regressions};
/// let prop = Prop::new(Forall::new("x", "u32", Check::new(|&(x, ()): &(u32, ())| x < 1000)));
/// let report = integrated(&prop, Config::default().seed(1).regressions(Regressions::Off));
/// let failure = report.failure.unwrap();
/// assert_eq!(failure.shrinker, Some(pbt_runners::Shrinker::Integrated));
/// assert!(failure.counterexample[0].value.parse::<u32>().unwrap() >= 1000);
/// ```
pub fn integrated<P: Property>(prop: &P, config: Config) -> Report {
    let config = match config.shrinker {
        Shrinker::Both => config,
        _ => config.shrinker(Shrinker::Integrated),
    };
    crate::generational::run(prop, config, "integrated")
}
