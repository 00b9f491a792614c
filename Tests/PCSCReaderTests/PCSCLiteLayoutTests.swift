#if os(Linux)
    import Testing

    @testable import PCSCReader

    /// pcsc-lite is opened at run time, so its structures are declared here: they must keep
    /// pcsc-lite's layout on Linux (pcsclite.h), or its calls read the wrong bytes.
    @Suite(.timeLimit(.minutes(1)))
    struct PCSCLiteLayoutTests {
        @Test func theStructuresHavePCSCLitesLayout() {
            #expect(MemoryLayout<DWORD>.size == MemoryLayout<CUnsignedLong>.size)
            #expect(MemoryLayout<LONG>.size == MemoryLayout<CLong>.size)
            #expect(MemoryLayout<SCARD_IO_REQUEST>.size == 2 * MemoryLayout<CUnsignedLong>.size)
            // Two pointers, three DWORDs, then the 33-byte ATR; padded to the pointer's alignment.
            #expect(MemoryLayout<SCARD_READERSTATE>.offset(of: \.dwCurrentState) == 16)
            #expect(MemoryLayout<SCARD_READERSTATE>.offset(of: \.rgbAtr) == 40)
            #expect(MemoryLayout<SCARD_READERSTATE>.stride == 80)
        }
    }
#endif
