import Altimetry

/// An air-temperature reading that accompanies each barometer sample (the `temperature_c` column).
///
/// Reports the true air temperature at the person's altitude plus a constant bias and white noise, in
/// degrees Celsius. The defaults describe a sensor that reads the air it is in; a phone in a pocket would
/// have a warm bias of several kelvin.
public struct TemperatureSensor: Sendable, Equatable, Codable {
    /// Constant error of every reading, in kelvin.
    public var bias: Kelvin
    /// Standard deviation of the white noise, in kelvin.
    public var noiseStandardDeviation: Kelvin

    /// A sensor with `bias` and white noise of `noiseStandardDeviation`, both in kelvin.
    ///
    /// - Parameters:
    ///   - bias: the constant error of every reading, in kelvin.
    ///   - noiseStandardDeviation: the standard deviation of each reading's white noise, in kelvin.
    public init(bias: Kelvin = 0, noiseStandardDeviation: Kelvin = 0.2) {
        self.bias = bias
        self.noiseStandardDeviation = noiseStandardDeviation
    }
}
