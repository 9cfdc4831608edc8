/// Lays `PatternNode`s out as `TextPattern` instructions.
struct PatternEmitter {
    var program: [TextPattern.Instruction] = []

    mutating func emit(_ node: PatternNode) {
        switch node {
        case .literal(let scalar): program += String(Character(scalar)).utf8.map { .byte($0) }
        case .any: program.append(.any)
        case .set(let n): program.append(.set(n))
        case .textStart: program.append(.textStart)
        case .textEnd: program.append(.textEnd)
        case .wordBoundary: program.append(.wordBoundary)
        case .sequence(let items): for item in items { emit(item) }
        case .group(let inner, let capture):
            if let capture { program.append(.save(2 * capture)) }
            emit(inner)
            if let capture { program.append(.save(2 * capture + 1)) }
        case .alternation(let branches): emitAlternation(branches)
        case .repeated(let inner, let min, let max, let greedy): emitRepeat(inner, min: min, max: max, greedy: greedy)
        }
    }

    /// Each branch but the last behind a split that falls through to the next; all jump to the end.
    private mutating func emitAlternation(_ branches: [PatternNode]) {
        var jumps: [Int] = []
        for branch in branches.dropLast() {
            let split = program.count
            program.append(.split(split + 1, -1))
            emit(branch)
            jumps.append(program.count)
            program.append(.jump(-1))
            program[split] = .split(split + 1, program.count)
        }
        if let last = branches.last { emit(last) }
        for jump in jumps { program[jump] = .jump(program.count) }
    }

    /// The required copies, then the optional ones each behind a split (or a loop when there is no bound).
    private mutating func emitRepeat(_ inner: PatternNode, min: Int, max: Int?, greedy: Bool) {
        for _ in 0..<min { emit(inner) }
        func split(taking: Int, skipping: Int) -> TextPattern.Instruction {
            greedy ? .split(taking, skipping) : .split(skipping, taking)
        }
        if let max {
            var splits: [Int] = []
            for _ in min..<max {
                splits.append(program.count)
                program.append(.split(-1, -1))
                emit(inner)
            }
            for s in splits { program[s] = split(taking: s + 1, skipping: program.count) }
        } else {
            let loop = program.count
            program.append(.split(-1, -1))
            emit(inner)
            program.append(.jump(loop))
            program[loop] = split(taking: loop + 1, skipping: program.count)
        }
    }
}
