// The modules whose types MPOSKit's public API takes and returns, re-exported so that an app
// writes `import MPOSKit` and nothing else: MPOSCore (money, currencies, identifiers,
// MPOSError), GatewayAPI (payment parameters, baskets, transactions, reports), ReaderLink
// (shared secret, the reader transport and scanner seams, reader events) and Foundation (URL,
// Date, Data). A re-export rather than one typealias per type, because an alias misses the
// types of the members (`Basket` needs `BasketItem`, `Transaction` needs its status) and free
// functions; `Tests/ReadmeExampleTests` compiles the README against `import MPOSKit` alone.
@_exported import Foundation
@_exported import GatewayAPI
@_exported import MPOSCore
@_exported import ReaderLink
