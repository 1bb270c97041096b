//! "Did you mean …": the valid names closest to a misspelled one, by edit
//! distance (as rustc and cargo suggest). Shared by the macros' messages
//! (options, runners, annotations, DSL forms).

/// The names of `valid` within a small edit distance of `wrong`, closest
/// first, formatted for a message: `` did you mean `a`?`` or
/// `` did you mean `a` or `b`?``, or the empty string.
///
/// ```
/// use pbt_stage::suggest::did_you_mean;
/// assert_eq!(did_you_mean("generationl", ["generational", "fuzz"]), "; did you mean `generational`?");
/// assert_eq!(did_you_mean("quickcheck", ["generational", "fuzz"]), "");
/// ```
pub fn did_you_mean<'a>(wrong: &str, valid: impl IntoIterator<Item = &'a str>) -> String {
    let close = closest(wrong, valid);
    match close.as_slice() {
        [] => String::new(),
        [one] => format!("; did you mean `{one}`?"),
        [init @ .., last] => {
            let init: Vec<String> = init.iter().map(|n| format!("`{n}`")).collect();
            format!("; did you mean {} or `{last}`?", init.join(", "))
        }
    }
}

/// The names of `valid` within a small edit distance of `wrong` (a third
/// of its length, at least one), closest first, at most three.
///
/// ```
/// assert_eq!(pbt_stage::suggest::closest("one_off", ["one_of", "frequency"]), ["one_of"]);
/// ```
pub fn closest<'a>(wrong: &str, valid: impl IntoIterator<Item = &'a str>) -> Vec<&'a str> {
    let limit = (wrong.chars().count() / 3).max(1);
    let mut scored: Vec<(usize, &str)> = valid
        .into_iter()
        .map(|name| (distance(&wrong.to_lowercase(), &name.to_lowercase()), name))
        .filter(|&(d, _)| d <= limit)
        .collect();
    scored.sort_by_key(|&(d, _)| d);
    scored.dedup_by_key(|&mut (_, name)| name);
    scored.into_iter().take(3).map(|(_, name)| name).collect()
}

/// The Levenshtein distance between `a` and `b`, counting a swap of two
/// adjacent characters as one edit (optimal string alignment).
///
/// ```
/// assert_eq!(pbt_stage::suggest::distance("intergated", "integrated"), 1);
/// ```
pub fn distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut rows = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in rows.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in rows[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut d = (rows[i - 1][j] + 1)
                .min(rows[i][j - 1] + 1)
                .min(rows[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(rows[i - 2][j - 2] + 1);
            }
            rows[i][j] = d;
        }
    }
    rows[a.len()][b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances_count_edits_and_swaps() {
        assert_eq!(distance("generational", "generational"), 0);
        assert_eq!(distance("generationl", "generational"), 1);
        assert_eq!(distance("intergated", "integrated"), 1);
        assert_eq!(distance("", "abc"), 3);
        assert_eq!(distance("kitten", "sitting"), 3);
    }

    #[test]
    fn suggestions_are_the_close_names_closest_first() {
        let runners = ["generational", "integrated", "parallel", "fuzz", "targeted"];
        assert_eq!(
            did_you_mean("generationl", runners),
            "; did you mean `generational`?"
        );
        assert_eq!(did_you_mean("fuz", runners), "; did you mean `fuzz`?");
        assert_eq!(did_you_mean("quickcheck", runners), "");
        assert_eq!(
            closest("case", ["cases", "seed", "cast"]),
            ["cases", "cast"]
        );
    }
}
