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
