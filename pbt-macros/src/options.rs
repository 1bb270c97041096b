//! The options of `#[property_test(…)]`: `cases = N`, `seed = N`,
//! `timeout_ms = N`, `runner = path` (or `runner = path(args…)`),
//! `shrink = "…"`, `mutation = "…"`, `config = EXPR`,
//! `examples = [(…), …]` and `isolated` (or `isolated = true | false`).

use pbt_stage::errors::{written, Errors};
use pbt_stage::suggest::did_you_mean;
use proc_macro2::{Literal, Span, TokenStream};
use quote::{quote, quote_spanned, ToTokens};
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::{Expr, ExprLit, ExprPath, Lit, Meta, Token};

/// The valid option names.
const VALID: [&str; 9] = [
    "cases",
    "seed",
    "timeout_ms",
    "runner",
    "shrink",
    "mutation",
    "config",
    "examples",
    "isolated",
];

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

/// The built-in runners `runner = name` may name without a path, and the
/// arguments each takes after `(&prop, config)` (as written in messages).
const RUNNERS: [(&str, &[&str]); 7] = [
    ("generational", &[]),
    ("integrated", &[]),
    ("parallel", &[]),
    ("combinatorial", &[]),
    ("fuzz", &[]),
    ("targeted", &[]),
    ("generalized", &["state", "update"]),
];

/// The options given; `None` for those left at their default.
#[derive(Default)]
pub struct Options {
    pub cases: Option<Int>,
    pub seed: Option<Int>,
    pub timeout_ms: Option<Int>,
    pub runner: Option<Runner>,
    pub shrink: Option<syn::LitStr>,
    pub mutation: Option<syn::LitStr>,
    /// `config = EXPR`: the `Config` the other options start from.
    pub config: Option<Expr>,
    /// `examples = [e, …]`: the explicit examples, each a tuple of one value
    /// per parameter (or the value itself for a one-parameter function).
    pub examples: Option<syn::ExprArray>,
    /// `isolated` or `isolated = true | false`: run in child processes.
    pub isolated: Option<syn::LitBool>,
}

