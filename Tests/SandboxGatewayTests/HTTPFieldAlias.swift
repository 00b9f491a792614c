import HTTPTypes

/// Hummingbird re-exports `HTTPFields` but not `HTTPField`; the test module names it once here
/// so every test file (the core's harness included) can build header names.
typealias HTTPField = HTTPTypes.HTTPField
