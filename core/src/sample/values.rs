//! Believable attribute values, chosen by type, name and hints.
//!
//! Every choice draws from the one seeded PRNG in a fixed order, so a design and a seed always
//! give the same values. Ids are unique per entity and attribute by construction (an
//! invertible scramble of the item's index), not by luck.

use std::collections::BTreeMap;

use crate::eval::encode_binary;
use crate::item::AttributeValue;
use crate::model::{AttrType, Attribute};

/// 2025-01-01T00:00:00Z: the earliest root timestamp.
pub(super) const EPOCH_START: i64 = 1_735_689_600;
const DAY: i64 = 86_400;
/// Root items are spread over this many days after [`EPOCH_START`].
const ROOT_SPREAD_DAYS: i64 = 180;

const FIRST_NAMES: &[&str] = &[
    "Ada",
    "Grace",
    "Alan",
    "Edsger",
    "Barbara",
    "Donald",
    "Frances",
    "Ken",
    "Margaret",
    "Dennis",
    "Radia",
    "John",
    "Hedy",
    "Tim",
    "Katherine",
    "Linus",
    "Sophie",
    "Niklaus",
    "Anita",
    "Leslie",
];
const LAST_NAMES: &[&str] = &[
    "Lovelace",
    "Hopper",
    "Turing",
    "Dijkstra",
    "Liskov",
    "Knuth",
    "Allen",
    "Thompson",
    "Hamilton",
    "Ritchie",
    "Perlman",
    "Backus",
    "Lamarr",
    "Berners-Lee",
    "Johnson",
    "Torvalds",
    "Wilson",
    "Wirth",
    "Borg",
    "Lamport",
];
const CITIES: &[&str] = &[
    "Lisbon",
    "Austin",
    "Osaka",
    "Nairobi",
    "Toronto",
    "Lyon",
    "Melbourne",
    "Bergen",
    "Seville",
    "Denver",
];
const STREETS: &[&str] = &[
    "Elm Street",
    "Harbour Road",
    "Maple Avenue",
    "King's Way",
    "Station Lane",
    "Mill Close",
];
const WORDS: &[&str] = &[
    "amber", "river", "quiet", "falcon", "copper", "meadow", "swift", "granite", "lantern",
    "orchid", "harbor", "velvet", "summit", "cedar", "prism", "tundra",
];
const CROCKFORD: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/// Draws values for one item.
pub(super) struct Generator<'a> {
    rng: &'a mut oorandom::Rand64,
    index: u32,
    anchor: i64,
    /// Seconds after the anchor of the next timestamp attribute.
    clock: i64,
    person: Option<(usize, usize)>,
}

