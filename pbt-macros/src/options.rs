//! The options of `#[property_test(…)]`: `cases = N`, `seed = N`,
//! `timeout_ms = N`, `runner = path`, `shrink = "…"`, `mutation = "…"` and
//! `isolated` (or `isolated = true | false`).

use crate::errors::{written, Errors};
use proc_macro2::{Literal, Span, TokenStream};
use quote::{quote, ToTokens};
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::{Expr, ExprLit, ExprPath, Lit, Meta, Token};

/// The valid option names, as listed in error messages.
const VALID: &str = "`cases`, `seed`, `timeout_ms`, `runner`, `shrink`, `mutation`, `isolated`";

/// The shrinkers `shrink = "…"` may name.
const SHRINKERS: [(&str, &str); 3] = [
    ("external", "External"),
    ("integrated", "Integrated"),
    ("both", "Both"),
];

/// The mutations `mutation = "…"` may name (for the feedback runners).
const MUTATIONS: [(&str, &str); 3] = [
    ("choices", "Choices"),
    ("values", "Values"),
    ("both", "Both"),
];

/// The built-in runners `runner = name` may name without a path.
const RUNNERS: [&str; 6] = [
    "generational",
    "integrated",
    "parallel",
    "combinatorial",
    "fuzz",
    "targeted",
];

/// The options given; `None` for those left at their default.
#[derive(Default)]
pub struct Options {
    pub cases: Option<Int>,
    pub seed: Option<Int>,
    pub timeout_ms: Option<Int>,
    pub runner: Option<ExprPath>,
    pub shrink: Option<syn::LitStr>,
    pub mutation: Option<syn::LitStr>,
    pub isolated: Option<syn::LitBool>,
}

/// An integer option's value, with the span of its literal.
pub struct Int {
    pub value: u64,
    pub span: Span,
}

impl ToTokens for Int {
    /// Unsuffixed, so `cases = 1_000u32` still feeds a `u64` parameter.
    fn to_tokens(&self, tokens: &mut TokenStream) {
        let mut lit = Literal::u64_unsuffixed(self.value);
        lit.set_span(self.span);
        lit.to_tokens(tokens);
    }
}

impl Parse for Options {
    /// Every option is read; all mistakes are reported together.
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let metas = Punctuated::<Meta, Token![,]>::parse_terminated(input)?;
        let mut options = Options::default();
        let mut errors = Errors::default();
        for meta in &metas {
            errors.ok(options.set(meta));
        }
        errors.finish(options)
    }
}

impl Options {
    /// Record one `name = value` option.
    fn set(&mut self, meta: &Meta) -> syn::Result<()> {
        let path = meta.path();
        let name = path
            .get_ident()
            .map(ToString::to_string)
            .unwrap_or_default();
        if name == "isolated" {
            let on = isolated(meta)?;
            if self.isolated.replace(on).is_some() {
                let message = "duplicate option `isolated`: it may be given once";
                return Err(syn::Error::new_spanned(path, message));
            }
            return Ok(());
        }
        let int_slot = match name.as_str() {
            "cases" => Some(&mut self.cases),
            "seed" => Some(&mut self.seed),
            "timeout_ms" => Some(&mut self.timeout_ms),
            "runner" | "shrink" | "mutation" => None,
            _ => {
                let message = format!(
                    "unknown option `{}`; expected one of {VALID}",
                    written(path)
                );
                return Err(syn::Error::new_spanned(path, message));
            }
        };
        let Meta::NameValue(option) = meta else {
            let expected = match (int_slot, name.as_str()) {
                (Some(_), _) => "an integer literal",
                (None, "shrink") => "\"external\", \"integrated\" or \"both\"",
                (None, "mutation") => "\"choices\", \"values\" or \"both\"",
                (None, _) => "a path to a runner function",
            };
            let message = format!("expected `{name} = …` with {expected}");
            return Err(syn::Error::new_spanned(meta, message));
        };
        let first = match int_slot {
            Some(slot) => slot.replace(int(&name, &option.value)?).is_none(),
            None if name == "shrink" => {
                let value = one_of("shrink", &SHRINKERS, &option.value)?;
                self.shrink.replace(value).is_none()
            }
            None if name == "mutation" => {
                let value = one_of("mutation", &MUTATIONS, &option.value)?;
                self.mutation.replace(value).is_none()
            }
            None => self.runner.replace(runner(&option.value)?).is_none(),
        };
        if !first {
            let message = format!("duplicate option `{name}`: it may be given once");
            return Err(syn::Error::new_spanned(path, message));
        }
        Ok(())
    }

