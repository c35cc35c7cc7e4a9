import StateEstimation

extension AltitudeFilter {
    /// The height, in metres, a track must move for its fixes to teach the column: 30 m.
    ///
    /// The column's whole prior (10 K, 3.5 % of any height) changes a 30 m move by 1 m, the GPS's white noise: a
    /// smaller move carries nothing about the column that one fix could see.
    public static let columnExcitationHeight: Meters = 30

    /// Whether the GPS fix at `time` leaves the column alone (a Schmidt, or "consider", update: the column's gain is
    /// zero, its uncertainty still counted in the fix's innovation and in the other states' gains).
    ///
    /// GPS sees the column through the height a pressure change stands for, h = k h₀(U), k = 1 + C/T₀: over a move
    /// of D, C changes the height by D C/T₀, and at a still station only through the absolute altitude, h₀/T₀ per
    /// kelvin (0.13 m/K at 38 m). The fixes at a new level finish measuring the move that led there within
    /// `columnStillTime` (ten correlation times of the default receiver); after that, a still station's fixes move
    /// the column by their own slow wander, which no receiver model of minutes can tell from the column: a logger
    /// still at 38 m for ten days took the column to +87 °C (sigma 8 K), a desk at 28 m for five hours to −45 °C
    /// (`Docs/model.md`, "The column at a still station"). So the fix leaves the column alone when all three hold:
    ///
    /// - the first fixes (`ungatedFirstFixes`) are past: they split the start's difference between the barometer's
    ///   altitude and GPS's between the weather and the column, which the QNH's prior makes real evidence;
    /// - the barometer has been still for `columnStillTime` (the barometer, not the estimate: a filter that follows a
    ///   wandering GPS moves its altitude with it): its pressure altitude has stayed within `columnExcitationHeight`
    ///   of an anchor that is taken again, where it stands, whenever it is `columnStillTime` old. A move is 30 m
    ///   within 10 to 20 minutes (a walker's climb at 0.05 m/s and faster); the weather's drift is slower (a storm's
    ///   3 hPa/h is 25 m an hour) and the anchor follows it. An anchor kept since the stillness began let a storm
    ///   release the column for ten minutes every hour of a 15 hPa fall (the 7.3 h Bergen logger's outdoor hours),
    ///   and the fixes then moved it by the GPS's wander: 9 and 14 K where held it moves by 1.4 and 2.1 K, through
    ///   the barometer's updates and the column's correlation with the altitude (`AltitudeFilterColumnHoldTests`);
    /// - the column's whole uncertainty moves the altitude by less than one correlated GPS error, (h₀/T₀) σ_C < σ_e.
    ///   Higher up the column is a large share of the altitude's own uncertainty (35 m at 1,000 m), and a fix that
    ///   cannot move it cannot pin the altitude either: a first form of the rule without this condition (and with a
    ///   still speed of 0.2 m/s in place of the 30 m) took the stress benchmark's walks at 1,000 m from RMSE 3.6 m to
    ///   8.9 m.
    ///
    /// Updates the still-since record as a side effect; a temperature reading still informs the column.
    mutating func holdsColumn(at time: Double) -> Bool {
        guard let c = parameters.columnIndex, parameters.columnStillTime > 0 else { return false }
        guard let pressureAltitude = lastPressureAltitude else { return false }
        if let still = stillSince, abs(pressureAltitude - still.altitude) <= Self.columnExcitationHeight {
            // The anchor follows what moves less in the still time: the weather's drift, not a move.
            if time - still.anchorTime >= parameters.columnStillTime {
                stillSince = (still.time, pressureAltitude, time)
            }
        } else {
            stillSince = (time, pressureAltitude, time)
        }
        guard fixCount > parameters.ungatedFirstFixes, let since = stillSince?.time,
            time - since >= parameters.columnStillTime
        else { return false }
        let u = core.mean[AltitudeModel.altitudeIndex, 0]
        let lever = abs(LogPressureCoordinates.altitude(u)) / StandardAtmosphere.seaLevelTemperature
        let columnSigma = max(0, core.covariance[c, c]).squareRoot()
        return lever * columnSigma < parameters.gpsErrorStandardDeviation
    }
}
