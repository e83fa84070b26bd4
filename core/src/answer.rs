//! The answer types: the verdict of an access pattern (its operation, index, key condition,
//! suggestion), the findings with their quick fixes, and the [`Analysis`] that holds both.
//! Plain data with no reasoning in it, the leaf that coverage, findings, the evaluator and the
//! exporters all import; [`crate::analysis::analyze`] computes them (issue 14: with the types
//! in the same file as `analyze()`, coverage and findings imported the analysis back).

use serde::{Deserialize, Serialize};

use crate::model::{AttrType, FilterOp, KeyAttribute, SortOp};
use crate::template::KeyTemplate;

/// The DynamoDB operation a pattern resolves to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Operation {
    GetItem,
    Query,
    /// No index serves the read: the design is incomplete for this pattern.
    Scan,
    PutItem,
    UpdateItem,
    DeleteItem,
    TransactWriteItems,
    /// A similarity search on a vector index ([`Verdict::index`] names it).
    SearchVectors,
}

impl Operation {
    pub fn as_str(self) -> &'static str {
        match self {
            Operation::GetItem => "GetItem",
            Operation::Query => "Query",
            Operation::Scan => "Scan",
            Operation::PutItem => "PutItem",
            Operation::UpdateItem => "UpdateItem",
            Operation::DeleteItem => "DeleteItem",
            Operation::TransactWriteItems => "TransactWriteItems",
            Operation::SearchVectors => "SearchVectors",
        }
    }
}

/// A key condition expression with its placeholder values, as a Query or GetItem sends it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeyCondition {
    /// `PK = :pk AND begins_with(SK, :sk)`; for GetItem, the key's equalities joined by AND.
    pub expression: String,
    /// Each placeholder and the template of its value: (`:pk`, `CUSTOMER#{customerId}`). A
    /// value of a range condition on an unbound variable is written as that variable
    /// (`{createdAt}`); `between` has two placeholders.
    pub values: Vec<(String, String)>,
}

/// A key attribute and the template its value is rendered from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeyPart {
    /// The key attribute's name (`PK`, `GSI1SK`, or a natural attribute of a multi-attribute
    /// GSI key).
    pub attribute: String,
    pub template: KeyTemplate,
}

/// The condition on the (last) sort-key attribute of a Query.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SortKeyCondition {
    pub attribute: String,
    pub op: SortOp,
    /// One template, or two for `between`. Rendered with the pattern's inputs and, for a range,
    /// the condition's own value (`{createdAt}`); for begins_with, the prefix template.
    pub values: Vec<KeyTemplate>,
}

/// The structured form of a GetItem or Query: what [`KeyCondition`] says as text, for the
/// evaluator, the exporters and the runner to execute without re-parsing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuerySpec {
    /// Equalities on the partition key (one attribute, or up to four for a multi-attribute
    /// GSI key). A write-sharded template keeps its shard variable; see [`Verdict::shards`].
    pub partition: Vec<KeyPart>,
    /// Equalities on leading sort-key attributes (a GetItem's sort key; the leading parts of
    /// a multi-attribute GSI sort key).
    pub sort_equal: Vec<KeyPart>,
    pub sort_condition: Option<SortKeyCondition>,
}

/// One condition of a read's FilterExpression, structured: the attribute, the operator and
/// the inputs its values are given as.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FilterTerm {
    pub attribute: String,
    pub op: FilterOp,
    /// The inputs whose values the condition compares with, in order (none for
    /// attribute_exists; two for between).
    pub inputs: Vec<String>,
    /// Where the condition comes from: the pattern's `filter`, or an input (or, for a Scan, the
    /// sort condition) no key of the index holds.
    pub source: FilterSource,
}

/// Why a [`FilterTerm`] is in a read's FilterExpression.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FilterSource {
    /// One of the pattern's filter conditions.
    Filter,
    /// An input the key condition does not use: matched after the read.
    Input,
    /// A Scan's sort condition, which no key applies.
    Sort,
}

