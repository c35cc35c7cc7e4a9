extension AscentReport.Uncertain {
    /// A figure known only to lie between two counts `a` and `b`: their middle, with the bracket in its sigma.
    ///
    /// The value is uniform on the bracket as far as the counts can say, so its variance is the larger of the two
    /// counts' own variances plus the bracket's, (b − a)²/12 (a uniform distribution's); two sigmas then reach past
    /// both ends. The parts (pressure, column) are the larger count's.
    ///
    /// - Parameters:
    ///   - a: one count, with its sigma.
    ///   - b: the other.
    /// - Returns: the middle of the two, with σ² = max(σ_a², σ_b²) + (b − a)²/12.
    static func bracketing(_ a: Self, _ b: Self) -> Self {
        let own = a.standardDeviation >= b.standardDeviation ? a : b
        let spread = b.value - a.value
        return Self(
            value: (a.value + b.value) / 2,
            standardDeviation: (own.standardDeviation * own.standardDeviation + spread * spread / 12).squareRoot(),
            pressureStandardDeviation: own.pressureStandardDeviation,
            columnStandardDeviation: own.columnStandardDeviation)
    }
}
