/// A config problem, naming the file, the line and the key path.
public struct ConfigError: Error, Equatable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    /// Dotted path of the key, e.g. `present.duration`.
    public var keyPath: String
    public var message: String

    public init(file: String, line: Int?, keyPath: String, message: String) {
        self.file = file
        self.line = line
        self.keyPath = keyPath
        self.message = message
    }

    public var description: String {
        let place = line.map { "\(file):\($0)" } ?? file
        return keyPath.isEmpty ? "\(place): \(message)" : "\(place): \(keyPath): \(message)"
    }
}
