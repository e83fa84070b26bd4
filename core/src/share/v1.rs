//! Link format versions 1 to 5: the byte layout of a design, written and read by hand.
//!
//! Version 2 is version 1 followed by the patterns' orders (`order_by`, which version 1 cannot
//! carry): `seq<varint pattern index, name<attribute>>`, indexes increasing. Version 3 (issue
//! 17) is version 2 followed by the entities' volumes (measured on a live table):
//! `seq<varint entity index, varint items, varint item bytes, varint sampled>`, indexes
//! increasing (an item size of 0: the sample's mean). Version 4 (issue 16) adds the billing
//! tail, [`write_billing`]: the tables' global-table replicas and the patterns' peak factors,
//! then the patterns' filters ([`write_filters`]). Version 5 (issue 40) adds [`v5`]'s tail: the
//! tables' auto scaling and GSI capacities, vector indexes and searches, PartiQL statements and
//! the items written by hand. Before the tails, every version's bytes are version 1's.
//!
//! Only this module knows the layout; the model knows nothing of it, so renaming or reordering
//! anything in [`crate::model`] cannot change what an old link means. Once released, version 1
//! never changes: not a field, not a flag bit, not a byte of [`dictionary`]. When the model
//! gains a field, this reader fills its default and the writer moves to a version 2 module;
//! [`super::decode`] keeps reading every version into the current model.
//!
//! Reading trusts nothing: every length and count is checked against the bytes that remain
//! before anything is allocated for it, unknown flag bits and enum values are refused, and
//! every error says what was expected at which byte. Writing destructures every model struct
//! without `..`, so a field added to the model fails to compile here until the link decides how
//! to carry it.
//!
//! ```text
//! varint     LEB128, at most 10 bytes; u32 fields must fit u32
//! str        UTF-8, then a 0xFF byte (UTF-8 never holds one): no length, and strings that
//!            start alike make long DEFLATE matches
//! name<K>    varint v: 0, a new name of kind K (table, key, entity, attribute, value) as a
//!            str, which joins K's list; else the name at index v - 1 in K's list
//! template   runs until a 0: 1, literal text as a str; v >= 2, `{` + attribute name v - 2
//!            + `}`
//! seq<T>     varint count, then the items
//! num        varint v: even, a whole number zigzag(v >> 1); odd, 8 bytes of f64 bits (LE)
//! texts      seq<str>
//! design     texts titles (the design's name, then each pattern's), texts descriptions (the
//!            design's, each entity's, each pattern's), then the structure, which takes its
//!            titles and descriptions from those lists in order: seq<table>, seq<entity>,
//!            seq<pattern>, layout, seq<name<entity>, seq<item>> samples
//! item       seq<name<attribute>, value>
//! value      u8 type, then: 0 S, 1 N name<value>; 2 B str; 3 false, 4 true, 5 NULL false,
//!            6 NULL true nothing; 7 M item; 8 L seq<value>; 9 SS, 10 NS, 11 BS
//!            seq<name<value>>; nested at most MAX_VALUE_DEPTH deep
//! layout     varint unit, seq<name<entity>, x, y>: unit 0, x and y are num; else each is a
//!            zigzag varint count of units (the writer picks the gcd of whole coordinates)
//! key        name<key>, u8 type (0 S, 1 N, 2 B)
//! table      name<table>, key pk, u8 flags (1 sort key, 2 provisioned, 4 ttl), [key sk],
//!            seq<gsi>, seq<lsi>, [varint read, varint write], [name<attribute> ttl]
//! gsi        str name, seq<key> pk, seq<key> sk, projection
//! lsi        str name, key sk, projection
//! projection u8 (0 ALL, 1 KEYS_ONLY, 2 INCLUDE then seq<name<attribute>>)
//! entity     name<entity>, name<table>, seq<attribute>,
//!            seq<name<key>, template>
//! attribute  name<attribute>, u8 flags (bits 0-3 type S N B BOOL NULL M L SS NS BS,
//!            16 required, 32 values, 64 distinct), [seq<name<value>>], [varint distinct]
//! pattern    u8 flags (bits 0-2 action read put update delete
//!            transact, 8 desc, 16 consistent, 32 sort, 64 page size, 128 condition),
//!            seq<name<entity>>, seq<name<attribute>> inputs, [name<attribute>, u8 op (= < <=
//!            > >= between begins_with)], num rate, [varint page size],
//!            seq<name<attribute>> changes, seq<write>, [str condition]
//! write      u8 flags (bits 0-2 action, 8 count, 16 condition), name<entity>, [varint count],
//!            [str condition], seq<name<attribute>> changes
//! ```
//!
//! References make a repeated name one byte, but a few bytes could then expand to a huge
//! design: the reader charges every referenced name to a budget of [`MAX_EXPANDED_BYTES`].

use std::collections::{BTreeMap, VecDeque};
use std::sync::LazyLock;

use crate::item::{AttributeValue, Item};
use crate::model::{
    AccessPattern, Action, AttrType, Attribute, Billing, CURRENT_VERSION, Design, Entity,
    FilterCondition, FilterOp, Gsi, KeyAttribute, KeyType, Lsi, Order, Point, Projection,
    SortCondition, SortOp, Table, Volume, WriteStep,
};
use crate::template::KeyTemplate;

mod v5;

/// Words the DEFLATE window starts with, so the first `CUSTOMER#`, `GSI1PK` or "newest first"
/// in a design is already a back-reference. Each run of words is written as it appears on the
/// wire: names as a new name (0, the text, 0xFF), template text as a literal run (1, the text,
/// 0xFF), conditions and index names as a str (the text, 0xFF), English as it is, so a match
/// covers the framing bytes too. Most frequent last: nearer words cost fewer bits. Generic
/// DynamoDB vocabulary and common English only, never text from a particular design. Part of
/// the version-1 format: never edit it once released.
const DICTIONARY_RUNS: [(&[u8], &str); 16] = [
    (
        NEW_NAME,
        "ttl expiresAt updatedAt deletedAt version timestamp type EntityType Detail Address Amount phone",
    ),
    (
        NEW_NAME,
        "description title count score rating category tags region tenantId sessionId token messageId",
    ),
    (
        NEW_NAME,
        "commentId postId productId accountId paymentId invoiceId shipmentId warehouseId sku",
    ),
    (
        LITERAL,
        "ACCOUNT# TENANT# PRODUCT# PAYMENT# INVOICE# SESSION# POST# COMMENT# MESSAGE# EVENT#",
    ),
    (
        LITERAL,
        "METADATA# PROFILE# DATE# TYPE# STATUS# SHARD# ITEM# USER# ORDER# CUSTOMER#",
    ),
    (
        b"",
        "attribute_exists(PK) attribute_not_exists(SK) attribute_not_exists(PK)",
    ),
    (
        NEW_NAME,
        "PENDING ACTIVE PROCESSING SHIPPED DELIVERED CANCELLED CREATED COMPLETED",
    ),
    (
        ENGLISH,
        "about after all also an any as at be because been but can could day do each even every ",
    ),
    (
        ENGLISH,
        "first for from get give go have her his how if into it its just know like look make many ",
    ),
    (
        ENGLISH,
        "more most new no not now only other our out over people say see she so some take than ",
    ),
    (
        ENGLISH,
        "that their them then there these they think this time two up us use want way we well what ",
    ),
    (ENGLISH, "when which who will work would year you your "),
    (
        ENGLISH,
        "Get List Create Update Delete by for of the and in to a is per with from on one table ",
    ),
    (
        NEW_NAME,
        "quantity price total amount name email userId itemId orderId customerId createdAt status date",
    ),
    (b"", "LSI1 GSI3 GSI2 GSI1"),
    (NEW_NAME, "GSI3PK GSI3SK GSI2PK GSI2SK GSI1PK GSI1SK PK SK"),
];

