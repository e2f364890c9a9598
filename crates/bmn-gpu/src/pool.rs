//! `Pool`: the sets of buffers batches play in, handed out first come, first served.
//!
//! Why in order: a run merges its blocks in order, so a thread that waits long for buffers
//! holds back every later block. With a plain lock, one of 16 threads feeding two sets waited
//! about 15 s on an H200 while the others played on, and the run's progress (and what a stop
//! keeps) stood still that long.

use std::ops::{Deref, DerefMut};
use std::sync::{Condvar, Mutex, MutexGuard};

/// `T`s lent out one per caller, waiting callers served in the order they came.
pub(crate) struct Pool<T> {
    state: Mutex<State<T>>,
    changed: Condvar,
}

struct State<T> {
    free: Vec<T>,
    /// Tickets handed out to waiting callers, and the next ticket to serve.
    next_ticket: u64,
    serving: u64,
}

/// A `T` lent from a pool, given back when dropped.
pub(crate) struct Lent<'p, T> {
    pool: &'p Pool<T>,
    item: Option<T>,
}

impl<T> Pool<T> {
    pub fn new(items: impl IntoIterator<Item = T>) -> Pool<T> {
        Pool {
            state: Mutex::new(State {
                free: items.into_iter().collect(),
                next_ticket: 0,
                serving: 0,
            }),
            changed: Condvar::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State<T>> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A free item: at once, or `None` if there is none or callers are waiting; with `wait`,
    /// after the callers that came before.
    pub fn take(&self, wait: bool) -> Option<Lent<'_, T>> {
        let mut state = self.lock();
        if !wait {
            let nobody_waits = state.serving == state.next_ticket;
            let item = state.free.pop().filter(|_| nobody_waits);
            return item.map(|item| Lent {
                pool: self,
                item: Some(item),
            });
        }
        let ticket = state.next_ticket;
        state.next_ticket += 1;
        while state.serving != ticket || state.free.is_empty() {
            state = self.changed.wait(state).unwrap_or_else(|e| e.into_inner());
        }
        state.serving += 1;
        let item = state.free.pop();
        drop(state);
        // The next ticket may be served too if more items are free.
        self.changed.notify_all();
        Some(Lent { pool: self, item })
    }
}

impl<T> Deref for Lent<'_, T> {
    type Target = T;
    fn deref(&self) -> &T {
        self.item.as_ref().expect("lent until dropped")
    }
}

impl<T> DerefMut for Lent<'_, T> {
    fn deref_mut(&mut self) -> &mut T {
        self.item.as_mut().expect("lent until dropped")
    }
}

impl<T> Drop for Lent<'_, T> {
    fn drop(&mut self) {
        if let Some(item) = self.item.take() {
            self.pool.lock().free.push(item);
            self.pool.changed.notify_all();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waiting_callers_are_served_in_order() {
        let pool = Pool::new([1, 2]);
        let a = pool.take(false).unwrap();
        let b = pool.take(true).unwrap();
        assert!(pool.take(false).is_none());
        let order = Mutex::new(Vec::new());
        std::thread::scope(|s| {
            for k in 0..4 {
                let (pool, order) = (&pool, &order);
                s.spawn(move || {
                    let _item = pool.take(true).unwrap();
                    order.lock().unwrap().push(k);
                });
                // The next thread queues only once this one holds its ticket.
                while pool.lock().next_ticket < 2 + k {
                    std::thread::yield_now();
                }
            }
            // One item goes round, so each thread holds it while it writes its number.
            drop(a);
        });
        drop(b);
        assert_eq!(*order.lock().unwrap(), vec![0, 1, 2, 3]);
        assert_eq!(pool.lock().free.len(), 2);
    }
}
