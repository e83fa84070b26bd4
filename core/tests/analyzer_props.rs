//! The app's analysis as a design is edited (issue 19): `Analyzed::again` reuses the verdicts of the
//! patterns an edit cannot have changed. Whatever the edits, each of its analyses must be the
//! analysis of the design worked out whole, and it must say whether the analysis changed. The edits are the ones that make verdicts depend on
//! other entities: key templates copied from another entity (partitions that now collide, or no
//! longer do), templates and attributes removed (an entity leaving an index), patterns changed,
//! moved, added and removed, and now and then a table or an entity's name. And, since the
//! findings of each entity and pattern alone are kept too (issue 43), the edits their findings
//! depend on: hidden characters in names and values, a template variable no attribute fills
//! (KP002, whose fix reads the other entities), an attribute of that name given to another
//! entity and taken away, a description.

use std::path::Path;

use keyplan_core::analysis::{Analyzed, analyze_measured};
use keyplan_core::findings::Measured;
use keyplan_core::model::{
    AccessPattern, AttrType, Attribute, Design, Gsi, KeyAttribute, KeyType, Lsi, Projection,
    SortCondition, SortOp,
};
use keyplan_core::{KeyTemplate, examples, generated};
use proptest::prelude::*;

/// The designs edited: the examples (a collection table, a multi-tenant one, GSIs overloaded),
/// a generated one (20 GSIs, entities grouped under shared partitions) and the awslabs/mcp
/// schemas of the shared corpus (several tables each), when it is beside the checkout.
fn designs() -> Vec<Design> {
    let mut designs: Vec<Design> = examples::all().into_iter().map(|(_, d)| d).collect();
    designs.push(generated::design(12));
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .skip(2)
        .map(|dir| dir.join("shared/corpus/mcp-data-model"))
        .find(|dir| dir.is_dir());
    let mut schemas: Vec<_> = corpus
        .and_then(|dir| std::fs::read_dir(dir).ok())
        .into_iter()
        .flatten()
        .filter_map(|entry| Some(entry.ok()?.path()))
        .filter(|path| path.to_string_lossy().ends_with("_schema.json"))
        .collect();
    schemas.sort();
    for path in schemas {
        let text = std::fs::read_to_string(&path).expect("a readable corpus schema");
        let imported = keyplan_core::import::detect_and_import(&text).expect("the schema imports");
        designs.push(imported.design);
    }
    designs
}

/// One edit, its numbers taken modulo what the design has.
#[derive(Debug, Clone)]
enum Change {
    /// Entity `e`'s template for key `k` of its table becomes variant `v` of another entity's
    /// (`other`) template for it, its own with more text, a constant, or nothing.
    Template {
        e: usize,
        k: usize,
        other: usize,
        v: u8,
    },
    /// Entity `e` loses attribute `a`, or gains one named like a key of its table.
    Attribute { e: usize, a: usize, add: bool },
    /// Pattern `p` reads entity `e` instead, with other inputs, sort or consistency.
    Pattern { p: usize, e: usize, v: u8 },
    /// Patterns `p` and `q` change places; or `p` is removed, or copied under a new name.
    Move { p: usize, q: usize, v: u8 },
    /// Entity `e`'s volume: a change no verdict depends on.
    Volume { e: usize, items: u64 },
    /// A GSI or an LSI added to the first table, or an entity renamed.
    Frame { e: usize, v: u8 },
    /// What an entity's or a pattern's own findings read: entity `e`'s templates all become
    /// `LINK#{linkId}`, an attribute no one has (KP002); entity `other` gains or loses a
    /// `linkId` (KP002's fix then renames nothing, or e's id); a hidden character in an
    /// attribute value of `e` or an input of pattern `e`; `e`'s description.
    Unit { e: usize, other: usize, v: u8 },
}

fn change() -> impl Strategy<Value = Change> {
    let n = 0usize..64;
    prop_oneof![
        6 => (n.clone(), n.clone(), n.clone(), 0u8..5)
            .prop_map(|(e, k, other, v)| Change::Template { e, k, other, v }),
        2 => (n.clone(), n.clone(), any::<bool>()).prop_map(|(e, a, add)| Change::Attribute { e, a, add }),
        3 => (n.clone(), n.clone(), 0u8..5).prop_map(|(p, e, v)| Change::Pattern { p, e, v }),
        2 => (n.clone(), n.clone(), 0u8..3).prop_map(|(p, q, v)| Change::Move { p, q, v }),
        1 => (n.clone(), 1u64..1_000_000).prop_map(|(e, items)| Change::Volume { e, items }),
        1 => (n.clone(), 0u8..3).prop_map(|(e, v)| Change::Frame { e, v }),
        3 => (n.clone(), n, 0u8..6).prop_map(|(e, other, v)| Change::Unit { e, other, v }),
    ]
}

