//! An access pattern: what the application reads or writes, by which inputs, with which sort
//! and filter conditions, in which order and how often; with the operators and actions a
//! pattern names, each spelled as the design file (and DynamoDB) spell it.

use serde::{Deserialize, Serialize};

use super::{VectorSearch, is_default, is_one_f64, is_one_u32, one_f64, one_u32};

/// What an access pattern does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Read items; coverage decides between GetItem, Query and Scan.
    #[default]
    Read,
    Put,
    Update,
    Delete,
    /// Several writes in one TransactWriteItems; see [`AccessPattern::writes`].
    Transact,
}

impl Action {
    /// Every action.
    /// A share link codes each by its position here (share::v1): append only, never reorder.
    pub const ALL: [Action; 5] = [
        Action::Read,
        Action::Put,
        Action::Update,
        Action::Delete,
        Action::Transact,
    ];

    pub fn is_read(self) -> bool {
        self == Action::Read
    }

    /// The action as the design file writes it: `read`, `put`, `transact`.
    pub fn as_str(self) -> &'static str {
        match self {
            Action::Read => "read",
            Action::Put => "put",
            Action::Update => "update",
            Action::Delete => "delete",
            Action::Transact => "transact",
        }
    }
}

/// A key-condition operator on the sort key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum SortOp {
    #[serde(rename = "=")]
    Eq,
    #[serde(rename = "<")]
    Lt,
    #[serde(rename = "<=")]
    Le,
    #[serde(rename = ">")]
    Gt,
    #[serde(rename = ">=")]
    Ge,
    #[serde(rename = "between")]
    Between,
    #[serde(rename = "begins_with")]
    BeginsWith,
}

impl SortOp {
    /// Every operator.
    /// A share link codes each by its position here (share::v1): append only, never reorder.
    pub const ALL: [SortOp; 7] = [
        SortOp::Eq,
        SortOp::Lt,
        SortOp::Le,
        SortOp::Gt,
        SortOp::Ge,
        SortOp::Between,
        SortOp::BeginsWith,
    ];

    /// The operator as written in a DynamoDB key condition expression.
    pub fn as_str(self) -> &'static str {
        match self {
            SortOp::Eq => "=",
            SortOp::Lt => "<",
            SortOp::Le => "<=",
            SortOp::Gt => ">",
            SortOp::Ge => ">=",
            SortOp::Between => "between",
            SortOp::BeginsWith => "begins_with",
        }
    }
}

/// A FilterExpression operator: what DynamoDB applies to each item a Query or Scan read, after
/// the key condition and before the page is returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum FilterOp {
    #[serde(rename = "=")]
    Eq,
    #[serde(rename = "<>")]
    Ne,
    #[serde(rename = "<")]
    Lt,
    #[serde(rename = "<=")]
    Le,
    #[serde(rename = ">")]
    Gt,
    #[serde(rename = ">=")]
    Ge,
    #[serde(rename = "between")]
    Between,
    #[serde(rename = "begins_with")]
    BeginsWith,
    #[serde(rename = "contains")]
    Contains,
    #[serde(rename = "in")]
    In,
    #[serde(rename = "attribute_exists")]
    Exists,
    #[serde(rename = "attribute_not_exists")]
    NotExists,
}

impl FilterOp {
    /// Every operator.
    /// A share link codes each by its position here (share::v1): append only, never reorder.
    pub const ALL: [FilterOp; 12] = [
        FilterOp::Eq,
        FilterOp::Ne,
        FilterOp::Lt,
        FilterOp::Le,
        FilterOp::Gt,
        FilterOp::Ge,
        FilterOp::Between,
        FilterOp::BeginsWith,
        FilterOp::Contains,
        FilterOp::In,
        FilterOp::Exists,
        FilterOp::NotExists,
    ];

