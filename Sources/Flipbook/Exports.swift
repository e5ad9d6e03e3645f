// The types a user of the library handles, from the stages that define them; the rest of
// those modules stays out of sight.
@_exported import struct Raster.Bitmap
@_exported import struct Raster.PremultipliedColor
@_exported import struct Comparison.Tolerance
@_exported import struct Comparison.FrameDifference
@_exported import enum Comparison.FrameComparison
@_exported import struct Comparison.FrameSequence
@_exported import enum Comparison.SequenceComparison
@_exported import struct Comparison.ComparisonReport
@_exported import struct Codecs.OutputDestination
@_exported import struct Scenes.ConfigError
@_exported import struct Scenes.ConfigProblems
@_exported import enum Scenes.SceneError
@_exported import class Comparison.FrameReader
@_exported import struct Comparison.FrameOrderError
@_exported import enum Codecs.DecodeError
// The scene model, its catalog and reference, for front ends that list, check and describe scenes.
@_exported import enum Scenes.SceneCatalog
@_exported import struct Scenes.SceneOverrides
@_exported import struct Scenes.PreparedScene
@_exported import struct Scenes.SceneFile
@_exported import enum Scenes.SceneSchema
@_exported import enum Scenes.SceneFormat
@_exported import struct Render.SceneRenderer
@_exported import struct Planner.DrawCommand
@_exported import enum Planner.Curve
@_exported import struct Geometry.Rect
@_exported import struct Geometry.PixelRect
@_exported import struct Geometry.Color
@_exported import enum Codecs.PNGCodec
@_exported import enum Codecs.PNGSequence
@_exported import class Codecs.AtomicOutput
@_exported import enum Codecs.EncodeError
@_exported import class FileInput.FileWatcher
@_exported import enum Render.RenderError
