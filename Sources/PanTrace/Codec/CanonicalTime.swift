/// `YYYY-MM-DDTHH:MM:SSZ` times as seconds since 1970-01-01T00:00:00Z, both ways, for the
/// version 2 header (docs/FORMAT.md §2.1, tag 11).
///
/// Only the exact canonical spelling converts: any other string (fractions, offsets, lower
/// case) has no `seconds` and is stored verbatim, so `created` always round-trips unchanged.
/// The calendar arithmetic is the proleptic Gregorian `days_from_civil` / `civil_from_days`
/// pair from H. Hinnant, "chrono-Compatible Low-Level Date Algorithms".
enum CanonicalTime {
    /// 9999-12-31T23:59:59Z.
    static let maximumSeconds = 253_402_300_799

    /// Seconds since the epoch if `text` is a canonical UTC time from 1970 to 9999.
    static func seconds(_ text: String) -> Int? {
        guard text.utf8.count == 20 else { return nil }
        let u = Array(text.utf8)
        guard u[4] == 0x2d, u[7] == 0x2d, u[10] == 0x54, u[13] == 0x3a, u[16] == 0x3a, u[19] == 0x5a else { return nil }
        func digits(_ from: Int, _ count: Int) -> Int? {
            var value = 0
            for i in from..<(from + count) {
                guard (0x30...0x39).contains(u[i]) else { return nil }
                value = value * 10 + Int(u[i] - 0x30)
            }
            return value
        }
        guard let year = digits(0, 4), let month = digits(5, 2), let day = digits(8, 2),
            let hour = digits(11, 2), let minute = digits(14, 2), let second = digits(17, 2),
            year >= 1970, (1...12).contains(month), (1...daysIn(month, of: year)).contains(day), hour < 24, minute < 60, second < 60
        else { return nil }
        return daysFromCivil(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second
    }

    /// Days in `month` (1–12) of `year`, proleptic Gregorian.
    static func daysIn(_ month: Int, of year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// The canonical spelling of `seconds` (0 … ``maximumSeconds``).
    static func string(_ seconds: Int) -> String {
        let days = seconds / 86_400, rest = seconds % 86_400
        let (year, month, day) = civilFromDays(days)
        // Digits straight into the 20 bytes: every file read builds one of these.
        var text = Array("0000-00-00T00:00:00Z".utf8)
        func put(_ value: Int, at end: Int, width: Int) {
            var v = value
            for i in stride(from: end, to: end - width, by: -1) {
                text[i] = UInt8(0x30 + v % 10)
                v /= 10
            }
        }
        put(year, at: 3, width: 4)
        put(month, at: 6, width: 2)
        put(day, at: 9, width: 2)
        put(rest / 3600, at: 12, width: 2)
        put(rest / 60 % 60, at: 15, width: 2)
        put(rest % 60, at: 18, width: 2)
        return String(decoding: text, as: UTF8.self)
    }

    private static func daysFromCivil(_ y: Int, _ m: Int, _ d: Int) -> Int {
        let year = m <= 2 ? y - 1 : y
        let era = year / 400
        let yoe = year - era * 400
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    private static func civilFromDays(_ z: Int) -> (Int, Int, Int) {
        let shifted = z + 719_468
        let era = shifted / 146_097
        let doe = shifted - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
