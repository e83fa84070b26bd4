//! The cost report in words: the plain-text table of `keyplan cost` and its Markdown. Nothing
//! here computes a figure.

use std::fmt::Write as _;

use super::billing::round_to;
use super::{CostReport, Mode, TableBilling, TableClass};
use crate::pricing::{dollars, grouped};
use crate::size::bytes_text;

impl CostReport {
    /// The report as a plain-text table, for the CLI and for tests.
    pub fn to_table(&self) -> String {
        let mut out = self.patterns_text();
        out.push_str(&self.storage_text());
        out.push_str(&self.billing_text());
        out.push_str(&self.partitions_text());
        out.push_str(&self.throttles_text());
        out
    }

    /// Where the patterns' peak is over the capacity given, one line each.
    pub fn throttles_text(&self) -> String {
        let mut out = String::new();
        if !self.throttles.is_empty() {
            let _ = writeln!(out, "throttled at the peak (the capacity given):");
        }
        for throttle in &self.throttles {
            let _ = writeln!(out, "    {}", throttle.summary());
        }
        out
    }

    /// Each pattern's units and on-demand cost, with where its units go.
    pub fn patterns_text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{:<36} {:<18} {:>8} {:>8} {:>8} {:>8} {:>12}",
            "pattern", "operation", "peak/s", "avg/s", "RCU/req", "WCU/req", "$/month"
        );
        for p in &self.patterns {
            let _ = writeln!(
                out,
                "{:<36} {:<18} {:>8} {:>8} {:>8} {:>8} {:>12}",
                truncate(&p.pattern, 36),
                p.operation,
                p.rate,
                round_to(p.average_rate, 2),
                p.read_units,
                p.write_units,
                p.monthly_text(grouped(p.monthly_cost, 2))
            );
            for line in &p.breakdown {
                let _ = writeln!(out, "    {line}");
            }
        }
        out
    }

    /// The storage of every table and index, and the on-demand headline.
    pub fn storage_text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "storage:");
        for s in &self.storage {
            let name = match &s.index {
                Some(i) => format!("{}/{i}", s.table),
                None => s.table.clone(),
            };
            let _ = writeln!(
                out,
                "    {:<30} {:>12.0} items {:>10} {:>12.2}",
                name,
                s.items,
                bytes_text(s.bytes),
                s.monthly_cost
            );
        }
        if let Some(note) = self.sample_only_note() {
            let _ = writeln!(out, "    {note}");
        }
        for line in self.vector_lines() {
            let _ = writeln!(out, "{line}");
        }
        let _ = writeln!(
            out,
            "monthly, on-demand, Standard, {}: requests {} + storage {} = {} (30-day month)",
            self.prices.region,
            dollars(self.monthly_request_cost, 2),
            dollars(self.monthly_storage_cost, 2),
            dollars(self.monthly_total, 2)
        );
        out
    }

    /// The vector indexes (issue 40): what each holds, is written and searched a month, and
    /// that none of it is in the totals, for want of a published price.
    pub fn vector_lines(&self) -> Vec<String> {
        let Some(first) = self.vector_indexes.first() else {
            return Vec::new();
        };
        let mut out = vec![format!(
            "vector indexes ({}; not in the totals; vectors alone, projections not counted):",
            first.priced
        )];
        for v in &self.vector_indexes {
            out.push(format!(
                "    {:<30} {:>12.0} items {:>10} of vectors ({} B each), {} of vector writes and {} searches a month",
                format!("{}/{}", v.table, v.index),
                v.items,
                bytes_text(v.storage_bytes),
                v.vector_bytes,
                bytes_text(v.monthly_write_bytes),
                grouped(v.monthly_searches, 0)
            ));
        }
        out
    }

    /// Every table's billing modes side by side, each with its arithmetic.
    pub fn billing_text(&self) -> String {
        let mut out = String::new();
        for table in &self.billing {
            let _ = writeln!(out, "{}", table.heading());
            let modes = table.shown_modes();
            let cells: Vec<(String, String)> = modes
                .iter()
                .map(|&mode| {
                    (
                        table.cell(mode, TableClass::Standard),
                        table.cell(mode, TableClass::StandardInfrequentAccess),
                    )
                })
                .collect();
            // Fourteen places hold up to $9,999,999.99; a larger bill widens its column.
            let width = |cell: fn(&(String, String)) -> &String| {
                cells
                    .iter()
                    .map(|c| cell(c).len())
                    .max()
                    .unwrap_or(0)
                    .max(14)
            };
            let (w1, w2) = (width(|c| &c.0), width(|c| &c.1));
            let _ = writeln!(
                out,
                "    {:<30} {:>w1$} {:>w2$}",
                "mode", "Standard", "Standard-IA"
            );
            for (&mode, (standard, infrequent)) in modes.iter().zip(&cells) {
                let _ = writeln!(
                    out,
                    "    {:<30} {standard:>w1$} {infrequent:>w2$}",
                    mode.label()
                );
                for line in table.notes(mode) {
                    let _ = writeln!(out, "        {line}");
                }
            }
            let _ = writeln!(out, "    {}", table.break_even_note());
        }
        out
    }

    /// The partitions a key concentrates traffic on, hot or not.
    pub fn partitions_text(&self) -> String {
        let mut out = String::new();
        if !self.partitions.is_empty() {
            let _ = writeln!(out, "partitions (per partition, per second):");
        }
        for l in &self.partitions {
            let place = match &l.index {
                Some(i) => format!("{}/{i}", l.table),
                None => l.table.clone(),
            };
            let verdict = match (&l.advice, l.hot) {
                (Some(advice), true) => format!("HOT: {advice}"),
                _ => "ok".to_string(),
            };
            let _ = writeln!(
                out,
                "    {place} {} ({}): {} RCU/s, {} WCU/s: {verdict} [{}]",
                l.partition,
                l.template,
                grouped(l.read_units_per_second, 1),
                grouped(l.write_units_per_second, 1),
                l.patterns.join(", ")
            );
        }
        out
    }
}

