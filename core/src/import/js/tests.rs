//! Modules read together (issue 36): imports resolved across the files given, in both module
//! systems, and what cannot be resolved assumed and placed. The real files these constructs
//! come from are in tests/fixtures (core/tests/fixtures_import.rs); these cases name each
//! construct on its own.

use expect_test::{Expect, expect};

use crate::import::{Imported, import_files};

fn check(files: &[(&str, &str)], expect: Expect) {
    let out = match import_files(files) {
        Ok((format, imported)) => render(format.as_str(), &imported),
        Err(e) => format!("error: {e}\n"),
    };
    expect.assert_eq(&out);
}

fn render(format: &str, imported: &Imported) -> String {
    let mut out = format!("{format}\n");
    for table in &imported.design.tables {
        out += &format!("table {} {}", table.name, table.partition_key.name);
        for gsi in &table.gsis {
            out += &format!(" gsi {}:{}", gsi.name, gsi.partition_key[0].name);
        }
        out += "\n";
    }
    for entity in &imported.design.entities {
        let attributes: Vec<String> = entity
            .attributes
            .iter()
            .map(|a| format!("{}:{:?}{:?}", a.name, a.ty, a.values))
            .collect();
        out += &format!("{}: {}\n", entity.name, attributes.join(" "));
        for (key, template) in &entity.keys {
            out += &format!("  {key} = {template}\n");
        }
    }
    for assumption in &imported.assumed {
        out += &format!("assumed: {assumption}\n");
    }
    out
}

const ENTITY: &str = r#"import { Entity } from 'electrodb';
import { baseAttributes, GSI1PK } from '../shared/attributes';
import * as Types from './types.js';
import { tableName } from 'config';

export const Order = new Entity({
  model: { entity: 'order', version: '1', service: 'shop' },
  attributes: {
    ...baseAttributes,
    orderId: { type: 'string' },
    status: { type: Types.STATUSES },
  },
  indexes: {
    byId: { pk: { field: 'pk', composite: ['orderId'] } },
    byStatus: { index: 'gsi1', pk: { field: GSI1PK, composite: ['status'] } },
  },
}, { table: tableName });
"#;

