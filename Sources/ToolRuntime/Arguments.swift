#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The command line as the process got it, before Swift's `CommandLine.arguments` repairs it.
public enum Arguments {
    /// The first argument (1 = the first after the program) whose bytes are not UTF-8, with those
    /// bytes shown (printable ASCII as text, any other byte as `\xNN`); nil when every one is UTF-8.
    /// Swift turns such bytes into U+FFFD, so a file named by them would be looked up, or
    /// written, under another name: springtune refuses them instead (exit 64, Reference §11).
    public static func firstNotUTF8() -> (index: Int, shown: String)? {
        guard CommandLine.argc > 1 else { return nil }
        for i in 1..<Int(CommandLine.argc) {
            guard let raw = CommandLine.unsafeArgv[i], String(validatingCString: raw) == nil else { continue }
            return (i, shown(UnsafeBufferPointer(start: UnsafeRawPointer(raw).assumingMemoryBound(to: UInt8.self), count: strlen(raw))))
        }
        return nil
    }

    /// Printable ASCII as it is, every other byte as `\xNN` (cut by ``Echo``).
    static func shown(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        Echo.cut(bytes.prefix(Echo.limit).map { b in (0x20..<0x7F).contains(b) ? String(UnicodeScalar(b)) : "\\x" + String(b, radix: 16, uppercase: true).leftPadded }.joined())
    }
}

private extension String {
    /// Two hex digits.
    var leftPadded: String { count < 2 ? "0" + self : self }
}
