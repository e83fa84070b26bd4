//! Canvas geometry: where cards are and how big, the viewport's pan and zoom, fitting the
//! design to the screen. Pure arithmetic on plain numbers, tested natively; no DOM here.
//!
//! Card sizes are computed from their content with the same constants the stylesheet uses
//! (`--card-*` in style/app.css), so lines and fit-to-screen never need to measure the DOM.

use std::collections::{HashMap, HashSet};

use keyplan_core::{Design, Entity, Point, Table};

/// Card width in canvas units.
pub const CARD_WIDTH: f64 = 280.0;
/// Header (name and table) height.
pub const CARD_HEADER: f64 = 40.0;
/// One attribute or key row.
pub const CARD_ROW: f64 = 20.0;
/// The caption above the key rows.
pub const CARD_KEYS_CAPTION: f64 = 24.0;
/// Bottom padding.
pub const CARD_PADDING: f64 = 10.0;
/// Gap between automatically placed cards.
const GAP: f64 = 48.0;

/// The zoom range: down to 10%, where Fit shows a 100-entity design whole on a laptop's
/// canvas (issue 36).
pub const MIN_ZOOM: f64 = 0.1;
pub const MAX_ZOOM: f64 = 3.0;
/// Below this zoom a card's rows (12 px text, under 5 px on the screen) cannot be read, and
/// cards show only their name and a bar per index: [`Viewport::overview`].
pub const OVERVIEW_ZOOM: f64 = 0.4;

/// A rectangle in canvas units.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rect {
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
}

impl Rect {
    pub fn right(&self) -> f64 {
        self.x + self.width
    }

    pub fn bottom(&self) -> f64 {
        self.y + self.height
    }

    pub fn center(&self) -> Point {
        Point {
            x: self.x + self.width / 2.0,
            y: self.y + self.height / 2.0,
        }
    }

    /// The smallest rectangle holding both.
    pub fn union(&self, other: &Rect) -> Rect {
        let x = self.x.min(other.x);
        let y = self.y.min(other.y);
        Rect {
            x,
            y,
            width: self.right().max(other.right()) - x,
            height: self.bottom().max(other.bottom()) - y,
        }
    }

    pub fn intersects(&self, other: &Rect) -> bool {
        self.x < other.right()
            && other.x < self.right()
            && self.y < other.bottom()
            && other.y < self.bottom()
    }

    /// The rectangle spanned by two corners in any order.
    pub fn from_corners(a: Point, b: Point) -> Rect {
        Rect {
            x: a.x.min(b.x),
            y: a.y.min(b.y),
            width: (a.x - b.x).abs(),
            height: (a.y - b.y).abs(),
        }
    }

    /// Grown by `by` on every side.
    pub fn inflate(&self, by: f64) -> Rect {
        Rect {
            x: self.x - by,
            y: self.y - by,
            width: self.width + 2.0 * by,
            height: self.height + 2.0 * by,
        }
    }
}

/// How many key rows an entity's card shows: one per key attribute it fills.
pub fn key_rows(design: &Design, entity: &Entity) -> usize {
    let keys = design.table(&entity.table).map(key_names);
    rows_of(keys.as_ref(), entity)
}

/// The names of a table's key attributes (those of its indexes too), each once.
fn key_names(table: &Table) -> HashSet<&str> {
    table
        .key_attributes()
        .into_iter()
        .map(|k| k.name.as_str())
        .collect()
}

/// [`key_rows`] of `entity`, given its table's key attribute names (`None`: a table the design
/// does not have, where the card lists the templates it has). An attribute fills a key by a
/// template or by being one of the entity's attributes ([`Entity::fills`]); the entity's few
/// templates and attributes are looked up among the table's keys, not each of a table's keys
/// (42 with 20 GSIs) among them: the rectangles are worked out on every keystroke.
fn rows_of(keys: Option<&HashSet<&str>>, entity: &Entity) -> usize {
    keys.map_or(entity.keys.len(), |keys| {
        let templated = entity.keys.keys().filter(|k| keys.contains(k.as_str()));
        let attributes = entity
            .attributes
            .iter()
            .map(|a| &a.name)
            .filter(|name| keys.contains(name.as_str()));
        // A key both templated and an attribute, or an attribute listed twice, is one row.
        let mut counted: Vec<&String> = templated.chain(attributes).collect();
        counted.sort_unstable();
        counted.dedup();
        counted.len()
    })
}

