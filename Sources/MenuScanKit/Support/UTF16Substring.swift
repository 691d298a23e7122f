import Foundation

extension String {
    /// `(self as NSString).substring(with: range)` read from the string itself: the scalars
    /// between the range's UTF-16 offsets. A regular expression's match and group ranges fall
    /// between scalars (ICU matches code points), where this is exact; a range that does not
    /// (inside a surrogate pair, out of bounds, `NSNotFound`) goes to `NSString` as before. The
    /// bridge cost ~7,000 instructions a call, most of the price parser's work after its regex.
    /// (`UTF16SubstringTests` compares both on random text and ranges.)
    func substring(utf16 range: NSRange) -> String {
        let u = utf16
        guard range.location != NSNotFound, range.location >= 0, range.length >= 0,
              let lo = u.index(u.startIndex, offsetBy: range.location, limitedBy: u.endIndex),
              let hi = u.index(lo, offsetBy: range.length, limitedBy: u.endIndex),
              let scalarLo = lo.samePosition(in: unicodeScalars), let scalarHi = hi.samePosition(in: unicodeScalars)
        else { return (self as NSString).substring(with: range) }
        return String(unicodeScalars[scalarLo..<scalarHi])
    }
}
