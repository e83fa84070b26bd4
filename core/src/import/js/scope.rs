//! The names one module binds, imports and exports, and which of the files read together an
//! import's path names (issue 36: a module that imports its enums or attributes from sibling
//! files reads them when they are given too).
//!
//! What is collected, never run: module-level `const`/`let`/`var` with a value, and the
//! `const`s at the top of the module's functions when each name is declared once; ES imports
//! (`import {a as b}`, `import d`, `import * as ns`) and CommonJS ones (`const x =
//! require('./f')`, `const {a, b: c} = require('./f')`, `require('./f').a`); ES exports
//! (`export const`, `export {a as b}`, `export {a} from './f'`, `export * from './f'`, `export
//! default`) and CommonJS ones (`module.exports = ...`, whose object literal's members are
//! named exports too, `exports.a = ...`, `module.exports.a = ...`). A path that is not
//! relative (`'electrodb'`, a package) names no file here.

use std::collections::HashMap;

use oxc_ast::ast::{
    Argument, ArrowFunctionBody, AssignmentTarget, BindingPattern, Declaration, Expression,
    FunctionBody, ImportDeclarationSpecifier, ObjectPropertyKind, Program, PropertyKey, Statement,
    VariableDeclaration,
};

/// What a local name is imported as: the path written, and the name exported there (`None`:
/// the whole module, as `import * as ns` and `const x = require('./f')` bind it).
#[derive(Debug, Clone, Copy)]
pub(super) struct Import<'a> {
    pub(super) source: &'a str,
    pub(super) name: Option<&'a str>,
}

/// What a module exports under one name.
#[derive(Debug, Clone, Copy)]
pub(super) enum Export<'a> {
    /// A name bound in the module (`export { a as b }`, `export const a`).
    Local(&'a str),
    /// A value written in place (`export default {...}`, `module.exports = ...`).
    Value(&'a Expression<'a>),
    /// A name re-exported from another module (`export { a } from './f'`).
    From(&'a str, &'a str),
}

/// Line and column of offsets in one text, from its line starts found once.
pub(super) struct Lines<'t> {
    text: &'t str,
    starts: Vec<usize>,
}

impl<'t> Lines<'t> {
    pub(super) fn new(text: &'t str) -> Lines<'t> {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Lines { text, starts }
    }

    pub(super) fn line_column(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let line = self.starts.partition_point(|&s| s <= offset);
        let start = self.starts[line - 1];
        let column = self
            .text
            .get(start..offset)
            .map_or(0, |l| l.chars().count())
            + 1;
        (line, column)
    }
}

/// One module's names.
pub(super) struct Scope<'a> {
    /// The file's name as given (`models/task.ts`); empty for a module read alone.
    pub(super) name: &'a str,
    pub(super) text: &'a str,
    pub(super) lines: Lines<'a>,
    /// Module-level bindings with a value, by name and in source order.
    pub(super) by_name: HashMap<&'a str, &'a Expression<'a>>,
    pub(super) order: Vec<(&'a str, &'a Expression<'a>)>,
    pub(super) imports: HashMap<&'a str, Import<'a>>,
    pub(super) exports: HashMap<&'a str, Export<'a>>,
    /// The paths of `export * from '...'`.
    pub(super) star_from: Vec<&'a str>,
}

/// The bodies of the functions a module-level statement declares: `function f() {...}`,
/// `const f = () => {...}` or `= function () {...}`, exported or not.
fn function_bodies<'a>(statement: &'a Statement<'a>) -> Vec<&'a FunctionBody<'a>> {
    let of_variables = |declaration: &'a VariableDeclaration<'a>| {
        declaration
            .declarations
            .iter()
            .filter_map(|d| match d.init.as_ref()?.get_inner_expression() {
                Expression::ArrowFunctionExpression(arrow) => match &arrow.body {
                    ArrowFunctionBody::FunctionBody(body) => Some(&**body),
                    _ => None,
                },
                Expression::FunctionExpression(function) => function.body.as_deref(),
                _ => None,
            })
            .collect::<Vec<_>>()
    };
    let of_declaration = |declaration: &'a Declaration<'a>| match declaration {
        Declaration::FunctionDeclaration(function) => {
            function.body.as_deref().into_iter().collect()
        }
        Declaration::VariableDeclaration(variables) => of_variables(variables),
        _ => Vec::new(),
    };
    match statement {
        Statement::FunctionDeclaration(function) => function.body.as_deref().into_iter().collect(),
        Statement::VariableDeclaration(variables) => of_variables(variables),
        Statement::ExportDeclaration(export) => of_declaration(&export.declaration),
        _ => Vec::new(),
    }
}

/// `require('./f')`: the path.
fn required<'a>(expression: &'a Expression<'a>) -> Option<&'a str> {
    let Expression::CallExpression(call) = expression.get_inner_expression() else {
        return None;
    };
    if !call.callee.is_specific_id("require") || call.arguments.len() != 1 {
        return None;
    }
    match call.arguments.first() {
        Some(Argument::StringLiteral(s)) => Some(s.value.as_str()),
        _ => None,
    }
}

