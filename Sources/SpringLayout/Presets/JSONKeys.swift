import Foundation

/// Checks a JSON document for what `JSONDecoder` lets through or reports without a place: a key
/// given twice in one object (the decoder keeps one silently), and syntax errors, each with
/// its line and column (1-based).
enum JSONKeys {
    static func check(_ data: Data) throws(PresetError) {
        let bytes = [UInt8](data)
        var line = 1, column = 0, i = 0
        // Per open container: nil for an array, else the keys seen so far.
        var stack: [Set<String>?] = []
        var expectKey = false
        func fail(_ message: String) -> PresetError { PresetError(path: "", message: "line \(line), column \(column): \(message)") }
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "\n") { line += 1; column = 0; i += 1; continue }
            column += 1
            switch b {
            case UInt8(ascii: "{"): stack.append([]); expectKey = true
            case UInt8(ascii: "["): stack.append(nil); expectKey = false
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                guard !stack.isEmpty else { throw fail("unbalanced '\(Character(UnicodeScalar(b)))'") }
                stack.removeLast()
                expectKey = false
            case UInt8(ascii: ","): expectKey = stack.last.map { $0 != nil } ?? false
            case UInt8(ascii: "\""):
                let startLine = line, startColumn = column
                var j = i + 1
                var raw: [UInt8] = []
                while j < bytes.count, bytes[j] != UInt8(ascii: "\"") {
                    if bytes[j] == UInt8(ascii: "\\"), j + 1 < bytes.count { raw.append(bytes[j]); j += 1 }
                    if bytes[j] == UInt8(ascii: "\n") { throw PresetError(path: "", message: "line \(startLine), column \(startColumn): line break inside a string") }
                    raw.append(bytes[j])
                    j += 1
                }
                guard j < bytes.count else { throw PresetError(path: "", message: "line \(startLine), column \(startColumn): unterminated string") }
                if expectKey, var keys = stack.last ?? nil {
                    let key = String(decoding: raw, as: UTF8.self)
                    if !keys.insert(key).inserted {
                        throw PresetError(path: "", message: "line \(startLine), column \(startColumn): key \"\(key.prefix(60))\" appears twice in one object")
                    }
                    stack[stack.count - 1] = keys
                    expectKey = false
                }
                column += j - i
                i = j
            default: break
            }
            i += 1
        }
        if !stack.isEmpty { throw fail("the document ends inside an object or array") }
    }
}
