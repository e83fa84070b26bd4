//! Link version 5's tail (issue 40, issue 43): what version 4 refused or dropped, after its
//! filters, so a link opens as the very design that was shared.
//!
//! ```text
//! capacities  seq<varint table index, scaling, seq<str gsi, varint read, varint write,
//!             scaling>>: only provisioned tables with auto scaling or a GSI's own capacity
//! scaling     u8 flags (1 auto scaling, 2 reads, 4 writes, 8 reads' target, 16 writes'
//!             target), then for reads and writes when present: varint min, varint max,
//!             [num target]
//! vectors     seq<varint table index, seq<str name, name<attribute>, varint dimensions,
//!             u8 distance (COSINE EUCLIDEAN DOT_PRODUCT), projection>>
//! searches    seq<varint pattern index, u8 flags (1 dimensions, 2 index),
//!             name<attribute>, varint top k, str query, [varint dimensions], [str index]>
//! partiql     seq<varint pattern index, str statement>
//! hand items  seq<name<table>, name<entity>, u8 flags (1 replaces), [item replaces], item>
//! ```
//!
//! Indexes increase in every list, as in version 4's tails; every count is bounded by the bytes
//! left and every sample value by [`super::MAX_SAMPLE_VALUES`] before anything is allocated for it.
//! A capacity for an on-demand table is refused, saying where: such a table has none.

use std::collections::BTreeMap;

use super::{
    Interned, Reader, Tail, WireError, Writer, code, read_map, read_projection, read_tail,
    write_item, write_projection,
};
use crate::model::{
    AccessPattern, AutoScaling, Billing, Capacity, Distance, HandItem, Scaling, Table, VectorIndex,
    VectorSearch,
};

const AUTO_SCALING: u8 = 1;
const SCALES_READS: u8 = 2;
const SCALES_WRITES: u8 = 4;
const READ_TARGET: u8 = 8;
const WRITE_TARGET: u8 = 16;

const SEARCH_DIMENSIONS: u8 = 1;
const SEARCH_INDEX: u8 = 2;

const HAND_REPLACES: u8 = 1;

/// Version 5's distances, by wire code: never reorder, only append.
const DISTANCES: [Distance; 3] = Distance::ALL;

/// Writes the tail of `tables`, `patterns` and `hand_items`.
pub(super) fn write(
    w: &mut Writer,
    tables: &[Table],
    patterns: &[AccessPattern],
    hand_items: &[HandItem],
) {
    let capacities: Vec<(usize, &Option<AutoScaling>, &BTreeMap<String, Capacity>)> = tables
        .iter()
        .enumerate()
        .filter_map(|(i, t)| match &t.billing {
            Billing::Provisioned {
                auto_scaling,
                indexes,
                ..
            } if auto_scaling.is_some() || !indexes.is_empty() => Some((i, auto_scaling, indexes)),
            _ => None,
        })
        .collect();
    w.seq(&capacities, |w, (i, auto_scaling, indexes)| {
        w.count(*i);
        write_scaling(w, auto_scaling);
        let indexes: Vec<(&String, &Capacity)> = indexes.iter().collect();
        w.seq(&indexes, |w, (name, capacity)| {
            let Capacity {
                read,
                write,
                auto_scaling,
            } = capacity;
            w.str(name);
            w.varint(*read);
            w.varint(*write);
            write_scaling(w, auto_scaling);
        });
    });
    let vectors: Vec<(usize, &Vec<VectorIndex>)> = tables
        .iter()
        .enumerate()
        .filter(|(_, t)| !t.vector_indexes.is_empty())
        .map(|(i, t)| (i, &t.vector_indexes))
        .collect();
    w.seq(&vectors, |w, (i, indexes)| {
        w.count(*i);
        w.seq(indexes, |w, index| {
            let VectorIndex {
                name,
                attribute,
                dimensions,
                distance,
                projection,
            } = index;
            w.str(name);
            w.name(Interned::Attribute, attribute);
            w.varint(u64::from(*dimensions));
            w.u8(code(&DISTANCES, *distance));
            write_projection(w, projection);
        });
    });
    let searches: Vec<(usize, &VectorSearch)> = patterns
        .iter()
        .enumerate()
        .filter_map(|(i, p)| Some((i, p.vector.as_ref()?)))
        .collect();
    w.seq(&searches, |w, (i, search)| {
        let VectorSearch {
            attribute,
            top_k,
            query,
            dimensions,
            index,
        } = search;
        w.count(*i);
        let mut flags = 0;
        if dimensions.is_some() {
            flags |= SEARCH_DIMENSIONS;
        }
        if index.is_some() {
            flags |= SEARCH_INDEX;
        }
        w.u8(flags);
        w.name(Interned::Attribute, attribute);
        w.varint(u64::from(*top_k));
        w.str(query);
        if let Some(dimensions) = dimensions {
            w.varint(u64::from(*dimensions));
        }
        if let Some(index) = index {
            w.str(index);
        }
    });
    let statements: Vec<(usize, &String)> = patterns
        .iter()
        .enumerate()
        .filter_map(|(i, p)| Some((i, p.partiql.as_ref()?)))
        .collect();
    w.seq(&statements, |w, (i, statement)| {
        w.count(*i);
        w.str(statement);
    });
    w.seq(hand_items, |w, hand| {
        let HandItem {
            table,
            entity,
            replaces,
            item,
        } = hand;
        w.name(Interned::Table, table);
        w.name(Interned::Entity, entity);
        w.u8(if replaces.is_some() { HAND_REPLACES } else { 0 });
        if let Some(replaces) = replaces {
            write_item(w, replaces);
        }
        write_item(w, item);
    });
}

