/// The page's files, compiled into the binary from `Page/Assets/` (SwiftPM's `embedInCode`): the
/// server answers only these paths, so no request can name a file on disk. The page's scripts are
/// ES modules: index.html loads the entry, studio.js, which imports the others by these paths.
/// (report.js and report.css are not served: StudioReport.swift inlines them into the report.)
enum StudioAssets {
    struct Asset: Sendable {
        var path: String
        var type: String
        var bytes: [UInt8]
    }

    static let all: [Asset] = [
        Asset(path: "/", type: "text/html; charset=utf-8", bytes: PackageResources.index_html),
        Asset(path: "/studio.js", type: "text/javascript; charset=utf-8", bytes: PackageResources.studio_js),
        Asset(path: "/api.js", type: "text/javascript; charset=utf-8", bytes: PackageResources.api_js),
        Asset(path: "/dom.js", type: "text/javascript; charset=utf-8", bytes: PackageResources.dom_js),
        Asset(path: "/format.js", type: "text/javascript; charset=utf-8", bytes: PackageResources.format_js),
        Asset(path: "/state.js", type: "text/javascript; charset=utf-8", bytes: PackageResources.state_js),
        Asset(path: "/sliders.js", type: "text/javascript; charset=utf-8", bytes: PackageResources.sliders_js),
        Asset(path: "/metrics.js", type: "text/javascript; charset=utf-8", bytes: PackageResources.metrics_js),
        Asset(path: "/learn.js", type: "text/javascript; charset=utf-8", bytes: PackageResources.learn_js),
        Asset(path: "/levers.js", type: "text/javascript; charset=utf-8", bytes: PackageResources.levers_js),
        Asset(path: "/stage.js", type: "text/javascript; charset=utf-8", bytes: PackageResources.stage_js),
        Asset(path: "/qr.js", type: "text/javascript; charset=utf-8", bytes: PackageResources.qr_js),
        Asset(path: "/live.js", type: "text/javascript; charset=utf-8", bytes: PackageResources.live_js),
        Asset(path: "/art.js", type: "text/javascript; charset=utf-8", bytes: PackageResources.art_js),
        Asset(path: "/feel.js", type: "text/javascript; charset=utf-8", bytes: PackageResources.feel_js),
        Asset(path: "/touch.js", type: "text/javascript; charset=utf-8", bytes: PackageResources.touch_js),
        Asset(path: "/engine.js", type: "text/javascript; charset=utf-8", bytes: PackageResources.engine_js),
        Asset(path: "/pictures.js", type: "text/javascript; charset=utf-8", bytes: PackageResources.pictures_js),
        Asset(path: "/studio.css", type: "text/css; charset=utf-8", bytes: PackageResources.studio_css),
        // The engines as WebAssembly (`make wasm`, Reference §15), which the page runs under the finger.
        Asset(path: "/engine.wasm", type: "application/wasm", bytes: PackageResources.engine_wasm),
    ]
}