/// How a dictionary run's words are framed: as new names, as template literals, as English.
const NEW_NAME: &[u8] = b"\x00";
const LITERAL: &[u8] = b"\x01";
const ENGLISH: &[u8] = b"english";

/// The preset DEFLATE dictionary: [`DICTIONARY_RUNS`] framed as on the wire.
pub(super) fn dictionary() -> &'static [u8] {
    static DICTIONARY: LazyLock<Vec<u8>> = LazyLock::new(|| {
        let mut bytes = Vec::new();
        for (frame, words) in DICTIONARY_RUNS {
            if frame == ENGLISH {
                bytes.extend_from_slice(words.as_bytes());
                continue;
            }
            for word in words.split(' ') {
                bytes.extend_from_slice(frame);
                bytes.extend_from_slice(word.as_bytes());
                bytes.push(END_OF_TEXT);
            }
        }
        bytes
    });
    &DICTIONARY
}

/// Why version-1 bytes do not make a design: what was expected, at which byte.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct WireError {
    pub at: usize,
    pub problem: String,
}

/// The bytes of `design` in version 5's layout (version 1's, then the patterns' orders, the
/// entities' volumes, then the billing tail, the patterns' filters and [`v5`]'s tail). Its `version` (the
/// design-file format) does not travel: a decoded link is always a current design.
pub(super) fn write(design: &Design) -> Vec<u8> {
    let Design {
        version: _,
        name,
        description,
        tables,
        entities,
        patterns,
        layout,
        samples,
        hand_items,
    } = design;
    let mut w = Writer::default();
    w.prose(TITLE, name);
    w.prose(DESCRIPTION, description);
    w.seq(tables, write_table);
    w.seq(entities, write_entity);
    w.seq(patterns, write_pattern);
    write_layout(&mut w, layout);
    w.count(samples.len());
    for (entity, items) in samples {
        w.name(Interned::Entity, entity);
        w.seq(items, write_item);
    }
    let orders: Vec<(usize, &String)> = patterns
        .iter()
        .enumerate()
        .filter_map(|(i, p)| Some((i, p.order_by.as_ref()?)))
        .collect();
    w.seq(&orders, |w, (i, attribute)| {
        w.count(*i);
        w.name(Interned::Attribute, attribute);
    });
    let volumes: Vec<(usize, &Volume)> = entities
        .iter()
        .enumerate()
        .filter_map(|(i, e)| Some((i, e.volume.as_ref()?)))
        .collect();
    w.seq(&volumes, |w, (i, volume)| {
        let Volume {
            items,
            item_bytes,
            sampled,
        } = volume;
        w.count(*i);
        w.varint(*items);
        // 0: the sample's mean (no item has 0 bytes; a measured volume always has a size).
        w.varint(item_bytes.unwrap_or(0));
        w.varint(*sampled);
    });
    write_billing(&mut w, tables, patterns);
    write_filters(&mut w, patterns);
    v5::write(&mut w, tables, patterns, hand_items);
    let mut whole = Writer::default();
    for texts in &w.prose {
        whole.seq(texts, |whole, text| whole.str(text));
    }
    whole.bytes.append(&mut w.bytes);
    whole.bytes
}

/// The design in version-`version` (1 to 5) `bytes`, which must be consumed exactly.
pub(super) fn read(bytes: &[u8], version: u32) -> Result<Design, WireError> {
    let mut r = Reader {
        bytes,
        at: 0,
        names: Default::default(),
        budget: MAX_EXPANDED_BYTES,
        values_left: MAX_SAMPLE_VALUES,
        prose: Default::default(),
    };
    for kind in [TITLE, DESCRIPTION] {
        r.prose[kind] = r.seq("texts", |r| r.str("a text"))?.into();
    }
    let name = r.prose(TITLE, "the design's name")?;
    let description = r.prose(DESCRIPTION, "the design's description")?;
    let tables = r.seq("tables", read_table)?;
    let entities = r.seq("entities", read_entity)?;
    let mut patterns = r.seq("patterns", read_pattern)?;
    let layout = read_layout(&mut r)?;
    let mut samples = BTreeMap::new();
    let n_samples = r.count("sampled entities")?;
    for _ in 0..n_samples {
        let entity = r.name(Interned::Entity, "a sampled entity")?;
        let items = r.seq("sample items", |r| read_map(r, 0))?;
        samples.insert(entity, items);
    }
    if version >= 2 {
        let orders = Tail {
            list: "pattern orders",
            entry: "an order",
            entries: "orders",
            of: "pattern",
            of_many: "patterns",
            index: "a pattern's index",
        };
        read_tail(&mut r, &mut patterns, orders, |r, pattern| {
            pattern.order_by = Some(r.name(Interned::Attribute, "an order's attribute")?);
            Ok(())
        })?;
    }
    let mut entities = entities;
    if version >= 3 {
        let volumes = Tail {
            list: "entity volumes",
            entry: "a volume",
            entries: "volumes",
            of: "entity",
            of_many: "entities",
            index: "an entity's index",
        };
        read_tail(&mut r, &mut entities, volumes, |r, entity| {
            entity.volume = Some(Volume {
                items: r.varint("an entity's item count")?,
                item_bytes: Some(r.varint("an entity's item size")?).filter(|&bytes| bytes > 0),
                sampled: r.varint("an entity's sampled items")?,
            });
            Ok(())
        })?;
    }
    let mut tables = tables;
    if version >= 4 {
        read_billing(&mut r, &mut tables, &mut patterns)?;
    }
    if version >= 4 {
        read_filters(&mut r, &mut patterns)?;
    }
    let hand_items = if version >= 5 {
        v5::read(&mut r, &mut tables, &mut patterns)?
    } else {
        Vec::new()
    };
    let left_over = r.prose.iter().map(VecDeque::len).sum::<usize>();
    if left_over > 0 {
        return Err(WireError {
            at: r.at,
            problem: format!(
                "{} texts are left over after the design's names and descriptions",
                left_over
            ),
        });
    }
    if r.at != bytes.len() {
        return Err(WireError {
            at: r.at,
            problem: format!("{} unexpected bytes follow the design", bytes.len() - r.at),
        });
    }
    Ok(Design {
        version: CURRENT_VERSION,
        name,
        description,
        tables,
        entities,
        patterns,
        layout,
        samples,
        hand_items,
    })
}

