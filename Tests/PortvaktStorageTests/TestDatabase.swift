import Foundation
import PortvaktTestSupport
import Testing

@Suite("Test databases")
struct TestDatabaseTests {
    @Test("In CI, PostgreSQL is configured: storage tests never silently skip it")
    func postgresIsRequiredInCI() {
        if ProcessInfo.processInfo.environment["CI"] == "true" {
            #expect(TestDatabase.postgresURL != nil, "set TEST_POSTGRES_URL (.ci/run starts PostgreSQL)")
        }
        #expect(TestDatabase.kinds.contains(.sqlite))
    }
}
