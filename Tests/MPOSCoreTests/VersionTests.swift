import MPOSCore
import Testing

@Test func versionIsSemantic() {
    #expect(MPOSCoreInfo.version.split(separator: ".").count == 3)
}
