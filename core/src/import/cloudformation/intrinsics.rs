//! CloudFormation's intrinsic functions, evaluated as far as the template alone allows (issue
//! 36): a `Ref` to a Parameter reads its `Default`, `Fn::If` takes its first branch (both are
//! said), `Fn::Sub` and `Fn::Join` join what is known and leave out what is not, `Fn::Select`
//! and `Fn::FindInMap` read literal lists and `Mappings`, and a `Fn::ForEach` identifier reads
//! the collection's value. In a Serverless Framework `serverless.yml`, `${self:custom.x}` reads
//! the file's own values and `${opt:stage, 'dev'}` its fallback; `${opt:...}`, `${env:...}`,
//! `${sls:...}`, `${file(...)}` and the like have no value here.
//!
//! Each value read from elsewhere in the template, and each left out, is an assumption with its
//! line; what cannot be evaluated at all (a `Fn::GetAtt`, a Parameter without a Default, a
//! pseudo parameter such as `AWS::Region`) is left as written, for the slot that reads it to
//! assume the least. Nothing here reads outside the text, and evaluation is bounded by the
//! depth of the template and of the Serverless variables it follows.

use serde_json::{Map, Value};

use super::lenient::{EXPR, Lenient, Piece, joined, shown};

/// How deep Serverless variables are followed (`${self:custom.a}` whose value names another).
const MAX_VARIABLE_DEPTH: usize = 8;

/// What intrinsic functions read: the template's Parameters and Mappings, the `Fn::ForEach`
/// identifiers bound, and, for a Serverless Framework file, its root.
#[derive(Clone, Default)]
pub(super) struct Scope<'t> {
    pub(super) parameters: Option<&'t Map<String, Value>>,
    pub(super) mappings: Option<&'t Map<String, Value>>,
    /// `Fn::ForEach` identifiers and the value each has in this instance.
    pub(super) bindings: Vec<(String, String)>,
    /// A Serverless Framework file's root, which `${self:...}` reads.
    pub(super) serverless: Option<&'t Value>,
    /// Parameters' Defaults are left unread: a name with literal text of its own keeps it
    /// (`!Sub orders-${Environment}` is `orders`, as keyplan's own export writes it), and
    /// reads the Defaults only when nothing literal is left.
    pub(super) skip_defaults: bool,
}