/// A property's name written as an identifier or a string (`a` in `{ a: 1 }`).
fn static_key<'a>(key: &'a PropertyKey<'a>) -> Option<&'a str> {
    match key {
        PropertyKey::StaticIdentifier(id) => Some(id.name.as_str()),
        PropertyKey::StringLiteral(s) => Some(s.value.as_str()),
        _ => None,
    }
}

/// `module.exports` or `exports`.
fn is_module_exports(expression: &Expression<'_>) -> bool {
    match expression.get_inner_expression() {
        Expression::Identifier(id) => id.name.as_str() == "exports",
        Expression::StaticMemberExpression(m) => {
            m.object.is_specific_id("module") && m.property.name.as_str() == "exports"
        }
        _ => false,
    }
}

impl<'a> Scope<'a> {
    pub(super) fn new(name: &'a str, text: &'a str, program: &'a Program<'a>) -> Scope<'a> {
        let mut scope = Scope {
            name,
            text,
            lines: Lines::new(text),
            by_name: HashMap::new(),
            order: Vec::new(),
            imports: HashMap::new(),
            exports: HashMap::new(),
            star_from: Vec::new(),
        };
        for statement in &program.body {
            scope.statement(statement);
        }
        scope.by_name = scope.order.iter().map(|(n, e)| (*n, *e)).collect();
        scope.function_consts(program);
        scope
    }

    /// The `const`s at the top of the module's functions (`const pkField = options?.pk ??
    /// DEFAULT_KEYS.pk` in `export const createEntity = (...) => { ... }`, issue 36: an entity
    /// built in a factory, as electrodb-migrations builds its own), bound as the function
    /// binds them so the entity reads them. A name declared in two functions, or bound at
    /// module level, is left out: which one is meant is not known here.
    fn function_consts(&mut self, program: &'a Program<'a>) {
        let mut found: HashMap<&'a str, Option<&'a Expression<'a>>> = HashMap::new();
        for body in program.body.iter().flat_map(function_bodies) {
            for statement in &body.statements {
                let Statement::VariableDeclaration(declaration) = statement else {
                    continue;
                };
                if !declaration.kind.is_const() {
                    continue;
                }
                for declarator in &declaration.declarations {
                    if let (BindingPattern::BindingIdentifier(id), Some(init)) =
                        (&declarator.id, &declarator.init)
                    {
                        found
                            .entry(id.name.as_str())
                            .and_modify(|seen| *seen = None)
                            .or_insert(Some(init));
                    }
                }
            }
        }
        for (name, init) in found {
            if let Some(init) = init
                && !self.by_name.contains_key(name)
                && !self.imports.contains_key(name)
            {
                self.by_name.insert(name, init);
            }
        }
    }

    fn statement(&mut self, statement: &'a Statement<'a>) {
        match statement {
            Statement::VariableDeclaration(declaration) => self.declarations(declaration, false),
            Statement::ExportDeclaration(export) => {
                if let Declaration::VariableDeclaration(declaration) = &export.declaration {
                    self.declarations(declaration, true);
                }
            }
            Statement::ImportDeclaration(import) => {
                let source = import.source.value.as_str();
                for specifier in import.specifiers.iter().flatten() {
                    let (local, name) = match specifier {
                        ImportDeclarationSpecifier::ImportSpecifier(s) => {
                            (s.local.name.as_str(), Some(s.imported.name().as_str()))
                        }
                        ImportDeclarationSpecifier::ImportDefaultSpecifier(s) => {
                            (s.local.name.as_str(), Some("default"))
                        }
                        ImportDeclarationSpecifier::ImportNamespaceSpecifier(s) => {
                            (s.local.name.as_str(), None)
                        }
                    };
                    self.imports.insert(local, Import { source, name });
                }
            }
            Statement::ExportNamedDeclaration(export) => {
                for specifier in &export.specifiers {
                    self.exports.insert(
                        specifier.exported.name().as_str(),
                        Export::Local(specifier.local.name().as_str()),
                    );
                }
            }
            Statement::ExportFromDeclaration(export) => {
                let source = export.source.value.as_str();
                for specifier in &export.specifiers {
                    self.exports.insert(
                        specifier.exported.name().as_str(),
                        Export::From(source, specifier.local.name().as_str()),
                    );
                }
            }
            Statement::ExportAllDeclaration(export) if export.exported.is_none() => {
                self.star_from.push(export.source.value.as_str());
            }
            Statement::ExportDefaultDeclaration(export) => {
                if let Some(expression) = export.declaration.as_expression() {
                    self.exports.insert("default", Export::Value(expression));
                }
            }
            Statement::ExpressionStatement(statement) => {
                let Expression::AssignmentExpression(assignment) = &statement.expression else {
                    return;
                };
                let right = &assignment.right;
                if let AssignmentTarget::StaticMemberExpression(member) = &assignment.left {
                    if member.object.is_specific_id("module")
                        && member.property.name.as_str() == "exports"
                    {
                        self.exports.insert("default", Export::Value(right));
                        if let Expression::ObjectExpression(object) = right.get_inner_expression() {
                            for property in &object.properties {
                                if let ObjectPropertyKind::ObjectProperty(p) = property
                                    && !p.computed
                                    && let Some(key) = static_key(&p.key)
                                {
                                    self.exports.entry(key).or_insert(Export::Value(&p.value));
                                }
                            }
                        }
                    } else if is_module_exports(&member.object) {
                        self.exports
                            .insert(member.property.name.as_str(), Export::Value(right));
                    }
                }
            }
            _ => {}
        }
    }

    fn declarations(&mut self, declaration: &'a VariableDeclaration<'a>, exported: bool) {
        for declarator in &declaration.declarations {
            let Some(init) = &declarator.init else {
                continue;
            };
            match &declarator.id {
                BindingPattern::BindingIdentifier(id) => {
                    let name = id.name.as_str();
                    if exported {
                        self.exports.insert(name, Export::Local(name));
                    }
                    if let Some(source) = required(init) {
                        self.imports.insert(name, Import { source, name: None });
                        continue;
                    }
                    // `require('./f').a`
                    if let Expression::StaticMemberExpression(member) = init.get_inner_expression()
                        && let Some(source) = required(&member.object)
                    {
                        let imported = Some(member.property.name.as_str());
                        self.imports.insert(
                            name,
                            Import {
                                source,
                                name: imported,
                            },
                        );
                        continue;
                    }
                    self.order.push((name, init));
                }
                BindingPattern::ObjectPattern(pattern) => {
                    let Some(source) = required(init) else {
                        continue;
                    };
                    for property in &pattern.properties {
                        let local = match &property.value {
                            BindingPattern::BindingIdentifier(id) => id.name.as_str(),
                            BindingPattern::AssignmentPattern(p) => match &p.left {
                                BindingPattern::BindingIdentifier(id) => id.name.as_str(),
                                _ => continue,
                            },
                            _ => continue,
                        };
                        let Some(imported) = static_key(&property.key) else {
                            continue;
                        };
                        self.imports.insert(
                            local,
                            Import {
                                source,
                                name: Some(imported),
                            },
                        );
                    }
                }
                _ => {}
            }
        }
    }
}

