#!/usr/bin/env bash
# Builds and runs a libFuzzer target against the EMV module.
#
#   Scripts/fuzz.sh tlv [SECONDS] [extra libFuzzer flags…]
#
# SwiftPM cannot link a fuzz executable, so the EMV objects are built with the fuzzer and
# address sanitizers in their own scratch folder (.build-fuzz), then linked here with the
# entry point in Fuzz/<TARGET>/Entry.swift. The seed corpus lives in Fuzz/corpus/<target>
# (committed); what the fuzzer learns goes to Fuzz/corpus-work/<target> (ignored), and a
# crashing input is written to Fuzz/out/.
set -euo pipefail
cd "$(dirname "$0")/.."

target=${1:-tlv}
seconds=${2:-60}
shift $(( $# > 2 ? 2 : $# ))
case "$target" in
  tlv) module=EMV; entry=Fuzz/TLV/Entry.swift ;;
  *) echo "unknown fuzz target: $target (known: tlv)" >&2; exit 2 ;;
esac

scratch=.build-fuzz
swift build --scratch-path "$scratch" --target "$module" -Xswiftc -sanitize=fuzzer,address >&2
bin=$(swift build --scratch-path "$scratch" --show-bin-path)
mkdir -p Fuzz/bin Fuzz/out "Fuzz/corpus-work/$target"
swiftc -O -sanitize=fuzzer,address -parse-as-library -I "$bin/Modules" \
  "$bin/$module.build/"*.o "$entry" -o "Fuzz/bin/fuzz-$target"

SWIFT_BACKTRACE=enable=no exec "Fuzz/bin/fuzz-$target" \
  -max_total_time="$seconds" -print_final_stats=1 -artifact_prefix=Fuzz/out/ \
  "$@" "Fuzz/corpus-work/$target" "Fuzz/corpus/$target"
