//! The attributes a read pattern names, checked against the entities it returns: those none of
//! them has, with the name most likely meant ([`unknown_attributes`], [`closest_name`]), and
//! what the pattern asks that cannot hold together ([`contradictions`]).

use crate::model::{AccessPattern, Entity};

/// An attribute a read pattern names (an input, its sort condition's or its order's) that none
/// of the entities it returns has: a typo, or a name left behind by a rename.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct UnknownAttribute<'a> {
    /// `input`, `sort attribute` or `order attribute`.
    pub role: &'static str,
    pub name: &'a str,
    /// The returned entities, as a message names them: `Order`, `Order or Customer`.
    pub entities: String,
    /// The entities' attribute closest to `name`, if one is close enough to be meant.
    pub closest: Option<&'a str>,
}

impl std::fmt::Display for UnknownAttribute<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} `{}` is not an attribute of {}",
            self.role, self.name, self.entities
        )?;
        match self.closest {
            Some(closest) => write!(f, ": did you mean `{closest}`?"),
            None => Ok(()),
        }
    }
}

/// The attributes `pattern` names that none of `entities` has, in the pattern's order (inputs,
/// then the sort condition's, then the order's), each once.
pub(crate) fn unknown_attributes<'a>(
    pattern: &'a AccessPattern,
    entities: &[&'a Entity],
) -> Vec<UnknownAttribute<'a>> {
    if entities.is_empty() {
        return Vec::new();
    }
    // A vector search's query vector is given at request time, never stored (issue 40).
    let query = pattern.vector.as_ref().map(|v| v.query.as_str());
    let named = pattern
        .inputs
        .iter()
        .filter(|i| Some(i.as_str()) != query)
        .map(|i| ("input", i.as_str()))
        .chain(
            pattern
                .sort
                .iter()
                .map(|c| ("sort attribute", c.attribute.as_str())),
        )
        .chain(
            pattern
                .order_by
                .iter()
                .map(|o| ("order attribute", o.as_str())),
        );
    let mut out: Vec<UnknownAttribute<'a>> = Vec::new();
    for (role, name) in named {
        if entities.iter().any(|e| e.attribute(name).is_some())
            || out.iter().any(|u| u.name == name)
        {
            continue;
        }
        let candidates = entities
            .iter()
            .flat_map(|e| e.attributes.iter().map(|a| a.name.as_str()));
        out.push(UnknownAttribute {
            role,
            name,
            entities: entities
                .iter()
                .map(|e| e.name.as_str())
                .collect::<Vec<_>>()
                .join(" or "),
            closest: closest_name(name, candidates),
        });
    }
    out
}

/// What a read pattern asks that cannot hold together, one sentence each (issue 16): an input
/// is matched exactly, so a range condition or an order on that same attribute says nothing
/// a key could serve. Such a pattern gets no suggested index.
pub(crate) fn contradictions(pattern: &AccessPattern) -> Vec<String> {
    let is_input = |name: &str| pattern.inputs.iter().any(|i| i == name);
    let mut out = Vec::new();
    if let Some(cond) = &pattern.sort
        && is_input(&cond.attribute)
    {
        out.push(format!(
            "`{}` is an input, matched exactly, and also the attribute of its sort condition; drop one of them",
            cond.attribute
        ));
    }
    if let Some(by) = &pattern.order_by
        && is_input(by)
        && pattern.sort.as_ref().is_none_or(|c| c.attribute != *by)
    {
        out.push(format!(
            "`{by}` is an input, matched exactly, so every result has the same `{by}` and ordering by it orders nothing"
        ));
    }
    out
}

/// The candidate `name` most likely meant: the nearest by edit distance (ignoring case) among
/// those within a third of the name's length (at least 2 edits), or that one contains the
/// other (`orderId` and `id` after a rename). Ties go to the first.
pub(crate) fn closest_name<'a>(
    name: &str,
    candidates: impl Iterator<Item = &'a str>,
) -> Option<&'a str> {
    // Attribute names are short; a pathological one is not worth a quadratic comparison.
    const LONGEST: usize = 255;
    if name.len() > LONGEST {
        return None;
    }
    let lower = name.to_lowercase();
    let mut best: Option<(usize, &'a str)> = None;
    for candidate in candidates.filter(|c| c.len() <= LONGEST) {
        let other = candidate.to_lowercase();
        let distance = edit_distance(&lower, &other);
        let near = distance <= (lower.chars().count() / 3).max(2);
        let contained = other.len() >= 2 && (lower.contains(&other) || other.contains(&lower));
        if (near || contained) && best.is_none_or(|(d, _)| distance < d) {
            best = Some((distance, candidate));
        }
    }
    best.map(|(_, c)| c)
}

/// Levenshtein distance between `a` and `b`, by characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1)
                .min(row[j] + 1)
                .min(diagonal + usize::from(ca != *cb));
            diagonal = above;
        }
    }
    row[b.len()]
}
