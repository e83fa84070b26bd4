//! What CloudFormation's and Terraform's Application Auto Scaling targets say alike (issue 40
//! item 2): a target's resource ID (`table/NAME`, `table/NAME/index/INDEX`) and its scalable
//! dimension (`dynamodb:table:ReadCapacityUnits`, `dynamodb:index:WriteCapacityUnits`...),
//! as the developer guide's "Managing throughput capacity automatically with DynamoDB auto
//! scaling" states them (<https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/AutoScaling.html>).
//! Each format reads its own files; the table a target names is matched here.

use super::cloudformation::lenient::Lenient;
use crate::model::{Dimension, Scaling, Table};

/// Marks a segment of a resource ID that refers to a table by the format's own name for its
/// resource (a CloudFormation logical ID, a Terraform resource label), not by its TableName.
pub(crate) const REFERENCE: char = '\u{1}';

/// The capacity a scalable dimension scales; `None` for one that is not DynamoDB's.
pub(crate) fn dimension(scalable: &str) -> Option<Dimension> {
    match scalable.strip_prefix("dynamodb:")?.rsplit(':').next()? {
        "ReadCapacityUnits" => Some(Dimension::Read),
        "WriteCapacityUnits" => Some(Dimension::Write),
        _ => None,
    }
}

/// The table (by position in `tables`, each with its resource's own name) and the GSI a
/// resource ID names (`table/orders`, `table/\u{1}OrdersTable/index/byStatus`); `Err` with
/// why it names none.
pub(crate) fn target<'i>(
    resource_id: &'i str,
    tables: &[(&str, &Table)],
) -> Result<(usize, Option<&'i str>), String> {
    let segments: Vec<&str> = resource_id.split('/').collect();
    let (table, index) = match segments.as_slice() {
        ["table", table] => (*table, None),
        ["table", table, "index", index] => (*table, Some(*index)),
        _ => {
            return Err(format!(
                "its resource ID `{}` is not `table/NAME` nor `table/NAME/index/INDEX`",
                resource_id.replace(REFERENCE, "")
            ));
        }
    };
    tables
        .iter()
        .position(|(resource, t)| match table.strip_prefix(REFERENCE) {
            Some(reference) => *resource == reference,
            None => t.name == table,
        })
        .map(|at| (at, index))
        .ok_or_else(|| {
            format!(
                "it names table `{}`, not one of the file's",
                table.trim_start_matches(REFERENCE)
            )
        })
}

/// What a scalable target states, read by its format.
pub(crate) struct Stated<'s> {
    /// How the notes name it: `scalable target WriteScaling`, `aws_appautoscaling_target.read`.
    pub who: &'s str,
    /// Its resource ID as [`target`] reads it, `None` when it could not be read.
    pub resource_id: Option<String>,
    /// Its scalable dimension as written.
    pub scalable: &'s str,
    /// Its minimum and maximum, and its policy's target utilisation.
    pub scaling: Scaling,
}

/// Gives the table or GSI that `stated` names its auto scaling, or says why it is not kept.
pub(crate) fn give(stated: Stated<'_>, tables: &mut [(&str, &mut Table)], out: &mut Lenient<'_>) {
    let who = stated.who;
    let Some(resource_id) = stated.resource_id else {
        out.note(format!(
            "{who}: its resource ID is not read: its auto scaling is not kept"
        ));
        return;
    };
    let Some(dimension) = dimension(stated.scalable) else {
        out.note(format!(
            "{who}: scalable dimension `{}` is not a DynamoDB capacity: not kept",
            stated.scalable
        ));
        return;
    };
    let named: Vec<(&str, &Table)> = tables.iter().map(|(id, t)| (*id, &**t)).collect();
    let (at, index) = match target(&resource_id, &named) {
        Ok(found) => found,
        Err(why) => {
            out.note(format!("{who}: {why}: not kept"));
            return;
        }
    };
    let table = &mut *tables[at].1;
    if !table.billing.set_scaling(index, dimension, stated.scaling) {
        out.note(format!(
            "table {}: auto scaling of an on-demand table is not kept",
            table.name
        ));
    }
}

/// Once every target of a file is given: a GSI whose capacity and auto scaling came out equal
/// to its table's takes the table's, as one never listed apart does
/// ([`crate::model::Billing::fold_index_capacity`]), so a file that states the same targets
/// for a table and its GSIs reads back as the design that wrote it.
pub(crate) fn settle(tables: &mut [(&str, &mut Table)]) {
    for (_, table) in tables.iter_mut() {
        table.billing.fold_index_capacity();
    }
}
