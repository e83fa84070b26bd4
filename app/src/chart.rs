//! The one bar chart every picture of the Cost and Migrate tabs is drawn with (issue 43 item
//! 7): horizontal bars, a row per thing (a billing mode, a pattern, a partition, a step), a bar
//! per series in each row, side by side (Standard beside Standard-IA, reads beside writes), a
//! bar that may start further along (a step of a timeline starts where the one before ended), a
//! limit drawn across every row (a partition's), and rows marked with a note (a hot partition
//! and its shards).
//!
//! The worker's jobs write a [`Chart`] from core's figures (`crate::jobs::cost`,
//! `crate::jobs::migrate`): nothing here decides a figure or a word. [`layout`] places it, a
//! plain function tested natively; [`BarChart`] draws it as SVG in the theme's colours
//! (style/app.css, `.chart`), so it reads in light and dark, and writes the same figures as a
//! table for a screen reader, from which the picture is hidden.

use leptos::prelude::*;
use serde::{Deserialize, Serialize};

/// A chart's figures and words, as the worker writes them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Chart {
    /// What it shows: its caption, and its table's.
    pub title: String,
    /// The heading of the rows' labels in the table (`Billing mode`, `Step`).
    pub label_heading: String,
    /// The series, in the order of every row's bars: a legend when more than one.
    pub series: Vec<String>,
    pub rows: Vec<Row>,
    /// A value every bar is measured against, drawn across the rows.
    pub limit: Option<Limit>,
    /// What the chart leaves out, said under it ("and 388 more patterns, $1.20 together").
    pub more: Option<String>,
}

/// One row: its label, a bar per series, and a note when it is marked.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Row {
    pub label: String,
    pub bars: Vec<Bar>,
    /// Drawn apart (a hot partition), its note beside the label.
    pub marked: bool,
    pub note: Option<String>,
}

/// One bar: from `start` to `start + value` on the chart's scale, and its figure in words.
/// Without a value no bar is drawn and the words say why ("not offered", "unknown").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Bar {
    pub start: f64,
    pub value: Option<f64>,
    pub text: String,
}

impl Bar {
    /// A bar from 0.
    pub fn of(value: Option<f64>, text: impl Into<String>) -> Bar {
        Bar {
            start: 0.0,
            value,
            text: text.into(),
        }
    }
}

/// A limit across the rows, at `at` on the chart's scale.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Limit {
    pub at: f64,
    pub label: String,
}

/// The drawing's width in its own units; the SVG scales to its box (style/app.css).
pub const WIDTH: f64 = 560.0;
/// The column of the rows' labels.
const LABEL_WIDTH: f64 = 170.0;
/// Characters of a label's line that fit its column at the chart's type size.
const LABEL_CHARACTERS: usize = 26;
/// Lines a label may take; what is left of it is cut with an ellipsis.
const LABEL_LINES: usize = 2;
/// A line of text's height.
const LINE: f64 = 13.0;
/// Room right of the bars for the last bar's figure.
const FIGURE_ROOM: f64 = 120.0;
const BAR_HEIGHT: f64 = 14.0;
const BAR_GAP: f64 = 3.0;
const ROW_GAP: f64 = 12.0;
/// Room above the rows for the limit's label.
const TOP: f64 = 18.0;
/// A limit is drawn at no less than a quarter of the bars' room: bars past four times the
/// limit are cut at the end of it (their figures say how far).
const LIMIT_SHARE: f64 = 0.25;

/// Where the bars go: x from [`LABEL_WIDTH`] to [`WIDTH`] less [`FIGURE_ROOM`].
const PLOT_WIDTH: f64 = WIDTH - LABEL_WIDTH - FIGURE_ROOM;

/// A bar placed: its box in the drawing's units, and whether it passes the limit or was cut.
#[derive(Debug, Clone, PartialEq)]
pub struct BarBox {
    pub series: usize,
    pub x: f64,
    pub y: f64,
    pub width: f64,
    /// Where its figure is written (after the bar, or after where it would start).
    pub text_x: f64,
    pub over: bool,
    pub cut: bool,
}

