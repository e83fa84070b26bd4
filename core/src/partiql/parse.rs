//! A `SELECT` read with the PartiQL team's parser (`partiql-parser`) into a [`Statement`].
//!
//! DynamoDB's dialect writes each value the caller binds as `?`, which the PartiQL grammar
//! has no expression for: every `?` outside a string or a quoted name is read as the literal
//! `0` (one character, so every offset stays the statement's), and a literal at the offset
//! of a `?` is that parameter. Only what a read pattern can say is taken; anything else is an
//! [`Unmapped`] naming the clause and where.

use partiql_ast::ast;
use partiql_common::syntax::metadata::LocationMap;
use partiql_parser::{ParseError, Parser};

use super::{Clause, Condition, Statement, Term, Unmapped, Value};
use crate::model::FilterOp;

/// Reads `text` (already within [`super::bounds`]).
pub(super) fn statement(text: &str) -> Result<Statement, Unmapped> {
    let marks = question_marks(text);
    let mut masked = text.as_bytes().to_vec();
    for &at in &marks {
        masked[at] = b'0';
    }
    // Only ASCII `?` bytes were replaced by ASCII `0`: still UTF-8.
    let masked = String::from_utf8(masked)
        .map_err(|_| Unmapped::new(Clause::Statement, 0, "the statement is not UTF-8"))?;
    let parsed = Parser::default()
        .parse(&masked)
        .map_err(|e| syntax_error(e.errors.first()))?;
    let reader = Reader {
        locations: &parsed.locations,
        marks: &marks,
    };
    reader.top(&parsed.ast.node)
}

/// Byte offsets of the `?` that are parameters: outside '...' strings, "..." names and
/// `--` comments.
fn question_marks(text: &str) -> Vec<usize> {
    let bytes = text.as_bytes();
    let mut marks = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            quote @ (b'\'' | b'"') => {
                i += 1;
                while i < bytes.len() {
                    if bytes[i] == quote {
                        // A doubled quote is the quote itself.
                        if bytes.get(i + 1) == Some(&quote) {
                            i += 2;
                            continue;
                        }
                        break;
                    }
                    i += 1;
                }
            }
            b'-' if bytes.get(i + 1) == Some(&b'-') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'?' => marks.push(i),
            _ => {}
        }
        i += 1;
    }
    marks
}

fn syntax_error(error: Option<&ParseError<'_>>) -> Unmapped {
    let at = |p: &partiql_common::syntax::location::BytePosition| p.0.0 as usize;
    match error {
        Some(ParseError::UnexpectedToken(t)) => Unmapped::new(
            Clause::Statement,
            at(&t.location.start),
            format!("PartiQL does not expect `{}` here", t.inner.token),
        ),
        Some(ParseError::UnexpectedEndOfInput(p)) => {
            Unmapped::new(Clause::Statement, at(p), "the statement ends too early")
        }
        Some(ParseError::SyntaxError(s)) => {
            Unmapped::new(Clause::Statement, at(&s.location.start), s.inner.clone())
        }
        Some(ParseError::LexicalError(l)) => Unmapped::new(
            Clause::Statement,
            at(&l.location.start),
            format!("PartiQL cannot read it: {}", l.inner),
        ),
        _ => Unmapped::new(Clause::Statement, 0, "PartiQL cannot read the statement"),
    }
}

/// The table FROM names with its offset, and the index after it with its own.
type FromTable = (String, usize, Option<(String, usize)>);

struct Reader<'a> {
    locations: &'a LocationMap,
    marks: &'a [usize],
}