/// A card's height from its content.
pub fn card_height(n_attributes: usize, n_keys: usize) -> f64 {
    let keys = if n_keys == 0 {
        0.0
    } else {
        CARD_KEYS_CAPTION + CARD_ROW * n_keys as f64
    };
    CARD_HEADER + 6.0 + CARD_ROW * n_attributes as f64 + keys + CARD_PADDING
}

/// Where every entity's card is: its saved position, or an automatic place in a grid below
/// the placed ones for an entity the layout does not know yet.
pub fn card_rects(design: &Design) -> Vec<(String, Rect)> {
    // Each table's key attributes listed once, each card's height worked out once: the
    // rectangles are worked out on every edit (issue 19).
    let keys: HashMap<&str, HashSet<&str>> = design
        .tables
        .iter()
        .map(|t| (t.name.as_str(), key_names(t)))
        .collect();
    let cards: Vec<(&Entity, f64)> = design
        .entities
        .iter()
        .map(|e| {
            let rows = rows_of(keys.get(e.table.as_str()), e);
            (e, card_height(e.attributes.len(), rows))
        })
        .collect();
    let placed_bottom = cards
        .iter()
        .filter_map(|(e, height)| design.layout.get(&e.name).map(|p| p.y + height + GAP))
        .fold(f64::NEG_INFINITY, f64::max);
    let auto_top = if placed_bottom.is_finite() {
        // Below the placed cards' frames, and room for the new ones' frame headers.
        placed_bottom + FRAME_PADDING + FRAME_HEADER
    } else {
        40.0
    };
    // The unplaced cards, table by table in the order the design lists its tables (then
    // tables it does not have, in the order of their entities), grouped in one pass.
    let mut order: HashMap<&str, usize> = HashMap::new();
    for name in design
        .tables
        .iter()
        .map(|t| t.name.as_str())
        .chain(cards.iter().map(|(e, _)| e.table.as_str()))
    {
        let next = order.len();
        order.entry(name).or_insert(next);
    }
    let mut groups: Vec<Vec<(&str, f64)>> = vec![Vec::new(); order.len()];
    for (e, height) in cards
        .iter()
        .filter(|(e, _)| !design.layout.contains_key(&e.name))
    {
        groups[order[e.table.as_str()]].push((e.name.as_str(), *height));
    }
    groups.retain(|g| !g.is_empty());
    let heights: Vec<Vec<f64>> = groups
        .iter()
        .map(|g| g.iter().map(|(_, height)| *height).collect())
        .collect();
    let auto: HashMap<&str, Point> = groups
        .iter()
        .flatten()
        .map(|(name, _)| *name)
        .zip(auto_places(auto_top, &heights))
        .collect();
    cards
        .iter()
        .map(|(e, height)| {
            let origin = match design.layout.get(&e.name) {
                Some(p) => *p,
                None => auto[e.name.as_str()],
            };
            (
                e.name.clone(),
                Rect {
                    x: origin.x,
                    y: origin.y,
                    width: CARD_WIDTH,
                    height: *height,
                },
            )
        })
        .collect()
}

/// The fewest cards to a row in the automatic grid.
const AUTO_COLUMNS: usize = 4;

/// How far a table's frame reaches around its cards (canvas/table_frame.rs draws it): its
/// header above them, and a padding on every side.
pub const FRAME_HEADER: f64 = 64.0;
/// The band at the canvas's foot that its buttons ("+ Table", "+ Entity", the zoom controls)
/// cover: 12 px from the edge, 42 px tall, and a gap. Fit keeps the cards above it.
pub const CANVAS_BUTTONS: f64 = 60.0;
pub const FRAME_PADDING: f64 = 24.0;
/// The narrowest frame: room for its header's name, keys and index chips.
pub const FRAME_MIN_WIDTH: f64 = 360.0;
/// The smallest a table frame's header (its name and the index chips that select the table or
/// an index) is drawn, as a share of its size at 100 %: zoomed out further, it keeps this size
/// on the screen and grows up from its frame's top (issue 43, item 3: at the 13 % Fit picks for
/// 100 entities, it was 3 px high).
pub const FRAME_HEADER_MIN_SCALE: f64 = 0.85;

/// How much a frame's header is enlarged at `zoom` so that it is drawn at
/// [`FRAME_HEADER_MIN_SCALE`] of its full size at least: 1 from that zoom up.
pub fn frame_header_scale(zoom: f64) -> f64 {
    (FRAME_HEADER_MIN_SCALE / zoom.max(MIN_ZOOM)).max(1.0)
}

