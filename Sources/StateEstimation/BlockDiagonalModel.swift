import LinearAlgebra

/// A state-space model made of independent `StateBlock`s stacked on the diagonal.
///
/// The state is the concatenation of the blocks' states in order; F(dt) and Q(dt) are block diagonal. Coupling
/// between blocks, when a model needs it, comes from the measurements (for example z = h + e observes the sum of
/// two blocks), or from a hand-written `StateSpaceModel` that starts from these blocks and adds its own terms.
///
///     // altitude (random walk), weather offset and tendency (constant velocity), GPS error (Gauss-Markov)
///     let model = try BlockDiagonalModel([
///         .randomWalk(noiseDensity: 0.5),
///         .constantVelocity(accelerationNoiseDensity: 1e-6),
///         .gaussMarkov(standardDeviation: 10, correlationTime: 60),
///     ])
public struct BlockDiagonalModel: StateSpaceModel, Equatable, Hashable, Codable {
    /// The blocks, in state order.
    public let blocks: [StateBlock]
    /// The state dimension n, the sum of the blocks' sizes.
    public let stateCount: Int

    /// A model from its blocks.
    ///
    /// - Throws: `EstimationError.invalidParameter` if a block's parameters are invalid or there are no blocks.
    public init(_ blocks: [StateBlock]) throws(EstimationError) {
        guard !blocks.isEmpty else {
            throw .invalidParameter(name: "block count", value: 0, expectation: "at least one block")
        }
        for block in blocks { try block.validate() }
        self.blocks = blocks
        self.stateCount = blocks.reduce(0) { $0 + $1.stateCount }
    }

    /// The index of the first state of block `index`.
    public func offset(ofBlock index: Int) -> Int {
        blocks[..<index].reduce(0) { $0 + $1.stateCount }
    }

    public func discretize(over dt: Seconds, transition: inout Matrix, processNoise: inout Matrix) {
        var offset = 0
        for block in blocks {
            block.write(over: dt, at: offset, transition: &transition, processNoise: &processNoise)
            offset += block.stateCount
        }
    }

    private enum CodingKeys: String, CodingKey { case blocks }

    public init(from decoder: any Decoder) throws {
        let blocks = try decoder.container(keyedBy: CodingKeys.self).decode([StateBlock].self, forKey: .blocks)
        try self.init(blocks)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(blocks, forKey: .blocks)
    }
}
