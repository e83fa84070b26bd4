use std::collections::BTreeMap;

use expect_test::{Expect, expect};

use super::*;
use crate::file;
use crate::item::AttributeValue;
use crate::model::{Billing, Point};

fn order_management() -> Design {
    file::parse(include_str!(
        "../../../examples/order-management.keyplan.json"
    ))
    .expect("the shared fixture parses")
}

/// A payload whose compressed bytes are `data` (already the version-1 wire form or not).
fn payload_of_bytes(data: &[u8]) -> String {
    format!(
        "1.{}",
        URL_SAFE_NO_PAD.encode(deflate(v1::dictionary(), data))
    )
}

fn check(input: &str, expect: Expect) {
    let actual = match decode(input) {
        Ok(design) => format!("ok: {}", design.name),
        Err(e) => e.to_string(),
    };
    expect.assert_eq(&actual);
}

#[test]
fn the_order_management_example_round_trips_with_its_canvas_positions() {
    let design = order_management();
    assert!(!design.layout.is_empty());
    let payload = encode(&design).expect("fits in a link");
    // issue 13: version 2, with its checksum, is what links are written in; issue 16: 4.
    assert!(payload.starts_with("5."), "{payload}");
    assert_eq!(decode(&payload), Ok(design));
}

#[test]
fn encoding_is_canonical() {
    let design = order_management();
    assert_eq!(encode(&design), encode(&design.clone()));
    let again = decode(&encode(&design).expect("fits")).expect("decodes");
    assert_eq!(encode(&again), encode(&design));
}

#[test]
fn a_link_is_the_base_then_the_fragment() {
    let design = Design::new("tiny");
    let payload = encode(&design).expect("fits");
    for (base, want) in [
        (
            "http://127.0.0.1:8080",
            format!("http://127.0.0.1:8080/#d={payload}"),
        ),
        (
            "https://x.dev/keyplan/",
            format!("https://x.dev/keyplan/#d={payload}"),
        ),
        (
            "https://x.dev/app.html",
            format!("https://x.dev/app.html#d={payload}"),
        ),
    ] {
        assert_eq!(link(base, &design), Ok(want));
    }
}

#[test]
fn decode_takes_a_link_a_fragment_or_the_payload_alone() {
    let design = Design::new("tiny");
    let payload = encode(&design).expect("fits");
    for text in [
        format!("http://127.0.0.1:8080/#d={payload}"),
        format!("#d={payload}"),
        format!("d={payload}"),
        format!("#view=1&d={payload}&x=2"),
        format!("  {payload}\n"),
        payload.clone(),
    ] {
        assert_eq!(decode(&text), Ok(design.clone()), "{text}");
    }
    assert!(has_payload(&format!("#d={payload}")));
    assert!(!has_payload(""));
    assert!(!has_payload("#other=1"));
    assert!(!has_payload("http://127.0.0.1:8080/"));
    assert!(has_payload("http://127.0.0.1:8080/#x=1&d=2.broken"));
}

#[test]
fn a_design_file_version_does_not_travel() {
    // A link always opens as a current design, whatever the version field said.
    let mut design = Design::new("old");
    design.version = 0;
    let decoded = decode(&encode(&design).expect("fits")).expect("decodes");
    assert_eq!(decoded.version, crate::model::CURRENT_VERSION);
}