impl<'a> Generator<'a> {
    pub(super) fn new(rng: &'a mut oorandom::Rand64, index: u32) -> Generator<'a> {
        Generator {
            rng,
            index,
            anchor: EPOCH_START,
            clock: 0,
            person: None,
        }
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub(super) fn below(&mut self, n: u64) -> u64 {
        if n == 0 { 0 } else { self.rng.rand_range(0..n) }
    }

    fn between(&mut self, low: i64, high: i64) -> i64 {
        low + self.below((high - low + 1).max(1) as u64) as i64
    }

    pub(super) fn chance(&mut self, p: f64) -> bool {
        self.rng.rand_float() < p
    }

    fn pick<'s>(&mut self, list: &[&'s str]) -> &'s str {
        list[self.below(list.len() as u64) as usize]
    }

    /// Sets the item's time anchor: a little after its parent's, or somewhere in the root
    /// spread for an item without a parent.
    pub(super) fn set_anchor(&mut self, parent: Option<i64>) {
        self.anchor = match parent {
            Some(t) => t + self.between(60, 7 * DAY),
            None => EPOCH_START + self.between(0, ROOT_SPREAD_DAYS * DAY),
        };
        self.clock = 0;
    }

    pub(super) fn anchor(&self) -> i64 {
        self.anchor
    }

    /// The next timestamp of this item: the anchor, then later ones for later attributes.
    fn next_time(&mut self) -> i64 {
        let t = self.anchor + self.clock;
        self.clock += self.between(3_600, 2 * DAY);
        t
    }

    fn person(&mut self) -> (&'static str, &'static str) {
        let (f, l) = match self.person {
            Some(p) => p,
            None => {
                let p = (
                    self.below(FIRST_NAMES.len() as u64) as usize,
                    self.below(LAST_NAMES.len() as u64) as usize,
                );
                self.person = Some(p);
                p
            }
        };
        (FIRST_NAMES[f], LAST_NAMES[l])
    }

    /// A value of the kind `kind` for the attribute `name`.
    pub(super) fn value(&mut self, kind: &Recipe) -> AttributeValue {
        match kind {
            Recipe::Enum { values, number } => {
                let v = values[self.below(values.len() as u64) as usize].clone();
                if *number {
                    AttributeValue::N(v)
                } else {
                    AttributeValue::S(v)
                }
            }
            Recipe::DistinctN(d) => AttributeValue::N(decimal(self.below(*d) + 1)),
            Recipe::DistinctS(d, initials) => {
                let mut text = String::with_capacity(initials.len() + 4);
                text.push_str(initials);
                text.push('-');
                push_padded(&mut text, self.below(*d) + 1, 2);
                AttributeValue::S(text)
            }
            Recipe::Id { stem, salt } => AttributeValue::S(self.id(stem, *salt)),
            Recipe::Email => {
                let (first, last) = self.person();
                // `{first}.{last}{index}@example.com`, lowercase, hyphens dropped.
                let mut text = String::with_capacity(first.len() + last.len() + 24);
                text.extend(first.chars().map(|c| c.to_ascii_lowercase()));
                text.push('.');
                text.extend(
                    last.chars()
                        .filter(|&c| c != '-')
                        .map(|c| c.to_ascii_lowercase()),
                );
                push_padded(&mut text, u64::from(self.index), 1);
                text.push_str("@example.com");
                AttributeValue::S(text)
            }
            Recipe::Username => {
                let (first, last) = self.person();
                AttributeValue::S(format!(
                    "{}{}",
                    first.to_ascii_lowercase(),
                    last[..1].to_ascii_lowercase()
                ))
            }
            Recipe::FirstName => AttributeValue::S(self.person().0.to_string()),
            Recipe::LastName => AttributeValue::S(self.person().1.to_string()),
            Recipe::FullName => {
                let (first, last) = self.person();
                let mut text = String::with_capacity(first.len() + 1 + last.len());
                text.push_str(first);
                text.push(' ');
                text.push_str(last);
                AttributeValue::S(text)
            }
            Recipe::TitleName => {
                let mut text = String::with_capacity(24);
                push_capitalised(&mut text, self.pick(WORDS));
                text.push(' ');
                push_capitalised(&mut text, self.pick(WORDS));
                AttributeValue::S(text)
            }
            Recipe::Time => {
                let t = self.next_time();
                AttributeValue::S(iso_datetime(t))
            }
            Recipe::Date => {
                let t = self.next_time();
                AttributeValue::S(iso_date(t))
            }
            Recipe::Phone => AttributeValue::S(format!("+1-555-01{:02}", self.below(100))),
            Recipe::Address => AttributeValue::S(format!(
                "{} {}, {}",
                self.between(1, 240),
                self.pick(STREETS),
                self.pick(CITIES)
            )),
            Recipe::Pick(list) => AttributeValue::S(self.pick(list).to_string()),
            Recipe::Url => AttributeValue::S(format!(
                "https://example.com/{}/{}",
                self.pick(WORDS),
                self.below(1000)
            )),
            Recipe::Sku => AttributeValue::S(format!("SKU-{:05}", self.below(100_000))),
            Recipe::Text => {
                // Written in place: a sentence of words, the first capitalised (the words
                // drawn in the same order as ever, so the sample does not change).
                let n = self.between(3, 7);
                let mut text = String::with_capacity(64);
                for i in 0..n {
                    let word = self.pick(WORDS);
                    if i == 0 {
                        push_capitalised(&mut text, word);
                    } else {
                        text.push(' ');
                        text.push_str(word);
                    }
                }
                AttributeValue::S(text)
            }
            Recipe::Words => {
                AttributeValue::S(format!("{}-{}", self.pick(WORDS), self.pick(WORDS)))
            }
            Recipe::Expiry => AttributeValue::N(signed_decimal(self.anchor + 90 * DAY)),
            Recipe::EpochTime => {
                let t = self.next_time();
                AttributeValue::N(signed_decimal(t))
            }
            Recipe::Money(low, high) => {
                let c = self.between(low * 100, high * 100);
                AttributeValue::N(money(c))
            }
            Recipe::Integer(low, high) => {
                AttributeValue::N(signed_decimal(self.between(*low, *high)))
            }
            Recipe::Binary => {
                let len = self.between(8, 16) as usize;
                AttributeValue::B(encode_binary(&self.bytes(len)))
            }
            Recipe::Bool => AttributeValue::Bool(self.chance(0.5)),
            Recipe::Null => AttributeValue::Null(true),
            Recipe::AddressMap => {
                let mut map = BTreeMap::new();
                let street = format!("{} {}", self.between(1, 240), self.pick(STREETS));
                map.insert("street".to_string(), AttributeValue::S(street));
                map.insert(
                    "city".to_string(),
                    AttributeValue::S(self.pick(CITIES).to_string()),
                );
                map.insert(
                    "postcode".to_string(),
                    AttributeValue::S(format!("{:05}", self.below(100_000))),
                );
                AttributeValue::M(map)
            }
            Recipe::Map => {
                let mut map = BTreeMap::new();
                map.insert(
                    "label".to_string(),
                    AttributeValue::S(self.pick(WORDS).to_string()),
                );
                map.insert(
                    "count".to_string(),
                    AttributeValue::N(self.between(0, 50).to_string()),
                );
                map.insert(
                    "tags".to_string(),
                    AttributeValue::L(vec![AttributeValue::S(self.pick(WORDS).to_string())]),
                );
                AttributeValue::M(map)
            }
            // An embedding: `n` numbers in -1 to 1 of eight decimals, as an embedding model's
            // 32-bit floats are sent (a list of numbers: issue 40).
            Recipe::Vector(n) => AttributeValue::L(
                (0..*n)
                    .map(|_| {
                        AttributeValue::N(unit_fraction(self.between(-99_999_999, 99_999_999)))
                    })
                    .collect(),
            ),
            Recipe::List => {
                let n = self.between(1, 3);
                AttributeValue::L(
                    (0..n)
                        .map(|_| AttributeValue::S(self.pick(WORDS).to_string()))
                        .collect(),
                )
            }
            Recipe::StringSet => {
                let n = self.between(1, 3) as usize;
                let mut set: Vec<String> = Vec::new();
                while set.len() < n {
                    let w = self.pick(WORDS).to_string();
                    if !set.contains(&w) {
                        set.push(w);
                    }
                }
                set.sort();
                AttributeValue::SS(set)
            }
            Recipe::NumberSet => {
                let n = self.between(1, 3) as usize;
                let mut set: Vec<i64> = Vec::new();
                while set.len() < n {
                    let v = self.between(1, 100);
                    if !set.contains(&v) {
                        set.push(v);
                    }
                }
                set.sort_unstable();
                AttributeValue::NS(set.iter().map(i64::to_string).collect())
            }
            Recipe::BinarySet => {
                let a = self.bytes(8);
                let mut b = self.bytes(8);
                if a == b {
                    b.push(0);
                }
                AttributeValue::BS(vec![encode_binary(&a), encode_binary(&b)])
            }
        }
    }

    fn bytes(&mut self, len: usize) -> Vec<u8> {
        (0..len).map(|_| self.below(256) as u8).collect()
    }

    /// A prefixed short id, unique for this entity and attribute: `customer_01HV3K7Q`.
    fn id(&mut self, stem: &str, salt: u64) -> String {
        // Multiplying by an odd number modulo 2^40 is a bijection, and so is the XOR: distinct
        // indexes give distinct ids.
        const MASK: u64 = (1 << 40) - 1;
        let scrambled =
            ((u64::from(self.index) ^ salt) & MASK).wrapping_mul(0x9E37_79B9_7F4B) & MASK;
        let mut text = String::with_capacity(stem.len() + 9);
        text.push_str(stem);
        text.push('_');
        for k in (0..8).rev() {
            text.push(char::from(
                CROCKFORD[((scrambled >> (k * 5)) & 31) as usize],
            ));
        }
        text
    }
}