// An enum value's wire code is its position in these lists; all but the key types' are the
// model's `ALL` lists, which is why those are append-only.
const KEY_TYPES: [KeyType; 3] = [KeyType::S, KeyType::N, KeyType::B];
const ATTR_TYPES: [AttrType; 10] = AttrType::ALL;
const ACTIONS: [Action; 5] = Action::ALL;
/// Version 4's filter operators, by wire code: never reorder, only append.
const FILTER_OPS: [FilterOp; 12] = FilterOp::ALL;
/// A filter condition's wire byte: its operator's code, and this bit when a count follows.
const FILTER_COUNT: u8 = 0x80;

/// Version 4's tail: the patterns' filters (issue 16),
/// `seq<varint pattern index, seq<name<attribute>, u8 op | FILTER_COUNT, [varint count]>>`,
/// pattern indexes increasing, only patterns with a filter.
fn write_filters(w: &mut Writer, patterns: &[AccessPattern]) {
    let filtered: Vec<(usize, &Vec<FilterCondition>)> = patterns
        .iter()
        .enumerate()
        .filter(|(_, p)| !p.filter.is_empty())
        .map(|(i, p)| (i, &p.filter))
        .collect();
    w.seq(&filtered, |w, (i, conditions)| {
        w.count(*i);
        w.seq(conditions, |w, condition| {
            let FilterCondition {
                attribute,
                op,
                count,
            } = condition;
            w.name(Interned::Attribute, attribute);
            let mut byte = code(&FILTER_OPS, *op);
            if count.is_some() {
                byte |= FILTER_COUNT;
            }
            w.u8(byte);
            if let Some(count) = count {
                w.varint(u64::from(*count));
            }
        });
    });
}

/// Reads [`write_filters`]'s tail into `patterns`.
fn read_filters(r: &mut Reader, patterns: &mut [AccessPattern]) -> Result<(), WireError> {
    let filters = Tail {
        list: "pattern filters",
        entry: "a filter",
        entries: "filters",
        of: "pattern",
        of_many: "patterns",
        index: "a pattern's index",
    };
    read_tail(r, patterns, filters, |r, pattern| {
        pattern.filter = r.seq("a pattern's filter conditions", |r| {
            let attribute = r.name(Interned::Attribute, "a filter condition's attribute")?;
            let at = r.at;
            let byte = r.u8("a filter operator")?;
            let op = FILTER_OPS
                .get(usize::from(byte & !FILTER_COUNT))
                .copied()
                .ok_or_else(|| WireError {
                    at,
                    problem: format!("{} is not a filter operator", byte & !FILTER_COUNT),
                })?;
            let count = r.when(byte & FILTER_COUNT != 0, |r| r.u32("an in's value count"))?;
            Ok(FilterCondition {
                attribute,
                op,
                count,
            })
        })?;
        Ok(())
    })
}

const SORT_OPS: [SortOp; 7] = SortOp::ALL;

/// The wire code of `value` in `table`. Each table lists every variant, so this never misses.
fn code<T: PartialEq + Copy>(table: &[T], value: T) -> u8 {
    table.iter().position(|v| *v == value).unwrap_or(0) as u8
}

fn write_key(w: &mut Writer, key: &KeyAttribute) {
    let KeyAttribute { name, ty } = key;
    w.name(Interned::Key, name);
    w.u8(code(&KEY_TYPES, *ty));
}

fn read_key(r: &mut Reader) -> Result<KeyAttribute, WireError> {
    let name = r.name(Interned::Key, "a key attribute's name")?;
    let ty = r.pick(&KEY_TYPES, "key type")?;
    Ok(KeyAttribute { name, ty })
}

fn write_projection(w: &mut Writer, projection: &Projection) {
    match projection {
        Projection::All => w.u8(0),
        Projection::KeysOnly => w.u8(1),
        Projection::Include { attributes } => {
            w.u8(2);
            w.seq(attributes, |w, a| w.name(Interned::Attribute, a));
        }
    }
}

fn read_projection(r: &mut Reader) -> Result<Projection, WireError> {
    let at = r.at;
    match r.u8("a projection")? {
        0 => Ok(Projection::All),
        1 => Ok(Projection::KeysOnly),
        2 => Ok(Projection::Include {
            attributes: r.seq("projected attributes", |r| {
                r.name(Interned::Attribute, "a projected attribute")
            })?,
        }),
        n => Err(WireError {
            at,
            problem: format!("{n} is not a projection"),
        }),
    }
}

const TABLE_SORT_KEY: u8 = 1;
const TABLE_PROVISIONED: u8 = 2;
const TABLE_TTL: u8 = 4;

fn write_table(w: &mut Writer, table: &Table) {
    let Table {
        name,
        partition_key,
        sort_key,
        gsis,
        lsis,
        billing,
        ttl_attribute,
        // Version 4's tail, after the volumes: see [`write_billing`].
        replicas: _,
        // Version 5's tail: see [`v5`].
        vector_indexes: _,
    } = table;
    w.name(Interned::Table, name);
    write_key(w, partition_key);
    let mut flags = 0;
    if sort_key.is_some() {
        flags |= TABLE_SORT_KEY;
    }
    if matches!(billing, Billing::Provisioned { .. }) {
        flags |= TABLE_PROVISIONED;
    }
    if ttl_attribute.is_some() {
        flags |= TABLE_TTL;
    }
    w.u8(flags);
    if let Some(sort_key) = sort_key {
        write_key(w, sort_key);
    }
    w.seq(gsis, |w, gsi| {
        let Gsi {
            name,
            partition_key,
            sort_key,
            projection,
        } = gsi;
        w.str(name);
        w.seq(partition_key, write_key);
        w.seq(sort_key, write_key);
        write_projection(w, projection);
    });
    w.seq(lsis, |w, lsi| {
        let Lsi {
            name,
            sort_key,
            projection,
        } = lsi;
        w.str(name);
        write_key(w, sort_key);
        write_projection(w, projection);
    });
    // Its auto scaling and GSI capacities: version 5's tail, see [`v5`].
    if let Billing::Provisioned { read, write, .. } = billing {
        w.varint(*read);
        w.varint(*write);
    }
    if let Some(ttl) = ttl_attribute {
        w.name(Interned::Attribute, ttl);
    }
}

