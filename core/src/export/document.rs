//! The design document in Markdown: tables and indexes, the entity chart (each entity's
//! template for every key of the table and its indexes, as in the seeds' tables), the access
//! patterns (index, operation, key condition, as in the aws-dynamodb-examples READMEs), the
//! findings and the cost estimate.
//!
//! Every user text goes through [`md_cell`] in tables (or is written in place by
//! [`push_md_cell`]), so a `|` in a name cannot break a row.

use std::fmt::Write;

use crate::analysis::{KeyCondition, Severity, Verdict, analyze};
use crate::cost::{self, CostConfig};
use crate::eval::ItemStore;
use crate::export::names::{md_cell, md_code, one_line, push_md_cell, push_md_code};
use crate::model::{AccessPattern, Billing, Design, Projection, Table};
use crate::pricing::{dollars, grouped};

fn projection(p: &Projection) -> String {
    match p {
        Projection::All => "ALL".to_string(),
        Projection::KeysOnly => "KEYS_ONLY".to_string(),
        Projection::Include { attributes } => format!("INCLUDE {}", attributes.join(", ")),
    }
}

fn keys(keys: &[crate::model::KeyAttribute]) -> String {
    if keys.is_empty() {
        return "-".to_string();
    }
    keys.iter()
        .map(|k| format!("{} ({:?})", k.name, k.ty))
        .collect::<Vec<_>>()
        .join(" + ")
}

/// `PK = CUSTOMER#{customerId} AND begins_with(SK, ORDER#)`: the expression with each
/// placeholder replaced by its template.
pub fn key_condition_text(kc: &KeyCondition) -> String {
    let mut text = kc.expression.clone();
    let mut values: Vec<&(String, String)> = kc.values.iter().collect();
    // Longest placeholder first, so `:sk` does not eat into `:sk2`.
    values.sort_by_key(|(p, _)| std::cmp::Reverse(p.len()));
    for (placeholder, template) in values {
        text = text.replace(placeholder.as_str(), &format!("\"{template}\""));
    }
    text
}

fn table_section(out: &mut String, design: &Design, table: &Table) {
    let _ = writeln!(out, "\n### {}\n", one_line(&table.name));
    let billing = match table.billing {
        Billing::OnDemand => "on-demand".to_string(),
        Billing::Provisioned { read, write, .. } => {
            format!("provisioned, {read} RCU / {write} WCU")
        }
    };
    let _ = writeln!(out, "Billing: {billing}.");
    if let Some(ttl) = &table.ttl_attribute {
        let _ = writeln!(out, "Time to live: `{}`.", md_code(ttl));
    }
    out.push_str(
        "\n| Index | Kind | Partition key | Sort key | Projection |\n|---|---|---|---|---|\n",
    );
    for index in table.indexes() {
        let _ = writeln!(
            out,
            "| {} | {:?} | {} | {} | {} |",
            md_cell(index.name.unwrap_or("(table)")),
            index.kind,
            md_cell(&keys(index.partition_key)),
            md_cell(&keys(index.sort_key)),
            md_cell(&projection(index.projection))
        );
    }
    // The entity chart: an entity per row, a column per key attribute.
    let columns: Vec<String> = table
        .key_attributes()
        .iter()
        .map(|k| k.name.clone())
        .collect();
    let _ = writeln!(
        out,
        "\n| Entity | {} |",
        columns
            .iter()
            .map(|c| md_cell(c))
            .collect::<Vec<_>>()
            .join(" | ")
    );
    let _ = writeln!(out, "|---|{}", "---|".repeat(columns.len()));
    // Written in place, a cell at a time: 42 columns of 10,000 entities are 420,000 cells
    // (issue 13).
    for entity in design.entities_in(&table.name) {
        out.push_str("| ");
        push_md_cell(out, &entity.name);
        out.push_str(" | ");
        for (i, c) in columns.iter().enumerate() {
            if i > 0 {
                out.push_str(" | ");
            }
            match entity.key_template(c) {
                Some(t) => {
                    out.push('`');
                    push_md_code(out, t.source());
                    out.push('`');
                }
                None => out.push('-'),
            }
        }
        out.push_str(" |\n");
    }
}

/// The notes of a pattern's row, joined by `; `, written at the end of `cell`.
fn pattern_notes(cell: &mut String, pattern: &AccessPattern, verdict: &Verdict) {
    let mut first = true;
    let mut note = |cell: &mut String| {
        if !first {
            cell.push_str("; ");
        }
        first = false;
    };
    if !verdict.scan_forward {
        note(cell);
        cell.push_str("ScanIndexForward = false");
    }
    if let Some(n) = pattern.page_size {
        note(cell);
        let _ = write!(cell, "Limit {n}");
    }
    if let Some(n) = verdict.shards {
        note(cell);
        let _ = write!(cell, "scatter-gather over {n} shards");
    }
    if pattern.consistent {
        note(cell);
        cell.push_str("strongly consistent");
    }
    if !verdict.covered {
        for reason in &verdict.reasons {
            note(cell);
            cell.push_str(reason);
        }
        for s in &verdict.suggestions {
            note(cell);
            let _ = write!(cell, "suggestion: {s}");
        }
    }
    if let Some(c) = &pattern.condition {
        note(cell);
        let _ = write!(cell, "if {c}");
    }
    for w in &pattern.writes {
        note(cell);
        cell.push_str(&format!("{:?}", w.action).to_lowercase());
        cell.push(' ');
        if w.count > 1 {
            let _ = write!(cell, "{} x ", w.count);
        }
        cell.push_str(&w.entity);
    }
}

