import Foundation
import LinearAlgebra
import Testing

/// A decoded matrix is checked against its declared dimensions: data from a file never reaches a subscript.
@Suite("Matrix decoding")
struct MatrixDecodingTests {
    static func decode(_ json: String) throws -> Matrix {
        try JSONDecoder().decode(Matrix.self, from: Data(json.utf8))
    }

    /// The coding path's last key and the description of a `DecodingError.dataCorrupted`.
    static func corruption(_ json: String) -> (key: String, description: String)? {
        do {
            _ = try decode(json)
            return nil
        } catch let DecodingError.dataCorrupted(context) {
            return (context.codingPath.last?.stringValue ?? "", context.debugDescription)
        } catch {
            return ("", "\(error)")
        }
    }

    @Test("Encode and decode round-trip every element bit for bit")
    func roundTrip() throws {
        let m = Matrix([[1, 2.5, -3], [0.1, 1e-300, 7]])
        let back = try JSONDecoder().decode(Matrix.self, from: try JSONEncoder().encode(m))
        #expect(back == m)
    }

    @Test(
        "A short, long or empty elements array is refused naming elements and both counts",
        arguments: [
            (#"{"rows":2,"columns":2,"elements":[1,0,0]}"#, "found 3 values, expected 4 (2 x 2)"),
            (#"{"rows":2,"columns":2,"elements":[1,0,0,1,5]}"#, "found 5 values, expected 4 (2 x 2)"),
            (#"{"rows":3,"columns":3,"elements":[]}"#, "found 0 values, expected 9 (3 x 3)"),
        ])
    func wrongCount(json: String, message: String) throws {
        let problem = try #require(Self.corruption(json))
        #expect(problem.key == "elements" && problem.description == message, "\(problem)")
    }

    @Test("Negative or overflowing dimensions are refused before any array is made")
    func badDimensions() throws {
        #expect(Self.corruption(#"{"rows":-1,"columns":2,"elements":[]}"#)?.key == "rows")
        #expect(Self.corruption(#"{"rows":2,"columns":-2,"elements":[]}"#)?.key == "columns")
        let huge = try #require(Self.corruption(#"{"rows":4611686018427387904,"columns":4,"elements":[]}"#))
        #expect(huge.key == "columns" && huge.description.contains("more elements than can exist"))
    }

    @Test("A missing field is a keyNotFound error naming it")
    func missingField() {
        #expect {
            _ = try Self.decode(#"{"rows":1,"columns":1}"#)
        } throws: { error in
            guard case DecodingError.keyNotFound(let key, _) = error else { return false }
            return key.stringValue == "elements"
        }
    }
}
