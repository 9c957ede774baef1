use kubectl_policies::model::ObjRef;
use std::time::Instant;
fn main() {
    let path = std::env::args().nth(1).unwrap();
    let t0 = Instant::now();
    let text = std::fs::read_to_string(&path).unwrap();
    let t1 = Instant::now();
    let mut loaded = kubectl_policies::source::files::Loaded::default();
    kubectl_policies::source::files::load_text(&text, &path, &mut loaded).unwrap();
    let t2 = Instant::now();
    let n = loaded.snapshot.objects.len();
    let catalog = kubectl_policies::catalog::Catalog::build(&loaded.snapshot.objects, &[]);
    let t3 = Instant::now();
    let topo = kubectl_policies::topology::Topology::build(loaded.snapshot, catalog);
    let t4 = Instant::now();
    let w = std::mem::ManuallyDrop::new(kubectl_policies::query::World::new(topo));
    let r = ObjRef::new(
        "gateway.networking.k8s.io",
        "HTTPRoute",
        Some("app-00"),
        "route-00040",
    );
    let node = w.t.lookup(&r).unwrap();
    let d = kubectl_policies::query::describe_target(&w, node);
    let t5 = Instant::now();
    std::mem::forget(d);
    std::mem::forget(text);
    eprintln!(
        "objects {n} read {:?} parse {:?} catalog {:?} topology {:?} describe {:?}",
        t1 - t0,
        t2 - t1,
        t3 - t2,
        t4 - t3,
        t5 - t4
    );
}
