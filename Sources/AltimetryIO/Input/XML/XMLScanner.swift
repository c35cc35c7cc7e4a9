/// A strict, allocation-free scanner of XML 1.0 documents in UTF-8, for the track formats (GPX, TCX).
///
/// It yields start tags (with their attributes as byte ranges), end tags and character data, and checks what
/// a reader of track files can trust: the bytes are UTF-8 without NUL, names are well formed, attribute values
/// are quoted, tags nest and match, there is one root element, entity and character references are valid.
/// Comments, processing instructions and a `<!DOCTYPE>` (whose internal subset is skipped, never expanded) are
/// passed over. Namespaces are not resolved: readers match local names (after the last `:`), so
/// `gpxtpx:atemp` and `ns3:atemp` are both `atemp`.
///
/// Attribute names are not checked for duplicates in general (that check is quadratic or needs a hash per
/// attribute); readers refuse a duplicate of an attribute they read. Every step is linear in the bytes: a tag
/// with 200,000 attributes costs what 200,000 small tags do.
import Foundation

struct XMLScanner {
    /// What the scanner found next.
    enum Event: Equatable {
        /// A start tag: its name's bytes, and whether it closes itself (`<a/>`); attributes in `attributes`.
        case start(name: Range<Int>, selfClosing: Bool)
        /// An end tag (also sent after a self-closing start tag), with its name's bytes.
        case end(name: Range<Int>)
        /// Character data in `range`, with references (`&amp;`) still in it when `hasReferences`.
        case text(Range<Int>, hasReferences: Bool)
    }

    /// A problem at a byte offset of the document.
    struct Failure: Error, Equatable {
        var offset: Int
        var message: String
    }

    let bytes: UnsafeRawBufferPointer
    private(set) var position = 0
    /// Where the markup or text of the last event starts.
    private(set) var eventStart = 0
    /// The current start tag's attributes: name and value byte ranges (values without quotes, references kept).
    var attributes: ArraySlice<(name: Range<Int>, value: Range<Int>)> { attributeStorage[..<attributeCount] }
    /// The number of elements open (the root's children are at depth 2 once their start tag is read).
    private(set) var depth = 0
    /// The attributes are the first `attributeCount` entries, and the open elements' names (innermost last) the
    /// first `depth` entries, of these arrays: a tag that ends or starts anew lowers a count rather than removing
    /// from an array (each array change checks the storage is unshared, a call a tag).
    private var attributeStorage: [(name: Range<Int>, value: Range<Int>)] = []
    private var attributeCount = 0
    private var openNames: [Range<Int>] = []
    private var sawRoot = false
    private var pendingEnd: Range<Int>?

    /// Starts at the first byte, after a UTF-8 byte-order mark if there is one.
    ///
    /// - Throws: `Failure` at the first byte that is not UTF-8 or is NUL.
    init(_ bytes: UnsafeRawBufferPointer) throws(Failure) {
        self.bytes = bytes
        if let bad = Self.firstInvalidUTF8(bytes) {
            throw Failure(
                offset: bad, message: "a byte sequence that is not UTF-8 (or a NUL byte); expected UTF-8 text")
        }
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { position = 3 }
    }

    /// The innermost open element's name, nil outside the root.
    private var innermost: Range<Int>? { depth > 0 ? openNames[depth - 1] : nil }

    /// The 1-based line and column (in bytes) of `offset`.
    func location(_ offset: Int) -> (line: Int, column: Int) {
        var line = 1, lineStart = 0
        for k in 0..<min(offset, bytes.count) where bytes[k] == 10 {
            line += 1
            lineStart = k + 1
        }
        return (line, offset - lineStart + 1)
    }

