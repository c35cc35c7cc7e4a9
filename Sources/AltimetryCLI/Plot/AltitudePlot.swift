import Altimetry
import AltimetryIO

/// An SVG of a fused recording: altitude against time above, QNH against time below, with axes, units and a legend.
///
/// The upper panel shows the truth or reference (where the input has it), the GPS fixes as dots, gated fixes
/// as red crosses, the naive averaging baseline, and the fused altitude with its one-sigma band; the lower
/// panel shows QNH with its one-sigma band, and the weather fronts the filter detected as shaded spans labelled
/// with their size, labels stacked in up to `frontLabelRows` rows so none overlaps another (a label with no room
/// is left out, and the panel says how many). A title above names the file and the model. Each series is a `<g>` with an `id` (`truth`, `gps-fixes`, `gated-fixes`, `naive`,
/// `fused-band`, `fused`, `qnh-band`, `qnh`, `fronts`). Series longer than 2,000 points are
/// thinned to every n-th point, which a 1,000-pixel-wide drawing cannot tell apart.
struct AltitudePlot {
    /// Points per series at most.
    static let maximumPoints = 2_000

    var times: [Double]
    var truth: [Double?]
    var gps: [Double?]
    var gated: [Bool]
    var naive: [Double?]
    var fused: [Double]
    var sigma: [Double]
    var qnh: [Double]
    var qnhSigma: [Double]
    var referenceName: String?
    /// The line above the plot: the file and the model.
    var title = ""
    /// Weather fronts detected by the filter, in the input's time (seconds).
    var fronts: [WeatherFront] = []

    private static let width = 1_000.0
    private static let left = 80.0, right = 190.0
    private static let top1 = 40.0, bottom1 = 400.0
    private static let top2 = 460.0, bottom2 = 640.0
    private static let height = 700.0

    func svg() -> String {
        let span = (times.last ?? 0) - (times.first ?? 0)
        // Seconds up to 10 minutes, minutes up to 10 hours, hours beyond.
        let (timeUnit, timeName) = span > 36_000 ? (3_600.0, "h") : span > 600 ? (60.0, "min") : (1.0, "s")
        let t0 = times.first ?? 0
        let xs = times.map { ($0 - t0) / timeUnit }
        let x = PlotAxis(xs)
        // The band sets the axis only where its sigma is ordinary: the prior's 84 m at the first row would squash
        // the whole track into a corner.
        let finiteSigmas = sigma.filter(\.isFinite).sorted()
        let typicalSigma = finiteSigmas.isEmpty ? 0 : finiteSigmas[finiteSigmas.count / 2]
        var altitudeValues = fused.indices.flatMap { k in
            sigma[k] <= 5 * typicalSigma ? [fused[k] - sigma[k], fused[k] + sigma[k]] : [fused[k]]
        }
        altitudeValues += truth.compactMap { $0 } + gps.compactMap { $0 } + naive.compactMap { $0 }
        let y1 = PlotAxis(altitudeValues)
        let y2 = PlotAxis(qnh.indices.flatMap { [qnh[$0] - qnhSigma[$0], qnh[$0] + qnhSigma[$0]] })
        let px = { (v: Double) in x.position(v, from: Self.left, to: Self.width - Self.right) }
        let p1 = { (v: Double) in y1.position(v, from: Self.bottom1, to: Self.top1) }
        let p2 = { (v: Double) in y2.position(v, from: Self.bottom2, to: Self.top2) }
        let stride = max(1, times.count / Self.maximumPoints)
        let keep =
            Swift.stride(from: 0, to: times.count, by: stride).map { $0 } + (times.isEmpty ? [] : [times.count - 1])

        var s = """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(Self.width))" height="\(Int(Self.height))" \
            viewBox="0 0 \(Int(Self.width)) \(Int(Self.height))" font-family="sans-serif" font-size="12">
            <rect width="100%" height="100%" fill="white"/>
            <text id="title" x="\(f(Self.left))" y="24" font-size="14">\(Self.escaped(title))</text>

            """
        s += axes(
            x: x, y: y1, px: px, py: p1, top: Self.top1, bottom: Self.bottom1, yLabel: "Altitude (m)", xLabel: nil)
        s += axes(
            x: x, y: y2, px: px, py: p2, top: Self.top2, bottom: Self.bottom2, yLabel: "QNH (hPa)",
            xLabel: "Time (\(timeName))")
        s += band(id: "fused-band", keep, xs, fused, sigma, px, p1, color: "#9ecae1")
        if truth.contains(where: { $0 != nil }) {
            s += line(id: "truth", keep, xs, truth, px, p1, color: "black", dash: "4 3")
        }
        s += dots(id: "gps-fixes", xs, gps.indices.map { gated[$0] ? nil : gps[$0] }, px, p1, stride: stride)
        s += crosses(id: "gated-fixes", xs, gps.indices.map { gated[$0] ? gps[$0] : nil }, px, p1)
        s += line(id: "naive", keep, xs, naive, px, p1, color: "#e6550d", dash: nil)
        s += line(id: "fused", keep, xs, fused.map { $0 }, px, p1, color: "#08519c", dash: nil)
        s += frontSpans(px: px, t0: t0, timeUnit: timeUnit)
        s += band(id: "qnh-band", keep, xs, qnh, qnhSigma, px, p2, color: "#c7e9c0")
        s += line(id: "qnh", keep, xs, qnh.map { $0 }, px, p2, color: "#006d2c", dash: nil)
        s += legend()
        s += "</svg>\n"
        return s
    }

