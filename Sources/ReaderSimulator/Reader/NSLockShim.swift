import Foundation

/// Foundation's lock under a local name, so the rest of the target needs no Foundation import.
typealias NSLockShim = NSLock