    /// The bytes of `range` as a string.
    func string(_ range: Range<Int>) -> String {
        String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// The failure at `offset` saying `message`.
    ///
    /// Failures are made out of line, here and in the two functions below, so the loops that find none do not
    /// carry the code (and the stack) that builds their messages.
    @inline(never)
    private func failure(_ offset: Int, _ message: StaticString) -> Failure {
        Failure(offset: offset, message: "\(message)")
    }

    /// The failure at `offset` saying `before`, the name in `name`, then `after`.
    @inline(never)
    private func failure(
        _ offset: Int, _ before: StaticString, _ name: Range<Int>, _ after: StaticString
    ) -> Failure {
        Failure(offset: offset, message: "\(before)\(string(name))\(after)")
    }

    /// The failure of an end tag naming `found` where the innermost open element is `expected`.
    @inline(never)
    private func mismatch(_ offset: Int, found: Range<Int>, expected: Range<Int>) -> Failure {
        Failure(
            offset: offset,
            message: "found </\(string(found))> where </\(string(expected))> was expected; expected well-formed XML")
    }

    /// Whether the local name (after the last `:`) of the name in `range` is `name`.
    ///
    /// The bytes are compared in words (`equal`), not one by one.
    @inline(__always)
    func localName(_ range: Range<Int>, is name: StaticString) -> Bool {
        let count = name.utf8CodeUnitCount
        guard range.count >= count, count > 0, let base = bytes.baseAddress else { return false }
        let start = range.upperBound &- count
        if start > range.lowerBound && bytes[start &- 1] != UInt8(ascii: ":") { return false }
        return Self.equal(base + start, UnsafeRawPointer(name.utf8Start), count: count)
    }

    /// Whether the name in `range` is exactly `name`.
    @inline(__always)
    func name(_ range: Range<Int>, is name: StaticString) -> Bool {
        range.count == name.utf8CodeUnitCount && localName(range, is: name)
    }

    /// The next event, or nil at the end of a complete document.
    ///
    /// - Throws: `Failure` for anything that is not well-formed XML.
    @inline(__always)
    mutating func next() throws(Failure) -> Event? {
        if let end = pendingEnd {
            pendingEnd = nil
            return .end(name: end)
        }
        let n = bytes.count
        guard let base = bytes.baseAddress else {
            throw Failure(offset: 0, message: "no root element; expected an XML document")
        }
        while position < n {
            if bytes[position] != UInt8(ascii: "<") {
                let start = position
                let (end, references) = Self.find(UInt8(ascii: "<"), orEnd: n, from: start, in: base, noting: 0)
                position = end
                if depth == 0 {
                    try checkOutsideRoot(start..<position)
                    continue
                }
                if references { try checkReferences(start..<position) }
                eventStart = start
                return .text(start..<position, hasReferences: references)
            }
            // Markup: a start or end tag unless the next byte is '!' or '?'.
            let second = position + 1 < n ? bytes[position + 1] : 0
            if second == UInt8(ascii: "/") { return try endTag() }
            if second != UInt8(ascii: "!") && second != UInt8(ascii: "?") { return try startTag() }
            if let text = try declaration() { return text }
        }
        try checkEnd()
        return nil
    }

    /// Reads the comment, processing instruction, CDATA section or DOCTYPE at `position` (a `<` followed by `!`
    /// or `?`): a CDATA section's text, nil for the others (passed over).
    ///
    /// Out of line, so the loop over tags and text (`next`) stays small enough to have its tags read inline.
    @inline(never)
    private mutating func declaration() throws(Failure) -> Event? {
        if starts(with: "<!--") {
            guard let end = find("-->", from: position + 4) else {
                throw Failure(offset: position, message: "an unclosed comment; expected -->")
            }
            position = end + 3
            return nil
        }
        if starts(with: "<?") {
            guard let end = find("?>", from: position + 2) else {
                throw Failure(offset: position, message: "an unclosed processing instruction; expected ?>")
            }
            position = end + 2
            return nil
        }
        if starts(with: "<![CDATA[") {
            guard depth > 0 else { throw Failure(offset: position, message: "CDATA outside the root element") }
            guard let end = find("]]>", from: position + 9) else {
                throw Failure(offset: position, message: "an unclosed CDATA section; expected ]]>")
            }
            let range = (position + 9)..<end
            eventStart = position
            position = end + 3
            return .text(range, hasReferences: false)
        }
        if starts(with: "<!DOCTYPE") {
            guard !sawRoot else { throw Failure(offset: position, message: "a DOCTYPE after the root element") }
            try skipDoctype()
            return nil
        }
        throw Failure(
            offset: position,
            message: "a malformed declaration; expected a comment, CDATA, a DOCTYPE or a processing instruction")
    }

    /// Checks that the document, at its end, is complete: the root element was read and closed.
    @inline(never)
    private func checkEnd() throws(Failure) {
        let n = bytes.count
        if let innermost = innermost {
            throw Failure(
                offset: n,
                message:
                    "the document ends inside <\(string(innermost))>; expected </\(string(innermost))> (the file looks truncated)"
            )
        }
        guard sawRoot else { throw Failure(offset: n, message: "no root element; expected an XML document") }
    }

    /// The failure at the first byte of `range` (text outside the root) that is not white space, if any.
    @inline(never)
    private func checkOutsideRoot(_ range: Range<Int>) throws(Failure) {
        for k in range where !Self.isSpace(bytes[k]) {
            throw Failure(offset: k, message: "text outside the root element; expected only markup there")
        }
    }

    /// Reads a start tag at `position` (a `<` followed by neither `/`, `!` nor `?`).
    ///
    /// The offset is kept in a local and stored once the tag is read, so the loop over the attributes works in
    /// registers.
    @inline(__always)
    private mutating func startTag() throws(Failure) -> Event {
        let tagStart = position
        let n = bytes.count
        // Only called with a byte at `position`, so the buffer has a base address.
        let base = bytes.baseAddress.unsafelyUnwrapped
        @inline(__always) func byte(_ offset: Int) -> UInt8 { base.load(fromByteOffset: offset, as: UInt8.self) }
        eventStart = tagStart
        if depth == 0 && sawRoot { throw failure(tagStart, "a second root element; expected one") }
        let name = try Self.name(at: tagStart &+ 1, to: n, in: base)
        var p = name.upperBound
        attributeCount = 0
        while true {
            let spaced = p < n && Self.isSpace(byte(p))
            p = Self.skipSpace(from: p, to: n, in: base)
            guard p < n else { throw failure(tagStart, "an unclosed tag <", name, "; expected >") }
            let c = byte(p)
            if c == UInt8(ascii: ">") {
                position = p &+ 1
                if depth < openNames.count { openNames[depth] = name } else { openNames.append(name) }
                depth += 1
                sawRoot = true
                return .start(name: name, selfClosing: false)
            }
            if c == UInt8(ascii: "/") {
                guard p &+ 1 < n, byte(p &+ 1) == UInt8(ascii: ">") else {
                    throw failure(p, "'/' inside <", name, ">; expected />")
                }
                position = p &+ 2
                sawRoot = true
                pendingEnd = name
                return .start(name: name, selfClosing: true)
            }
            guard spaced else { throw failure(p, "no space before an attribute of <", name, ">") }
            let attribute = try Self.name(at: p, to: n, in: base)
            p = Self.skipSpace(from: attribute.upperBound, to: n, in: base)
            guard p < n, byte(p) == UInt8(ascii: "=") else {
                throw failure(p, "attribute '", attribute, "' without a value; expected =\"...\"")
            }
            p = Self.skipSpace(from: p &+ 1, to: n, in: base)
            guard p < n, byte(p) == UInt8(ascii: "\"") || byte(p) == UInt8(ascii: "'") else {
                throw failure(p, "an unquoted value of attribute '", attribute, "'; expected quotes")
            }
            let quote = byte(p)
            let valueStart = p &+ 1
            // The closing quote, or a '<' (which a value may not hold) before it.
            let (stop, references) = Self.find(quote, orEnd: n, from: valueStart, in: base, noting: UInt8(ascii: "<"))
            p = stop
            guard p < n else { throw failure(valueStart - 1, "an unclosed attribute value; expected a closing quote") }
            if byte(p) == UInt8(ascii: "<") {
                throw failure(p, "'<' in the value of attribute '", attribute, "'; expected &lt;")
            }
            if references { try checkReferences(valueStart..<p) }
            if attributeCount < attributeStorage.count {
                attributeStorage[attributeCount] = (attribute, valueStart..<p)
            } else {
                attributeStorage.append((attribute, valueStart..<p))
            }
            attributeCount += 1
            p &+= 1
        }
    }

    /// Reads an end tag at `position` (`</`).
    @inline(__always)
    private mutating func endTag() throws(Failure) -> Event {
        let tagStart = position
        let n = bytes.count
        // Only called with two bytes at `position`, so the buffer has a base address.
        let base = bytes.baseAddress.unsafelyUnwrapped
        eventStart = tagStart
        var p = tagStart &+ 2
        // The end tag must name the innermost open element: its bytes are compared with that name's, then the
        // byte after them must end the name. Only what does not match is read as a name, for the message.
        var name: Range<Int>
        var matches = false
        if let innermost = innermost, p &+ innermost.count < n,
            Self.equal(base + innermost.lowerBound, base + p, count: innermost.count),
            !Self.isNameByte(base.load(fromByteOffset: p &+ innermost.count, as: UInt8.self))
        {
            name = p..<(p &+ innermost.count)
            matches = true
        } else {
            name = try Self.name(at: p, to: n, in: base)
        }
        p = Self.skipSpace(from: name.upperBound, to: n, in: base)
        guard p < n, base.load(fromByteOffset: p, as: UInt8.self) == UInt8(ascii: ">") else {
            throw failure(tagStart, "an unclosed end tag </", name, "; expected >")
        }
        guard let innermost = innermost else { throw failure(tagStart, "</", name, "> without a start tag") }
        // A name read apart (not the fast match above) can still be the same name: a name byte cut it short.
        guard
            matches
                || innermost.count == name.count
                    && Self.equal(base + innermost.lowerBound, base + name.lowerBound, count: name.count)
        else { throw mismatch(tagStart, found: name, expected: innermost) }
        position = p &+ 1
        depth -= 1
        return .end(name: name)
    }

    /// The name that starts at `start`: a name-start byte, then the bytes that may continue a name.
    @inline(__always)
    private static func name(at start: Int, to n: Int, in base: UnsafeRawPointer) throws(Failure) -> Range<Int> {
        guard start < n, isNameStart(base.load(fromByteOffset: start, as: UInt8.self)) else {
            throw Failure(offset: start, message: "a malformed name; expected a letter, '_' or ':' to start it")
        }
        return start..<nameEnd(from: start &+ 1, to: n, in: base)
    }

    /// The offset of the first byte at or after `start` that is not XML white space, or `n`.
    @inline(__always)
    private static func skipSpace(from start: Int, to n: Int, in base: UnsafeRawPointer) -> Int {
        var p = start
        while p < n && isSpace(base.load(fromByteOffset: p, as: UInt8.self)) { p &+= 1 }
        return p
    }

    private mutating func skipDoctype() throws(Failure) {
        let start = position
        var depth = 0
        var quote: UInt8 = 0
        position += 9
        while position < bytes.count {
            let c = bytes[position]
            position += 1
            if quote != 0 {
                if c == quote { quote = 0 }
            } else if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
                quote = c
            } else if c == UInt8(ascii: "[") {
                depth += 1
            } else if c == UInt8(ascii: "]") {
                depth -= 1
            } else if c == UInt8(ascii: ">") && depth <= 0 {
                return
            }
        }
        throw Failure(offset: start, message: "an unclosed DOCTYPE; expected >")
    }