#[test]
fn the_version_prefix_dispatches_to_its_reader() {
    let body = encode(&Design::new("v")).expect("fits")[2..].to_string();
    assert_eq!(decode_version("5", &body).map(|d| d.name), Ok("v".into()));
    // Version 4's reader sees version 5's tail as bytes after the design, version 3's the
    // billing and filter tails' counts too, version 2's the volumes' too.
    for older in ["4", "3", "2"] {
        assert!(matches!(
            decode_version(older, &body),
            Err(LinkError::Malformed { .. })
        ));
    }
    // Version 1's reader sees the checksum as bytes after the design.
    assert!(matches!(
        decode_version("1", &body),
        Err(LinkError::Malformed { .. })
    ));
    // Version 1's bytes are version 4's without the orders, the volumes, the replicas, the
    // peak factors and the filters, here their counts (a zero byte each).
    let mut v1_bytes = v4_wire(&Design::new("v"));
    let tail: Vec<Option<u8>> = (0..5).map(|_| v1_bytes.pop()).collect();
    assert_eq!(
        tail,
        [Some(0); 5],
        "empty lists of orders, volumes, replicas, peak factors and filters end version 4's bytes"
    );
    let v1_body = payload_of_bytes(&v1_bytes)[2..].to_string();
    assert_eq!(
        decode_version("1", &v1_body).map(|d| d.name),
        Ok("v".into())
    );
    assert_eq!(
        decode_version("6", &body),
        Err(LinkError::TooNew { found: 6 })
    );
    for bad in ["0", "01", "", "v1", "1a", "99999999999"] {
        assert!(
            matches!(
                decode_version(bad, &body),
                Err(LinkError::UnknownVersion { .. })
            ),
            "{bad:?}"
        );
    }
}

#[test]
fn bad_links_say_what_is_wrong() {
    check(
        "",
        expect!["the link is empty: expected `<address>/#d=1.…`"],
    );
    check(
        "  \n",
        expect!["the link is empty: expected `<address>/#d=1.…`"],
    );
    check(
        "#d=",
        expect!["the link is empty: expected `<address>/#d=1.…`"],
    );
    check(
        "http://127.0.0.1:8080/",
        expect!["the link has no design: expected `#d=1.…` after the address"],
    );
    check(
        "http://127.0.0.1:8080/#view=grid",
        expect!["the link has no design: expected `#d=1.…` after the address"],
    );
    check(
        "hello",
        expect![
            "the link has no version: it should start with a version such as `5.`, not `hello`"
        ],
    );
    check(
        "7.AAAA",
        expect![
            "the link was made by a newer keyplan (link version 7, this one reads up to 5): upgrade keyplan"
        ],
    );
    check(
        "x1.AAAA",
        expect!["`x1` is not a link version: this keyplan reads versions 1 to 5"],
    );
    check(
        "1.AB+C",
        expect!["the link is damaged: `+` at character 3 after the version is not base64url"],
    );
    check(
        "1.ABCDE",
        expect![
            "the link is damaged: 5 base64url characters do not make whole bytes: was the link cut short?"
        ],
    );
    check(
        "1.AB==",
        expect!["the link is damaged: padding `=` does not belong in a link"],
    );
    check(
        "1.____",
        expect!["the link is damaged: its compressed design is not valid DEFLATE data"],
    );
}

#[test]
fn a_link_longer_than_the_limit_is_refused_before_decoding() {
    let long = format!("1.{}", "A".repeat(MAX_LINK_CHARS));
    check(
        &long,
        expect!["the link's design is 65538 characters long; keyplan opens at most 65536"],
    );
}

#[test]
fn a_decompression_bomb_is_refused_at_the_limit() {
    // Twice the limit in zeros packs into a valid link far below the length limit.
    let zeros = vec![0u8; 2 * MAX_DESIGN_BYTES];
    let bomb = payload_of_bytes(&zeros);
    assert!(bomb.len() < MAX_LINK_CHARS, "{}", bomb.len());
    check(
        &bomb,
        expect!["the link's design unpacks to more than 4194304 bytes: refused"],
    );
}

#[test]
fn inflating_stops_exactly_at_the_limit() {
    let dict = v1::dictionary();
    let data = vec![7u8; 1000];
    let packed = deflate(dict, &data);
    assert_eq!(inflate_with_limit(dict, &packed, 1000), Ok(data));
    assert_eq!(
        inflate_with_limit(dict, &packed, 999),
        Err(LinkError::TooBig)
    );
}

#[test]
fn a_truncated_link_says_it_was_cut_short() {
    let payload = encode(&order_management()).expect("fits");
    // Cut on a 4-character boundary, so the base64 itself is still whole.
    let cut = 2 + (payload.len() - 2) / 2 / 4 * 4;
    check(
        &payload[..cut],
        expect!["the link is damaged or cut short: its compressed design ends early"],
    );
}

