/// The FIT messages Altimetry reads, decoded into units: what `FITDecoder` gives.
///
/// Every value is optional: a field that is absent, or holds its base type's invalid sentinel (`0xFFFF` for a
/// `uint16`, `0x7FFFFFFF` for a `sint32`...), is no reading.
public struct FITMessages: Sendable, Equatable {
    /// A `record` message (global number 20): the device's sample, usually once a second.
    ///
    /// Its optional values are stored as NaN for none (`NaNForNil`): 64 bytes a record instead of 120.
    public struct Record: Sendable, Equatable {
        /// The message's index among all data messages of the file (0-based), for messages.
        public var index: Int
        /// Seconds since 1970-01-01T00:00:00Z (FIT counts from 1989-12-31T00:00:00Z: 631,065,600 s later).
        @NaNForNil public var time: Double?
        /// Degrees, WGS 84 (FIT semicircles × 180 / 2³¹).
        @NaNForNil public var latitude: Double?
        @NaNForNil public var longitude: Double?
        /// `altitude` (uint16, m × 5 + 500) and `enhanced_altitude` (uint32, same scale), in metres.
        @NaNForNil public var altitude: Double?
        @NaNForNil public var enhancedAltitude: Double?
        /// Air temperature, in °C (sint8).
        @NaNForNil public var temperature: Double?
        /// Station pressure, in Pa (uint32), which few devices record.
        @NaNForNil public var absolutePressure: Double?
    }

    /// A `gps_metadata` message (global number 160): a GNSS fix with its own altitude, beside a barometric record.
    public struct GNSSFix: Sendable, Equatable {
        public var index: Int
        /// Seconds since 1970, with `timestamp_ms` added where present.
        public var time: Double?
        public var latitude: Double?
        public var longitude: Double?
        /// `enhanced_altitude` (uint32, m × 5 + 500), in metres above mean sea level.
        public var altitude: Double?
    }

    /// One sample of a `barometer_data` message (global number 209): the barometer's own stream, several samples
    /// a message, which watches with a barometer (Garmin fēnix, epix, Forerunner, Venu...) write beside their
    /// records when recording the sensor's raw data.
    public struct BarometerSample: Sendable, Equatable {
        /// The message's index among all data messages of the file (0-based).
        public var index: Int
        /// Seconds since 1970: the message's `timestamp`, plus `timestamp_ms` and the sample's
        /// `sample_time_offset` (ms); nil without the timestamp or the sample's offset.
        public var time: Double?
        /// `baro_pres` (uint32, Pa): station pressure; nil for the invalid sentinel.
        public var pressure: Double?
    }

    public var records: [Record] = []
    public var gnssFixes: [GNSSFix] = []
    public var barometerSamples: [BarometerSample] = []
    /// `file_id`'s `manufacturer` and `product` numbers and `product_name`, when the file has them.
    public var manufacturer: Int?
    public var product: Int?
    public var productName: String?
    /// Data messages of other kinds, skipped (`session`, `lap`, `device_info`, manufacturer messages...).
    public var skippedMessages = 0
    /// Developer fields skipped, in all messages.
    public var skippedDeveloperFields = 0
}
