@preconcurrency import Glibc   // stdout, a C global
import Foundation

/// The two output streams, written so that neither can crash springtune (Reference §11):
/// stderr is best effort (a full, closed or broken stderr loses the note, never the process:
/// `FileHandle.write` trapped on such a stream); stdout is the command's result, so a failed write
/// there is an I/O error (exit 74) reported once the command ends.
public enum StandardStreams {
    /// Writes `text` to stderr with `write(2)`, retrying on EINTR and short writes, and gives up
    /// silently on any other error.
    public static func error(_ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let n = bytes.withUnsafeBytes { Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count) }
            if n > 0 { bytes = bytes.dropFirst(n) } else if n < 0 && errno == EINTR { continue } else { return }
        }
    }

    /// Makes a write to a closed pipe an error (EPIPE) instead of a SIGPIPE that kills the
    /// process: stdout then fails like a full disk (exit 74) and stderr stays best effort.
    public static func install() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// Flushes stdout (where `print` writes) and returns the error when any write to it failed
    /// since the start: nil when everything reached the stream.
    public static func flushOutput() -> ToolError? {
        errno = 0
        let out = stdout
        let flushed = fflush(out) == 0
        guard !flushed || ferror(out) != 0 else { return nil }
        let reason = !flushed && errno != 0 ? String(cString: strerror(errno)) : "write error"
        return ToolError(.ioError, "cannot write the output to stdout: \(reason)")
    }
}