#[test]
fn garbage_in_or_after_the_design_is_refused() {
    let mut bytes = v4_wire(&Design::new("g"));
    // Version 1's bytes: version 4's without the (empty) lists of orders, volumes, replicas,
    // peak factors and filters.
    let tail: Vec<Option<u8>> = (0..5).map(|_| bytes.pop()).collect();
    assert_eq!(tail, [Some(0); 5]);
    bytes.extend_from_slice(b"xyz");
    check(
        &payload_of_bytes(&bytes),
        expect!["the link's design is damaged: at byte 11: 3 unexpected bytes follow the design"],
    );
    check(
        &payload_of_bytes(b"\x05ab"),
        expect![
            "the link's design is damaged: at byte 0: 5 texts cannot fit in the 2 bytes left: the design is damaged"
        ],
    );
    check(
        &payload_of_bytes(&[0xff; 12]),
        expect!["the link's design is damaged: at byte 0: texts is not a valid number"],
    );
    check(
        &payload_of_bytes(b"\x01\xfe\xff\x01\xff"),
        expect!["the link's design is damaged: at byte 1: a text is not UTF-8 text"],
    );
    check(
        &payload_of_bytes(b"\x01abc"),
        expect!["the link's design is damaged: at byte 1: the design ends early, in a text"],
    );
    check(
        &payload_of_bytes(b"\x00\x00\x00"),
        expect![
            "the link's design is damaged: at byte 2: the design's texts ran out before the design's name"
        ],
    );
    // Two titles where the design has a place for one.
    check(
        &payload_of_bytes(b"\x02\xff\xff\x01\xff\x00\x00\x00\x01\x00\x00"),
        expect![
            "the link's design is damaged: at byte 11: 1 texts are left over after the design's names and descriptions"
        ],
    );
    // Valid compressed data followed by more characters.
    let payload = encode(&Design::new("t")).expect("fits");
    let packed = URL_SAFE_NO_PAD.decode(&payload[2..]).expect("base64");
    let mut longer = packed.clone();
    longer.extend_from_slice(&[1, 2, 3]);
    check(
        &format!("1.{}", URL_SAFE_NO_PAD.encode(longer)),
        expect!["the link is damaged: 3 unexpected bytes follow its design"],
    );
}

#[test]
fn unknown_codes_and_flags_are_refused() {
    // Titles [""] and descriptions [""] (the design's name and description), then one table:
    // name "t", key "PK" of type 9 (a new name travels as 0, its text and 0xFF).
    check(
        &payload_of_bytes(b"\x01\xff\x01\xff\x01\x00t\xff\x00PK\xff\x09"),
        expect!["the link's design is damaged: at byte 12: 9 is not a key type"],
    );
    // An empty design with samples of entity `E`: one item whose attribute `a` has type 12.
    check(
        &payload_of_bytes(
            b"\x01\xff\x01\xff\x00\x00\x00\x01\x00\x01\x00E\xff\x01\x01\x00a\xff\x0c",
        ),
        expect!["the link's design is damaged: at byte 18: 12 is not a sample value's type"],
    );
    check(
        &payload_of_bytes(b"\x01\xff\x01\xff\x01\x00t\xff\x00PK\xff\x00\x80"),
        expect!["the link's design is damaged: at byte 13: unknown flags 0x80 on a table"],
    );
}

#[test]
fn a_non_finite_number_is_refused() {
    let mut design = Design::new("nan");
    design.layout.insert(
        "A".into(),
        Point {
            x: f64::NAN,
            y: 0.0,
        },
    );
    check(
        &encode(&design).expect("fits"),
        expect![
            "the link's design is damaged: at byte 15: the x position of `A` is not a finite number"
        ],
    );
    let mut design = Design::new("inf");
    let mut pattern = crate::model::AccessPattern::read("P", &[], &[]);
    pattern.rate = f64::INFINITY;
    design.patterns.push(pattern);
    check(
        &encode(&design).expect("fits"),
        expect![
            "the link's design is damaged: at byte 16: the rate of pattern `P` is not a finite number"
        ],
    );
}

