//! Measurement (issue 41, item 3): the resident memory of a process holding an embedded engine,
//! before and after 600 PutItems of 390 KB items and the DeleteTable of their table, then 15 s
//! later (jemalloc returns freed pages after its 10 s decay). `keyplan` sends them through
//! keyplan's in-process client, whose DeleteTable compacts the emptied engine; `dynoxide` calls
//! dynoxide-rs's `Database` straight, as its HTTP server did for any page that found its port.
//! Run with `scripts/engine-memory`, which prints both.

use std::time::Duration;

use keyplan_server::engine::{EmbeddedEngine, Engine};

/// The allocator of the `keyplan` binary (server/src/main.rs), so the figures are its.
#[cfg(not(target_env = "msvc"))]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

const PUTS: usize = 600;
const ITEM_BYTES: usize = 390_000;

fn rss_mb() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse::<f64>().ok())
        .map_or(f64::NAN, |kb| kb / 1024.0)
}

fn request<T: serde::de::DeserializeOwned>(json: serde_json::Value) -> anyhow::Result<T> {
    Ok(serde_json::from_value(json)?)
}

fn table() -> serde_json::Value {
    serde_json::json!({
        "TableName": "filled",
        "KeySchema": [{ "AttributeName": "pk", "KeyType": "HASH" }],
        "AttributeDefinitions": [{ "AttributeName": "pk", "AttributeType": "S" }],
        "BillingMode": "PAY_PER_REQUEST",
    })
}

/// 600 puts and the table's delete through keyplan's client of the embedded engine.
async fn through_keyplan() -> anyhow::Result<(f64, f64)> {
    use aws_sdk_dynamodb::types::AttributeValue;
    let embedded = EmbeddedEngine::start()?;
    let client = Engine::embedded(&embedded).client;
    client
        .create_table()
        .table_name("filled")
        .key_schema(
            aws_sdk_dynamodb::types::KeySchemaElement::builder()
                .attribute_name("pk")
                .key_type(aws_sdk_dynamodb::types::KeyType::Hash)
                .build()?,
        )
        .attribute_definitions(
            aws_sdk_dynamodb::types::AttributeDefinition::builder()
                .attribute_name("pk")
                .attribute_type(aws_sdk_dynamodb::types::ScalarAttributeType::S)
                .build()?,
        )
        .billing_mode(aws_sdk_dynamodb::types::BillingMode::PayPerRequest)
        .send()
        .await?;
    let data = "x".repeat(ITEM_BYTES);
    for i in 0..PUTS {
        client
            .put_item()
            .table_name("filled")
            .item("pk", AttributeValue::S(format!("item-{i}")))
            .item("data", AttributeValue::S(data.clone()))
            .send()
            .await?;
    }
    let filled = rss_mb();
    client.delete_table().table_name("filled").send().await?;
    Ok((filled, rss_mb()))
}

/// The same straight to dynoxide-rs's `Database`, without keyplan's compaction.
fn through_dynoxide() -> anyhow::Result<(f64, f64)> {
    let db = dynoxide::Database::memory()?;
    db.create_table(request(table())?)?;
    let data = "x".repeat(ITEM_BYTES);
    for i in 0..PUTS {
        db.put_item(request(serde_json::json!({
            "TableName": "filled",
            "Item": { "pk": { "S": format!("item-{i}") }, "data": { "S": data } },
        }))?)?;
    }
    let filled = rss_mb();
    db.delete_table(request(serde_json::json!({ "TableName": "filled" }))?)?;
    let deleted = rss_mb();
    // The database stays open, as an engine does for the life of the server.
    std::mem::forget(db);
    Ok((filled, deleted))
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let mode = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "keyplan".to_string());
    let start = rss_mb();
    let (filled, deleted) = match mode.as_str() {
        "keyplan" => through_keyplan().await?,
        "dynoxide" => through_dynoxide()?,
        other => anyhow::bail!("mode `{other}`: expected `keyplan` or `dynoxide`"),
    };
    tokio::time::sleep(Duration::from_secs(15)).await;
    let later = rss_mb();
    println!(
        "{mode:>8}: RSS {start:.0} MB at start, {filled:.0} MB after {PUTS} puts of {} KB, {deleted:.0} MB once the table is deleted, {later:.0} MB 15 s later",
        ITEM_BYTES / 1000
    );
    Ok(())
}
