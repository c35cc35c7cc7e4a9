/// A growable byte buffer that output lines are written into in place, through a pointer.
///
/// An `Array` can only grow by appending finished bytes, so a line assembled elsewhere costs a second copy; here
/// a writer asks for room (`reserve`), writes the line there and `commit`s its length. Non-copyable: it owns its
/// memory, freed with it.
struct ByteBuffer: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// Bytes written.
    private(set) var count = 0

    init(capacity: Int = 1 << 16) {
        self.capacity = max(16, capacity)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// Makes room for `extra` more bytes and returns where they go; `commit` says how many were written.
    @inline(__always)
    mutating func reserve(_ extra: Int) -> UnsafeMutablePointer<UInt8> {
        if count + extra > capacity { grow(count + extra) }
        return base + count
    }

    /// Counts `length` bytes written at `reserve`'s pointer.
    @inline(__always)
    mutating func commit(_ length: Int) {
        precondition(count + length <= capacity, "ByteBuffer: committed more than reserved")
        count += length
    }

    private mutating func grow(_ needed: Int) {
        var newCapacity = capacity
        while newCapacity < needed { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        reserve(1).pointee = byte
        count += 1
    }

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        UnsafeMutableRawPointer(reserve(bytes.count)).copyMemory(from: source, byteCount: bytes.count)
        count += bytes.count
    }

    mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }

    /// Empties the buffer, keeping its memory.
    mutating func removeAll() { count = 0 }

    /// Calls `body` with the bytes written.
    func withBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try body(UnsafeRawBufferPointer(start: base, count: count))
    }

    /// The bytes written, valid until the buffer next changes or goes (for a reader that holds many buffers at
    /// once, which nested `withBytes` calls cannot express).
    var unsafeBytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    /// The bytes written, as an array.
    var array: [UInt8] { withBytes { Array($0) } }
}
