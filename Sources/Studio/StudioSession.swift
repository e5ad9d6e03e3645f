import FileInput
import Fit
import Flipbook
import Foundation
import Synchronization

/// What the studio shows and edits: one scene, a storyboard and scale to view it at, and the
/// values changed since the file was saved. Every change builds a new version of the
/// transition (the same `Transition` the CLI renders) and starts rendering its frames; the
/// last version that loaded stays on screen while a newer one has an error.
public final class StudioSession: Sendable {
    public let options: StudioOptions
    /// Where the scene is read from and saved into now: a built-in's installed file until
    /// the first save, which copies it where the user is and goes on with the copy.
    private let place: Mutex<Place>
    /// For a built-in: the folder its copy goes in. Nothing the studio does writes into the
    /// installation.
    public let copyFolder: String?
    /// The recording shown beside the render, at its times as `timing` says.
    var recording: Recording? { against.withLock { $0 } }
    private let against: Mutex<Recording?>
    /// The recording's frame interval and start: the command line's, then the page's.
    public var timing: RecordingTiming { timings.withLock { $0 } }
    private let timings: Mutex<RecordingTiming>
    /// Where the recording starts in each storyboard at each frame interval, once found.
    private let starts = Mutex<[String: Double]>([:])
    /// Each version's score against the recording, when the studio was given features to follow.
    let scores: StudioScores?
    private let images = ImageCache()
    private let state: Mutex<State>
    /// Loads one at a time, in the order they were asked for; `state` stays free for readers.
    private let loading = NSLock()
    let events = EventStream()

    /// A version of the transition and its frames.
    struct Loaded: Sendable {
        var version: Int
        var transition: Transition
        var store: FrameStore
        var edits: [String: String]
        /// The frame under the page's scrubber, rendered before the others: (seconds, PNG).
        var first: (time: Double, png: [UInt8])?
    }

    struct State: Sendable {
        var edits: [String: String] = [:]
        var storyboard: String?
        var scale: Int
        var current: Loaded?
        var saved: Loaded?
        var error: String?
        var errorKey: String?
        var nextVersion = 1
        /// The file's text the edits were made over: a save writes only while the file on disk
        /// still reads so.
        var baseText: String?
        /// The file changed on disk under unsaved edits; a save waits for the user's choice.
        var diskChange: DiskChange?
    }

    /// The value file changed on disk while the page held unsaved edits.
    struct DiskChange: Sendable, Encodable, Equatable {
        /// Keys whose value on disk changed.
        var keys: [String]
        /// Keys changed both on disk and in the page.
        var conflicts: [String]
        /// The values on disk now and the page's, by key, for the conflicts.
        var disk: [String: String]
        var mine: [String: String]
    }

    /// How the user settles a change on disk.
    public enum DiskChoice: Sendable, Equatable {
        /// The file as it is on disk now: every unsaved edit dropped.
        case reload
        /// The page's value for the conflicting keys in `keep`, the file's for the others;
        /// edits of keys the file did not change stay.
        case merge(keep: Set<String>)
    }

    struct Place: Sendable {
        var scene: String
        var valueFile: ValueFile
    }

    /// The scene being edited: a built-in's name, or a scene file's path (the copy's, once a
    /// built-in was saved).
    public var scene: String { place.withLock { $0.scene } }
    /// The file a save writes now.
    public var valueFile: ValueFile { place.withLock { $0.valueFile } }
    /// The file the next save writes: for a built-in not yet saved, its copy to be.
    public var savesTo: String {
        place.withLock { place in
            guard let copyFolder, place.scene == options.scene else { return place.valueFile.path }
            return (copyFolder as NSString).appendingPathComponent("\(options.scene).yaml")
        }
    }

