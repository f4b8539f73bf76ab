import Foundation
@testable import PortvaktKit
import PortvaktProtocol
import Testing

/// Issue 61 item 8: iOS names every phone "iPhone"; what the member types tells them apart.
@Suite("A device key's name")
struct DeviceNameTests {
    @Test("What the member typed, with the model beside it; the model alone when nothing was typed; tidied and within 64 characters")
    func names() {
        #expect(DeviceName.registered(typed: "Jobbtelefon", model: "iPhone") == "Jobbtelefon (iPhone)")
        #expect(DeviceName.registered(typed: "  Min\tiPhone \n", model: "iPhone") == "Min iPhone", "it names the model already")
        #expect(DeviceName.registered(typed: nil, model: "iPhone") == "iPhone")
        #expect(DeviceName.registered(typed: " \u{7}\n", model: "iPad") == "iPad")
        #expect(DeviceName.registered(typed: "x", model: "") == "x (Phone)")
        let long = DeviceName.registered(typed: String(repeating: "å", count: 100), model: "iPhone")
        #expect(long.count == 64 && long.hasSuffix(" (iPhone)"))
        let longModel = DeviceName.registered(typed: "Jobb", model: String(repeating: "m", count: 80))
        #expect(longModel == "Jobb", "a model too long to stand beside the name is left out")
    }

    @Test("Issue 61 item 8: the name typed before the enrolment is the one registered; the offer has the field, in Bokmål and English")
    func registeredName() async throws {
        let phone = TestPhone(biometry: .available(.face), session: true)
        try await phone.storage.write("refresh-0", for: .refreshToken)
        phone.server.on(FakePortvakt.Endpoint.token, .tokens(for: "kari", refresh: "refresh-1"))
        phone.server.on(FakePortvakt.Endpoint.devices, .ok(DeviceInfo(
            id: "device-1", name: "x", platform: "linux", biometricKind: "face", createdAt: "2027-01-15T08:00:00Z", lastUsedAt: nil, current: false,
            assurance: .electronicID
        )))
        await phone.launch()
        await phone.driver.nameThisDevice("Jobbtelefon")
        await phone.driver.send(.settingsEnableBiometrics)
        #expect(await phone.screen == .home(.faceIDEnabled))
        let body = try #require(phone.server.requests(to: FakePortvakt.Endpoint.devices).first?.body)
        #expect(try JSONDecoder().decode(DeviceRegistration.self, from: body).name == "Jobbtelefon (test phone)")

        var machine = AuthMachine(context: AuthContext(biometry: .available(.face), hasSession: false, deviceKeyEnrolled: false, online: true))
        _ = machine.handle(.launched(machine.context))
        _ = machine.handle(.methodChosen(.bankID))
        _ = machine.handle(.browserReturnedCode)
        _ = machine.handle(.loginCompleted)
        #expect(ScreenModel(machine, language: .nb).deviceNameField == "Navn på telefonen (valgfritt)")
        #expect(ScreenModel(machine, language: .en).deviceNameField == "Name of this phone (optional)")
    }
}
