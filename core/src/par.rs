//! Work split over the machine's cores where the `parallel` feature is on (the server's CLI
//! and API, with rayon), done in order on one thread where it is off (the browser app): the
//! same results either way, in the same order. The bounds are the same in both builds, so a
//! type that could not cross threads fails to compile everywhere, not only in the server.

/// `a` and `b`, possibly at the same time: `(a(), b())`.
pub(crate) fn join<A, B, RA, RB>(a: A, b: B) -> (RA, RB)
where
    A: FnOnce() -> RA + Send,
    B: FnOnce() -> RB + Send,
    RA: Send,
    RB: Send,
{
    #[cfg(feature = "parallel")]
    {
        rayon::join(a, b)
    }
    #[cfg(not(feature = "parallel"))]
    {
        (a(), b())
    }
}

/// `f` of each of `items`, in their order: `items.iter().map(f).collect()`.
pub(crate) fn map<T, R, F>(items: &[T], f: F) -> Vec<R>
where
    T: Sync,
    R: Send,
    F: Fn(&T) -> R + Sync + Send,
{
    #[cfg(feature = "parallel")]
    {
        use rayon::prelude::*;
        items.par_iter().map(f).collect()
    }
    #[cfg(not(feature = "parallel"))]
    {
        items.iter().map(f).collect()
    }
}

/// Frees `value` on another thread where there are threads: a caller that has its answer does
/// not wait for a large structure's memory to be given back (a 100,000-item store took 50 ms
/// of `keyplan cost`'s second at 10,000 entities). Dropped here without them, or with a pool
/// of one thread (the scale bench's instruction count: the drop stays in the counted call).
pub(crate) fn drop_later<T: Send + 'static>(value: T) {
    #[cfg(feature = "parallel")]
    {
        if rayon::current_num_threads() > 1 {
            rayon::spawn(move || drop(value));
        } else {
            drop(value);
        }
    }
    #[cfg(not(feature = "parallel"))]
    {
        drop(value);
    }
}

/// `f` of each of `items`, taken by value, in their order: `items.into_iter().map(f).collect()`.
pub(crate) fn map_owned<T, R, F>(items: Vec<T>, f: F) -> Vec<R>
where
    T: Send,
    R: Send,
    F: Fn(T) -> R + Sync + Send,
{
    #[cfg(feature = "parallel")]
    {
        use rayon::prelude::*;
        items.into_par_iter().map(f).collect()
    }
    #[cfg(not(feature = "parallel"))]
    {
        items.into_iter().map(f).collect()
    }
}
