//! AWS CDK in TypeScript: a Stack with an aws-cdk-lib `TableV2` per table.
//!
//! The same settings as the CloudFormation export (on-demand or provisioned billing,
//! point-in-time recovery, AWS-managed encryption, deletion protection, TTL, a retained
//! table) and the environment suffix from the CDK context `environment`.

use std::fmt::Write;

use crate::export::names::{self, Lang, Scope, ts_str, ts_template_text};
use crate::model::{Billing, Capacity, Design, KeyAttribute, KeyType, Projection, Scaling};

fn attribute(k: &KeyAttribute) -> String {
    let ty = match k.ty {
        KeyType::S => "STRING",
        KeyType::N => "NUMBER",
        KeyType::B => "BINARY",
    };
    format!("{{ name: {}, type: AttributeType.{ty} }}", ts_str(&k.name))
}

fn projection(out: &mut String, p: &Projection, indent: &str) {
    match p {
        Projection::All => {
            let _ = writeln!(out, "{indent}projectionType: ProjectionType.ALL,");
        }
        Projection::KeysOnly => {
            let _ = writeln!(out, "{indent}projectionType: ProjectionType.KEYS_ONLY,");
        }
        Projection::Include { attributes } => {
            let list: Vec<String> = attributes.iter().map(|a| ts_str(a)).collect();
            let _ = writeln!(out, "{indent}projectionType: ProjectionType.INCLUDE,");
            let _ = writeln!(out, "{indent}nonKeyAttributes: [{}],", list.join(", "));
        }
    }
}

