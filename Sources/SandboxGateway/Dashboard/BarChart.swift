/// A bar chart as inline SVG, drawn on the server: one bar per figure, its height in
/// proportion to the largest magnitude, negatives drawn below the axis.
public struct BarChart: Sendable, Hashable {
    /// One bar.
    public struct Bar: Sendable, Hashable {
        /// What the bar stands for (a day, a month…).
        public var label: String
        /// Its figure.
        public var value: Int64

        /// Creates a bar.
        public init(label: String, value: Int64) {
            self.label = label
            self.value = value
        }
    }

    /// The bars, left to right.
    public var bars: [Bar]
    /// What the chart shows, read out by screen readers.
    public var title: String
    /// The height of the plot area in SVG units; the tallest bar is this tall.
    public static let plotHeight = 160
    static let barWidth = 24
    static let gap = 8

    /// Creates a chart.
    public init(title: String, bars: [Bar]) {
        self.title = title
        self.bars = bars
    }

    /// The height of each bar in SVG units, in order.
    public var heights: [Int] {
        let largest = bars.map { $0.value.magnitude }.max() ?? 0
        guard largest > 0 else { return bars.map { _ in 0 } }
        return bars.map { Int((Double($0.value.magnitude) / Double(largest) * Double(Self.plotHeight)).rounded()) }
    }

    /// The `<svg>` element.
    public var svg: HTML {
        let hasNegative = bars.contains { $0.value < 0 }
        let axis = Self.plotHeight
        let height = axis * (hasNegative ? 2 : 1) + 4
        let width = max(1, bars.count) * (Self.barWidth + Self.gap) + Self.gap
        let rects = zip(bars, heights).enumerated().map { index, pair -> HTML in
            let (bar, barHeight) = pair
            let x = Self.gap + index * (Self.barWidth + Self.gap)
            let y = bar.value < 0 ? axis : axis - barHeight
            let kind = bar.value < 0 ? "bar negative" : "bar"
            return """
                <rect class="\(kind)" x="\(x)" y="\(y)" width="\(Self.barWidth)" height="\(barHeight)" \
                data-value="\(bar.value)"><title>\(bar.label): \(bar.value)</title></rect>
                """
        }
        return """
            <svg class="chart" role="img" aria-label="\(title)" viewBox="0 0 \(width) \(height)" \
            width="\(width)" height="\(height)" xmlns="http://www.w3.org/2000/svg">\
            <title>\(title)</title>\(rects)\
            <line class="axis" x1="0" y1="\(axis)" x2="\(width)" y2="\(axis)"/></svg>
            """
    }
}
