import Foundation
import GRDB

/// The designer's image for the moving layer of the model (Reference §10.16, your art): a PNG or
/// JPEG the page draws over the photo, card, sheet, page or rows, at actual size (one image pixel
/// is 1/`scale` pt). Kept in the session; checked from its bytes, never from what a request or a
/// session file says it is.
public struct StudioImage: Sendable, Equatable {
    /// `image/png` or `image/jpeg`.
    public var type: String
    /// The image's size (px), from its header.
    public var width: Int, height: Int
    /// Image pixels per pt: 1, 2 or 3 (a file named `…@2x.png` or `…@3x.png`).
    public var scale: Int
    public var bytes: [UInt8]

    /// Largest image file (bytes): 4 MiB.
    public static let maxBytes = 4 << 20
    /// Largest side (px): a phone's screen at 3× is under 3,000 px; 4,096 decodes to 64 MiB at most.
    public static let maxSide = 4096

    /// The image in `bytes`: a PNG (its IHDR chunk) or a baseline or progressive JPEG (its first
    /// start-of-frame segment) of at most ``maxBytes`` and ``maxSide`` px a side.
    ///
    /// - Throws: ``StudioError``: 413 over ``maxBytes``, 415 for anything but a PNG or a JPEG,
    ///   400 for a header that gives no size or a size out of range, or a scale other than 1 to 3.
    public init(bytes: [UInt8], scale: Int) throws(StudioError) {
        guard bytes.count <= Self.maxBytes else { throw StudioError(status: 413, "an image is at most 4 MiB; this one is \(bytes.count) bytes") }
        guard (1...3).contains(scale) else { throw StudioError.badRequest("scale must be 1, 2 or 3 (image pixels per pt)") }
        let size: (Int, Int)?
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            type = "image/png"
            size = Self.pngSize(bytes)
        } else if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            type = "image/jpeg"
            size = Self.jpegSize(bytes)
        } else {
            throw StudioError(status: 415, "not a PNG or JPEG image (its first bytes say neither)")
        }
        guard let (w, h) = size else { throw StudioError.badRequest("the \(type == "image/png" ? "PNG" : "JPEG") header gives no size: the file is cut short or damaged") }
        guard (1...Self.maxSide).contains(w), (1...Self.maxSide).contains(h) else {
            throw StudioError.badRequest("an image is at most \(Self.maxSide) × \(Self.maxSide) px; this one says \(w) × \(h)")
        }
        (width, height, self.scale, self.bytes) = (w, h, scale, bytes)
    }

    /// Big-endian unsigned integer of `count` bytes at `at`, nil past the end.
    private static func bigEndian(_ b: [UInt8], at: Int, count: Int) -> Int? {
        guard at >= 0, at + count <= b.count else { return nil }
        return b[at..<at + count].reduce(0) { $0 << 8 | Int($1) }
    }

    /// A PNG's width and height: its first chunk is IHDR (length 13) with them first.
    private static func pngSize(_ b: [UInt8]) -> (Int, Int)? {
        guard bigEndian(b, at: 8, count: 4) == 13, b.count >= 33, Array(b[12..<16]) == Array("IHDR".utf8),
              let w = bigEndian(b, at: 16, count: 4), let h = bigEndian(b, at: 20, count: 4) else { return nil }
        return (w, h)
    }

    /// A JPEG's width and height: the segments after SOI walked by their lengths to the first
    /// start of frame (SOF0-SOF15 but DHT C4, JPG C8 and DAC CC), height then width after its
    /// precision byte; nil at a start of scan first or past the end.
    private static func jpegSize(_ b: [UInt8]) -> (Int, Int)? {
        var i = 2
        while i + 1 < b.count {
            guard b[i] == 0xFF else { return nil }
            let marker = b[i + 1]
            if marker == 0xFF { i += 1; continue }  // fill byte
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { i += 2; continue }  // no length
            guard marker != 0xDA, marker != 0xD9, let length = bigEndian(b, at: i + 2, count: 2), length >= 2 else { return nil }
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                guard let h = bigEndian(b, at: i + 5, count: 2), let w = bigEndian(b, at: i + 7, count: 2) else { return nil }
                return (w, h)
            }
            i += 2 + length
        }
        return nil
    }
}

/// The session's one image row (migration v6).
struct ImageRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "image"
    var id = 1
    var type: String
    var scale: Int
    var bytes: Data
}

extension SessionStore {
    /// The session's image, nil when there is none or the stored one does not check out (a
    /// session file is not trusted: the bytes are checked again as an upload is).
    public func image() throws -> StudioImage? {
        guard let row = try db.read({ try ImageRecord.fetchOne($0, key: 1) }) else { return nil }
        return try? StudioImage(bytes: Array(row.bytes), scale: row.scale)
    }

    /// Keeps `image` as the session's image (replacing one), or removes it (nil).
    public func setImage(_ image: StudioImage?) throws {
        try db.write { db in
            _ = try ImageRecord.deleteAll(db)
            if let image { try ImageRecord(type: image.type, scale: image.scale, bytes: Data(image.bytes)).insert(db) }
        }
    }
}
