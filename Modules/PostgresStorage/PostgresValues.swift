import CLibPQ
import Foundation
import Storage

/// How values cross libpq: parameters in PostgreSQL's text form (blobs in binary), results in
/// binary, read into `SQLValue`s by their type.
enum PostgresValues {
    /// A parameter's bytes (text ends with a NUL) and whether they are binary; nil bytes send NULL.
    typealias Parameter = (bytes: [UInt8]?, binary: Bool)

    static func parameter(_ value: SQLValue) -> Parameter {
        switch value {
        case .null: (nil, false)
        case .integer(let number): (Array(String(number).utf8) + [0], false)
        case .real(let number):
            (
                Array(
                    (number.isFinite
                        ? "\(number)" : number.isNaN ? "NaN" : number > 0 ? "Infinity" : "-Infinity").utf8)
                    + [0], false
            )
        case .text(let text): (Array(text.utf8) + [0], false)
        case .blob(let data): ([UInt8](data), true)
        }
    }

    /// Lends libpq's three parameter arrays (values, lengths, formats) for `parameters`.
    static func withParameters<Result>(
        _ parameters: [Parameter],
        _ body: (UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?) ->
            Result
    ) -> Result {
        var buffer: [UInt8] = []
        var offsets: [Int] = []
        for parameter in parameters {
            offsets.append(buffer.count)
            if let bytes = parameter.bytes { buffer += bytes }
        }
        buffer.append(0)  // so that even an empty buffer has an address
        let lengths = parameters.map { Int32($0.bytes?.count ?? 0) }
        let formats = parameters.map { Int32($0.binary ? 1 : 0) }
        return buffer.withUnsafeBufferPointer { base in
            let start = UnsafeRawPointer(base.baseAddress!).assumingMemoryBound(to: CChar.self)
            let pointers: [UnsafePointer<CChar>?] = parameters.indices.map { index in
                parameters[index].bytes == nil ? nil : start + offsets[index]
            }
            return pointers.withUnsafeBufferPointer { pointers in
                lengths.withUnsafeBufferPointer { lengths in
                    formats.withUnsafeBufferPointer { formats in
                        body(pointers.baseAddress, lengths.baseAddress, formats.baseAddress)
                    }
                }
            }
        }
    }

    /// Every row of a binary result.
    static func rows(of result: OpaquePointer) -> [Row] {
        let rowCount = Int(PQntuples(result))
        let columnCount = Int(PQnfields(result))
        let columns = (0..<columnCount).map { String(cString: PQfname(result, Int32($0))) }
        let types = (0..<columnCount).map { PQftype(result, Int32($0)) }
        var rows: [Row] = []
        rows.reserveCapacity(rowCount)
        for row in 0..<Int32(rowCount) {
            var values: [SQLValue] = []
            values.reserveCapacity(columnCount)
            for column in 0..<Int32(columnCount) {
                if PQgetisnull(result, row, column) != 0 {
                    values.append(.null)
                    continue
                }
                let count = Int(PQgetlength(result, row, column))
                let bytes = UnsafeRawBufferPointer(
                    start: count > 0 ? UnsafeRawPointer(PQgetvalue(result, row, column)) : nil, count: count)
                values.append(value(bytes, type: types[Int(column)]))
            }
            rows.append(Row(columns: columns, values: values))
        }
        return rows
    }

    /// A binary value of type `type` (an OID) as Storage reads it.
    static func value(_ bytes: UnsafeRawBufferPointer, type: Oid) -> SQLValue {
        switch type {
        case 16: return .integer(bytes.first == 0 ? 0 : 1)  // bool
        case 20, 21, 23, 26: return .integer(bigEndianInteger(bytes))  // int8, int2, int4, oid
        case 700: return .real(Double(Float(bitPattern: UInt32(truncatingIfNeeded: bigEndianInteger(bytes)))))
        case 701: return .real(Double(bitPattern: UInt64(bitPattern: bigEndianInteger(bytes))))
        case 1700: return numeric(bytes)
        case 17: return .blob(Data(bytes))  // bytea
        case 25, 1043, 1042, 19, 114, 705: return .text(String(decoding: bytes, as: UTF8.self))
        default: return .blob(Data(bytes))
        }
    }

    /// A signed big-endian integer of 2, 4 or 8 bytes.
    static func bigEndianInteger(_ bytes: UnsafeRawBufferPointer) -> Int64 {
        var value: Int64 = 0
        for byte in bytes { value = value << 8 | Int64(byte) }
        let bits = bytes.count * 8
        guard bits > 0, bits < 64 else { return value }
        // Sign-extend a shorter integer.
        return (value << (64 - bits)) >> (64 - bits)
    }

    /// A binary `numeric`: an integer when it has no fraction and fits, else a real.
    static func numeric(_ bytes: UnsafeRawBufferPointer) -> SQLValue {
        guard bytes.count >= 8 else { return .null }
        func field(_ index: Int) -> Int {
            Int(bigEndianInteger(UnsafeRawBufferPointer(rebasing: bytes[index * 2..<index * 2 + 2])))
        }
        let digits = field(0)
        let weight = field(1)
        let sign = field(2) & 0xFFFF
        let scale = field(3)
        guard sign != 0xC000, bytes.count >= 8 + digits * 2 else { return .real(.nan) }
        var real = 0.0
        var integer: Int64? = 0
        for index in 0..<digits {
            let digit = field(4 + index)
            let power = weight - index
            real += Double(digit) * pow(10000, Double(power))
            if power >= 0, let value = integer {
                var scaled: Int64? = Int64(digit)
                for _ in 0..<power {
                    scaled = scaled.flatMap {
                        $0.multipliedReportingOverflow(by: 10000).overflow ? nil : $0 * 10000
                    }
                }
                integer = scaled.flatMap { value.addingReportingOverflow($0).overflow ? nil : value + $0 }
            } else if digit != 0 {
                integer = nil
            }
        }
        let negative = sign == 0x4000
        if scale == 0, let integer { return .integer(negative ? -integer : integer) }
        return .real(negative ? -real : real)
    }
}