#[test]
fn odd_numbers_round_trip_exactly() {
    let mut design = Design::new("numbers");
    for (i, x) in [
        0.0,
        -0.0,
        0.5,
        -1.0,
        1e300,
        -123456789.25,
        9007199254740992.0,
        9007199254740994.0,
        f64::MIN_POSITIVE,
    ]
    .into_iter()
    .enumerate()
    {
        design.layout.insert(format!("E{i}"), Point { x, y: -x });
    }
    let decoded = decode(&encode(&design).expect("fits")).expect("decodes");
    for (name, point) in &design.layout {
        let got = decoded.layout[name];
        assert_eq!(got.x.to_bits(), point.x.to_bits(), "{name}");
        assert_eq!(got.y.to_bits(), point.y.to_bits(), "{name}");
    }
}

#[test]
fn deeply_nested_sample_items_are_refused_not_a_crash() {
    let mut value = AttributeValue::S("leaf".into());
    for _ in 0..300 {
        value = AttributeValue::L(vec![value]);
    }
    let mut design = Design::new("deep");
    let item = BTreeMap::from([("PK".to_string(), value)]);
    design.samples.insert("t".into(), vec![item]);
    let err = decode(&encode(&design).expect("fits")).expect_err("too deep");
    assert!(
        err.to_string().contains("nests deeper than 128 levels"),
        "{err}"
    );
}

#[test]
fn a_design_too_large_for_a_link_is_refused_when_encoding() {
    let mut design = Design::new("big");
    // Incompressible text: each name differs in a way DEFLATE cannot predict.
    let mut seed: u64 = 1;
    let mut noise = String::new();
    for _ in 0..120_000 {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        noise.push(char::from(b'a' + (seed >> 59) as u8));
    }
    design.description = noise;
    let result = encode(&design).map(|payload| payload.len());
    assert!(
        matches!(result, Err(LinkError::DesignTooLarge { .. })),
        "{result:?}"
    );
}

/// Version-1 bytes of a design with one entity `E` in table `t` whose one attribute is named
/// `attribute`, then `keys` key templates that each refer to that attribute.
fn entity_with_referring_keys(attribute: &str, keys: usize) -> Vec<u8> {
    // Titles [""], descriptions ["", ""], no tables, one entity `E` in `t`, one attribute.
    let mut bytes = b"\x01\xff\x02\xff\xff\x00\x01\x00E\xff\x00t\xff\x01\x00".to_vec();
    bytes.extend_from_slice(attribute.as_bytes());
    bytes.extend_from_slice(b"\xff\x00"); // attribute flags: S, optional
    bytes.append(&mut v1_varint(keys as u64));
    bytes.extend_from_slice(b"\x00k\xff\x02\x00"); // key `k`: `{<attribute>}`
    for _ in 1..keys {
        bytes.extend_from_slice(b"\x01\x02\x00"); // key `k` again, the same template
    }
    bytes.extend_from_slice(b"\x00\x00\x00\x00"); // no patterns, no layout, no samples
    bytes
}

fn v1_varint(mut n: u64) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let low = (n & 0x7f) as u8;
        n >>= 7;
        if n == 0 {
            out.push(low);
            return out;
        }
        out.push(low | 0x80);
    }
}

#[test]
fn names_and_template_variables_travel_as_references_to_earlier_names() {
    let design = decode(&payload_of_bytes(&entity_with_referring_keys("orderId", 2)))
        .expect("a well-formed design");
    let entity = &design.entities[0];
    assert_eq!(entity.attributes[0].name, "orderId");
    assert_eq!(entity.keys["k"].source(), "{orderId}");
    // The writer makes the same references: the attribute's name is written once.
    let wire = wire_bytes(&design);
    assert_eq!(wire.windows(7).filter(|w| w == b"orderId").count(), 1);
    assert_eq!(decode(&encode(&design).expect("fits")), Ok(design));
}

