import Foundation

extension AltitudeFilter {
    /// The readings the filter expects at a future time: the mean predicted forward, mapped to a pressure (hPa)
    /// and a GPS altitude (m, including the predicted correlated error). Nil before the first reading or for a
    /// time before the filter's.
    ///
    /// Readings with exactly these values leave the mean where the prediction puts it and shrink the covariance
    /// exactly as real readings would, which is how `BarometerCalibration` forecasts.
    ///
    /// - Parameter time: the future time, in seconds on the readings' clock.
    public func predictedMeasurements(at time: Double) -> (pressure: Hectopascals, gpsAltitude: Meters)? {
        guard var engine, time >= engine.time else { return nil }
        do { try engine.predict(to: time) } catch { return nil }
        let u = engine.mean[AltitudeModel.altitudeIndex, 0]
        let b = engine.mean[AltitudeModel.weatherIndex, 0]
        let e = engine.mean[engine.model.gpsErrorIndex, 0]
        // The barometer reads its re-anchored offset too (zero unless it stepped).
        let pressure =
            StandardAtmosphere.seaLevelPressure * exp((b - u) / LogPressureCoordinates.scaleHeight) + barometerOffset
        let scale = Self.columnScale(engine.mean, columnIndex: parameters.columnIndex)
        let h0 = LogPressureCoordinates.altitude(u)
        return (pressure, h0 + (scale - 1) * heightMoved + e)
    }
}
