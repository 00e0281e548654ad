/// A failure the command line reports as one line on stderr, with a sysexits code.
public struct ToolError: Error, CustomStringConvertible, Equatable, Sendable {
    /// sysexits(3) codes used by springtune.
    public enum Code: Int32, Sendable {
        case usage = 64, dataError = 65, noInput = 66, unavailable = 69, software = 70, cantCreate = 73, ioError = 74, tempFailure = 75
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// A data error at a position in a file: `FILE:LINE:COL: message`.
    public static func data(_ file: String, line: Int, column: Int, _ message: String) -> ToolError {
        ToolError(.dataError, "\(file):\(line):\(column): \(message)")
    }

    public var description: String { message }
}
