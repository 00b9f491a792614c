import Foundation
import MPOSTestSupport
import SandboxGateway
import Testing

@Suite(.timeLimit(.minutes(1))) struct DashboardHTMLEscapingTests {
    @Test func interpolatedTextIsEscapedAndLiteralMarkupIsKept() {
        let name = "<script>alert('x')</script> & \"friends\""
        let cell: HTML = "<td title=\"\(name)\">\(name)</td>"
        #expect(
            cell.markup
                == "<td title=\"&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;friends&quot;\">"
                + "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;friends&quot;</td>")
    }

    @Test func fragmentsAreNotEscapedTwice() {
        let inner: HTML = "<b>\("a<b")</b>"
        let outer: HTML = "<p>\(inner)\([inner, inner])</p>"
        #expect(outer.markup == "<p><b>a&lt;b</b><b>a&lt;b</b><b>a&lt;b</b></p>")
    }

    @Test func numbersAndOptionalsAreWrittenAsText() {
        let missing: String? = nil
        let present: String? = "<x>"
        let html: HTML = "\(42)|\(missing)|\(present)"
        #expect(html.markup == "42||&lt;x&gt;")
    }

    @Test func randomTextNeverLeavesAnAngleBracketOrQuote() {
        var generator = SplitMix64(seed: SplitMix64.testSeed(environment: ProcessInfo.processInfo.environment))
        let alphabet = Array("<>&\"'ab c/=é")
        for _ in 0..<500 {
            let text = String((0..<Int.random(in: 0...20, using: &generator)).map { _ in
                alphabet[Int.random(in: 0..<alphabet.count, using: &generator)]
            })
            let escaped = HTML(text: text).markup
            #expect(!escaped.contains("<") && !escaped.contains(">") && !escaped.contains("\"") && !escaped.contains("'"))
        }
    }
}

@Suite(.timeLimit(.minutes(1))) struct DashboardBarChartTests {
    @Test func barHeightsFollowTheFigures() {
        let chart = BarChart(
            title: "Turnover", bars: [.init(label: "a", value: 100), .init(label: "b", value: 50), .init(label: "c", value: 0)])
        #expect(chart.heights == [BarChart.plotHeight, BarChart.plotHeight / 2, 0])
        let svg = chart.svg.markup
        #expect(svg.contains("height=\"\(BarChart.plotHeight)\" data-value=\"100\""))
        #expect(svg.contains("height=\"\(BarChart.plotHeight / 2)\" data-value=\"50\""))
        #expect(svg.hasPrefix("<svg") && svg.hasSuffix("</svg>"))
    }

    @Test func refundsDrawBelowTheAxis() {
        let chart = BarChart(title: "T", bars: [.init(label: "a", value: 80), .init(label: "b", value: -40)])
        #expect(chart.heights == [160, 80])
        #expect(chart.svg.markup.contains("class=\"bar negative\" x=\"40\" y=\"160\" width=\"24\" height=\"80\""))
    }

    @Test func labelsAreEscapedInTheChart() {
        let chart = BarChart(title: "<T>", bars: [.init(label: "<a>", value: 1)])
        #expect(!chart.svg.markup.contains("<a>") && !chart.svg.markup.contains("<T>"))
        #expect(chart.svg.markup.contains("&lt;a&gt;: 1"))
    }

    @Test func anEmptyChartHasNoBars() {
        let chart = BarChart(title: "T", bars: [])
        #expect(chart.heights.isEmpty)
        #expect(!chart.svg.markup.contains("<rect"))
    }
}