/// How an attribute's values are made, decided once per attribute from its type, name and
/// hints.
#[derive(Debug, Clone)]
pub(super) enum Recipe {
    Enum {
        values: Vec<String>,
        number: bool,
    },
    DistinctN(u64),
    DistinctS(u64, String),
    Id {
        stem: String,
        salt: u64,
    },
    Email,
    Username,
    FirstName,
    LastName,
    FullName,
    TitleName,
    Time,
    Date,
    Phone,
    Address,
    Pick(&'static [&'static str]),
    Url,
    Sku,
    Text,
    Words,
    Expiry,
    EpochTime,
    Money(i64, i64),
    Integer(i64, i64),
    Binary,
    Bool,
    Null,
    AddressMap,
    Map,
    List,
    /// A vector of a vector index: a list of this many numbers.
    Vector(u32),
    StringSet,
    NumberSet,
    BinarySet,
}

/// Decides how `attribute` of `entity` gets its values.
pub(super) fn classify(attribute: &Attribute, entity: &str, seed: u64) -> Recipe {
    let name = attribute.name.as_str();
    let lower = name.to_ascii_lowercase();
    if !attribute.values.is_empty() {
        return Recipe::Enum {
            values: attribute.values.clone(),
            number: attribute.ty == AttrType::N,
        };
    }
    if let Some(distinct) = attribute.distinct.filter(|d| *d > 0 && *d <= 10_000)
        && matches!(attribute.ty, AttrType::S | AttrType::N)
        && !is_id(name)
    {
        return match attribute.ty {
            AttrType::N => Recipe::DistinctN(distinct),
            _ => Recipe::DistinctS(distinct, initials(name)),
        };
    }
    match attribute.ty {
        AttrType::S => classify_string(name, &lower, entity, seed),
        AttrType::N => classify_number(name, &lower),
        AttrType::B => Recipe::Binary,
        AttrType::Bool => Recipe::Bool,
        AttrType::Null => Recipe::Null,
        AttrType::M if lower.contains("address") || lower.contains("location") => {
            Recipe::AddressMap
        }
        AttrType::M => Recipe::Map,
        AttrType::L => Recipe::List,
        AttrType::SS => Recipe::StringSet,
        AttrType::NS => Recipe::NumberSet,
        AttrType::BS => Recipe::BinarySet,
    }
}

