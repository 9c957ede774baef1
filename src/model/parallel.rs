//! Work spread over the machine's cores: the same function over independent items,
//! answers in the items' order, so that what a command prints does not depend on how
//! many cores ran it.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// The cores available to this process.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// How many threads to use: the cores available, at most `items`.
fn threads_for(items: usize) -> usize {
    cores().min(items)
}

/// `f` of each item, in order, the items shared among the cores (each thread takes
/// the next item not yet taken). With one core or one item, it runs here.
pub fn map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let threads = threads_for(items.len());
    if threads <= 1 {
        return items.iter().map(f).collect();
    }
    let next = AtomicUsize::new(0);
    let done: Mutex<Vec<(usize, R)>> = Mutex::new(Vec::with_capacity(items.len()));
    let work = || loop {
        let i = next.fetch_add(1, Ordering::Relaxed);
        let Some(item) = items.get(i) else { break };
        let r = f(item);
        done.lock().unwrap_or_else(|e| e.into_inner()).push((i, r));
    };
    std::thread::scope(|s| {
        // The calling thread is one of the workers: what it allocates comes from the
        // memory the program has already freed, not from a new thread's own arena.
        for _ in 1..threads {
            s.spawn(work);
        }
        work();
    });
    let mut done = done.into_inner().unwrap_or_else(|e| e.into_inner());
    done.sort_by_key(|&(i, _)| i);
    done.into_iter().map(|(_, r)| r).collect()
}

/// `f` on every item, the items cut into runs of `RUN` that the cores take in turn,
/// so that a core given cheap items takes more of them.
pub fn for_each_mut<T: Send>(items: &mut [T], f: impl Fn(&mut T) + Sync) {
    const RUN: usize = 256;
    let threads = threads_for(items.len().div_ceil(RUN));
    if threads <= 1 {
        items.iter_mut().for_each(f);
        return;
    }
    let runs = Mutex::new(items.chunks_mut(RUN));
    let work = || loop {
        let run = runs.lock().unwrap_or_else(|e| e.into_inner()).next();
        let Some(run) = run else { break };
        run.iter_mut().for_each(&f);
    };
    std::thread::scope(|s| {
        for _ in 1..threads {
            s.spawn(work);
        }
        // The calling thread is one of the workers (see `map`).
        work();
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_come_in_the_items_order() {
        let items: Vec<u64> = (0..1000).collect();
        let squares = map(&items, |&i| i * i);
        assert_eq!(squares, items.iter().map(|i| i * i).collect::<Vec<_>>());
        let mut items = items;
        for_each_mut(&mut items, |i| *i += 1);
        assert_eq!(items, (1..1001).collect::<Vec<_>>());
        assert!(map(&[] as &[u8], |&b| b).is_empty());
    }
}
