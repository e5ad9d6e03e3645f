import Flipbook

/// A version's timeline as the page draws it (`/api/timeline`): the phases with the param
/// that sets each one's length, the layers' animated properties, and what each param moves.
struct StudioTimeline: Encodable {
    var version: Int
    var phases: [Phase]
    var tracks: [Track]
    /// For each param the storyboard reads: the layers it moves or restyles.
    var moves: [String: [String]]
    /// For each param the storyboard reads: the phases it shapes, by name.
    var shapes: [String: [String]]

    struct Phase: Encodable {
        var name: String
        var start: Double
        var end: Double
        /// The param whose value lengthens the phase one for one; dragging its end edits it.
        var lengthKey: String?
    }

    struct Track: Encodable {
        var layer: String
        var property: String
        var spans: [[Double]]
    }

    init(version: Int, _ t: Transition) {
        self.version = version
        let influence = t.influence()
        phases = zip(t.phases, influence.phaseLengthKeys).map {
            Phase(name: $0.name, start: $0.start.rounded6, end: $0.end.rounded6, lengthKey: $1)
        }
        tracks = t.tracks.map { track in
            Track(
                layer: track.layer, property: track.property,
                spans: track.spans.map { [$0.lowerBound.rounded6, $0.upperBound.rounded6] })
        }
        moves = influence.layersMoved
        shapes = influence.phasesShaped
    }
}
