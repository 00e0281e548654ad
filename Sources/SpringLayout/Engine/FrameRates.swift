/// The rates a frame presents, each beside the number it is the rate of (pt, pt/s): how
/// `EngineContractTests` (SpringTuneTests, through `@testable import`) checks every registered
/// model's frames against their own motion (a frame-to-frame difference while a finger drags at
/// a constant rate, the motion's rate after the release or a grab, none under a still finger).
/// Internal: an app reads its engine's frame by its named fields. Each model's frame conforms
/// beside the model; a registered model whose frame does not fails that test.
protocol FrameRates: EngineFrame {
    /// Each rate the frame presents (pt/s) with the number it is the rate of (pt), in a fixed order.
    var rates: [(value: Double, rate: Double)] { get }
}
