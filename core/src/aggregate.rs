//! The aggregate view: the items of each table and each of its indexes, grouped by partition
//! key value and sorted as DynamoDB keeps them, each tagged with its entity, for the app to
//! draw as NoSQL Workbench's aggregate view does.
//!
//! Plain data derived from a [`ItemStore`]; nothing here knows how it is drawn. Partitions are
//! listed in key order (DynamoDB itself spreads them by hash; key order is for people).

use serde::Serialize;

use crate::eval::{IndexStore, ItemStore, KeyValue};
use crate::item::{AttributeValue, Item};
use crate::model::IndexKind;

/// Every table's view.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AggregateView {
    pub tables: Vec<TableView>,
}

/// One table: the table itself first, then each GSI, then each LSI.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TableView {
    pub table: String,
    pub indexes: Vec<IndexView>,
}

/// The table or one index, partition by partition.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct IndexView {
    /// `None` for the table itself.
    pub index: Option<String>,
    pub kind: &'static str,
    pub partition_key: Vec<String>,
    pub sort_key: Vec<String>,
    pub item_count: usize,
    pub partitions: Vec<PartitionView>,
}

/// One partition: its key values and its items in sort-key order.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PartitionView {
    pub key: Vec<AttributeValue>,
    pub items: Vec<ViewItem>,
}

/// One item as the index holds it (projected), with its entity.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ViewItem {
    pub entity: Option<String>,
    /// The sort-key values, in key order (empty for a table without a sort key).
    pub sort_key: Vec<AttributeValue>,
    pub item: Item,
}

fn key_attribute(value: &KeyValue, item: &Item, name: &str) -> AttributeValue {
    item.get(name).cloned().unwrap_or_else(|| match value {
        KeyValue::S(s) => AttributeValue::S(s.clone()),
        KeyValue::N(n) => AttributeValue::N(n.to_string()),
        KeyValue::B(b) => AttributeValue::B(crate::eval::encode_binary(b)),
    })
}

fn index_view(table: &crate::eval::TableStore, index: &IndexStore) -> IndexView {
    let partitions = table
        .partitions(index)
        .into_iter()
        .map(|(key, items)| {
            let first = items.first().map(|s| &s.item);
            PartitionView {
                key: key
                    .iter()
                    .zip(&index.partition_key)
                    .map(|(v, k)| match first {
                        Some(item) => key_attribute(v, item, &k.name),
                        None => key_attribute(v, &Item::new(), &k.name),
                    })
                    .collect(),
                items: items
                    .into_iter()
                    .map(|stored| ViewItem {
                        entity: stored.entity.clone(),
                        sort_key: index
                            .sort_key
                            .iter()
                            .filter_map(|k| stored.item.get(&k.name).cloned())
                            .collect(),
                        item: table.project(index, &stored.item),
                    })
                    .collect(),
            }
        })
        .collect();
    IndexView {
        index: index.name.clone(),
        kind: match index.kind {
            IndexKind::Table => "table",
            IndexKind::Gsi => "gsi",
            IndexKind::Lsi => "lsi",
        },
        partition_key: index.partition_key.iter().map(|k| k.name.clone()).collect(),
        sort_key: index.sort_key.iter().map(|k| k.name.clone()).collect(),
        item_count: index.len(),
        partitions,
    }
}

/// The aggregate view of every table in `store`.
pub fn aggregate(store: &ItemStore) -> AggregateView {
    AggregateView {
        tables: store
            .tables()
            .iter()
            .map(|table| TableView {
                table: table.name.clone(),
                indexes: table
                    .indexes()
                    .iter()
                    .map(|index| index_view(table, index))
                    .collect(),
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::LoadItem;
    use crate::model::{Design, Gsi, KeyAttribute, KeyType, Projection, Table};

    fn s(v: &str) -> AttributeValue {
        AttributeValue::S(v.to_string())
    }

    #[test]
    fn items_are_grouped_by_partition_and_sorted_with_their_entity() {
        let mut design = Design::new("t");
        let mut table = Table {
            name: "t".into(),
            partition_key: KeyAttribute::new("PK", KeyType::S),
            sort_key: Some(KeyAttribute::new("SK", KeyType::S)),
            gsis: vec![Gsi {
                name: "G".into(),
                partition_key: vec![KeyAttribute::new("GPK", KeyType::S)],
                sort_key: vec![],
                projection: Projection::KeysOnly,
            }],
            lsis: vec![],
            billing: Default::default(),
            ttl_attribute: None,
            replicas: Vec::new(),
            vector_indexes: Vec::new(),
        };
        table.ttl_attribute = None;
        design.tables.push(table);
        let item = |pk: &str, sk: &str, gpk: Option<&str>, entity: &str| {
            let mut item = Item::new();
            item.insert("PK".into(), s(pk));
            item.insert("SK".into(), s(sk));
            item.insert("name".into(), s("x"));
            if let Some(g) = gpk {
                item.insert("GPK".into(), s(g));
            }
            LoadItem {
                table: "t".into(),
                entity: Some(entity.into()),
                item,
            }
        };
        let store = ItemStore::build(
            &design,
            vec![
                item("B", "2", None, "E"),
                item("A", "9", Some("G1"), "F"),
                item("B", "1", Some("G1"), "E"),
            ],
        );
        let view = aggregate(&store);
        let summary: Vec<String> = view.tables[0]
            .indexes
            .iter()
            .map(|i| {
                let parts: Vec<String> = i
                    .partitions
                    .iter()
                    .map(|p| {
                        let items: Vec<String> = p
                            .items
                            .iter()
                            .map(|v| {
                                format!(
                                    "{}:{}",
                                    v.entity.as_deref().unwrap_or("?"),
                                    v.item.keys().cloned().collect::<Vec<_>>().join("+")
                                )
                            })
                            .collect();
                        format!("{:?}=[{}]", p.key, items.join(" "))
                    })
                    .collect();
                format!("{:?} {}", i.index, parts.join(" "))
            })
            .collect();
        expect_test::expect![[r#"
            [
                "None [S(\"A\")]=[F:GPK+PK+SK+name] [S(\"B\")]=[E:GPK+PK+SK+name E:PK+SK+name]",
                "Some(\"G\") [S(\"G1\")]=[F:GPK+PK+SK E:GPK+PK+SK]",
            ]
        "#]]
        .assert_debug_eq(&summary);
    }
}
