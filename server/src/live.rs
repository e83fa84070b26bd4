//! Reading tables that exist, read-only (issue 17): `DescribeTable`, `DescribeTimeToLive` and a
//! bounded `Scan`, turned into [`LiveTable`]s for `keyplan_core::import::live`.
//!
//! Nothing here writes: the only requests are `ListTables`, `DescribeTable`,
//! `DescribeTimeToLive` and `Scan`. The scan reads at most the sample size, however large the
//! table, in parallel segments ([`crate::runner::scan`]). What the engine sends is bounded
//! ([`crate::engine::bounds`]): each segment's pages, and the time to read each table.

use aws_sdk_dynamodb::types::{
    BillingMode, KeySchemaElement, KeyType as SdkKeyType, Projection as SdkProjection,
    ProjectionType, ScalarAttributeType, TableClass, TimeToLiveStatus, VectorDistanceFunction,
};
use keyplan_core::import::live::LiveTable;
use keyplan_core::model::{
    AttrType, Billing, Capacity, Distance, Gsi, KeyAttribute, KeyType, Lsi, Projection, Table,
    VectorIndex,
};

use crate::engine::Engine;
use crate::runner::error::{RunError, code, run_error};
use crate::runner::paging::within;
use crate::runner::preflight;
use crate::runner::scan::{ScanStats, scan};

/// Items sampled when the user names no number.
pub const DEFAULT_SAMPLE: u64 = 1_000;
/// The most items one import may read from a table.
pub const MAX_SAMPLE: u64 = 100_000;

/// The engine's table names, all pages of them (at most
/// [`MAX_TABLE_PAGES`](crate::runner::paging::MAX_TABLE_PAGES)), within the engine's
/// conversation limit.
pub async fn list_tables(engine: &Engine) -> Result<Vec<String>, RunError> {
    preflight(engine).await?;
    within(engine, "list tables", crate::runner::tables::list(engine)).await
}

/// How far the scan of one table has read, after a page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress<'a> {
    pub table: &'a str,
    /// Items read so far.
    pub read: u64,
    /// Items the scan expects to read: the sample, or the table's `ItemCount` when that is
    /// smaller and not 0 (DynamoDB refreshes it about every six hours, so `read` may pass it).
    pub expected: u64,
}

