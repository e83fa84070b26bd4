//! Which key attributes take few values, so that the traffic of a key built from them lands on
//! few partitions, how much of it the busiest partition takes, and how many write shards would
//! bring it under one partition's 1,000 write units a second: the one partition-load rule that
//! the cost report's partitions, finding KP014 (which reads them) and an edit that write-shards
//! a key all apply (issue 16: two rules of few values; issue 42: KP014 sent a pattern's whole
//! traffic to one value of a `distinct: 500` key, the cost report a 500th of it, and the shards
//! they asked for differed a hundredfold). The threshold is [`crate::limits::FEW_DISTINCT_VALUES`].
//! Nothing here sizes an item or prices a unit.

use std::fmt;

use crate::limits::{FEW_DISTINCT_VALUES, PARTITION_WRITE_UNITS_PER_SECOND};
use crate::model::{Attribute, Design, Entity};
use crate::template::{KeyTemplate, Part, Var};

/// Why an attribute takes few values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FewValues<'a> {
    /// Its values are listed (an enum): new orders are all `PENDING`.
    Listed { name: &'a str, count: usize },
    /// A `distinct` hint of at most [`FEW_DISTINCT_VALUES`].
    Distinct { name: &'a str, count: u64 },
    /// A calendar date or day: a day's traffic shares one value.
    Date { name: &'a str },
}

impl FewValues<'_> {
    /// The share of the attribute's traffic its busiest value takes: all of it for a listed
    /// value (one status takes the new items) or a date (today takes every write), 1 in N for
    /// a `distinct: N` hint, spread evenly.
    pub fn busiest_share(&self) -> f64 {
        match *self {
            FewValues::Listed { .. } | FewValues::Date { .. } => 1.0,
            FewValues::Distinct { count, .. } => 1.0 / count.max(1) as f64,
        }
    }
}

impl fmt::Display for FewValues<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FewValues::Listed { name, count } => write!(f, "`{name}` has {count} known values"),
            FewValues::Distinct { name, count } => write!(f, "`{name}` takes about {count} values"),
            FewValues::Date { name } => {
                write!(f, "`{name}` is a date: a day's traffic shares one value")
            }
        }
    }
}

/// Whether `attribute` takes few values, and why; `None` when it can take many.
pub fn few_values(attribute: &Attribute) -> Option<FewValues<'_>> {
    let name = attribute.name.as_str();
    if !attribute.values.is_empty() {
        return Some(FewValues::Listed {
            name,
            count: attribute.values.len(),
        });
    }
    if let Some(count) = attribute.distinct.filter(|&n| n <= FEW_DISTINCT_VALUES) {
        return Some(FewValues::Distinct { name, count });
    }
    is_date(name).then_some(FewValues::Date { name })
}

/// The share of the traffic on `template` that its busiest partition takes, when every
/// attribute variable of it takes few values: the product of each one's
/// [`FewValues::busiest_share`] (a constant takes it all). `None` when one can take many values,
/// or is not an attribute of `entity`: then the traffic spreads over many partitions.
pub fn busiest_share(entity: Option<&Entity>, template: &KeyTemplate) -> Option<f64> {
    let mut share = 1.0;
    for var in template.attribute_vars() {
        let attribute = entity.and_then(|e| e.attribute(&var.name))?;
        share *= few_values(attribute)?.busiest_share();
    }
    Some(share)
}

/// The share of the items under a partition template that its busiest value holds, and why:
/// a variable of few values gives its busiest share, a `distinct` hint one in that many, a
/// variable that identifies an entity with a volume (`customerId`, Customer's) one in its
/// items. `None` when a variable's values are counted by nothing. KP029's item collections and
/// the cost of a Query sorted in memory (the partition's items, issue 43) both weigh a
/// partition by it. `entities` are the ones whose items the template keys.
pub fn partition_share<'e>(
    design: &Design,
    entities: impl Iterator<Item = &'e Entity> + Clone,
    template: &KeyTemplate,
) -> Option<(f64, String)> {
    let mut share = 1.0;
    let mut why = Vec::new();
    for var in template.attribute_vars() {
        let attribute = entities.clone().find_map(|e| e.attribute(&var.name));
        if let Some(few) = attribute.and_then(few_values) {
            share *= few.busiest_share();
            why.push(few.to_string());
            continue;
        }
        if let Some(count) = attribute.and_then(|a| a.distinct) {
            share /= count.max(1) as f64;
            why.push(format!("`{}` takes about {count} values", var.name));
            continue;
        }
        // The entity this variable identifies: as many values as it has items.
        let identified = design.entities.iter().find(|e| {
            e.volume.is_some()
                && design
                    .table(&e.table)
                    .and_then(|t| e.identity(t))
                    .is_some_and(|id| id == var.name)
        })?;
        let count = identified.volume.map_or(1, |v| v.items).max(1);
        share /= count as f64;
        why.push(format!("one per `{}`: {count} of them", identified.name));
    }
    if why.is_empty() {
        why.push("a constant: one collection".to_string());
    }
    Some((share, why.join(", ")))
}

