import SpringCore

/// How an importer turns finger contacts into traces (Reference §3).
public enum ContactGrouping: String, CaseIterable, Sendable {
    /// One one-finger trace per contact, named `<stem>-cNNN` in the order given, times from its `began`.
    case contacts
    /// Contacts that overlap in time (transitively) become one multi-pointer trace, named
    /// `<stem>-gNNN` in order of their first touch, pointers numbered 0, 1, … in the order they
    /// began, times from the gesture's first `began`. A contact alone stays a one-finger trace.
    case gestures

    /// Traces from contacts (evdev imports give them in touch-down order, csv imports in file
    /// order) with times on the recording's clock.
    public func traces(_ contacts: [[TouchSample]], stem: String) -> [Trace] {
        let contacts = contacts.filter { !$0.isEmpty }
        switch self {
        case .contacts:
            return contacts.enumerated().map { n, samples in
                let start = samples[0].t
                return Trace(id: Self.name(stem, "c", n), samples: samples.map { var s = $0; s.t -= start; s.pointer = 0; return s })
            }
        case .gestures:
            // Stable by start time: contacts that begin together keep the order given.
            let byStart = contacts.indices.sorted { (contacts[$0][0].t, $0) < (contacts[$1][0].t, $1) }
            var groups: [[Int]] = [], groupEnd = -Double.infinity
            for i in byStart {
                let c = contacts[i]
                if let last = groups.indices.last, c[0].t <= groupEnd {
                    groups[last].append(i)
                } else {
                    groups.append([i])
                }
                groupEnd = groups[groups.count - 1].count == 1 ? c[c.count - 1].t : max(groupEnd, c[c.count - 1].t)
            }
            return groups.enumerated().map { n, members in
                let start = contacts[members[0]][0].t
                var samples: [TouchSample] = []
                for (pointer, i) in members.enumerated() {
                    samples += contacts[i].map { var s = $0; s.t -= start; s.pointer = pointer; return s }
                }
                // Time order over the gesture; at equal times, in pointer order (a stable sort).
                let ordered = samples.enumerated().sorted { ($0.element.t, $0.offset) < ($1.element.t, $1.offset) }.map(\.element)
                return Trace(id: Self.name(stem, "g", n), samples: ordered)
            }
        }
    }

    static func name(_ stem: String, _ kind: String, _ n: Int) -> String {
        "\(stem)-\(kind)" + String(repeating: "0", count: max(0, 3 - String(n).count)) + String(n)
    }
}