#[test]
fn a_reference_to_a_name_not_yet_seen_is_refused() {
    // One table named by a reference to table 0, when no table name has been read.
    check(
        &payload_of_bytes(b"\x01\xff\x01\xff\x01\x01"),
        expect![
            "the link's design is damaged: at byte 5: a table's name refers to table 0, but only 0 are known at that point"
        ],
    );
}

#[test]
fn references_that_expand_past_the_limit_are_refused() {
    // 64 KiB attribute name, repeated by 100 key templates: 6.5 MB from a 66 KB design.
    let bytes = entity_with_referring_keys(&"a".repeat(64 * 1024), 100);
    check(
        &payload_of_bytes(&bytes),
        expect![
            "the link's design is damaged: at byte 65746: its names expand to more than 4194304 bytes: refused"
        ],
    );
}

#[test]
fn canvas_positions_on_a_grid_travel_as_steps_and_others_exactly() {
    let mut design = Design::new("grid");
    for (i, (x, y)) in [(40.0, 60.0), (360.0, -420.0), (0.0, 0.0)]
        .into_iter()
        .enumerate()
    {
        design.layout.insert(format!("E{i}"), Point { x, y });
    }
    let on_grid = wire_bytes(&design);
    assert_eq!(decode(&encode(&design).expect("fits")), Ok(design.clone()));
    // Every coordinate is a multiple of 20: each takes one byte.
    let grid_layout: &[u8] = b"\x14\x03\x00E0\xff\x04\x06\x00E1\xff\x24\x29\x00E2\xff\x00\x00";
    assert!(
        on_grid.windows(grid_layout.len()).any(|w| w == grid_layout),
        "{on_grid:?}"
    );
    design.layout.insert("E3".into(), Point { x: 0.5, y: -0.0 });
    assert_eq!(decode(&encode(&design).expect("fits")), Ok(design));
}

#[test]
fn a_pattern_order_travels_in_version_2() {
    // issue 12: a pattern's order (`order_by`) is apart from its range condition, and a link
    // must not drop it.
    let mut design = crate::examples::first();
    design.patterns[1].order_by = Some("createdAt".into());
    design.patterns[3].order_by = Some("lineNo".into());
    let ordered = encode(&design).expect("fits");
    assert!(ordered.starts_with("5."), "{ordered}");
    assert_eq!(decode(&ordered), Ok(design));
}

// issue 16: a pattern's filter conditions travel in version 4, after the volumes; an old link
// still opens (without them), and a filter for a pattern that is not there, or an operator
// that does not exist, is refused with where it is.
#[test]
fn filters_travel_in_version_4_and_bad_ones_are_refused() {
    use crate::model::{FilterCondition, FilterOp};
    let mut design = crate::examples::first();
    design.patterns[1].filter = vec![
        FilterCondition::new("status", FilterOp::Ne),
        FilterCondition {
            count: Some(3),
            ..FilterCondition::new("status", FilterOp::In)
        },
    ];
    design.patterns[2].filter = vec![FilterCondition::new("deletedAt", FilterOp::NotExists)];
    let link = encode(&design).expect("fits");
    assert!(link.starts_with("5."), "{link}");
    assert_eq!(decode(&link), Ok(design.clone()));

    let plain = Design::new("f");
    let mut bytes = v4_wire(&plain);
    assert_eq!(bytes.pop(), Some(0), "no filters: an empty list");
    let checked = |bytes: &[u8]| {
        let mut with_sum = bytes.to_vec();
        with_sum.extend_from_slice(&crc32(bytes).to_le_bytes());
        format!("4.{}", &payload_of_bytes(&with_sum)[2..])
    };
    // One filtered pattern, index 0, in a design with no pattern.
    let mut hostile = bytes.clone();
    hostile.extend_from_slice(&[1, 0, 1]);
    check(
        &checked(&hostile),
        expect![
            "the link's design is damaged: at byte 16: a filter for pattern 0, but there are 0 patterns and filters come by increasing pattern"
        ],
    );
    let mut one = plain.clone();
    one.patterns
        .push(crate::model::AccessPattern::read("p", &["E"], &[]));
    let mut bytes = v4_wire(&one);
    assert_eq!(bytes.pop(), Some(0));
    // Pattern 0, one condition on attribute `a` (a new name), operator 12 (there are 12).
    bytes.extend_from_slice(&[1, 0, 1]);
    let name_at = bytes.len();
    let mut named = v4_wire(&{
        let mut d = one.clone();
        d.patterns[0].filter = vec![FilterCondition::new("a", FilterOp::Eq)];
        d
    });
    named.truncate(named.len() - 1);
    let name_bytes = &named[name_at..];
    bytes.extend_from_slice(name_bytes);
    bytes.push(12);
    check(
        &checked(&bytes),
        expect!["the link's design is damaged: at byte 33: 12 is not a filter operator"],
    );
}

