#![allow(clippy::all)]
// scratch, not committed
use std::time::Instant;
fn rss() -> u64 {
    let s = std::fs::read_to_string("/proc/self/statm").unwrap();
    s.split_whitespace().nth(1).unwrap().parse::<u64>().unwrap() * 4096 / (1 << 20)
}
fn main() {
    let path = std::env::args().nth(1).unwrap();
    let mode = std::env::args().nth(2).unwrap_or_default();
    if mode == "value" {
        let bytes = std::fs::read(&path).unwrap();
        let t = Instant::now();
        let v: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        eprintln!("from_slice {:?} rss {}MiB", t.elapsed(), rss());
        let t = Instant::now();
        drop(v);
        eprintln!("drop {:?}", t.elapsed());
        return;
    }
    let t3 = Instant::now();
    let loaded = kubectl_policies::source::files::load_paths(std::slice::from_ref(&path)).unwrap();
    let t4 = Instant::now();
    let r4 = rss();
    let cat = kubectl_policies::catalog::Catalog::build(&loaded.snapshot.objects, &[]);
    let t5 = Instant::now();
    let t = kubectl_policies::topology::Topology::build(loaded.snapshot, cat);
    let t6 = Instant::now();
    let r6 = rss();
    let st = kubectl_policies::effective::Statuses::compute(&t);
    let t7 = Instant::now();
    let r7 = rss();
    drop(st);
    let t8 = Instant::now();
    let mut t = t;
    let tt = Instant::now();
    drop(std::mem::take(&mut t.policies));
    eprint!("policies {:?} ", tt.elapsed());
    let tt = Instant::now();
    drop(std::mem::take(&mut t.snapshot));
    eprint!("snapshot {:?} ", tt.elapsed());
    let tt = Instant::now();
    drop(std::mem::take(&mut t.nodes));
    eprint!("nodes {:?} ", tt.elapsed());
    let tt = Instant::now();
    drop(std::mem::take(&mut t.targets));
    eprint!("targets {:?} ", tt.elapsed());
    let tt = Instant::now();
    drop(std::mem::take(&mut t.findings));
    eprint!("findings {:?} ", tt.elapsed());
    let tt = Instant::now();
    drop(std::mem::take(&mut t.policy_index));
    eprint!("policy_index {:?} ", tt.elapsed());
    let tt = Instant::now();
    drop(std::mem::take(&mut t.attached));
    eprint!("attached {:?}\n", tt.elapsed());
    drop(t);
    let t9 = Instant::now();
    eprintln!("load_paths {:?} (rss {r4}) catalog {:?} topo {:?} (rss {r6}) statuses {:?} (rss {r7}) drop st {:?} drop topo {:?}",
        t4-t3, t5-t4, t6-t5, t7-t6, t8-t7, t9-t8);
}