/// A FilterExpression with its placeholders, as a Query or Scan sends it: what DynamoDB
/// applies to every item the key condition read, before the page is returned.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FilterExpression {
    /// `#status = :status AND #total >= :total`, conditions joined by AND.
    pub expression: String,
    /// Each ExpressionAttributeNames placeholder and its attribute: (`#status`, `status`).
    pub names: Vec<(String, String)>,
    /// Each value placeholder and the template of its value, as [`KeyCondition::values`]:
    /// (`:status`, `{status}`).
    pub values: Vec<(String, String)>,
    /// The same conditions, structured, in the expression's order.
    pub terms: Vec<FilterTerm>,
}

/// A PartiQL statement with the template of each `?`'s value, in order
/// (`CUSTOMER#{customerId}`, `{status}`), rendered with the pattern's inputs as
/// [`KeyCondition::values`] are: what ExecuteStatement sends (issue 40).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartiqlStatement {
    pub statement: String,
    pub parameters: Vec<String>,
}

/// How one access pattern is served.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Verdict {
    /// The pattern's name.
    pub pattern: String,
    pub operation: Operation,
    /// The table the operation runs on.
    pub table: Option<String>,
    /// The index queried; `None` for the table itself (and for Scan and writes).
    pub index: Option<String>,
    pub key_condition: Option<KeyCondition>,
    /// The same key condition, structured.
    pub query: Option<QuerySpec>,
    /// For a Query or Scan whose items are matched after the read: the FilterExpression.
    pub filter: Option<FilterExpression>,
    /// DynamoDB's ScanIndexForward: false for a descending read.
    pub scan_forward: bool,
    /// For a Query that names its order or reads descending: the order it gives, in words
    /// (`newest first by createdAt (ScanIndexForward=false on GSI1SK)`).
    pub order: Option<String>,
    /// For a write-sharded partition key: the number of Queries to scatter over and merge.
    pub shards: Option<u32>,
    /// For a read: true unless the operation is Scan. Writes are always covered.
    pub covered: bool,
    /// For Scan: why each index cannot serve the pattern. For a covered read with several
    /// candidate indexes: why this one was chosen.
    pub reasons: Vec<String>,
    /// For Scan: a concrete index that would serve the pattern. For a Query sorted in memory:
    /// the re-keyed sort key and the index that would read in order, cheapest first.
    pub suggestions: Vec<Suggestion>,
    /// For a Query that does not read in the order the pattern asks for: the attribute its
    /// items are sorted by after the read, which reads every item the key condition matches
    /// (no page can be read alone).
    pub sorted_in_memory: Option<String>,
    /// For a read given as a PartiQL statement: the statement and what each `?` is bound to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub partiql: Option<PartiqlStatement>,
}

/// The kind of key a [`Suggestion`] proposes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SuggestionKind {
    /// A new global secondary index.
    Gsi,
    /// A local secondary index: the table's partition key, another sort key. It can only be
    /// added when the table is created.
    Lsi,
    /// The table's own key (a strongly consistent read the inputs cannot reach otherwise).
    TableKey,
    /// The sort key of an index the read already uses, re-keyed so that it sorts by the
    /// pattern's order: the items already stored must be rewritten (a migration).
    SortKey,
}

/// What would serve a read no index serves, as key templates an editor can apply directly,
/// and in words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Suggestion {
    pub kind: SuggestionKind,
    /// For a GSI: the existing one to overload (none of the entities fills it yet); `None`
    /// for a new one.
    pub index: Option<String>,
    /// The partition key's template; `None` for an LSI, which keeps the table's.
    pub partition: Option<String>,
    /// The sort key's template, if the index needs one.
    pub sort: Option<String>,
    /// The entities whose items fill the keys: each of them gets the templates.
    pub entities: Vec<String>,
    /// The advice as `keyplan check` prints it.
    pub text: String,
    /// What to know before following the advice (a constant partition key is a hot
    /// partition): shown next to it, never apart.
    pub warning: Option<String>,
}

impl Suggestion {
    /// What applying it does, as a button says it: `Use GSI3` or `Add this GSI`.
    pub fn action(&self) -> String {
        match (self.kind, &self.index) {
            (SuggestionKind::SortKey, _) => "Re-key the sort key".to_string(),
            (_, Some(index)) => format!("Use {index}"),
            (_, None) => "Add this GSI".to_string(),
        }
    }
}