/// A row placed.
#[derive(Debug, Clone, PartialEq)]
pub struct RowBox {
    pub y: f64,
    pub height: f64,
    /// The label's lines as they fit its column (the whole of it is in the table).
    pub label: Vec<String>,
    /// Where the note's line is, under the label.
    pub note_y: f64,
    pub bars: Vec<BarBox>,
}

/// A chart placed.
#[derive(Debug, Clone, PartialEq)]
pub struct Layout {
    pub height: f64,
    pub rows: Vec<RowBox>,
    /// The limit's x, when there is one.
    pub limit_x: Option<f64>,
}

/// Places `chart`: one scale for every row, from 0 to the furthest bar end (or the limit, or
/// four times the limit at most when there is one).
pub fn layout(chart: &Chart) -> Layout {
    let furthest = chart
        .rows
        .iter()
        .flat_map(|r| &r.bars)
        .filter_map(|b| b.value.map(|v| b.start + v))
        .filter(|end| end.is_finite())
        .fold(0.0_f64, f64::max);
    let limit = chart.limit.as_ref().map(|l| l.at).filter(|at| *at > 0.0);
    let scale_end = match limit {
        Some(at) => furthest.clamp(at, at / LIMIT_SHARE),
        None if furthest > 0.0 => furthest,
        None => 1.0,
    };
    let x_of = |value: f64| LABEL_WIDTH + (value / scale_end).clamp(0.0, 1.0) * PLOT_WIDTH;
    let mut y = TOP;
    let rows = chart
        .rows
        .iter()
        .map(|row| {
            let bars_height = row.bars.len().max(1) as f64 * (BAR_HEIGHT + BAR_GAP) - BAR_GAP;
            let label = lines(&row.label);
            // A note takes a line under the label.
            let text_lines = label.len() + usize::from(row.note.is_some());
            let height = bars_height.max(text_lines as f64 * LINE);
            let bars = row
                .bars
                .iter()
                .enumerate()
                .map(|(series, bar)| {
                    let x = x_of(bar.start);
                    let end = bar.value.map(|v| bar.start + v).unwrap_or(bar.start);
                    let width = match bar.value {
                        // A bar of any size shows: a sliver at the least.
                        Some(v) if v > 0.0 => (x_of(end) - x).max(1.5),
                        _ => 0.0,
                    };
                    BarBox {
                        series,
                        x,
                        y: y + series as f64 * (BAR_HEIGHT + BAR_GAP),
                        width,
                        text_x: x + width + 4.0,
                        over: limit.is_some_and(|at| end > at),
                        cut: end > scale_end,
                    }
                })
                .collect();
            let placed = RowBox {
                y,
                height,
                note_y: y + (label.len() + 1) as f64 * LINE - 3.0,
                label,
                bars,
            };
            y += height + ROW_GAP;
            placed
        })
        .collect();
    Layout {
        height: y - ROW_GAP + 6.0,
        rows,
        limit_x: limit.map(x_of),
    }
}

/// `label` in lines that fit the label column: broken between words, a word too long for a
/// line cut, and what does not fit in [`LABEL_LINES`] cut with an ellipsis.
fn lines(label: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut rest = label.trim();
    while !rest.is_empty() && out.len() < LABEL_LINES {
        let last = out.len() + 1 == LABEL_LINES;
        if rest.chars().count() <= LABEL_CHARACTERS || last {
            out.push(crate::text::excerpt(rest, LABEL_CHARACTERS));
            break;
        }
        // The last space that leaves the line within the column, else a cut mid-word.
        let limit = rest
            .char_indices()
            .nth(LABEL_CHARACTERS)
            .map_or(rest.len(), |(i, _)| i);
        let at = match rest[..limit].rfind(' ') {
            Some(space) if space > 0 => space,
            _ => limit,
        };
        out.push(rest[..at].trim_end().to_string());
        rest = rest[at..].trim_start();
    }
    out
}

