import MPOSCore
import Testing

@Test(.timeLimit(.minutes(1))) func versionIsSemantic() {
    #expect(MPOSCoreInfo.version.split(separator: ".").count == 3)
}
