/// A time in seconds, or a time step in seconds.
public typealias Seconds = Double