impl std::fmt::Display for Suggestion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)?;
        match &self.warning {
            Some(warning) => write!(f, " (warning: {warning})"),
            None => Ok(()),
        }
    }
}

/// How bad a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Info,
    Warning,
    Error,
}

/// Something worth knowing about a design, with a stable code and where it is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// Stable across versions, for CI allow-lists: `KP0xx`.
    pub code: &'static str,
    pub severity: Severity,
    pub message: String,
    /// Where in the design; written as a path (`entities/Order/keys/PK`,
    /// `tables/orders/gsis/GSI1`, `patterns/Get order by id`) by [`Place`]'s `Display`.
    #[serde(rename = "path")]
    pub place: Place,
    /// A change that resolves the finding, offered as a quick fix; [`Fix::edit`] makes it an
    /// edit of the design.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fix: Option<Fix>,
}

/// Where in a design a finding is: typed, so the app selects the place without parsing a path
/// back (issue 14), and written as the path `keyplan check` and the JSON output show.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Place {
    /// `tables/orders`
    Table(String),
    /// `tables/orders/gsis/GSI1`, `tables/orders/lsis/ByDate`,
    /// `tables/products/vector_indexes/ByEmbedding`
    Index {
        table: String,
        kind: IndexPlace,
        index: String,
    },
    /// `entities/Order`
    Entity(String),
    /// `entities/Order/attributes/status`
    Attribute { entity: String, attribute: String },
    /// `entities/Order/table`: the table the entity names.
    EntityTable(String),
    /// `entities/Order/keys`: the entity's key templates together.
    Keys(String),
    /// `entities/Order/keys/PK`
    Key { entity: String, key: String },
    /// `patterns/Get order by id`
    Pattern(String),
}

/// Which list of a table an index place is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum IndexPlace {
    Gsi,
    Lsi,
    /// `tables/products/vector_indexes/ByEmbedding`
    Vector,
}

impl Place {
    /// The place of index `index` of `table`.
    pub fn gsi(table: &str, index: &str) -> Place {
        Place::Index {
            table: table.to_string(),
            kind: IndexPlace::Gsi,
            index: index.to_string(),
        }
    }

    pub fn lsi(table: &str, index: &str) -> Place {
        Place::Index {
            table: table.to_string(),
            kind: IndexPlace::Lsi,
            index: index.to_string(),
        }
    }

    pub fn vector_index(table: &str, index: &str) -> Place {
        Place::Index {
            table: table.to_string(),
            kind: IndexPlace::Vector,
            index: index.to_string(),
        }
    }

    pub fn key(entity: &str, key: &str) -> Place {
        Place::Key {
            entity: entity.to_string(),
            key: key.to_string(),
        }
    }
}

impl std::fmt::Display for Place {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Place::Table(t) => write!(f, "tables/{t}"),
            Place::Index { table, kind, index } => {
                let list = match kind {
                    IndexPlace::Gsi => "gsis",
                    IndexPlace::Lsi => "lsis",
                    IndexPlace::Vector => "vector_indexes",
                };
                write!(f, "tables/{table}/{list}/{index}")
            }
            Place::Entity(e) => write!(f, "entities/{e}"),
            Place::Attribute { entity, attribute } => {
                write!(f, "entities/{entity}/attributes/{attribute}")
            }
            Place::EntityTable(e) => write!(f, "entities/{e}/table"),
            Place::Keys(e) => write!(f, "entities/{e}/keys"),
            Place::Key { entity, key } => write!(f, "entities/{entity}/keys/{key}"),
            Place::Pattern(p) => write!(f, "patterns/{p}"),
        }
    }
}