    /// The operator as the design file writes it, which is also DynamoDB's (`<>`,
    /// `attribute_exists`).
    pub fn as_str(self) -> &'static str {
        match self {
            FilterOp::Eq => "=",
            FilterOp::Ne => "<>",
            FilterOp::Lt => "<",
            FilterOp::Le => "<=",
            FilterOp::Gt => ">",
            FilterOp::Ge => ">=",
            FilterOp::Between => "between",
            FilterOp::BeginsWith => "begins_with",
            FilterOp::Contains => "contains",
            FilterOp::In => "in",
            FilterOp::Exists => "attribute_exists",
            FilterOp::NotExists => "attribute_not_exists",
        }
    }
}

impl From<SortOp> for FilterOp {
    /// A sort-key operator as a filter operator (a Scan filters by the sort condition).
    fn from(op: SortOp) -> FilterOp {
        match op {
            SortOp::Eq => FilterOp::Eq,
            SortOp::Lt => FilterOp::Lt,
            SortOp::Le => FilterOp::Le,
            SortOp::Gt => FilterOp::Gt,
            SortOp::Ge => FilterOp::Ge,
            SortOp::Between => FilterOp::Between,
            SortOp::BeginsWith => FilterOp::BeginsWith,
        }
    }
}

/// A condition the read's items must meet to be returned, applied by DynamoDB after the key
/// condition (a FilterExpression): "only the unshipped ones" is
/// `{ "attribute": "status", "op": "<>" }`. Like a [`SortCondition`], it holds no value: the
/// caller gives the values at request time, as inputs named by [`FilterCondition::value_names`]
/// (`status`; `total` and `total_to` for `between`; `status_1` to `status_3` for an `in` of
/// three). A filter reads every item the key selects and returns fewer: it costs what it
/// reads.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct FilterCondition {
    pub attribute: String,
    pub op: FilterOp,
    /// For `in`: how many values the caller gives (1 to 100, DynamoDB's limit; 2 when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<u32>,
}

impl FilterCondition {
    /// The most values an `in` takes: DynamoDB allows up to 100 in an IN list.
    pub const MAX_IN_VALUES: u32 = 100;

    pub fn new(attribute: impl Into<String>, op: FilterOp) -> FilterCondition {
        FilterCondition {
            attribute: attribute.into(),
            op,
            count: None,
        }
    }

    /// How many values the condition compares with: none for attribute_exists and
    /// attribute_not_exists, two for between, [`FilterCondition::count`] (clamped to 1 to 100)
    /// for in, one otherwise.
    pub fn n_values(&self) -> usize {
        match self.op {
            FilterOp::Exists | FilterOp::NotExists => 0,
            FilterOp::Between => 2,
            FilterOp::In => self.count.unwrap_or(2).clamp(1, Self::MAX_IN_VALUES) as usize,
            _ => 1,
        }
    }

    /// The inputs the condition's values are given as, in order: `status`; `total` and
    /// `total_to` for between (as a sort condition's); `status_1`, `status_2`... for in.
    pub fn value_names(&self) -> Vec<String> {
        let attribute = &self.attribute;
        match self.op {
            FilterOp::Exists | FilterOp::NotExists => Vec::new(),
            FilterOp::Between => vec![attribute.clone(), format!("{attribute}_to")],
            FilterOp::In => (1..=self.n_values())
                .map(|i| format!("{attribute}_{i}"))
                .collect(),
            _ => vec![attribute.clone()],
        }
    }
}

/// A condition on one attribute that the pattern narrows by, which coverage maps onto an
/// index's sort key: "orders since a date" is `{ "attribute": "createdAt", "op": ">=" }`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct SortCondition {
    pub attribute: String,
    pub op: SortOp,
}

/// The order results come back in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Order {
    #[default]
    Asc,
    Desc,
}

/// One write inside a transaction.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WriteStep {
    /// `put`, `update` or `delete`.
    pub action: Action,
    pub entity: String,
    /// How many items of the entity this step writes (an order's lines).
    #[serde(default = "one_u32", skip_serializing_if = "is_one_u32")]
    pub count: u32,
    /// A condition expression, as DynamoDB takes it (`attribute_not_exists(PK)`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<String>,
    /// For an update: the attributes it changes (an index key among them costs a delete and a
    /// put in that index).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub changes: Vec<String>,
}

