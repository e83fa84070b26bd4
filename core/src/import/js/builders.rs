//! What the evaluator keeps of the code it does not run, for the readers of libraries whose
//! schemas are builder calls (DynamoDB-Toolbox, Dynamoose): a call chain's calls, what an arrow
//! function returns, a template literal's parts. Each stays not literal (`$js`), so the other
//! readers see it as before; nothing here runs anything.

use oxc_ast::ast::{Argument, Expression, Statement};
use oxc_span::{GetSpan, Span};
use serde_json::{Map, Value};

use super::eval::Evaluator;
use super::{CALL_CHAIN, MAX_NESTING, NewFinder, RETURNS, TEMPLATE_PARTS};
use crate::import::ImportError;

impl<'a> Evaluator<'a> {
    /// A template literal some of whose parts are not literal: not literal, with its
    /// [`TEMPLATE_PARTS`].
    pub(super) fn template_parts(
        &mut self,
        span: Span,
        quasis: &[&str],
        values: Vec<Value>,
    ) -> Result<Value, ImportError> {
        let n_bytes = quasis.iter().map(|q| q.len()).sum::<usize>();
        self.charge_text(n_bytes, span)?;
        let mut parts = Vec::with_capacity(quasis.len() + values.len());
        let mut values = values.into_iter();
        for quasi in quasis {
            parts.push(Value::String((*quasi).to_string()));
            if let Some(value) = values.next() {
                parts.push(value);
            }
        }
        let mut value = self.non_literal(span);
        if let Value::Object(members) = &mut value {
            members.insert(TEMPLATE_PARTS.to_string(), Value::Array(parts));
        }
        Ok(value)
    }

    /// An arrow function: not literal, with what it returns when its body is an expression or
    /// a block of one `return` ([`RETURNS`]).
    pub(super) fn arrow(
        &mut self,
        arrow: &oxc_ast::ast::ArrowFunctionExpression<'a>,
        depth: usize,
    ) -> Result<Value, ImportError> {
        let returned = match arrow.body.as_function_body() {
            None => arrow.body.as_expression(),
            Some(body) => match body.statements.as_slice() {
                [Statement::ReturnStatement(statement)] => statement.argument.as_ref(),
                _ => None,
            },
        };
        let mut value = self.non_literal(arrow.span);
        if let Some(returned) = returned {
            let returned = self.eval(returned, depth + 1)?;
            if let Value::Object(members) = &mut value {
                members.insert(RETURNS.to_string(), returned);
            }
        }
        Ok(value)
    }

    /// A call: not literal, with its [`CALL_CHAIN`] when its callee is a name (`string`,
    /// `s.string`) or a method of such a chain (`string().key()`).
    pub(super) fn call_chain(
        &mut self,
        call: &oxc_ast::ast::CallExpression<'a>,
        depth: usize,
    ) -> Result<Value, ImportError> {
        // A chain nests in the tree as brackets do: as deep, and no deeper.
        if depth > MAX_NESTING {
            return Ok(self.non_literal(call.span));
        }
        let (mut chain, name) = match call.callee.get_inner_expression() {
            Expression::Identifier(id) => (Vec::new(), id.name.as_str().to_string()),
            Expression::StaticMemberExpression(member) => {
                match member.object.get_inner_expression() {
                    Expression::CallExpression(inner) => {
                        match self.call_chain(inner, depth + 1)?.get(CALL_CHAIN) {
                            Some(Value::Array(links)) => {
                                (links.clone(), member.property.name.as_str().to_string())
                            }
                            _ => return Ok(self.non_literal(call.span)),
                        }
                    }
                    Expression::Identifier(_) | Expression::StaticMemberExpression(_) => {
                        (Vec::new(), self.snippet(member.span))
                    }
                    _ => return Ok(self.non_literal(call.span)),
                }
            }
            _ => return Ok(self.non_literal(call.span)),
        };
        self.charge_text(name.len(), call.span)?;
        let mut args = Vec::with_capacity(call.arguments.len());
        for argument in &call.arguments {
            args.push(match argument.as_expression() {
                Some(expression) => self.eval(expression, depth + 1)?,
                None => self.non_literal(argument.span()),
            });
        }
        let mut link = Map::new();
        link.insert("name".to_string(), Value::String(name));
        link.insert("args".to_string(), Value::Array(args));
        chain.push(Value::Object(link));
        let mut value = self.non_literal(call.span);
        if let Value::Object(members) = &mut value {
            members.insert(CALL_CHAIN.to_string(), Value::Array(chain));
        }
        Ok(value)
    }
}

impl<'a> NewFinder<'_, 'a> {
    /// The arguments of a call, evaluated; `None` (the error kept) when one passes a budget.
    pub(super) fn arguments(&mut self, arguments: &[Argument<'a>]) -> Option<Vec<Value>> {
        let mut args = Vec::with_capacity(arguments.len());
        for argument in arguments {
            let value = match argument.as_expression() {
                Some(expression) => self.evaluator.eval(expression, 0),
                None => Ok(self.evaluator.non_literal(argument.span())),
            };
            match value {
                Ok(value) => args.push(value),
                Err(error) => {
                    self.error = Some(error);
                    return None;
                }
            }
        }
        Some(args)
    }
}