impl Serialize for Place {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// A quick fix a finding offers, as data: what to change, by name. It becomes an
/// [`crate::edit::Edit`] through [`Fix::edit`], so applying it is one undoable step.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Fix {
    /// Adds the attribute a key template uses to its entity, required (a key needs it), in
    /// place of `replaces`, the id attribute the entity started with, which no key uses.
    AddAttribute {
        entity: String,
        attribute: String,
        #[serde(rename = "type")]
        ty: AttrType,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        replaces: Option<String>,
    },
    /// Renames `from` to `to` among a pattern's inputs, sort condition and order.
    RenamePatternAttribute {
        pattern: String,
        from: String,
        to: String,
    },
    /// Replaces a GSI's key that every item fills by joining attributes into one string
    /// (`{status}#{createdAt}`) with a multi-attribute key of those attributes, and drops the
    /// entities' templates for the key it replaces (issue 16). An empty list keeps that key.
    UseMultiAttributeKey {
        table: String,
        gsi: String,
        partition: Vec<KeyAttribute>,
        sort: Vec<KeyAttribute>,
    },
    /// Write-shards a partition key whose busiest partition takes more writes than one
    /// partition serves (KP014): every entity of `table` whose `key` has `template` gets
    /// `sharded`, the template with [`crate::concentration::shards_needed`] shards, the count
    /// the cost report gives (issue 43).
    ShardPartitionKey {
        table: String,
        key: String,
        template: String,
        sharded: String,
        shards: u32,
    },
}

impl Fix {
    /// What the fix does, as a button or `keyplan check` says it.
    pub fn label(&self) -> String {
        match self {
            Fix::AddAttribute {
                entity,
                attribute,
                replaces: Some(replaced),
                ..
            } => format!("Add attribute `{attribute}` to {entity} in place of `{replaced}`"),
            Fix::AddAttribute {
                entity, attribute, ..
            } => format!("Add attribute `{attribute}` to {entity}"),
            Fix::RenamePatternAttribute { pattern, from, to } => {
                format!("Rename `{from}` to `{to}` in `{pattern}`")
            }
            Fix::UseMultiAttributeKey {
                gsi,
                partition,
                sort,
                ..
            } => {
                let list = |keys: &[KeyAttribute]| {
                    keys.iter()
                        .map(|k| k.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                let roles: Vec<String> = [("partition", partition), ("sort", sort)]
                    .into_iter()
                    .filter(|(_, keys)| !keys.is_empty())
                    .map(|(role, keys)| format!("{role} key ({})", list(keys)))
                    .collect();
                format!("Use a multi-attribute {} on {gsi}", roles.join(" and "))
            }
            Fix::ShardPartitionKey {
                key,
                template,
                sharded,
                shards,
                ..
            } => format!("Write-shard {key} `{template}` into {shards} shards (`{sharded}`)"),
        }
    }
}

/// Everything keyplan says about a design.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Analysis {
    /// One verdict per pattern, in design order.
    pub verdicts: Vec<Verdict>,
    /// Findings, most severe first, then in design order.
    pub findings: Vec<Finding>,
}

impl Analysis {
    /// How many read patterns are served without a Scan, out of how many reads.
    pub fn coverage(&self) -> (usize, usize) {
        let reads: Vec<&Verdict> = self
            .verdicts
            .iter()
            .filter(|v| {
                matches!(
                    v.operation,
                    Operation::GetItem
                        | Operation::Query
                        | Operation::Scan
                        | Operation::SearchVectors
                )
            })
            .collect();
        (reads.iter().filter(|v| v.covered).count(), reads.len())
    }

    /// True when every read is covered and no finding is an error: `keyplan check` exits 0.
    pub fn passes(&self) -> bool {
        let (covered, reads) = self.coverage();
        covered == reads && self.findings.iter().all(|f| f.severity != Severity::Error)
    }

    /// How many findings are errors.
    pub fn errors(&self) -> usize {
        self.findings
            .iter()
            .filter(|f| f.severity == Severity::Error)
            .count()
    }

    /// The coverage line: `7 of 9 read patterns covered`, with `, 2 errors` while error
    /// findings stand (a design with errors is not done, however many reads are covered).
    pub fn summary(&self) -> String {
        let (covered, reads) = self.coverage();
        let covered = format!(
            "{} of {} covered",
            crate::counts::thousands(covered as u64),
            crate::counts::plural(reads, "read pattern")
        );
        match self.errors() {
            0 => covered,
            n => format!("{covered}, {}", crate::counts::plural(n, "error")),
        }
    }
}
