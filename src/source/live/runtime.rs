//! The live source for a caller without a runtime: connect, discover and read (and
//! watch) on a tokio runtime of its own, for I/O only (CPU work is rayon's), gone before
//! the snapshot is analysed.

use super::connect::{connect, Cluster};
use super::discovery::Discovery;
use super::grow::Growth;
use super::{watch, Guide, LiveError, LiveOptions, ReadScope};
use crate::source::files::Loaded;

/// Connects, discovers and reads on a runtime of its own; `scope_for` picks the scope
/// once the context's namespace is known. For the binary and the tests: their error
/// type `E` takes the live source's, and `scope_for`'s is theirs.
pub fn load<E: From<LiveError>>(
    opts: &LiveOptions,
    guide: &Guide,
    scope_for: impl FnOnce(&Cluster, &Discovery) -> Result<ReadScope, E>,
) -> Result<(Loaded, Cluster), E> {
    let runtime = io_runtime()?;
    runtime.block_on(async {
        let cluster = connect(opts).await?;
        let discovery = cluster.discover().await?;
        let scope = scope_for(&cluster, &discovery)?;
        let loaded = cluster.read(&discovery, &scope, guide).await?;
        Ok((loaded, cluster))
    })
}

/// The runtime the live reads and watches run on: I/O only (CPU work is rayon's).
fn io_runtime() -> Result<tokio::runtime::Runtime, LiveError> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|error| LiveError::Runtime { error })
}

/// `load`, then every list it made watched until Ctrl-C (Ok) or until the server
/// cannot be reached again within the request timeout (Err): `initial` gets what was
/// read, `on_changes` each batch of changes after.
pub fn load_and_watch<E: From<LiveError>>(
    opts: &LiveOptions,
    guide: &Guide,
    scope_for: impl FnOnce(&Cluster, &Discovery) -> Result<ReadScope, E>,
    initial: impl FnOnce(Loaded, &Cluster) -> Result<(), E>,
    on_changes: impl FnMut(Vec<watch::Change>) -> Result<(), E>,
) -> Result<(), E> {
    let runtime = io_runtime()?;
    runtime.block_on(async {
        let cluster = connect(opts).await?;
        let discovery = cluster.discover().await?;
        let scope = scope_for(&cluster, &discovery)?;
        let (loaded, lists) = cluster.read_watched(&discovery, &scope, guide).await?;
        let growth = Growth::new(guide, &discovery, &lists, &loaded.snapshot.objects);
        initial(loaded, &cluster)?;
        watch::watch(&cluster, &lists, growth, opts.request_timeout, on_changes).await
    })
}
