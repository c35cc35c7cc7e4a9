import AltimetryIO
import Foundation

/// `altimetry-bench inputs [--rows N] [--samples K]`: the readers' speed, each against the plain CSV reader on `t`
/// in the same rounds.
///
/// Generates, in memory: a CSV of N rows (default 1,000,000; `t,pressure_hpa,gps_alt_m`) and the same rows with an
/// ISO 8601 `time` instead of `t`; a GPX of N/5 track points with a Garmin extension each (heart rate, air
/// temperature); a TCX of N/5 track points; a FIT file of N `record` messages (time, position, altitude,
/// enhanced altitude, temperature, heart rate). Each round (K, default 5, after a warm-up) reads every input in
/// turn, so a drift of the shared machine's speed falls on all alike; prints the median rate with the fastest and
/// slowest sample, and the ratio of the median times against the `t` CSV's. `--only NAME` (csv, gpx, tcx, fit)
/// reads only the inputs whose label starts with NAME (`csv` reads both CSVs, and so gives the ratio), for
/// profiling one reader: callgrind on a `strip -g` copy of the binary, with `--toggle-collect` set to the mangled
/// name of `InputLoader.table(_:pressurePath:options:)` alone (a pattern such as `*InputLoader*table*` also
/// matches the functions it calls and toggles collection off inside them), then counts that reader's
/// instructions alone, a figure the load of a shared machine does not change (see Docs/formats.md).
enum InputsBenchmark {
    static func run(arguments: [String]) -> Int32 {
        var rows = 1_000_000
        if let i = arguments.firstIndex(of: "--rows"), i + 1 < arguments.count, let n = Int(arguments[i + 1]), n >= 10 {
            rows = n
        }
        var samples = 5
        if let i = arguments.firstIndex(of: "--samples"), i + 1 < arguments.count, let n = Int(arguments[i + 1]), n > 0
        {
            samples = n
        }
        let points = rows / 5
        let only = arguments.firstIndex(of: "--only").flatMap {
            $0 + 1 < arguments.count ? arguments[$0 + 1].lowercased() : nil
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "altimetry-bench-inputs-\(UUID().uuidString)")
        do { try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true) } catch {
            print("cannot create \(dir.path): \(error)")
            return 73
        }
        defer { try? FileManager.default.removeItem(at: dir) }
        let all: [(label: String, unit: String, count: Int, make: () -> Data, name: String)] = [
            ("CSV, t", "rows", rows, { csv(rows: rows, iso: false) }, "t.csv"),
            ("CSV, ISO time", "rows", rows, { csv(rows: rows, iso: true) }, "time.csv"),
            ("GPX", "points", points, { gpx(points: points) }, "a.gpx"),
            ("TCX", "points", points, { tcx(points: points) }, "a.tcx"),
            ("FIT", "records", rows, { fit(records: rows) }, "a.fit"),
        ]
        let selected = all.filter { input in only.map { input.label.lowercased().hasPrefix($0) } ?? true }
        guard !selected.isEmpty else {
            print("error: --only \(only ?? "") names no input; expected csv, gpx, tcx or fit")
            return 64
        }
        // Each input is read from a file as `fuse` reads it (`InputLoader.table`: the reader alone, no filter).
        var inputs: [(label: String, unit: String, count: Int, bytes: Int, path: String)] = []
        for input in selected {
            let data = input.make()
            let path = dir.appendingPathComponent(input.name).path
            guard FileManager.default.createFile(atPath: path, contents: data) else {
                print("error: cannot write \(path)")
                return 73
            }
            inputs.append((input.label, input.unit, input.count, data.count, path))
        }
        var seconds = Array(repeating: [Double](), count: inputs.count)
        for round in 0...samples {
            for (k, input) in inputs.enumerated() {
                let start = Date()
                do {
                    let count = try InputLoader.table(input.path, options: ReadOptions()).rows.count
                    guard count == input.count else {
                        print("\(input.label): read \(count) of \(input.count)")
                        return 70
                    }
                } catch {
                    print("\(input.label): \(error)")
                    return 70
                }
                if round > 0 { seconds[k].append(Date().timeIntervalSince(start)) }
            }
        }
        print(
            "inputs: \(rows) CSV rows and FIT records, \(points) GPX and TCX points; \(samples) rounds after a warm-up")
        // The t CSV is the baseline of the ratios, when it was read.
        let baseline = inputs[0].label == all[0].label ? median(seconds[0]) : Double.nan
        for (k, input) in inputs.enumerated() {
            let sorted = seconds[k].sorted()
            let rate = { (s: Double) in Double(input.count) / s }
            let label = (input.label + ":").padding(toLength: 15, withPad: " ", startingAt: 0)
            print(
                "\(label) \(format(rate(median(sorted)))) \(input.unit)/s (\(format(rate(sorted.last ?? .nan)))-"
                    + "\(format(rate(sorted.first ?? .nan)))), \(format(Double(input.bytes) / median(sorted) / 1e6)) MB/s"
                    + (baseline.isNaN
                        ? ""
                        : "; time per row \(format(median(sorted) / Double(input.count) / (baseline / Double(rows)), 2))x the t CSV's")
            )
        }
        return 0
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        return sorted.count % 2 == 1
            ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    static func format(_ value: Double, _ decimals: Int = 0) -> String { String(format: "%.\(decimals)f", value) }

    static let start = 1_714_564_800.0

