import Foundation

/// UIScrollView's physics: deceleration, its projected resting offset, the rubber band, and
/// snapping to pages of a carousel.
public enum ScrollPhysics {
    /// `UIScrollView.DecelerationRate.normal`: velocity kept per millisecond.
    public static let normalDeceleration = 0.998
    /// `UIScrollView.DecelerationRate.fast`.
    public static let fastDeceleration = 0.99
    /// The rubber band's constant.
    public static let rubberBandConstant = 0.55

    /// The offset `t` seconds after a flick at `velocity` pt/s from `offset`:
    /// x(t) = x0 + v0·(r^(1000t) − 1)/(1000·ln r).
    public static func decelerating(
        from offset: Double, velocity: Double, rate: Double = normalDeceleration, after t: Double
    ) -> Double {
        offset + velocity * (pow(rate, 1000 * t) - 1) / (1000 * log(rate))
    }

    /// Where a flick comes to rest: x0 − v0/(1000·ln r).
    public static func projectedOffset(from offset: Double, velocity: Double, rate: Double = normalDeceleration)
        -> Double
    {
        offset - velocity / (1000 * log(rate))
    }

    /// The rubber band: a pull of `overshoot` pt past the edge shows as
    /// (1 − 1/(x·c/d + 1))·d, with slope c at 0 and asymptote d (the viewport on that axis).
    public static func rubberBand(_ overshoot: Double, dimension: Double, constant: Double = rubberBandConstant)
        -> Double
    {
        let x = abs(overshoot)
        let banded = (1 - 1 / (x * constant / dimension + 1)) * dimension
        return overshoot < 0 ? -banded : banded
    }

    /// How far a finger moves for the rubber band to show `shown` points: its inverse, capped
    /// just under the dimension (which the band only nears).
    public static func fingerTravel(shown: Double, dimension: Double, constant: Double = rubberBandConstant) -> Double {
        let b = min(shown, dimension * 0.999)
        return b * dimension / (constant * (dimension - b))
    }

    /// The offset a paging carousel snaps to after a release: the projected offset rounded to
    /// the nearest page, x = round((x∞ + inset)/(page + spacing))·(page + spacing) − inset,
    /// clamped to the pages.
    public static func snapTarget(
        offset: Double, velocity: Double, page: Double, spacing: Double, inset: Double, pages: Int,
        rate: Double = normalDeceleration
    ) -> Double {
        let projected = projectedOffset(from: offset, velocity: velocity, rate: rate)
        let stride = page + spacing
        let index = min(max(0, ((projected + inset) / stride).rounded()), Double(max(0, pages - 1)))
        return index * stride - inset
    }
}
