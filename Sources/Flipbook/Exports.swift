// The types a user of the library handles, from the stages that define them; the rest of
// those modules stays out of sight.
@_exported import struct Raster.Bitmap
@_exported import struct Raster.PremultipliedColor
@_exported import struct Render.Tolerance
@_exported import struct Render.FrameDifference
@_exported import enum Render.FrameComparison
@_exported import struct Render.FrameSequence
@_exported import enum Render.SequenceComparison
@_exported import struct Render.ComparisonReport
@_exported import enum Codecs.OutputStamp
@_exported import enum Codecs.ContainerCheck
@_exported import struct Codecs.OutputDestination
@_exported import struct Scenes.ConfigError
@_exported import struct Scenes.ConfigProblems
@_exported import enum Scenes.SceneError
@_exported import class Render.FrameReader
@_exported import struct Render.FrameOrderError
@_exported import enum Codecs.DecodeError
