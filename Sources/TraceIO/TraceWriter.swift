import Foundation
import SpringCore

/// Serialises traces in the format of Reference §3 (`trace,t,x,y,phase[,intent][,pointer][,synthetic][,group]`).
public enum TraceWriter {
    /// CSV text for `traces`; the `intent` column appears when any trace has one, `pointer`
    /// when any sample is not pointer 0, `synthetic` (value 1) when `synthetic` is set, `group`
    /// when any trace has one.
    public static func csv(_ traces: [Trace], synthetic: Bool = false) -> String {
        var text = ""
        write(traces, synthetic: synthetic) { text += $0 }
        return text
    }

    /// Writes `traces` to `path` atomically, streaming (``csv(_:synthetic:)``'s bytes).
    public static func write(_ traces: [Trace], synthetic: Bool = false, to path: String) throws {
        try AtomicFile.write(to: path) { emit in
            try write(traces, synthetic: synthetic) { try emit(Data($0.utf8)) }
        }
    }

    /// The CSV in chunks of about 1 MB.
    static func write(_ traces: [Trace], synthetic: Bool, chunk: (String) throws -> Void) rethrows {
        let withIntent = traces.contains { $0.intent != nil }
        let withPointer = traces.contains { $0.samples.contains { $0.pointer != 0 } }
        let withGroup = traces.contains { $0.group != nil }
        var w = CSVWriter()
        w.header(["trace", "t", "x", "y", "phase"] + (withIntent ? ["intent"] : []) + (withPointer ? ["pointer"] : []) + (synthetic ? ["synthetic"] : [])
            + (withGroup ? ["group"] : []))
        for trace in traces {
            for s in trace.samples {
                var row: [CSVField] = [.text(trace.id), .number(s.t), .number(s.x), .number(s.y), .text(s.phase.rawValue)]
                if withIntent { row.append(.text(trace.intent?.rawValue ?? "")) }
                if withPointer { row.append(.integer(s.pointer)) }
                if synthetic { row.append(.integer(1)) }
                if withGroup { row.append(.text(trace.group ?? "")) }
                w.row(row)
                if w.text.utf8.count >= 1 << 20 { try chunk(w.take()) }
            }
        }
        try chunk(w.take())
    }
}