/// `table` described and sampled: at most `sample` items (clamped to [`MAX_SAMPLE`]).
/// `progress` is told the items read so far after every page.
pub async fn read_table(
    engine: &Engine,
    table: &str,
    sample: u64,
    progress: &(dyn Fn(Progress<'_>) + Send + Sync),
) -> Result<(LiveTable, ScanStats), RunError> {
    let out = engine
        .client
        .describe_table()
        .table_name(table)
        .send()
        .await
        .map_err(|e| {
            if code(&e) == Some("ResourceNotFoundException") {
                RunError::NoTable {
                    engine: engine.name.clone(),
                    table: table.to_string(),
                }
            } else {
                run_error(engine, &format!("describe table {table}"), &e)
            }
        })?;
    let Some(description) = out.table() else {
        return Err(RunError::Data(format!(
            "engine `{}` described table `{table}` with nothing in it",
            engine.name
        )));
    };
    let described = describe(table, description)?;
    let ttl = engine
        .client
        .describe_time_to_live()
        .table_name(table)
        .send()
        .await
        .map_err(|e| run_error(engine, &format!("describe the time to live of {table}"), &e))?;
    let ttl_attribute = ttl.time_to_live_description().and_then(|d| {
        let on = matches!(
            d.time_to_live_status(),
            Some(TimeToLiveStatus::Enabled | TimeToLiveStatus::Enabling)
        );
        d.attribute_name().filter(|_| on).map(str::to_string)
    });
    let sample = sample.min(MAX_SAMPLE);
    let expected = match described.item_count {
        0 => sample,
        count => count.min(sample),
    };
    let each = |read: u64| {
        progress(Progress {
            table,
            read,
            expected,
        })
    };
    let (items, stats) = scan(engine, table, sample, &each).await?;
    let Described {
        mut table,
        declared,
        item_count,
        stream,
        table_class,
    } = described;
    table.ttl_attribute = ttl_attribute;
    let live = LiveTable {
        table,
        declared,
        items,
        item_count,
        stream,
        table_class,
    };
    Ok((live, stats))
}

/// A `DescribeTable` answer in the model's terms.
struct Described {
    table: Table,
    declared: Vec<(String, AttrType)>,
    item_count: u64,
    stream: Option<String>,
    table_class: Option<String>,
}

fn describe(
    name: &str,
    d: &aws_sdk_dynamodb::types::TableDescription,
) -> Result<Described, RunError> {
    let mut declared = Vec::new();
    for def in d.attribute_definitions() {
        let ty = match def.attribute_type() {
            ScalarAttributeType::N => KeyType::N,
            ScalarAttributeType::B => KeyType::B,
            _ => KeyType::S,
        };
        declared.push((def.attribute_name().to_string(), ty));
    }
    let keys =
        |schema: &[KeySchemaElement], kind: SdkKeyType| -> Result<Vec<KeyAttribute>, RunError> {
            schema
                .iter()
                .filter(|k| *k.key_type() == kind)
                .map(|k| {
                    let attr = k.attribute_name();
                    let ty = declared
                        .iter()
                        .find(|(n, _)| n == attr)
                        .map(|(_, t)| *t)
                        .ok_or_else(|| {
                            RunError::Data(format!(
                                "table `{name}`: key attribute `{attr}` has no attribute definition"
                            ))
                        })?;
                    Ok(KeyAttribute::new(attr, ty))
                })
                .collect()
        };
    let mut partition = keys(d.key_schema(), SdkKeyType::Hash)?;
    if partition.len() != 1 {
        return Err(RunError::Data(format!(
            "table `{name}`: its key schema has {} partition keys, a table has one",
            partition.len()
        )));
    }
    let partition_key = partition.remove(0);
    let sort_key = keys(d.key_schema(), SdkKeyType::Range)?.into_iter().next();
    let mut gsis = Vec::new();
    // Each GSI's own capacity, which DescribeTable states beside the table's.
    let mut index_capacity = std::collections::BTreeMap::new();
    let units = |n: Option<i64>| u64::try_from(n.unwrap_or(0)).unwrap_or(0);
    for g in d.global_secondary_indexes() {
        if let Some(p) = g.provisioned_throughput()
            && let (Some(read), Some(write)) = (p.read_capacity_units(), p.write_capacity_units())
            && read > 0
        {
            index_capacity.insert(
                g.index_name().unwrap_or_default().to_string(),
                Capacity {
                    read: units(Some(read)),
                    write: units(Some(write)),
                    auto_scaling: None,
                },
            );
        }
        gsis.push(Gsi {
            name: g.index_name().unwrap_or_default().to_string(),
            partition_key: keys(g.key_schema(), SdkKeyType::Hash)?,
            sort_key: keys(g.key_schema(), SdkKeyType::Range)?,
            projection: projection(g.projection()),
        });
    }
    let mut lsis = Vec::new();
    for l in d.local_secondary_indexes() {
        let index = l.index_name().unwrap_or_default();
        let Some(sort_key) = keys(l.key_schema(), SdkKeyType::Range)?.into_iter().next() else {
            return Err(RunError::Data(format!(
                "table `{name}`: local index `{index}` has no sort key"
            )));
        };
        lsis.push(Lsi {
            name: index.to_string(),
            sort_key,
            projection: projection(l.projection()),
        });
    }
    let on_demand = d
        .billing_mode_summary()
        .and_then(|b| b.billing_mode())
        .is_some_and(|m| *m == BillingMode::PayPerRequest);
    let billing = match d.provisioned_throughput() {
        Some(p) if !on_demand => Billing::Provisioned {
            read: units(p.read_capacity_units()),
            write: units(p.write_capacity_units()),
            auto_scaling: None,
            indexes: index_capacity,
        },
        _ => Billing::OnDemand,
    };
    let stream = d
        .stream_specification()
        .filter(|s| s.stream_enabled())
        .map(|s| {
            s.stream_view_type()
                .map_or("enabled".to_string(), |v| v.as_str().to_string())
        });
    let table_class = d
        .table_class_summary()
        .and_then(|c| c.table_class())
        .filter(|c| **c != TableClass::Standard)
        .map(|c| c.as_str().to_string());
    Ok(Described {
        table: Table {
            name: name.to_string(),
            partition_key,
            sort_key,
            gsis,
            lsis,
            billing,
            ttl_attribute: None,
            replicas: Vec::new(),
            vector_indexes: vector_indexes(name, d)?,
        },
        declared: declared
            .into_iter()
            .map(|(n, t)| (n, AttrType::from(t)))
            .collect(),
        item_count: u64::try_from(d.item_count().unwrap_or(0)).unwrap_or(0),
        stream,
        table_class,
    })
}

/// The table's vector indexes as DescribeTable's `VectorIndexes` state them (issue 40; AWS's
/// `VectorIndexDescription`,
/// <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_VectorIndexDescription.html>):
/// name, attribute, dimensions (1 to 4,096), distance function and projection. A
/// `SearchSchema` is not kept (keyplan designs hold none); a description missing a part, or
/// with a distance function keyplan does not know, is refused with what is wrong.
fn vector_indexes(
    name: &str,
    d: &aws_sdk_dynamodb::types::TableDescription,
) -> Result<Vec<VectorIndex>, RunError> {
    d.vector_indexes()
        .iter()
        .map(|v| {
            let index = v.index_name().unwrap_or_default();
            let refuse = |what: String| {
                RunError::Data(format!("table `{name}`: vector index `{index}` {what}"))
            };
            let attribute = v
                .vector_attribute()
                .map(|a| a.attribute_name().to_string())
                .ok_or_else(|| refuse("has no vector attribute".to_string()))?;
            let dimensions = v
                .dimensions()
                .and_then(|n| u32::try_from(n).ok())
                .filter(|n| (1..=keyplan_core::limits::VECTOR_DIMENSIONS_MAX).contains(n))
                .ok_or_else(|| {
                    refuse(format!(
                        "has dimensions {:?}, not 1 to {}",
                        v.dimensions(),
                        keyplan_core::limits::VECTOR_DIMENSIONS_MAX
                    ))
                })?;
            let distance = match v.distance_function() {
                Some(VectorDistanceFunction::Cosine) => Distance::Cosine,
                Some(VectorDistanceFunction::Euclidean) => Distance::Euclidean,
                Some(VectorDistanceFunction::DotProduct) => Distance::DotProduct,
                other => {
                    return Err(refuse(format!(
                        "has the distance function {}, which keyplan does not know",
                        other.map_or("(none)", |f| f.as_str())
                    )));
                }
            };
            Ok(VectorIndex {
                name: index.to_string(),
                attribute,
                dimensions,
                distance,
                projection: projection(v.projection()),
            })
        })
        .collect()
}

fn projection(p: Option<&SdkProjection>) -> Projection {
    match p.and_then(|p| p.projection_type()) {
        Some(ProjectionType::KeysOnly) => Projection::KeysOnly,
        Some(ProjectionType::Include) => Projection::Include {
            attributes: p
                .map(|p| p.non_key_attributes().to_vec())
                .unwrap_or_default(),
        },
        _ => Projection::All,
    }
}

/// The engine's preflight (5 s to answer) then `read_table` for each of `tables`, each within
/// the engine's conversation limit.
pub async fn read_tables(
    engine: &Engine,
    tables: &[String],
    sample: u64,
    progress: &(dyn Fn(Progress<'_>) + Send + Sync),
) -> Result<Vec<(LiveTable, ScanStats)>, RunError> {
    preflight(engine).await?;
    let mut out = Vec::new();
    for table in tables {
        let what = format!("read table {table}");
        out.push(within(engine, &what, read_table(engine, table, sample, progress)).await?);
    }
    Ok(out)
}
