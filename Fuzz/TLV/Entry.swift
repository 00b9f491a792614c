// libFuzzer entry point for the BER-TLV decoder. Built and run by Scripts/fuzz.sh.
//
// Beyond "never crash", each input checks that the decoder agrees with itself:
// - the zero-allocation walk and the indexed tree accept the same inputs and see the same
//   objects;
// - every recorded range lies inside the input;
// - re-encoding what was decoded and decoding that again gives the same objects;
// - every value decoder explains whatever value it is handed without trapping.
import EMV

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTLV(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var walked: [TLVField] = []
    let walkError: TLVError?
    do {
        try BERTLV.walk(bytes) { walked.append($0) }
        walkError = nil
    } catch {
        walkError = error
    }
    do {
        let tree = try TLVTree(decoding: bytes)
        precondition(walkError == nil, "tree accepted what the walk rejected")
        precondition(tree.count == walked.count, "tree and walk disagree on the number of objects")
        for (element, field) in zip(tree.all, walked) {
            precondition(element.tag == field.tag && element.valueRange == field.valueRange)
            precondition(element.encodedRange.lowerBound >= 0 && element.encodedRange.upperBound <= size)
            _ = SensitiveData.displayValue(element.tag, element.value)
            if !element.isConstructed, !SensitiveData.isSensitive(element.tag) {
                _ = TagExplainer.explain(element.tag, value: element.value) { tree.first($0).map { Array($0.value) } }
            }
        }
        let objects = tree.objects
        if let reencoded = try? TLV.encode(objects) {
            let again = try TLVTree(decoding: reencoded)
            precondition(again.objects == objects, "re-encoding changed the objects")
        }
    } catch {
        precondition(walkError == error, "walk and tree report different errors")
        precondition(error.offset >= 0 && error.offset <= size)
        _ = error.description
    }
    return 0
}
