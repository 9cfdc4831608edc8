import Synchronization

/// A template as it is written for one set of present components whose values are all plain (`isPlain`): its
/// `{{#first}}` blocks decided and its own text tidied (`AddressText.tidy`), the values' places marked. Copying the
/// plan's text and the values writes what rendering the template and tidying the result writes, byte for byte: a
/// plain value holds nothing the tidying acts on (no comma, no line break or other control byte, no "&", no blank
/// at its ends or two together, no "-" first, no "}" last), so it stands as one inert run, as the mark that held
/// its place when the plan was made.
final class AddressPlan: Sendable {
    /// `pool[start..<start + count]` when `count` is 0 or more; else the value in slot `start`.
    struct Op: Sendable {
        let start, count: Int32
    }

    let ops: [Op]
    let pool: [UInt8]
    /// Whether the tidied text holds a comma (what `AddressText.finish` needs to know).
    let commas: Bool

    /// The bytes that hold the values' places while a plan is made: control bytes that neither a template's text
    /// nor a plain value holds, and that the tidying leaves alone.
    static let marks: [UInt8] = Array(0x01...0x08) + Array(0x0E...0x1F)

    /// The plan of `template` for the values present in `mask` (bit k: `template.slots[k]`); nil when there is none
    /// (see the other `init`).
    convenience init?(_ template: AddressTemplate, present mask: UInt32) {
        let slots = template.slots
        guard slots.count <= Self.marks.count else { return nil }
        let values = AddressValues.allocate(capacity: (slots.max() ?? 0) + 1)
        values.initialize(repeating: nil)
        defer {
            for slot in values.indices { values[slot] = nil }
            values.deallocate()
        }
        var sources: [Int] = []
        for (k, slot) in slots.enumerated() where mask & (1 << k) != 0 {
            values[slot] = Self.mark(sources.count)
            sources.append(slot)
        }
        self.init(template, marked: values, sources: sources)
    }

    /// The plan of `template` written with `values`, which hold marks (`mark(k)`: the value of slot `sources[k]`)
    /// where the values will be; nil when there is none: a mark or an "&" (which the tidying reads across a value)
    /// in the template's text.
    init?(_ template: AddressTemplate, marked values: AddressValues, sources: [Int]) {
        guard !template.pool.contains(where: { $0 == UInt8(ascii: "&") || Self.marks.contains($0) }) else { return nil }
        var text: [UInt8] = []
        template.render(values, into: &text)
        commas = AddressText.tidy(&text)
        var ops: [Op] = [], pool: [UInt8] = []
        for b in text {
            if let k = Self.marks.firstIndex(of: b) {
                ops.append(Op(start: Int32(sources[k]), count: -1))
            } else if let last = ops.last, last.count >= 0 {
                ops[ops.count - 1] = Op(start: last.start, count: last.count + 1)
                pool.append(b)
            } else {
                ops.append(Op(start: Int32(pool.count), count: 1))
                pool.append(b)
            }
        }
        (self.ops, self.pool) = (ops, pool)
    }

    /// The k-th mark as a value.
    static func mark(_ k: Int) -> String { String(decoding: [marks[k]], as: UTF8.self) }

    /// Writes the plan with `values` (by slot) at the end of `out`.
    func write(_ values: AddressValues, into out: inout [UInt8]) {
        write(into: &out) { values[$0] }
    }

    /// Writes the plan at the end of `out`, each slot's value as `value` gives it.
    @inline(__always)
    func write(into out: inout [UInt8], value: (Int) -> String?) {
        pool.withUnsafeBufferPointer { pool in
            for op in ops {
                if op.count >= 0 {
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: pool[Int(op.start)..<Int(op.start + op.count)]))
                } else if let value = value(Int(op.start)) {
                    value.withUTF8Bytes { out.append(contentsOf: $0) }
                }
            }
        }
    }

    /// Whether `value` holds nothing the tidying acts on: not empty, no byte below a space, no comma or "&", no
    /// blank at its ends or after another, no "-" first and no "}" last.
    static func isPlain(_ value: String) -> Bool {
        value.withUTF8Bytes { isPlain($0, refusing: UInt8(ascii: ","), UInt8(ascii: ",")) }
    }

    /// `isPlain` for bytes, refusing also the bytes `also` and `and`.
    static func isPlain(_ t: UnsafeBufferPointer<UInt8>, refusing also: UInt8, _ and: UInt8) -> Bool {
        guard let first = t.first, let last = t.last, first != 0x20, first != UInt8(ascii: "-"), last != 0x20,
              last != UInt8(ascii: "}") else { return false }
        var previous: UInt8 = 0
        for byte in t {
            if byte <= 0x20 {
                if byte != 0x20 || previous == 0x20 { return false }
            } else if byte == UInt8(ascii: ",") || byte == UInt8(ascii: "&") || byte == also || byte == and {
                return false
            }
            previous = byte
        }
        return true
    }
}

/// The plans made so far, shared by every call (under a lock): by template and present components, or by country
/// and parts given (`formatDirectly`); at most `limit` of them (4,096 unless told: a few sets of components for each
/// template and country), past which a plan is made for the call and not kept. What has no plan is kept as such.
final class AddressPlans<Plan: AnyObject & Sendable>: Sendable {
    let limit: Int
    private let plans = Mutex<[PlanKey: Plan?]>([:])

    init(limit: Int = 4096) { self.limit = limit }

    /// How many plans (and refusals) are kept.
    var count: Int { plans.withLock { $0.count } }

    /// The plan for `key`, made by `make` the first time it is asked for.
    func plan(_ key: PlanKey, make: () -> Plan?) -> Plan? {
        if let kept = plans.withLock({ $0[key] }) { return kept }
        let plan = make()
        plans.withLock { if $0.count < limit { $0[key] = .some(plan) } }
        return plan
    }
}

/// What a plan is made for: a template or a country (`scope`, its index), and the slots present (bit n of `low`,
/// then of `high`: slot n, 64 + n).
struct PlanKey: Hashable {
    let scope: Int32
    let low, high: UInt64
}

extension AddressPlans<AddressPlan> {
    /// The plan of template `index` for the values present in `mask`, made the first time it is asked for.
    func plan(_ index: Int, _ template: AddressTemplate, present mask: UInt32) -> AddressPlan? {
        plan(PlanKey(scope: Int32(index), low: UInt64(mask), high: 0)) { AddressPlan(template, present: mask) }
    }
}

extension AddressFormatter {
    /// The plan for writing `values` with template `index`, when every value the template writes is plain.
    func plan(_ index: Int, _ values: AddressValues) -> AddressPlan? {
        let template = templates[index]
        guard template.slots.count <= AddressPlan.marks.count else { return nil }
        var mask: UInt32 = 0
        for (k, slot) in template.slots.enumerated() {
            guard let value = values[slot] else { continue }
            guard AddressPlan.isPlain(value) else { return nil }
            mask |= 1 << k
        }
        return plans.plan(index, template, present: mask)
    }
}