fn read_table(r: &mut Reader) -> Result<Table, WireError> {
    let name = r.name(Interned::Table, "a table's name")?;
    let partition_key = read_key(r)?;
    let flags = r.flags(TABLE_SORT_KEY | TABLE_PROVISIONED | TABLE_TTL, "table")?;
    let sort_key = r.when(flags & TABLE_SORT_KEY != 0, read_key)?;
    let mut table = Table::new(name, partition_key, sort_key);
    table.gsis = r.seq("GSIs", |r| {
        Ok(Gsi {
            name: r.str("a GSI's name")?,
            partition_key: r.seq("partition key attributes", read_key)?,
            sort_key: r.seq("sort key attributes", read_key)?,
            projection: read_projection(r)?,
        })
    })?;
    table.lsis = r.seq("LSIs", |r| {
        Ok(Lsi {
            name: r.str("an LSI's name")?,
            sort_key: read_key(r)?,
            projection: read_projection(r)?,
        })
    })?;
    if flags & TABLE_PROVISIONED != 0 {
        let read = r.varint("provisioned reads")?;
        table.billing = Billing::provisioned(read, r.varint("provisioned writes")?);
    }
    table.ttl_attribute = r.when(flags & TABLE_TTL != 0, |r| {
        r.name(Interned::Attribute, "the TTL attribute")
    })?;
    Ok(table)
}

const ATTR_TYPE_MASK: u8 = 0x0f;
const ATTR_REQUIRED: u8 = 16;
const ATTR_VALUES: u8 = 32;
const ATTR_DISTINCT: u8 = 64;

fn write_entity(w: &mut Writer, entity: &Entity) {
    let Entity {
        name,
        table,
        description,
        attributes,
        keys,
        // Written after the orders (version 3), so versions 1 and 2 read as they always did.
        volume: _,
    } = entity;
    w.name(Interned::Entity, name);
    w.name(Interned::Table, table);
    w.prose(DESCRIPTION, description);
    w.seq(attributes, |w, attribute| {
        let Attribute {
            name,
            ty,
            required,
            values,
            distinct,
        } = attribute;
        w.name(Interned::Attribute, name);
        let mut flags = code(&ATTR_TYPES, *ty);
        if *required {
            flags |= ATTR_REQUIRED;
        }
        if !values.is_empty() {
            flags |= ATTR_VALUES;
        }
        if distinct.is_some() {
            flags |= ATTR_DISTINCT;
        }
        w.u8(flags);
        if !values.is_empty() {
            w.seq(values, |w, v| w.name(Interned::Value, v));
        }
        if let Some(distinct) = distinct {
            w.varint(*distinct);
        }
    });
    w.count(keys.len());
    for (key, template) in keys {
        w.name(Interned::Key, key);
        w.template(template.source());
    }
}

fn read_entity(r: &mut Reader) -> Result<Entity, WireError> {
    let name = r.name(Interned::Entity, "an entity's name")?;
    let table = r.name(Interned::Table, "an entity's table")?;
    let description = r.prose(DESCRIPTION, "an entity's description")?;
    let attributes = r.seq("attributes", |r| {
        let name = r.name(Interned::Attribute, "an attribute's name")?;
        let at = r.at;
        let flags = r.u8("an attribute's flags")?;
        if flags & !(ATTR_TYPE_MASK | ATTR_REQUIRED | ATTR_VALUES | ATTR_DISTINCT) != 0 {
            return Err(WireError {
                at,
                problem: format!("unknown flags 0x{flags:02x} on attribute `{name}`"),
            });
        }
        let ty = *ATTR_TYPES
            .get(usize::from(flags & ATTR_TYPE_MASK))
            .ok_or_else(|| WireError {
                at,
                problem: format!(
                    "{} is not an attribute type (attribute `{name}`)",
                    flags & ATTR_TYPE_MASK
                ),
            })?;
        let values = if flags & ATTR_VALUES != 0 {
            r.seq("values", |r| r.name(Interned::Value, "a value"))?
        } else {
            Vec::new()
        };
        let distinct = r.when(flags & ATTR_DISTINCT != 0, |r| r.varint("a distinct count"))?;
        Ok(Attribute {
            name,
            ty,
            required: flags & ATTR_REQUIRED != 0,
            values,
            distinct,
        })
    })?;
    let n_keys = r.count("key templates")?;
    let mut keys = BTreeMap::new();
    for _ in 0..n_keys {
        let key = r.name(Interned::Key, "a key attribute's name")?;
        // Parsed here, once; a bad template keeps its source and diagnostics.
        let template = KeyTemplate::parse(&r.template()?);
        keys.insert(key, template);
    }
    Ok(Entity {
        name,
        table,
        description,
        attributes,
        keys,
        volume: None,
    })
}

const ACTION_MASK: u8 = 0x07;
const PATTERN_DESC: u8 = 8;
const PATTERN_CONSISTENT: u8 = 16;
const PATTERN_SORT: u8 = 32;
const PATTERN_PAGE_SIZE: u8 = 64;
const PATTERN_CONDITION: u8 = 128;
const WRITE_COUNT: u8 = 8;
const WRITE_CONDITION: u8 = 16;

/// The action in the low bits of a pattern's or a write's flags, read at byte `at`.
fn action_of(flags: u8, at: usize) -> Result<Action, WireError> {
    let code = flags & ACTION_MASK;
    ACTIONS
        .get(usize::from(code))
        .copied()
        .ok_or_else(|| WireError {
            at,
            problem: format!("{code} is not an action"),
        })
}

/// The words of one tail's errors: `a volume for entity 7, but there are 3 entities and
/// volumes come by increasing entity`.
struct Tail {
    list: &'static str,
    entry: &'static str,
    entries: &'static str,
    of: &'static str,
    of_many: &'static str,
    /// What the index is called in an error: `an entity's index`.
    index: &'static str,
}

/// Reads a tail, `seq<varint index, entry>`: each entry, read by `read` into the item at its
/// index of `items`; indexes must increase and name an item. An index is not a count: it is
/// bounded by the items, not by the bytes left.
fn read_tail<T>(
    r: &mut Reader,
    items: &mut [T],
    words: Tail,
    read: impl Fn(&mut Reader, &mut T) -> Result<(), WireError>,
) -> Result<(), WireError> {
    let n_entries = r.count(words.list)?;
    let mut previous: Option<usize> = None;
    let n_items = items.len();
    for _ in 0..n_entries {
        let at = r.at;
        let index = usize::try_from(r.varint(words.index)?).unwrap_or(usize::MAX);
        let in_order = previous.is_none_or(|p| index > p);
        let Some(item) = items.get_mut(index).filter(|_| in_order) else {
            return Err(WireError {
                at,
                problem: format!(
                    "{} for {} {index}, but there are {n_items} {} and {} come by increasing {}",
                    words.entry, words.of, words.of_many, words.entries, words.of
                ),
            });
        };
        read(r, item)?;
        previous = Some(index);
    }
    Ok(())
}

