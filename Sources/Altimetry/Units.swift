import StateEstimation

/// A length in metres.
public typealias Meters = Double
/// A pressure in hectopascals (equal to millibars).
public typealias Hectopascals = Double
/// A temperature in kelvin.
public typealias Kelvin = Double
