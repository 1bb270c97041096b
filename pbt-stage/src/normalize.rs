//! Rewriting the DSL's own syntax into Rust expression syntax.
//!
//! `one_of[…]`, `frequency[…]` and `ensure cond;` are not Rust expressions,
//! so neither `syn` nor rustc's attribute parser accepts them. [`normalize`]
//! turns them into the macro-call forms `one_of![…]`, `frequency![…]` and
//! `ensure!(cond);`, which are, and which the DSL parser also reads. Spans are
//! kept, so errors still point at what the user wrote.

use proc_macro2::{Delimiter, Group, Punct, Spacing, TokenStream, TokenTree};

/// The same tokens with the DSL's bracket and `ensure` forms rewritten.
///
/// ```
/// let t: proc_macro2::TokenStream = "one_of[int(0..3), { let x = bool(); ensure x; x }]".parse().unwrap();
/// let n = pbt_stage::normalize(t).to_string();
/// assert!(n.starts_with("one_of ! ["), "{n}");
/// assert!(n.contains("ensure ! (x)"), "{n}");
/// ```
pub fn normalize(tokens: TokenStream) -> TokenStream {
    let mut out = Vec::new();
    let mut iter = tokens.into_iter().peekable();
    while let Some(tree) = iter.next() {
        match tree {
            TokenTree::Ident(ident)
                if bracket_form(&ident.to_string())
                    && matches!(iter.peek(), Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Bracket) =>
            {
                let mut bang = Punct::new('!', Spacing::Alone);
                bang.set_span(ident.span());
                out.push(TokenTree::Ident(ident));
                out.push(TokenTree::Punct(bang));
            }
            TokenTree::Group(group) => {
                let inner = if group.delimiter() == Delimiter::Brace {
                    ensures(normalize(group.stream()))
                } else {
                    normalize(group.stream())
                };
                let mut g = Group::new(group.delimiter(), inner);
                g.set_span(group.span());
                out.push(TokenTree::Group(g));
            }
            other => out.push(other),
        }
    }
    out.into_iter().collect()
}

/// The DSL forms in `tokens` written without their `!` (`one_of[…]`,
/// `frequency[…]`, `ensure cond;`): the names [`normalize`] rewrites. A
/// parameter attribute must spell them as macros (`one_of![…]`,
/// `ensure!(cond);`), because rustc parses its value as a Rust expression
/// before `#[property_test]` sees it.
///
/// ```
/// let t: proc_macro2::TokenStream = "one_of[int(0..3), { let x = bool(); ensure x; x }]".parse().unwrap();
/// let names: Vec<String> = pbt_stage::without_bang(t).iter().map(|i| i.to_string()).collect();
/// assert_eq!(names, ["one_of", "ensure"]);
/// ```
pub fn without_bang(tokens: TokenStream) -> Vec<proc_macro2::Ident> {
    let mut found = Vec::new();
    scan(tokens, false, &mut found);
    found
}

fn scan(tokens: TokenStream, in_block: bool, found: &mut Vec<proc_macro2::Ident>) {
    let mut at_start = in_block;
    let mut iter = tokens.into_iter().peekable();
    while let Some(tree) = iter.next() {
        let next_is = |c: char, t: Option<&TokenTree>| matches!(t, Some(TokenTree::Punct(p)) if p.as_char() == c);
        match &tree {
            TokenTree::Ident(ident)
                if bracket_form(&ident.to_string())
                    && matches!(iter.peek(), Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Bracket) =>
            {
                found.push(ident.clone());
            }
            TokenTree::Ident(ident)
                if ident == "ensure" && at_start && !next_is('!', iter.peek()) =>
            {
                found.push(ident.clone());
            }
            TokenTree::Group(group) => {
                scan(group.stream(), group.delimiter() == Delimiter::Brace, found);
            }
            _ => {}
        }
        at_start = in_block && next_is(';', Some(&tree));
    }
}

/// Whether `name[…]` is one of the DSL's bracket forms, or a near miss of
/// one (rewritten too, so that the parser can say "did you mean").
fn bracket_form(name: &str) -> bool {
    crate::forms::is_bracketed(name)
        || !crate::suggest::closest(name, crate::forms::bracketed()).is_empty()
}

/// In a block's statements, `ensure cond;` becomes `ensure!(cond);`.
fn ensures(tokens: TokenStream) -> TokenStream {
    let mut out: Vec<TokenTree> = Vec::new();
    let mut at_start = true;
    let mut iter = tokens.into_iter().peekable();
    while let Some(tree) = iter.next() {
        let is_ensure = matches!(&tree, TokenTree::Ident(i) if i == "ensure")
            && at_start
            && !matches!(iter.peek(), Some(TokenTree::Punct(p)) if p.as_char() == '!');
        if is_ensure {
            let span = tree.span();
            let mut cond = Vec::new();
            while let Some(t) = iter.peek() {
                if matches!(t, TokenTree::Punct(p) if p.as_char() == ';') {
                    break;
                }
                cond.extend(iter.next());
            }
            let mut bang = Punct::new('!', Spacing::Alone);
            bang.set_span(span);
            let mut args = Group::new(Delimiter::Parenthesis, cond.into_iter().collect());
            args.set_span(span);
            out.extend([tree, TokenTree::Punct(bang), TokenTree::Group(args)]);
            at_start = false;
            continue;
        }
        at_start = matches!(&tree, TokenTree::Punct(p) if p.as_char() == ';');
        out.push(tree);
    }
    out.into_iter().collect()
}
