//! Text helpers both crates use, written out rather than taken from std where std's generic machinery
//! costs the page's wasm (its budgets, wasm-pack.toml): `[T]::join` was two monomorphised copies of
//! a kilobyte each.

/// `items` with `sep` between each two: what `collect::<Vec<_>>().join(sep)` gives, without the Vec.
pub fn join<S: AsRef<str>>(items: impl IntoIterator<Item = S>, sep: &str) -> String {
    let mut out = String::new();
    for (i, item) in items.into_iter().enumerate() {
        if i > 0 {
            out.push_str(sep);
        }
        out.push_str(item.as_ref());
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn joins_as_std_does() {
        assert_eq!(
            super::join(["a", "b", "c"], ", "),
            ["a", "b", "c"].join(", ")
        );
        assert_eq!(super::join(Vec::<String>::new(), ","), "");
        assert_eq!(super::join([String::from("x")], ";"), "x");
    }
}