/// Reads [`write`]'s tail into `tables` and `patterns`; returns the items written by hand.
pub(super) fn read(
    r: &mut Reader,
    tables: &mut [Table],
    patterns: &mut [AccessPattern],
) -> Result<Vec<HandItem>, WireError> {
    let capacities = Tail {
        list: "table capacities",
        entry: "a capacity",
        entries: "capacities",
        of: "table",
        of_many: "tables",
        index: "a table's index",
    };
    read_tail(r, tables, capacities, |r, table| {
        let at = r.at;
        let scaling = read_scaling(r)?;
        let own = r.seq("GSI capacities", |r| {
            let name = r.str("a GSI's name")?;
            let read = r.varint("a GSI's provisioned reads")?;
            let write = r.varint("a GSI's provisioned writes")?;
            let auto_scaling = read_scaling(r)?;
            Ok((
                name,
                Capacity {
                    read,
                    write,
                    auto_scaling,
                },
            ))
        })?;
        let Billing::Provisioned {
            auto_scaling,
            indexes,
            ..
        } = &mut table.billing
        else {
            return Err(WireError {
                at,
                problem: format!(
                    "a capacity for table `{}`, which is on demand and has none",
                    table.name
                ),
            });
        };
        *auto_scaling = scaling;
        *indexes = own.into_iter().collect();
        Ok(())
    })?;
    let vectors = Tail {
        list: "tables' vector indexes",
        entry: "vector indexes",
        entries: "vector indexes",
        of: "table",
        of_many: "tables",
        index: "a table's index",
    };
    read_tail(r, tables, vectors, |r, table| {
        table.vector_indexes = r.seq("a table's vector indexes", |r| {
            Ok(VectorIndex {
                name: r.str("a vector index's name")?,
                attribute: r.name(Interned::Attribute, "a vector index's attribute")?,
                dimensions: r.u32("a vector index's dimensions")?,
                distance: r.pick(&DISTANCES, "distance metric")?,
                projection: read_projection(r)?,
            })
        })?;
        Ok(())
    })?;
    let searches = Tail {
        list: "vector searches",
        entry: "a vector search",
        entries: "vector searches",
        of: "pattern",
        of_many: "patterns",
        index: "a pattern's index",
    };
    read_tail(r, patterns, searches, |r, pattern| {
        let flags = r.flags(SEARCH_DIMENSIONS | SEARCH_INDEX, "vector search")?;
        pattern.vector = Some(VectorSearch {
            attribute: r.name(Interned::Attribute, "a vector search's attribute")?,
            top_k: r.u32("a vector search's top k")?,
            query: r.str("a vector search's query input")?,
            dimensions: r.when(flags & SEARCH_DIMENSIONS != 0, |r| {
                r.u32("a vector search's dimensions")
            })?,
            index: r.when(flags & SEARCH_INDEX != 0, |r| {
                r.str("a vector search's index")
            })?,
        });
        Ok(())
    })?;
    let statements = Tail {
        list: "PartiQL statements",
        entry: "a PartiQL statement",
        entries: "statements",
        of: "pattern",
        of_many: "patterns",
        index: "a pattern's index",
    };
    read_tail(r, patterns, statements, |r, pattern| {
        pattern.partiql = Some(r.str("a PartiQL statement")?);
        Ok(())
    })?;
    r.seq("items written by hand", |r| {
        let table = r.name(Interned::Table, "a hand-written item's table")?;
        let entity = r.name(Interned::Entity, "a hand-written item's entity")?;
        let flags = r.flags(HAND_REPLACES, "hand-written item")?;
        let replaces = r.when(flags & HAND_REPLACES != 0, |r| read_map(r, 0))?;
        Ok(HandItem {
            table,
            entity,
            replaces,
            item: read_map(r, 0)?,
        })
    })
}