    private func axes(
        x: PlotAxis, y: PlotAxis, px: (Double) -> Double, py: (Double) -> Double, top: Double,
        bottom: Double, yLabel: String, xLabel: String?
    ) -> String {
        let l = Self.left, r = Self.width - Self.right
        var s =
            "<g class=\"axes\" stroke=\"#888\" fill=\"none\"><rect x=\"\(f(l))\" y=\"\(f(top))\" width=\"\(f(r - l))\" height=\"\(f(bottom - top))\"/></g>\n"
        s += "<g class=\"ticks\" fill=\"#333\">\n"
        for t in x.ticks {
            let xp = px(t)
            s += "<line x1=\"\(f(xp))\" y1=\"\(f(bottom))\" x2=\"\(f(xp))\" y2=\"\(f(bottom + 5))\" stroke=\"#888\"/>"
            s += "<text x=\"\(f(xp))\" y=\"\(f(bottom + 18))\" text-anchor=\"middle\">\(x.label(t))</text>\n"
        }
        for t in y.ticks {
            let yp = py(t)
            s += "<line x1=\"\(f(l - 5))\" y1=\"\(f(yp))\" x2=\"\(f(r))\" y2=\"\(f(yp))\" stroke=\"#eee\"/>"
            s += "<text x=\"\(f(l - 8))\" y=\"\(f(yp + 4))\" text-anchor=\"end\">\(y.label(t))</text>\n"
        }
        s +=
            "<text transform=\"translate(18 \(f((top + bottom) / 2))) rotate(-90)\" text-anchor=\"middle\">\(yLabel)</text>\n"
        if let xLabel {
            s += "<text x=\"\(f((l + r) / 2))\" y=\"\(f(bottom + 38))\" text-anchor=\"middle\">\(xLabel)</text>\n"
        }
        return s + "</g>\n"
    }

    private func line(
        id: String, _ keep: [Int], _ xs: [Double], _ ys: [Double?], _ px: (Double) -> Double,
        _ py: (Double) -> Double, color: String, dash: String?
    ) -> String {
        var d = ""
        var pen = false
        for i in keep {
            guard let y = ys[i], y.isFinite else {
                pen = false
                continue
            }
            d += (pen ? "L" : "M") + "\(f(px(xs[i]))) \(f(py(y))) "
            pen = true
        }
        let dashing = dash.map { " stroke-dasharray=\"\($0)\"" } ?? ""
        return
            "<g id=\"\(id)\"><path d=\"\(d)\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"1.5\"\(dashing)/></g>\n"
    }

    private func band(
        id: String, _ keep: [Int], _ xs: [Double], _ mean: [Double], _ sd: [Double],
        _ px: (Double) -> Double, _ py: (Double) -> Double, color: String
    ) -> String {
        let valid = keep.filter { mean[$0].isFinite && sd[$0].isFinite }
        guard !valid.isEmpty else { return "<g id=\"\(id)\"/>\n" }
        var d = ""
        for (k, i) in valid.enumerated() { d += (k == 0 ? "M" : "L") + "\(f(px(xs[i]))) \(f(py(mean[i] + sd[i]))) " }
        for i in valid.reversed() { d += "L\(f(px(xs[i]))) \(f(py(mean[i] - sd[i]))) " }
        return "<g id=\"\(id)\"><path d=\"\(d)Z\" fill=\"\(color)\" fill-opacity=\"0.6\" stroke=\"none\"/></g>\n"
    }

    private func dots(
        id: String, _ xs: [Double], _ ys: [Double?], _ px: (Double) -> Double, _ py: (Double) -> Double,
        stride: Int
    ) -> String {
        var s = "<g id=\"\(id)\" fill=\"#636363\" fill-opacity=\"0.5\">"
        var k = 0
        for i in ys.indices {
            guard let y = ys[i] else { continue }
            k += 1
            if k % stride != 0 { continue }
            s += "<circle cx=\"\(f(px(xs[i])))\" cy=\"\(f(py(y)))\" r=\"1.6\"/>"
        }
        return s + "</g>\n"
    }

