import ArgumentParser
import Flipbook

/// Which part of an export an `ExportFlags` group offers the flags of.
protocol ExportFlagsPart {
    static var part: ExportOptionPart { get }
}

/// The flags that pick and adjust the scene (`flipbook render` and `flipbook plan`).
enum SceneFlags: ExportFlagsPart { static let part = ExportOptionPart.scene }
/// The flags of a render's run and output.
enum RunFlags: ExportFlagsPart { static let part = ExportOptionPart.run }
/// The encoders' flags (`flipbook render` and `flipbook encode`).
enum EncoderFlags: ExportFlagsPart { static let part = ExportOptionPart.encoder }

/// `flipbook render`'s flags for one part of an export, made from the export options' table as
/// FFmpeg's command line is made from its `AVOption` rows: each row `render` offers is a flag
/// with the row's name, value name and help, and the default a new request has. A value is read
/// as a manifest's is (`ExportRequest.set`), so a new option is a row there and nothing here.
struct ExportFlags<Part: ExportFlagsPart>: ParsableArguments, CustomReflectable {
    /// The table's rows of this part that `flipbook render` offers, in the table's order.
    static var rows: [ExportOptionRow] {
        ExportOption.table.filter { $0.offered.contains(.render) && $0.part == Part.part }
    }

    /// The values, in the rows' order: each given, or the default shown where none is; a flag
    /// that is on is `true`.
    private(set) var given: [(option: ExportOption, value: String)] = []

    init() {}

    /// Reads each row's flag.
    init(from decoder: any Decoder) throws {
        let flags = try decoder.container(keyedBy: RowKey.self)
        for row in Self.rows {
            let key = RowKey(row.option)
            let values: [String] =
                if row.valueName == nil {
                    try flags.decode(Flag<Bool>.self, forKey: key).wrappedValue ? ["true"] : []
                } else if row.isRepeatable {
                    try flags.decode(Option<[String]>.self, forKey: key).wrappedValue
                } else if Self.shownDefault(row) != nil {
                    [try flags.decode(Option<String>.self, forKey: key).wrappedValue]
                } else {
                    try flags.decode(Option<String?>.self, forKey: key).wrappedValue.map { [$0] } ?? []
                }
            given += values.map { (row.option, $0) }
        }
    }

    /// Refuses a value its option cannot take, naming the flag.
    func validate() throws {
        var scratch = ExportRequest(scene: "")
        try apply(to: &scratch)
    }

    /// Sets the values given on `request`.
    func apply(to request: inout ExportRequest) throws {
        try presenting { for (option, value) in given { try request.set(option, to: value) } }
    }

    /// Whether `option` has a value here: a flag that is on, a value given or a default shown.
    func gives(_ option: ExportOption) -> Bool { given.contains { $0.option == option } }

    /// ArgumentParser finds a group's arguments by reflecting on it: these are the rows' flags.
    var customMirror: Mirror {
        Mirror(self, children: Self.rows.map { (label: $0.option.name, value: Self.argument($0)) })
    }

    /// A row's flag, as a property wrapper would declare it.
    private static func argument(_ row: ExportOptionRow) -> Any {
        let help = ArgumentHelp(row.help, valueName: row.valueName)
        let flag = row.option.flag
        var names: NameSpecification = [.customLong(row.option.name)]
        if !flag.hasPrefix("--"), let short = flag.last { names = [.customShort(short), .customLong(row.option.name)] }
        let completion = row.option == .storyboard ? SceneOptionGroup.storyboardCompletion : nil
        if row.valueName == nil { return Flag<Bool>(wrappedValue: false, name: names, help: help) }
        if row.isRepeatable {
            return Option<[String]>(wrappedValue: [], name: names, help: help, completion: completion)
        }
        if let shown = shownDefault(row) {
            return Option<String>(wrappedValue: shown, name: names, help: help, completion: completion)
        }
        return Option<String?>(name: names, help: help, completion: completion)
    }

    /// The value a new request has for the row's option, where it has one to show.
    private static func shownDefault(_ row: ExportOptionRow) -> String? {
        let values = ExportRequest(scene: "").values(of: row.option)
        return row.valueName != nil && values.count == 1 ? values[0] : nil
    }

    /// A coding key named by an option.
    private struct RowKey: CodingKey {
        let stringValue: String
        init(_ option: ExportOption) { stringValue = option.name }
        init?(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }
}