pub fn markdown(design: &Design) -> String {
    // The cost section's sample and store do not depend on the analysis: both at once with
    // core's `parallel` feature (issue 13: the document of 10,000 entities).
    let (analysis, store) = crate::par::join(
        || analyze(design),
        || {
            (!design.tables.is_empty())
                .then(|| ItemStore::build(design, super::export_sample(design).into_load_items()))
        },
    );
    let mut out = String::new();
    let _ = writeln!(out, "# {}\n", one_line(&design.name));
    if !design.description.is_empty() {
        // One paragraph: a line of its own would be raw Markdown (issue 41).
        let _ = writeln!(out, "{}\n", md_cell(design.description.trim()));
    }
    let (covered, reads) = analysis.coverage();
    let _ = writeln!(
        out,
        "{} table(s), {} entities, {} access patterns; {covered} of {reads} reads served without a Scan.",
        design.tables.len(),
        design.entities.len(),
        design.patterns.len()
    );

    out.push_str("\n## Tables and entities\n");
    for table in &design.tables {
        table_section(&mut out, design, table);
    }

    out.push_str("\n## Access patterns\n\n");
    out.push_str("| # | Access pattern | Table / index | Operation | Key condition | Notes |\n|---|---|---|---|---|---|\n");
    // Each cell is written into one reused buffer, then escaped into place: a String per
    // note, cloned reasons (a Scan has one per index) and their join were a tenth of the
    // 10,000-entity document's own work (issue 13).
    let mut cell = String::new();
    for (i, (pattern, verdict)) in design.patterns.iter().zip(&analysis.verdicts).enumerate() {
        let _ = write!(out, "| {} | ", i + 1);
        push_md_cell(&mut out, &pattern.name);
        out.push_str(" | ");
        cell.clear();
        match (&verdict.table, &verdict.index) {
            (Some(t), Some(idx)) => {
                let _ = write!(cell, "{t} / {idx}");
            }
            (Some(t), None) => {
                let _ = write!(cell, "{t} / table");
            }
            (None, _) => cell.push('-'),
        }
        push_md_cell(&mut out, &cell);
        out.push_str(" | ");
        out.push_str(verdict.operation.as_str());
        out.push_str(" | ");
        cell.clear();
        match &verdict.key_condition {
            Some(kc) => {
                cell.push('`');
                cell.extend(key_condition_text(kc).chars().map(|c| match c {
                    '`' => '\'',
                    c => c,
                }));
                cell.push('`');
            }
            None => cell.push('-'),
        }
        push_md_cell(&mut out, &cell);
        out.push_str(" | ");
        cell.clear();
        pattern_notes(&mut cell, pattern, verdict);
        push_md_cell(&mut out, &cell);
        out.push_str(" |\n");
    }

    out.push_str("\n## Findings\n\n");
    if analysis.findings.is_empty() {
        out.push_str("None.\n");
    } else {
        out.push_str("| Severity | Code | Where | Finding |\n|---|---|---|---|\n");
        for f in &analysis.findings {
            let severity = match f.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
                Severity::Info => "info",
            };
            let _ = write!(out, "| {severity} | {} | ", f.code);
            push_md_cell(&mut out, &f.place.to_string());
            out.push_str(" | ");
            push_md_cell(&mut out, &f.message);
            out.push_str(" |\n");
        }
    }

    if let Some(store) = &store {
        let report = cost::estimate(design, &analysis.verdicts, store, &CostConfig::default());
        out.push_str("\n## Cost estimate\n\n");
        let _ = writeln!(
            out,
            "On-demand prices, us-east-1, standard table class, a 30-day month at each pattern's peak rate; item sizes and items per query from a sample of {} items per entity (`keyplan cost` uses the full sample).\n",
            super::SAMPLE_ITEMS_PER_ENTITY
        );
        out.push_str("| Access pattern | Operation | Rate/s | RCU/request | WCU/request | $/month |\n|---|---|---:|---:|---:|---:|\n");
        for p in &report.patterns {
            out.push_str("| ");
            push_md_cell(&mut out, &p.pattern);
            let _ = writeln!(
                out,
                " | {} | {} | {} | {} | {} |",
                p.operation,
                p.rate,
                p.read_units,
                p.write_units,
                grouped(p.monthly_cost, 2)
            );
        }
        let _ = writeln!(
            out,
            "\nRequests {} + storage {} = **{} a month**.",
            dollars(report.monthly_request_cost, 2),
            dollars(report.monthly_storage_cost, 2),
            dollars(report.monthly_total, 2)
        );
        let hot: Vec<_> = report.partitions.iter().filter(|p| p.hot).collect();
        if !hot.is_empty() {
            out.push_str(
                "\nHot partitions (over 3,000 RCU or 1,000 WCU a second on one partition):\n\n",
            );
            for p in hot {
                let _ = writeln!(
                    out,
                    "- `{}` ({}): {:.0} RCU/s, {:.0} WCU/s; {} shards would spread it",
                    md_code(&p.partition),
                    one_line(&p.template),
                    p.read_units_per_second,
                    p.write_units_per_second,
                    p.shards_needed
                );
            }
        }
    }

    // The analysis of 10,000 entities and the sample's store are tens of milliseconds to free.
    crate::par::drop_later((analysis, store));
    out.push_str("\n## Deploying\n\n");
    out.push_str("The CloudFormation, Terraform and CDK exports switch on point-in-time recovery, encryption, deletion protection and TTL. The `create-table` input cannot: after `aws dynamodb create-table --cli-input-json file://...`, run `aws dynamodb update-continuous-backups` and, for a table with TTL, `aws dynamodb update-time-to-live`.\n");
    out
}