    /// The `Config` these options describe. Only the literals carry the
    /// user's spans, so lints about the emitted calls do not land on them.
    pub fn config(&self) -> TokenStream {
        let mut config = quote!(::pbt::__private::Config::default());
        if let Some(n) = &self.cases {
            config = quote!(#config.cases(#n));
        }
        if let Some(n) = &self.seed {
            config = quote!(#config.seed(#n));
        }
        if let Some(n) = &self.timeout_ms {
            config = quote!(#config.timeout(::pbt::__private::Duration::from_millis(#n)));
        }
        if let Some(name) = &self.shrink {
            let variant = variant(&SHRINKERS, name);
            config = quote!(#config.shrinker(::pbt::__private::Shrinker::#variant));
        }
        if let Some(name) = &self.mutation {
            let variant = variant(&MUTATIONS, name);
            config = quote!(#config.mutation(::pbt::__private::Mutation::#variant));
        }
        if let Some(on) = &self.isolated {
            config = quote!(#config.isolated(#on));
        }
        config
    }

    /// The runner to call, `generational` unless given. A built-in runner
    /// may be named without its path (`runner = parallel`).
    pub fn runner(&self) -> TokenStream {
        match &self.runner {
            Some(path) => match path.path.get_ident() {
                Some(name) if RUNNERS.iter().any(|r| name == r) => {
                    quote!(::pbt::runners::#name)
                }
                _ => path.to_token_stream(),
            },
            None => quote!(::pbt::__private::generational),
        }
    }
}

/// The value of an integer option.
fn int(name: &str, value: &Expr) -> syn::Result<Int> {
    let wrong = || {
        syn::Error::new(
            value.span(),
            format!("expected a non-negative integer literal for `{name}`, as in `{name} = 100`"),
        )
    };
    let Expr::Lit(ExprLit {
        lit: Lit::Int(lit), ..
    }) = value
    else {
        return Err(wrong());
    };
    if lit.base10_digits().starts_with('-') {
        return Err(wrong());
    }
    let value = lit
        .base10_parse::<u64>()
        .map_err(|_| syn::Error::new(lit.span(), format!("`{name}` must fit in a `u64`")))?;
    Ok(Int {
        value,
        span: lit.span(),
    })
}

/// The enum variant a validated `name = "…"` option names, from `choices`
/// (as written, variant).
fn variant(choices: &[(&str, &str)], name: &syn::LitStr) -> Option<proc_macro2::Ident> {
    choices
        .iter()
        .find(|(written, _)| name.value() == *written)
        .map(|(_, variant)| proc_macro2::Ident::new(variant, name.span()))
}

/// The value of `name = "…"`: one of `choices` (as written, variant).
fn one_of(name: &str, choices: &[(&str, &str)], value: &Expr) -> syn::Result<syn::LitStr> {
    match value {
        Expr::Lit(ExprLit {
            lit: Lit::Str(s), ..
        }) if choices.iter().any(|(written, _)| s.value() == *written) => Ok(s.clone()),
        other => {
            let names: Vec<String> = choices.iter().map(|(w, _)| format!("\"{w}\"")).collect();
            let (last, rest) = names.split_last().expect("choices are listed");
            let message = format!(
                "expected `{name} = {}`, {} or `{last}`",
                rest[0],
                rest[1..]
                    .iter()
                    .map(|n| format!("`{n}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            Err(syn::Error::new(other.span(), message))
        }
    }
}

/// The value of `isolated` (a flag) or `isolated = true | false`.
fn isolated(meta: &Meta) -> syn::Result<syn::LitBool> {
    let expected = "expected `isolated` or `isolated = true` (or `= false`)";
    match meta {
        Meta::Path(path) => Ok(syn::LitBool::new(true, path.span())),
        Meta::NameValue(option) => match &option.value {
            Expr::Lit(ExprLit {
                lit: Lit::Bool(on), ..
            }) => Ok(on.clone()),
            other => Err(syn::Error::new(other.span(), expected)),
        },
        Meta::List(list) => Err(syn::Error::new_spanned(list, expected)),
    }
}

/// The value of `runner = …`: a path to a function.
fn runner(value: &Expr) -> syn::Result<ExprPath> {
    match value {
        Expr::Path(path) if path.attrs.is_empty() => Ok(path.clone()),
        _ => Err(syn::Error::new(
            value.span(),
            "expected a path to a runner function for `runner`, as in `runner = pbt::runners::generational`",
        )),
    }
}
