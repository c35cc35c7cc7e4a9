import Simulation

func canyonOutliers(to output: inout some TextOutputStream) throws {
    let scenario = Scenario.named(.canyon, seed: 42)  // or .named(.hike, seed: 7, duration: 3_600)
    let recording = try scenario.simulate()
    for (reading, truth) in zip(recording.readings, recording.truth) where truth.isOutlier {
        print(reading.time, reading.gpsAltitude ?? .nan, truth.altitude, to: &output)
    }
}
