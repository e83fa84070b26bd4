//! The cost view: core's capacity and cost model (`keyplan_core::cost`) over the sample items
//! and the entities' volumes at every pattern's rate: the monthly total, every table's bill
//! under every billing mode side by side (core decides each figure and its why), each
//! pattern's units and cost, storage per table and index, and partitions that would run hot.
//! The Region whose prices apply is chosen here (session state, not part of the design).

use keyplan_core::cost::{CostConfig, Mode, TableClass, estimate};
use keyplan_core::pricing::{DEFAULT_REGION, Prices};
use leptos::prelude::*;

use super::sample::{SampleRefused, use_sample};
use crate::store::use_store;

/// Whole dollars from $100 up, where cents are noise beside the estimate's precision.
fn dollars(x: f64) -> String {
    keyplan_core::pricing::dollars(x, if x >= 100.0 { 0 } else { 2 })
}

#[component]
pub fn CostView() -> impl IntoView {
    let store = use_store();
    let sample = use_sample();
    let region = RwSignal::new(DEFAULT_REGION.to_string());
    let report = Memo::new(move |_| {
        let config = CostConfig {
            prices: region.with(|r| Prices::region(r)).unwrap_or_default(),
            ..CostConfig::default()
        };
        sample.with(|s| {
            store.analysis.with(|analysis| {
                store.with_untracked(|d| estimate(d, &analysis.verdicts, &s.store, &config))
            })
        })
    });
    view! {
        <div class="cost-view" data-testid="cost-view" tabindex="0" aria-label="Cost">
            <SampleRefused/>
            {move || {
                let r = report.get();
                let hot: Vec<_> = r.partitions.iter().filter(|p| p.hot).cloned().collect();
                view! {
                    <label class="cost-region">"Prices of "
                        <select class="input" data-testid="region" aria-label="Region" prop:value=move || region.get() on:change=move |ev| region.set(event_target_value(&ev))>
                            {Prices::regions().map(|code| view! { <option value=code>{code}</option> }).collect_view()}
                        </select>
                    </label>
                    <div class="cost-summary">
                        <div class="metric"><span class="metric-value" data-testid="monthly-total">{dollars(r.monthly_total)}</span><span class="metric-label">"per month"</span></div>
                        <div class="metric"><span class="metric-value">{dollars(r.monthly_request_cost)}</span><span class="metric-label">"requests"</span></div>
                        <div class="metric"><span class="metric-value">{dollars(r.monthly_storage_cost)}</span><span class="metric-label">"storage"</span></div>
                    </div>
                    {r.sample_only_note().map(|note| view! { <p class="diagnostic info" data-testid="sample-only">{note}</p> })}
                    {r.billing.iter().map(|table| {
                        let heading = table.heading();
                        let rows = Mode::ALL.into_iter().map(|mode| {
                            let cell = |class| table.monthly(mode, class).map_or("—".to_string(), dollars);
                            let why = table.notes(mode).join("\n");
                            view! {
                                <tr title=why>
                                    <td>{mode.label()}</td>
                                    <td class="num">{cell(TableClass::Standard)}</td>
                                    <td class="num">{cell(TableClass::StandardInfrequentAccess)}</td>
                                </tr>
                            }
                        }).collect_view();
                        view! {
                            <table class="cost-table" data-testid="billing-modes">
                                <caption>{heading}</caption>
                                <thead><tr><th>"Billing mode"</th><th class="num">"Standard"</th><th class="num">"Standard-IA"</th></tr></thead>
                                <tbody>{rows}</tbody>
                            </table>
                            <p class="metric-label">{table.break_even_note()}</p>
                        }
                    }).collect_view()}
                    {(!hot.is_empty()).then(|| view! {
                        <section class="hot-list">
                            <h3>"Hot partitions"</h3>
                            {hot.into_iter().map(|p| view! {
                                <p class="diagnostic warning">
                                    {format!("{} {} `{}`: {:.0} RCU/s, {:.0} WCU/s", p.table, p.index.clone().unwrap_or_default(), p.template, p.read_units_per_second, p.write_units_per_second)}
                                    {p.advice.map(|a| format!(" — {a}"))}
                                </p>
                            }).collect_view()}
                        </section>
                    })}
                    <table class="cost-table">
                        <thead><tr><th>"Access pattern"</th><th>"Operation"</th><th class="num">"Rate/s"</th><th class="num">"RRU"</th><th class="num">"WRU"</th><th class="num">"Monthly"</th></tr></thead>
                        <tbody>
                            {r.patterns.into_iter().map(|p| view! {
                                <tr title=p.breakdown.join("\n")>
                                    <td>{p.pattern}</td>
                                    <td>{p.operation}</td>
                                    <td class="num">{format!("{}", p.rate)}</td>
                                    <td class="num">{format!("{:.1}", p.read_units)}</td>
                                    <td class="num">{format!("{:.1}", p.write_units)}</td>
                                    <td class="num">{dollars(p.monthly_cost)}</td>
                                </tr>
                            }).collect_view()}
                        </tbody>
                    </table>
                    <table class="cost-table">
                        <thead><tr><th>"Storage"</th><th class="num">"Items"</th><th class="num">"Bytes"</th><th class="num">"Monthly"</th></tr></thead>
                        <tbody>
                            {r.storage.into_iter().map(|s| view! {
                                <tr>
                                    <td>{match s.index { Some(i) => format!("{} · {i}", s.table), None => s.table }}</td>
                                    <td class="num">{format!("{:.0}", s.items)}</td>
                                    <td class="num">{format!("{:.0}", s.bytes)}</td>
                                    <td class="num">{dollars(s.monthly_cost)}</td>
                                </tr>
                            }).collect_view()}
                        </tbody>
                    </table>
                }
            }}
        </div>
    }
}
