//! Collecting every mistake of the input before reporting (serde's `Ctxt`):
//! a user sees all their errors in one build, each on its own tokens.

use proc_macro2::Span;
use quote::ToTokens;
use std::fmt::Display;

/// The errors found so far, shared by pbt-macros and pbt-derive.
///
/// ```
/// use pbt_stage::errors::Errors;
/// use proc_macro2::Span;
///
/// let mut errors = Errors::default();
/// errors.at(Span::call_site(), "unknown option `cases_`");
/// let parsed: Option<u32> = errors.ok(Err(syn::Error::new(Span::call_site(), "not a number")));
/// assert!(parsed.is_none());
/// let all = errors.finish(()).unwrap_err();
/// assert_eq!(all.into_iter().count(), 2);
/// ```
#[derive(Default)]
pub struct Errors(Option<syn::Error>);

impl Errors {
    /// Record `error`.
    pub fn push(&mut self, error: syn::Error) {
        match &mut self.0 {
            Some(all) => all.combine(error),
            None => self.0 = Some(error),
        }
    }

    /// Record an error spanned on `span`.
    pub fn at(&mut self, span: Span, message: impl Display) {
        self.push(syn::Error::new(span, message));
    }

    /// The value of `result`, recording its error.
    pub fn ok<T>(&mut self, result: syn::Result<T>) -> Option<T> {
        result.map_err(|e| self.push(e)).ok()
    }

    /// Every error recorded, and `last`.
    pub fn fail(self, last: syn::Error) -> syn::Error {
        match self.0 {
            Some(mut all) => {
                all.combine(last);
                all
            }
            None => last,
        }
    }

    /// `Ok(value)` when nothing was recorded, else every error.
    pub fn finish<T>(self, value: T) -> syn::Result<T> {
        match self.0 {
            Some(all) => Err(all),
            None => Ok(value),
        }
    }
}

/// A path as the user wrote it, for messages: `a::b`, not `a :: b`.
pub fn written(path: &syn::Path) -> String {
    path.to_token_stream().to_string().replace(' ', "")
}