/// Version 4's billing tail (issue 16), after the volumes: the tables' global-table replicas,
/// `seq<varint table index, seq<str region>>`, then the patterns' peak factors other than 1,
/// `seq<varint pattern index, num factor>`, indexes increasing in both.
fn write_billing(w: &mut Writer, tables: &[Table], patterns: &[AccessPattern]) {
    let replicated: Vec<(usize, &Vec<String>)> = tables
        .iter()
        .enumerate()
        .filter(|(_, t)| !t.replicas.is_empty())
        .map(|(i, t)| (i, &t.replicas))
        .collect();
    w.seq(&replicated, |w, (i, regions)| {
        w.count(*i);
        w.seq(regions, |w, region| w.str(region));
    });
    let peaks: Vec<(usize, f64)> = patterns
        .iter()
        .enumerate()
        .filter(|(_, p)| p.peak_factor != 1.0)
        .map(|(i, p)| (i, p.peak_factor))
        .collect();
    w.seq(&peaks, |w, (i, factor)| {
        w.count(*i);
        w.num(*factor);
    });
}

/// Reads [`write_billing`]'s tail into `tables` and `patterns`.
fn read_billing(
    r: &mut Reader,
    tables: &mut [Table],
    patterns: &mut [AccessPattern],
) -> Result<(), WireError> {
    let replicas = Tail {
        list: "replicated tables",
        entry: "replicas",
        entries: "replicas",
        of: "table",
        of_many: "tables",
        index: "a table's index",
    };
    read_tail(r, tables, replicas, |r, table| {
        table.replicas = r.seq("a table's replica Regions", |r| r.str("a Region"))?;
        Ok(())
    })?;
    let peaks = Tail {
        list: "pattern peak factors",
        entry: "a peak factor",
        entries: "peak factors",
        of: "pattern",
        of_many: "patterns",
        index: "a pattern's index",
    };
    read_tail(r, patterns, peaks, |r, pattern| {
        pattern.peak_factor = r.finite("a pattern's peak factor")?;
        Ok(())
    })?;
    Ok(())
}

fn write_pattern(w: &mut Writer, pattern: &AccessPattern) {
    let AccessPattern {
        name,
        description,
        action,
        entities,
        inputs,
        sort,
        order,
        // Carried after the samples, in version 2.
        order_by: _,
        // Carried after the volumes, in version 4.
        filter: _,
        consistent,
        rate,
        // Version 4's tail, after the volumes: see [`write_billing`].
        peak_factor: _,
        page_size,
        changes,
        writes,
        condition,
        // Version 5's tail: see [`v5`].
        vector: _,
        partiql: _,
    } = pattern;
    w.prose(TITLE, name);
    w.prose(DESCRIPTION, description);
    let mut flags = code(&ACTIONS, *action);
    if *order == Order::Desc {
        flags |= PATTERN_DESC;
    }
    if *consistent {
        flags |= PATTERN_CONSISTENT;
    }
    if sort.is_some() {
        flags |= PATTERN_SORT;
    }
    if page_size.is_some() {
        flags |= PATTERN_PAGE_SIZE;
    }
    if condition.is_some() {
        flags |= PATTERN_CONDITION;
    }
    w.u8(flags);
    w.seq(entities, |w, e| w.name(Interned::Entity, e));
    w.seq(inputs, |w, i| w.name(Interned::Attribute, i));
    if let Some(SortCondition { attribute, op }) = sort {
        w.name(Interned::Attribute, attribute);
        w.u8(code(&SORT_OPS, *op));
    }
    w.num(*rate);
    if let Some(page_size) = page_size {
        w.varint(u64::from(*page_size));
    }
    w.seq(changes, |w, c| w.name(Interned::Attribute, c));
    w.seq(writes, |w, step| {
        let WriteStep {
            action,
            entity,
            count,
            condition,
            changes,
        } = step;
        let mut flags = code(&ACTIONS, *action);
        if *count != 1 {
            flags |= WRITE_COUNT;
        }
        if condition.is_some() {
            flags |= WRITE_CONDITION;
        }
        w.u8(flags);
        w.name(Interned::Entity, entity);
        if *count != 1 {
            w.varint(u64::from(*count));
        }
        if let Some(condition) = condition {
            w.str(condition);
        }
        w.seq(changes, |w, c| w.name(Interned::Attribute, c));
    });
    if let Some(condition) = condition {
        w.str(condition);
    }
}

fn read_pattern(r: &mut Reader) -> Result<AccessPattern, WireError> {
    let name = r.prose(TITLE, "a pattern's name")?;
    let description = r.prose(DESCRIPTION, "a pattern's description")?;
    let at = r.at;
    let flags = r.u8("a pattern's flags")?;
    let action = action_of(flags, at)?;
    let entities = r.seq("a pattern's entities", |r| {
        r.name(Interned::Entity, "an entity name")
    })?;
    let inputs = r.seq("a pattern's inputs", |r| {
        r.name(Interned::Attribute, "an input")
    })?;
    let sort = r.when(flags & PATTERN_SORT != 0, |r| {
        Ok(SortCondition {
            attribute: r.name(Interned::Attribute, "a sort condition's attribute")?,
            op: r.pick(&SORT_OPS, "sort operator")?,
        })
    })?;
    let rate = r.finite(&format!("the rate of pattern `{name}`"))?;
    let page_size = r.when(flags & PATTERN_PAGE_SIZE != 0, |r| r.u32("a page size"))?;
    let changes = r.seq("a pattern's changes", |r| {
        r.name(Interned::Attribute, "a changed attribute")
    })?;
    let writes = r.seq("transaction writes", |r| {
        let at = r.at;
        let flags = r.u8("a write's flags")?;
        if flags & !(ACTION_MASK | WRITE_COUNT | WRITE_CONDITION) != 0 {
            return Err(WireError {
                at,
                problem: format!("unknown flags 0x{flags:02x} on a transaction write"),
            });
        }
        let action = action_of(flags, at)?;
        let entity = r.name(Interned::Entity, "a write's entity")?;
        let count = if flags & WRITE_COUNT != 0 {
            r.u32("a write's count")?
        } else {
            1
        };
        let condition = r.when(flags & WRITE_CONDITION != 0, |r| {
            r.str("a write's condition")
        })?;
        let changes = r.seq("a write's changes", |r| {
            r.name(Interned::Attribute, "a changed attribute")
        })?;
        Ok(WriteStep {
            action,
            entity,
            count,
            condition,
            changes,
        })
    })?;
    let condition = r.when(flags & PATTERN_CONDITION != 0, |r| {
        r.str("a pattern's condition")
    })?;
    Ok(AccessPattern {
        name,
        description,
        action,
        entities,
        inputs,
        sort,
        order: if flags & PATTERN_DESC != 0 {
            Order::Desc
        } else {
            Order::Asc
        },
        order_by: None,
        filter: Vec::new(),
        consistent: flags & PATTERN_CONSISTENT != 0,
        rate,
        peak_factor: 1.0,
        page_size,
        changes,
        writes,
        condition,
        vector: None,
        partiql: None,
    })
}

