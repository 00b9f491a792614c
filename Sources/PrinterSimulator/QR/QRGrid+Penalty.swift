extension QRGrid {
    /// The penalty score that decides the mask: long runs of one colour, 2×2 blocks,
    /// finder-like patterns and an imbalance of dark and light modules all cost points.
    var penalty: Int {
        var score = 0
        let rows = (0..<size).map { row in (0..<size).map { dark[row * size + $0] } }
        let columns = (0..<size).map { column in (0..<size).map { dark[$0 * size + column] } }
        for line in rows + columns {
            score += Self.runPenalty(line) + Self.finderLikePenalty(line)
        }
        for row in 0..<(size - 1) {
            for column in 0..<(size - 1) {
                let colour = dark[row * size + column]
                if dark[row * size + column + 1] == colour, dark[(row + 1) * size + column] == colour,
                    dark[(row + 1) * size + column + 1] == colour
                {
                    score += 3
                }
            }
        }
        let darkCount = dark.lazy.filter { $0 }.count
        let percent = darkCount * 100 / (size * size)
        score += abs(percent - 50) / 5 * 10
        return score
    }

    /// Three points for a run of five modules of one colour, one more per further module.
    private static func runPenalty(_ line: [Bool]) -> Int {
        var score = 0
        var run = 1
        for index in 1..<line.count {
            if line[index] == line[index - 1] {
                run += 1
            } else {
                if run >= 5 { score += run - 2 }
                run = 1
            }
        }
        if run >= 5 { score += run - 2 }
        return score
    }

    /// Forty points for each dark-light-dark-dark-dark-light-dark pattern with four light
    /// modules before or after it; the quiet zone outside the symbol counts as light.
    private static func finderLikePenalty(_ line: [Bool]) -> Int {
        let padded = Array(repeating: false, count: 4) + line + Array(repeating: false, count: 4)
        let core: [Bool] = [true, false, true, true, true, false, true]
        let light = [Bool](repeating: false, count: 4)
        var score = 0
        for start in 0...(padded.count - 11) {
            let window = padded[start..<(start + 11)]
            if Array(window) == light + core || Array(window) == core + light { score += 40 }
        }
        return score
    }
}
