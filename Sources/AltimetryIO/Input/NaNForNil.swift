/// An optional reading stored as a plain double, NaN standing for none.
///
/// A `Double?` takes 16 bytes in an array, so seven of them made an `InputRow` 152 bytes instead of 96, and a
/// million-row table 56 MB larger. Readers never store NaN as a value (a NaN cell is an error), so the encoding
/// loses nothing; equality is that of the optionals.
@propertyWrapper
public struct NaNForNil: Sendable, Equatable {
    private var stored: Double

    /// Stores `wrappedValue`, NaN for nil.
    public init(wrappedValue: Double?) { stored = wrappedValue ?? .nan }

    /// The reading, nil where NaN is stored.
    public var wrappedValue: Double? {
        get { stored.isNaN ? nil : stored }
        set { stored = newValue ?? .nan }
    }

    /// Whether the readings are equal (two nils are).
    public static func == (a: NaNForNil, b: NaNForNil) -> Bool { a.wrappedValue == b.wrappedValue }
}
