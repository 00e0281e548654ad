import Foundation
import SpringCore
import SpringLayout
import SpringTune
import ToolRuntime

/// The studio's levers (Reference §10.16): the parameters the designer has freed, each over its
/// domain (§8.3) or a range they narrowed, every other parameter pinned at the preset's value.
/// The sliders, the requests' checks, the learning model's space (§12) and the best's margins
/// all follow it. It starts as the preset's sweep box (its axes' ranges, widened to hold the
/// preset's own values) and is replaced whole by `POST /api/space`.
public struct StudioSpace: Sendable {
    /// The free set as the session stores it and `POST /api/space` gives it.
    public let free: [FreeParameter]
    /// The continuous box over the free parameters (the search's own, ``SearchBox``); nil while
    /// nothing is free (a preset without axes: the page moves nothing and learns nothing).
    public let box: SearchBox?
    /// The preset's value of every model parameter: what a pinned parameter runs.
    public let preset: [String: ParamValue]

    /// The box of `free` over `loaded`'s model: 400 for a name that is not a parameter with a
    /// domain, a name given twice, a range outside the domain or of one value, words outside it.
    public init(_ loaded: PresetStore.Loaded, free: [FreeParameter]) throws {
        let kind = loaded.kind
        var seen = Set<String>()
        let dims = try free.map { f -> SearchBox.Dimension in
            guard seen.insert(f.name).inserted else { throw StudioError.badRequest("free: '\(f.name.prefix(80))' is given twice") }
            guard let spec = kind.parameters.first(where: { $0.name == f.name }), let domain = spec.domain else {
                let names = kind.parameters.filter { $0.domain != nil }.map(\.name)
                throw StudioError.badRequest("free: '\(f.name.prefix(80))' is not a parameter of \(kind.name) (parameters: \(names.joined(separator: ", ")))")
            }
            if let words = f.words {
                guard f.from == nil, f.to == nil else { throw StudioError.badRequest("free \(f.name): give words or from/to, not both") }
                guard case let .words(all) = domain.values else { throw StudioError.badRequest("free \(f.name): it takes numbers, not words") }
                guard words.count >= 2, Set(words).count == words.count, words.allSatisfy(all.contains) else {
                    throw StudioError.badRequest("free \(f.name): words must be two or more distinct of \(all.joined(separator: ", "))")
                }
                return SearchBox.Dimension(name: f.name, unit: spec.unit, extent: .words(words.map(ParamValue.text)))
            }
            guard let r = domain.range else {
                guard f.from == nil, f.to == nil, f.log == nil else { throw StudioError.badRequest("free \(f.name): it takes words (\(domain.description)), not a range") }
                return SearchBox.dimension(spec, domain: domain)
            }
            let lo = f.from ?? r.min, hi = f.to ?? r.max
            guard lo.isFinite, hi.isFinite, r.min <= lo, hi <= r.max, lo < hi else {
                throw StudioError.badRequest("free \(f.name): from \(NumberFormat.short(lo)) to \(NumberFormat.short(hi)) must be a range of more than one value within its domain \(domain.description) \(spec.unit)")
            }
            guard f.log != true || lo > 0 else { throw StudioError.badRequest("free \(f.name): a log range must start above 0") }
            return SearchBox.Dimension(name: f.name, unit: spec.unit, extent: .numbers(min: lo, max: hi, log: f.log ?? r.log))
        }
        do {
            box = dims.isEmpty ? nil : try SearchBox(loaded, dimensions: dims)
        } catch let error as ToolError {
            throw StudioError.badRequest("free: \(error.message)")
        }
        self.free = free
        preset = kind.values(of: loaded.preset)
    }

