import Foundation
import SpringTune
import Testing
@testable import SpringStudio

/// The designer's image (Reference §10.16, your art): read from its bytes, hostile files refused
/// with one line and nothing stored, kept in the session across a restart, checked again when
/// read back from a session file.
@Suite struct StudioImageTests {
    /// CRC-32 (ISO 3309, as PNG uses it) of `bytes`.
    static func crc32(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            c ^= UInt32(b)
            for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        }
        return ~c
    }

    static func bigEndian(_ v: Int, _ count: Int) -> [UInt8] { (0..<count).reversed().map { UInt8((v >> (8 * $0)) & 0xFF) } }

    /// A PNG's signature and IHDR chunk (8-bit RGBA) saying `width` × `height`, then `padding` bytes.
    static func png(width: Int, height: Int, padding: Int = 0) -> [UInt8] {
        let ihdr = Array("IHDR".utf8) + bigEndian(width, 4) + bigEndian(height, 4) + [8, 6, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + bigEndian(13, 4) + ihdr + bigEndian(Int(crc32(ihdr)), 4) + [UInt8](repeating: 0, count: padding)
    }

    /// A JPEG's SOI, a JFIF APP0 segment and a baseline SOF0 saying `width` × `height`.
    static func jpeg(width: Int, height: Int, sof: UInt8 = 0xC0) -> [UInt8] {
        [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]
            + [0xFF, sof, 0x00, 0x11, 8] + bigEndian(height, 2) + bigEndian(width, 2) + [3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]
    }

    @Test func pngAndJpegSizesAreReadFromTheirHeaders() throws {
        let p = try StudioImage(bytes: Self.png(width: 1170, height: 876), scale: 3)
        #expect((p.type, p.width, p.height, p.scale) == ("image/png", 1170, 876, 3))
        let j = try StudioImage(bytes: Self.jpeg(width: 780, height: 584), scale: 2)
        #expect((j.type, j.width, j.height) == ("image/jpeg", 780, 584))
        let progressive = try StudioImage(bytes: Self.jpeg(width: 10, height: 20, sof: 0xC2), scale: 1)
        #expect((progressive.width, progressive.height) == (10, 20))
    }

    /// Each refusal: its status and a word of its one line.
    @Test(arguments: [
        (Array("<svg xmlns='http://www.w3.org/2000/svg'/>".utf8), 1, 415, "not a PNG or JPEG"),
        (Array("GIF89a".utf8) + [0, 0, 0, 0], 1, 415, "not a PNG or JPEG"),
        ([], 1, 415, "not a PNG or JPEG"),
        (png(width: 30000, height: 30000), 1, 400, "at most 4096 × 4096 px; this one says 30000 × 30000"),
        (png(width: 0, height: 10), 1, 400, "at most 4096"),
        (Array(png(width: 10, height: 10).prefix(20)), 1, 400, "cut short"),
        (jpeg(width: 5000, height: 10), 1, 400, "5000 × 10"),
        ([0xFF, 0xD8, 0xFF, 0xDA, 0x00, 0x04, 0, 0], 1, 400, "gives no size"),
        ([0xFF, 0xD8, 0xFF, 0xE0, 0xFF, 0xFF], 1, 400, "gives no size"),
        (png(width: 10, height: 10), 4, 400, "scale must be 1, 2 or 3"),
        (png(width: 10, height: 10, padding: 4 << 20), 1, 413, "at most 4 MiB"),
    ] as [([UInt8], Int, Int, String)])
    func hostileImagesAreRefusedWithOneLine(bytes: [UInt8], scale: Int, status: Int, words: String) {
        #expect {
            try StudioImage(bytes: bytes, scale: scale)
        } throws: { error in
            guard let e = error as? StudioError else { return false }
            return e.status == status && e.message.contains(words) && !e.message.contains("\n")
        }
    }

    @Test func theImageSurvivesARestartAndATamperedOneIsNone() throws {
        let path = NSTemporaryDirectory() + "image-\(UUID().uuidString)/s.sqlite"
        let image = try StudioImage(bytes: Self.png(width: 390, height: 292, padding: 100), scale: 1)
        do {
            let store = try SessionStore(path: path, preset: "tweetbot", model: "flick-dismiss")
            try store.setImage(image)
            store.closeForStop()
        }
        let again = try SessionStore(path: path, preset: "tweetbot", model: "flick-dismiss")
        #expect(try again.image() == image)
        try again.db.write { try $0.execute(sql: "UPDATE image SET bytes = ?", arguments: [Data("<html>".utf8)]) }
        #expect(try again.image() == nil, "a session file's image is checked again as an upload is")
        try again.setImage(nil)
        #expect(try again.db.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM image") } == 0)
    }

    @Test func theRouterStoresAGoodImageAndNothingOfABadOne() async throws {
        let (router, _) = try StudioRouterTests.router()
        let empty = try await StudioRouterTests.send(router, .get, "/api/image", headers: StudioRouterTests.bearer)
        #expect(empty.status == 200 && empty.body == "{\"image\":null}\n")
        let missing = try await StudioRouterTests.send(router, .get, "/api/image/file", headers: StudioRouterTests.bearer)
        #expect(missing.status == 404)
        for (bytes, status) in [(Array("not an image".utf8), 415), (Self.png(width: 30000, height: 30000), 400)] {
            let refused = try await StudioRouterTests.send(router, .put, "/api/image", headers: StudioRouterTests.bearer, bytes: bytes)
            #expect(refused.status == status && refused.error?.isEmpty == false && refused.body.split(separator: "\n").count == 1)
        }
        let still = try await StudioRouterTests.send(router, .get, "/api/image", headers: StudioRouterTests.bearer)
        #expect(still.body == "{\"image\":null}\n", "nothing stored of a refused image")
        let big = try await StudioRouterTests.send(router, .put, "/api/image", headers: StudioRouterTests.bearer, bytes: Self.png(width: 1, height: 1, padding: 50 << 20))
        #expect(big.status == 413 && big.error == "an image is at most 4 MiB")
        let good = Self.png(width: 1170, height: 876, padding: 10)
        let put = try await StudioRouterTests.send(router, .put, "/api/image?scale=3", headers: StudioRouterTests.bearer, bytes: good)
        #expect(put.status == 200 && put.body.contains(#""width":1170"#) && put.body.contains(#""scale":3"#))
        let file = try await StudioRouterTests.send(router, .get, "/api/image/file", headers: StudioRouterTests.bearer)
        #expect(file.status == 200 && file.headers[.contentType] == "image/png" && file.body.contains("IHDR"))
        let gone = try await StudioRouterTests.send(router, .delete, "/api/image", headers: StudioRouterTests.bearer)
        #expect(gone.body == "{\"image\":null}\n")
    }
}