pub fn cdk(design: &Design) -> String {
    let mut out = String::new();
    let stack = names::valid(
        &format!("{}Stack", names::pascal(&design.name)),
        Lang::TypeScript,
        "DesignStack",
    );
    let _ = writeln!(
        out,
        "// DynamoDB tables of {} (exported by keyplan), as an AWS CDK stack.",
        names::one_line(&design.name)
    );
    out.push_str(
        "import { App, CfnOutput, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';\n",
    );
    let provisioned = design
        .tables
        .iter()
        .any(|t| matches!(t.billing, Billing::Provisioned { .. }));
    let mut imports = vec!["AttributeType", "Billing"];
    if provisioned {
        imports.push("Capacity");
    }
    if design.tables.iter().any(|t| !t.vector_indexes.is_empty()) {
        imports.push("CfnGlobalTable");
    }
    imports.extend(["ProjectionType", "TableEncryptionV2", "TableV2"]);
    let _ = writeln!(
        out,
        "import {{ {} }} from 'aws-cdk-lib/aws-dynamodb';",
        imports.join(", ")
    );
    out.push_str("import type { Construct } from 'constructs';\n\n");
    let _ = writeln!(out, "export class {stack} extends Stack {{");
    out.push_str("  constructor(scope: Construct, id: string, props?: StackProps) {\n");
    out.push_str("    super(scope, id, props);\n");
    out.push_str("    // Suffix of every table name: `cdk deploy -c environment=prod`.\n");
    out.push_str(
        "    const environment: string = this.node.tryGetContext('environment') ?? 'dev';\n",
    );
    let mut vars = Scope::with_taken(&["environment", "scope", "id", "props"]);
    let mut construct_ids = Scope::new();
    for table in &design.tables {
        let var = vars.unique(names::valid(
            &names::camel(&table.name),
            Lang::TypeScript,
            "table",
        ));
        let construct_id = construct_ids.unique(names::valid(
            &names::pascal(&table.name),
            Lang::CloudFormation,
            "Table",
        ));
        let _ = writeln!(
            out,
            "\n    const {var} = new TableV2(this, {}, {{",
            ts_str(&construct_id)
        );
        let _ = writeln!(
            out,
            "      tableName: `{}-${{environment}}`,",
            ts_template_text(&table.name)
        );
        let _ = writeln!(
            out,
            "      partitionKey: {},",
            attribute(&table.partition_key)
        );
        if let Some(sk) = &table.sort_key {
            let _ = writeln!(out, "      sortKey: {},", attribute(sk));
        }
        match table.billing.table_capacity() {
            None => out.push_str("      billing: Billing.onDemand(),\n"),
            Some(given) => {
                let (read, write) = capacity(given);
                let _ = writeln!(
                    out,
                    "      billing: Billing.provisioned({{\n        readCapacity: {read},\n        writeCapacity: {write},\n      }}),"
                );
            }
        }
        out.push_str(
            "      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },\n",
        );
        out.push_str("      encryption: TableEncryptionV2.awsManagedKey(),\n");
        out.push_str("      deletionProtection: true,\n");
        out.push_str("      removalPolicy: RemovalPolicy.RETAIN,\n");
        if let Some(ttl) = &table.ttl_attribute {
            let _ = writeln!(out, "      timeToLiveAttribute: {},", ts_str(ttl));
        }
        if !table.gsis.is_empty() {
            out.push_str("      globalSecondaryIndexes: [\n");
            for gsi in &table.gsis {
                out.push_str("        {\n");
                let _ = writeln!(out, "          indexName: {},", ts_str(&gsi.name));
                if gsi.partition_key.len() == 1 {
                    let _ = writeln!(
                        out,
                        "          partitionKey: {},",
                        attribute(&gsi.partition_key[0])
                    );
                } else {
                    let keys: Vec<String> = gsi.partition_key.iter().map(attribute).collect();
                    let _ = writeln!(out, "          partitionKeys: [{}],", keys.join(", "));
                }
                match gsi.sort_key.as_slice() {
                    [] => {}
                    [one] => {
                        let _ = writeln!(out, "          sortKey: {},", attribute(one));
                    }
                    many => {
                        let keys: Vec<String> = many.iter().map(attribute).collect();
                        let _ = writeln!(out, "          sortKeys: [{}],", keys.join(", "));
                    }
                }
                // A GSI's own capacity; without it TableV2 gives it the table's.
                if let Billing::Provisioned { indexes, .. } = &table.billing
                    && let Some(given) = indexes.get(&gsi.name)
                {
                    let (read, write) = capacity(*given);
                    let _ = writeln!(out, "          readCapacity: {read},");
                    let _ = writeln!(out, "          writeCapacity: {write},");
                }
                projection(&mut out, &gsi.projection, "          ");
                out.push_str("        },\n");
            }
            out.push_str("      ],\n");
        }
        if !table.lsis.is_empty() {
            out.push_str("      localSecondaryIndexes: [\n");
            for lsi in &table.lsis {
                out.push_str("        {\n");
                let _ = writeln!(out, "          indexName: {},", ts_str(&lsi.name));
                let _ = writeln!(out, "          sortKey: {},", attribute(&lsi.sort_key));
                projection(&mut out, &lsi.projection, "          ");
                out.push_str("        },\n");
            }
            out.push_str("      ],\n");
        }
        out.push_str("    });\n");
        out.push_str(&super::vector::cdk_override(table, &var));
        let _ = writeln!(
            out,
            "    new CfnOutput(this, {}, {{ value: {var}.tableName }});",
            ts_str(&format!("{construct_id}TableName"))
        );
        let _ = writeln!(
            out,
            "    new CfnOutput(this, {}, {{ value: {var}.tableArn }});",
            ts_str(&format!("{construct_id}TableArn"))
        );
    }
    out.push_str("  }\n}\n\n");
    out.push_str("const app = new App();\n");
    let _ = writeln!(out, "new {stack}(app, {});", ts_str(&stack));
    out.push_str("app.synth();\n");
    out
}

/// A capacity as TableV2's `Capacity` values, read then write: auto-scaled within its bounds
/// at its target when it scales; else read fixed and write auto-scaled with min = max, since
/// TableV2 takes write capacity only auto-scaled.
fn capacity(given: Capacity) -> (String, String) {
    let scaling = given.auto_scaling.unwrap_or_default();
    let autoscaled = |s: Scaling| {
        format!(
            "Capacity.autoscaled({{ minCapacity: {}, maxCapacity: {}, targetUtilizationPercent: {} }})",
            s.min.max(1),
            s.max.max(s.min).max(1),
            s.target_or_default()
        )
    };
    let read = scaling.read.map_or_else(
        || format!("Capacity.fixed({})", given.read.max(1)),
        autoscaled,
    );
    let write = scaling.write.map_or_else(
        || {
            let w = given.write.max(1);
            format!("Capacity.autoscaled({{ minCapacity: {w}, maxCapacity: {w} }})")
        },
        autoscaled,
    );
    (read, write)
}
