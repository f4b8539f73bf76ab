import Foundation
import PortvaktCore
import PortvaktDomain
import Testing

/// The member file as `members import` reads it (issue 45, item 3): CSV per RFC 4180 and JSON
/// lines, every bad line with its number and reason, never a personnummer in a reason.
@Suite("Member file: CSV and JSON lines")
struct MemberFileTests {
    static let header = "external_id,given_name,family_name,email,phone,personnummer,role,member_number"
    static let una = "26449933086"

    /// `line: reason` for each error, so a test reads like the command's output.
    static func errors(_ text: String) -> [String] { errors(Data(text.utf8)) }
    static func errors(_ data: Data) -> [String] { MemberFile.parse(data).errors.map { "\($0.line): \($0.reason)" } }
    static func entries(_ text: String) -> [(line: Int, entry: MemberEntry)] {
        let parsed = MemberFile.parse(Data(text.utf8))
        #expect(parsed.errors.isEmpty, "\(parsed.errors)")
        return parsed.entries
    }

    @Test("Issue 45: a header in any order names the columns; each row becomes an entry with its line; the file is the truth")
    func plainRows() throws {
        let rows = Self.entries("""
        role,email,external_id,personnummer,given_name,family_name,phone,member_number
        org_admin,Una@Sandbox.Portvakt.Test,ffo-11,\(Self.una),Una,Utenfor,+4790000011,
        coordinator,kari@example.org,ffo-12,,Kari,Nordmann,,M-12

        """)
        #expect(rows.map { $0.line } == [2, 3])
        #expect(rows[0].entry == MemberEntry(
            externalID: "ffo-11", userName: "una@sandbox.portvakt.test", givenName: "Una", familyName: "Utenfor",
            email: "Una@Sandbox.Portvakt.Test", phone: "+4790000011", role: .orgAdmin, active: true, memberNumber: nil, personnummer: .set(Self.una)
        ))
        // The member number is the user name when there is one; an empty personnummer removes the number on record.
        #expect(rows[1].entry.userName == "M-12" && rows[1].entry.memberNumber == "M-12")
        #expect(rows[1].entry.personnummer == .remove && rows[1].entry.phone == nil && rows[1].entry.role == .coordinator)
    }

    @Test("Without a personnummer column (or key) the numbers on record stay: .keep")
    func absentPersonnummerColumnKeeps() {
        #expect(Self.entries("external_id,email\nx-1,a@example.org\n")[0].entry.personnummer == .keep)
        #expect(Self.entries("{\"external_id\":\"x-1\",\"email\":\"a@example.org\"}\n")[0].entry.personnummer == .keep)
        #expect(Self.entries("{\"external_id\":\"x-1\",\"email\":\"a@example.org\",\"personnummer\":null}\n")[0].entry.personnummer == .remove)
    }

    @Test("RFC 4180: quoted fields hold commas, \"\" quotes and line breaks; a record spanning lines keeps its first line's number")
    func quoting() {
        let rows = Self.entries(
            "external_id,given_name,family_name,email\r\n"
                + "\"a,1\",\"Kari \"\"K\"\"\",\"Nord\r\nmann\",a@example.org\r\n"
                + "b-2,\"Ola\nPer\",,b@example.org\r\n"
                + "\"c-3\",\"\",Berg,c@example.org"  // no line break at the end
        )
        #expect(rows.map { $0.line } == [2, 4, 6])
        #expect(rows[0].entry.externalID == "a,1")
        #expect(rows[0].entry.givenName == "Kari \"K\"")
        #expect(rows[0].entry.familyName == "Nord\r\nmann")
        #expect(rows[1].entry.givenName == "Ola\nPer" && rows[1].entry.familyName == nil)
        #expect(rows[2].entry.externalID == "c-3" && rows[2].entry.givenName == nil)
    }

    @Test("CRLF, LF and a lone CR end records alike; a UTF-8 byte-order mark is skipped; blank lines and empty spreadsheet rows are skipped")
    func lineEndingsAndBOM() {
        let lines = ["external_id,given_name,email", "", "x-1,Åse,a@example.org", ",,", "  ", "x-2,Øyvind,b@example.org"]
        let expected = Self.entries(lines.joined(separator: "\n"))
        #expect(expected.map { $0.line } == [3, 6])
        for separator in ["\r\n", "\r"] {
            let rows = Self.entries(lines.joined(separator: separator))
            #expect(rows.map { $0.line } == [3, 6])
            #expect(rows.map { $0.entry } == expected.map { $0.entry })
        }
        let withBOM = MemberFile.parse(Data([0xEF, 0xBB, 0xBF]) + Data(lines.joined(separator: "\r\n").utf8))
        #expect(withBOM.errors.isEmpty)
        #expect(withBOM.entries.map { $0.entry } == expected.map { $0.entry })
        #expect(withBOM.entries[0].entry.givenName == "Åse")
    }

    @Test("Role words: peer_mentor, coordinator, org_admin (any case); an empty role is peer_mentor; any other word is an error naming the three")
    func roles() {
        let rows = Self.entries("external_id,email,role\na,a@x.org,peer_mentor\nb,b@x.org,Coordinator\nc,c@x.org,ORG_ADMIN\nd,d@x.org,\n")
        #expect(rows.map { $0.entry.role } == [.peerMentor, .coordinator, .orgAdmin, .peerMentor])
        #expect(Self.errors("external_id,email,role\na,a@x.org,admin\n") == ["2: unknown role 'admin' (peer_mentor, coordinator or org_admin)"])
    }

    @Test("Each bad line is reported with its physical line number and a reason")
    func everyErrorKind() {
        let file = """
        external_id,email,member_number,role,personnummer
        ok-1,a@example.org,,peer_mentor,
        ,b@example.org,,peer_mentor,
        no-name,,,coordinator,
        role-1,c@example.org,,boss,
        short,d@example.org
        "multi
        line",e@example.org,,peer_mentor,
        ok-1,f@example.org,,peer_mentor,
        stray"quote,g@example.org,,,
        "after"x,h@example.org,,,
        ok-2,i@example.org,,,
        """
        let parsed = MemberFile.parse(Data(file.utf8))
        #expect(parsed.entries.map { $0.line } == [2, 7, 12])
        #expect(parsed.errors.map { "\($0.line): \($0.reason)" } == [
            "3: external_id is empty",
            "4: needs member_number or email",
            "5: unknown role 'boss' (peer_mentor, coordinator or org_admin)",
            "6: 2 fields, but the header names 5",
            "9: duplicate external_id: also on line 2",
            "10: a quote (\") inside a field that does not start with one: put the field in quotes and write the quote as \"\"",
            "11: after a closing quote comes a comma or the end of the line (write a quote inside a quoted field as \"\")",
        ])
    }

    @Test("A quote never closed is an error for the line its record starts on")
    func unterminatedQuote() {
        #expect(Self.errors("external_id,email\nx,a@example.org\n\"y,b@example.org\nz,c@example.org\n")
            == ["3: a quoted field that starts on this line is never closed (a \" is missing)"])
    }

    @Test("Bytes that are not UTF-8 are an error naming their line (CSV and JSON lines)")
    func invalidUTF8() {
        var csv = Data("external_id,given_name,email\nx-1,Kari,a@example.org\nx-2,".utf8)
        csv.append(contentsOf: [0xC3, 0x28])  // a broken two-byte sequence
        csv.append(Data(",b@example.org\n".utf8))
        #expect(Self.errors(csv) == ["3: not UTF-8 text (save the file as UTF-8)"])
        var json = Data("{\"external_id\":\"x-1\",\"email\":\"a@example.org\"}\n{\"external_id\":\"".utf8)
        json.append(contentsOf: [0xFF])
        json.append(Data("\",\"email\":\"b@example.org\"}\n".utf8))
        #expect(Self.errors(json) == ["2: not UTF-8 text (save the file as UTF-8)"])
    }

    @Test("The header: an unknown or repeated column, no external_id, or neither member_number nor email is an error for line 1, and nothing is read")
    func headerErrors() {
        #expect(Self.errors("external_id,email,shoe_size\nx,a@example.org,44\n") == [
            "1: unknown column 'shoe_size' (the columns are external_id, given_name, family_name, email, phone, personnummer, role, member_number)",
        ])
        #expect(Self.errors("external_id,email,Email\nx,a@example.org,b@example.org\n") == ["1: column 'email' appears twice"])
        #expect(Self.errors("email,role\na@example.org,peer_mentor\n") == ["1: the header has no external_id column"])
        #expect(Self.errors("external_id,given_name\nx,Kari\n") == ["1: the header needs a member_number or an email column (the member's user name)"])
        #expect(Self.errors("") == ["1: the file is empty: the first line must name the columns (external_id, given_name, family_name, email, phone, personnummer, role, member_number)"])
        // A header alone is a file of no members (with --remove-missing: everyone leaves; the operator asked).
        #expect(MemberFile.parse(Data("external_id,email\r\n".utf8)).entries.isEmpty)
        #expect(Self.errors("external_id,email\r\n").isEmpty)
    }

    @Test("No reason quotes a personnummer, wherever in the file it stands")
    func noPersonnummerInErrors() {
        let file = """
        external_id,email,role,personnummer,\(Self.una)
        x-1,a@example.org,\(Self.una),\(Self.una),y
        """
        let jsonFile = """
        {"external_id":"x-1","email":"a@example.org","role":"\(Self.una)"}
        {"external_id":"x-2","email":"b@example.org","\(Self.una)":"x"}
        {"external_id":"x-3","email":"c@example.org","personnummer":\(Self.una)}
        """
        let reasons = Self.errors(file) + Self.errors(jsonFile)
            + Self.errors("external_id,email,role\nx-1,a@example.org,\(Self.una)\n")
        #expect(reasons.count >= 4)
        for reason in reasons {
            #expect(!reason.contains(Self.una) && !reason.contains("33086"), "\(reason)")
        }
    }

    @Test("JSON lines: one object per line with the same keys; blank lines skipped; unknown keys, other types and broken JSON reported by line")
    func jsonLines() {
        let file = """

        {"external_id": "ffo-11", "given_name": "Una", "email": "una@sandbox.portvakt.test", "role": "org_admin", "personnummer": "\(Self.una)"}

        {"external_id": "ffo-12", "member_number": "M-12", "phone": null}
        {"external_id": "ffo-13", "email": "a@example.org", "shoe_size": "44"}
        {"external_id": 14, "email": "b@example.org"}
        {"external_id": "ffo-15", "email": "c@example.org"
        ["ffo-16"]
        {"external_id": "ffo-11", "email": "d@example.org"}
        {"external_id": "ffo-17", "role": "boss"}
        """
        let parsed = MemberFile.parse(Data(file.utf8))
        #expect(parsed.entries.map { $0.line } == [2, 4])
        #expect(parsed.entries[0].entry == MemberEntry(
            externalID: "ffo-11", userName: "una@sandbox.portvakt.test", givenName: "Una", email: "una@sandbox.portvakt.test",
            role: .orgAdmin, personnummer: .set(Self.una)
        ))
        #expect(parsed.entries[1].entry == MemberEntry(externalID: "ffo-12", userName: "M-12", memberNumber: "M-12"))
        let broken = "not one JSON object on one line, like {\"external_id\": \"123\", \"email\": \"kari@example.org\"}"
        #expect(parsed.errors.map { "\($0.line): \($0.reason)" } == [
            "5: unknown key 'shoe_size' (the keys are external_id, given_name, family_name, email, phone, personnummer, role, member_number)",
            "6: the value of 'external_id' must be a string in quotes (or null)",
            "7: \(broken)",
            "8: \(broken)",
            "9: duplicate external_id: also on line 2",
            "10: unknown role 'boss' (peer_mentor, coordinator or org_admin)",
            "10: needs member_number or email",
        ])
    }

    @Test("The reader tells its progress in lines")
    func progress() {
        let file = Self.header + "\n" + (1...12_000).map { "x-\($0),,,x\($0)@example.org,,,," }.joined(separator: "\n")
        var told: [Int] = []
        let parsed = MemberFile.parse(Data(file.utf8)) { told.append($0) }
        #expect(parsed.errors.isEmpty && parsed.entries.count == 12_000)
        #expect(told.count >= 3 && told == told.sorted() && told.last == 12_001)
    }

    @Test("Round trip: random members written as CSV (any column order, CRLF or LF, quoting where needed) and as JSON lines read back as they were, each on its line", arguments: [1, 2, 3, 4])
    func roundTrip(seed: UInt64) throws {
        var random = SplitMix(state: seed)
        let members = (0..<150).map { RandomMember(number: $0, using: &random) }
        var columns = ["external_id", "given_name", "family_name", "email", "phone", "personnummer", "role", "member_number"]
        columns.shuffle(using: &random)
        let lineBreak = Bool.random(using: &random) ? "\r\n" : "\n"
        var csv = columns.joined(separator: ",") + lineBreak
        var lines: [Int] = []
        var line = 2
        for member in members {
            lines.append(line)
            let fields = columns.map { member.cells[$0] ?? "" }
            csv += fields.map { RandomMember.csvField($0, quoteAnyway: Bool.random(using: &random)) }.joined(separator: ",") + lineBreak
            line += 1 + fields.reduce(0) { $0 + $1.unicodeScalars.filter { $0 == "\n" }.count }
        }
        let parsed = MemberFile.parse(Data(csv.utf8))
        #expect(parsed.errors.isEmpty, "\(parsed.errors)")
        #expect(parsed.entries.map { $0.entry } == members.map(\.entry))
        #expect(parsed.entries.map { $0.line } == lines)

        let json = try members.map { member in
            String(decoding: try JSONSerialization.data(withJSONObject: member.cells, options: [.sortedKeys]), as: UTF8.self)
        }.joined(separator: lineBreak)
        let fromJSON = MemberFile.parse(Data(json.utf8))
        #expect(fromJSON.errors.isEmpty, "\(fromJSON.errors)")
        #expect(fromJSON.entries.map { $0.entry } == members.map(\.entry))
        #expect(fromJSON.entries.map { $0.line } == Array(1...members.count))
    }
}

