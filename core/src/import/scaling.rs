//! What CloudFormation's and Terraform's Application Auto Scaling targets say alike (issue 40
//! item 2): a target's resource ID (`table/NAME`, `table/NAME/index/INDEX`) and its scalable
//! dimension (`dynamodb:table:ReadCapacityUnits`, `dynamodb:index:WriteCapacityUnits`...),
//! as the developer guide's "Managing throughput capacity automatically with DynamoDB auto
//! scaling" states them (<https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/AutoScaling.html>).
//! Each format reads its own files; the table a target names is matched here.

use crate::model::{Dimension, Table};

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