    /// The preset's own box: its sweep axes (or `search` block) with their ranges widened to
    /// hold the preset's values, so that the preset's set lies inside.
    public static func initial(_ loaded: PresetStore.Loaded) throws -> StudioSpace {
        let own = loaded.kind.values(of: loaded.preset)
        let free = SearchBox.presetDimensions(loaded).compactMap { d -> FreeParameter? in
            let value = own[d.name]
            // An axis of one value moves nothing: it is not a lever.
            switch d.extent {
            case let .numbers(lo, hi, isLog):
                let v = value?.number ?? lo
                return lo == hi ? nil : FreeParameter(name: d.name, from: Swift.min(lo, v), to: Swift.max(hi, v), log: isLog)
            case let .words(words):
                var all = words
                if let value, !all.contains(value) { all.append(value) }
                return words.count < 2 ? nil : FreeParameter(name: d.name, words: all.map(\.description))
            }
        }
        return try StudioSpace(loaded, free: free)
    }

    /// The names of the free parameters, in order.
    public var names: [String] { box?.dimensions.map(\.name) ?? [] }

    /// The unit-box point of a shown set (free names; others at the preset's values), projected
    /// into the box when it was shown under another free set (``SearchBox/nearestPoint(_:preset:)``).
    public func point(_ params: [String: ParamValue]) -> [Double] { box?.nearestPoint(params, preset: preset) ?? [] }

    /// The preset's values of the free parameters, each clamped into its range: where the
    /// sliders start.
    public var start: [String: ParamValue] {
        guard let box else { return [:] }
        return Dictionary(uniqueKeysWithValues: zip(names, box.row(box.nearestPoint([:], preset: preset))))
    }
}

/// A free parameter of `POST /api/space`: `{name}` over its domain, `{name, from, to}` over a
/// range inside it, `{name, words}` over some of its words. `log` moves the slider and the
/// learning in log space (true) or linearly (false); absent, the domain's scale (§8.3). A
/// preset's sweep axes start free on their own spacing, as `search` takes them.
public struct FreeParameter: Codable, Equatable, Sendable, StudioContract {
    public var name: String
    public var from: Double?, to: Double?
    public var log: Bool?
    public var words: [String]?

    public init(name: String, from: Double? = nil, to: Double? = nil, log: Bool? = nil, words: [String]? = nil) {
        self.name = name; self.from = from; self.to = to; self.log = log; self.words = words
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case name, from, to, log, words }

    public init(from decoder: any Decoder) throws {
        let c = try StudioRequest.fields(decoder, CodingKeys.self)
        guard let name = try c.field(String.self, .name, "free: name must be a parameter name") else { throw StudioError.badRequest("free: each entry needs a name") }
        self.name = name
        from = try c.optional(Double.self, .from, "free \(name.prefix(80)): from must be a number")
        to = try c.optional(Double.self, .to, "free \(name.prefix(80)): to must be a number")
        log = try c.optional(Bool.self, .log, "free \(name.prefix(80)): log must be true or false")
        words = try c.optional([String].self, .words, "free \(name.prefix(80)): words must be a list of words")
    }

    static let schemaName = "FreeParameter"
    static var schema: Schema {
        .object([(CodingKeys.name, .string), (.from, Schema.number.nullable), (.to, Schema.number.nullable), (.log, Schema.boolean.nullable), (.words, Schema.array(.string, min: 2).nullable)],
                optional: [.from, .to, .log, .words], closed: true)
    }
}

/// `POST /api/space` `{free: [...]}`: the whole free set (at most 64 entries).
struct SpaceRequest: Decodable, StudioContract {
    var free: [FreeParameter]

    enum CodingKeys: String, CodingKey, CaseIterable { case free }

    init(free: [FreeParameter]) { self.free = free }

    init(from decoder: any Decoder) throws {
        guard let free = try StudioRequest.fields(decoder, CodingKeys.self).field([FreeParameter].self, .free, "free must be a list of {name, from?, to?, words?}") else {
            throw StudioError.badRequest("free is required: the whole free set")
        }
        guard free.count <= 64 else { throw StudioError.badRequest("free: at most 64 parameters") }
        self.free = free
    }

    static let schemaName = "SpaceRequest"
    static var schema: Schema { .object([(CodingKeys.free, .array(.ref(FreeParameter.self), max: 64))], closed: true) }
}
