import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@testable import mpos

/// `mpos emv decode`: the rendering in-process, and the binary as a user runs it.
@Suite(.timeLimit(.minutes(2)))
struct EMVDecodeOutputTests {
    @Test func explainsATVRBitInText() {
        guard case .success(let text) = EMVDecodeOutput.render(hex: "95 05 0000080000", json: false) else {
            Issue.record("decode failed")
            return
        }
        #expect(text.contains("95  Terminal Verification Results  [5]  0000080000"))
        #expect(text.contains("- PIN entry required, PIN pad present, but PIN was not entered"))
    }

    @Test func printsJSONWithTheDocumentedKeys() throws {
        guard case .success(let json) = EMVDecodeOutput.render(hex: "77 11 9F3403 1E0002 9F2608 7BCD3A4E1F2C5D6E", json: true)
        else {
            Issue.record("decode failed")
            return
        }
        // Keys in the documented order.
        #expect(json.hasPrefix("[{\"tag\":\"77\",\"name\":"))
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        #expect(parsed.count == 1)
        let template = parsed[0]
        #expect(template["value"] is NSNull)
        let children = try #require(template["children"] as? [[String: Any]])
        #expect(children.map { $0["tag"] as? String } == ["9F34", "9F26"])
        #expect(children[0]["length"] as? Int == 3)
        let meaning = try #require(children[0]["meaning"] as? [String])
        #expect(meaning.contains { $0.localizedCaseInsensitiveContains("signature") })
        #expect(meaning.contains { $0.localizedCaseInsensitiveContains("successful") })
        #expect(children[1]["value"] as? String == "7BCD3A4E1F2C5D6E")
        #expect(children[1]["name"] as? String == "Application Cryptogram")
    }

    @Test func masksCardNumbersAndTrackData() {
        let hex = "70 25 5A08 5413330089010038 5713 5413330089010038D29122011234567890000F 5F2403291231"
        guard case .success(let text) = EMVDecodeOutput.render(hex: hex, json: false),
            case .success(let json) = EMVDecodeOutput.render(hex: hex, json: true)
        else {
            Issue.record("decode failed")
            return
        }
        for output in [text, json] {
            #expect(!output.contains("5413330089010038"))
            #expect(!output.contains("1234567890"))
            #expect(output.contains("541333******0038"))
        }
        #expect(text.contains("Mastercard"))
    }

    @Test func reportsMalformedInputWithItsOffset() {
        #expect(
            EMVDecodeOutput.render(hex: "95 05 000008", json: false)
                == .failure("truncated value at byte offset 1: length says 5 bytes, 3 remain"))
        #expect(
            EMVDecodeOutput.render(hex: "9F 2G", json: false)
                == .failure("invalid hex: 'G' at character offset 4"))
        #expect(EMVDecodeOutput.render(hex: "  ", json: true) == .failure("no data: give hex digits or - to read stdin"))
    }

    @Test func escapesJSONStrings() {
        #expect(jsonString("a\"b\\c\n\u{01}") == "\"a\\\"b\\\\c\\n\\u0001\"")
    }
}

struct BinaryNotFound: Error {}

@Suite(.timeLimit(.minutes(2)))
struct EMVDecodeBinaryTests {
    /// The `mpos` executable SwiftPM built beside the test bundle.
    static func mposBinary() throws -> URL {
        _ = testConfigurationHome
        // The test runner lives in the build products folder (directly on Linux, inside an
        // .xctest bundle on macOS); the tool sits beside it.
        let starts = [Bundle.main.bundleURL, URL(fileURLWithPath: CommandLine.arguments[0])]
        for start in starts {
            var dir = start
            for _ in 0..<4 {
                dir.deleteLastPathComponent()
                let candidate = dir.appendingPathComponent("mpos")
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            }
        }
        throw BinaryNotFound()
    }

    /// Every `mpos` the tests run inherits this `XDG_CONFIG_HOME`, so the gateway commands keep
    /// their default card-fingerprint key in a folder of the tests', never in the user's
    /// `~/.config`. Set once, before the first process is launched.
    static let testConfigurationHome: String = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "mpos-tests-config-\(ProcessInfo.processInfo.processIdentifier)").path
        setenv("XDG_CONFIG_HOME", folder, 1)
        return folder
    }()

    static func run(
        _ arguments: [String], stdin: String? = nil, environment: [String: String] = [:]
    ) throws -> (status: Int32, out: String, err: String) {
        let process = Process()
        process.executableURL = try mposBinary()
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let out = Pipe()
        let err = Pipe()
        let input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
    }

    @Test func decodesFromArgumentsAndFromStdin() throws {
        let fromArgs = try Self.run(["emv", "decode", "9F34031E0002"])
        #expect(fromArgs.status == 0)
        #expect(fromArgs.out.contains("9F34  Cardholder Verification Method (CVM) Results"))
        let fromStdin = try Self.run(["emv", "decode", "--json", "-"], stdin: "9F34 03\n1E 00 02\n")
        #expect(fromStdin.status == 0)
        #expect(fromStdin.out.hasPrefix("[{\"tag\":\"9F34\""))
    }

    @Test func malformedInputExitsOneWithOneLine() throws {
        let result = try Self.run(["emv", "decode", "70 80 00 00"])
        #expect(result.status == 1)
        #expect(result.out.isEmpty)
        #expect(result.err == "error: indefinite length (0x80) at byte offset 1 is not allowed in EMV\n")
    }
}
