/// The page's files, compiled into the binary from `Page/Assets/` (SwiftPM's `embedInCode`): the
/// server answers only these paths, so no request can name a file on disk.
enum StudioAssets {
    struct Asset: Sendable {
        var path: String
        var type: String
        var bytes: [UInt8]
    }

    static let all: [Asset] = [
        Asset(path: "/", type: "text/html; charset=utf-8", bytes: PackageResources.index_html),
        Asset(path: "/metrics.js", type: "text/javascript; charset=utf-8", bytes: PackageResources.metrics_js),
        Asset(path: "/learn.js", type: "text/javascript; charset=utf-8", bytes: PackageResources.learn_js),
        Asset(path: "/levers.js", type: "text/javascript; charset=utf-8", bytes: PackageResources.levers_js),
        Asset(path: "/stage.js", type: "text/javascript; charset=utf-8", bytes: PackageResources.stage_js),
        Asset(path: "/qr.js", type: "text/javascript; charset=utf-8", bytes: PackageResources.qr_js),
        Asset(path: "/live.js", type: "text/javascript; charset=utf-8", bytes: PackageResources.live_js),
        Asset(path: "/studio.js", type: "text/javascript; charset=utf-8", bytes: PackageResources.studio_js),
        Asset(path: "/studio.css", type: "text/css; charset=utf-8", bytes: PackageResources.studio_css),
    ]
}