#[test]
fn the_checksum_is_crc_32_ieee() {
    // The standard check value of CRC-32 for the ASCII digits 1 to 9.
    assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
    assert_eq!(crc32(b""), 0);
}

// issue 16: a table's global-table replicas, a pattern's peak factor and a volume set by hand
// (no item size: the sample's mean) travel in version 4; version 3 links still open.
#[test]
fn replicas_peak_factors_and_hand_set_volumes_travel_in_version_4() {
    let mut design = crate::examples::first();
    let base = design.clone();
    design.tables[0].replicas = vec!["eu-west-1".into(), "ap-south-1".into()];
    design.patterns[2].peak_factor = 2.5;
    design.entities[1].volume = Some(crate::model::Volume::items(2_800_000_000));
    let payload = encode(&design).expect("fits");
    assert!(payload.starts_with("5."), "{payload}");
    assert_eq!(decode(&payload), Ok(design));
    // A version-3 link of the same design without them reads as before.
    let mut v3 = v4_wire(&base);
    v3.truncate(v3.len() - 3);
    let checksum = crate::share::crc32(&v3);
    v3.extend_from_slice(&checksum.to_le_bytes());
    let packed = deflate(v1::dictionary(), &v3);
    assert_eq!(
        decode(&format!("3.{}", URL_SAFE_NO_PAD.encode(packed))),
        Ok(base)
    );
}

/// A payload of `version` of the wire bytes `wire`, with their checksum.
fn checked_payload(version: u32, mut wire: Vec<u8>) -> String {
    let checksum = crate::share::crc32(&wire);
    wire.extend_from_slice(&checksum.to_le_bytes());
    format!(
        "{version}.{}",
        URL_SAFE_NO_PAD.encode(deflate(v1::dictionary(), &wire))
    )
}

/// A version-4 payload of the wire bytes `wire`, with their checksum.
fn payload_v4(wire: Vec<u8>) -> String {
    checked_payload(4, wire)
}

// issue 16: the billing tail trusts nothing: replicas for a table the design does not have are
// refused, saying where.
#[test]
fn replicas_for_a_table_that_is_not_there_are_refused() {
    let mut wire = v4_wire(&Design::new("r"));
    // The empty replicas, peak factors and filters, replaced by replicas for table 5 of none.
    wire.truncate(wire.len() - 3);
    wire.extend_from_slice(&[1, 5, 0, 0]);
    check(
        &payload_v4(wire),
        expect![
            "the link's design is damaged: at byte 14: replicas for table 5, but there are 0 tables and replicas come by increasing table"
        ],
    );
}

