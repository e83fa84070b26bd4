//! What a live room tells its user, in words: the field a teammate's edit replaced, the
//! notices of the replica, and a colour for each teammate. No signals, no socket: tested here.

use keyplan_core::collab::protocol::Peer;
use keyplan_core::collab::{ClientId, Field, Notice};

/// The colours of teammates, picked by their client id so every client shows one person in
/// the same colour.
const COLOURS: [&str; 8] = [
    "#d9480f", "#1971c2", "#2f9e44", "#ae3ec9", "#e8590c", "#0c8599", "#c2255c", "#5c940d",
];

/// A teammate's colour, the same on every client.
pub fn colour(client: &ClientId) -> &'static str {
    // FNV-1a: stable across builds and platforms, unlike the std hasher.
    let hash = client.0.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    COLOURS[(hash % COLOURS.len() as u64) as usize]
}

/// A field of the design, in words: `entity / Order / description` is "description of Order".
pub fn field(field: &Field) -> String {
    let parts: Vec<&str> = field.0.iter().map(String::as_str).collect();
    match parts.as_slice() {
        [] => "design".to_string(),
        ["name"] => "design's name".to_string(),
        ["description"] => "design's description".to_string(),
        ["table", table] => format!("table {table}"),
        ["table", table, "index", index] => format!("index {index} of {table}"),
        ["entity", entity] => format!("entity {entity}"),
        ["entity", entity, "attributes", at] => match at.parse::<usize>() {
            Ok(at) => format!("attribute {} of {entity}", at + 1),
            Err(_) => format!("attributes of {entity}"),
        },
        ["entity", entity, "keys", key] => format!("{key} template of {entity}"),
        ["entity", entity, what] => format!("{what} of {entity}"),
        ["pattern", pattern] => format!("access pattern \u{201c}{pattern}\u{201d}"),
        ["card", entity] => format!("position of the {entity} card"),
        _ => field.to_string(),
    }
}

/// The name `client` gave, from the room's presence; "a teammate" when they have left.
pub fn name_of(peers: &[Peer], client: &ClientId) -> String {
    peers
        .iter()
        .find(|p| &p.client == client)
        .map_or_else(|| "a teammate".to_string(), |p| p.name.clone())
}

/// What the user is told of a notice.
pub fn notice(notice: &Notice, peers: &[Peer]) -> String {
    match notice {
        Notice::Replaced { field: f, by } => {
            format!("Your {} was replaced by {}", field(f), name_of(peers, by))
        }
        Notice::Refused { reason, .. } => format!("The room refused your edit: {reason}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use keyplan_core::collab::protocol::Access;

    fn path(parts: &[&str]) -> Field {
        Field(parts.iter().map(|p| p.to_string()).collect())
    }

    #[test]
    fn a_replaced_value_names_the_field_and_who_replaced_it() {
        let peers = vec![Peer {
            client: ClientId("c-ana".into()),
            name: "Ana".into(),
            access: Access::Edit,
            focus: Vec::new(),
        }];
        let replaced = |parts: &[&str], by: &str| {
            notice(
                &Notice::Replaced {
                    field: path(parts),
                    by: ClientId(by.into()),
                },
                &peers,
            )
        };
        assert_eq!(
            replaced(&["entity", "Order", "description"], "c-ana"),
            "Your description of Order was replaced by Ana"
        );
        assert_eq!(
            replaced(&["entity", "Order", "keys", "PK"], "c-ana"),
            "Your PK template of Order was replaced by Ana"
        );
        assert_eq!(
            replaced(&["entity", "Order", "attributes", "0"], "gone"),
            "Your attribute 1 of Order was replaced by a teammate"
        );
        assert_eq!(
            replaced(&["card", "Order"], "c-ana"),
            "Your position of the Order card was replaced by Ana"
        );
        assert_eq!(
            replaced(&["pattern", "Get order"], "c-ana"),
            "Your access pattern \u{201c}Get order\u{201d} was replaced by Ana"
        );
    }

    #[test]
    fn a_teammate_has_the_same_colour_everywhere() {
        let a = ClientId("c-0123456789abcdef".into());
        assert_eq!(colour(&a), colour(&a.clone()));
        let distinct: std::collections::BTreeSet<_> = (0..40)
            .map(|i| colour(&ClientId(format!("c-{i}"))))
            .collect();
        assert!(distinct.len() > 4, "{distinct:?}");
    }
}