/// `chart` drawn, with its figures as a table for a screen reader. `testid` names it for the
/// tests.
#[component]
pub fn BarChart(chart: Chart, testid: &'static str) -> impl IntoView {
    let placed = layout(&chart);
    let legend = (chart.series.len() > 1).then(|| {
        view! {
            <div class="chart-legend" aria-hidden="true">
                {chart.series.iter().enumerate().map(|(i, name)| view! {
                    <span class="chart-key"><span class=format!("chart-swatch series-{i}")></span>{name.clone()}</span>
                }).collect_view()}
            </div>
        }
    });
    let limit = chart.limit.clone().zip(placed.limit_x).map(|(limit, x)| {
        view! {
            <g class="chart-limit">
                <line x1=x x2=x y1=TOP - 4.0 y2=placed.height></line>
                <text x=x y=TOP - 7.0 text-anchor="middle">{limit.label}</text>
            </g>
        }
    });
    let rows = chart
        .rows
        .iter()
        .zip(&placed.rows)
        .map(|(row, at)| {
            let bars = row
                .bars
                .iter()
                .zip(&at.bars)
                .map(|(bar, b)| {
                    view! {
                        {(b.width > 0.0).then(|| view! {
                            <rect class=format!("chart-bar series-{}", b.series) class:over=b.over class:cut=b.cut
                                x=b.x y=b.y width=b.width height=BAR_HEIGHT rx="2"></rect>
                        })}
                        <text class="chart-figure" x=b.text_x y=b.y + BAR_HEIGHT - 3.0>{bar.text.clone()}</text>
                    }
                })
                .collect_view();
            let note = row.note.clone().map(|note| {
                view! { <text class="chart-note" x="0" y=at.note_y>{note}</text> }
            });
            let label = at
                .label
                .iter()
                .enumerate()
                .map(|(i, line)| {
                    view! { <text class="chart-label" x="0" y=at.y + (i + 1) as f64 * LINE - 3.0>{line.clone()}</text> }
                })
                .collect_view();
            view! {
                <g class="chart-row" class:marked=row.marked>
                    {label}
                    {note}
                    {bars}
                </g>
            }
        })
        .collect_view();
    let has_notes = chart.rows.iter().any(|r| r.note.is_some());
    let table_rows = chart
        .rows
        .iter()
        .map(|row| {
            view! {
                <tr>
                    <th scope="row">{row.label.clone()}</th>
                    {row.bars.iter().map(|b| view! { <td>{b.text.clone()}</td> }).collect_view()}
                    {has_notes.then(|| view! { <td>{row.note.clone().unwrap_or_default()}</td> })}
                </tr>
            }
        })
        .collect_view();
    let series = chart.series.clone();
    view! {
        <figure class="chart" data-testid=testid>
            <figcaption class="chart-title">{chart.title.clone()}</figcaption>
            {legend}
            <svg class="chart-svg" viewBox=format!("0 0 {WIDTH} {}", placed.height) aria-hidden="true" focusable="false">
                {limit}
                {rows}
            </svg>
            {chart.more.clone().map(|more| view! { <p class="chart-more">{more}</p> })}
            // The hidden box holds the table: a table does not shrink to the box's 1 px, and as
            // the hidden element itself it widened the pane (the Migrate tab scrolled sideways).
            <div class="visually-hidden">
            <table>
                <caption>{chart.title.clone()}{chart.limit.clone().map(|l| format!(" ({})", l.label))}</caption>
                <thead>
                    <tr>
                        <th scope="col">{chart.label_heading.clone()}</th>
                        {series.into_iter().map(|s| view! { <th scope="col">{s}</th> }).collect_view()}
                        {has_notes.then(|| view! { <th scope="col">"Note"</th> })}
                    </tr>
                </thead>
                <tbody>{table_rows}</tbody>
            </table>
            </div>
        </figure>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chart(rows: Vec<Row>, limit: Option<f64>) -> Chart {
        Chart {
            title: "t".into(),
            label_heading: "l".into(),
            series: vec!["a".into(), "b".into()],
            rows,
            limit: limit.map(|at| Limit {
                at,
                label: "limit".into(),
            }),
            more: None,
        }
    }

    fn row(label: &str, bars: Vec<Bar>) -> Row {
        Row {
            label: label.into(),
            bars,
            marked: false,
            note: None,
        }
    }

    #[test]
    fn bars_share_one_scale_to_the_furthest_end_and_sit_side_by_side() {
        let placed = layout(&chart(
            vec![
                row(
                    "on-demand",
                    vec![Bar::of(Some(10.0), "$10"), Bar::of(Some(5.0), "$5")],
                ),
                row(
                    "reserved",
                    vec![Bar::of(Some(2.5), "$2.50"), Bar::of(None, "not offered")],
                ),
            ],
            None,
        ));
        let [first, second] = &placed.rows[..] else {
            panic!("two rows: {placed:?}")
        };
        assert_eq!(
            first.bars[0].width, PLOT_WIDTH,
            "the furthest bar fills the room"
        );
        assert_eq!(first.bars[1].width, PLOT_WIDTH / 2.0);
        assert_eq!(second.bars[0].width, PLOT_WIDTH / 4.0);
        assert_eq!(second.bars[1].width, 0.0, "no bar where there is no figure");
        assert_eq!(first.bars[1].y - first.bars[0].y, BAR_HEIGHT + BAR_GAP);
        assert!(second.y >= first.y + first.height + ROW_GAP);
        assert!(placed.height >= second.y + second.height);
    }

    #[test]
    fn a_timeline_bar_starts_where_it_is_told_and_a_tiny_one_still_shows() {
        let placed = layout(&Chart {
            series: vec!["d".into()],
            ..chart(
                vec![
                    row("1", vec![Bar::of(Some(90.0), "1 min 30 s")]),
                    row(
                        "2",
                        vec![Bar {
                            start: 90.0,
                            value: Some(0.001),
                            text: "1 s".into(),
                        }],
                    ),
                ],
                None,
            )
        });
        let second = &placed.rows[1].bars[0];
        assert!(
            (second.x - (LABEL_WIDTH + PLOT_WIDTH)).abs() < 0.01,
            "{second:?}"
        );
        assert_eq!(second.width, 1.5);
        assert_eq!(second.text_x, second.x + second.width + 4.0);
    }

    #[test]
    fn a_limit_is_drawn_across_and_bars_far_past_it_are_cut() {
        let placed = layout(&chart(
            vec![row(
                "STATUS#PENDING",
                vec![
                    Bar::of(Some(0.5), "1,500 RCU/s"),
                    Bar::of(Some(6.2), "6,200 WCU/s"),
                ],
            )],
            Some(1.0),
        ));
        assert_eq!(placed.limit_x, Some(LABEL_WIDTH + PLOT_WIDTH * LIMIT_SHARE));
        let bars = &placed.rows[0].bars;
        assert!(!bars[0].over && !bars[0].cut);
        assert!(bars[1].over && bars[1].cut);
        assert_eq!(bars[1].width, PLOT_WIDTH);
        // Under the limit, the scale ends at the limit.
        let calm = layout(&chart(
            vec![row("a", vec![Bar::of(Some(0.5), "")])],
            Some(1.0),
        ));
        assert_eq!(calm.limit_x, Some(LABEL_WIDTH + PLOT_WIDTH));
        assert_eq!(calm.rows[0].bars[0].width, PLOT_WIDTH / 2.0);
    }

    #[test]
    fn nothing_to_draw_is_no_bar_and_long_labels_fit_their_column() {
        let placed = layout(&chart(
            vec![row(
                "Get every order of a customer by the date it was placed",
                vec![Bar::of(Some(0.0), "$0.00"), Bar::of(Some(f64::NAN), "?")],
            )],
            None,
        ));
        let only = &placed.rows[0];
        assert!(only.bars.iter().all(|b| b.width == 0.0), "{only:?}");
        assert_eq!(
            only.label,
            ["Get every order of a", "customer by the date it\u{2026}"]
        );
        assert!(
            only.label
                .iter()
                .all(|l| l.chars().count() <= LABEL_CHARACTERS + 1)
        );
        assert_eq!(
            lines("orders · GSI1 STATUS#PENDING"),
            ["orders · GSI1", "STATUS#PENDING"]
        );
        assert_eq!(lines("Create GSI GSI4"), ["Create GSI GSI4"]);
        assert_eq!(
            lines("ORDER#{orderId}#ITEM#{lineNumber}#SHIPMENT"),
            ["ORDER#{orderId}#ITEM#{line", "Number}#SHIPMENT"]
        );
    }
}