/// Something the application does with the table: a read to be served by GetItem or Query, or a
/// write whose cost and run matter.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct AccessPattern {
    pub name: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    #[serde(default, skip_serializing_if = "is_default")]
    pub action: Action,
    /// For a read, the entities it returns; for a put, update or delete, the entity written.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub entities: Vec<String>,
    /// The attributes the caller knows.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub inputs: Vec<String>,
    /// A condition the read narrows by, mapped onto an index's sort key.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sort: Option<SortCondition>,
    /// Conditions every returned item meets, all of them (a FilterExpression joined by AND),
    /// applied after the key condition: the read still reads, and pays for, what they drop.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub filter: Vec<FilterCondition>,
    #[serde(default, skip_serializing_if = "is_default")]
    pub order: Order,
    /// The attribute the results must come back ordered by (`createdAt` for "newest first"),
    /// apart from any range condition: only an index whose sort key sorts by it serves the read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub order_by: Option<String>,
    /// The read must see every write before it (strong consistency): no GSI can serve it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub consistent: bool,
    /// Expected requests per second at peak.
    #[serde(default = "one_f64")]
    pub rate: f64,
    /// How many times its average rate the peak `rate` is: 3 means the pattern averages a third
    /// of its peak over a month. On-demand bills the average, provisioned capacity must hold
    /// the peak. 1 (the default): the pattern runs at its peak all month.
    #[serde(default = "one_f64", skip_serializing_if = "is_one_f64")]
    pub peak_factor: f64,
    /// The Limit of one page of results.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page_size: Option<u32>,
    /// For an update: the attributes it changes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub changes: Vec<String>,
    /// For a transaction: its writes, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub writes: Vec<WriteStep>,
    /// For a put: a condition expression.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<String>,
    /// For a read: a similarity search on a vector index instead of a key lookup.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vector: Option<VectorSearch>,
    /// For a read: the PartiQL `SELECT` the application sends with ExecuteStatement, `?` for
    /// each value it binds (`SELECT * FROM "orders"."GSI1" WHERE GSI1PK = ? AND
    /// begins_with(GSI1SK, ?)`). The statement then decides how the read is served: its table
    /// or index, and whether its WHERE pins the partition key (else DynamoDB scans); `entities`
    /// still names what it returns, and its inputs, sort condition, filters and order are read
    /// from the statement (issue 40).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partiql: Option<String>,
}

impl AccessPattern {
    /// A read of `entities` by `inputs`, with defaults for the rest.
    pub fn read(name: impl Into<String>, entities: &[&str], inputs: &[&str]) -> AccessPattern {
        AccessPattern {
            name: name.into(),
            description: String::new(),
            action: Action::Read,
            entities: entities.iter().map(|s| s.to_string()).collect(),
            inputs: inputs.iter().map(|s| s.to_string()).collect(),
            sort: None,
            filter: Vec::new(),
            order: Order::Asc,
            order_by: None,
            consistent: false,
            rate: 1.0,
            peak_factor: 1.0,
            page_size: None,
            changes: Vec::new(),
            writes: Vec::new(),
            condition: None,
            vector: None,
            partiql: None,
        }
    }

    pub fn is_read(&self) -> bool {
        self.action.is_read()
    }

    /// The PartiQL statement a read is given as; `None` for a write, or a read given by its
    /// structured fields.
    pub fn statement(&self) -> Option<&str> {
        self.partiql.as_deref().filter(|_| self.is_read())
    }

    /// Requests per second averaged over a month: the peak `rate` over the `peak_factor` (a
    /// factor under 1, or not a number, counts as 1: the average cannot exceed the peak).
    pub fn average_rate(&self) -> f64 {
        let factor = if self.peak_factor.is_finite() && self.peak_factor > 1.0 {
            self.peak_factor
        } else {
            1.0
        };
        self.rate / factor
    }
}
