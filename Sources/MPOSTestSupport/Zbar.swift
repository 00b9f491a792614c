import Foundation

/// zbar's command-line decoder (`zbarimg`, package zbar-tools, installed by `.ci/run`): a QR
/// decoder written elsewhere, for tests of the printer emulator's page images.
public enum Zbar {
    /// Where `zbarimg` is installed, or nil when it is not.
    public static let path: String? = [
        "/usr/bin/zbarimg", "/usr/local/bin/zbarimg", "/opt/homebrew/bin/zbarimg",
    ]
    .first { FileManager.default.isExecutableFile(atPath: $0) }

    /// The text of the QR codes zbar finds in the image `file` (PBM, PNG …), one per line.
    ///
    /// - Throws: `CocoaError(.executableNotLoadable)` when zbar is not installed, or what
    ///   starting the process throws.
    public static func decodeQR(_ file: URL) throws -> String {
        guard let path else { throw CocoaError(.executableNotLoadable) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["--raw", "-q", "-Sdisable", "-Sqrcode.enable", file.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: output, as: UTF8.self).trimmingCharacters(in: .newlines)
    }
}