/// Ends every string on the wire: a byte UTF-8 never contains, so text needs no length and no
/// escaping, and strings that start alike (`Get order…`, `Get customer…`) make long DEFLATE
/// matches (measured shorter than length prefixes on the examples and the corpus).
const END_OF_TEXT: u8 = 0xff;

/// The two runs of text ahead of the structure: titles (the design's and the patterns' names),
/// then descriptions. Titles sit together because they read alike; so do descriptions.
const TITLE: usize = 0;
const DESCRIPTION: usize = 1;

/// How deep sample values may nest: as deep as a design file can hold (serde_json's limit).
const MAX_VALUE_DEPTH: usize = 128;

const VALUE_S: u8 = 0;
const VALUE_N: u8 = 1;
const VALUE_B: u8 = 2;
const VALUE_FALSE: u8 = 3;
const VALUE_TRUE: u8 = 4;
const VALUE_NULL_FALSE: u8 = 5;
const VALUE_NULL: u8 = 6;
const VALUE_M: u8 = 7;
const VALUE_L: u8 = 8;
const VALUE_SS: u8 = 9;
const VALUE_NS: u8 = 10;
const VALUE_BS: u8 = 11;

fn write_item(w: &mut Writer, item: &Item) {
    w.count(item.len());
    for (attribute, value) in item {
        w.name(Interned::Attribute, attribute);
        write_value(w, value);
    }
}

fn write_value(w: &mut Writer, value: &AttributeValue) {
    match value {
        AttributeValue::S(s) => {
            w.u8(VALUE_S);
            w.name(Interned::Value, s);
        }
        AttributeValue::N(n) => {
            w.u8(VALUE_N);
            w.name(Interned::Value, n);
        }
        AttributeValue::B(b) => {
            w.u8(VALUE_B);
            w.str(b);
        }
        AttributeValue::Bool(b) => w.u8(if *b { VALUE_TRUE } else { VALUE_FALSE }),
        AttributeValue::Null(n) => w.u8(if *n { VALUE_NULL } else { VALUE_NULL_FALSE }),
        AttributeValue::M(map) => {
            w.u8(VALUE_M);
            write_item(w, map);
        }
        AttributeValue::L(list) => {
            w.u8(VALUE_L);
            w.seq(list, write_value);
        }
        AttributeValue::SS(set) | AttributeValue::NS(set) | AttributeValue::BS(set) => {
            w.u8(match value {
                AttributeValue::SS(_) => VALUE_SS,
                AttributeValue::NS(_) => VALUE_NS,
                _ => VALUE_BS,
            });
            w.seq(set, |w, member| w.name(Interned::Value, member));
        }
    }
}

/// An item, or a map value `depth` levels down.
fn read_map(r: &mut Reader, depth: usize) -> Result<Item, WireError> {
    r.charge_value(r.at)?;
    let n = r.count("a sample item's attributes")?;
    let mut item = BTreeMap::new();
    for _ in 0..n {
        let attribute = r.name(Interned::Attribute, "a sample attribute's name")?;
        let value = read_value(r, depth)?;
        item.insert(attribute, value);
    }
    Ok(item)
}

fn read_value(r: &mut Reader, depth: usize) -> Result<AttributeValue, WireError> {
    let at = r.at;
    if depth >= MAX_VALUE_DEPTH {
        return Err(WireError {
            at,
            problem: format!("a sample value nests deeper than {MAX_VALUE_DEPTH} levels"),
        });
    }
    r.charge_value(at)?;
    let set = |r: &mut Reader| {
        r.seq("set members", |r| {
            r.charge_value(r.at)?;
            r.name(Interned::Value, "a set member")
        })
    };
    Ok(match r.u8("a sample value's type")? {
        VALUE_S => AttributeValue::S(r.name(Interned::Value, "a string value")?),
        VALUE_N => AttributeValue::N(r.name(Interned::Value, "a number value")?),
        VALUE_B => AttributeValue::B(r.str("a binary value")?),
        VALUE_FALSE => AttributeValue::Bool(false),
        VALUE_TRUE => AttributeValue::Bool(true),
        VALUE_NULL_FALSE => AttributeValue::Null(false),
        VALUE_NULL => AttributeValue::Null(true),
        VALUE_M => AttributeValue::M(read_map(r, depth + 1)?),
        VALUE_L => AttributeValue::L(r.seq("list elements", |r| read_value(r, depth + 1))?),
        VALUE_SS => AttributeValue::SS(set(r)?),
        VALUE_NS => AttributeValue::NS(set(r)?),
        VALUE_BS => AttributeValue::BS(set(r)?),
        n => {
            return Err(WireError {
                at,
                problem: format!("{n} is not a sample value's type"),
            });
        }
    })
}

/// Whole numbers up to this magnitude travel as varints; f64 holds them exactly.
const MAX_WHOLE: i64 = 1 << 53;

/// The most bytes of text that back-references may produce while reading one design, so a few
/// bytes that each repeat a long name cannot become terabytes.
const MAX_EXPANDED_BYTES: usize = super::MAX_DESIGN_BYTES;

/// The most sample values (items, attribute values, list elements and set members) one design
/// may unpack to: one for every eight bytes of the largest design. A value takes a byte on the
/// wire and a few dozen in memory, so 5,846 characters of link held 3.5 million NULLs that
/// took 520 MB to unpack (issue 41).
const MAX_SAMPLE_VALUES: usize = super::MAX_DESIGN_BYTES / 8;

/// The kinds of names the wire interns, each in its own numbered list: the first time a name
/// of a kind appears it travels as text and joins the list; later it travels as its index.
#[derive(Debug, Clone, Copy)]
enum Interned {
    Table,
    Key,
    Entity,
    Attribute,
    Value,
}

const INTERNED_LISTS: usize = 5;

impl Interned {
    fn noun(self) -> &'static str {
        match self {
            Interned::Table => "table",
            Interned::Key => "key attribute",
            Interned::Entity => "entity",
            Interned::Attribute => "attribute",
            Interned::Value => "value",
        }
    }
}

