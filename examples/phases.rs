use kubectl_policies::model::ObjRef;
use std::time::Instant;
fn main() {
    let path = std::env::args().nth(1).unwrap();
    let blast = std::env::args().nth(2).is_some();
    let t0 = Instant::now();
    let text = std::fs::read_to_string(&path).unwrap();
    let t1 = Instant::now();
    let mut loaded = kubectl_policies::source::files::Loaded::default();
    kubectl_policies::source::files::load_text(&text, &path, &mut loaded).unwrap();
    let t2 = Instant::now();
    let n = loaded.snapshot.objects.len();
    let catalog = kubectl_policies::catalog::Catalog::build(&loaded.snapshot.objects, &[]);
    let t3 = Instant::now();
    let r = if blast {
        ObjRef::new(
            "resilience.example.io",
            "RetryPolicy",
            Some("app-07"),
            "ns-retries",
        )
    } else {
        ObjRef::new(
            "gateway.networking.k8s.io",
            "HTTPRoute",
            Some("app-00"),
            "route-00040",
        )
    };
    let aside = kubectl_policies::narrow::narrow(&mut loaded.snapshot, &catalog, &r);
    let dropped = aside.len();
    std::mem::forget(aside);
    let t4 = Instant::now();
    let w = std::mem::ManuallyDrop::new(kubectl_policies::analyze(loaded.snapshot, &[], &[]));
    let t5 = Instant::now();
    if blast {
        let p = w.t.policy_index.get(&r).copied().expect("policy");
        let d = kubectl_policies::query::blast::delete_policy(&w, p, &[]);
        std::mem::forget(d);
    } else {
        let node = w.t.lookup(&r).unwrap();
        let d = kubectl_policies::query::describe_target(&w, node);
        std::mem::forget(d);
    }
    let t6 = Instant::now();
    std::mem::forget(text);
    eprintln!("objects {n} dropped {dropped} read {:?} parse {:?} catalog {:?} narrow {:?} analyze {:?} answer {:?}", t1-t0, t2-t1, t3-t2, t4-t3, t5-t4, t6-t5);
}