/// How far, in screen pixels, an enlarged frame header reaches above its frame at `zoom`.
pub fn frame_header_overflow(zoom: f64) -> f64 {
    FRAME_HEADER * (FRAME_HEADER_MIN_SCALE - zoom).max(0.0)
}

/// Cards to a row in a table's block of `n` cards: four, or more for a large table so that its
/// block stays about as wide as it is tall on a wide screen (100 cards: 13 to a row, 8 rows),
/// and Fit can show it whole.
fn columns_for(n: usize) -> usize {
    let square = ((n as f64) * 1.6).sqrt().ceil() as usize;
    square.max(AUTO_COLUMNS).min(n.max(1))
}

/// The automatic places of cards of these heights, in order, in rows of `columns`, each row
/// below the tallest card of the row above it (a fixed row height let a tall card of an
/// imported design reach over the card below it; issue 12). Relative to (0, 0); with the
/// block's width and height.
fn grid(heights: &[f64], columns: usize) -> (Vec<Point>, f64, f64) {
    let mut places = Vec::with_capacity(heights.len());
    let mut row_top = 0.0;
    let mut width: f64 = 0.0;
    for row in heights.chunks(columns.max(1)) {
        for n in 0..row.len() {
            places.push(Point {
                x: n as f64 * (CARD_WIDTH + GAP),
                y: row_top,
            });
        }
        width = width.max(row.len() as f64 * (CARD_WIDTH + GAP) - GAP);
        row_top += row.iter().copied().fold(0.0, f64::max) + GAP;
    }
    (places, width, (row_top - GAP).max(0.0))
}

/// The automatic places of the cards of each table's group (their heights), in order: each
/// table's cards together in a block of their own ([`grid`]), so its frame holds them and no
/// other table's card (issue 36); the blocks, with room for their frames, packed in shelves of
/// the width that makes the whole nearest a wide screen's shape (16:9), so Fit shows it at the
/// largest zoom; the first card at (40, `top`).
pub fn auto_places(top: f64, groups: &[Vec<f64>]) -> Vec<Point> {
    let blocks: Vec<(Vec<Point>, f64, f64)> = groups
        .iter()
        .map(|heights| grid(heights, columns_for(heights.len())))
        .collect();
    // Each block's outer size: its cards, the frame around them and a gap to the next frame.
    let outer: Vec<(f64, f64)> = blocks
        .iter()
        .map(|(_, w, h)| {
            (
                w + 2.0 * FRAME_PADDING + GAP,
                h + 2.0 * FRAME_PADDING + FRAME_HEADER + GAP,
            )
        })
        .collect();
    // Each block's corner on shelves at most `width` wide, and the whole's size.
    let shelves = |width: f64| {
        let mut corners = Vec::with_capacity(outer.len());
        let (mut x, mut y, mut shelf_height, mut right) = (0.0, 0.0, 0.0_f64, 0.0_f64);
        for &(w, h) in &outer {
            if x > 0.0 && x + w > width {
                x = 0.0;
                y += shelf_height;
                shelf_height = 0.0;
            }
            corners.push((x, y));
            x += w;
            right = right.max(x);
            shelf_height = shelf_height.max(h);
        }
        (corners, right, y + shelf_height)
    };
    // The widths worth trying: each run of blocks from the first, side by side.
    let widths = outer.iter().scan(0.0, |sum, (w, _)| {
        *sum += w;
        Some(*sum)
    });
    let screen = |(_, w, h): &(Vec<(f64, f64)>, f64, f64)| (w / (16.0 / 9.0)).max(*h);
    let corners = widths
        .map(shelves)
        .min_by(|a, b| screen(a).total_cmp(&screen(b)))
        .map(|(corners, _, _)| corners)
        .unwrap_or_default();
    blocks
        .iter()
        .zip(corners)
        .flat_map(|((cards, _, _), (x, y))| {
            cards.iter().map(move |p| Point {
                x: 40.0 + x + p.x,
                y: top + y + p.y,
            })
        })
        .collect()
}

/// A free spot for a new card: right of everything placed, at the top.
pub fn free_spot(design: &Design) -> Point {
    let right = card_rects(design)
        .iter()
        .map(|(_, r)| r.right())
        .fold(f64::NEG_INFINITY, f64::max);
    if right.is_finite() {
        Point {
            x: right + GAP,
            y: 60.0,
        }
    } else {
        Point { x: 40.0, y: 60.0 }
    }
}

