//! `#[engine_mode]`: makes the engine generic over its mode (`crate::sim::Mode`) in the build where
//! the crate's feature `speed` applies it, and nowhere else.
//!
//! Why an attribute and not the generics written out: explore's build for speed runs two engines, one
//! for every kind of run and a plain one for the every-cell sweep (`crate::sim::Plain`), so there the
//! engine must be generic. The lab's builds, held to size budgets, run one; written generic there too,
//! the compiler inlined differently at `opt-level = "z"` and the full build grew by 1.3 KB gzipped
//! (issue 18, CHANGELOG.md). With `#[cfg_attr(feature = "speed", leaselab_macros::engine_mode)]` on
//! the struct and on every `impl Engine` block, one source compiles to the plain, non-generic
//! engine in the lab's builds and to the generic one for speed.
//!
//! Tokens in, tokens out, no parser: the items it takes are the engine's own, of two shapes only.
use proc_macro::{Delimiter, Group, Ident, Span, TokenStream, TokenTree};

/// On `struct Engine { … }`: `struct Engine<M: crate::sim::Mode = crate::sim::Dyn> { …, mode:
/// PhantomData<M> }`. On `impl Engine { … }`: `impl<M: crate::sim::Mode> Engine<M> { … }`. On
/// `impl Trait for Engine { … }` (a lock service's half of the engine's interface,
/// `crate::services::Serve`): `impl<M: crate::sim::Mode> Trait for Engine<M> { … }`.
#[proc_macro_attribute]
pub fn engine_mode(attr: TokenStream, item: TokenStream) -> TokenStream {
    if !attr.is_empty() {
        return error("engine_mode takes no arguments");
    }
    let tokens: Vec<TokenTree> = item.into_iter().collect();
    if let Some(out) = trait_impl(&tokens) {
        return out;
    }
    let keyword = tokens
        .iter()
        .position(|t| is_ident(t, "impl") || is_ident(t, "struct"));
    let Some(k) = keyword else {
        return error("engine_mode applies to `struct Engine` and `impl Engine` only");
    };
    let (Some(name), Some(TokenTree::Group(body))) = (tokens.get(k + 1), tokens.get(k + 2)) else {
        return error("engine_mode expects `Engine {` after `impl` or `struct`");
    };
    if !is_ident(name, "Engine") || body.delimiter() != Delimiter::Brace || tokens.len() != k + 3 {
        return error("engine_mode expects exactly `impl Engine { … }` or `struct Engine { … }`");
    }
    // The header is new; the body's own tokens (and so their spans, for the compiler's messages) stay.
    let mut out: TokenStream = tokens[..k].iter().cloned().collect();
    if is_ident(&tokens[k], "impl") {
        out.extend(tokens_of("impl<M: crate::sim::Mode> Engine<M>"));
        out.extend([TokenTree::Group(body.clone())]);
    } else {
        out.extend(tokens_of(
            "struct Engine<M: crate::sim::Mode = crate::sim::Dyn>",
        ));
        let mut fields = body.stream();
        let open = match fields.clone().into_iter().last() {
            None => false,
            Some(TokenTree::Punct(p)) => p.as_char() != ',',
            Some(_) => true,
        };
        if open {
            fields.extend(tokens_of(","));
        }
        fields.extend(tokens_of("mode: ::core::marker::PhantomData<M>,"));
        out.extend([TokenTree::Group(Group::new(Delimiter::Brace, fields))]);
    }
    out
}

/// `impl Trait for Engine { … }` made generic over the mode; `None` for any other shape.
fn trait_impl(tokens: &[TokenTree]) -> Option<TokenStream> {
    let k = tokens.iter().position(|t| is_ident(t, "impl"))?;
    let f = tokens.iter().position(|t| is_ident(t, "for"))?;
    let [TokenTree::Ident(name), TokenTree::Group(body)] = tokens.get(f + 1..)? else {
        return None;
    };
    if f <= k + 1 || name.to_string() != "Engine" || body.delimiter() != Delimiter::Brace {
        return None;
    }
    let mut out: TokenStream = tokens[..k].iter().cloned().collect();
    out.extend(tokens_of("impl<M: crate::sim::Mode>"));
    out.extend(tokens[k + 1..f].iter().cloned());
    out.extend(tokens_of("for Engine<M>"));
    out.extend([TokenTree::Group(body.clone())]);
    Some(out)
}

fn tokens_of(code: &str) -> TokenStream {
    code.parse().expect("a fixed piece of Rust parses")
}

fn is_ident(t: &TokenTree, word: &str) -> bool {
    matches!(t, TokenTree::Ident(i) if i.to_string() == word)
}

/// A `compile_error!` at the attribute.
fn error(message: &str) -> TokenStream {
    let call = [
        TokenTree::Ident(Ident::new("compile_error", Span::call_site())),
        TokenTree::Punct(proc_macro::Punct::new('!', proc_macro::Spacing::Alone)),
        TokenTree::Group(Group::new(
            Delimiter::Parenthesis,
            TokenStream::from(TokenTree::Literal(proc_macro::Literal::string(message))),
        )),
    ];
    call.into_iter().collect()
}
