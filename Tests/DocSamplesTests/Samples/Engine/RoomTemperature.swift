import Foundation
import LinearAlgebra
import StateEstimation

/// Room temperature (a random walk, °C) seen by a cheap thermometer with a slowly drifting bias
/// (Gauss-Markov, °C) and, now and then, by a calibrated reference thermometer.
struct RoomTemperatureModel: StateSpaceModel, Codable, Equatable {
    var temperatureNoiseDensity = 0.01  // °C²/s
    var biasStandardDeviation = 0.5  // °C
    var biasCorrelationTime: Seconds = 3600

    var stateCount: Int { 2 }  // [temperature, bias]

    func discretize(over dt: Seconds, transition: inout Matrix, processNoise: inout Matrix) {
        StateBlock.randomWalk(noiseDensity: temperatureNoiseDensity)
            .write(over: dt, at: 0, transition: &transition, processNoise: &processNoise)
        StateBlock.gaussMarkov(standardDeviation: biasStandardDeviation, correlationTime: biasCorrelationTime)
            .write(over: dt, at: 1, transition: &transition, processNoise: &processNoise)
    }
}

enum Thermometer: MeasurementKind, Codable {
    case cheap, reference

    var dimension: Int { 1 }

    func observationMatrix(at mean: Matrix, into h: inout Matrix) {
        h[0, 0] = 1  // both see the temperature
        if self == .cheap { h[0, 1] = 1 }  // the cheap one adds its bias
    }
}

typealias RoomTemperatureFilter = KalmanFilter<RoomTemperatureModel>

func roomTemperature() throws
    -> (filter: RoomTemperatureFilter, restored: RoomTemperatureFilter, smoothed: SmoothedRun?)
{
    var filter = try KalmanFilter(
        model: RoomTemperatureModel(), time: 0, mean: [20, 0],
        covariance: .diagonal([25, 0.25]), recordsRun: true)
    let gate = try Gate.mahalanobis(5)

    // The hot path: predict, then one scalar update; nothing is allocated.
    try filter.predict(to: 1.0)
    let record = try filter.update(21.3, kind: Thermometer.cheap, variance: 0.01, gate: gate)
    print(record.innovation, record.innovationVariance, record.normalizedInnovationSquared, record.decision)
    try filter.predict(to: 1.0)  // the same time: nothing to do
    try filter.update(20.9, kind: Thermometer.reference, variance: 0.0025)

    // Batch: predict to each measurement's time and update, all or nothing.
    let later = [
        TimedMeasurement(time: 30, kind: Thermometer.cheap, value: 21.5, variance: 0.01, gate: gate),
        TimedMeasurement(time: 60, kind: Thermometer.cheap, value: 21.6, variance: 0.01, gate: gate),
    ]
    let estimates = try filter.process(later)
    print(estimates.map { ($0.time, $0.mean[0, 0], $0.covariance[0, 0].squareRoot()) })

    // Checkpoint: save, restore, continue bit-identically.
    let saved = try JSONEncoder().encode(filter.checkpoint)
    let decoded = try JSONDecoder().decode(FilterCheckpoint<RoomTemperatureModel>.self, from: saved)
    let restored = try KalmanFilter(restoring: decoded)

    // Offline: the Rauch-Tung-Striebel smoother over the recorded run.
    let smoothed = try filter.recordedRun?.smoothed()
    return (filter, restored, smoothed)
}
