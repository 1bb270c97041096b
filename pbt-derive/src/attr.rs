//! The `#[pbt(…)]` attributes, parsed with `impl Parse` into [`Item`]s.
//!
//! Every key parses wherever it appears; `ast` decides whether it belongs
//! there (a `weight` on a field is an error that says where it goes).

use pbt_stage::errors::Errors;
use proc_macro2::{Ident, TokenStream};
use syn::ext::IdentExt;
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::{Attribute, Expr, LitInt, LitStr, Token};

/// One `key`, `key = value` of a `#[pbt(…)]` list.
pub struct Item {
    /// The key as written (`crate` included).
    pub key: Ident,
    /// Its value.
    pub value: Value,
}

/// The value of an [`Item`], by key.
pub enum Value {
    /// `skip`, `no_shrink`.
    Flag,
    /// `crate = "…"`, `bound = "…"`.
    Str(LitStr),
    /// `weight = N`.
    Int(LitInt),
    /// `gen = DSL`: the parsed DSL and its tokens (to find the earlier
    /// fields it reads).
    Gen(Box<pbt_stage::Dsl>, TokenStream),
    /// `shrink = f`.
    Expr(Box<Expr>),
    /// A key pbt does not know; its value is skipped.
    Unknown,
}

/// Every key, and what its value looks like (for messages).
pub const KEYS: &[(&str, &str)] = &[
    ("crate", "crate = \"path\""),
    ("bound", "bound = \"T: Trait, …\""),
    ("no_shrink", "no_shrink"),
    ("weight", "weight = N"),
    ("skip", "skip"),
    ("with", "with = GENERATOR"),
    ("gen", "gen = GENERATOR"),
    ("shrink", "shrink = path"),
];

impl Item {
    /// The key as a string (`crate` for `r#crate` too).
    pub fn name(&self) -> String {
        self.key.unraw().to_string()
    }
}

impl Parse for Item {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let key = Ident::parse_any(input)?;
        let name = key.unraw().to_string();
        let value = match name.as_str() {
            "skip" | "no_shrink" => {
                if input.peek(Token![=]) || input.peek(syn::token::Paren) {
                    return Err(syn::Error::new(
                        key.span(),
                        format!("`{name}` takes no value: write `#[pbt({name})]`"),
                    ));
                }
                Value::Flag
            }
            "crate" | "bound" => {
                equals(input, &key)?;
                Value::Str(input.parse()?)
            }
            "weight" => {
                equals(input, &key)?;
                Value::Int(input.parse()?)
            }
            "with" | "gen" => {
                equals(input, &key)?;
                let begin = input.cursor();
                let dsl: pbt_stage::Dsl = input.parse()?;
                let mut tokens = TokenStream::new();
                let mut at = begin;
                while at != input.cursor() {
                    let Some((tree, next)) = at.token_tree() else {
                        break;
                    };
                    tokens.extend([tree]);
                    at = next;
                }
                Value::Gen(Box::new(dsl), tokens)
            }
            "shrink" => {
                equals(input, &key)?;
                Value::Expr(Box::new(input.parse()?))
            }
            _ => {
                while !input.is_empty() && !input.peek(Token![,]) {
                    input.parse::<proc_macro2::TokenTree>()?;
                }
                Value::Unknown
            }
        };
        Ok(Item { key, value })
    }
}

/// `=` after `key`, or an error on the key showing the expected form.
fn equals(input: ParseStream, key: &Ident) -> syn::Result<()> {
    if input.peek(Token![=]) {
        input.parse::<Token![=]>()?;
        return Ok(());
    }
    let name = key.unraw().to_string();
    let form = KEYS
        .iter()
        .find(|(k, _)| *k == name)
        .map_or(name.as_str(), |(_, form)| form);
    Err(syn::Error::new(
        key.span(),
        format!("expected `=` after `{name}`: `#[pbt({form})]`"),
    ))
}

/// The items of every `#[pbt(…)]` among `attrs`; malformed lists are
/// recorded in `errors` and skipped.
pub fn items(attrs: &[Attribute], errors: &mut Errors) -> Vec<Item> {
    let mut out = Vec::new();
    for attr in attrs.iter().filter(|a| a.path().is_ident("pbt")) {
        let list = match &attr.meta {
            syn::Meta::List(list) => list,
            other => {
                errors.push(syn::Error::new_spanned(
                    other,
                    "expected a list: `#[pbt(key = value, …)]`",
                ));
                continue;
            }
        };
        let tokens = pbt_stage::normalize(list.tokens.clone());
        let parsed =
            syn::parse::Parser::parse2(Punctuated::<Item, Token![,]>::parse_terminated, tokens);
        if let Some(items) = errors.ok(parsed) {
            out.extend(items);
        }
    }
    out
}
