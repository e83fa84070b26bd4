//! `keyplan check FILE...`: how DynamoDB serves every access pattern, and every finding.
//!
//! Each file is a keyplan design or any format keyplan reads (`--from auto`, the default,
//! tells them apart; `--format` is the same option's older name). The command prints, per design, an aligned table of the
//! patterns with their operation, index and key condition (and why a Scan, with a suggestion),
//! then the findings. Colour only when stdout is a terminal (and `NO_COLOR` is unset).
//!
//! Exit codes: 0 when every read of every design is covered and no finding is an error; 1
//! otherwise; 2 when a file cannot be read or parsed (the message names the file, and the line
//! and column for JSON). `--json` prints exactly
//! `{"designs":[{"file","name","patterns":[{"name","operation","index","key_condition",
//! "covered","reasons"}],"findings":[{"code","severity","message","path","fix"?}]}]}`, where
//! `fix` (only when the finding has one) is the quick fix the app offers, in words: the text
//! output prints it under the finding too.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use anstyle::{AnsiColor, Style};
use anyhow::Context as _;
use keyplan_core::import::{Format, Imported};
use keyplan_core::text::visible;
use keyplan_core::{Analysis, Operation, Severity, analyze};

use crate::reports::{Report, design_report, tally};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Design files: keyplan designs or any format keyplan reads (NoSQL Workbench models,
    /// awslabs/mcp schema.json files, CloudFormation templates, Terraform configuration).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub from: crate::design_io::From,
    /// Print one JSON document instead of tables.
    #[arg(long)]
    pub json: bool,
    /// Add the GSI each Scan is offered to the design file (keyplan design files only; the app's
    /// "Add this GSI"), and key each GSI that joins attributes into one string on those
    /// attributes where a finding offers it (KP025, the app's "Apply"), write the file back,
    /// then check it.
    #[arg(long)]
    pub fix: bool,
}

/// Applies, one at a time, the GSI suggested for each read that needs a Scan (core's
/// [`keyplan_core::Suggestion::edit`], what the app's "Add this GSI" applies: a GSI the
/// entities do not fill yet, or a new one), keeping each only when its pattern is then served
/// without a Scan; says what each added or used.
fn add_suggested_gsis(design: &mut keyplan_core::Design) -> Vec<String> {
    let mut added = Vec::new();
    let mut tried: Vec<String> = Vec::new();
    loop {
        let analysis = analyze(design);
        let next = analysis.verdicts.iter().find_map(|v| {
            if v.covered || tried.contains(&v.pattern) {
                return None;
            }
            let suggestion = v.suggestions.first()?;
            let edit = suggestion.edit(design)?;
            let overloaded = suggestion.index.is_some();
            Some((v.pattern.clone(), edit, overloaded))
        });
        let Some((pattern, edit, overloaded)) = next else {
            return added;
        };
        tried.push(pattern.clone());
        let mut after = design.clone();
        if keyplan_core::edit::apply(&mut after, edit).is_err() {
            continue;
        }
        let served = analyze(&after)
            .verdicts
            .into_iter()
            .find(|v| v.pattern == pattern)
            .filter(|v| v.covered);
        if let Some(v) = served {
            let index = v.index.clone().unwrap_or_default();
            let did = if overloaded { "used" } else { "added" };
            added.push(format!(
                "{did} {index} for `{pattern}` ({} on {index})",
                v.operation.as_str()
            ));
            *design = after;
        }
    }
}

/// Applies, one at a time, each multi-attribute key a finding offers (KP025, core's
/// [`keyplan_core::Fix::edit`], the app's "Apply"): core offers it only when every pattern the
/// GSI serves is still served after it. Says what each changed.
fn use_multi_attribute_keys(design: &mut keyplan_core::Design) -> Vec<String> {
    let mut changed = Vec::new();
    let mut tried: Vec<keyplan_core::Fix> = Vec::new();
    loop {
        let next = analyze(design)
            .findings
            .into_iter()
            .find_map(|f| match f.fix {
                Some(fix @ keyplan_core::Fix::UseMultiAttributeKey { .. })
                    if !tried.contains(&fix) =>
                {
                    Some(fix)
                }
                _ => None,
            });
        let Some(fix) = next else {
            return changed;
        };
        tried.push(fix.clone());
        let Some(edit) = fix.edit(design) else {
            continue;
        };
        let mut after = design.clone();
        if keyplan_core::edit::apply(&mut after, edit).is_ok() {
            changed.push(fix.label());
            *design = after;
        }
    }
}