/// Writes a table's or a GSI's auto scaling: its flags, then each dimension's bounds.
fn write_scaling(w: &mut Writer, auto_scaling: &Option<AutoScaling>) {
    let Some(AutoScaling { read, write }) = auto_scaling else {
        w.u8(0);
        return;
    };
    let mut flags = AUTO_SCALING;
    for (scaling, scales, target) in [
        (read, SCALES_READS, READ_TARGET),
        (write, SCALES_WRITES, WRITE_TARGET),
    ] {
        if let Some(scaling) = scaling {
            flags |= scales;
            if scaling.target.is_some() {
                flags |= target;
            }
        }
    }
    w.u8(flags);
    for scaling in [read, write].into_iter().flatten() {
        let Scaling { min, max, target } = scaling;
        w.varint(*min);
        w.varint(*max);
        if let Some(target) = target {
            w.num(*target);
        }
    }
}

/// Reads [`write_scaling`]'s bytes.
fn read_scaling(r: &mut Reader) -> Result<Option<AutoScaling>, WireError> {
    let at = r.at;
    let flags = r.flags(
        AUTO_SCALING | SCALES_READS | SCALES_WRITES | READ_TARGET | WRITE_TARGET,
        "capacity's auto scaling",
    )?;
    if flags & AUTO_SCALING == 0 {
        if flags != 0 {
            return Err(WireError {
                at,
                problem: format!("flags 0x{flags:02x} describe the bounds of no auto scaling"),
            });
        }
        return Ok(None);
    }
    let dimension = |r: &mut Reader, scales: u8, target: u8, word: &str| {
        if flags & target != 0 && flags & scales == 0 {
            return Err(WireError {
                at,
                problem: format!("auto scaling has a {word} target but no {word} bounds"),
            });
        }
        r.when(flags & scales != 0, |r| {
            Ok(Scaling {
                min: r.varint(&format!("auto scaling's least {word} capacity"))?,
                max: r.varint(&format!("auto scaling's most {word} capacity"))?,
                target: r.when(flags & target != 0, |r| {
                    r.finite(&format!("auto scaling's {word} target"))
                })?,
            })
        })
    };
    let read = dimension(r, SCALES_READS, READ_TARGET, "read")?;
    let write = dimension(r, SCALES_WRITES, WRITE_TARGET, "write")?;
    Ok(Some(AutoScaling { read, write }))
}
