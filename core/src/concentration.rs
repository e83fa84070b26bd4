//! Which key attributes take few values, so that the traffic of a key built from them lands on
//! few partitions: the one rule that the cost report's partition check and finding KP014 both
//! apply (issue 16: they had two rules, at most 100 and at most 1,000 distinct values, and two
//! ways of telling a date, and could disagree on one design). The threshold is
//! [`crate::limits::FEW_DISTINCT_VALUES`].

use std::fmt;

use crate::limits::FEW_DISTINCT_VALUES;
use crate::model::Attribute;

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
