import SpringCore
import SpringTune

/// Writes `Encodable` values as one line of JSON (Reference §10.16): the studio's answers are
/// encoded from their contract types with the project's formats, so every number is
/// ``NumberFormat/cell(_:)`` (the shortest text that reads back as the same double; null when
/// not finite), every string is quoted as ``JSONValue`` quotes it, and every object keeps its
/// keys in the order the type encodes them. Foundation's `JSONEncoder` would write other bytes
/// (`2.0`, its own key order). The text is written as the value encodes, with no tree in
/// between (a replay answer holds a hundred thousand numbers).
///
/// An optional field is always written, `null` when nil (`encodeIfPresent` writes null): a
/// type that omits a field says so in its own `encode(to:)`.
enum JSONTextEncoder {
    static func encode(_ value: some Encodable) throws -> String {
        let root = Level(out: Output(), closer: "")
        try Slot(level: root).encode(value)
        root.close()
        return root.out.text
    }

    /// The text written so far. Only the encoding that made it writes to it, one append at a
    /// time, so the run-time exclusivity check of a class's property (a tenth of a replay
    /// answer's time) is off.
    final class Output { @exclusivity(unchecked) var text = "" }

    /// An open object or array (or the root): its closing bracket, how many members it has,
    /// and the container opened in its last member, closed before the next member or itself.
    final class Level {
        let out: Output
        let closer: String
        var count = 0
        var child: Level?

        init(out: Output, closer: String) { self.out = out; self.closer = closer }

        /// Starts a member: closes the last member's container and writes the separator.
        func next() {
            child?.close()
            child = nil
            if count > 0 { out.text += "," }
            count += 1
        }

        func close() {
            child?.close()
            child = nil
            out.text += closer
        }

        /// Opens a container in the current member.
        func open(_ opener: String, _ closer: String) -> Level {
            out.text += opener
            let level = Level(out: out, closer: closer)
            child = level
            return level
        }
    }

    /// Where one value goes: in a member of `level` already started.
    struct Slot: Encoder, SingleValueEncodingContainer {
        let level: Level
        /// Not tracked: nothing here fails, so no error names a path.
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy _: Key.Type) -> KeyedEncodingContainer<Key> {
            KeyedEncodingContainer(Keyed<Key>(level: level.child ?? level.open("{", "}")))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            Unkeyed(level: level.child ?? level.open("[", "]"))
        }

        func singleValueContainer() -> any SingleValueEncodingContainer { self }

        func write(_ text: String) { level.out.text += text }
        func encodeNil() { write("null") }
        func encode(_ value: Bool) { write(value ? "true" : "false") }
        func encode(_ value: String) { write(JSONValue.string(value).compact()) }
        func encode(_ value: Double) { write(value.isFinite ? NumberFormat.cell(value) : "null") }
        func encode(_ value: Float) { encode(Double(value)) }
        func encode(_ value: Int) { encode(Double(value)) }
        func encode(_ value: Int8) { encode(Double(value)) }
        func encode(_ value: Int16) { encode(Double(value)) }
        func encode(_ value: Int32) { encode(Double(value)) }
        func encode(_ value: Int64) { encode(Double(value)) }
        func encode(_ value: UInt) { encode(Double(value)) }
        func encode(_ value: UInt8) { encode(Double(value)) }
        func encode(_ value: UInt16) { encode(Double(value)) }
        func encode(_ value: UInt32) { encode(Double(value)) }
        func encode(_ value: UInt64) { encode(Double(value)) }
        /// A number, a list of numbers or a list of such lists is written at once (a replay's
        /// frames are lists of numbers: through `Codable`'s containers they took most of its
        /// answer's time).
        func encode<T: Encodable>(_ value: T) throws {
            switch value {
            case let d as Double: encode(d)
            case let numbers as [Double]: list(numbers) { $0.encode($1) }
            case let rows as [[Double]]: list(rows) { slot, row in slot.list(row) { $0.encode($1) } }
            default: try value.encode(to: self)
            }
        }

        /// `items` as a JSON array, each written by `write` in a slot of its own.
        func list<E>(_ items: [E], _ write: (Slot, E) -> Void) {
            let array = level.open("[", "]")
            for item in items {
                array.next()
                write(Slot(level: array), item)
            }
            array.close()
            level.child = nil
        }
    }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let level: Level
        var codingPath: [any CodingKey] { [] }

        /// Starts the member `key` and gives the slot of its value.
        func slot(_ key: Key) -> Slot {
            level.next()
            level.out.text += JSONValue.string(key.stringValue).compact() + ":"
            return Slot(level: level)
        }

        mutating func encodeNil(forKey key: Key) { slot(key).encodeNil() }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try slot(key).encode(value) }
        /// Writes null for nil: the studio's answers keep every field (see the type's comment).
        mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws { try put(value, key) }
        mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try put(value, key) }
        mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { try put(value, key) }
        mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { try put(value, key) }
        mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try put(value, key) }

        func put(_ value: (any Encodable)?, _ key: Key) throws {
            if let value { try slot(key).encode(value) } else { slot(key).encodeNil() }
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            slot(key).container(keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { slot(key).unkeyedContainer() }
        mutating func superEncoder() -> any Encoder { slot(Key(stringValue: "super")!) }
        mutating func superEncoder(forKey key: Key) -> any Encoder { slot(key) }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let level: Level
        var codingPath: [any CodingKey] { [] }
        var count: Int { level.count }

        /// Starts the next element and gives its slot.
        func slot() -> Slot {
            level.next()
            return Slot(level: level)
        }

        mutating func encodeNil() { slot().encodeNil() }
        mutating func encode<T: Encodable>(_ value: T) throws { try slot().encode(value) }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            slot().container(keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { slot().unkeyedContainer() }
        mutating func superEncoder() -> any Encoder { slot() }
    }
}