    private func starts(with prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard position + count <= bytes.count else { return false }
        let p = prefix.utf8Start
        for k in 0..<count where bytes[position + k] != p[k] { return false }
        return true
    }

    private func find(_ needle: StaticString, from start: Int) -> Int? {
        let count = needle.utf8CodeUnitCount
        let p = needle.utf8Start
        var i = start
        while i + count <= bytes.count {
            if bytes[i] == p[0] {
                var k = 1
                while k < count && bytes[i + k] == p[k] { k += 1 }
                if k == count { return i }
            }
            i += 1
        }
        return nil
    }

    /// Checks that every `&` in `range` starts a known entity or a character reference of a valid character.
    private func checkReferences(_ range: Range<Int>) throws(Failure) {
        var i = range.lowerBound
        while i < range.upperBound {
            if bytes[i] == UInt8(ascii: "&") {
                guard let (_, length) = Self.reference(bytes, at: i, end: range.upperBound) else {
                    throw Failure(
                        offset: i, message: "a malformed reference; expected &amp; &lt; &gt; &quot; &apos; or &#N;")
                }
                i += length
            } else {
                i += 1
            }
        }
    }

    /// The character a reference at `i` stands for and the reference's length in bytes, or nil.
    static func reference(_ bytes: UnsafeRawBufferPointer, at i: Int, end: Int) -> (Unicode.Scalar, Int)? {
        var j = i + 1
        while j < end && j - i <= 12 && bytes[j] != UInt8(ascii: ";") { j += 1 }
        guard j < end, bytes[j] == UInt8(ascii: ";") else { return nil }
        let body = Array(bytes[(i + 1)..<j])
        let length = j - i + 1
        switch body {
        case Array("amp".utf8): return ("&", length)
        case Array("lt".utf8): return ("<", length)
        case Array("gt".utf8): return (">", length)
        case Array("quot".utf8): return ("\"", length)
        case Array("apos".utf8): return ("'", length)
        default: break
        }
        guard body.count >= 2, body[0] == UInt8(ascii: "#") else { return nil }
        let hex = body[1] == UInt8(ascii: "x")
        let digits = body[(hex ? 2 : 1)...]
        guard !digits.isEmpty, let value = UInt32(String(decoding: digits, as: UTF8.self), radix: hex ? 16 : 10),
            let scalar = Unicode.Scalar(value), value != 0
        else { return nil }
        return (scalar, length)
    }