impl Scope<'_> {
    /// `value` with every intrinsic function it holds evaluated where the template allows;
    /// `None` for `AWS::NoValue` (the member is absent). `path` places assumptions.
    pub(super) fn resolve(
        &self,
        value: &Value,
        path: &str,
        out: &mut Lenient<'_>,
    ) -> Option<Value> {
        match value {
            Value::Object(o) if o.len() == 1 && is_intrinsic(o) => {
                let (name, inner) = o.iter().next()?;
                self.intrinsic(value, name, inner, path, out)
            }
            Value::Object(o) => Some(Value::Object(
                o.iter()
                    .filter_map(|(k, v)| {
                        let child = format!("{path}.{k}");
                        self.resolve(v, &child, out).map(|v| (k.clone(), v))
                    })
                    .collect(),
            )),
            Value::Array(items) => Some(Value::Array(
                items
                    .iter()
                    .enumerate()
                    .filter_map(|(i, v)| self.resolve(v, &format!("{path}[{i}]"), out))
                    .collect(),
            )),
            Value::String(s) if self.serverless.is_some() && s.contains("${") => {
                Some(self.serverless_string(s, path, out, 0))
            }
            other => Some(other.clone()),
        }
    }

    fn intrinsic(
        &self,
        whole: &Value,
        name: &str,
        inner: &Value,
        path: &str,
        out: &mut Lenient<'_>,
    ) -> Option<Value> {
        match (name, inner) {
            ("Ref", Value::String(target)) => self.reference(whole, target, path, out),
            ("Fn::If", Value::Array(args)) if args.len() == 3 => {
                let condition = args[0].as_str().unwrap_or("?");
                let first = self.resolve(&args[1], path, out);
                out.assume_at(
                    path,
                    format!(
                        "`!If` on condition `{condition}`: {} or {}",
                        shown(&args[1]),
                        shown(&args[2])
                    ),
                    format!(
                        "the first, {} (the condition taken as true)",
                        first.as_ref().map_or("none (AWS::NoValue)".into(), shown)
                    ),
                );
                first
            }
            ("Fn::Sub", Value::String(template)) => self.literal_first(out, |scope, out| {
                scope.sub(whole, template, None, path, out)
            }),
            ("Fn::Sub", Value::Array(args)) if !args.is_empty() => match &args[0] {
                Value::String(template) => self.literal_first(out, |scope, out| {
                    scope.sub(
                        whole,
                        template,
                        args.get(1).and_then(Value::as_object),
                        path,
                        out,
                    )
                }),
                _ => Some(whole.clone()),
            },
            ("Fn::Join", Value::Array(args)) if args.len() == 2 => {
                let separator = args[0].as_str().unwrap_or("");
                self.literal_first(out, |scope, out| {
                    let Some(Value::Array(parts)) = scope.resolve(&args[1], path, out) else {
                        return Some(whole.clone());
                    };
                    let pieces = parts.iter().map(|p| scope.piece(p)).collect();
                    joined(whole, pieces, separator, path, out)
                })
            }
            ("Fn::Select", Value::Array(args)) if args.len() == 2 => {
                let index = match self.resolve(&args[0], path, out) {
                    Some(Value::Number(n)) => n.as_u64(),
                    Some(Value::String(s)) => s.trim().parse().ok(),
                    _ => None,
                };
                let list = match self.resolve(&args[1], path, out) {
                    // A CommaDelimitedList parameter's Default.
                    Some(Value::String(list)) => Some(Value::Array(
                        list.split(',')
                            .map(|s| Value::String(s.trim().into()))
                            .collect(),
                    )),
                    other => other,
                };
                match (index, list) {
                    (Some(i), Some(Value::Array(list))) => list
                        .get(usize::try_from(i).unwrap_or(usize::MAX))
                        .cloned()
                        .or_else(|| Some(whole.clone())),
                    _ => Some(whole.clone()),
                }
            }
            ("Fn::FindInMap", Value::Array(args)) if args.len() >= 3 => {
                let keys: Vec<Option<String>> = args[..3]
                    .iter()
                    .map(|a| match self.resolve(a, path, out) {
                        Some(Value::String(s)) => Some(s),
                        _ => None,
                    })
                    .collect();
                let found = match (self.mappings, &keys[..]) {
                    (Some(mappings), [Some(map), Some(top), Some(second)]) => mappings
                        .get(map)
                        .and_then(|m| m.get(top))
                        .and_then(|m| m.get(second)),
                    _ => None,
                };
                match found {
                    Some(value) => Some(value.clone()),
                    None => Some(whole.clone()),
                }
            }
            _ => Some(whole.clone()),
        }
    }

    /// A joined name built without Parameters' Defaults when that leaves literal text, else
    /// with them.
    fn literal_first(
        &self,
        out: &mut Lenient<'_>,
        build: impl Fn(&Scope<'_>, &mut Lenient<'_>) -> Option<Value>,
    ) -> Option<Value> {
        if !self.skip_defaults {
            let mut strict = self.clone();
            strict.skip_defaults = true;
            let first = build(&strict, out);
            if matches!(first, Some(Value::String(_))) {
                return first;
            }
        }
        build(self, out)
    }

    /// A `Ref`: a `Fn::ForEach` identifier's value, a Parameter's Default, nothing for
    /// `AWS::NoValue`; else as written.
    fn reference(
        &self,
        whole: &Value,
        target: &str,
        path: &str,
        out: &mut Lenient<'_>,
    ) -> Option<Value> {
        if target == "AWS::NoValue" {
            return None;
        }
        if let Some((_, value)) = self.bindings.iter().rev().find(|(id, _)| id == target) {
            return Some(Value::String(value.clone()));
        }
        match self.default_of(target).filter(|_| !self.skip_defaults) {
            Some(default) => {
                out.assume_at(
                    path,
                    format!("`!Ref {target}`"),
                    format!("the parameter's Default {}", shown(default)),
                );
                Some(default.clone())
            }
            None => Some(whole.clone()),
        }
    }

    fn default_of(&self, parameter: &str) -> Option<&Value> {
        self.parameters?.get(parameter)?.get("Default")
    }

    /// A value as a piece of a joined name.
    fn piece(&self, value: &Value) -> Piece {
        match value {
            Value::String(s) => Piece::Known(s.clone()),
            Value::Number(n) => Piece::Known(n.to_string()),
            other => Piece::Unknown(shown(other)),
        }
    }

    /// A `Fn::Sub`: each `${Name}` from `variables`, a `Fn::ForEach` identifier or a
    /// Parameter's Default; what is not known is left out.
    fn sub(
        &self,
        whole: &Value,
        template: &str,
        variables: Option<&Map<String, Value>>,
        path: &str,
        out: &mut Lenient<'_>,
    ) -> Option<Value> {
        let mut pieces = Vec::new();
        let mut rest = template;
        while let Some(start) = rest.find("${") {
            pieces.push(Piece::Known(rest[..start].to_string()));
            let after = &rest[start + 2..];
            if let Some(literal) = after.strip_prefix('!') {
                // `${!Literal}` is CloudFormation's escape for a literal `${Literal}`.
                pieces.push(Piece::Known("${".into()));
                rest = literal;
                continue;
            }
            let Some(end) = after.find('}') else {
                pieces.push(Piece::Known(rest[start..].to_string()));
                rest = "";
                break;
            };
            let name = &after[..end];
            let value = match variables.and_then(|v| v.get(name)) {
                Some(v) => self.resolve(v, path, out).map(|v| self.piece(&v)),
                None => Some(self.reference(&Value::Null, name, path, out).map_or_else(
                    || Piece::Known(String::new()),
                    |v| match v {
                        Value::Null => Piece::Unknown(format!("`${{{name}}}`")),
                        other => self.piece(&other),
                    },
                )),
            };
            pieces.push(value.unwrap_or(Piece::Known(String::new())));
            rest = &after[end + 1..];
        }
        pieces.push(Piece::Known(rest.to_string()));
        joined(whole, pieces, "", path, out)
    }

    /// A string of a Serverless Framework file with its `${...}` variables read.
    fn serverless_string(
        &self,
        text: &str,
        path: &str,
        out: &mut Lenient<'_>,
        depth: usize,
    ) -> Value {
        let mut pieces = Vec::new();
        let mut rest = text;
        while let Some(start) = rest.find("${") {
            pieces.push(Piece::Known(rest[..start].to_string()));
            let Some(end) = closing_brace(&rest[start + 2..]) else {
                pieces.push(Piece::Known(rest[start..].to_string()));
                rest = "";
                break;
            };
            let variable = &rest[start + 2..start + 2 + end];
            let whole_text = &rest[start..start + 3 + end];
            let value = self.serverless_variable(variable, path, out, depth);
            // A value that is the whole string keeps its type (a capacity, a list).
            if pieces
                .iter()
                .all(|p| matches!(p, Piece::Known(s) if s.is_empty()))
                && start + 3 + end == rest.len()
                && let Some(value) = &value
                && !value.is_string()
            {
                return value.clone();
            }
            pieces.push(match value {
                Some(v) => self.piece(&v),
                None => Piece::Unknown(format!("`{whole_text}`")),
            });
            rest = &rest[start + 3 + end..];
        }
        pieces.push(Piece::Known(rest.to_string()));
        // Nothing literal left: the variable as written, for the slot that reads it to assume.
        let written = serde_json::json!({ EXPR: text });
        match joined(&written, pieces, "", path, out) {
            Some(Value::String(s)) => Value::String(s),
            _ => written,
        }
    }

    /// One Serverless variable (`self:custom.table`, `opt:stage, 'dev'`), its sources tried in
    /// order; `None` when none has a value here.
    fn serverless_variable(
        &self,
        variable: &str,
        path: &str,
        out: &mut Lenient<'_>,
        depth: usize,
    ) -> Option<Value> {
        if depth >= MAX_VARIABLE_DEPTH {
            return None;
        }
        for source in split_sources(variable) {
            let source = source.trim();
            if let Some(quoted) = source
                .strip_prefix('\'')
                .and_then(|s| s.strip_suffix('\''))
                .or_else(|| source.strip_prefix('"').and_then(|s| s.strip_suffix('"')))
            {
                return Some(Value::String(quoted.to_string()));
            }
            if let Ok(number) = source.parse::<u64>() {
                return Some(Value::from(number));
            }
            let Some(member) = source.strip_prefix("self:") else {
                continue;
            };
            let mut value = self.serverless?;
            for name in member.trim().split('.') {
                match value.get(name) {
                    Some(v) => value = v,
                    None => {
                        value = &Value::Null;
                        break;
                    }
                }
            }
            match value {
                Value::Null => continue,
                Value::String(s) if s.contains("${") => {
                    match self.serverless_string(s, path, out, depth + 1) {
                        Value::Object(o) if o.contains_key(EXPR) => continue,
                        other => return Some(other),
                    }
                }
                other => return Some(other.clone()),
            }
        }
        None
    }
}

/// Whether a one-member object is an intrinsic function (`Ref`, `Fn::...`).
fn is_intrinsic(object: &Map<String, Value>) -> bool {
    object
        .keys()
        .next()
        .is_some_and(|k| k == "Ref" || (k.starts_with("Fn::") && !k.starts_with("Fn::ForEach::")))
}

/// The offset of the `}` closing a Serverless variable whose text starts `text`, variables
/// nested in it skipped.
fn closing_brace(text: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (i, c) in text.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => return Some(i),
            '}' => depth -= 1,
            _ => {}
        }
    }
    None
}

/// A Serverless variable's sources, split at the commas outside nested variables:
/// `opt:stage, ${self:provider.stage}` is `opt:stage` then `${self:provider.stage}`, which is
/// read as `self:provider.stage`.
fn split_sources(variable: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut start = 0;
    for (i, c) in variable.char_indices() {
        match c {
            '{' | '(' => depth += 1,
            '}' | ')' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                out.push(&variable[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&variable[start..]);
    out.into_iter()
        .map(|s| {
            let s = s.trim();
            s.strip_prefix("${")
                .and_then(|s| s.strip_suffix('}'))
                .unwrap_or(s)
        })
        .collect()
}
