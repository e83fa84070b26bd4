//! The naming check's tests (tests.rs is full).
// issue 43: an entity's few attributes are compared pair by pair, many through a set; both
// find each repeated name once per repetition, in order.
#[test]
fn an_entitys_repeated_attributes_are_found_however_many_it_has() {
    for n in [3, 40] {
        let mut d =
            crate::coverage::testing::design("table app PK\nentity User userId | PK=USER#{userId}");
        let attributes = &mut d.entities[0].attributes;
        for i in 0..n {
            attributes.push(crate::model::Attribute::new(
                format!("a{i}"),
                crate::model::AttrType::S,
            ));
        }
        for name in ["a1", "userId", "a1"] {
            attributes.push(crate::model::Attribute::new(
                name,
                crate::model::AttrType::S,
            ));
        }
        let repeated: Vec<String> = crate::analysis::analyze(&d)
            .findings
            .iter()
            .filter(|f| f.code == "KP017")
            .map(|f| f.message.clone())
            .collect();
        assert_eq!(
            repeated,
            [
                "User has two attributes named `a1`",
                "User has two attributes named `userId`",
                "User has two attributes named `a1`",
            ],
            "{n} attributes"
        );
    }
}
