#!/usr/bin/env bash
# Builds and runs a libFuzzer target.
#
#   Scripts/fuzz.sh tlv|frame|discovery|issuer|escpos|nexo [SECONDS] [extra libFuzzer flags…]
#
#   tlv        the EMV BER-TLV decoder and value decoders (module EMV)
#   frame      the ReaderLink streaming frame decoder, reassembly and message codec (module
#              ReaderLink, linked with its dependencies EMV, MPOSCore and swift-crypto)
#   discovery  the UDP discovery datagram codec, decoded, re-encoded and decoded again (module
#              ReaderLink, linked as for frame)
#   issuer     the sandbox issuer's verification of an authorization request, the card data
#              envelope and KSN parsing (module SandboxCards, linked with EMV, MPOSCore,
#              CardCrypto and swift-crypto)
#   escpos     the printer emulator's ESC/POS decoder, layout and page rendering (module
#              PrinterSimulator, linked with its code page tables, PrinterCodePages)
#   nexo       the Terminal API JSON decoder, re-encoding and local encryption (module
#              TerminalAPI, linked with swift-crypto)
#
# SwiftPM cannot link a fuzz executable, so the module's objects are built with the fuzzer and
# address sanitizers in their own scratch folder (.build-fuzz), then linked here with the
# entry point in Fuzz/<TARGET>/Entry.swift. Dependencies are linked from the same folder; only
# the Swift code is instrumented (-Xswiftc), so BoringSSL runs uninstrumented. The seed corpus lives in Fuzz/corpus/<target>
# (committed); what the fuzzer learns goes to Fuzz/corpus-work/<target> (ignored), and a
# crashing input is written to Fuzz/out/.
set -euo pipefail
cd "$(dirname "$0")/.."

target=${1:-tlv}
seconds=${2:-60}
shift $(( $# > 2 ? 2 : $# ))
case "$target" in
  tlv) module=EMV; entry=Fuzz/TLV/Entry.swift; deps=() ;;
  frame | discovery)
    module=ReaderLink
    if [ "$target" = frame ]; then entry=Fuzz/Frame/Entry.swift; else entry=Fuzz/Discovery/Entry.swift; fi
    deps=(EMV MPOSCore Crypto CryptoBoringWrapper CCryptoBoringSSL CCryptoBoringSSLShims CXKCP CXKCPShims)
    ;;
  issuer)
    module=SandboxCards; entry=Fuzz/Issuer/Entry.swift
    deps=(EMV MPOSCore CardCrypto Crypto CryptoExtras _CryptoExtras SwiftASN1 CryptoBoringWrapper CCryptoBoringSSL
      CCryptoBoringSSLShims CXKCP CXKCPShims)
    ;;
  escpos) module=PrinterSimulator; entry=Fuzz/EscPos/Entry.swift; deps=(PrinterCodePages) ;;
  nexo)
    module=TerminalAPI; entry=Fuzz/Nexo/Entry.swift
    deps=(Crypto CryptoExtras _CryptoExtras SwiftASN1 CryptoBoringWrapper CCryptoBoringSSL CCryptoBoringSSLShims CXKCP
      CXKCPShims)
    ;;
  *) echo "unknown fuzz target: $target (known: tlv, frame, discovery, issuer, escpos, nexo)" >&2; exit 2 ;;
esac

scratch=.build-fuzz
swift build --scratch-path "$scratch" --target "$module" -Xswiftc -sanitize=fuzzer,address >&2
bin=$(swift build --scratch-path "$scratch" --show-bin-path)
mkdir -p Fuzz/bin Fuzz/out "Fuzz/corpus-work/$target"
objects=("$bin/$module.build/"*.o)
link=()
for dep in "${deps[@]}"; do
  [ -d "$bin/$dep.build" ] || continue
  while IFS= read -r -d '' object; do objects+=("$object"); done < <(find "$bin/$dep.build" -name '*.o' -print0)
done
# C modules (BoringSSL and its shims) are found through their module maps when Crypto's
# interface is loaded; BoringSSL is C++ inside, so the C++ runtime is linked too.
for map in "$bin"/*.build/module.modulemap; do [ -f "$map" ] || continue; link+=(-Xcc "-fmodule-map-file=$map"); done
for dir in $(find .build-fuzz/checkouts -path '*/include' -type d 2>/dev/null); do link+=(-Xcc -I -Xcc "$dir"); done
if [ ${#deps[@]} -gt 0 ]; then link+=(-lstdc++); fi
swiftc -O -sanitize=fuzzer,address -parse-as-library -I "$bin/Modules" "${link[@]}" \
  "${objects[@]}" "$entry" -o "Fuzz/bin/fuzz-$target"

SWIFT_BACKTRACE=enable=no exec "Fuzz/bin/fuzz-$target" \
  -max_total_time="$seconds" -print_final_stats=1 -artifact_prefix=Fuzz/out/ \
  "$@" "Fuzz/corpus-work/$target" "Fuzz/corpus/$target"
