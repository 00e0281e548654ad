import Foundation
import SpringLayout

// Usage: preset-consumer PRESET.json — prints the preset's name and model, and the engine's spring;
// for a flick preset, a photo grabbed mid-flight (GrabDemo.swift).
guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: preset-consumer PRESET.json\n".utf8))
    exit(64)
}
do {
    let data = try Data(contentsOf: URL(fileURLWithPath: CommandLine.arguments[1]))
    let preset = try JSONDecoder().decode(Preset.self, from: data)
    print("name: \(preset.name)")
    print("model: \(preset.model)")
    switch preset.model {
    case FlowLayout.modelName:
        let layout = try FlowLayout(preset: preset)
        print("spring: \(layout.spring.frequency) Hz, damping \(layout.spring.damping); rows: \(layout.itemCount)")
    case FlickDismiss.modelName:
        let model = try FlickDismiss(preset: preset)
        print("snap spring: \(model.snap.frequency) Hz")
        print(grabDemo(model))
    default:
        break
    }
} catch let error as DecodingError {
    FileHandle.standardError.write(Data("preset-consumer: \(PresetError(error))\n".utf8))
    exit(65)
} catch {
    FileHandle.standardError.write(Data("preset-consumer: \(error)\n".utf8))
    exit(65)
}