fn apply(design: &mut Design, change: &Change, step: usize) {
    let n_entities = design.entities.len();
    let n_patterns = design.patterns.len();
    if n_entities == 0 {
        return;
    }
    match *change {
        Change::Template { e, k, other, v } => {
            let e = e % n_entities;
            let Some(table) = design
                .tables
                .iter()
                .find(|t| t.name == design.entities[e].table)
            else {
                return;
            };
            let keys: Vec<String> = table
                .key_attributes()
                .iter()
                .map(|k| k.name.clone())
                .collect();
            let key = keys[k % keys.len()].clone();
            let theirs = design.entities[other % n_entities]
                .key_template(&key)
                .map(|t| t.source().to_string());
            let mine = design.entities[e]
                .key_template(&key)
                .map(|t| t.source().to_string());
            let source = match v {
                0 => theirs,
                1 => theirs.map(|t| format!("{t}#X")),
                2 => mine.map(|t| format!("{t}#{step}")),
                3 => Some("CONSTANT".to_string()),
                _ => None,
            };
            let keys = &mut design.entities[e].keys;
            match source {
                Some(source) => {
                    keys.insert(key, KeyTemplate::parse(&source));
                }
                None => {
                    keys.remove(&key);
                }
            }
        }
        Change::Attribute { e, a, add } => {
            let entity = &mut design.entities[e % n_entities];
            if add {
                let name = ["PK", "SK", "GSI1PK", "status", "createdAt"][a % 5];
                if entity.attribute(name).is_none() {
                    entity.attributes.push(Attribute::new(name, AttrType::S));
                }
            } else if !entity.attributes.is_empty() {
                let at = a % entity.attributes.len();
                entity.attributes.remove(at);
            }
        }
        Change::Pattern { p, e, v } => {
            if n_patterns == 0 {
                return;
            }
            let entity = design.entities[e % n_entities].clone();
            let pattern = &mut design.patterns[p % n_patterns];
            let attribute = entity
                .attributes
                .get(step % entity.attributes.len().max(1))
                .map(|a| a.name.clone());
            match v {
                0 => pattern.entities = vec![entity.name.clone()],
                1 => pattern.inputs = attribute.into_iter().collect(),
                2 => {
                    pattern.sort = attribute.map(|attribute| SortCondition {
                        attribute,
                        op: SortOp::Ge,
                    })
                }
                3 => pattern.consistent = !pattern.consistent,
                _ => pattern.entities.push(entity.name.clone()),
            }
        }
        Change::Move { p, q, v } => {
            if n_patterns == 0 {
                return;
            }
            let (p, q) = (p % n_patterns, q % n_patterns);
            match v {
                0 => design.patterns.swap(p, q),
                1 => {
                    design.patterns.remove(p);
                }
                _ => {
                    let mut copy: AccessPattern = design.patterns[p].clone();
                    copy.name = format!("{} copy {step}", copy.name);
                    design.patterns.insert(q, copy);
                }
            }
        }
        Change::Volume { e, items } => {
            let entity = &mut design.entities[e % n_entities];
            entity.volume = Some(keyplan_core::model::Volume {
                items,
                item_bytes: None,
                sampled: 0,
            });
        }
        Change::Unit { e, other, v } => {
            let (e, other) = (e % n_entities, other % n_entities);
            match v {
                0 => {
                    let entity = &mut design.entities[e];
                    for template in entity.keys.values_mut() {
                        *template = KeyTemplate::parse("LINK#{linkId}");
                    }
                    let id = keyplan_core::model::starting_id(&entity.name);
                    if entity.attribute(&id).is_none() {
                        entity.attributes.push(Attribute::new(id, AttrType::S));
                    }
                }
                1 => {
                    let entity = &mut design.entities[other];
                    if entity.attribute("linkId").is_none() {
                        entity
                            .attributes
                            .push(Attribute::new("linkId", AttrType::S));
                    }
                }
                2 => design.entities[other]
                    .attributes
                    .retain(|a| a.name != "linkId"),
                3 => {
                    if let Some(attribute) = design.entities[e].attributes.first_mut() {
                        attribute.values.push(format!("V\u{202e}{step}"));
                    }
                }
                4 => {
                    if n_patterns > 0 {
                        design.patterns[e % n_patterns]
                            .inputs
                            .push(format!("in\n{step}"));
                    }
                }
                _ => design.entities[e].description = format!("edited {step}"),
            }
        }
        Change::Frame { e, v } => match v {
            0 => {
                if let Some(table) = design.tables.first_mut() {
                    table.gsis.push(Gsi {
                        name: format!("Added{step}"),
                        partition_key: vec![KeyAttribute::new(format!("A{step}PK"), KeyType::S)],
                        sort_key: Vec::new(),
                        projection: Projection::All,
                    });
                }
            }
            1 => {
                if let Some(table) = design.tables.first_mut() {
                    table.lsis.push(Lsi {
                        name: format!("Local{step}"),
                        sort_key: KeyAttribute::new("createdAt", KeyType::S),
                        projection: Projection::All,
                    });
                }
            }
            _ => {
                let entity = &mut design.entities[e % n_entities];
                entity.name = format!("{}Renamed", entity.name);
            }
        },
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn every_analysis_is_the_whole_designs(
        which in 0usize..9,
        changes in prop::collection::vec(change(), 1..12),
    ) {
        let mut designs = designs();
        let mut design = designs.swap_remove(which % designs.len());
        let mut analyzed = Analyzed::new(&design, Some(&Measured::default()), None);
        let mut whole = analyze_measured(&design, Some(&Measured::default()));
        prop_assert_eq!(analyzed.analysis(), &whole);
        for (step, change) in changes.iter().enumerate() {
            apply(&mut design, change, step);
            let last = whole;
            whole = analyze_measured(&design, Some(&Measured::default()));
            let changed;
            (analyzed, changed) = analyzed.again(&design, Some(&Measured::default()), None);
            prop_assert_eq!(&analyzed.verdicts, &whole.verdicts, "after {:?}", change);
            prop_assert_eq!(analyzed.analysis(), &whole);
            prop_assert_eq!(changed, whole != last, "whether it changed, after {:?}", change);
        }
    }
}