/// The write shards a partition key needs so that no shard takes more than one partition's
/// 1,000 write units a second, when its busiest value takes `write_units_per_second` in all;
/// never fewer than the `shards` it has, nor than 1. Reads do not count: a scatter-gather read
/// reads every shard, so sharding never cools one.
pub fn shards_needed(write_units_per_second: f64, shards: u32) -> u32 {
    // `as` saturates: an absurd rate asks for u32::MAX shards, a NaN for none.
    let needed = (write_units_per_second / PARTITION_WRITE_UNITS_PER_SECOND).ceil() as u32;
    needed.max(shards).max(1)
}

/// `template` write-sharded into `shards`: its shard variable's count set (`{shard:2}` ->
/// `{shard:5}`), or `#SHARD{shard:N}` appended when it has none (`COUNTERS` ->
/// `COUNTERS#SHARD{shard:2}`): the template the advice to shard a hot key shows and its fix
/// writes.
pub fn sharded(template: &KeyTemplate, shards: u32) -> KeyTemplate {
    if template.shard().is_none() {
        return KeyTemplate::parse(&format!("{}#SHARD{{shard:{shards}}}", template.source()));
    }
    let parts: Vec<Part> = template
        .parts()
        .iter()
        .map(|part| match part {
            Part::Var(var) if var.shards.is_some() => Part::Var(Var {
                shards: Some(shards),
                ..var.clone()
            }),
            other => other.clone(),
        })
        .collect();
    KeyTemplate::from_parts(&parts)
}

/// A name for a calendar date or day: `date`, `orderDate`, `order_date`, `day`, `weekday`.
/// Not `updatedAt` (which contains "date") nor `dateTime`: those are points in time.
fn is_date(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    lower.ends_with("date") || lower.ends_with("day")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::AttrType;

    fn attribute(name: &str) -> Attribute {
        Attribute::new(name, AttrType::S)
    }

    #[test]
    fn dates_are_told_by_their_name_and_points_in_time_are_not() {
        let shown: Vec<String> = [
            "date",
            "orderDate",
            "order_date",
            "day",
            "weekday",
            "updatedAt",
            "dateTime",
            "createdAt",
            "customerId",
        ]
        .iter()
        .map(|n| {
            let a = attribute(n);
            format!("{n}: {:?}", few_values(&a).map(|f| f.to_string()))
        })
        .collect();
        expect_test::expect![[r#"
            [
                "date: Some(\"`date` is a date: a day's traffic shares one value\")",
                "orderDate: Some(\"`orderDate` is a date: a day's traffic shares one value\")",
                "order_date: Some(\"`order_date` is a date: a day's traffic shares one value\")",
                "day: Some(\"`day` is a date: a day's traffic shares one value\")",
                "weekday: Some(\"`weekday` is a date: a day's traffic shares one value\")",
                "updatedAt: None",
                "dateTime: None",
                "createdAt: None",
                "customerId: None",
            ]
        "#]]
        .assert_debug_eq(&shown);
    }

    #[test]
    fn listed_values_and_small_distinct_hints_are_few_and_the_threshold_is_inclusive() {
        let mut status = attribute("status");
        status.values = vec!["NEW".into(), "DONE".into()];
        let mut region = attribute("region");
        region.distinct = Some(FEW_DISTINCT_VALUES);
        let mut user = attribute("userId");
        user.distinct = Some(FEW_DISTINCT_VALUES + 1);
        let shown: Vec<String> = [&status, &region, &user]
            .iter()
            .map(|a| {
                let few = few_values(a);
                format!(
                    "{}: {:?} share {:?}",
                    a.name,
                    few.map(|f| f.to_string()),
                    few.map(|f| f.busiest_share())
                )
            })
            .collect();
        expect_test::expect![[r#"
            [
                "status: Some(\"`status` has 2 known values\") share Some(1.0)",
                "region: Some(\"`region` takes about 1000 values\") share Some(0.001)",
                "userId: None share None",
            ]
        "#]]
        .assert_debug_eq(&shown);
    }
}
