/// The FIT messages Altimetry reads, decoded into units: what `FITDecoder` gives.
///
/// Every value is optional: a field that is absent, or holds its base type's invalid sentinel (`0xFFFF` for a
/// `uint16`, `0x7FFFFFFF` for a `sint32`...), is no reading.
package struct FITMessages: Sendable, Equatable {
    /// A `record` message (global number 20): the device's sample, usually once a second.
    ///
    /// Its optional values are stored as NaN for none (`NaNForNil`): 64 bytes a record instead of 120.
    package struct Record: Sendable, Equatable {
        /// The message's index among all data messages of the file (0-based), for messages.
        package var index: Int
        /// Seconds since 1970-01-01T00:00:00Z (FIT counts from 1989-12-31T00:00:00Z: 631,065,600 s later).
        @NaNForNil package var time: Double?
        /// Degrees, WGS 84 (FIT semicircles × 180 / 2³¹).
        @NaNForNil package var latitude: Double?
        @NaNForNil package var longitude: Double?
        /// `altitude` (uint16, m × 5 + 500) and `enhanced_altitude` (uint32, same scale), in metres.
        @NaNForNil package var altitude: Double?
        @NaNForNil package var enhancedAltitude: Double?
        /// Air temperature, in °C (sint8).
        @NaNForNil package var temperature: Double?
        /// Station pressure, in Pa (uint32), which few devices record.
        @NaNForNil package var absolutePressure: Double?
    }

    /// A `gps_metadata` message (global number 160): a GNSS fix with its own altitude, beside a barometric record.
    package struct GNSSFix: Sendable, Equatable {
        package var index: Int
        /// Seconds since 1970, with `timestamp_ms` added where present.
        package var time: Double?
        package var latitude: Double?
        package var longitude: Double?
        /// `enhanced_altitude` (uint32, m × 5 + 500), in metres above mean sea level.
        package var altitude: Double?
    }

    /// One sample of a `barometer_data` message (global number 209): the barometer's own stream, several samples
    /// a message, which watches with a barometer (Garmin fēnix, epix, Forerunner, Venu...) write beside their
    /// records when recording the sensor's raw data.
    package struct BarometerSample: Sendable, Equatable {
        /// The message's index among all data messages of the file (0-based).
        package var index: Int
        /// Seconds since 1970: the message's `timestamp`, plus `timestamp_ms` and the sample's
        /// `sample_time_offset` (ms); nil without the timestamp or the sample's offset.
        package var time: Double?
        /// `baro_pres` (uint32, Pa): station pressure; nil for the invalid sentinel.
        package var pressure: Double?
    }

    package var records: [Record] = []
    package var gnssFixes: [GNSSFix] = []
    package var barometerSamples: [BarometerSample] = []
    /// `file_id`'s `manufacturer` and `product` numbers and `product_name`, when the file has them.
    package var manufacturer: Int?
    package var product: Int?
    package var productName: String?
    /// The creator's `device_info` (`device_index` 0), when the file has one.
    package var creatorDevice: Device?

    /// A device as `device_info` names it.
    package struct Device: Sendable, Equatable {
        package var manufacturer: Int
        package var product: Int?
        package var productName: String?
    }
    /// Data messages of other kinds, skipped (`session`, `lap`, `device_info`, manufacturer messages...).
    package var skippedMessages = 0
    /// Developer fields skipped, in all messages.
    package var skippedDeveloperFields = 0
    /// What was wrong with a damaged file that was read anyway (a CRC that does not match, a truncated file, the
    /// record where decoding stopped), at byte offsets, in file order.
    package var warnings: [Warning] = []

    /// A problem of a damaged file that did not stop the read: at a byte offset, what was found.
    package struct Warning: Sendable, Equatable {
        package var offset: Int
        package var message: String
    }
}