    private func crosses(
        id: String, _ xs: [Double], _ ys: [Double?], _ px: (Double) -> Double, _ py: (Double) -> Double
    ) -> String {
        var s = "<g id=\"\(id)\" stroke=\"#de2d26\" stroke-width=\"1.5\">"
        for i in ys.indices {
            guard let y = ys[i] else { continue }
            let cx = px(xs[i]), cy = py(y)
            s +=
                "<path d=\"M\(f(cx - 3)) \(f(cy - 3))L\(f(cx + 3)) \(f(cy + 3))M\(f(cx - 3)) \(f(cy + 3))L\(f(cx + 3)) \(f(cy - 3))\"/>"
        }
        return s + "</g>\n"
    }

    /// Rows of front labels at most.
    static let frontLabelRows = 4
    /// Width of a label's character, in pixels (12 px sans-serif averages under 7 px).
    static let labelCharacterWidth = 7.0

    /// Shaded spans over the QNH panel, one per detected front, labelled with its size in hPa.
    private func frontSpans(px: (Double) -> Double, t0: Double, timeUnit: Double) -> String {
        guard !fronts.isEmpty else { return "" }
        var s = "<g id=\"fronts\" fill=\"#fdd0a2\" fill-opacity=\"0.6\">\n"
        let starts = fronts.map { px(($0.startTime - t0) / timeUnit) }
        let ends = fronts.map { px(($0.endTime - t0) / timeUnit) }
        let labels = fronts.map { "front \(Fixed.text($0.sizeHectopascals, 1)) hPa" }
        let rows = Self.labelRows(
            starts: starts.map { $0 + 3 },
            widths: labels.map { Double($0.count) * Self.labelCharacterWidth },
            rowCount: Self.frontLabelRows)
        // Every span first, then every label, so no span is drawn over a label.
        for k in fronts.indices {
            s +=
                "<rect x=\"\(f(starts[k]))\" y=\"\(f(Self.top2))\" width=\"\(f(max(1, ends[k] - starts[k])))\" height=\"\(f(Self.bottom2 - Self.top2))\"/>\n"
        }
        for k in fronts.indices {
            guard let row = rows[k] else { continue }
            s +=
                "<text x=\"\(f(starts[k] + 3))\" y=\"\(f(Self.top2 + 14 + 15 * Double(row)))\" fill=\"#a63603\" fill-opacity=\"1\">\(labels[k])</text>\n"
        }
        let unlabelled = rows.filter { $0 == nil }.count
        if unlabelled > 0 {
            s +=
                "<text x=\"\(f(Self.width - Self.right - 4))\" y=\"\(f(Self.bottom2 - 6))\" text-anchor=\"end\" "
                + "fill=\"#a63603\" fill-opacity=\"1\">\(unlabelled) more front\(unlabelled == 1 ? "" : "s") not labelled</text>\n"
        }
        return s + "</g>\n"
    }

    /// The row of each label (left edge `starts[k]`, width `widths[k]`, pixels), or nil where none has room.
    ///
    /// Greedy, left to right: each label takes the first row whose last label ends at least 4 px before it starts.
    /// No two labels in a row overlap, by construction.
    static func labelRows(starts: [Double], widths: [Double], rowCount: Int) -> [Int?] {
        var rowEnds = [Double](repeating: -.infinity, count: rowCount)
        var rows = [Int?](repeating: nil, count: starts.count)
        for k in starts.indices.sorted(by: { starts[$0] < starts[$1] }) {
            guard let row = rowEnds.indices.first(where: { rowEnds[$0] + 4 <= starts[k] }) else { continue }
            rows[k] = row
            rowEnds[row] = starts[k] + widths[k]
        }
        return rows
    }

    /// Text with XML's special characters escaped.
    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }

    private func legend() -> String {
        var entries: [(String, String)] = []
        if truth.contains(where: { $0 != nil }) {
            entries.append(("black", referenceName == "true_alt_m" ? "Truth" : "Reference"))
        }
        entries += [
            ("#636363", "GPS fixes"), ("#de2d26", "Gated fixes"), ("#e6550d", "Naive averaging"),
            ("#08519c", "Fused altitude"), ("#9ecae1", "Fused ±1σ"), ("#006d2c", "QNH (±1σ band)"),
        ]
        if !fronts.isEmpty { entries.append(("#fdd0a2", "Weather front")) }
        let x = Self.width - Self.right + 15
        var s = "<g id=\"legend\">\n"
        for (k, (color, label)) in entries.enumerated() {
            let y = Self.top1 + 10 + Double(k) * 20
            s += "<rect x=\"\(f(x))\" y=\"\(f(y - 8))\" width=\"14\" height=\"10\" fill=\"\(color)\"/>"
            s += "<text x=\"\(f(x + 20))\" y=\"\(f(y + 1))\">\(label)</text>\n"
        }
        return s + "</g>\n"
    }

    private func f(_ v: Double) -> String { Fixed.text(v, 1) }
}
