import SpringTune

/// Encodes `Encodable` values into ``JSONValue`` (Reference §10.16): the studio's answers are
/// encoded from their contract types and written by ``JSONValue/compact()``, so every number is
/// ``NumberFormat/cell(_:)`` (the shortest text that reads back as the same double; null when
/// not finite) and every object keeps its keys in the order the type encodes them. Foundation's
/// `JSONEncoder` would write other bytes (`1.0`, other key orders).
///
/// An optional field is always written, `null` when nil (`encodeIfPresent` writes null): a
/// type that omits a field says so in its own `encode(to:)`.
enum JSONValueEncoder {
    static func encode(_ value: some Encodable) throws -> JSONValue {
        let node = Node()
        try value.encode(to: ValueEncoder(node: node, codingPath: []))
        return node.value
    }

    /// One value being built: a leaf, or an object or array whose members are nodes themselves
    /// (a nested container keeps writing into its node after it is returned).
    final class Node {
        enum Content { case leaf(JSONValue), object([(String, Node)]), array([Node]) }
        var content = Content.leaf(.null)

        var value: JSONValue {
            switch content {
            case let .leaf(v): v
            case let .object(pairs): .object(pairs.map { ($0.0, $0.1.value) })
            case let .array(items): .array(items.map(\.value))
            }
        }

        /// The member `key` of this object (made an object if it is not yet one), new at the end.
        func member(_ key: String) -> Node {
            let child = Node()
            if case var .object(pairs) = content {
                pairs.removeAll { $0.0 == key }
                pairs.append((key, child))
                content = .object(pairs)
            } else {
                content = .object([(key, child)])
            }
            return child
        }

        /// A new last element of this array (made an array if it is not yet one).
        func element() -> Node {
            let child = Node()
            if case var .array(items) = content { items.append(child); content = .array(items) } else { content = .array([child]) }
            return child
        }

        var count: Int { if case let .array(items) = content { items.count } else { 0 } }
    }

    struct ValueEncoder: Encoder, SingleValueEncodingContainer {
        let node: Node
        var codingPath: [any CodingKey]
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy _: Key.Type) -> KeyedEncodingContainer<Key> {
            if case .leaf = node.content { node.content = .object([]) }
            return KeyedEncodingContainer(Keyed<Key>(node: node, codingPath: codingPath))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            if case .leaf = node.content { node.content = .array([]) }
            return Unkeyed(node: node, codingPath: codingPath)
        }

        func singleValueContainer() -> any SingleValueEncodingContainer { self }

        func encodeNil() { node.content = .leaf(.null) }
        func encode(_ value: Bool) { node.content = .leaf(.bool(value)) }
        func encode(_ value: String) { node.content = .leaf(.string(value)) }
        func encode(_ value: Double) { node.content = .leaf(.number(value)) }
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
        func encode<T: Encodable>(_ value: T) throws { try value.encode(to: self) }
    }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let node: Node
        var codingPath: [any CodingKey]

        func encoder(_ key: Key) -> ValueEncoder { ValueEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key]) }

        mutating func encodeNil(forKey key: Key) { encoder(key).encodeNil() }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try encoder(key).encode(value) }
        /// Writes null for nil: the studio's answers keep every field (see the type's comment).
        mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws { try put(value, key) }
        mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try put(value, key) }
        mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { try put(value, key) }
        mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { try put(value, key) }
        mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try put(value, key) }

        func put(_ value: (any Encodable)?, _ key: Key) throws {
            if let value { try encoder(key).encode(value) } else { encoder(key).encodeNil() }
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            encoder(key).container(keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { encoder(key).unkeyedContainer() }
        mutating func superEncoder() -> any Encoder { ValueEncoder(node: node.member("super"), codingPath: codingPath) }
        mutating func superEncoder(forKey key: Key) -> any Encoder { encoder(key) }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let node: Node
        var codingPath: [any CodingKey]
        var count: Int { node.count }

        func encoder() -> ValueEncoder { ValueEncoder(node: node.element(), codingPath: codingPath) }

        mutating func encodeNil() { encoder().encodeNil() }
        mutating func encode<T: Encodable>(_ value: T) throws { try encoder().encode(value) }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            encoder().container(keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { encoder().unkeyedContainer() }
        mutating func superEncoder() -> any Encoder { encoder() }
    }
}
