//! Work over a slice on threads, the results in the slice's order.

/// `work` over `items` cut into one run per thread (at most `threads`), the
/// results in the items' order: the answer never depends on the number of threads.
pub fn in_parallel<T: Sync, R: Send>(
    items: &[T],
    threads: usize,
    work: impl Fn(&[T]) -> Vec<R> + Sync,
) -> Vec<R> {
    let chunk = items.len().div_ceil(threads.max(1)).max(1);
    let work = &work;
    std::thread::scope(|scope| {
        let parts: Vec<_> = items
            .chunks(chunk)
            .map(|part| scope.spawn(move || work(part)))
            .collect();
        parts
            .into_iter()
            .flat_map(|h| h.join().expect("the work does not panic"))
            .collect()
    })
}
