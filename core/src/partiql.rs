//! PartiQL read statements (issue 40): a read pattern may be given as the `SELECT` an
//! application sends with ExecuteStatement. This module holds the statement as keyplan reads
//! it ([`Statement`]: its table and index, the conditions of its WHERE, its ORDER BY, its `?`
//! parameters) and [`parse`], which reads one with the PartiQL team's parser (feature
//! `partiql`); `coverage::partiql` maps it onto the structured pattern it is equivalent to,
//! and [`render`] writes a structured read's verdict back as a statement.
//!
//! It knows no design and decides no verdict; a statement it cannot read is an [`Unmapped`]
//! that says why and where (the clause, the line and column), never a panic. DynamoDB's
//! dialect: <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ql-reference.select.html>.

use crate::model::FilterOp;

#[cfg(feature = "partiql")]
mod parse;
mod render;

pub use render::{quoted_name, refuses_partiql, render, render_bound};

/// The longest statement DynamoDB takes, in characters: ExecuteStatement's `Statement` is
/// 1 to 8,192 long
/// (<https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_ExecuteStatement.html>).
pub const MAX_STATEMENT_CHARS: usize = 8_192;

/// The deepest nesting of brackets a statement may have before it is parsed: the parser
/// recurses on them, and no read keyplan maps nests more than a few.
pub const MAX_NESTING: usize = 32;

/// The part of a statement something is in: where an [`Unmapped`] points.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Clause {
    Statement,
    Select,
    From,
    Where,
    OrderBy,
}

impl Clause {
    pub fn as_str(self) -> &'static str {
        match self {
            Clause::Statement => "the statement",
            Clause::Select => "SELECT",
            Clause::From => "FROM",
            Clause::Where => "WHERE",
            Clause::OrderBy => "ORDER BY",
        }
    }
}

/// Why keyplan cannot map a statement onto a read pattern, and where: the clause and the
/// byte offset of what it could not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unmapped {
    pub clause: Clause,
    /// Byte offset in the statement.
    pub at: usize,
    pub why: String,
}

impl Unmapped {
    pub fn new(clause: Clause, at: usize, why: impl Into<String>) -> Unmapped {
        Unmapped {
            clause,
            at,
            why: why.into(),
        }
    }

    /// `in WHERE at line 1, column 42: ...`, the line and column counted in characters from 1.
    pub fn describe(&self, statement: &str) -> String {
        let (line, column) = line_column(statement, self.at);
        format!(
            "in {} at line {line}, column {column}: {}",
            self.clause.as_str(),
            self.why
        )
    }
}

/// The line and column (from 1, in characters) of byte `at` of `text`.
pub fn line_column(text: &str, at: usize) -> (usize, usize) {
    let before = text.get(..at.min(text.len())).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

/// A value a condition compares with: a `?` the caller binds, or a literal in the text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    /// The n-th `?` of the statement, from 0.
    Parameter(usize),
    /// A string or number literal, as its text (`'ORDER#'` is `ORDER#`).
    Literal(String),
}

/// One condition of a WHERE on an attribute, as DynamoDB's PartiQL writes it: a comparison,
/// `BETWEEN`, `IN`, `begins_with`, `contains`, `IS [NOT] MISSING`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Term {
    pub attribute: String,
    /// `=`, `<>`, `<`, `<=`, `>`, `>=`, `between`, `in`, `begins_with`, `contains`,
    /// `attribute_exists` (IS NOT MISSING), `attribute_not_exists` (IS MISSING).
    pub op: FilterOp,
    pub values: Vec<Value>,
    /// Byte offset of the condition in the statement.
    pub at: usize,
}

/// A WHERE clause: conditions joined by AND and OR, or one keyplan does not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Condition {
    Term(Term),
    And(Vec<Condition>),
    Or {
        branches: Vec<Condition>,
        at: usize,
    },
    /// A condition keyplan cannot read (a function other than begins_with and contains, NOT,
    /// arithmetic...): what it is, the attributes it names, where.
    Other {
        what: String,
        attributes: Vec<String>,
        at: usize,
    },
}

impl Condition {
    /// The conditions joined by AND at the top: the whole condition when it is not an AND.
    pub fn conjuncts(&self) -> Vec<&Condition> {
        match self {
            Condition::And(all) => all.iter().flat_map(Condition::conjuncts).collect(),
            other => vec![other],
        }
    }
}

/// A `SELECT` read as keyplan reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Statement {
    pub table: String,
    /// Byte offset of the table's name.
    pub table_at: usize,
    /// The index after the table (`"orders"."GSI1"`), with its offset.
    pub index: Option<(String, usize)>,
    pub condition: Option<Condition>,
    /// ORDER BY's attribute, whether it is DESC, and its offset.
    pub order_by: Option<(String, bool, usize)>,
    /// How many `?` the statement has.
    pub parameters: usize,
}

/// Reads a `SELECT` statement. Without the `partiql` feature (the browser app), every
/// statement is [`Unmapped`]: `keyplan check` reads it.
pub fn parse(text: &str) -> Result<Statement, Unmapped> {
    bounds(text)?;
    #[cfg(feature = "partiql")]
    {
        parse::statement(text)
    }
    #[cfg(not(feature = "partiql"))]
    {
        Err(Unmapped::new(
            Clause::Statement,
            0,
            "this build of keyplan reads no PartiQL (the browser app leaves the parser out): `keyplan check` judges the statement",
        ))
    }
}

/// Whether this build reads PartiQL statements (the `partiql` feature).
pub const READS_PARTIQL: bool = cfg!(feature = "partiql");

/// The statement's length and nesting, checked before anything is parsed.
fn bounds(text: &str) -> Result<(), Unmapped> {
    if text.trim().is_empty() {
        return Err(Unmapped::new(
            Clause::Statement,
            0,
            "the statement is empty",
        ));
    }
    let n_chars = text.chars().count();
    if n_chars > MAX_STATEMENT_CHARS {
        return Err(Unmapped::new(
            Clause::Statement,
            0,
            format!(
                "the statement is {n_chars} characters long; DynamoDB takes at most {MAX_STATEMENT_CHARS}"
            ),
        ));
    }
    let mut depth = 0usize;
    for (at, c) in text.char_indices() {
        match c {
            '(' | '[' | '{' => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Err(Unmapped::new(
                        Clause::Statement,
                        at,
                        format!("brackets nest deeper than {MAX_NESTING}"),
                    ));
                }
            }
            ')' | ']' | '}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    Ok(())
}

#[cfg(all(test, feature = "partiql"))]
mod tests;
#[cfg(all(test, not(feature = "partiql")))]
mod tests_without_parser;