/// The height a card is given room for when placing a new one: a new card grows as its
/// attributes and key templates are typed, and must not grow onto the card below it.
pub const ROOM_TO_GROW: f64 = 320.0;

/// Where a new card of `width` x `height` goes: the place nearest to `wanted` that keeps a
/// [`GAP`] from every card in `cards`, counting each card (the new one too) as at least
/// [`ROOM_TO_GROW`] tall. The places tried are `wanted` itself and the spots right of, below
/// and left of every card, aligned with it; below the lowest card is always free, so there is
/// always an answer. New cards used to land exactly on top of the previous one (issue 12).
pub fn place_card(cards: &[Rect], wanted: Point, width: f64, height: f64) -> Point {
    let tall = |r: &Rect| Rect {
        height: r.height.max(ROOM_TO_GROW),
        ..*r
    };
    let occupied: Vec<Rect> = cards.iter().map(|r| tall(r).inflate(GAP / 2.0)).collect();
    let free = |p: &Point| {
        let candidate = tall(&Rect {
            x: p.x,
            y: p.y,
            width,
            height,
        })
        .inflate(GAP / 2.0);
        !occupied.iter().any(|r| r.intersects(&candidate))
    };
    let lowest = cards
        .iter()
        .map(|r| tall(r).bottom())
        .fold(f64::NEG_INFINITY, f64::max);
    let mut candidates = vec![wanted];
    for r in cards {
        candidates.push(Point {
            x: r.right() + GAP,
            y: r.y,
        });
        candidates.push(Point {
            x: r.x,
            y: tall(r).bottom() + GAP,
        });
        candidates.push(Point {
            x: r.x - GAP - width,
            y: r.y,
        });
    }
    if lowest.is_finite() {
        candidates.push(Point {
            x: wanted.x,
            y: lowest + GAP,
        });
    }
    let distance = |p: &Point| (p.x - wanted.x).powi(2) + (p.y - wanted.y).powi(2);
    candidates
        .into_iter()
        .filter(free)
        .min_by(|a, b| distance(a).total_cmp(&distance(b)))
        .unwrap_or(wanted)
}

/// The bounds of every card, or `None` for an empty design.
pub fn bounds(rects: &[(String, Rect)]) -> Option<Rect> {
    rects.iter().map(|(_, r)| *r).reduce(|a, b| a.union(&b))
}

/// The cards' bounds with room for the tables' frames around them (their headers, with the
/// index chips that select a table or an index, above): what Fit shows (issue 36).
pub fn framed(cards: Rect) -> Rect {
    let b = cards.inflate(FRAME_PADDING);
    Rect {
        y: b.y - FRAME_HEADER,
        height: b.height + FRAME_HEADER,
        ..b
    }
}

/// Pan and zoom: a canvas point `p` is drawn at screen point `p * zoom + (x, y)`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Viewport {
    pub x: f64,
    pub y: f64,
    pub zoom: f64,
}

impl Default for Viewport {
    fn default() -> Self {
        Viewport {
            x: 0.0,
            y: 0.0,
            zoom: 1.0,
        }
    }
}

impl Viewport {
    /// The canvas point under screen point (`sx`, `sy`) (relative to the canvas element).
    pub fn to_canvas(&self, sx: f64, sy: f64) -> Point {
        Point {
            x: (sx - self.x) / self.zoom,
            y: (sy - self.y) / self.zoom,
        }
    }

    /// Zooms by `factor` keeping the canvas point under (`sx`, `sy`) where it is.
    pub fn zoom_at(&self, sx: f64, sy: f64, factor: f64) -> Viewport {
        let zoom = (self.zoom * factor).clamp(MIN_ZOOM, MAX_ZOOM);
        let anchor = self.to_canvas(sx, sy);
        Viewport {
            x: sx - anchor.x * zoom,
            y: sy - anchor.y * zoom,
            zoom,
        }
    }

    /// Pans by a screen distance.
    pub fn pan(&self, dx: f64, dy: f64) -> Viewport {
        Viewport {
            x: self.x + dx,
            y: self.y + dy,
            zoom: self.zoom,
        }
    }

