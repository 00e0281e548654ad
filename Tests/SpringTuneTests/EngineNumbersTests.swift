import SpringCore
import Testing
import SpringLayout
@testable import SpringTune
import TraceIO

/// A model as the plain numbers the WebAssembly engine is handed (``EngineNumbers``, Reference
/// §15), for every model of the registry on every bundled preset: the numbers read back as the
/// same model (the same numbers, and an engine giving the same frames on a real trace, every
/// number equal); one number fewer or more, or a number that is not finite, makes no model.
@Suite struct EngineNumbersTests {
    /// Every bundled preset's name.
    static let presets: [String] = (try? Fixture.store.names()) ?? []

    @Test func everyModelHasABundledPreset() throws {
        let models = Set(try Self.presets.map { try Fixture.store.load($0).kind.name })
        #expect(models == Set(ModelKind.names))
    }

    @Test(arguments: presets)
    func numbersReadBackAsTheSameModel(preset: String) throws {
        let loaded = try Fixture.store.load(preset)
        let trace = try #require(try PresetStore.traceFiles(for: loaded).first.map { try TraceReader().read(path: $0).traces }?.last)
        try check(loaded.kind.type, loaded: loaded, trace: loaded.kind.input(trace))
    }

    func check<M: MeasuredModel>(_: M.Type, loaded: PresetStore.Loaded, trace: Trace) throws {
        let model = try M(preset: loaded.preset).running(trace)
        let numbers = model.numbers
        let copy = try #require(M(numbers: numbers, scene: model.scene), "\(M.modelName): \(numbers)")
        #expect(copy.numbers == numbers)
        let (a, b) = (EngineRecord(model, trace: trace), EngineRecord(copy, trace: trace))
        #expect(a.frames.count > 10 && a.frames.count == b.frames.count)
        #expect(zip(a.frames, b.frames).allSatisfy { $0.t == $1.t && $0.values == $1.values }, "\(M.modelName): frames differ")
        #expect(a.decision == b.decision && a.engine >= 0 && a.numbers == numbers)
        #expect(M(numbers: numbers.dropLast(), scene: model.scene) == nil)
        #expect(M(numbers: numbers + [0], scene: model.scene) == nil)
        for i in numbers.indices {
            var bad = numbers
            bad[i] = .nan
            #expect(M(numbers: bad, scene: model.scene) == nil, "\(M.modelName): NaN at \(i) made a model")
        }
    }

    @Test func theSceneReadsBackAndRefusesAnEstimatorOutOfRange() throws {
        var scene = Scene()
        (scene.width, scene.height, scene.frameRate, scene.tail, scene.estimator) = (1024, 1366, 60, 2, .impulse)
        #expect(Scene(numbers: scene.numbers) == scene)
        for bad in [[390, 844, 120, 0.5, 5, 4], [390, 844, 120, 0.5, 5, 0.5], [390, 844, 120, 0.5, 5], [.infinity, 844, 120, 0.5, 5, 0]] {
            #expect(Scene(numbers: bad) == nil, "\(bad)")
        }
    }
}