/// A member with awkward text (commas, quotes, line breaks, letters beyond ASCII, emoji) and the
/// entry the reader must make of its cells.
struct RandomMember {
    static let pieces = ["a", "Kari", "Å", "ø", "é", ",", "\"", "\"\"", " ", "\n", "\r\n", "\t", "👩‍🦽", "-", "1", "'", ";", "{", "}"]

    let cells: [String: String]
    let entry: MemberEntry

    init(number: Int, using random: inout SplitMix) {
        func text() -> String? {
            let count = Int.random(in: 0...6, using: &random)
            let joined = (0..<count).map { _ in Self.pieces.randomElement(using: &random)! }.joined()
            let trimmed = joined.trimmingCharacters(in: .whitespaces)
            return trimmed.isEmpty ? nil : trimmed
        }
        let externalID = "id-\(number)" + (text() ?? "")
        let givenName = text(), familyName = text(), phone = text()
        let email = Bool.random(using: &random) ? "Person\(number)@Example.org" : nil
        var memberNumber = text()
        if email == nil && memberNumber == nil { memberNumber = "m-\(number)" }
        let role = Role.allCases.randomElement(using: &random)!
        let personnummer = Bool.random(using: &random) ? (0..<11).map { _ in String(Int.random(in: 0...9, using: &random)) }.joined() : nil
        var cells = ["external_id": externalID, "role": role.rawValue]
        for (key, value) in [("given_name", givenName), ("family_name", familyName), ("email", email), ("phone", phone), ("member_number", memberNumber), ("personnummer", personnummer)] {
            cells[key] = value ?? ""
        }
        self.cells = cells
        entry = MemberEntry(
            externalID: externalID, userName: memberNumber ?? email!.lowercased(), givenName: givenName, familyName: familyName,
            email: email, phone: phone, role: role, active: true, memberNumber: memberNumber, personnummer: personnummer.map(PersonnummerChange.set) ?? .remove
        )
    }

    /// RFC 4180: in quotes when it holds a comma, a quote or a line break (or when asked), quotes doubled.
    static func csvField(_ text: String, quoteAnyway: Bool) -> String {
        guard quoteAnyway || text.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

/// SplitMix64: a seeded generator, so a failing round trip repeats.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