    /// The viewport showing `content` (framed cards: [`framed`]) centred in a screen of
    /// `width` x `height`, with a margin, above the band the canvas's buttons cover
    /// ([`CANVAS_BUTTONS`]), with room above for the frames' headers drawn at a readable size
    /// ([`frame_header_overflow`]), never zoomed in past 100 %.
    pub fn fit(content: Rect, width: f64, height: f64) -> Viewport {
        let margin = 40.0;
        let (top, bottom) = (margin, height - CANVAS_BUTTONS.max(margin));
        let room = (bottom - top).max(1.0);
        let zx = (width - 2.0 * margin).max(1.0) / content.width.max(1.0);
        // Zoomed out past the headers' smallest size, each lost pixel of content height
        // gives a header's pixel back: content.height * z + FRAME_HEADER * (m - z) <= room.
        let m = FRAME_HEADER_MIN_SCALE;
        let mut zy = room / content.height.max(1.0);
        if zy < m {
            zy = (room - FRAME_HEADER * m).max(1.0) / (content.height - FRAME_HEADER).max(1.0);
        }
        let zoom = zx.min(zy).clamp(MIN_ZOOM, 1.0);
        let above = frame_header_overflow(zoom);
        Viewport {
            x: (width - content.width * zoom) / 2.0 - content.x * zoom,
            y: top + above + (room - above - content.height * zoom).max(0.0) / 2.0
                - content.y * zoom,
            zoom,
        }
    }

    /// This viewport panned as little as it takes to show `content` (canvas coordinates)
    /// whole on a screen of `width` x `height`, with a margin; unchanged when it is already
    /// shown. Content larger than the screen is shown from its top left corner.
    pub fn reveal(&self, content: Rect, width: f64, height: f64) -> Viewport {
        let margin = 24.0;
        let axis = |offset: f64, start: f64, size: f64, screen: f64| {
            let (near, far) = (
                start * self.zoom + offset,
                (start + size) * self.zoom + offset,
            );
            if near < margin || size * self.zoom > screen - 2.0 * margin {
                offset + margin - near
            } else if far > screen - margin {
                offset - (far - (screen - margin))
            } else {
                offset
            }
        };
        Viewport {
            x: axis(self.x, content.x, content.width, width),
            y: axis(self.y, content.y, content.height, height),
            zoom: self.zoom,
        }
    }

    /// Zoomed out so far that cards show only their name and indexes (issue 19: a canvas of
    /// 100 cards drew 3,300 elements nobody could read at the 20% it fits at).
    pub fn overview(&self) -> bool {
        self.zoom < OVERVIEW_ZOOM
    }

    /// The CSS transform of the canvas layer.
    pub fn css_transform(&self) -> String {
        format!(
            "translate({:.2}px, {:.2}px) scale({:.4})",
            self.x, self.y, self.zoom
        )
    }
}

/// The zoom factor for a wheel movement: smooth and symmetric (in then out returns).
pub fn wheel_factor(delta_y: f64, pinch: bool) -> f64 {
    let speed = if pinch { 0.01 } else { 0.0015 };
    (-delta_y * speed).exp()
}

