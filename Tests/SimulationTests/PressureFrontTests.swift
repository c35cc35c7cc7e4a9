import Foundation
import Testing

@testable import Simulation

@Suite("PressureFront")
struct PressureFrontTests {
    let front = PressureFront(start: 2_400, duration: 2_400, change: -3)

    @Test("Zero before, the full change after, half way at mid-front")
    func shape() {
        #expect(front.offset(at: 0) == 0)
        #expect(front.offset(at: 2_400) == 0)
        #expect(abs(front.offset(at: 3_600) + 1.5) < 1e-12)
        #expect(front.offset(at: 4_800) == -3)
        #expect(front.offset(at: 10_000) == -3)
        #expect(front.end == 4_800)
    }

    @Test("Monotone, and steepest at mid-front with pi/2 times the mean rate")
    func rate() {
        var previous = front.offset(at: 2_400)
        var steepest = 0.0
        for t in stride(from: 2_401.0, through: 4_800, by: 1) {
            let value = front.offset(at: t)
            #expect(value <= previous)
            steepest = max(steepest, previous - value)
            previous = value
        }
        // Largest one-second drop against the derivative's maximum, π/2 · 3 hPa / 2400 s; a 1 s difference
        // of a raised cosine of period 4800 s differs from the derivative by well under 0.1 %.
        let expected = Double.pi / 2 * 3 / 2_400
        #expect(abs(steepest / expected - 1) < 1e-3)
    }
}