    /// Appends the text of `range` with its references replaced by their characters.
    ///
    /// - Parameter hasReferences: false when the scanner said the text has no reference (`Event.text`), which
    ///   spares looking for one.
    func appendDecoded(_ range: Range<Int>, hasReferences: Bool = true, to out: inout [UInt8]) {
        // Text without a reference is appended in one copy.
        if let base = bytes.baseAddress, !range.isEmpty,
            !hasReferences || memchr(base + range.lowerBound, Int32(UInt8(ascii: "&")), range.count) == nil
        {
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[range]).assumingMemoryBound(to: UInt8.self))
            return
        }
        var i = range.lowerBound
        while i < range.upperBound {
            if bytes[i] == UInt8(ascii: "&"), let (scalar, length) = Self.reference(bytes, at: i, end: range.upperBound)
            {
                out.append(contentsOf: Array(String(Character(scalar)).utf8))
                i += length
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
    }

    /// The offset of the first `target` or `stop` byte (`stop` 0: none) at or after `start` (`end` if neither comes
    /// before it), and whether an `&` comes before that offset.
    ///
    /// Eight bytes at a time: a byte of the word w equal to c is a zero byte of x = w ⊕ c·0x0101…01, and
    /// (x − 0x0101…01) & ~x & 0x8080…80 sets the high bit of every zero byte of x (and can set it only in bytes
    /// above a zero byte, never below the lowest one), so the lowest set bit locates the first match. This is
    /// the loop over every byte of text and of attribute values.
    @inline(__always)
    static func find(
        _ target: UInt8, orEnd end: Int, from start: Int, in base: UnsafeRawPointer, noting stop: UInt8
    ) -> (offset: Int, hasReferences: Bool) {
        @inline(__always) func zeroBytes(_ x: UInt64) -> UInt64 {
            (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080
        }
        let targets = UInt64(target) &* 0x0101_0101_0101_0101
        let stops = UInt64(stop) &* 0x0101_0101_0101_0101
        let ampersands = UInt64(UInt8(ascii: "&")) &* 0x0101_0101_0101_0101
        var i = start
        var references = false
        while end &- i >= 8 {
            let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            var found = zeroBytes(word ^ targets)
            if stop != 0 { found |= zeroBytes(word ^ stops) }
            let amp = zeroBytes(word ^ ampersands)
            if found != 0 {
                let bit = found.trailingZeroBitCount
                references = references || amp & ((1 << UInt64(bit)) &- 1) != 0
                return (i &+ bit / 8, references)
            }
            references = references || amp != 0
            i &+= 8
        }
        while i < end {
            let c = base.load(fromByteOffset: i, as: UInt8.self)
            if c == target || (c == stop && stop != 0) { return (i, references) }
            if c == UInt8(ascii: "&") { references = true }
            i &+= 1
        }
        return (end, references)
    }

    /// Whether the `count` bytes at `a` and at `b` are equal (both ranges inside `bytes`).
    @inline(__always)
    static func equal(_ bytes: UnsafeRawBufferPointer, _ a: Int, _ b: Int, count: Int) -> Bool {
        guard count > 0, let base = bytes.baseAddress else { return true }
        return equal(base + a, base + b, count: count)
    }

    /// Whether the `count` bytes at `a` and at `b` are equal (both readable for `count` bytes).
    ///
    /// Eight bytes at a time, and the last bytes as one word that overlaps the ones before (a name of 5 bytes is
    /// two 4-byte loads at 0 and 1), so no name costs a loop over its bytes and no load leaves the `count` bytes.
    @inline(__always)
    static func equal(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, count: Int) -> Bool {
        @inline(__always) func same<T: FixedWidthInteger>(_ offset: Int, _: T.Type) -> Bool {
            a.loadUnaligned(fromByteOffset: offset, as: T.self) == b.loadUnaligned(fromByteOffset: offset, as: T.self)
        }
        switch count {
        case ...0: return true
        case 1: return same(0, UInt8.self)
        case 2...3: return same(0, UInt16.self) && same(count &- 2, UInt16.self)
        case 4...7: return same(0, UInt32.self) && same(count &- 4, UInt32.self)
        default:
            var k = 0
            while count &- k > 8 {
                if !same(k, UInt64.self) { return false }
                k &+= 8
            }
            return same(count &- 8, UInt64.self)
        }
    }

    static func isSpace(_ c: UInt8) -> Bool { c == 32 || c == 10 || c == 9 || c == 13 }

    /// A byte that may start a name: an ASCII letter, `_`, `:`, or any byte of a non-ASCII character.
    static func isNameStart(_ c: UInt8) -> Bool {
        (c | 0x20) >= UInt8(ascii: "a") && (c | 0x20) <= UInt8(ascii: "z") || c == UInt8(ascii: "_")
            || c == UInt8(ascii: ":") || c >= 0x80
    }

    static func isNameRest(_ c: UInt8) -> Bool {
        (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || c == UInt8(ascii: "-") || c == UInt8(ascii: ".")
    }

    /// The ASCII bytes that may continue a name (`isNameStart` or `isNameRest`) as a bit set: bit c of word
    /// c / 64 (`nameBytesLow` for 0-63, `nameBytesHigh` for 64-127); computed from the two tests above in
    /// `XMLScannerTests`.
    static let nameBytesLow: UInt64 = 0x07FF_6000_0000_0000
    static let nameBytesHigh: UInt64 = 0x07FF_FFFE_87FF_FFFE

    /// Whether `c` may continue a name: `isNameStart(c) || isNameRest(c)` in a shift and a mask, for the loop
    /// over every name's bytes.
    @inline(__always)
    static func isNameByte(_ c: UInt8) -> Bool {
        c >= 0x80 || ((c < 64 ? nameBytesLow : nameBytesHigh) >> UInt64(c & 63)) & 1 != 0
    }

    /// The offset of the first byte at or after `start` that cannot continue a name (`isNameByte`), or `end`.
    ///
    /// Eight bytes at a time (`nonNameBytes`), then byte by byte for the last seven of the document.
    @inline(__always)
    static func nameEnd(from start: Int, to end: Int, in base: UnsafeRawPointer) -> Int {
        var i = start
        while end &- i >= 8 {
            let stops = nonNameBytes(UInt64(littleEndian: base.loadUnaligned(fromByteOffset: i, as: UInt64.self)))
            if stops != 0 { return i &+ stops.trailingZeroBitCount / 8 }
            i &+= 8
        }
        while i < end && isNameByte(base.load(fromByteOffset: i, as: UInt8.self)) { i &+= 1 }
        return i
    }

    /// The high bit of every byte of the word `w` that cannot continue a name, exactly (`isNameByte` per byte).
    ///
    /// A byte of 0x80 or more continues a name (it is part of a non-ASCII character). For the others, x, its low
    /// seven bits, is at least c exactly when x + (0x80 − c) has its high bit set; that sum is at most
    /// 0x7F + 0x7F, so no carry ever crosses into the next byte and every byte's answer is its own. A name byte
    /// is a letter (x | 0x20 within a-z), a digit or ':' (0x30-0x3A), '-' or '.' (0x2D-0x2E), or '_' (x ⊕ 0x5F
    /// is zero: not at least 1).
    @inline(__always)
    static func nonNameBytes(_ w: UInt64) -> UInt64 {
        let high: UInt64 = 0x8080_8080_8080_8080
        let ones: UInt64 = 0x0101_0101_0101_0101
        @inline(__always) func atLeast(_ c: UInt64, _ x: UInt64) -> UInt64 { (x &+ (0x80 &- c) &* ones) & high }
        let x = w & ~high
        let folded = x | 0x2020_2020_2020_2020
        let letter = atLeast(0x61, folded) & ~atLeast(0x7B, folded)
        let digitOrColon = atLeast(0x30, x) & ~atLeast(0x3B, x)
        let dashOrDot = atLeast(0x2D, x) & ~atLeast(0x2F, x)
        let underscore = ~atLeast(1, x ^ 0x5F5F_5F5F_5F5F_5F5F) & high
        return ~(letter | digitOrColon | dashOrDot | underscore | w) & high
    }

    /// The offset of the first byte that does not start valid UTF-8 (overlong forms, surrogates and values past
    /// U+10FFFF included), or of a NUL; nil if there is none.
    static func firstInvalidUTF8(_ b: UnsafeRawBufferPointer) -> Int? {
        let n = b.count
        var i = 0
        while i < n {
            // Thirty-two ASCII bytes without a NUL at a time: no high bit set in the four words or'ed, and no zero
            // byte in any (the classic (x − 0x01…01) & ~x & 0x80…80 test, or'ed over the words).
            while n - i >= 32 {
                let w0 = b.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                let w1 = b.loadUnaligned(fromByteOffset: i + 8, as: UInt64.self)
                let w2 = b.loadUnaligned(fromByteOffset: i + 16, as: UInt64.self)
                let w3 = b.loadUnaligned(fromByteOffset: i + 24, as: UInt64.self)
                let ones: UInt64 = 0x0101_0101_0101_0101
                let zero = (w0 &- ones) & ~w0 | (w1 &- ones) & ~w1 | (w2 &- ones) & ~w2 | (w3 &- ones) & ~w3
                guard (w0 | w1 | w2 | w3 | zero) & 0x8080_8080_8080_8080 == 0 else { break }
                i += 32
            }
            guard i < n else { break }
            // Then eight.
            if i + 8 <= n {
                let word = b.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                if word & 0x8080_8080_8080_8080 == 0
                    && (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080 == 0
                {
                    i += 8
                    continue
                }
            }
            let c = b[i]
            if c < 0x80 {
                if c == 0 { return i }
                i += 1
                continue
            }
            let length: Int, minimum: UInt32
            var value: UInt32
            switch c {
            case 0xC2...0xDF: (length, minimum, value) = (2, 0x80, UInt32(c & 0x1F))
            case 0xE0...0xEF: (length, minimum, value) = (3, 0x800, UInt32(c & 0x0F))
            case 0xF0...0xF4: (length, minimum, value) = (4, 0x10000, UInt32(c & 0x07))
            default: return i
            }
            guard i + length <= n else { return i }
            for k in 1..<length {
                let d = b[i + k]
                guard d & 0xC0 == 0x80 else { return i }
                value = value << 6 | UInt32(d & 0x3F)
            }
            if value < minimum || value > 0x10FFFF || (0xD800...0xDFFF).contains(value) { return i }
            i += length
        }
        return nil
    }
}
