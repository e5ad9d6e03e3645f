import Flipbook
import ArgumentParser
import Foundation

/// `flipbook curve`: prints a timing curve as CSV, and plots it.
struct CurveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "curve",
        abstract: "Print a timing curve as t,progress CSV (and plot it as a PNG).",
        discussion: """
            SPEC is one of:
              linear | easeIn | easeOut | easeInEaseOut | default  [:duration=S]
              bezier:X1,Y1,X2,Y2[,duration=S]
              spring:duration=S,dampingRatio=Z[,velocity=V]
                  UIView.animate(usingSpringWithDamping:), UIKit's fit
              caspring:mass=M,stiffness=K,damping=C[,velocity=V][,duration=S]
                  CASpringAnimation
              response:response=S[,bounce=B][,velocity=V]
                  UISpringTimingParameters(dampingRatio:response:)
              system
                  mass 3, stiffness 1000, damping 500, for 0.5 s
            Example: flipbook curve spring:duration=0.6,dampingRatio=0.7 --plot spring.png
            """)

    @Argument(help: "The curve (see below).")
    var spec: String

    @Option(help: ArgumentHelp("Samples per second.", valueName: "fps"))
    var fps: Double = 60

    @Option(help: ArgumentHelp("Seconds to print (default: the curve's own duration).", valueName: "seconds"))
    var duration: Double?

    @Option(help: ArgumentHelp("Also draw the curve as a PNG plot here.", valueName: "file.png"))
    var plot: String?

    func validate() throws {
        guard fps > 0 && fps <= 10_000 else { throw ValidationError("--fps \(fps): expected a number in (0, 10000]") }
        if let duration, !(duration > 0 && duration <= 600) {
            throw ValidationError("--duration \(duration): expected seconds in (0, 600]")
        }
        if let plot, !plot.lowercased().hasSuffix(".png") {
            throw ValidationError("--plot \(plot): expected a path ending in .png")
        }
    }

    func run() throws {
        let curve: CurveTable
        do {
            curve = try CurveTable(spec: spec)
        } catch {
            throw ValidationError("\(error)")
        }
        let seconds = duration ?? curve.duration
        StandardStreams.write(curve.csv(fps: fps, duration: seconds))
        if let plot {
            try curve.plot(duration: seconds, fps: fps).writePNG(to: plot)
            StandardStreams.writeError("wrote \(plot)\n")
        }
    }
}
