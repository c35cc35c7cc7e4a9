import Altimetry
import Foundation
import StateEstimation

extension SeedTables {
    /// The tables as aligned plain text, with the inputs each one used, in the seed's order.
    public var text: String {
        var sections: [String] = []
        sections.append(
            TextTable(
                title: "Standard atmosphere (ISA troposphere: 1013.25 hPa and 15 °C at sea level, 6.5 K/km)",
                header: ["Altitude", "Pressure", "Height per hPa"],
                rows: isa.map {
                    [
                        Self.format($0.altitude, 0, "m"), Self.format($0.pressure, 1, "hPa"),
                        Self.format($0.metersPerHectopascal, 2, "m"),
                    ]
                }
            ).rendered)

        sections.append("Scale height R T / (g M) at 15 °C: \(Self.format(scaleHeight, 0, "m"))\n")

        sections.append(
            TextTable(
                title:
                    "A \(Self.format(Self.climbHeight, 0, "m")) climb in the standard atmosphere, converted at an assumed temperature",
                header: ["Assumed", "Reads as"],
                rows: temperature.map { [Self.format($0.celsius, 0, "°C"), Self.format($0.apparentClimb, 2, "m")] }
            ).rendered)

        sections.append(
            TextTable(
                title: "Wind straight into the pressure port (q = ½ρv², ρ = 1.225 kg/m³, at sea level)",
                header: ["Wind", "Pressure", "Apparent height"],
                rows: wind.map {
                    [
                        Self.format($0.speed, 0, "m/s"), Self.format($0.pressure, 2, "hPa"),
                        Self.format($0.apparentHeight, 1, "m"),
                    ]
                }
            ).rendered)

        let gpsInputs =
            "σ = \(Self.format(Self.gpsStandardDeviation, 0, "m")), τ = \(Self.format(Self.gpsCorrelationTime, 0, "s")), "
            + "1 Hz; simulated from \(Self.monteCarloTrials) trials per window, seed \(Self.monteCarloSeed)"
        sections.append(
            TextTable(
                title: "Averaging GPS altitude with a Gauss-Markov error (\(gpsInputs))",
                header: ["Window", "Simulated", "Exact", "σ√(2τ/T)", "Independent", "GLS bound"],
                rows: gpsAveraging.map {
                    [
                        Self.formatWindow($0.window), Self.format($0.simulated, 2, "m"), Self.format($0.exact, 2, "m"),
                        Self.format($0.approximation, 2, "m"), Self.format($0.independent, 2, "m"),
                        Self.format($0.generalizedLeastSquaresBound, 2, "m"),
                    ]
                }
            ).rendered)

        sections.append(
            TextTable(
                title:
                    "Building visit (seed \(Self.buildingVisitSeed): barometer noise 0.012 hPa, weather −1 hPa/h, floors 3 m apart)",
                header: ["Duration", "Weather drift", "True floor", "Naive floor"],
                rows: [
                    [
                        Self.format(Double(buildingVisit.duration), 0, "s"), Self.format(buildingVisit.drift, 2, "m"),
                        "\(buildingVisit.trueFloor)", "\(buildingVisit.naiveFloor)",
                    ]
                ]
            ).rendered)

        return sections.joined(separator: "\n")
    }

    /// A number with `decimals` digits after the point and a unit.
    static func format(_ value: Double, _ decimals: Int, _ unit: String) -> String {
        String(format: "%.\(decimals)f", value) + " " + unit
    }

    /// A window in the largest whole unit: 60 s is "1 min", 3,600 s is "1 h".
    static func formatWindow(_ seconds: Seconds) -> String {
        if seconds >= 3_600, seconds.truncatingRemainder(dividingBy: 3_600) == 0 { return "\(Int(seconds / 3_600)) h" }
        if seconds >= 60, seconds.truncatingRemainder(dividingBy: 60) == 0 { return "\(Int(seconds / 60)) min" }
        return format(seconds, 0, "s")
    }
}