/// Where a line from the centre of `from` towards the centre of `to` leaves `from`'s border.
pub fn border_point(from: &Rect, to: &Rect) -> Point {
    let c = from.center();
    let t = to.center();
    let (dx, dy) = (t.x - c.x, t.y - c.y);
    if dx == 0.0 && dy == 0.0 {
        return c;
    }
    let sx = if dx == 0.0 {
        f64::INFINITY
    } else {
        (from.width / 2.0) / dx.abs()
    };
    let sy = if dy == 0.0 {
        f64::INFINITY
    } else {
        (from.height / 2.0) / dy.abs()
    };
    let s = sx.min(sy);
    Point {
        x: c.x + dx * s,
        y: c.y + dy * s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn zooming_keeps_the_point_under_the_pointer_still() {
        let v = Viewport {
            x: 30.0,
            y: -12.0,
            zoom: 0.8,
        };
        let before = v.to_canvas(400.0, 300.0);
        let z = v.zoom_at(400.0, 300.0, 1.7);
        let after = z.to_canvas(400.0, 300.0);
        assert!(close(before.x, after.x) && close(before.y, after.y));
        assert!(close(z.zoom, 0.8 * 1.7));
    }

    // issue 43: the rows counted from the entity's side are the table's keys it fills, counted
    // from the table's side (`Entity::fills`), on every example, with an attribute listed
    // twice, one that is also templated, and a template of no key of the table.
    #[test]
    fn a_card_has_a_key_row_per_key_of_its_table_it_fills() {
        let mut designs: Vec<Design> = keyplan_core::examples::all()
            .into_iter()
            .map(|(_, d)| d)
            .collect();
        let mut odd = keyplan_core::examples::first();
        let entity = &mut odd.entities[0];
        let key = entity.keys.keys().next().cloned().expect("a key template");
        let attribute = entity.attributes[0].clone();
        entity.attributes.push(attribute);
        let mut named = entity.attributes[0].clone();
        named.name = key;
        entity.attributes.push(named);
        entity
            .keys
            .insert("NOT_A_KEY".into(), keyplan_core::KeyTemplate::parse("X"));
        designs.push(odd);
        let mut checked = 0;
        for design in &designs {
            for entity in &design.entities {
                let Some(table) = design.table(&entity.table) else {
                    continue;
                };
                let filled = table
                    .key_attributes()
                    .iter()
                    .filter(|k| entity.fills(&k.name))
                    .count();
                assert_eq!(key_rows(design, entity), filled, "{}", entity.name);
                checked += 1;
            }
        }
        assert!(checked > 10);
    }

    #[test]
    fn zoom_stays_within_its_range() {
        let v = Viewport::default();
        assert_eq!(v.zoom_at(0.0, 0.0, 100.0).zoom, MAX_ZOOM);
        assert_eq!(v.zoom_at(0.0, 0.0, 0.0001).zoom, MIN_ZOOM);
    }

    #[test]
    fn wheel_in_then_out_returns_to_the_same_zoom() {
        assert!(close(
            wheel_factor(120.0, false) * wheel_factor(-120.0, false),
            1.0
        ));
        assert!(wheel_factor(-10.0, true) > 1.0, "pinching out zooms in");
    }

    #[test]
    fn fit_to_screen_shows_every_card_inside_the_screen() {
        let content = Rect {
            x: 40.0,
            y: 60.0,
            width: 2000.0,
            height: 700.0,
        };
        let v = Viewport::fit(content, 800.0, 600.0);
        let top_left = (content.x * v.zoom + v.x, content.y * v.zoom + v.y);
        let bottom_right = (
            content.right() * v.zoom + v.x,
            content.bottom() * v.zoom + v.y,
        );
        assert!(top_left.0 >= 39.0 && top_left.1 >= 0.0);
        assert!(bottom_right.0 <= 761.0 && bottom_right.1 <= 600.0);
    }

    // issue 43, item 3: Fit put the bottom cards under "+ Table" and the zoom buttons.
    #[test]
    fn fit_keeps_every_card_above_the_canvas_buttons() {
        for (content, w, h) in [
            (
                Rect {
                    x: 0.0,
                    y: 0.0,
                    width: 900.0,
                    height: 640.0,
                },
                480.0,
                530.0,
            ),
            (
                Rect {
                    x: -300.0,
                    y: 80.0,
                    width: 400.0,
                    height: 3000.0,
                },
                800.0,
                600.0,
            ),
            (
                Rect {
                    x: 0.0,
                    y: 0.0,
                    width: 200.0,
                    height: 200.0,
                },
                800.0,
                600.0,
            ),
        ] {
            let v = Viewport::fit(content, w, h);
            let bottom = content.bottom() * v.zoom + v.y;
            assert!(
                bottom <= h - CANVAS_BUTTONS,
                "{content:?} in {w}x{h}: bottom {bottom} under the buttons from {}",
                h - CANVAS_BUTTONS
            );
            assert!(
                content.y * v.zoom + v.y >= 0.0,
                "{content:?}: its top is seen"
            );
        }
    }

    // issue 43, item 3: Fit drew a 100-entity table's header, the way to select it or an
    // index, 3 px high: the header keeps a readable size and Fit leaves it room above.
    #[test]
    fn fit_leaves_room_for_each_frames_header_at_a_readable_size() {
        for (content, w, h) in [
            (
                framed(Rect {
                    x: 0.0,
                    y: 0.0,
                    width: 3300.0,
                    height: 2900.0,
                }),
                1140.0,
                660.0,
            ),
            (
                framed(Rect {
                    x: 0.0,
                    y: 0.0,
                    width: 900.0,
                    height: 500.0,
                }),
                800.0,
                600.0,
            ),
        ] {
            let v = Viewport::fit(content, w, h);
            let header_top = content.y * v.zoom + v.y - frame_header_overflow(v.zoom);
            assert!(
                header_top >= 0.0,
                "{content:?}: the header's top {header_top} is seen"
            );
            assert!(
                content.bottom() * v.zoom + v.y <= h - CANVAS_BUTTONS,
                "{content:?}: above the buttons"
            );
            assert!(
                FRAME_HEADER * v.zoom * frame_header_scale(v.zoom)
                    >= FRAME_HEADER * FRAME_HEADER_MIN_SCALE - 1e-9,
                "{content:?}: the header is drawn at a readable size at {}",
                v.zoom
            );
        }
        assert_eq!(frame_header_scale(1.0), 1.0);
        assert_eq!(frame_header_overflow(0.9), 0.0);
    }

    #[test]
    fn a_small_design_is_fitted_at_full_size_not_blown_up() {
        let content = Rect {
            x: 0.0,
            y: 0.0,
            width: 100.0,
            height: 100.0,
        };
        assert_eq!(Viewport::fit(content, 1000.0, 800.0).zoom, 1.0);
    }

    #[test]
    fn entities_without_a_position_are_placed_below_the_placed_ones() {
        let mut design = keyplan_core::examples::first();
        design.layout.remove("OrderEvent");
        let rects = card_rects(&design);
        let (_, event) = rects
            .iter()
            .find(|(n, _)| n == "OrderEvent")
            .expect("a card");
        let placed_bottom = design.layout.values().map(|p| p.y).fold(0.0, f64::max);
        assert!(event.y > placed_bottom);
    }

    // issue 12: imported designs have no layout; a card taller than the grid's fixed row
    // height reached over the card below it.
    #[test]
    fn automatic_places_never_overlap_however_tall_the_cards() {
        let mut design = keyplan_core::examples::first();
        design.layout.clear();
        let order = design.entity("Order").expect("Order").clone();
        for n in 0..30 {
            let mut attribute = order.attributes[0].clone();
            attribute.name = format!("extra{n}");
            design.entities[0].attributes.push(attribute);
        }
        for n in 0..6 {
            let mut copy = order.clone();
            copy.name = format!("Copy{n}");
            design.entities.push(copy);
        }
        let rects = card_rects(&design);
        for (i, (a, r)) in rects.iter().enumerate() {
            for (b, s) in &rects[i + 1..] {
                assert!(!r.intersects(s), "{a} and {b} overlap: {r:?} {s:?}");
            }
        }
    }

    /// Each table's frame as canvas/table_frame.rs draws it.
    fn frames(design: &Design, rects: &[(String, Rect)]) -> Vec<(String, Rect)> {
        design
            .tables
            .iter()
            .filter_map(|t| {
                let cards = rects
                    .iter()
                    .filter(|(n, _)| design.entity(n).is_some_and(|e| e.table == t.name));
                let b = framed(cards.map(|(_, r)| *r).reduce(|a, b| a.union(&b))?);
                let width = b.width.max(FRAME_MIN_WIDTH);
                Some((t.name.clone(), Rect { width, ..b }))
            })
            .collect()
    }

    // issue 36: an import's cards were placed in one grid in the order of the entities, so a
    // table's frame reached over the cards (and the frame) of another.
    #[test]
    fn imported_cards_are_placed_table_by_table_each_frame_holding_only_its_own() {
        for (tables, per_table) in [(2, 3), (3, 7), (10, 10), (1, 100)] {
            let design = keyplan_core::generated::across_tables(tables, per_table);
            let rects = card_rects(&design);
            let frames = frames(&design, &rects);
            for (i, (a, f)) in frames.iter().enumerate() {
                for (b, g) in &frames[i + 1..] {
                    assert!(
                        !f.intersects(g),
                        "{tables}x{per_table}: frames {a} and {b} overlap"
                    );
                }
                for (card, r) in &rects {
                    let own = design.entity(card).is_some_and(|e| &e.table == a);
                    assert!(
                        own || !f.intersects(r),
                        "{tables}x{per_table}: {card} is under {a}'s frame"
                    );
                }
            }
        }
    }

    // issue 36: Fit shows a 100-entity import whole on a laptop's canvas.
    #[test]
    fn fit_shows_a_hundred_entity_import_whole() {
        for (tables, per_table) in [(1, 100), (4, 25), (10, 10)] {
            let design = keyplan_core::generated::across_tables(tables, per_table);
            let rects = card_rects(&design);
            let content = frames(&design, &rects)
                .into_iter()
                .map(|(_, r)| r)
                .reduce(|a, b| a.union(&b))
                .expect("frames");
            // The canvas beside the panels in a 1440 x 900 window (the browser tests').
            let (width, height) = (800.0, 660.0);
            let v = Viewport::fit(content, width, height);
            let left = content.x * v.zoom + v.x;
            let top = content.y * v.zoom + v.y;
            let right = content.right() * v.zoom + v.x;
            let bottom = content.bottom() * v.zoom + v.y;
            assert!(
                left >= 0.0 && top >= 0.0 && right <= width && bottom <= height,
                "{tables}x{per_table}: {content:?} at zoom {} is not whole on the screen",
                v.zoom
            );
        }
    }

    fn card_at(x: f64, y: f64) -> Rect {
        Rect {
            x,
            y,
            width: CARD_WIDTH,
            height: 120.0,
        }
    }

    fn overlaps_any(cards: &[Rect], p: Point) -> bool {
        let new = card_at(p.x, p.y);
        cards.iter().any(|c| c.intersects(&new))
    }

    // issue 12: new cards landed exactly on top of the previous one.
    #[test]
    fn a_new_card_goes_where_it_was_wanted_when_that_place_is_free() {
        let wanted = Point { x: 500.0, y: 100.0 };
        assert_eq!(place_card(&[], wanted, CARD_WIDTH, 120.0), wanted);
        let far = [card_at(-900.0, -900.0)];
        assert_eq!(place_card(&far, wanted, CARD_WIDTH, 120.0), wanted);
    }

    #[test]
    fn a_new_card_never_lands_on_the_card_already_there() {
        let first = card_at(100.0, 100.0);
        let placed = place_card(&[first], Point { x: 100.0, y: 100.0 }, CARD_WIDTH, 120.0);
        assert!(!overlaps_any(&[first], placed), "{placed:?}");
        assert!(
            (placed.x - first.x).abs() >= CARD_WIDTH + GAP
                || (placed.y - first.y).abs() >= ROOM_TO_GROW + GAP,
            "a gap and room to grow between them: {placed:?}"
        );
    }

    #[test]
    fn cards_added_one_after_another_at_the_same_spot_never_overlap() {
        let wanted = Point { x: 0.0, y: 0.0 };
        let mut cards: Vec<Rect> = Vec::new();
        for _ in 0..12 {
            let p = place_card(&cards, wanted, CARD_WIDTH, 120.0);
            assert!(!overlaps_any(&cards, p), "card {} at {p:?}", cards.len());
            cards.push(card_at(p.x, p.y));
        }
        // Each one as near the wanted spot as the others allow: the first ring is filled
        // before anything goes further out.
        let farthest = cards
            .iter()
            .map(|c| c.x.abs().max(c.y.abs()))
            .fold(0.0, f64::max);
        assert!(farthest < 3.0 * (ROOM_TO_GROW + GAP), "{cards:?}");
    }

    #[test]
    fn a_new_card_leaves_room_below_a_card_that_is_still_short() {
        // A fresh card is short; the one placed below it must leave it room to grow.
        let short = card_at(0.0, 0.0);
        let placed = place_card(&[short], Point { x: 0.0, y: 150.0 }, CARD_WIDTH, 120.0);
        let grown = Rect {
            height: ROOM_TO_GROW,
            ..short
        };
        assert!(
            !grown.intersects(&card_at(placed.x, placed.y)),
            "{placed:?}"
        );
    }

    // issue 12: a card added near the edge of a full canvas landed half off-screen.
    #[test]
    fn reveal_pans_only_as_far_as_it_takes_to_show_the_card() {
        let v = Viewport {
            x: 0.0,
            y: 0.0,
            zoom: 0.5,
        };
        let shown = Rect {
            x: 100.0,
            y: 100.0,
            width: 280.0,
            height: 120.0,
        };
        assert_eq!(v.reveal(shown, 800.0, 600.0), v, "already on screen");
        let right = Rect { x: 1500.0, ..shown };
        let panned = v.reveal(right, 800.0, 600.0);
        assert_eq!((panned.y, panned.zoom), (0.0, 0.5));
        assert_eq!(right.right() * 0.5 + panned.x, 800.0 - 24.0, "{panned:?}");
        let left = Rect { x: -400.0, ..shown };
        let panned = v.reveal(left, 800.0, 600.0);
        assert_eq!(left.x * 0.5 + panned.x, 24.0, "{panned:?}");
    }

    #[test]
    fn a_line_leaves_a_card_on_its_border() {
        let a = Rect {
            x: 0.0,
            y: 0.0,
            width: 100.0,
            height: 50.0,
        };
        let b = Rect {
            x: 300.0,
            y: 0.0,
            width: 100.0,
            height: 50.0,
        };
        let p = border_point(&a, &b);
        assert!(close(p.x, 100.0) && close(p.y, 25.0));
    }
}
