//! Counts in words, the one home of how keyplan writes a number of things: digits grouped by
//! thousands (`293,966`), and the noun singular for one and plural otherwise (`1 step`,
//! `3 warnings`, `2 entities`). The app, the command line and core's own reports all call
//! these (issue 43: "1 steps", "1 warnings" and `293966 characters` had each been written by
//! hand). Nothing here knows what is counted.

/// `2200010` as `2,200,010`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `n` and `noun`, the noun in the plural unless `n` is 1, `n` with thousands separators:
/// "1 table", "2 entities", "0 notes", "293,966 characters". The last word of `noun` takes the
/// ending ("1 access pattern", "3 access patterns").
pub fn plural(n: usize, noun: &str) -> String {
    let n = thousands(n as u64);
    if n == "1" {
        return format!("1 {noun}");
    }
    let consonant_y = noun.ends_with('y')
        && !noun
            .chars()
            .rev()
            .nth(1)
            .is_some_and(|c| "aeiou".contains(c));
    if consonant_y {
        format!("{n} {}ies", &noun[..noun.len() - 1])
    } else if ["s", "x", "ch", "sh"].iter().any(|end| noun.ends_with(end)) {
        format!("{n} {noun}es")
    } else {
        format!("{n} {noun}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_are_grouped_by_thousands() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(293_966), "293,966");
        assert_eq!(thousands(u64::MAX), "18,446,744,073,709,551,615");
    }

    // issue 12: "1 tables", "deleted 1 tables"; issue 43: "1 steps", "293966 characters".
    #[test]
    fn counts_take_the_singular_for_one_and_the_plural_otherwise() {
        assert_eq!(plural(1, "table"), "1 table");
        assert_eq!(plural(0, "table"), "0 tables");
        assert_eq!(plural(2, "entity"), "2 entities");
        assert_eq!(plural(3, "access pattern"), "3 access patterns");
        assert_eq!(plural(1, "access pattern"), "1 access pattern");
        assert_eq!(plural(2, "mismatch"), "2 mismatches");
        assert_eq!(plural(2, "key"), "2 keys");
        assert_eq!(plural(1, "step"), "1 step");
        assert_eq!(plural(1, "warning"), "1 warning");
        assert_eq!(plural(293_966, "character"), "293,966 characters");
    }
}