impl CostReport {
    /// What the report says when some entities' stored items are the sample's.
    pub fn sample_only_note(&self) -> Option<String> {
        (!self.sample_only.is_empty()).then(|| {
            format!(
                "sample items only for {}: give each a volume (\"volume\": {{ \"items\": N }}) or --stored ENTITY=N for a real storage figure",
                self.sample_only.join(", ")
            )
        })
    }

    /// The report as Markdown: the billing modes of every table side by side, then the
    /// patterns, for a pull request or a design document.
    pub fn to_markdown(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "## Monthly cost ({}, 30-day month)\n",
            self.prices.region
        );
        for table in &self.billing {
            let _ = writeln!(out, "### {}\n", table.heading().trim_end_matches(':'));
            let _ = writeln!(out, "| mode | Standard | Standard-IA | why |");
            let _ = writeln!(out, "|---|---:|---:|---|");
            for mode in table.shown_modes() {
                let _ = writeln!(
                    out,
                    "| {} | {} | {} | {} |",
                    mode.label(),
                    table.cell(mode, TableClass::Standard),
                    table.cell(mode, TableClass::StandardInfrequentAccess),
                    table.notes(mode).join("; ")
                );
            }
            let _ = writeln!(out, "\n{}\n", table.break_even_note());
        }
        if !self.throttles.is_empty() {
            let _ = writeln!(out, "### Throttled at the peak (the capacity given)\n");
            for throttle in &self.throttles {
                let _ = writeln!(out, "- {}", throttle.summary().replace('|', "\\|"));
            }
            let _ = writeln!(out);
        }
        if let Some(note) = self.sample_only_note() {
            let _ = writeln!(out, "Storage: {note}.\n");
        }
        let vectors = self.vector_lines();
        if !vectors.is_empty() {
            let _ = writeln!(out, "```\n{}\n```\n", vectors.join("\n"));
        }
        let _ = writeln!(out, "### Access patterns (on-demand, Standard)\n");
        let _ = writeln!(
            out,
            "| pattern | operation | peak/s | avg/s | RCU/req | WCU/req | $/month |"
        );
        let _ = writeln!(out, "|---|---|---:|---:|---:|---:|---:|");
        for p in &self.patterns {
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} | {} | {} |",
                p.pattern.replace('|', "\\|"),
                p.operation,
                p.rate,
                round_to(p.average_rate, 2),
                p.read_units,
                p.write_units,
                p.monthly_text(dollars(p.monthly_cost, 2))
            );
        }
        out
    }
}

impl super::PatternCost {
    /// Its monthly cost as the report writes it: `priced`, or, for a vector search, which no
    /// read or write unit meters, that it is not priced (never $0).
    pub fn monthly_text(&self, priced: String) -> String {
        if self.operation == crate::answer::Operation::SearchVectors.as_str() {
            "not priced".to_string()
        } else {
            priced
        }
    }
}

impl TableBilling {
    /// The monthly cost of `mode` in `class` as a report shows it: `$1,234.56`, `-` when the mode
    /// is not offered.
    pub fn cell(&self, mode: Mode, class: TableClass) -> String {
        self.monthly(mode, class)
            .map_or_else(|| "-".to_string(), |x| dollars(x, 2))
    }

    /// `orders (on-demand; us-east-1 + eu-west-1):`
    pub fn heading(&self) -> String {
        format!(
            "billing modes, table {} (the design's: {}; {}):",
            self.table,
            self.billing,
            self.regions.join(" + ")
        )
    }

    /// Why `mode` costs what it does: the Standard class's arithmetic, the break-even of a
    /// reservation, and Standard-IA's when it is offered.
    pub fn notes(&self, mode: Mode) -> Vec<String> {
        let mut notes = Vec::new();
        if let Some(standard) = self
            .modes
            .iter()
            .find(|m| m.mode == mode && m.class == TableClass::Standard)
        {
            notes.push(standard.why.clone());
            if let Some(months) = standard.break_even_months {
                notes.push(format!(
                    "pays for itself after {:.1} months against capacity bought by the hour",
                    months
                ));
            }
        }
        notes
    }

    /// When provisioned capacity is cheaper than on-demand.
    pub fn break_even_note(&self) -> String {
        format!(
            "provisioned is cheaper than on-demand when its capacity is more than {:.0}% used on average (fixed at the peak, it would be {:.0}% used; auto scaling aims at {:.0}%)",
            self.break_even_utilization * 100.0,
            self.peak_capacity_use * 100.0,
            self.target_utilization * 100.0
        )
    }
}

pub(super) fn truncate(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        text.to_string()
    } else {
        let mut t: String = text.chars().take(width - 1).collect();
        t.push('…');
        t
    }
}
