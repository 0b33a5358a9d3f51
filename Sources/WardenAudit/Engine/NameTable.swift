/// The distinct spellings of one file's identifiers and keywords, each stored once.
///
/// The lexer gives every identifier and keyword token the number of its spelling here (``Token/name``): a name
/// written a thousand times in a file is hashed once (with a cheap FNV-1a over its bytes, not a seeded SipHash)
/// and allocated once, and the rules compare and cache names as integers.
package struct NameTable: Sendable {
    /// The spellings, by number.
    package private(set) var strings: [String] = []
    /// The spellings' bytes back to back; spelling `n` is `bytes[starts[n]..<starts[n + 1]]`.
    private var bytes: [UInt8] = []
    private var starts: [Int32] = [0]
    private var hashes: [UInt32] = []
    /// Open addressing over spelling numbers (-1: empty), a power of two at most half full.
    private var slots = [Int32](repeating: -1, count: 256)

    package init() {}

    /// The number of distinct spellings.
    package var count: Int { strings.count }

    /// The spelling numbered `name`.
    package subscript(name: Int32) -> String { strings[Int(name)] }

    /// The number of `spelling`, if the file has it.
    package func name(of spelling: String) -> Int32? {
        var spelling = spelling
        return spelling.withUTF8 { find(UnsafeRawBufferPointer($0), hash: Self.hash($0)).found }
    }

    /// The number of `word`, adding it first if it is new.
    mutating func intern(_ word: UnsafeBufferPointer<UInt8>) -> (name: Int32, isNew: Bool) {
        let hash = Self.hash(word)
        let (found, slot) = find(UnsafeRawBufferPointer(word), hash: hash)
        if let found { return (found, false) }
        let name = Int32(strings.count)
        strings.append(String(decoding: word, as: UTF8.self))
        bytes.append(contentsOf: word)
        starts.append(Int32(bytes.count))
        hashes.append(hash)
        slots[slot] = name
        if strings.count * 2 > slots.count { grow() }
        return (name, true)
    }

    /// The spelling equal to `word` (or nil) and the slot it is in (or the empty slot it would take).
    private func find(_ word: UnsafeRawBufferPointer, hash: UInt32) -> (found: Int32?, slot: Int) {
        let mask = slots.count - 1
        var slot = Int(hash) & mask
        while true {
            let name = slots[slot]
            if name < 0 { return (nil, slot) }
            if hashes[Int(name)] == hash {
                let start = Int(starts[Int(name)])
                let end = Int(starts[Int(name) + 1])
                if end - start == word.count {
                    let equal = bytes.withUnsafeBufferPointer { stored in
                        var offset = 0
                        while offset < word.count, stored[start + offset] == word[offset] { offset += 1 }
                        return offset == word.count
                    }
                    if equal { return (name, slot) }
                }
            }
            slot = (slot + 1) & mask
        }
    }

    private mutating func grow() {
        var larger = [Int32](repeating: -1, count: slots.count * 2)
        let mask = larger.count - 1
        for name in strings.indices {
            var slot = Int(hashes[name]) & mask
            while larger[slot] >= 0 { slot = (slot + 1) & mask }
            larger[slot] = Int32(name)
        }
        slots = larger
    }

    /// 32-bit FNV-1a.
    @inline(__always) static func hash(_ word: UnsafeBufferPointer<UInt8>) -> UInt32 {
        var hash: UInt32 = 0x811C_9DC5
        for byte in word { hash = (hash ^ UInt32(byte)) &* 0x0100_0193 }
        return hash
    }
}