fn classify_string(name: &str, lower: &str, entity: &str, seed: u64) -> Recipe {
    let has = |words: &[&str]| words.iter().any(|w| lower.contains(w));
    if is_id(name) {
        let stem = id_stem(name);
        let stem = if stem.is_empty() {
            entity.to_ascii_lowercase()
        } else {
            stem
        };
        let salt = fnv(seed, &[entity, ".", name]);
        return Recipe::Id { stem, salt };
    }
    if has(&["email"]) {
        return Recipe::Email;
    }
    if matches!(lower, "username" | "login" | "handle") {
        return Recipe::Username;
    }
    if has(&["firstname"]) || lower == "givenname" {
        return Recipe::FirstName;
    }
    if has(&["lastname", "surname"]) || lower == "familyname" {
        return Recipe::LastName;
    }
    if lower.ends_with("name") && !lower.contains("file") {
        if lower == "name" || has(&["customer", "user", "full", "person", "contact"]) {
            return Recipe::FullName;
        }
        return Recipe::TitleName;
    }
    if is_time(name) {
        return Recipe::Time;
    }
    if is_date(lower) {
        return Recipe::Date;
    }
    if has(&["phone", "mobile"]) {
        return Recipe::Phone;
    }
    if has(&["address"]) {
        return Recipe::Address;
    }
    if has(&["city"]) {
        return Recipe::Pick(CITIES);
    }
    if has(&["country"]) {
        return Recipe::Pick(&["PT", "US", "JP", "KE", "CA", "FR", "AU", "NO"]);
    }
    if has(&["currency"]) {
        return Recipe::Pick(&["USD", "EUR", "GBP", "JPY"]);
    }
    if has(&["url", "website", "link"]) {
        return Recipe::Url;
    }
    if has(&["sku"]) {
        return Recipe::Sku;
    }
    if has(&["description", "note", "comment", "title", "text", "body"]) {
        return Recipe::Text;
    }
    Recipe::Words
}

