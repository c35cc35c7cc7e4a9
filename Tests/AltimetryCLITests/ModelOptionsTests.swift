import Altimetry
import Foundation
import Testing

@testable import AltimetryCLI
@testable import AltimetryIO

@Suite("ModelOptions")
struct ModelOptionsTests {
    /// The parameters `arguments` give, with `json` as the `--params` file where given.
    static func parameters(
        _ arguments: [String], json: String? = nil, adaptsByDefault: Bool = true
    ) throws -> AltitudeModelParameters {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        var all = arguments
        if let json { all += ["--params", try dir.file("params.json", json)] }
        let scanner = try ArgumentScanner(all, options: ModelOptions.options)
        return try ModelOptions(scanner, adaptsByDefault: adaptsByDefault).parameters()
    }

    @Test("The model adapts by default: exactly AltitudeModelParameters.adaptive")
    func adaptsByDefault() throws {
        #expect(try Self.parameters([]) == .adaptive)
        #expect(try Self.parameters(["--gate", "on", "--baro-sigma", "0.05"]).learnsReceiver)
        let ungated = try Self.parameters(["--gate", "off"])
        #expect(ungated.learnsReceiver && ungated.gateStandardDeviations == nil)
        #expect(try Self.parameters([], json: #"{"weather_q": 0.0003}"#).learnsReceiver)
    }

    @Test(
        "A receiver option or key makes the receiver known and the model fixed",
        arguments: [
            (["--gps-sigma", "3"], nil), (["--gps-tau", "300"], nil), (["--gps-white", "1"], nil),
            (["--gps-vacc-scale", "0.5"], nil), ([], #"{"gps_sigma": 3}"#), ([], #"{"gps_tau": 300}"#),
            ([], #"{"gps_white": 1}"#), ([], #"{"gps_vacc_scale": 2}"#),
        ] as [([String], String?)])
    func receiverGiven(arguments: [String], json: String?) throws {
        #expect(try !Self.parameters(arguments, json: json).learnsReceiver)
    }

    @Test("--adapt decides over everything; then the file's gps_adapt; --fronts off is the fixed plain model")
    func explicitChoices() throws {
        #expect(try !Self.parameters(["--adapt", "off"]).learnsReceiver)
        #expect(try Self.parameters(["--adapt", "on", "--gps-sigma", "3"]).learnsReceiver)
        #expect(try !Self.parameters(["--adapt", "off"], json: #"{"gps_adapt": true}"#).learnsReceiver)
        #expect(try Self.parameters([], json: #"{"gps_adapt": true, "gps_sigma": 3}"#).learnsReceiver)
        #expect(try !Self.parameters([], json: #"{"gps_adapt": false}"#).learnsReceiver)
        #expect(try !Self.parameters(["--fronts", "off"]).learnsReceiver)
        #expect(try Self.parameters(["--fronts", "off", "--adapt", "on"]).learnsReceiver)
        // `altimetry bench` measures the fixed filter unless told otherwise.
        #expect(try !Self.parameters([], adaptsByDefault: false).learnsReceiver)
        #expect(try Self.parameters(["--adapt", "on"], adaptsByDefault: false).learnsReceiver)
    }

    @Test("The summary names --adapt where it is given")
    func summary() throws {
        let scanner = try ArgumentScanner(["--adapt", "off"], options: ModelOptions.options)
        #expect(try ModelOptions(scanner).summary == "model: --adapt off")
        #expect(try ModelOptions(ArgumentScanner([], options: ModelOptions.options)).summary == "default model")
    }

    @Test("A file that identify writes keeps the model fixed: it names the receiver and gps_adapt false")
    func identifiedReceiver() throws {
        let p = try Self.parameters([], json: #"{"gps_adapt": false, "gps_sigma": 2.5, "gps_tau": 120}"#)
        #expect(!p.learnsReceiver && p.gpsErrorStandardDeviation == 2.5 && p.gpsCorrelationTime == 120)
    }

    @Test("A file that identify writes without σ_e and τ keeps the model adaptive, with the white noise it names")
    func receiverNotIdentified() throws {
        let p = try Self.parameters([], json: #"{"gps_adapt": true, "gps_white": 0.4}"#)
        #expect(p.learnsReceiver && p.gpsWhiteNoiseStandardDeviation == 0.4)
    }
}
