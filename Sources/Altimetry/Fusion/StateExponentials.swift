import Foundation

/// The two exponentials of the state that a row of `AltitudeFilter` asks for more than once, each kept with the
/// state value it was computed at.
///
/// dh₀/dU = exp(−L U/T₀) (`LogPressureCoordinates.altitudeDerivative`) and QNH = p₀ exp(B/H₀)
/// (`LogPressureCoordinates.seaLevelPressure`) are read at a row's start (keeping the process noise scaled at the
/// state), after a fix (the fault monitor's altitude variance) and at its end (the estimate); the state does not
/// move between the last row's estimate and this row's scaling, nor between the fix's monitoring and the estimate.
/// Asked at the argument of the last call, bit for bit, each returns the value it computed then: the same bits as
/// computing it again, both being functions of their argument alone.
struct StateExponentials: Sendable {
    /// The last U asked (metres of log-pressure) and exp(−L U/T₀) at it.
    private var altitude = 0.0
    private var altitudeSlope = LogPressureCoordinates.altitudeDerivative(0)
    /// The last B asked (metres of log-pressure) and the QNH at it, in hPa.
    private var weather = 0.0
    private var qnh = LogPressureCoordinates.seaLevelPressure(0)

    /// dh₀/dU = exp(−L U/T₀) at `u`, as `LogPressureCoordinates.altitudeDerivative(u)`.
    @inline(__always)
    mutating func altitudeDerivative(_ u: Meters) -> Double {
        if u.bitPattern != altitude.bitPattern {
            altitude = u
            altitudeSlope = LogPressureCoordinates.altitudeDerivative(u)
        }
        return altitudeSlope
    }

    /// The QNH at `b`, in hPa, as `LogPressureCoordinates.seaLevelPressure(b)`.
    @inline(__always)
    mutating func seaLevelPressure(_ b: Meters) -> Hectopascals {
        if b.bitPattern != weather.bitPattern {
            weather = b
            qnh = LogPressureCoordinates.seaLevelPressure(b)
        }
        return qnh
    }
}