// issue 40: link version 5 carries what version 4 refused (vector indexes and searches, PartiQL
// statements, items written by hand) and what it silently dropped (a table's auto scaling, its
// GSIs' own capacities): the link opens as the very design that was shared.
#[test]
fn capacities_vectors_statements_and_hand_items_travel_in_version_5() {
    use crate::model::{AutoScaling, Capacity, Scaling};
    let mut design = crate::export::vector_fixture();
    let mut orders = crate::examples::first();
    let table = &mut orders.tables[0];
    let gsi = table.gsis[0].name.clone();
    table.billing = Billing::provisioned(40, 12);
    assert!(table.billing.set_scaling(
        None,
        crate::model::Dimension::Read,
        Scaling {
            min: 5,
            max: 400,
            target: Some(55.5)
        }
    ));
    table.billing.set_index_capacity(BTreeMap::from([(
        gsi,
        Capacity {
            read: 7,
            write: 3,
            auto_scaling: Some(AutoScaling {
                read: None,
                write: Some(Scaling {
                    min: 1,
                    max: 30,
                    target: None,
                }),
            }),
        },
    )]));
    orders.patterns[0].partiql = Some("SELECT * FROM \"orders\" WHERE PK = ?".to_string());
    let entity = orders.entities[0].clone();
    let item =
        |id: &str| crate::item::Item::from([("PK".to_string(), AttributeValue::S(id.to_string()))]);
    orders.hand_items = vec![
        crate::model::HandItem {
            table: entity.table.clone(),
            entity: entity.name.clone(),
            replaces: Some(item("old")),
            item: item("new"),
        },
        crate::model::HandItem {
            table: entity.table.clone(),
            entity: entity.name.clone(),
            replaces: None,
            item: item("added"),
        },
    ];
    design.tables.extend(orders.tables);
    design.entities.extend(orders.entities);
    design.patterns.extend(orders.patterns);
    design.hand_items = orders.hand_items;
    design.patterns[0].vector.as_mut().expect("a search").index = Some("ByEmbedding".into());
    design.patterns[0]
        .vector
        .as_mut()
        .expect("a search")
        .dimensions = Some(1536);
    let payload = encode(&design).expect("fits");
    assert!(payload.starts_with("5."), "{payload}");
    assert_eq!(decode(&payload), Ok(design));
}

/// The wire bytes of `design` in version 4's layout: version 5's, less its five empty lists.
fn v4_wire(design: &Design) -> Vec<u8> {
    let mut wire = v1::write(design);
    assert!(wire.ends_with(&[0; 5]), "nothing of version 5's tail");
    wire.truncate(wire.len() - 5);
    wire
}

// issue 40: version 4 links still open, as the design they carried.
#[test]
fn a_version_4_link_still_opens() {
    let mut design = crate::examples::first();
    design.tables[0].replicas = vec!["eu-west-1".into()];
    design.tables[0].billing = Billing::provisioned(3, 4);
    assert_eq!(decode(&payload_v4(v4_wire(&design))), Ok(design));
}

// issue 40: version 5's tail trusts nothing: a capacity for an on-demand table, auto scaling
// flags that describe no bounds, an unknown distance and a statement for a pattern that is not
// there are refused, saying what and where.
#[test]
fn a_damaged_version_5_tail_is_refused_saying_where() {
    let mut design = crate::examples::first();
    design.tables.truncate(1);
    let on_demand = v4_wire(&design);
    let with = |tail: &[u8]| {
        let mut wire = on_demand.clone();
        wire.extend_from_slice(tail);
        checked_payload(5, wire)
    };
    let at = on_demand.len();
    let table = &design.tables[0].name;
    let n_patterns = design.patterns.len();
    let cases: [(&[u8], String); 5] = [
        (
            &[1, 0, 0, 0, 0, 0, 0],
            format!(
                "at byte {}: a capacity for table `{table}`, which is on demand and has none",
                at + 2
            ),
        ),
        (
            &[1, 0, 6],
            format!(
                "at byte {}: flags 0x06 describe the bounds of no auto scaling",
                at + 2
            ),
        ),
        (
            &[1, 0, 0x41],
            format!(
                "at byte {}: unknown flags 0x41 on a capacity's auto scaling",
                at + 2
            ),
        ),
        (
            &[0, 0, 0, 1, 200, 1, 0x53, 0xff, 0],
            format!(
                "at byte {}: a PartiQL statement for pattern 200, but there are {n_patterns} patterns and statements come by increasing pattern",
                at + 4
            ),
        ),
        (
            &[0, 0, 0, 0, 1, 0],
            format!(
                "at byte {}: the design ends early, in a hand-written item's table",
                at + 6
            ),
        ),
    ];
    for (tail, problem) in cases {
        assert_eq!(
            decode(&with(tail)),
            Err(LinkError::Malformed { problem }),
            "{tail:?}"
        );
    }
}
