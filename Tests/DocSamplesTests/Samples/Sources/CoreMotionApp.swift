#if canImport(CoreMotion) && canImport(Combine)
import Altimetry
import Combine

@MainActor final class AltitudeViewModel: ObservableObject {
    @Published var text = "—"
    private var task: Task<Void, Never>?

    func start() {
        let source = CoreMotionSource()
        guard source.isAvailable else {
            text = "No barometer"
            return
        }
        task = Task {
            do {
                for try await estimate in source.fused(with: .adaptive) {
                    text = "\(estimate.altitude) ± \(estimate.altitudeStandardDeviation) m"
                }
            } catch {
                text = "Altimeter error: \(error)"
            }
        }
    }

    func stop() { task?.cancel() }  // cancelling the loop stops Core Motion's updates
}
#endif
