/// The look of the SDK-provided UI (one-time code, payment method picker, identity verification).
/// Colors are hex strings (`"#0A84FF"`) so the type is the same on every platform.
public struct LinkAppearance: Sendable, Equatable {
    /// Colors.
    public struct Colors: Sendable, Equatable {
        /// The primary (accent) color.
        public var primary: String?
        /// The border of the selected item.
        public var selectedBorder: String?

        /// Creates colors.
        public init(primary: String? = nil, selectedBorder: String? = nil) {
            self.primary = primary
            self.selectedBorder = selectedBorder
        }
    }

    /// The primary button.
    public struct PrimaryButton: Sendable, Equatable {
        /// Corner radius in points.
        public var cornerRadius: Double?
        /// Height in points.
        public var height: Double?

        /// Creates a button style.
        public init(cornerRadius: Double? = nil, height: Double? = nil) {
            self.cornerRadius = cornerRadius
            self.height = height
        }
    }

    /// Light or dark.
    public enum Style: String, Sendable, Equatable {
        /// Follow the system.
        case automatic
        /// Always light.
        case alwaysLight
        /// Always dark.
        case alwaysDark
    }

    /// Colors.
    public var colors: Colors
    /// The primary button.
    public var primaryButton: PrimaryButton
    /// Light or dark.
    public var style: Style

    /// Creates an appearance.
    public init(colors: Colors = Colors(), primaryButton: PrimaryButton = PrimaryButton(), style: Style = .automatic) {
        self.colors = colors
        self.primaryButton = primaryButton
        self.style = style
    }
}
