use super::*;

// `fills` says what `key_template` finds: an own template, an attribute of the key's
// name, or neither.
#[test]
fn an_entity_fills_the_keys_it_has_a_template_for() {
    for (_, design) in crate::examples::all() {
        for entity in &design.entities {
            let names = design
                .tables
                .iter()
                .flat_map(|t| t.key_attributes())
                .map(|k| k.name.clone());
            let names = names.chain(entity.attributes.iter().map(|a| a.name.clone()));
            for name in names.chain(["nothing".to_string()]) {
                assert_eq!(
                    entity.fills(&name),
                    entity.key_template(&name).is_some(),
                    "{} {name}",
                    entity.name
                );
            }
        }
    }
}

// issue 14: each name is spelled once, and it is the design file's own (serde's).
#[test]
fn type_action_and_operator_names_read_back_and_match_the_file() {
    for ty in AttrType::ALL {
        assert_eq!(ty.as_str().parse::<AttrType>(), Ok(ty));
        assert_eq!(
            serde_json::to_string(&ty).unwrap_or_default(),
            format!("\"{}\"", ty.as_str())
        );
    }
    for action in Action::ALL {
        assert_eq!(action.as_str().parse::<Action>(), Ok(action));
        assert_eq!(
            serde_json::to_string(&action).unwrap_or_default(),
            format!("\"{}\"", action.as_str())
        );
    }
    for op in FilterOp::ALL {
        assert_eq!(op.as_str().parse::<FilterOp>(), Ok(op));
        assert_eq!(
            serde_json::to_string(&op).unwrap_or_default(),
            format!("\"{}\"", op.as_str())
        );
    }
    for op in SortOp::ALL {
        assert_eq!(op.as_str().parse::<SortOp>(), Ok(op));
        assert_eq!(
            serde_json::to_string(&op).unwrap_or_default(),
            format!("\"{}\"", op.as_str())
        );
    }
    assert_eq!(
        "bool".parse::<AttrType>(),
        Err(
            "`bool` is not an attribute type: one of S, N, B, BOOL, NULL, M, L, SS, NS, BS"
                .to_string()
        )
    );
    assert_eq!(
        "~".parse::<SortOp>(),
        Err(
            "`~` is not a sort-key operator: one of =, <, <=, >, >=, between, begins_with"
                .to_string()
        )
    );
}

// issue 13: the key attributes are deduplicated through a set and one is found without
// listing them all; both must keep the first of each name in index order (table, GSIs,
// LSIs), as the search through the list did, with its type.
#[test]
fn key_attributes_are_each_name_once_in_index_order_and_the_first_is_found() {
    let table = Table {
        name: "t".into(),
        partition_key: KeyAttribute::new("PK", KeyType::S),
        sort_key: Some(KeyAttribute::new("SK", KeyType::S)),
        gsis: vec![
            Gsi {
                name: "G1".into(),
                partition_key: vec![KeyAttribute::new("SK", KeyType::N)],
                sort_key: vec![KeyAttribute::new("G1SK", KeyType::N)],
                projection: Projection::All,
            },
            Gsi {
                name: "G2".into(),
                partition_key: vec![
                    KeyAttribute::new("a", KeyType::S),
                    KeyAttribute::new("G1SK", KeyType::S),
                ],
                sort_key: Vec::new(),
                projection: Projection::KeysOnly,
            },
        ],
        lsis: vec![Lsi {
            name: "L1".into(),
            sort_key: KeyAttribute::new("a", KeyType::B),
            projection: Projection::All,
        }],
        billing: Billing::OnDemand,
        ttl_attribute: None,
        replicas: Vec::new(),
        vector_indexes: Vec::new(),
    };
    let listed: Vec<String> = table
        .key_attributes()
        .iter()
        .map(|k| format!("{} {:?}", k.name, k.ty))
        .collect();
    assert_eq!(listed, ["PK S", "SK S", "G1SK N", "a S"]);
    for key in table.key_attributes() {
        assert_eq!(table.key_attribute(&key.name), Some(key));
    }
    assert_eq!(table.key_attribute("b"), None);
}

// issue 43 item 5: the Migrate tab and the inspector set an entity's items by one rule.
#[test]
fn a_count_typed_keeps_the_measured_size_and_no_count_removes_the_volume() {
    let measured = Volume {
        items: 1_200_000,
        item_bytes: Some(2_500),
        sampled: 1_000,
    };
    assert_eq!(
        Volume::with_items(Some(measured), Some(30_000)),
        Some(Volume {
            items: 30_000,
            ..measured
        })
    );
    assert_eq!(
        Volume::with_items(None, Some(30_000)),
        Some(Volume::items(30_000))
    );
    assert_eq!(Volume::with_items(Some(measured), None), None);
}