#[test]
fn spreads_enums_and_field_names_are_read_from_the_files_they_are_imported_from() {
    check(
        &[
            ("app/models/order.ts", ENTITY),
            (
                "app/shared/attributes.ts",
                "export const baseAttributes = { createdAt: { type: 'number' } };\nconst GSI = 'gsi1pk';\nexport { GSI as GSI1PK };\n",
            ),
            (
                "app/models/types.ts",
                "export const STATUSES = ['open', 'paid'] as const;\n",
            ),
        ],
        expect![[r#"
            electrodb
            table shop pk gsi gsi1:gsi1pk
            order: createdAt:N[] orderId:S[] status:S["open", "paid"]
              gsi1pk = $shop$order_1#status_{status}
              pk = $shop$order_1#orderid_{orderId}
            assumed: app/models/order.ts:17: entity order's table `tableName`: assumed its service's table
        "#]],
    );
}

#[test]
fn what_no_file_given_exports_is_assumed_at_its_line() {
    // The same entity without its sibling files: the spread, the type and the field name are
    // each assumed, placed where the entity uses them.
    check(
        &[
            ("order.ts", ENTITY),
            ("unrelated.ts", "export const x = 1;\n"),
        ],
        expect![[r#"
            electrodb
            table shop pk gsi gsi1:GSI1PK
            order: orderId:S[] status:S[]
              GSI1PK = $shop$order_1#status_{status}
              pk = $shop$order_1#orderid_{orderId}
            assumed: order.ts:9: order: the attributes spread from `baseAttributes`: assumed none of them (read the file that defines it with this one)
            assumed: order.ts:11: order.attributes.status's type `Types.STATUSES`: assumed a string
            assumed: order.ts:15: key field order.indexes.byStatus.pk.field `GSI1PK`: assumed `GSI1PK`
            assumed: order.ts:17: entity order's table `tableName`: assumed its service's table
        "#]],
    );
}

#[test]
fn commonjs_modules_read_their_requires_and_module_exports() {
    check(
        &[
            (
                "schema.js",
                r#"const { STATUSES } = require('./statuses');
const Types = require('./statuses');
module.exports = {
  version: '0.0.1',
  indexes: { primary: { hash: 'pk', sort: 'sk' } },
  models: {
    User: {
      pk: { type: String, value: 'user#${id}' },
      sk: { type: String, value: 'user#' },
      id: { type: String },
      status: { type: String, enum: STATUSES },
      plan: { type: String, enum: Types.PLANS },
    },
  },
};
"#,
            ),
            (
                "statuses.js",
                "exports.STATUSES = ['active', 'closed'];\nmodule.exports.PLANS = ['free', 'pro'];\n",
            ),
        ],
        expect![[r#"
            onetable
            table table pk
            User: id:S[] plan:S["free", "pro"] status:S["active", "closed"]
              pk = user#{id}
              sk = user#
        "#]],
    );
}

#[test]
fn a_file_that_is_not_javascript_is_left_out_and_said() {
    check(
        &[("order.ts", ENTITY), ("notes.ts", "this is { not code")],
        expect![[r#"
            electrodb
            table shop pk gsi gsi1:GSI1PK
            order: orderId:S[] status:S[]
              GSI1PK = $shop$order_1#status_{status}
              pk = $shop$order_1#orderid_{orderId}
            assumed: notes.ts:1: the file is not JavaScript or TypeScript: Expected a semicolon or an implicit semicolon after a statement, but found none: assumed nothing from it
            assumed: order.ts:9: order: the attributes spread from `baseAttributes`: assumed none of them (read the file that defines it with this one)
            assumed: order.ts:11: order.attributes.status's type `Types.STATUSES`: assumed a string
            assumed: order.ts:15: key field order.indexes.byStatus.pk.field `GSI1PK`: assumed `GSI1PK`
            assumed: order.ts:17: entity order's table `tableName`: assumed its service's table
        "#]],
    );
}

#[test]
fn a_schema_handed_to_a_helper_is_read_as_written_and_the_call_said() {
    check(
        &[
            (
                "schema.ts",
                "import { build } from './helpers';\nexport const Schema = build({\n  indexes: { primary: { hash: 'pk' } },\n  models: { User: { pk: { type: String, value: 'user#${id}' }, id: { type: String } } },\n});\n",
            ),
            (
                "helpers.ts",
                "export function build(schema) { return { ...schema, params: {} } }\n",
            ),
        ],
        expect![[r#"
            onetable
            table Schema pk
            User: id:S[]
              pk = user#{id}
            assumed: schema.ts:2: the schema Schema is what `build(...)` returns: assumed the schema it is given, as written
        "#]],
    );
}

// A Dynamoose application's models in their own files, sharing the table name a sibling
// module exports: read together, each model's table is the name it imports.
#[test]
fn dynamoose_models_of_several_files_read_the_constants_they_import() {
    check(
        &[
            ("config.ts", "export const TABLE = 'app';\n"),
            (
                "user.ts",
                "import * as dynamoose from 'dynamoose';\nimport { TABLE } from './config';\nconst schema = new dynamoose.Schema({ id: { type: String, hashKey: true } });\nexport const User = dynamoose.model('User', schema, { tableName: TABLE });\n",
            ),
            (
                "order.ts",
                "import * as dynamoose from 'dynamoose';\nimport { TABLE } from './config';\nconst schema = new dynamoose.Schema({ id: { type: String, hashKey: true }, total: Number });\nexport const Order = dynamoose.model('Order', schema, { tableName: TABLE });\n",
            ),
        ],
        expect![[r#"
            dynamoose
            table app id
            User: id:S[]
            Order: id:S[] total:N[]
        "#]],
    );
}

// DynamoDB-Toolbox's table in one file and an entity in another that imports it: one table.
#[test]
fn toolbox_entities_of_several_files_share_the_table_they_import() {
    check(
        &[
            (
                "table.ts",
                "import { Table } from 'dynamodb-toolbox/table';\nexport const AppTable = new Table({ name: 'app', partitionKey: { name: 'pk', type: 'string' }, sortKey: { name: 'sk', type: 'string' } });\n",
            ),
            (
                "user.ts",
                "import { Entity } from 'dynamodb-toolbox/entity';\nimport { item, string } from 'dynamodb-toolbox/schema';\nimport { AppTable } from './table';\nexport const User = new Entity({ name: 'User', table: AppTable, schema: item({ id: string().key() }), computeKey: ({ id }) => ({ pk: `USER#${id}`, sk: 'PROFILE' }) });\n",
            ),
        ],
        expect![[r#"
            dynamodb-toolbox
            table app pk
            User: id:S[]
              pk = USER#{id}
              sk = PROFILE
        "#]],
    );
}