/// The path `a/b/../c` with `.` and `..` taken out.
fn normalised(path: &str) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    for part in path.split(['/', '\\']) {
        match part {
            "" | "." => {}
            ".." => {
                if out.last().is_some_and(|p| *p != "..") {
                    out.pop();
                } else {
                    out.push("..");
                }
            }
            other => out.push(other),
        }
    }
    out
}

/// The extensions a module's file may have.
const EXTENSIONS: &[&str] = &[".ts", ".tsx", ".mts", ".cts", ".js", ".mjs", ".cjs", ".jsx"];

/// A file's path without its extension.
fn stem(path: &str) -> &str {
    EXTENSIONS
        .iter()
        .find_map(|e| path.strip_suffix(e))
        .unwrap_or(path)
}

/// Which of `names` the import `source`, written in the file `from`, names: the path joined to
/// `from`'s folder, with or without an extension (`./types`, `./types.js` for `types.ts`) or as
/// a folder's `index`. When the files were given without their folders, a file whose name ends
/// with the path's last parts is taken if it is the only one. `None`: a package, or a file not
/// given.
pub(super) fn resolve(names: &[&str], from: usize, source: &str) -> Option<usize> {
    if !source.starts_with('.') {
        return None;
    }
    let from_name = names.get(from)?;
    let folder = match from_name.rfind(['/', '\\']) {
        Some(at) => &from_name[..at],
        None => "",
    };
    let wanted = normalised(stem(&format!("{folder}/{source}"))).join("/");
    let keys: Vec<String> = names
        .iter()
        .map(|n| normalised(stem(n)).join("/"))
        .collect();
    let exact = keys
        .iter()
        .position(|k| *k == wanted)
        .or_else(|| keys.iter().position(|k| *k == format!("{wanted}/index")));
    if exact.is_some() {
        return exact;
    }
    // Files given from different folders: match the path's own parts at the end of a name.
    let tail = normalised(stem(source))
        .into_iter()
        .filter(|p| *p != "..")
        .collect::<Vec<_>>()
        .join("/");
    if tail.is_empty() {
        return None;
    }
    let ends = |k: &String, t: &str| *k == t || k.ends_with(&format!("/{t}"));
    let matching: Vec<usize> = (0..keys.len())
        .filter(|&i| {
            i != from && (ends(&keys[i], &tail) || ends(&keys[i], &format!("{tail}/index")))
        })
        .collect();
    match matching.as_slice() {
        [only] => Some(*only),
        _ => None,
    }
}