    /// Loads the scene as its files are now; an error here (a missing scene, a file that does
    /// not load) is the studio's error at start.
    public init(options: StudioOptions) throws {
        self.options = options
        place = Mutex(
            Place(scene: options.scene, valueFile: try ValueFile(scene: options.scene, config: options.config)))
        copyFolder =
            options.config != nil || Transition.isSceneFile(options.scene)
            ? nil
            : options.copyFolder
                ?? (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(options.scene)
        let recording = try options.against.map { path in
            let stored = try FrameSequence.load(path)
            return Recording(
                path: path, stored: stored, frames: stored.retimed(frameInterval: options.frameInterval),
                suspectedInterval: CaptureRate.suspected(in: stored)?.likely)
        }
        against = Mutex(recording)
        timings = Mutex(RecordingTiming(frameInterval: options.frameInterval, start: options.start))
        if let features = options.features, recording == nil {
            throw StudioError("features \(features): a features file scores the render against a recording; give one")
        }
        scores = try options.features.map(StudioScores.init(featuresPath:))
        state = Mutex(State(storyboard: options.storyboard, scale: options.scale))
        let text = diskText()
        if let error = load(edits: [:], reloadSaved: true) { throw StudioError(error) }
        state.withLock { $0.baseText = text }
    }

    /// Stops rendering the frames of every version: a stopped studio leaves no work running.
    public func close() {
        state.withLock { [$0.current?.store, $0.saved?.store] }.forEach { $0?.cancel() }
    }

    deinit { close() }

    /// The storyboard's time at the recording's first frame, for `loaded`'s storyboard:
    /// `--start`, or found as `flipbook score` finds it, with the values of the first version
    /// that asks, and kept while values change, so that a change shows as a lag and an error,
    /// not as another alignment. 0 without a recording, or where none is found.
    func recordingStart(_ loaded: Loaded, timing: RecordingTiming? = nil) -> Double {
        let timing = timing ?? self.timing
        if let start = timing.start { return start }
        guard let recording else { return 0 }
        let storyboard = loaded.transition.storyboard
        let key = "\(storyboard) \(timing.frameInterval.map(\.plainText) ?? "file")"
        if let start = starts.withLock({ $0[key] }) { return start }
        var request = ScoreRequest(scene: scene, features: [])
        (request.storyboard, request.config) = (storyboard, options.existingConfig)
        request.assignments = StudioState.assignments(loaded.edits)
        request.screen = scores?.features.screen
        request.frameInterval = timing.frameInterval
        let start = (try? Scorer.start(of: recording.stored, for: request, images: images)) ?? 0
        return starts.withLock {
            $0[key] = $0[key] ?? start
            return $0[key]!
        }
    }

    /// The value file's text on disk now (nil while it does not exist).
    func diskText() -> String? { try? valueFile.currentText() }

    // MARK: Reading

    var snapshot: State { state.withLock { $0 } }

    /// The values edited and not saved, as an export's values (`key.path=value`, in key order):
    /// what stopping the studio now would lose, which the request spells back as flags.
    public var unsaved: ExportRequest {
        var request = ExportRequest(scene: scene)
        request.assignments = StudioState.assignments(snapshot.edits)
        return request
    }

    /// The files the transition reads: its scene file, its config and its images.
    public var inputFiles: [String] {
        let s = snapshot
        var files = [valueFile.isConfig ? nil : valueFile.path, options.config].compactMap { $0 }
        if valueFile.isConfig, let scene = try? ValueFile(scene: scene) { files.append(scene.path) }
        let transition = s.current?.transition ?? s.saved?.transition
        files += transition?.imageFiles.map(\.path) ?? []
        return files
    }

    /// The version `v` if it is still held (the current or the saved one).
    func loaded(_ v: Int) -> Loaded? {
        let s = snapshot
        return [s.current, s.saved].compactMap { $0 }.first { $0.version == v }
    }

    /// Version `v` scored against the recording by the studio's features; nil when the studio
    /// has no features, or the version is no longer held.
    func score(_ v: Int) -> StudioScores.Outcome? {
        guard let scores, let recording, let loaded = loaded(v) else { return nil }
        var request = scores.request(
            scene: scene, config: options.existingConfig, storyboard: loaded.transition.storyboard, edits: loaded.edits)
        // Scored as `flipbook score --frame-interval --start` scores it: the file's own times,
        // retimed there, from where the recording starts.
        let timing = timing
        request.frameInterval = timing.frameInterval
        request.start = recordingStart(loaded, timing: timing)
        return scores.score(version: v, request, recording: recording.stored, images: images)
    }

    // MARK: Changing

    /// Shows and scores the recording at `new` times (the page's frame interval and start, as
    /// `flipbook score --frame-interval --start` takes them): where no start is given, the one
    /// found at that interval, and every score made at those times.
    public func setTiming(_ new: RecordingTiming) throws {
        guard let recording else {
            throw StudioError("no recording: this studio was started without one to compare against")
        }
        try new.check(recording: recording.path)
        let frames = recording.stored.retimed(frameInterval: new.frameInterval)
        timings.withLock { $0 = new }
        against.withLock { $0?.frames = frames }
        events.send(#"{"type":"against"}"#)
    }

    /// Sets values (`--set` style text by key; nil takes a value back to the file's) and
    /// loads the result, rendering the frame at `time` (the page's scrubber) before any other.
    /// Returns the error, if the values do not load.
    @discardableResult
    public func edit(_ values: [String: String?], at time: Double? = nil) -> String? {
        loading.lock()
        defer { loading.unlock() }
        var edits = snapshot.edits
        for (key, value) in values {
            if let value { edits[key] = value } else { edits.removeValue(forKey: key) }
        }
        let saved = snapshot.saved
        // A value equal to the file's is no change.
        if let saved {
            let file = StudioState.editableValues(saved.transition.parameters)
            edits = edits.filter { file[$0.key] != $0.value }
        }
        return load(edits: edits, reloadSaved: false, first: time)
    }

    /// Views another storyboard or scale; the changed values stay.
    @discardableResult
    public func view(storyboard: String?, scale: Int?) -> String? {
        loading.lock()
        defer { loading.unlock() }
        let before = state.withLock { s in
            let before = (s.storyboard, s.scale)
            if let storyboard { s.storyboard = storyboard }
            if let scale { s.scale = scale }
            return before
        }
        let error = load(edits: snapshot.edits, reloadSaved: true)
        // A view that does not load is not taken: the studio stays on what it showed.
        if error != nil { state.withLock { ($0.storyboard, $0.scale) = before } }
        return error
    }

    /// Drops every changed value: back to the file on disk.
    public func revert() {
        settle(.reload)
    }

    /// Writes the changed values into the scene file (or the config) and loads it as saved.
    /// The file must still read as it did when the edits were made over it: a change made on
    /// disk since is never written over, but reported (`StudioConflict`) until `settle`.
    public func save() throws {
        loading.lock()
        defer { loading.unlock() }
        let edits = snapshot.edits
        guard !edits.isEmpty else { return }
        if diskChanged() != nil { throw StudioConflict() }
        try copyBuiltIn()
        do {
            try valueFile.save(edits, ifStill: snapshot.baseText)
        } catch is ValueFile.ChangedOnDisk {
            _ = diskChanged()
            throw StudioConflict()
        }
        let text = diskText()
        if let error = load(edits: [:], reloadSaved: true) { throw StudioError(error) }
        state.withLock { $0.baseText = text }
    }

    /// A built-in's first save: its file and images copied into `copyFolder` (nothing when a
    /// file there holds other bytes), and the session moved onto the copy, whose text is the
    /// built-in's, so the edits stand over it as they did.
    private func copyBuiltIn() throws {
        guard let copyFolder, scene == options.scene else { return }
        let copied = try Transition.copyScene(options.scene, to: copyFolder)
        let file = try ValueFile(scene: copied[0])
        place.withLock { $0 = Place(scene: copied[0], valueFile: file) }
    }

    /// Loads the files again (one of them changed on disk), keeping the changed values; a
    /// change to the value file under unsaved edits is held as a `DiskChange`.
    @discardableResult
    public func reload() -> String? {
        loading.lock()
        defer { loading.unlock() }
        if diskText() != snapshot.baseText {
            _ = diskChanged()
            return snapshot.error
        }
        return load(edits: snapshot.edits, reloadSaved: true)
    }

    /// Settles a change on disk (or drops every edit, for `.reload`): the file as it is now
    /// becomes what the edits are made over.
    public func settle(_ choice: DiskChoice) {
        loading.lock()
        defer { loading.unlock() }
        let text = diskText()
        var edits = snapshot.edits
        switch choice {
        case .reload: edits = [:]
        case .merge(let keep):
            let conflicts = snapshot.diskChange?.conflicts ?? []
            for key in conflicts where !keep.contains(key) { edits.removeValue(forKey: key) }
        }
        state.withLock {
            $0.diskChange = nil
            $0.baseText = text
        }
        _ = load(edits: edits, reloadSaved: true)
        events.send(#"{"type":"version","version":\#(snapshot.current?.version ?? 0)}"#)
    }

    /// The change on disk held now, noticing one not yet seen: with no unsaved edits a change
    /// is simply loaded; under edits it is held until `settle`. Call with `loading` held.
    private func diskChanged() -> DiskChange? {
        let s = snapshot
        let text = diskText()
        if text == s.baseText { return s.diskChange }
        let before = s.saved.map { StudioState.editableValues($0.transition.parameters) } ?? [:]
        if s.edits.isEmpty {
            _ = load(edits: [:], reloadSaved: true)
            state.withLock { $0.baseText = text }
            return nil
        }
        _ = load(edits: s.edits, reloadSaved: true)
        let after = snapshot.saved.map { StudioState.editableValues($0.transition.parameters) } ?? [:]
        let changed = Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }
            .union(s.diskChange?.keys ?? [])
        let conflicts = changed.filter { s.edits[$0] != nil }.sorted()
        let change = DiskChange(
            keys: changed.sorted(), conflicts: conflicts,
            disk: Dictionary(uniqueKeysWithValues: conflicts.map { ($0, after[$0] ?? "") }),
            mine: Dictionary(uniqueKeysWithValues: conflicts.map { ($0, s.edits[$0]!) }))
        state.withLock {
            $0.diskChange = change
            $0.baseText = text
        }
        events.send(#"{"type":"disk"}"#)
        return change
    }

    /// Builds the transition with `edits` (and without, as saved, when asked or when the view
    /// changed), makes it current and starts its frames; on an error, keeps what was there.
    private func load(edits: [String: String], reloadSaved: Bool, first: Double? = nil) -> String? {
        let s = snapshot
        do {
            var saved = s.saved
            if reloadSaved || saved == nil {
                saved = newVersion(
                    try build(edits: [:], storyboard: s.storyboard, scale: s.scale), edits: [:], lazily: !edits.isEmpty)
            }
            var current = saved!
            if !edits.isEmpty {
                current = newVersion(
                    try build(edits: edits, storyboard: s.storyboard, scale: s.scale), edits: edits, first: first)
            }
            let dropped = state.withLock { st -> [FrameStore] in
                let old = [st.current, st.saved].compactMap { $0 }
                st.current = current
                st.saved = saved
                st.edits = edits
                st.error = nil
                st.errorKey = nil
                let kept = Set([current.version, saved!.version])
                return old.filter { !kept.contains($0.version) }.map(\.store)
            }
            dropped.forEach { $0.cancel() }
            scores?.keep(only: [current.version, saved!.version])
            images.keep(only: Set(current.transition.imageFiles.map(\.path) + saved!.transition.imageFiles.map(\.path)))
            events.send(#"{"type":"version","version":\#(current.version)}"#)
            return nil
        } catch {
            let message = "\(error)"
            let key = (error as? ConfigError)?.assignedKey
            state.withLock {
                $0.error = message
                $0.errorKey = key
            }
            events.send(StudioState.json(ErrorEvent(type: "error", message: message, key: key)))
            return message
        }
    }

    private struct ErrorEvent: Encodable {
        var type: String
        var message: String
        var key: String?
    }

    private func build(edits: [String: String], storyboard: String?, scale: Int) throws -> Transition {
        return try Transition(
            scene, storyboard: storyboard, config: options.existingConfig, set: StudioState.assignments(edits),
            scale: scale,
            images: images)
    }

    private func newVersion(_ t: Transition, edits: [String: String], first time: Double? = nil, lazily: Bool = false)
        -> Loaded
    {
        let v = state.withLock { s -> Int in
            defer { s.nextVersion += 1 }
            return s.nextVersion
        }
        let store = FrameStore(version: v, times: t.frameTimes)
        // The page shows this frame at once; rendered here, it has every core to itself.
        let first = time.flatMap { time in
            (try? t.frame(at: min(max(0, time), t.duration)).bitmap.pngData(fast: true)).map { (time, $0) }
        }
        store.start(t, after: first == nil ? nil : 0.25, lazily: lazily)
        return Loaded(version: v, transition: t, store: store, edits: edits, first: first)
    }
}

/// What the studio was started with.
public struct StudioOptions: Sendable {
    /// A built-in scene's name or a scene file's path.
    public var scene: String
    public var storyboard: String?
    /// A config over the scene, which saving writes instead of the scene file.
    public var config: String?
    public var scale: Int
    /// A recording (GIF, WebP, MP4 or PNG folder) to show beside the render.
    public var against: String?
    /// A features file (as `flipbook score` reads) to score each version against the recording by.
    public var features: String?
    /// For a built-in: the folder its first save copies it into (`./NAME` when nil).
    public var copyFolder: String?
    /// Seconds a frame of the recording really lasted, where its file misstates it (as
    /// `flipbook score --frame-interval`): the page shows it and scores it at those times.
    public var frameInterval: Double?
    /// The storyboard's time at the recording's first frame (as `flipbook score --start`); nil:
    /// found once for each storyboard, as `flipbook score` finds it.
    public var start: Double?

    /// The config while its file exists: saving makes it, and until then the scene's values stand.
    var existingConfig: String? { config.flatMap { FileManager.default.fileExists(atPath: $0) ? $0 : nil } }

    public init(
        scene: String, storyboard: String? = nil, config: String? = nil, scale: Int = 1, against: String? = nil,
        features: String? = nil, copyFolder: String? = nil, frameInterval: Double? = nil, start: Double? = nil
    ) {
        self.frameInterval = frameInterval
        self.start = start
        self.scene = scene
        self.copyFolder = copyFolder
        self.storyboard = storyboard
        self.config = config
        self.scale = scale
        self.against = against
        self.features = features
    }
}

/// How a recording's frames are timed against the storyboard: its real frame interval (nil:
/// the file's own times) and the storyboard's time at its first frame (nil: found).
public struct RecordingTiming: Sendable, Equatable, Decodable {
    public var frameInterval: Double?
    public var start: Double?

    public init(frameInterval: Double? = nil, start: Double? = nil) {
        (self.frameInterval, self.start) = (frameInterval, start)
    }

    /// Throws unless the interval is one a capture can have (as fit's and score's requests
    /// check it), a folder of frames has one, and the start is a number of seconds.
    func check(recording: String) throws {
        if let frameInterval, !FitRequest.frameIntervals.contains(frameInterval) {
            let r = FitRequest.frameIntervals
            throw StudioError(
                "frame interval \(frameInterval.plainText): expected seconds in \(r.lowerBound.plainText)...\(r.upperBound.plainText)"
            )
        }
        var isFolder: ObjCBool = false
        if frameInterval == nil, FileManager.default.fileExists(atPath: recording, isDirectory: &isFolder),
            isFolder.boolValue
        {
            throw StudioError("\(recording) is a folder of frames, which carries no times: give a frame interval")
        }
        if let start, !ScoreRequest.starts.contains(start) {
            throw StudioError("start \(start.plainText): expected seconds into the storyboard")
        }
    }
}

/// A save refused because the file changed on disk under unsaved edits.
public struct StudioConflict: Error, CustomStringConvertible {
    public var description: String {
        "the file changed on disk since the studio read it; choose: reload it, keep yours, or merge"
    }
}

/// A failure the studio reports as it is.
public struct StudioError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