/// `runner = path` or `runner = path(args…)`: the function is called as
/// `path(&prop, config, args…)`.
pub struct Runner {
    pub path: ExprPath,
    pub args: Vec<Expr>,
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
            "runner" | "shrink" | "mutation" | "config" | "examples" => None,
            _ => {
                let written = written(path);
                let message = format!(
                    "unknown option `{written}`{}\nthe options are {}",
                    did_you_mean(&written, VALID),
                    listed(VALID)
                );
                return Err(syn::Error::new_spanned(path, message));
            }
        };
        let Meta::NameValue(option) = meta else {
            let expected = match (int_slot, name.as_str()) {
                (Some(_), _) => "an integer literal",
                (None, "shrink") => "\"external\", \"integrated\" or \"both\"",
                (None, "mutation") => "\"choices\", \"values\" or \"both\"",
                (None, "config") => "an expression of type `pbt::runners::Config`",
                (None, "examples") => "a list of examples, as in `examples = [(0, vec![])]`",
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
            None if name == "config" => self.config.replace(option.value.clone()).is_none(),
            None if name == "examples" => {
                let value = examples(&option.value)?;
                self.examples.replace(value).is_none()
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
        let mut config = match &self.config {
            // Typed where the user wrote it, so a mismatch points there.
            Some(base) => quote_spanned!(base.span()=> {
                let config: ::pbt::__private::Config = #base;
                config
            }),
            None => quote!(<::pbt::__private::Config as ::core::default::Default>::default()),
        };
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

    /// The call of the runner on `prop` and `config`, `generational` unless
    /// given. A built-in runner may be named without its path
    /// (`runner = parallel`); arguments follow the property and the config.
    pub fn run(&self, prop: &TokenStream, config: &TokenStream) -> TokenStream {
        let Some(Runner { path, args }) = &self.runner else {
            return quote!(::pbt::__private::generational(&#prop, #config));
        };
        let function = match path.path.get_ident() {
            Some(name) if RUNNERS.iter().any(|(r, _)| name == r) => {
                quote!(::pbt::runners::#name)
            }
            _ => path.to_token_stream(),
        };
        quote!(#function(&#prop, #config #(, #args)*))
    }
}

/// Names as a message lists them: `` `a`, `b`, `c` ``.
fn listed(names: impl IntoIterator<Item = impl std::fmt::Display>) -> String {
    names
        .into_iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
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
            let mut message = format!(
                "expected `{name} = {}`, {} or `{last}`",
                rest[0],
                listed(&rest[1..])
            );
            if let Expr::Lit(ExprLit {
                lit: Lit::Str(s), ..
            }) = other
            {
                let close =
                    pbt_stage::suggest::closest(&s.value(), choices.iter().map(|(w, _)| *w));
                if let Some(best) = close.first() {
                    message = format!(
                        "unknown {name} \"{}\"; did you mean `{name} = \"{best}\"`?\n{message}",
                        s.value()
                    );
                }
            }
            Err(syn::Error::new(other.span(), message))
        }
    }
}

/// The value of `runner = …`: a path to a function, or a call of one with
/// the arguments that follow the property and the config.
fn runner(value: &Expr) -> syn::Result<Runner> {
    let (path, args) = match value {
        Expr::Path(path) if path.attrs.is_empty() => (path.clone(), Vec::new()),
        Expr::Call(call) => match &*call.func {
            Expr::Path(path) if path.attrs.is_empty() => {
                (path.clone(), call.args.iter().cloned().collect())
            }
            _ => return Err(not_a_runner(value)),
        },
        _ => return Err(not_a_runner(value)),
    };
    let segments: Vec<String> = path
        .path
        .segments
        .iter()
        .map(|s| s.ident.to_string())
        .collect();
    let name = match segments.as_slice() {
        [name] => name,
        [pbt, runners, name] if pbt == "pbt" && runners == "runners" => name,
        _ => return Ok(Runner { path, args }),
    };
    let names = RUNNERS.iter().map(|(r, _)| *r);
    let Some((_, extra)) = RUNNERS.iter().find(|(r, _)| r == name) else {
        let hint = did_you_mean(name, names.clone());
        if hint.is_empty() && segments.len() == 1 {
            return Ok(Runner { path, args }); // the user's own runner function
        }
        let own = if segments.len() == 1 {
            format!(" (for a function of your own named `{name}`, write `runner = self::{name}`)")
        } else {
            String::new()
        };
        let message = format!(
            "unknown runner `{name}`{hint}\nthe built-in runners are {}; any other is a path to a function `(&P, Config) -> Report`{own}",
            listed(names)
        );
        return Err(syn::Error::new(path.span(), message));
    };
    if args.len() != extra.len() {
        let usage = if extra.is_empty() {
            format!("`runner = {name}`")
        } else {
            format!("`runner = {name}({})`", extra.join(", "))
        };
        let takes = match extra.len() {
            0 => "no arguments".to_string(),
            n => format!("{n} arguments after the property and the config"),
        };
        let message = format!(
            "the `{name}` runner takes {takes}: write {usage}{}",
            if *name == "generalized" {
                ", e.g. `runner = generalized(HashSet::new(), |seen: &mut HashSet<u8>, x: &u8| seen.insert(*x))` with `observe(x)` in the check"
            } else {
                ""
            }
        );
        return Err(syn::Error::new(value.span(), message));
    }
    Ok(Runner { path, args })
}

fn not_a_runner(value: &Expr) -> syn::Error {
    syn::Error::new(
        value.span(),
        "expected a path to a runner function for `runner`, as in `runner = pbt::runners::generational` or `runner = generalized(state, update)`",
    )
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

/// The value of `examples = […]`: an array literal.
fn examples(value: &Expr) -> syn::Result<syn::ExprArray> {
    match value {
        Expr::Array(array) => Ok(array.clone()),
        _ => Err(syn::Error::new(
            value.span(),
            "expected a list of examples for `examples`, each a tuple with one value per parameter: `examples = [(0, vec![]), (3, vec![1])]`",
        )),
    }
}
