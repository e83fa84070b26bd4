//! The words a short key tag stands for (`c` -> `customer`, `shp` -> `shipmentItem`,
//! `d` -> `Device`), so a tag-named variable reads as a person would name it (`customerId`, not
//! `cId`; issue 17). The words are names the table's author wrote: entity names (facets, the
//! values of an entity-type attribute) and the stems of attributes named as ids
//! (`customer_id`, `DeviceID`). Nothing is guessed from a dictionary: a tag no author's word
//! expands keeps its own name.

use crate::casing;

/// Words a tag may abbreviate, in the order the author wrote them.
#[derive(Debug, Default)]
pub(super) struct Words {
    words: Vec<Word>,
}

#[derive(Debug)]
struct Word {
    /// The word's parts as written (`shipment`, `Item`).
    parts: Vec<String>,
    /// The same parts normalised ([`super::normalise`]), worked out once for every tag asked.
    normal_parts: Vec<String>,
    /// The tag (normalised) that leads the last part of the entity's table keys, its own
    /// identity: `shp` for `shipmentItem` stored at `PK = o#1, SK = shp#2`. None for an
    /// attribute's stem.
    identity: Option<String>,
}

impl Words {
    /// An entity's name and the tag its identity (the last tagged part of its table keys)
    /// leads with, if any.
    pub(super) fn entity(&mut self, name: &str, identity: Option<&str>) {
        self.push(name, identity.map(super::normalise));
    }

    /// An attribute of the table: its stem is a word when its name says it is an id
    /// (`customer_id` -> `customer`).
    pub(super) fn attribute(&mut self, name: &str) {
        let stem = super::strip_id(name);
        if stem.len() < name.len() {
            self.push(stem, None);
        }
    }

    fn push(&mut self, text: &str, identity: Option<String>) {
        let parts = casing::words(text);
        if parts.is_empty() {
            return;
        }
        let normal_parts = parts.iter().map(|p| super::normalise(p)).collect();
        self.words.push(Word {
            parts,
            normal_parts,
            identity,
        });
    }

    /// The word `tag` abbreviates, when one does unambiguously (see [`Word::abbreviated_by`];
    /// `ORDER` stays `order`).
    ///
    /// First, an entity whose identity the tag leads and abbreviates is named whole (`shp`
    /// -> `shipmentItem`); of several, the shortest (`w` -> `warehouse`, not
    /// `warehouseItem`). Otherwise the tag stands for the fewest leading words of an author's
    /// name that it abbreviates (`o` of `orderItem` -> `order`; `d` of `DeviceID` ->
    /// `Device`), when every name gives the same words (`c` of `company_id` and
    /// `customer_id` expands to nothing).
    pub(super) fn expand(&self, tag: &str) -> Option<String> {
        let t = super::normalise(tag);
        if t.is_empty() {
            return None;
        }
        let mut owners: Vec<String> = self
            .words
            .iter()
            .filter(|w| w.identity.as_deref() == Some(t.as_str()))
            .filter(|w| w.abbreviated_by(&t, w.parts.len()))
            .map(|w| w.text(w.parts.len()))
            .collect();
        owners.sort_by_key(String::len);
        if let Some(shortest) = owners.first() {
            let tie = owners.iter().any(|o| {
                o.len() == shortest.len() && super::normalise(o) != super::normalise(shortest)
            });
            return (!tie).then(|| shortest.clone());
        }
        let phrases: Vec<String> = self
            .words
            .iter()
            .filter_map(|w| {
                (1..=w.parts.len())
                    .find(|&n| w.abbreviated_by(&t, n))
                    .map(|n| w.text(n))
            })
            .collect();
        let first = phrases.first()?;
        phrases
            .iter()
            .all(|p| super::normalise(p) == super::normalise(first))
            .then(|| first.clone())
    }
}

impl Word {
    /// Whether `tag` (normalised) abbreviates the first `n` parts: they start with its first
    /// letter, hold its letters in order and are longer, and it is not itself their leading
    /// parts (`order` of `orderItem`).
    fn abbreviated_by(&self, tag: &str, n: usize) -> bool {
        let parts = &self.normal_parts[..n];
        let joined = parts.concat();
        let mut leading = String::new();
        for part in parts {
            leading.push_str(part);
            if leading == tag {
                return false;
            }
        }
        let mut tag_chars = tag.chars();
        let Some(first) = tag_chars.next() else {
            return false;
        };
        let mut rest = joined.chars();
        joined.len() > tag.len()
            && rest.next() == Some(first)
            && tag_chars.all(|c| rest.any(|w| w == c))
    }

    /// The first `n` parts as written, joined (`shipmentItem`, `order`).
    fn text(&self, n: usize) -> String {
        self.parts[..n].concat()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn online_shop() -> Words {
        let mut words = Words::default();
        // AnOnlineShop's entities and the tags of their sort keys (`PK = o#1, SK = shp#2`).
        for (name, identity) in [
            ("customer", "c"),
            ("product", "p"),
            ("warehouse", "w"),
            ("warehouseItem", "w"),
            ("orderItem", "p"),
            ("order", "c"),
            ("invoice", "i"),
            ("shipment", "sh"),
            ("shipmentItem", "shp"),
            ("payment", "pmn"),
        ] {
            words.entity(name, Some(identity));
        }
        words
    }

    #[test]
    fn a_short_tag_expands_to_the_entity_that_owns_it() {
        let words = online_shop();
        let expanded: Vec<_> = ["c", "p", "w", "o", "i", "sh", "shp", "pmn"]
            .iter()
            .map(|t| words.expand(t).unwrap_or_default())
            .collect();
        assert_eq!(
            expanded,
            [
                "customer",
                "product",
                "warehouse",
                "order",
                "invoice",
                "shipment",
                "shipmentItem",
                "payment"
            ]
        );
    }

    #[test]
    fn a_whole_word_or_an_unknown_tag_is_not_expanded() {
        let words = online_shop();
        assert_eq!(words.expand("ORDER"), None, "order is already a word");
        assert_eq!(
            words.expand("u"),
            None,
            "no word of the author's starts with u"
        );
        assert_eq!(words.expand("customer"), None, "not shorter than the word");
    }

    #[test]
    fn two_equally_good_words_expand_nothing() {
        let mut words = Words::default();
        words.attribute("company_id");
        words.attribute("customer_id");
        assert_eq!(words.expand("c"), None);
        words.attribute("DeviceID");
        assert_eq!(words.expand("d").as_deref(), Some("Device"));
        assert_eq!(words.expand("dev").as_deref(), Some("Device"));
    }

    #[test]
    fn a_tag_of_a_compound_name_it_does_not_own_is_its_leading_word() {
        let mut words = Words::default();
        words.entity("customer", Some("c"));
        words.entity("orderItem", Some("p"));
        assert_eq!(words.expand("o").as_deref(), Some("order"));
        assert_eq!(
            words.expand("p"),
            None,
            "p is orderItem's product, which is not here"
        );
    }

    #[test]
    fn only_attributes_named_as_ids_give_words() {
        let mut words = Words::default();
        words.attribute("Price");
        words.attribute("parent_access_token");
        assert_eq!(words.expand("p"), None);
    }
}