pub async fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut unreadable = false;
    let mut all_pass = true;
    let mut report = Report {
        designs: Vec::new(),
    };
    let mut text = String::new();
    for path in &args.files {
        let mut imported = match crate::design_io::read_imported(path, args.from) {
            Ok((format, _)) if args.fix && format != Format::Keyplan => {
                eprintln!(
                    "error: {}: --fix writes keyplan design files, and this is {}; `keyplan import` it first",
                    path.display(),
                    format.described()
                );
                unreadable = true;
                continue;
            }
            Ok((_, imported)) => imported,
            Err(e) => {
                eprintln!("error: {e}");
                unreadable = true;
                continue;
            }
        };
        if args.fix {
            let mut added = add_suggested_gsis(&mut imported.design);
            added.extend(use_multi_attribute_keys(&mut imported.design));
            if !added.is_empty() {
                std::fs::write(path, keyplan_core::file::to_string(&imported.design))
                    .with_context(|| format!("cannot write {}", path.display()))?;
            }
            for line in &added {
                eprintln!("fixed {}: {line}", path.display());
            }
        }
        let analysis = analyze(&imported.design);
        all_pass &= analysis.passes();
        let file = path.display().to_string();
        if args.json {
            report
                .designs
                .push(design_report(&file, &imported.design.name, &analysis));
        } else {
            text.push_str(&render_text(&file, &imported, &analysis));
        }
    }
    let mut out = anstream::stdout();
    if args.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?;
    } else {
        write!(out, "{text}")?;
    }
    out.flush()?;
    Ok(if unreadable {
        ExitCode::from(crate::design_io::UNREADABLE)
    } else if all_pass {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

const BOLD: Style = Style::new().bold();
const DIM: Style = Style::new().dimmed();
const RED: Style = AnsiColor::Red.on_default().bold();
const GREEN: Style = AnsiColor::Green.on_default();
const YELLOW: Style = AnsiColor::Yellow.on_default();
const BLUE: Style = AnsiColor::Blue.on_default();
const CYAN: Style = AnsiColor::Cyan.on_default();

fn paint(style: Style, text: &str) -> String {
    format!("{style}{text}{style:#}")
}

/// Pads `text` to `width` characters, then paints it (so escapes do not break alignment).
fn cell(style: Style, text: &str, width: usize) -> String {
    let pad = width.saturating_sub(text.chars().count());
    format!("{}{}", paint(style, text), " ".repeat(pad))
}

/// The terminal rendering of one design: the pattern table, the findings and a summary line.
/// Colour escapes are always written; `anstream` strips them when stdout is not a terminal.
/// The design's text (names, templates, notes) goes through [`visible`]: a line break or a
/// terminal escape in a name is shown by name, never acted on (issue 41).
pub fn render_text(file: &str, imported: &Imported, analysis: &Analysis) -> String {
    let design = &imported.design;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} {}",
        paint(BOLD, file),
        paint(DIM, &format!("({})", visible(&design.name)))
    );
    for note in &imported.notes {
        let _ = writeln!(out, "  {}", paint(DIM, &format!("note: {}", visible(note))));
    }
    for assumed in &imported.assumed {
        let _ = writeln!(
            out,
            "  {}",
            paint(DIM, &format!("assumed: {}", visible(&assumed.to_string())))
        );
    }
    let rows: Vec<[String; 4]> = analysis
        .verdicts
        .iter()
        .map(|v| {
            let index = match (&v.index, v.operation) {
                (Some(i), _) => i.clone(),
                (None, Operation::GetItem | Operation::Query) => "table".to_string(),
                (None, _) => "-".to_string(),
            };
            let mut condition = v
                .key_condition
                .as_ref()
                .map(|k| {
                    let values: Vec<String> =
                        k.values.iter().map(|(p, t)| format!("{p}={t}")).collect();
                    if values.is_empty() {
                        k.expression.clone()
                    } else {
                        format!("{}  [{}]", k.expression, values.join(", "))
                    }
                })
                .unwrap_or_default();
            if let Some(filter) = &v.filter {
                condition.push_str(&format!("  FILTER {}", filter.expression));
            }
            if let Some(shards) = v.shards {
                condition.push_str(&format!("  x{shards} shards, merged"));
            }
            if let Some(order) = &v.order {
                condition.push_str(&format!("  {order}"));
            } else if v.operation == Operation::Query && !v.scan_forward {
                condition.push_str("  descending");
            }
            [
                visible(&v.pattern),
                v.operation.as_str().to_string(),
                visible(&index),
                visible(&condition),
            ]
        })
        .collect();
    let header = ["PATTERN", "OPERATION", "INDEX", "KEY CONDITION"];
    let width = |i: usize| {
        rows.iter()
            .map(|r| r[i].chars().count())
            .chain([header[i].len()])
            .max()
            .unwrap_or(0)
    };
    let widths = [width(0), width(1), width(2)];
    if !rows.is_empty() {
        let _ = writeln!(
            out,
            "  {} {} {} {}",
            cell(BOLD, header[0], widths[0]),
            cell(BOLD, header[1], widths[1]),
            cell(BOLD, header[2], widths[2]),
            paint(BOLD, header[3])
        );
    }
    for (row, verdict) in rows.iter().zip(&analysis.verdicts) {
        let style = match verdict.operation {
            Operation::Scan => RED,
            Operation::GetItem | Operation::Query | Operation::SearchVectors => GREEN,
            _ => CYAN,
        };
        let line = format!(
            "  {} {} {} {}",
            cell(Style::new(), &row[0], widths[0]),
            cell(style, &row[1], widths[1]),
            cell(Style::new(), &row[2], widths[2]),
            row[3]
        );
        let _ = writeln!(out, "{}", line.trim_end());
        let indent = " ".repeat(widths[0] + 3);
        if verdict.operation == Operation::Scan {
            for reason in &verdict.reasons {
                let _ = writeln!(
                    out,
                    "{indent}{}",
                    paint(RED, &format!("because {}", visible(reason)))
                );
            }
        } else if verdict.covered
            && (verdict.reasons.len() > 1 || verdict.sorted_in_memory.is_some())
        {
            for reason in &verdict.reasons {
                let _ = writeln!(out, "{indent}{}", paint(DIM, &visible(reason)));
            }
        }
        // A Scan's index, or the ways a Query sorted in memory would read in order, each
        // with its cost (issue 43: the choice between them is a choice of costs).
        for suggestion in &verdict.suggestions {
            let _ = writeln!(
                out,
                "{indent}{}",
                paint(
                    YELLOW,
                    &format!("suggestion: {}", visible(&suggestion.to_string()))
                )
            );
            let cost = verdict.sorted_in_memory.as_ref().and_then(|_| {
                keyplan_core::suggested::suggestion_cost(
                    design,
                    suggestion,
                    &Default::default(),
                    &Default::default(),
                )
            });
            if let Some(cost) = cost {
                let _ = writeln!(out, "{indent}  {}", paint(DIM, &format!("cost: {cost}")));
            }
        }
    }
    if !analysis.findings.is_empty() {
        let code_width = analysis
            .findings
            .iter()
            .map(|f| f.code.len())
            .max()
            .unwrap_or(0);
        let _ = writeln!(out, "  {}", paint(BOLD, "FINDINGS"));
        for f in &analysis.findings {
            let (label, style) = match f.severity {
                Severity::Error => ("error", RED),
                Severity::Warning => ("warning", YELLOW),
                Severity::Info => ("info", BLUE),
            };
            let _ = writeln!(
                out,
                "  {} {} {} {}",
                cell(style, label, 7),
                cell(Style::new(), f.code, code_width),
                f.message,
                paint(DIM, &format!("({})", visible(&f.place.to_string())))
            );
            if let Some(fix) = &f.fix {
                let _ = writeln!(
                    out,
                    "  {} {}",
                    " ".repeat(7 + 1 + code_width),
                    paint(GREEN, &format!("fix: {}", visible(&fix.label())))
                );
            }
        }
    }
    let verdict = if analysis.passes() {
        paint(GREEN, "pass")
    } else {
        paint(RED, "FAIL")
    };
    let _ = writeln!(out, "  {}: {verdict}\n", tally(analysis));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text_of(slug: &str) -> String {
        text_of_design(&keyplan_core::examples::get(slug).expect("a built-in example"))
    }

    fn text_of_design(design: &keyplan_core::Design) -> String {
        let imported =
            keyplan_core::import::detect_and_import(&keyplan_core::file::to_string(design))
                .expect("an example reads back");
        let analysis = analyze(&imported.design);
        anstream::adapter::strip_str(&render_text("x.keyplan.json", &imported, &analysis))
            .to_string()
    }

    // issue 43: an order the key does not sort by is a Query sorted in memory, said so on its
    // row, with why and the two ways to read in order under it.
    #[test]
    fn a_query_sorted_in_memory_says_so_with_why_and_its_suggestions() {
        let mut design = keyplan_core::examples::first();
        let orders = design
            .patterns
            .iter_mut()
            .find(|p| p.name == "Get customer orders")
            .expect("the pattern");
        orders.order_by = Some("createdAt".to_string());
        let text = text_of_design(&design);
        let lines: Vec<&str> = text
            .lines()
            .skip_while(|l| !l.contains("Get customer orders"))
            .take(6)
            .map(str::trim)
            .collect();
        expect_test::expect![[r#"
            [
                "Get customer orders              Query              table PK = :pk AND begins_with(SK, :sk)  [:pk=CUSTOMER#{customerId}, :sk=ORDER#]  not in that order: every matching item is read and sorted by createdAt in memory, newest first (cannot be paged by createdAt)",
                "the order by `createdAt` is not the order of SK: it sorts by `orderId` after `ORDER#`",
                "suggestion: re-key Order's SK as `ORDER#{createdAt}#{orderId}`: the Query then reads newest first a page at a time (the items already stored need rewriting: plan the migration)",
                "cost: $32,344.11 a month (now $32,295.51), and a one-time migration of the stored items (give Order a volume to price it)",
                "suggestion: GSI3 holds no Order yet: give Order partition key `CUSTOMER#{customerId}` and sort key `{createdAt}#{orderId}` on it to serve it, with no new index",
                "cost: $36,491.31 a month (now $32,295.51)",
            ]
        "#]].assert_debug_eq(&lines);
    }

    #[test]
    fn a_finding_with_a_quick_fix_prints_the_fix_under_it() {
        // issue 12: the app's quick fixes (add the attribute, rename the input a rename left
        // behind) are in `keyplan check`'s text and JSON too.
        let mut design = keyplan_core::examples::first();
        let order = design
            .entities
            .iter_mut()
            .find(|e| e.name == "Order")
            .expect("Order");
        order.attributes[0].name = "id".into();
        let imported = Imported {
            design,
            notes: Vec::new(),
            assumed: Vec::new(),
            declared: Default::default(),
            held: None,
            collections: 0,
        };
        let analysis = analyze(&imported.design);
        let text =
            anstream::adapter::strip_str(&render_text("x.keyplan.json", &imported, &analysis))
                .to_string();
        let fixes: Vec<&str> = text
            .lines()
            .filter(|l| l.trim_start().starts_with("fix: "))
            .map(str::trim)
            .collect();
        expect_test::expect![[r#"
            [
                "fix: Add attribute `orderId` to Order",
                "fix: Add attribute `orderId` to Order",
                "fix: Add attribute `orderId` to Order",
                "fix: Rename `orderId` to `id` in `Get order by ID`",
            ]
        "#]]
        .assert_debug_eq(&fixes);
        let report = design_report("x", "x", &analysis);
        assert!(report.findings.iter().any(|f| f.fix.is_some()));
    }

    #[test]
    fn the_text_report_aligns_patterns_and_explains_each_scan() {
        expect_test::expect![[r#"
            x.keyplan.json (Order management)
              PATTERN                          OPERATION          INDEX KEY CONDITION
              Get order by ID                  Scan               -       FILTER #orderId = :orderId
                                               because the table: PK = `CUSTOMER#{customerId}` needs `customerId`, which is not an input
                                               because GSI1: GSI1PK = `STATUS#{status}#SHARD{shard:10}` needs `status`, which is not an input
                                               because GSI2: GSI2PK = `FC#{fulfillmentCenter}` needs `fulfillmentCenter`, which is not an input
                                               because GSI3: Order is absent from GSI3: it has no template for GSI3PK
                                               suggestion: GSI3 holds no Order yet: give Order partition key `ORDER#{orderId}` and sort key `ORDER` on it to serve it, with no new index
              Get customer orders              Query              table PK = :pk AND begins_with(SK, :sk)  [:pk=CUSTOMER#{customerId}, :sk=ORDER#]  descending by orderId (ScanIndexForward=false on SK)
              Get orders by status             Query              GSI1  GSI1PK = :pk AND GSI1SK >= :sk  [:pk=STATUS#{status}#SHARD{shard:10}, :sk={createdAt}$]  x10 shards, merged
                                               the bound ends in `$`, the character after `#`: it sorts after every key that goes on `#...` past `createdAt`, so items whose `createdAt` equals the value are skipped, as `>` means
                                               the partition key is write-sharded: scatter 10 Queries, one per shard, and merge
              Get order items                  Query              table PK = :pk  [:pk=ORDER#{orderId}]
              Get customer profile             GetItem            table PK = :pk AND SK = :sk  [:pk=CUSTOMER#{customerId}, :sk=PROFILE]
              Get orders by fulfillment center Query              GSI2  GSI2PK = :pk  [:pk=FC#{fulfillmentCenter}]
              Get daily order count by status  Query              table PK = :pk AND begins_with(SK, :sk)  [:pk=ANALYTICS, :sk=DATE#{date}#STATUS#]
              Get order events                 Query              table PK = :pk  [:pk=ORDER#{orderId}]
              Create order                     TransactWriteItems -
              Update order status              UpdateItem         -     PK = :pk AND SK = :sk  [:pk=CUSTOMER#{customerId}, :sk=ORDER#{orderId}]
              Record order event               PutItem            -     PK = :pk AND SK = :sk  [:pk=ORDER#{orderId}, :sk=EVENT#{occurredAt}#{eventId}]
              FINDINGS
              warning KP021 Order.GSI2SK `{priority}#{orderId}` puts the number `priority` in a string sort key, where it sorts as text (`10` before `2`): zero-pad it to a fixed width when writing (`priority` as `0002`) (entities/Order/keys/GSI2SK)
              warning KP012 no read pattern uses GSI3 of `orders`: it costs writes and storage for nothing; drop it or add the pattern it is for (tables/orders/gsis/GSI3)
              warning KP014 GSI1PK `STATUS#{status}#SHARD{shard:10}` takes few values (`status` has 4 known values): its busiest partition (`STATUS#PENDING#SHARD0`, one of 10 shards), loaded by `Get orders by status` and `Create order` and `Update order status`, takes about 8000 read units a second, over one partition's 3000: every scatter-gather request reads each shard: fewer shards or a smaller page per shard, or cache the reads (DAX) (entities/Order/keys/GSI1PK)
              info    KP025 GSI1 of `orders`: Order.GSI1SK `{createdAt}#{orderId}` joins 2 attributes into one string; a multi-attribute sort key (createdAt, orderId) keeps each attribute's own type (numbers sort as numbers, nothing is zero-padded) and DynamoDB indexes the attributes the items already have: no key to write, no backfill (tables/orders/gsis/GSI1)
                            fix: Use a multi-attribute sort key (createdAt, orderId) on GSI1
              info    KP025 GSI2 of `orders`: Order.GSI2SK `{priority}#{orderId}` joins 2 attributes into one string; a multi-attribute sort key (priority, orderId) keeps each attribute's own type (numbers sort as numbers, nothing is zero-padded) and DynamoDB indexes the attributes the items already have: no key to write, no backfill (tables/orders/gsis/GSI2)
                            fix: Use a multi-attribute sort key (priority, orderId) on GSI2
              7 of 8 reads covered, 0 errors, 3 warnings, 2 info: FAIL

        "#]].assert_eq(&text_of("order-management"));
    }
}
