#if canImport(SwiftUI)
    import SwiftUI

    /// A thin SwiftUI view of one ``TransactionScreen``: the logo in its 40-point frame, the
    /// amount, the prompt, and the step's details. All decisions live in ``TransactionScreens``.
    public struct TransactionScreenView: View {
        let screen: TransactionScreen
        let logo: Image?

        /// A view of `screen`, with the logo of ``TransactionScreenParameters/logo`` made into an
        /// `Image` by the app (nil for none).
        public init(screen: TransactionScreen, logo: Image? = nil) {
            self.screen = screen
            self.logo = logo
        }

        /// The screen's content.
        public var body: some View {
            VStack(spacing: 16) {
                if let logo {
                    logo.resizable().scaledToFit().frame(height: TransactionScreenParameters.logoHeight)
                }
                Text(screen.amount).font(.largeTitle)
                Text(screen.prompt).font(.title3)
                if screen.step == .enterPIN {
                    Text(String(repeating: "•", count: screen.pinDigits)).font(.title)
                }
                ForEach(screen.applications, id: \.self) { Text($0) }
            }
            .padding()
        }
    }
#endif
