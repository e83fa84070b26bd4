//! Long lists drawn a chunk a frame (issue 19): the access patterns of a 400-pattern design and
//! the Cost tab's pattern rows were each drawn whole in the task that showed them: the first in
//! the page's first render, the second a long task of 58-79 ms under load on this 2-core
//! machine. With [`rows_drawn`], the first [`FIRST_ROWS`] are drawn with the view and
//! [`ROWS_PER_FRAME`] more in each following frame; once every row has been drawn, all are,
//! so a row added later (a new pattern) appears at once.

use leptos::prelude::*;

/// Rows drawn with the view.
pub const FIRST_ROWS: usize = 40;
/// Rows added each frame after it.
pub const ROWS_PER_FRAME: usize = 40;

/// How many rows to draw after `drawn` were, of `total`; `usize::MAX` once all are.
pub fn next(drawn: usize, total: usize) -> usize {
    if drawn >= total {
        usize::MAX
    } else {
        drawn.saturating_add(ROWS_PER_FRAME)
    }
}

/// How many of a list's rows to draw now; `total` is the list's length, tracked.
pub fn rows_drawn(total: impl Fn() -> usize + Send + Sync + 'static) -> ReadSignal<usize> {
    let drawn = RwSignal::new(FIRST_ROWS);
    Effect::new(move |_| {
        let now = drawn.get();
        if now == usize::MAX {
            return;
        }
        let then = next(now, total());
        if then == usize::MAX {
            drawn.set(then);
            return;
        }
        // The next chunk in the next frame. A list disposed meanwhile (another tab, another
        // design) is left alone, and a chunk asked twice (the list changed length while
        // drawing) is added once.
        request_animation_frame(move || {
            drawn.try_maybe_update(|d| {
                let due = *d == now;
                if due {
                    *d = then;
                }
                (due, ())
            });
        });
    });
    drawn.read_only()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_chunks_reach_every_row_then_all_rows() {
        let mut drawn = FIRST_ROWS;
        let mut frames = 0;
        while drawn != usize::MAX {
            drawn = next(drawn, 401);
            frames += 1;
        }
        // 40 at first, 80, ..., 440 >= 401, then "all".
        assert_eq!(frames, 11);
        assert_eq!(next(FIRST_ROWS, 3), usize::MAX);
        assert_eq!(next(usize::MAX, 3), usize::MAX);
    }
}
