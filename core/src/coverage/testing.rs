//! A compact text form of designs for the coverage and findings tests, and a plain-text form of
//! verdicts, so a hundred cases read like a table.
//!
//! ```text
//! table orders PK SK                      # a table: name, partition key, optional sort key
//! gsi GSI1 GSI1PK GSI1SK                  # on the last table; `a,b` for multi-attribute keys
//! lsi LSI1 LSI1SK
//! entity Order orderId customerId total:N status=NEW|DONE fc~12 | PK=CUSTOMER#{customerId} SK=ORDER#{orderId}
//! read by_status Order by status where createdAt > filter total >= desc order createdAt consistent rate 2000 page 100
//! put add_order Order rate 5 peak 3             # peak 3: the average rate is a third of 5
//! volume Order 2800000000 1400            # the entity's items in production, [mean bytes]
//! replicas eu-west-1 ap-south-1           # the last table is a global table in these too
//! vector ByEmbedding embedding 1536 COSINE  # a vector index of the last table
//! near similar Product embedding 10 dims 1536 index ByEmbedding  # a vector search, top 10
//! ```
//! A key attribute's type is `name:N`; `keys_only` ends a gsi line for that projection.

use crate::answer::Verdict;
use crate::model::*;
use crate::template::KeyTemplate;

/// `keys` as the text form writes a key attribute, `name:type` (the type in full: `name:S`),
/// joined by `separator`.
pub(crate) fn typed_keys(keys: &[KeyAttribute], separator: &str) -> String {
    keys.iter()
        .map(|k| format!("{}:{:?}", k.name, k.ty))
        .collect::<Vec<_>>()
        .join(separator)
}

pub(crate) fn design(text: &str) -> Design {
    let mut d = Design::new("test");
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let (head, keys) = line.split_once(" | ").unwrap_or((line, ""));
        let words: Vec<&str> = head.split_whitespace().collect();
        match words[0] {
            "table" => d.tables.push(Table {
                name: words[1].to_string(),
                partition_key: key_attr(words[2]),
                sort_key: words.get(3).map(|w| key_attr(w)),
                gsis: Vec::new(),
                lsis: Vec::new(),
                billing: Billing::OnDemand,
                ttl_attribute: None,
                replicas: Vec::new(),
                vector_indexes: Vec::new(),
            }),
            "gsi" => {
                let projection = if words.last() == Some(&"keys_only") {
                    Projection::KeysOnly
                } else {
                    Projection::All
                };
                let keys: Vec<&str> = words[2..]
                    .iter()
                    .copied()
                    .filter(|w| *w != "keys_only")
                    .collect();
                let attrs = |w: Option<&&str>| -> Vec<KeyAttribute> {
                    w.map(|w| w.split(',').map(key_attr).collect())
                        .unwrap_or_default()
                };
                let table = d.tables.last_mut().expect("a table first");
                table.gsis.push(Gsi {
                    name: words[1].to_string(),
                    partition_key: attrs(keys.first()),
                    sort_key: attrs(keys.get(1)),
                    projection,
                });
            }
            "lsi" => {
                let table = d.tables.last_mut().expect("a table first");
                table.lsis.push(Lsi {
                    name: words[1].to_string(),
                    sort_key: key_attr(words[2]),
                    projection: Projection::All,
                });
            }
            "entity" => {
                let table = d.tables.last().map(|t| t.name.clone()).unwrap_or_default();
                let attributes = words[2..].iter().map(|w| attribute(w)).collect();
                let keys = keys
                    .split_whitespace()
                    .filter_map(|kv| kv.split_once('='))
                    .map(|(k, v)| (k.to_string(), KeyTemplate::parse(v)))
                    .collect();
                d.entities.push(Entity {
                    name: words[1].to_string(),
                    table,
                    description: String::new(),
                    attributes,
                    keys,
                    volume: None,
                });
            }
            "read" | "put" | "update" | "delete" => d.patterns.push(pattern(&words)),
            "volume" => {
                let entity = d
                    .entities
                    .iter_mut()
                    .find(|e| e.name == words[1])
                    .expect("the entity first");
                entity.volume = Some(Volume {
                    items: words[2].parse().expect("an item count"),
                    item_bytes: words.get(3).map(|b| b.parse().expect("a size in bytes")),
                    sampled: 0,
                });
            }
            // `vector ByEmbedding embedding 1536 COSINE [provisioned]`
            "vector" => {
                let table = d.tables.last_mut().expect("a table first");
                table.vector_indexes.push(VectorIndex {
                    name: words[1].to_string(),
                    attribute: words[2].to_string(),
                    dimensions: words[3].parse().expect("dimensions"),
                    distance: words
                        .get(4)
                        .and_then(|w| Distance::ALL.into_iter().find(|d| d.as_str() == *w))
                        .unwrap_or_default(),
                    projection: Projection::KeysOnly,
                });
            }
            "provisioned" => {
                let table = d.tables.last_mut().expect("a table first");
                table.billing = Billing::provisioned(
                    words[1].parse().expect("read units"),
                    words[2].parse().expect("write units"),
                );
            }
            // `near similar Product embedding 10 [dims 1536] [index ByEmbedding] [by ...]`:
            // a read that is a vector search of the 10 nearest items.
            "near" => {
                let mut words = words.to_vec();
                let search_words: Vec<&str> = words.drain(3..5).collect();
                let mut search =
                    VectorSearch::new(search_words[0], search_words[1].parse().expect("top k"));
                let mut rest = Vec::new();
                let mut i = 3;
                while i < words.len() {
                    match words[i] {
                        "dims" => search.dimensions = words[i + 1].parse().ok(),
                        "index" => search.index = Some(words[i + 1].to_string()),
                        _ => {
                            rest.push(words[i]);
                            i += 1;
                            continue;
                        }
                    }
                    i += 2;
                }
                let mut head = vec!["read", words[1], words[2]];
                head.extend(rest);
                let mut p = pattern(&head);
                p.inputs.push(search.query.clone());
                p.inputs.retain(|i| !i.is_empty());
                p.vector = Some(search);
                d.patterns.push(p);
            }
            "replicas" => {
                let table = d.tables.last_mut().expect("a table first");
                table.replicas = words[1..].iter().map(|w| w.to_string()).collect();
            }
            other => panic!("unknown line kind `{other}`"),
        }
    }
    d
}