impl Reader<'_> {
    fn at(&self, id: partiql_common::node::NodeId) -> usize {
        self.locations.get(&id).map_or(0, |l| l.start.0.0 as usize)
    }

    fn expr_at(&self, e: &ast::Expr) -> usize {
        match e {
            ast::Expr::Error => 0,
            e => self.at(partiql_common::node::IdAnnotated::id(e)),
        }
    }

    fn top(&self, q: &ast::TopLevelQuery) -> Result<Statement, Unmapped> {
        if let Some(with) = &q.with {
            return Err(Unmapped::new(
                Clause::Statement,
                self.at(with.id),
                "DynamoDB's PartiQL has no WITH",
            ));
        }
        let query = &q.query;
        if let Some(limit) = &query.limit_offset {
            return Err(Unmapped::new(
                Clause::Statement,
                self.at(limit.id),
                "DynamoDB's PartiQL has no LIMIT or OFFSET: a pattern's page size is its `page_size`",
            ));
        }
        let ast::QuerySet::Select(select) = &query.set.node else {
            return Err(Unmapped::new(
                Clause::Statement,
                self.at(query.id),
                "only a SELECT is a read pattern (INSERT, UPDATE, DELETE and set operations are not mapped)",
            ));
        };
        let select = &select.node;
        if let Some(g) = &select.group_by {
            return Err(Unmapped::new(
                Clause::Statement,
                self.at(g.id),
                "DynamoDB's PartiQL has no GROUP BY",
            ));
        }
        if let Some(h) = &select.having {
            return Err(Unmapped::new(
                Clause::Statement,
                self.at(h.id),
                "DynamoDB's PartiQL has no HAVING",
            ));
        }
        if let Some(l) = &select.from_let {
            return Err(Unmapped::new(
                Clause::Statement,
                self.at(l.id),
                "DynamoDB's PartiQL has no LET",
            ));
        }
        self.projection(&select.project)?;
        let Some(from) = &select.from else {
            return Err(Unmapped::new(
                Clause::From,
                0,
                "the SELECT has no FROM: name the table",
            ));
        };
        let (table, table_at, index) = self.from(from)?;
        let condition = match &select.where_clause {
            Some(w) => Some(self.condition(&w.expr)?),
            None => None,
        };
        let order_by = match &query.order_by {
            Some(o) => self.order_by(o)?,
            None => None,
        };
        Ok(Statement {
            table,
            table_at,
            index,
            condition,
            order_by,
            parameters: self.marks.len(),
        })
    }

    /// `*` or a list of attributes: what the read returns of each item, which does not change
    /// how it is served (DynamoDB reads and bills whole items).
    fn projection(&self, p: &ast::AstNode<ast::Projection>) -> Result<(), Unmapped> {
        match &p.kind {
            ast::ProjectionKind::ProjectStar | ast::ProjectionKind::ProjectList(_) => Ok(()),
            _ => Err(Unmapped::new(
                Clause::Select,
                self.at(p.id),
                "only `*` or a list of attributes is a DynamoDB projection",
            )),
        }
    }

    fn from(&self, from: &ast::AstNode<ast::FromClause>) -> Result<FromTable, Unmapped> {
        let ast::FromSource::FromLet(source) = &from.source else {
            return Err(Unmapped::new(
                Clause::From,
                self.at(from.id),
                "DynamoDB's PartiQL has no JOIN: a read reads one table or index",
            ));
        };
        let not_a_table = || {
            Unmapped::new(
                Clause::From,
                self.at(source.id),
                "FROM names a table, or a table and an index: \"orders\" or \"orders\".\"GSI1\"",
            )
        };
        match source.expr.as_ref() {
            ast::Expr::VarRef(v) => Ok((v.name.value.clone(), self.at(v.id), None)),
            ast::Expr::Path(p) => {
                let ast::Expr::VarRef(table) = p.root.as_ref() else {
                    return Err(not_a_table());
                };
                let [ast::PathStep::PathProject(step)] = p.steps.as_slice() else {
                    return Err(not_a_table());
                };
                let index = match step.index.as_ref() {
                    ast::Expr::VarRef(v) => (v.name.value.clone(), self.at(v.id)),
                    ast::Expr::Lit(l) => match &l.node {
                        ast::Lit::CharStringLit(s) => (s.clone(), self.at(l.id)),
                        _ => return Err(not_a_table()),
                    },
                    _ => return Err(not_a_table()),
                };
                Ok((table.name.value.clone(), self.at(table.id), Some(index)))
            }
            _ => Err(not_a_table()),
        }
    }

    fn order_by(
        &self,
        o: &ast::AstNode<ast::OrderByExpr>,
    ) -> Result<Option<(String, bool, usize)>, Unmapped> {
        let [spec] = o.sort_specs.as_slice() else {
            return Err(Unmapped::new(
                Clause::OrderBy,
                self.at(o.id),
                "a read pattern orders by one key attribute",
            ));
        };
        let Some(attribute) = self.attribute(&spec.expr) else {
            return Err(Unmapped::new(
                Clause::OrderBy,
                self.at(spec.id),
                "ORDER BY takes a key attribute's name",
            ));
        };
        let desc = matches!(spec.ordering_spec, Some(ast::OrderingSpec::Desc));
        Ok(Some((attribute, desc, self.at(spec.id))))
    }

    /// The attribute an expression names, when it is one (`status`, `"status"`).
    fn attribute(&self, e: &ast::Expr) -> Option<String> {
        match e {
            ast::Expr::VarRef(v) => Some(v.name.value.clone()),
            _ => None,
        }
    }

    fn value(&self, e: &ast::Expr) -> Option<Value> {
        let ast::Expr::Lit(l) = e else {
            return None;
        };
        let start = self.at(l.id);
        if let Some(n) = self.marks.iter().position(|&m| m == start) {
            return matches!(
                l.node,
                ast::Lit::Int8Lit(0)
                    | ast::Lit::Int16Lit(0)
                    | ast::Lit::Int32Lit(0)
                    | ast::Lit::Int64Lit(0)
            )
            .then_some(Value::Parameter(n));
        }
        match &l.node {
            ast::Lit::CharStringLit(s) => Some(Value::Literal(s.clone())),
            ast::Lit::Int8Lit(n) => Some(Value::Literal(n.to_string())),
            ast::Lit::Int16Lit(n) => Some(Value::Literal(n.to_string())),
            ast::Lit::Int32Lit(n) => Some(Value::Literal(n.to_string())),
            ast::Lit::Int64Lit(n) => Some(Value::Literal(n.to_string())),
            ast::Lit::DecimalLit(d) | ast::Lit::NumericLit(d) => {
                Some(Value::Literal(d.to_string()))
            }
            _ => None,
        }
    }

    fn other(&self, e: &ast::Expr, what: &str) -> Condition {
        let mut attributes = Vec::new();
        names(e, &mut attributes);
        Condition::Other {
            what: what.to_string(),
            attributes,
            at: self.expr_at(e),
        }
    }

    fn condition(&self, e: &ast::Expr) -> Result<Condition, Unmapped> {
        let at = self.expr_at(e);
        match e {
            ast::Expr::BinOp(b) => {
                let op = match b.kind {
                    ast::BinOpKind::And => {
                        return Ok(Condition::And(vec![
                            self.condition(&b.lhs)?,
                            self.condition(&b.rhs)?,
                        ]));
                    }
                    ast::BinOpKind::Or => {
                        let mut branches = Vec::new();
                        for side in [&b.lhs, &b.rhs] {
                            match self.condition(side)? {
                                Condition::Or { branches: more, .. } => branches.extend(more),
                                one => branches.push(one),
                            }
                        }
                        return Ok(Condition::Or { branches, at });
                    }
                    ast::BinOpKind::Eq => FilterOp::Eq,
                    ast::BinOpKind::Ne => FilterOp::Ne,
                    ast::BinOpKind::Lt => FilterOp::Lt,
                    ast::BinOpKind::Lte => FilterOp::Le,
                    ast::BinOpKind::Gt => FilterOp::Gt,
                    ast::BinOpKind::Gte => FilterOp::Ge,
                    ast::BinOpKind::Is => return Ok(self.is(&b.lhs, &b.rhs, false, e)),
                    _ => return Ok(self.other(e, "arithmetic")),
                };
                match (self.attribute(&b.lhs), self.value(&b.rhs)) {
                    (Some(attribute), Some(value)) => Ok(Condition::Term(Term {
                        attribute,
                        op,
                        values: vec![value],
                        at,
                    })),
                    _ => Ok(match b.lhs.as_ref() {
                        ast::Expr::Call(c) => {
                            self.other(e, &format!("the function {}", c.func_name.value))
                        }
                        _ => self.other(
                            e,
                            "a comparison of something other than an attribute with a value",
                        ),
                    }),
                }
            }
            ast::Expr::UniOp(u) if u.kind == ast::UniOpKind::Not => match u.expr.as_ref() {
                ast::Expr::BinOp(b) if b.kind == ast::BinOpKind::Is => {
                    Ok(self.is(&b.lhs, &b.rhs, true, e))
                }
                _ => Ok(self.other(e, "NOT")),
            },
            ast::Expr::Between(b) => {
                match (
                    self.attribute(&b.value),
                    self.value(&b.from),
                    self.value(&b.to),
                ) {
                    (Some(attribute), Some(low), Some(high)) => Ok(Condition::Term(Term {
                        attribute,
                        op: FilterOp::Between,
                        values: vec![low, high],
                        at,
                    })),
                    _ => Ok(self.other(
                        e,
                        "a BETWEEN of something other than an attribute and two values",
                    )),
                }
            }
            ast::Expr::In(i) => {
                let values: Option<Vec<Value>> = match i.rhs.as_ref() {
                    ast::Expr::List(l) => l.values.iter().map(|v| self.value(v)).collect(),
                    ast::Expr::Bag(l) => l.values.iter().map(|v| self.value(v)).collect(),
                    ast::Expr::Lit(l) => match &l.node {
                        ast::Lit::ListLit(list) => list.values.iter().map(literal).collect(),
                        ast::Lit::BagLit(bag) => bag.values.iter().map(literal).collect(),
                        _ => None,
                    },
                    _ => None,
                };
                match (self.attribute(&i.lhs), values) {
                    (Some(attribute), Some(values)) => Ok(Condition::Term(Term {
                        attribute,
                        op: FilterOp::In,
                        values,
                        at,
                    })),
                    _ => Ok(self.other(
                        e,
                        "an IN of something other than an attribute and a list of values",
                    )),
                }
            }
            ast::Expr::Call(c) => {
                let name = c.func_name.value.to_ascii_lowercase();
                let args: Vec<&ast::Expr> = c
                    .args
                    .iter()
                    .filter_map(|a| match &a.node {
                        ast::CallArg::Positional(e) => Some(e.as_ref()),
                        _ => None,
                    })
                    .collect();
                let op = match name.as_str() {
                    "begins_with" => FilterOp::BeginsWith,
                    "contains" => FilterOp::Contains,
                    _ => return Ok(self.other(e, &format!("the function {}", c.func_name.value))),
                };
                match (args.as_slice(), args.len() == c.args.len()) {
                    ([attribute, value], true) => {
                        match (self.attribute(attribute), self.value(value)) {
                            (Some(attribute), Some(value)) => Ok(Condition::Term(Term {
                                attribute,
                                op,
                                values: vec![value],
                                at,
                            })),
                            _ => Ok(self.other(
                                e,
                                &format!("{name} of something other than an attribute and a value"),
                            )),
                        }
                    }
                    _ => Ok(self.other(e, &format!("{name} with other than two arguments"))),
                }
            }
            ast::Expr::Error => Err(Unmapped::new(
                Clause::Where,
                at,
                "PartiQL cannot read this condition",
            )),
            _ => Ok(self.other(e, "an expression")),
        }
    }

    /// `a IS MISSING` (`negated`: `a IS NOT MISSING`, or NOT over it).
    fn is(&self, lhs: &ast::Expr, rhs: &ast::Expr, negated: bool, whole: &ast::Expr) -> Condition {
        let missing = matches!(rhs, ast::Expr::Lit(l) if l.node == ast::Lit::Missing);
        match (self.attribute(lhs), missing) {
            (Some(attribute), true) => Condition::Term(Term {
                attribute,
                op: if negated {
                    FilterOp::Exists
                } else {
                    FilterOp::NotExists
                },
                values: Vec::new(),
                at: self.expr_at(whole),
            }),
            _ => self.other(whole, "an IS other than IS [NOT] MISSING"),
        }
    }
}

fn literal(l: &ast::Lit) -> Option<Value> {
    match l {
        ast::Lit::CharStringLit(s) => Some(Value::Literal(s.clone())),
        ast::Lit::Int32Lit(n) => Some(Value::Literal(n.to_string())),
        ast::Lit::Int64Lit(n) => Some(Value::Literal(n.to_string())),
        _ => None,
    }
}

/// The attributes an expression names anywhere in it.
fn names(e: &ast::Expr, out: &mut Vec<String>) {
    use partiql_ast::visit::{Traverse, Visit, Visitor};
    struct Names<'o>(&'o mut Vec<String>);
    impl<'ast> Visitor<'ast> for Names<'_> {
        fn enter_var_ref(&mut self, v: &'ast ast::VarRef) -> partiql_ast::visit::Traverse {
            self.0.push(v.name.value.clone());
            Traverse::Continue
        }
    }
    e.visit(&mut Names(out));
}
