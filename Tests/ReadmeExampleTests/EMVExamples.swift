// The README's EMV example, verbatim between the `README example` markers
// (Scripts/check-readme-examples.py compares them); this file imports EMV and nothing else,
// as the example does, and the test runs it to hold the README's comments to what the code does.
import EMV
import Testing

/// The EMV example on `bytes`, returning what it computes so that the test can check it.
func readmeEMVTools(bytes: [UInt8]) throws -> (ArraySlice<UInt8>?, [UInt8]?, [String], String?) {
    // README example 4 begin
    let tree = try TLVTree(decoding: bytes)           // throws TLVError with the byte offset
    let cryptogram = tree[0x9F26]                      // a slice of `bytes`, no copy
    let cid = tree.element(at: [0x77, 0x9F27])         // by path
    try BERTLV.walk(bytes) { field in print(field.tag, field.length) }   // allocates nothing
    let tvr = TagExplainer.explain(0x95, value: [0, 0, 0x08, 0, 0])
    // ["PIN entry required, PIN pad present, but PIN was not entered"]
    let masked = PAN("5413330089010038")?.masked       // "541333******0038"
    // README example 4 end
    return (cryptogram, cid.map { Array($0.value) }, tvr, masked)
}

@Suite(.timeLimit(.minutes(1)))
struct ReadmeEMVExampleTests {
    /// A response template (77) holding the CID (9F27) and the cryptogram (9F26).
    @Test func theEMVExampleDoesWhatItsCommentsSay() throws {
        let cryptogram: [UInt8] = [0x12, 0x34, 0x56, 0x78, 0x9A, 0xBC, 0xDE, 0xF0]
        let bytes: [UInt8] = [0x77, 0x0F, 0x9F, 0x27, 0x01, 0x80, 0x9F, 0x26, 0x08] + cryptogram
        let (found, cid, tvr, masked) = try readmeEMVTools(bytes: bytes)
        #expect(found.map(Array.init) == cryptogram)
        #expect(cid == [0x80])
        #expect(tvr == ["PIN entry required, PIN pad present, but PIN was not entered"])
        #expect(masked == "541333******0038")
    }
}
