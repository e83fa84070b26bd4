//! The cost view: core's capacity and cost model (`keyplan_core::cost`) over the sample items
//! at every pattern's rate: the monthly total, each pattern's units and cost, storage per table
//! and index, and partitions that would run hot.

use keyplan_core::cost::{CostConfig, estimate};
use leptos::prelude::*;

use super::sample::{SampleRefused, use_sample};
use crate::store::use_store;

fn dollars(x: f64) -> String {
    if x >= 100.0 {
        format!("${x:.0}")
    } else {
        format!("${x:.2}")
    }
}

#[component]
pub fn CostView() -> impl IntoView {
    let store = use_store();
    let sample = use_sample();
    let report = Memo::new(move |_| {
        sample.with(|s| {
            store.analysis.with(|analysis| {
                store.with_untracked(|d| {
                    estimate(d, &analysis.verdicts, &s.store, &CostConfig::default())
                })
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
                    <div class="cost-summary">
                        <div class="metric"><span class="metric-value" data-testid="monthly-total">{dollars(r.monthly_total)}</span><span class="metric-label">"per month"</span></div>
                        <div class="metric"><span class="metric-value">{dollars(r.monthly_request_cost)}</span><span class="metric-label">"requests"</span></div>
                        <div class="metric"><span class="metric-value">{dollars(r.monthly_storage_cost)}</span><span class="metric-label">"storage"</span></div>
                    </div>
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
