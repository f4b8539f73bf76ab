/// The two modulus-11 check digits of a personnummer.
enum CheckDigits {
    static let firstWeights = [3, 7, 6, 1, 8, 9, 4, 5, 2]
    static let secondWeights = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2]

    /// Whether `k1` fits the first nine digits.
    ///
    /// Classic rule: the weighted sum plus k1 is divisible by 11 (k = 11 − sum mod 11, 11 → 0,
    /// 10 → no valid digit). Numbers issued from 2032 may also leave a remainder of 1, 2 or 3,
    /// so that more numbers are available per birth date.
    static func firstIsValid(_ digits: [Int], allowing2032Rule: Bool) -> Bool {
        let remainder = (weightedSum(digits, firstWeights) + digits[9]) % 11
        return allowing2032Rule ? remainder <= 3 : remainder == 0
    }

    /// Whether `k2` fits the first nine digits and k1; the 2032 change leaves k2 as it was.
    static func secondIsValid(_ digits: [Int]) -> Bool {
        (weightedSum(digits, secondWeights) + digits[10]) % 11 == 0
    }

    /// The classic k1 for nine digits, or nil when the remainder gives 10 (no valid number).
    static func classicFirst(for nine: [Int]) -> Int? {
        digit(for: weightedSum(nine, firstWeights))
    }

    /// k2 for nine digits plus k1, or nil when the remainder gives 10.
    static func second(for ten: [Int]) -> Int? {
        digit(for: weightedSum(ten, secondWeights))
    }

    private static func digit(for sum: Int) -> Int? {
        let k = 11 - sum % 11
        switch k {
        case 11: return 0
        case 10: return nil
        default: return k
        }
    }

    private static func weightedSum(_ digits: [Int], _ weights: [Int]) -> Int {
        zip(digits, weights).reduce(0) { $0 + $1.0 * $1.1 }
    }
}