fn classify_number(name: &str, lower: &str) -> Recipe {
    let has = |words: &[&str]| words.iter().any(|w| lower.contains(w));
    if has(&["expire"]) || lower == "ttl" {
        return Recipe::Expiry;
    }
    if is_time(name) || has(&["epoch", "timestamp"]) {
        return Recipe::EpochTime;
    }
    if has(&["price", "cost", "fee"]) {
        return Recipe::Money(1, 500);
    }
    if has(&["total", "amount", "balance", "revenue"]) {
        return Recipe::Money(10, 2000);
    }
    let (low, high) = if has(&["quantity"]) || lower == "qty" {
        (1, 10)
    } else if has(&["priority", "rating", "score", "stars"]) {
        (1, 5)
    } else if has(&["count", "views"]) {
        (0, 500)
    } else if has(&["age"]) {
        (18, 90)
    } else if has(&["percent"]) {
        (0, 100)
    } else if has(&["year"]) {
        (2015, 2025)
    } else if has(&["version"]) {
        (1, 20)
    } else {
        (0, 1000)
    };
    Recipe::Integer(low, high)
}

/// FNV-1a of the parts' bytes one after the other, as of their concatenation (which is not
/// formatted: an id attribute of every entity is salted so).
fn fnv(seed: u64, text: &[&str]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ seed;
    for b in text.iter().flat_map(|part| part.bytes()) {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// `customerId` -> `customer`; `order_id` -> `order`; `id` -> ``.
fn id_stem(name: &str) -> String {
    let stem = name
        .strip_suffix("Id")
        .or_else(|| name.strip_suffix("ID"))
        .or_else(|| name.strip_suffix("_id"))
        .or_else(|| name.strip_suffix("id"))
        .unwrap_or(name);
    stem.trim_end_matches('_').to_ascii_lowercase()
}

/// `id`, `customerId`, `orderID`, `order_id` (but not `paid`).
pub(super) fn is_id(name: &str) -> bool {
    name.eq_ignore_ascii_case("id")
        || name.ends_with("Id")
        || name.ends_with("ID")
        || name.to_ascii_lowercase().ends_with("_id")
}

/// `createdAt`, `created_at`, `timestamp`, `startTime`.
fn is_time(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    name.ends_with("At")
        || lower.ends_with("_at")
        || lower.contains("timestamp")
        || lower.ends_with("time")
}

fn is_date(lower: &str) -> bool {
    lower.contains("date") || lower == "day" || lower.ends_with("day") || lower.contains("birthday")
}

/// `fulfillmentCenter` -> `FC`.
fn initials(name: &str) -> String {
    let mut out = String::new();
    let mut previous_lower = false;
    for (i, c) in name.chars().enumerate() {
        if i == 0 || (c.is_ascii_uppercase() && previous_lower) {
            out.push(c.to_ascii_uppercase());
        }
        previous_lower = c.is_ascii_lowercase();
    }
    out
}

/// Appends `word` with its first letter in upper case (the rest copied whole, not char by
/// char: this runs for most text values).
fn push_capitalised(text: &mut String, word: &str) {
    let mut chars = word.chars();
    if let Some(c) = chars.next() {
        text.extend(c.to_uppercase());
        text.push_str(chars.as_str());
    }
}

/// Appends `n` in decimal, zero-padded to at least `width` digits (what `{n:0width$}` writes,
/// without the formatting machinery: this runs for most generated values).
fn push_padded(text: &mut String, n: u64, width: usize) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    let mut rest = n;
    loop {
        at -= 1;
        digits[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    for _ in (digits.len() - at)..width {
        text.push('0');
    }
    for &d in &digits[at..] {
        text.push(char::from(d));
    }
}

/// `n` in decimal: what `n.to_string()` gives.
fn decimal(n: u64) -> String {
    let mut text = String::with_capacity(20);
    push_padded(&mut text, n, 1);
    text
}

/// `n` in decimal with its sign: what `n.to_string()` gives.
/// `n` hundred-millionths as DynamoDB stores the number: `-1234500` -> `-0.012345`, `0` -> `0`.
fn unit_fraction(n: i64) -> String {
    if n == 0 {
        return "0".to_string();
    }
    let sign = if n < 0 { "-" } else { "" };
    let digits = format!("{:08}", n.unsigned_abs());
    format!("{sign}0.{}", digits.trim_end_matches('0'))
}

fn signed_decimal(n: i64) -> String {
    let mut text = String::with_capacity(20);
    if n < 0 {
        text.push('-');
    }
    push_padded(&mut text, n.unsigned_abs(), 1);
    text
}

/// `c` cents as DynamoDB stores the number: `1250` -> `12.5`, `1200` -> `12`, `1205` ->
/// `12.05` (what [`trim_cents`] makes of `{c / 100}.{c % 100:02}`).
fn money(c: i64) -> String {
    if c < 0 {
        return trim_cents(format!("{}.{:02}", c / 100, c % 100));
    }
    let (whole, cents) = (c / 100, (c % 100) as u64);
    let mut text = signed_decimal(whole);
    if cents != 0 {
        text.push('.');
        if cents % 10 == 0 {
            push_padded(&mut text, cents / 10, 1);
        } else {
            push_padded(&mut text, cents, 2);
        }
    }
    text
}

/// `12.50` -> `12.5`, `12.00` -> `12`: numbers as DynamoDB stores them.
fn trim_cents(text: String) -> String {
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    }
}

/// Days since 1970-01-01 to (year, month, day), proleptic Gregorian (Howard Hinnant's
/// `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

/// `2025-03-14T09:26:53Z`.
pub fn iso_datetime(seconds: i64) -> String {
    let s = seconds.rem_euclid(DAY) as u64;
    let mut text = String::with_capacity(20);
    push_date(&mut text, seconds);
    text.push('T');
    push_padded(&mut text, s / 3600, 2);
    text.push(':');
    push_padded(&mut text, s % 3600 / 60, 2);
    text.push(':');
    push_padded(&mut text, s % 60, 2);
    text.push('Z');
    text
}

/// Appends `YYYY-MM-DD` (what `{y:04}-{m:02}-{d:02}` writes).
fn push_date(text: &mut String, seconds: i64) {
    let (y, m, d) = civil_from_days(seconds.div_euclid(DAY));
    if y < 0 {
        text.push_str(&format!("{y:04}"));
    } else {
        push_padded(text, y as u64, 4);
    }
    text.push('-');
    push_padded(text, u64::from(m), 2);
    text.push('-');
    push_padded(text, u64::from(d), 2);
}

/// `2025-03-14`.
pub(super) fn iso_date(seconds: i64) -> String {
    let mut text = String::with_capacity(10);
    push_date(&mut text, seconds);
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_format_as_iso_8601_utc() {
        assert_eq!(iso_datetime(EPOCH_START), "2025-01-01T00:00:00Z");
        assert_eq!(iso_datetime(951_782_400 + 3_661), "2000-02-29T01:01:01Z");
        assert_eq!(iso_date(0), "1970-01-01");
    }

    #[test]
    fn names_read_as_ids_times_and_initials() {
        assert!(is_id("customerId") && is_id("order_id") && is_id("id") && !is_id("paid"));
        assert!(is_time("createdAt") && is_time("occurred_at") && !is_time("format"));
        assert_eq!(initials("fulfillmentCenter"), "FC");
        assert_eq!(id_stem("customerId"), "customer");
        assert_eq!(trim_cents("12.50".into()), "12.5");
        assert_eq!(trim_cents("12.00".into()), "12");
        for c in [0, 5, 10, 99, 100, 1200, 1205, 1250, 199_999, -5, -1250] {
            assert_eq!(
                money(c),
                trim_cents(format!("{}.{:02}", c / 100, c % 100)),
                "{c}"
            );
        }
        for n in [0, 7, 42, 1_000_000, -3, i64::MIN, i64::MAX] {
            assert_eq!(signed_decimal(n), n.to_string());
        }
        for t in [
            0,
            EPOCH_START + 3_661,
            -86_400 * 800_000 + 59,
            253_402_300_799,
        ] {
            let (y, m, d) = civil_from_days(t.div_euclid(DAY));
            let s = t.rem_euclid(DAY);
            let by_format = format!(
                "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
                s / 3600,
                s % 3600 / 60,
                s % 60
            );
            assert_eq!(iso_datetime(t), by_format);
            assert_eq!(iso_date(t), by_format[..by_format.len() - 10]);
        }
    }
}
