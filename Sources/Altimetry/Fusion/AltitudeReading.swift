/// One row of sensor readings at one time: a pressure, a GPS altitude, or both.
///
/// Values are already in the core's units; file readers and live sources convert at their boundary
/// (kPa to hPa, ellipsoidal to mean-sea-level altitude, a 95 % accuracy to one sigma).
public struct AltitudeReading: Sendable, Equatable, Codable {
    /// Time, in seconds on any fixed origin; never decreasing from one reading to the next.
    public var time: Double
    /// Station pressure from the barometer, in hPa; nil if the barometer has no reading at this time.
    public var pressure: Hectopascals?
    /// GPS altitude above mean sea level, in metres; nil without a fix.
    public var gpsAltitude: Meters?
    /// The fix's reported vertical accuracy as one standard deviation, in metres; nil if not reported.
    public var gpsVerticalAccuracy: Meters?
    /// Air temperature at the station, in kelvin; nil if not measured.
    public var temperature: Kelvin?

    /// A reading at `time` (seconds) with the values given, in the units of the properties.
    ///
    /// - Parameters:
    ///   - time: the reading's time, in seconds.
    ///   - pressure: the station pressure, in hPa, or nil.
    ///   - gpsAltitude: the GPS altitude above mean sea level, in metres, or nil.
    ///   - gpsVerticalAccuracy: the fix's vertical accuracy as one standard deviation, in metres, or nil.
    ///   - temperature: the air temperature at the station, in kelvin, or nil.
    public init(
        time: Double, pressure: Hectopascals? = nil, gpsAltitude: Meters? = nil,
        gpsVerticalAccuracy: Meters? = nil, temperature: Kelvin? = nil
    ) {
        self.time = time
        self.pressure = pressure
        self.gpsAltitude = gpsAltitude
        self.gpsVerticalAccuracy = gpsVerticalAccuracy
        self.temperature = temperature
    }

    /// Checks every value is finite and physical.
    ///
    /// The bounds keep every number the filter derives finite: the barometer's noise in log-pressure grows as
    /// 1/p, so a pressure of 1e-297 hPa would give an infinite variance; a vertical accuracy a enters as a², and
    /// a time as a step whose process noise grows with it. They are far outside any recording: 10 hPa is about
    /// 31 km up (the GPS bound is 20 km), 1,200 hPa below the deepest mine, 10¹² s about 31,700 years.
    ///
    /// - Throws: `AltitudeModelError.invalidReading` naming the field, or `.emptyReading`.
    public func validate() throws(AltitudeModelError) {
        guard time.isFinite && abs(time) < 1e12 else {
            throw .invalidReading(
                time: time, field: "t", value: time, expected: "a finite time in seconds, within ±10¹² s")
        }
        if let pressure, !(pressure >= 10 && pressure <= 1_200) {
            throw .invalidReading(
                time: time, field: "pressure_hpa", value: pressure,
                expected: "a station pressure between 10 hPa and 1,200 hPa")
        }
        if let gpsAltitude, !(gpsAltitude.isFinite && abs(gpsAltitude) < 20_000) {
            throw .invalidReading(
                time: time, field: "gps_alt_m", value: gpsAltitude, expected: "a finite altitude in metres")
        }
        if let a = gpsVerticalAccuracy, !(a > 0 && a < 100_000) {
            throw .invalidReading(
                time: time, field: "gps_vacc_m", value: a,
                expected: "a positive accuracy in metres, below 100 km")
        }
        if let t = temperature, !(t.isFinite && t > 150 && t < 350) {
            throw .invalidReading(
                time: time, field: "temperature", value: t, expected: "an air temperature between 150 K and 350 K")
        }
        if pressure == nil && gpsAltitude == nil { throw .emptyReading(time: time) }
    }
}