    /// A hike's reading at second k: pressure (hPa), altitude (m).
    static func reading(_ k: Int) -> (Double, Double) {
        let altitude = 800 + 200 * sin(Double(k) / 900)
        return (1013.25 * pow(1 - 0.0065 * altitude / 288.15, 5.255_88), altitude)
    }

    static func csv(rows: Int, iso: Bool) -> Data {
        let parser = ISO8601Parser()
        var text = iso ? "time,pressure_hpa,gps_alt_m\n" : "t,pressure_hpa,gps_alt_m\n"
        text.reserveCapacity(rows * 48)
        for k in 0..<rows {
            let (pressure, altitude) = reading(k)
            let t = Double(k) / 2
            text += iso ? parser.text(start + t) : String(format: "%.1f", t)
            text += String(format: ",%.3f,", pressure) + (k % 2 == 0 ? String(format: "%.1f\n", altitude) : "\n")
        }
        return Data(text.utf8)
    }

    static func gpx(points: Int) -> Data {
        let parser = ISO8601Parser()
        var text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="bench" xmlns="http://www.topografix.com/GPX/1/1" \
            xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v1"><trk><name>bench</name><trkseg>

            """
        text.reserveCapacity(points * 260)
        for k in 0..<points {
            text += String(
                format: "<trkpt lat=\"%.7f\" lon=\"%.7f\"><ele>%.1f</ele>", 46.5 + 1e-5 * Double(k),
                7.9 + 1e-5 * Double(k), reading(k).1)
            text += "<time>\(parser.text(start + Double(k)))</time><extensions><gpxtpx:TrackPointExtension>"
            text +=
                "<gpxtpx:atemp>12</gpxtpx:atemp><gpxtpx:hr>\(100 + k % 60)</gpxtpx:hr></gpxtpx:TrackPointExtension></extensions></trkpt>\n"
        }
        text += "</trkseg></trk></gpx>\n"
        return Data(text.utf8)
    }

    static func tcx(points: Int) -> Data {
        let parser = ISO8601Parser()
        var text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2"><Activities>
            <Activity Sport="Running"><Id>2024-05-01T12:00:00Z</Id><Lap StartTime="2024-05-01T12:00:00Z"><Track>

            """
        text.reserveCapacity(points * 300)
        for k in 0..<points {
            text += "<Trackpoint><Time>\(parser.text(start + Double(k)))</Time><Position>"
            text += String(
                format: "<LatitudeDegrees>%.7f</LatitudeDegrees><LongitudeDegrees>%.7f</LongitudeDegrees></Position>",
                46.5 + 1e-5 * Double(k), 7.9 + 1e-5 * Double(k))
            text += String(format: "<AltitudeMeters>%.1f</AltitudeMeters>", reading(k).1)
            text += "<HeartRateBpm><Value>\(100 + k % 60)</Value></HeartRateBpm></Trackpoint>\n"
        }
        text += "</Track></Lap><Creator><Name>bench</Name></Creator></Activity></Activities></TrainingCenterDatabase>\n"
        return Data(text.utf8)
    }

    /// A FIT activity: a 14-byte header, one `record` definition, `records` data messages and the CRC.
    static func fit(records: Int) -> Data {
        var body: [UInt8] = []
        body.reserveCapacity(records * 24 + 64)
        func little(_ value: UInt64, _ size: Int) {
            for k in 0..<size { body.append(UInt8(truncatingIfNeeded: value >> (8 * k))) }
        }
        // Definition of local type 0 as `record` (20), little-endian: timestamp, lat, long, altitude,
        // enhanced_altitude, temperature, heart_rate.
        body += [0x40, 0, 0]
        little(20, 2)
        let fields: [(UInt8, UInt8, UInt8)] = [
            (253, 4, 0x86), (0, 4, 0x85), (1, 4, 0x85), (2, 2, 0x84), (78, 4, 0x86), (13, 1, 0x01), (3, 1, 0x02),
        ]
        body.append(UInt8(fields.count))
        for (number, size, type) in fields { body += [number, size, type] }
        let fitStart = UInt64(start - 631_065_600)
        for k in 0..<records {
            let altitude = UInt64(((reading(k).1 + 500) * 5).rounded())
            body.append(0)
            little(fitStart + UInt64(k), 4)
            little(UInt64(bitPattern: Int64((46.5 + 1e-5 * Double(k)) * 2_147_483_648 / 180)), 4)
            little(UInt64(bitPattern: Int64((7.9 + 1e-5 * Double(k)) * 2_147_483_648 / 180)), 4)
            little(altitude, 2)
            little(altitude, 4)
            body.append(12)
            body.append(UInt8(100 + k % 60))
        }
        var file: [UInt8] = [14, 0x20]
        let size = UInt64(body.count)
        file += [0x54, 0x08]
        for k in 0..<4 { file.append(UInt8(truncatingIfNeeded: size >> (8 * k))) }
        file += Array(".FIT".utf8)
        let headerCRC = file.withUnsafeBytes { FITCRC.checksum($0, 0..<12) }
        file += [UInt8(headerCRC & 0xFF), UInt8(headerCRC >> 8)]
        file += body
        let crc = file.withUnsafeBytes { FITCRC.checksum($0, 0..<$0.count) }
        file += [UInt8(crc & 0xFF), UInt8(crc >> 8)]
        return Data(file)
    }
}
