/// A name (a preset's `tweetbot-2`, a parameter's `flickVelocity`) as an identifier of the
/// exported languages: its words are the runs of ASCII letters and digits, split also where a
/// lower-case letter or digit meets an upper-case one; a member name that would start with a
/// digit (or has no word) gets a leading `_`. A type name with no word is `Preset` (`preset` in
/// CSS), and one the exported files cannot declare (``reservedTypeNames``) gets `Preset` after it.
public struct Identifier: Hashable, Sendable {
    /// The words, as written in the name (`["flick", "Velocity"]`).
    public let words: [String]

    public init(_ name: String) {
        var words: [String] = [], word = ""
        for c in name {
            guard c.isASCII, c.isLetter || c.isNumber else {
                if !word.isEmpty { words.append(word); word = "" }
                continue
            }
            if c.isUppercase, let last = word.last, last.isLowercase || last.isNumber { words.append(word); word = "" }
            word.append(c)
        }
        if !word.isEmpty { words.append(word) }
        self.words = words
    }

    /// `TweetbotSnap`: a Swift or Kotlin type name (`Preset` for a name with no ASCII letter or
    /// digit, such as `_` or `日本`; `SelfPreset` for `self`).
    public var upperCamel: String {
        guard !words.isEmpty else { return "Preset" }
        let name = guarded(words.map(Self.capitalized).joined())
        return Self.reservedTypeNames.contains(name) ? name + "Preset" : name
    }

    /// Type names an exported Swift or Kotlin file cannot declare: Swift's capitalised keywords
    /// (`enum Self`, `enum Any` do not compile) and the platform types the files name inside the
    /// type (a preset named `spring` made `enum Spring`, whose `Spring(duration:bounce:)` then
    /// named the enum itself).
    static let reservedTypeNames: Set<String> = [
        "Self", "Any", "Type", "Protocol", "Spring", "Animation", "CGVector", "UISpringTimingParameters",
        "SpringSpec", "Double", "Float", "Int", "String", "Bool", "Unit", "Nothing",
    ]
    /// `flickVelocity`: a Swift or Kotlin member name.
    public var lowerCamel: String {
        guard let first = words.first else { return "_" }
        return guarded(first.lowercased() + words.dropFirst().map(Self.capitalized).joined())
    }
    /// `flick-velocity`: a CSS custom property's part.
    public var kebab: String { words.isEmpty ? "preset" : words.map { $0.lowercased() }.joined(separator: "-") }

    static func capitalized(_ word: String) -> String { word.prefix(1).uppercased() + word.dropFirst() }

    /// A leading `_` before a digit (or for no name at all).
    func guarded(_ text: String) -> String { text.first.map { $0.isLetter } == true ? text : "_" + text }
}
