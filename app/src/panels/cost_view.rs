//! The cost view: core's capacity and cost model (`keyplan_core::cost`) over the sample items
//! and the entities' volumes at every pattern's rate: the monthly total, every table's bill
//! under every billing mode side by side (core decides each figure and its why), each
//! pattern's units and cost, storage per table and index, and partitions that would run hot.
//! The Region whose prices apply is chosen here (session state, not part of the design). The
//! worker computes the page ([`crate::jobs::cost`]), its pictures included: the bill per billing
//! mode, the costliest patterns and the partitions' load, each drawn by [`BarChart`].

use keyplan_core::pricing::DEFAULT_REGION;
use leptos::prelude::*;

use super::data_view::SampleRefused;
use crate::chart::BarChart;
use crate::compute::{Computed, Computing, NoAnswer, WorkerNotice, follow};
use crate::jobs::Cost;
use crate::jobs::cost::{CostPage, PatternRow};
use crate::store::{Tracks, use_store};

#[component]
pub fn CostView() -> impl IntoView {
    let store = use_store();
    let region = RwSignal::new(DEFAULT_REGION.to_string());
    let (report, again) = follow(
        store,
        Tracks::Semantics,
        move || {
            Some(Cost {
                design: store.with_untracked(Clone::clone),
                region: region.get(),
            })
        },
        false,
    );
    let show = move |r: CostPage| {
        view! {
            <SampleRefused message=r.refused/>
            <label class="cost-region">"Prices of "
                <select class="input" data-testid="region" aria-label="Region" prop:value=move || region.get() on:change=move |ev| region.set(event_target_value(&ev))>
                    {r.regions.into_iter().map(|code| view! { <option value=code.clone()>{code.clone()}</option> }).collect_view()}
                </select>
            </label>
            <div class="cost-summary">
                <div class="metric"><span class="metric-value" data-testid="monthly-total">{r.total}</span><span class="metric-label">"per month"</span></div>
                <div class="metric"><span class="metric-value">{r.requests}</span><span class="metric-label">"requests"</span></div>
                <div class="metric"><span class="metric-value">{r.storage_cost}</span><span class="metric-label">"storage"</span></div>
            </div>
            {r.sample_only.map(|note| view! { <p class="diagnostic info" data-testid="sample-only">{note}</p> })}
            <div class="cost-charts">
                <BarChart chart=r.bill_chart testid="chart-billing"/>
                <BarChart chart=r.pattern_chart testid="chart-patterns"/>
                {r.partition_chart.map(|chart| view! { <BarChart chart testid="chart-partitions"/> })}
            </div>
            {r.billing.into_iter().map(|table| {
                let rows = table.rows.into_iter().map(|row| view! {
                    <tr title=row.why>
                        <td>{row.mode}</td>
                        <td class="num">{row.standard}</td>
                        <td class="num">{row.infrequent_access}</td>
                    </tr>
                }).collect_view();
                view! {
                    <table class="cost-table" data-testid="billing-modes">
                        <caption>{table.heading}</caption>
                        <thead><tr><th>"Billing mode"</th><th class="num">"Standard"</th><th class="num">"Standard-IA"</th></tr></thead>
                        <tbody>{rows}</tbody>
                    </table>
                    <p class="metric-label">{table.break_even}</p>
                }
            }).collect_view()}
            {(!r.throttled.is_empty()).then(|| view! {
                <section class="hot-list" data-testid="throttled">
                    <h3>"Throttled at the peak"</h3>
                    {r.throttled.into_iter().map(|line| view! { <p class="diagnostic warning">{line}</p> }).collect_view()}
                </section>
            })}
            {(!r.hot.is_empty()).then(|| view! {
                <section class="hot-list">
                    <h3>"Hot partitions"</h3>
                    {r.hot.into_iter().map(|line| view! { <p class="diagnostic warning">{line}</p> }).collect_view()}
                </section>
            })}
            <PatternCosts rows=r.patterns/>
            <table class="cost-table">
                <thead><tr><th>"Storage"</th><th class="num">"Items"</th><th class="num">"Bytes"</th><th class="num">"Monthly"</th></tr></thead>
                <tbody>
                    {r.storage.into_iter().map(|s| view! {
                        <tr>
                            <td>{s.name}</td>
                            <td class="num">{s.items}</td>
                            <td class="num">{s.bytes}</td>
                            <td class="num">{s.monthly}</td>
                        </tr>
                    }).collect_view()}
                </tbody>
            </table>
        }
    };
    view! {
        <div class="cost-view" data-testid="cost-view" tabindex="0" aria-label="Cost">
            <WorkerNotice/>
            {move || match report.get() {
                Computed::Ready(r) => show(r).into_any(),
                Computed::Failed(e) => view! { <NoAnswer what="No cost estimate" why=e again/> }.into_any(),
                Computed::Waiting | Computed::Off => view! { <Computing what="the cost"/> }.into_any(),
            }}
        </div>
    }
}

/// Each pattern's units and cost, drawn a chunk a frame.
#[component]
fn PatternCosts(rows: Vec<PatternRow>) -> impl IntoView {
    let total = rows.len();
    let rows = StoredValue::new(rows);
    let drawn = super::chunks::rows_drawn(move || total);
    view! {
        // Laid out as a grid per row, not as a table (style/app.css, `.pattern-costs`), so the
        // roles a table has are given back.
        <table class="cost-table pattern-costs" data-testid="pattern-costs" role="table" aria-rowcount=total + 1>
            <thead role="rowgroup"><tr role="row"><th role="columnheader">"Access pattern"</th><th role="columnheader">"Operation"</th><th role="columnheader" class="num">"Rate/s"</th><th role="columnheader" class="num">"RRU"</th><th role="columnheader" class="num">"WRU"</th><th role="columnheader" class="num">"Monthly"</th></tr></thead>
            <tbody role="rowgroup">
                <For
                    each=move || 0..drawn.get().min(total)
                    key=|at| *at
                    children=move |at| {
                        let p = rows.with_value(|rows| rows[at].clone());
                        view! {
                            <tr role="row" title=p.breakdown>
                                <td role="cell">{p.pattern}</td>
                                <td role="cell">{p.operation}</td>
                                <td role="cell" class="num">{p.rate}</td>
                                <td role="cell" class="num">{p.read_units}</td>
                                <td role="cell" class="num">{p.write_units}</td>
                                <td role="cell" class="num">{p.monthly}</td>
                            </tr>
                        }
                    }
                />
            </tbody>
        </table>
    }
}
