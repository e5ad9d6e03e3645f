// The values a user of the library handles, and the errors it throws, from the stages that
// define them; the rest of those modules stays out of sight, so that a front end that imports
// only Flipbook sees the engine and not its stages.
@_exported import struct Raster.Bitmap
@_exported import struct Raster.PremultipliedColor
@_exported import struct Comparison.Tolerance
@_exported import struct Comparison.FrameDifference
@_exported import enum Comparison.FrameComparison
@_exported import struct Comparison.FrameSequence
@_exported import class Comparison.FrameReader
@_exported import struct Comparison.ComparisonReport
@_exported import struct Comparison.FrameOrderError
@_exported import struct Scenes.ConfigError
@_exported import struct Scenes.ConfigProblems
@_exported import enum Scenes.SceneError
@_exported import enum Render.RenderError
@_exported import enum Codecs.DecodeError
@_exported import enum Codecs.EncodeError
// The scene model, its catalog and reference, for front ends that list, check and describe scenes.
@_exported import enum Scenes.SceneCatalog
@_exported import struct Scenes.SceneOverrides
@_exported import struct Scenes.PreparedScene
@_exported import struct Scenes.SceneFile
@_exported import enum Scenes.SceneSchema
@_exported import enum Scenes.SceneFormat