/// `x` as a whole number when it is one exactly (not `-0.0`) and within [`MAX_WHOLE`].
fn whole(x: f64) -> Option<i64> {
    // `as` saturates; the bit comparison keeps -0.0 and fractions out.
    let whole = x as i64;
    ((-MAX_WHOLE..=MAX_WHOLE).contains(&whole) && (whole as f64).to_bits() == x.to_bits())
        .then_some(whole)
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// The grid the canvas positions sit on: the largest whole number that divides every
/// coordinate (1 when all are zero), or 0 when some coordinate is not a whole number, in which
/// case every coordinate travels as a [`Writer::num`].
fn layout_unit(layout: &BTreeMap<String, Point>) -> u64 {
    let mut unit = 0;
    for Point { x, y } in layout.values() {
        for c in [x, y] {
            match whole(*c) {
                Some(n) => unit = gcd(unit, n.unsigned_abs()),
                None => return 0,
            }
        }
    }
    unit.max(1)
}

fn write_layout(w: &mut Writer, layout: &BTreeMap<String, Point>) {
    let unit = layout_unit(layout);
    w.varint(unit);
    w.count(layout.len());
    for (entity, Point { x, y }) in layout {
        w.name(Interned::Entity, entity);
        for c in [x, y] {
            match (unit, whole(*c)) {
                (0, _) | (_, None) => w.num(*c),
                (unit, Some(n)) => w.int(n / unit as i64),
            }
        }
    }
}

fn read_layout(r: &mut Reader) -> Result<BTreeMap<String, Point>, WireError> {
    let unit = r.varint("the canvas grid")?;
    let mut layout = BTreeMap::new();
    let n_positions = r.count("canvas positions")?;
    for _ in 0..n_positions {
        let entity = r.name(Interned::Entity, "a canvas position's entity")?;
        let coordinate = |r: &mut Reader, axis: &str| {
            let what = format!("the {axis} position of `{entity}`");
            if unit == 0 {
                return r.finite(&what);
            }
            let at = r.at;
            let steps = r.int(&what)?;
            let n = i128::from(steps) * i128::from(unit);
            if n.unsigned_abs() > MAX_WHOLE as u128 {
                return Err(WireError {
                    at,
                    problem: format!("{what} is out of range"),
                });
            }
            Ok(n as f64)
        };
        let x = coordinate(r, "x")?;
        let y = coordinate(r, "y")?;
        layout.insert(entity, Point { x, y });
    }
    Ok(layout)
}

#[derive(Default)]
struct Writer {
    bytes: Vec<u8>,
    /// Every name written so far, by kind, with its index in that kind's list.
    known: [BTreeMap<String, usize>; INTERNED_LISTS],
    /// The titles and the descriptions met so far, in order: they travel ahead of the
    /// structure (see [`write`]).
    prose: [Vec<String>; 2],
}

impl Writer {
    fn prose(&mut self, kind: usize, text: &str) {
        self.prose[kind].push(text.to_string());
    }

    /// A name of `kind`: `index + 1` when it was written before, else 0 and its text (which
    /// then joins the list).
    fn name(&mut self, kind: Interned, name: &str) {
        let known = &mut self.known[kind as usize];
        if let Some(&index) = known.get(name) {
            self.varint(index as u64 + 1);
        } else {
            known.insert(name.to_string(), known.len());
            self.u8(0);
            self.str(name);
        }
    }

    /// A key template's source as runs: 1 and literal text, or `index + 2` for `{name}` where
    /// `name` is an attribute already written; 0 ends the template. Only the
    /// source text matters, so any template, valid or not, comes back byte for byte.
    fn template(&mut self, source: &str) {
        let mut literal = 0;
        let mut from = 0;
        while let Some(open) = source[from..].find('{').map(|i| from + i) {
            from = open + 1;
            let Some(close) = source[open..].find('}').map(|i| open + i) else {
                break;
            };
            let known = &self.known[Interned::Attribute as usize];
            if let Some(&index) = known.get(&source[open + 1..close]) {
                self.literal(&source[literal..open]);
                self.varint(index as u64 + 2);
                literal = close + 1;
                from = close + 1;
            }
        }
        self.literal(&source[literal..]);
        self.u8(0);
    }

    fn literal(&mut self, text: &str) {
        if !text.is_empty() {
            self.u8(1);
            self.str(text);
        }
    }

    /// A zigzag varint: small magnitudes of either sign take one byte.
    fn int(&mut self, n: i64) {
        self.varint(((n << 1) ^ (n >> 63)) as u64);
    }

    fn u8(&mut self, byte: u8) {
        self.bytes.push(byte);
    }

    fn varint(&mut self, mut n: u64) {
        loop {
            let low = (n & 0x7f) as u8;
            n >>= 7;
            if n == 0 {
                self.bytes.push(low);
                return;
            }
            self.bytes.push(low | 0x80);
        }
    }

    fn count(&mut self, n: usize) {
        self.varint(n as u64);
    }

    /// Text, then [`END_OF_TEXT`].
    fn str(&mut self, s: &str) {
        self.bytes.extend_from_slice(s.as_bytes());
        self.u8(END_OF_TEXT);
    }

    fn seq<T>(&mut self, items: &[T], mut write: impl FnMut(&mut Writer, &T)) {
        self.count(items.len());
        for item in items {
            write(self, item);
        }
    }

    fn num(&mut self, x: f64) {
        // `as` saturates; the bit comparison keeps -0.0 and fractions as floats.
        let whole = x as i64;
        if (-MAX_WHOLE..=MAX_WHOLE).contains(&whole) && (whole as f64).to_bits() == x.to_bits() {
            let zigzag = ((whole << 1) ^ (whole >> 63)) as u64;
            self.varint(zigzag << 1);
        } else {
            self.u8(1);
            self.bytes.extend_from_slice(&x.to_bits().to_le_bytes());
        }
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
    /// The names read so far, by kind: what an index refers to.
    names: [Vec<String>; INTERNED_LISTS],
    /// Bytes that back-references may still produce; see [`MAX_EXPANDED_BYTES`].
    budget: usize,
    /// Sample values that may still be read; see [`MAX_SAMPLE_VALUES`].
    values_left: usize,
    /// The texts read ahead of the structure, not yet claimed by it.
    prose: [VecDeque<String>; 2],
}

impl Reader<'_> {
    /// Charges one sample value, read at `at`, to [`MAX_SAMPLE_VALUES`] before it is made.
    fn charge_value(&mut self, at: usize) -> Result<(), WireError> {
        self.values_left = self.values_left.checked_sub(1).ok_or(WireError {
            at,
            problem: format!("its samples hold more than {MAX_SAMPLE_VALUES} values: refused"),
        })?;
        Ok(())
    }

    /// The next of the texts that travel ahead of the structure.
    fn prose(&mut self, kind: usize, what: &str) -> Result<String, WireError> {
        self.prose[kind].pop_front().ok_or_else(|| WireError {
            at: self.at,
            problem: format!("the design's texts ran out before {what}"),
        })
    }

    /// A [`Writer::name`].
    fn name(&mut self, kind: Interned, what: &str) -> Result<String, WireError> {
        let at = self.at;
        let n = self.varint(what)?;
        if n == 0 {
            let name = self.str(what)?;
            self.names[kind as usize].push(name.clone());
            return Ok(name);
        }
        let name = self.reference(kind, n - 1, what, at)?;
        Ok(name.to_string())
    }

    /// The name of `kind` at `index`, charged to the expansion budget.
    fn reference(
        &mut self,
        kind: Interned,
        index: u64,
        what: &str,
        at: usize,
    ) -> Result<&str, WireError> {
        let list = &self.names[kind as usize];
        let Some(name) = usize::try_from(index).ok().and_then(|i| list.get(i)) else {
            return Err(WireError {
                at,
                problem: format!(
                    "{what} refers to {} {index}, but only {} are known at that point",
                    kind.noun(),
                    list.len()
                ),
            });
        };
        self.budget = self.budget.checked_sub(name.len()).ok_or(WireError {
            at,
            problem: format!("its names expand to more than {MAX_EXPANDED_BYTES} bytes: refused"),
        })?;
        Ok(name)
    }

    /// A [`Writer::template`].
    fn template(&mut self) -> Result<String, WireError> {
        let what = "a key template";
        let mut source = String::new();
        loop {
            let at = self.at;
            let n = self.varint(what)?;
            if n == 0 {
                return Ok(source);
            }
            if n == 1 {
                source.push_str(&self.str(what)?);
            } else {
                let name = self.reference(Interned::Attribute, n - 2, what, at)?;
                let name = format!("{{{name}}}");
                source.push_str(&name);
            }
        }
    }

    /// A [`Writer::int`].
    fn int(&mut self, what: &str) -> Result<i64, WireError> {
        let zigzag = self.varint(what)?;
        Ok(((zigzag >> 1) as i64) ^ -((zigzag & 1) as i64))
    }

    fn left(&self) -> usize {
        self.bytes.len() - self.at
    }

    fn ends_early(&self, what: &str) -> WireError {
        WireError {
            at: self.at,
            problem: format!("the design ends early, in {what}"),
        }
    }

    fn u8(&mut self, what: &str) -> Result<u8, WireError> {
        let byte = *self
            .bytes
            .get(self.at)
            .ok_or_else(|| self.ends_early(what))?;
        self.at += 1;
        Ok(byte)
    }

    fn varint(&mut self, what: &str) -> Result<u64, WireError> {
        let start = self.at;
        let mut n: u64 = 0;
        for shift in (0..70).step_by(7) {
            let byte = self.u8(what)?;
            let low = u64::from(byte & 0x7f);
            if shift == 63 && low > 1 {
                break;
            }
            n |= low << shift;
            if byte & 0x80 == 0 {
                return Ok(n);
            }
        }
        Err(WireError {
            at: start,
            problem: format!("{what} is not a valid number"),
        })
    }

    fn u32(&mut self, what: &str) -> Result<u32, WireError> {
        let at = self.at;
        let n = self.varint(what)?;
        u32::try_from(n).map_err(|_| WireError {
            at,
            problem: format!("{what} of {n} is too large"),
        })
    }

    /// A count of items that each take at least one byte: never more than the bytes left, so
    /// a forged count cannot make the reader allocate.
    fn count(&mut self, what: &str) -> Result<usize, WireError> {
        let at = self.at;
        let n = self.varint(what)?;
        match usize::try_from(n) {
            Ok(n) if n <= self.left() => Ok(n),
            _ => Err(WireError {
                at,
                problem: format!(
                    "{n} {what} cannot fit in the {} bytes left: the design is damaged",
                    self.left()
                ),
            }),
        }
    }

    /// A [`Writer::str`]: text up to an [`END_OF_TEXT`] byte, which it consumes.
    fn str(&mut self, what: &str) -> Result<String, WireError> {
        let start = self.at;
        let Some(len) = self.bytes[start..].iter().position(|&b| b == END_OF_TEXT) else {
            return Err(self.ends_early(what));
        };
        self.at += len + 1;
        String::from_utf8(self.bytes[start..start + len].to_vec()).map_err(|_| WireError {
            at: start,
            problem: format!("{what} is not UTF-8 text"),
        })
    }

    fn seq<T>(
        &mut self,
        what: &str,
        mut read: impl FnMut(&mut Self) -> Result<T, WireError>,
    ) -> Result<Vec<T>, WireError> {
        let n = self.count(what)?;
        let mut items = Vec::with_capacity(n);
        for _ in 0..n {
            items.push(read(self)?);
        }
        Ok(items)
    }

    fn pick<T: Copy>(&mut self, table: &[T], what: &str) -> Result<T, WireError> {
        let at = self.at;
        let n = self.u8(what)?;
        table.get(usize::from(n)).copied().ok_or_else(|| WireError {
            at,
            problem: format!("{n} is not a {what}"),
        })
    }

    fn flags(&mut self, known: u8, what: &str) -> Result<u8, WireError> {
        let at = self.at;
        let flags = self.u8(what)?;
        if flags & !known != 0 {
            return Err(WireError {
                at,
                problem: format!("unknown flags 0x{flags:02x} on a {what}"),
            });
        }
        Ok(flags)
    }

    /// The value `read` reads when `present` (a flag bit), else `None`.
    fn when<T>(
        &mut self,
        present: bool,
        read: impl FnOnce(&mut Self) -> Result<T, WireError>,
    ) -> Result<Option<T>, WireError> {
        if present {
            read(self).map(Some)
        } else {
            Ok(None)
        }
    }

    /// A [`Writer::num`] that must be finite: a design file cannot hold NaN or infinity.
    fn finite(&mut self, what: &str) -> Result<f64, WireError> {
        let at = self.at;
        let v = self.varint(what)?;
        let x = if v & 1 == 0 {
            let zigzag = v >> 1;
            let whole = ((zigzag >> 1) as i64) ^ -((zigzag & 1) as i64);
            whole as f64
        } else if v == 1 {
            let end = self.at + 8;
            let raw = self
                .bytes
                .get(self.at..end)
                .ok_or_else(|| self.ends_early(what))?;
            self.at = end;
            let mut le = [0u8; 8];
            le.copy_from_slice(raw);
            f64::from_bits(u64::from_le_bytes(le))
        } else {
            return Err(WireError {
                at,
                problem: format!("{what} is not a valid number"),
            });
        };
        if x.is_finite() {
            Ok(x)
        } else {
            Err(WireError {
                at,
                problem: format!("{what} is not a finite number"),
            })
        }
    }
}