fn key_attr(word: &str) -> KeyAttribute {
    match word.split_once(':') {
        Some((name, "N")) => KeyAttribute::new(name, KeyType::N),
        Some((name, "B")) => KeyAttribute::new(name, KeyType::B),
        _ => KeyAttribute::new(name_of(word), KeyType::S),
    }
}

fn name_of(word: &str) -> &str {
    word.split([':', '=', '~']).next().unwrap_or(word)
}

fn attribute(word: &str) -> Attribute {
    let (rest, values) = match word.split_once('=') {
        Some((rest, values)) => (rest, values.split('|').map(str::to_string).collect()),
        None => (word, Vec::new()),
    };
    let (rest, distinct) = match rest.split_once('~') {
        Some((rest, n)) => (rest, n.parse().ok()),
        None => (rest, None),
    };
    let (name, ty) = match rest.split_once(':') {
        Some((name, "N")) => (name, AttrType::N),
        Some((name, "B")) => (name, AttrType::B),
        Some((name, "M")) => (name, AttrType::M),
        Some((name, "L")) => (name, AttrType::L),
        _ => (name_of(rest), AttrType::S),
    };
    let mut a = Attribute::new(name, ty);
    a.values = values;
    a.distinct = distinct;
    a.required = true;
    a
}

fn pattern(words: &[&str]) -> AccessPattern {
    let mut p = AccessPattern::read(words[1], &[], &[]);
    p.action = match words[0] {
        "put" => Action::Put,
        "update" => Action::Update,
        "delete" => Action::Delete,
        _ => Action::Read,
    };
    p.entities = words[2].split(',').map(str::to_string).collect();
    let mut i = 3;
    while i < words.len() {
        match words[i] {
            "by" => {
                p.inputs = words[i + 1].split(',').map(str::to_string).collect();
                i += 2;
            }
            "where" => {
                let op = words[i + 2].parse().unwrap_or(SortOp::BeginsWith);
                p.sort = Some(SortCondition {
                    attribute: words[i + 1].to_string(),
                    op,
                });
                i += 3;
            }
            // `filter status <>`, `filter tags contains`, `filter status in 3`
            "filter" => {
                let op = words[i + 2].parse().unwrap_or(FilterOp::Eq);
                let mut condition = FilterCondition::new(words[i + 1], op);
                i += 3;
                if op == FilterOp::In
                    && let Some(n) = words.get(i).and_then(|w| w.parse().ok())
                {
                    condition.count = Some(n);
                    i += 1;
                }
                p.filter.push(condition);
            }
            "desc" => {
                p.order = Order::Desc;
                i += 1;
            }
            "order" => {
                p.order_by = Some(words[i + 1].to_string());
                i += 2;
            }
            "consistent" => {
                p.consistent = true;
                i += 1;
            }
            "rate" => {
                p.rate = words[i + 1].parse().unwrap_or(1.0);
                i += 2;
            }
            "page" => {
                p.page_size = words[i + 1].parse().ok();
                i += 2;
            }
            "peak" => {
                p.peak_factor = words[i + 1].parse().unwrap_or(1.0);
                i += 2;
            }
            other => panic!("unknown pattern word `{other}`"),
        }
    }
    p
}

/// Prints the verdict of every pattern of the design in the text form, and checks it.
pub(crate) fn check(text: &str, expect: expect_test::Expect) {
    let d = design(text);
    let out: String = super::verdicts(&d).iter().map(show).collect();
    expect.assert_eq(&out);
}

/// A verdict as text: the operation and index, the key condition with its values, the order,
/// the shards, then the reasons and the suggestion.
pub(crate) fn show(v: &Verdict) -> String {
    let mut out = format!("{}: {}", v.pattern, v.operation.as_str());
    if let Some(index) = &v.index {
        out.push_str(&format!(" on {index}"));
    }
    if let Some(n) = v.shards {
        out.push_str(&format!(" x{n} shards"));
    }
    if !v.scan_forward {
        out.push_str(" (descending)");
    }
    out.push('\n');
    if let Some(kc) = &v.key_condition {
        out.push_str(&format!("  {}\n", kc.expression));
        for (name, value) in &kc.values {
            out.push_str(&format!("    {name} = {value}\n"));
        }
    }
    if let Some(filter) = &v.filter {
        out.push_str(&format!("  filter: {}\n", filter.expression));
        for (name, attribute) in &filter.names {
            out.push_str(&format!("    {name} = {attribute}\n"));
        }
        for (name, value) in &filter.values {
            out.push_str(&format!("    {name} = {value}\n"));
        }
    }
    if let Some(order) = &v.order {
        out.push_str(&format!("  order: {order}\n"));
    }
    for r in &v.reasons {
        out.push_str(&format!("  - {r}\n"));
    }
    for s in &v.suggestions {
        out.push_str(&format!("  suggestion: {s}\n"));
    }
    out
}
