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
    /// One function's last argument and its value there.
    private struct Remembered: Sendable {
        var argument: Double
        var value: Double

        /// f(x), from the remembered value when x is the last argument (bit for bit).
        @inline(__always)
        mutating func value(at x: Double, of f: (Double) -> Double) -> Double {
            if x.bitPattern != argument.bitPattern {
                argument = x
                value = f(x)
            }
            return value
        }
    }

    /// U (metres of log-pressure) and exp(−L U/T₀).
    private var altitude = Remembered(argument: 0, value: LogPressureCoordinates.altitudeDerivative(0))
    /// B (metres of log-pressure) and the QNH at it, in hPa.
    private var weather = Remembered(argument: 0, value: LogPressureCoordinates.seaLevelPressure(0))

    /// dh₀/dU = exp(−L U/T₀) at `u`, as `LogPressureCoordinates.altitudeDerivative(u)`.
    @inline(__always)
    mutating func altitudeDerivative(_ u: Meters) -> Double {
        altitude.value(at: u, of: LogPressureCoordinates.altitudeDerivative)
    }

    /// The QNH at `b`, in hPa, as `LogPressureCoordinates.seaLevelPressure(b)`.
    @inline(__always)
    mutating func seaLevelPressure(_ b: Meters) -> Hectopascals {
        weather.value(at: b, of: LogPressureCoordinates.seaLevelPressure)
    }
}
