/// A value that the tasks of a `ChunkPipeline` pass from one to the next: the pipeline's reader, a chunk's slot,
/// a group of tracks with its lines, the output.
///
/// Safety: `ChunkPipeline` runs the tasks that change one such value one at a time, each starting after the one
/// before has ended (its start and end go through the pipeline's lock, which orders memory): reads run in turn
/// and own the reader and the slot they fill; a lane's tasks run in turn and own that lane's group and its
/// lines; writes run in turn and own the output. The only values two tasks use at once are a slot's, which
/// several lanes read (never change) while no read refills it (read(s) waits for write(s − slots)). Code outside
/// the pipeline touches these values only before `run` starts or after it returns, and then from one thread, but
/// for the smoothing of held tracks, where each group's value is used by the one task given that group.
final class TaskOwned<Value: ~Copyable>: @unchecked Sendable {
    var value: Value

    init(_ value: consuming Value) {
        self.value = value
    }
}
