import Render
import Scenes

extension RenderError {
    /// The error naming where the value that failed came from: a `--set` or a config's line,
    /// when one of them gave it, rather than the scene file's declaration of the param (a config
    /// written by `flipbook config` names every image; after a move, its line is the one to fix).
    func naming(config: String?, assignments: [String]) -> RenderError {
        guard case .image(let image, let error, _, let builtIn) = self else { return self }
        if let assignment = assignments.last(where: { $0.hasPrefix(image.key + "=") }) {
            return .image(image, error, declaredAt: "\(ExportOption.set.flag) \(assignment)", builtIn: builtIn)
        }
        if let config,
            let line = ConfigDocument.keyPaths(ofFile: config).first(where: { $0.keyPath == image.key })?.line
        {
            return .image(image, error, declaredAt: "\(config):\(line)", builtIn: builtIn)
        }
        return self
    }
}

/// Runs `make`, an image's error naming the config line or `--set` that gave the image.
func namingValueOrigin<T>(config: String?, assignments: [String], _ make: () throws -> T) throws -> T {
    do {
        return try make()
    } catch let error as RenderError {
        throw error.naming(config: config, assignments: assignments)
    }
}
