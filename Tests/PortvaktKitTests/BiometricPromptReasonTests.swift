import Foundation
import PortvaktKit
import PortvaktProtocol
import Testing

/// Item 9 of issue 35: the biometric prompt says why, in the member's language.
@Suite("The biometric prompt's reason")
struct BiometricPromptReasonTests {
    @Test("S5.1/S11.1: every prompt says what it is for, in Bokmål, Nynorsk and English, never the protocol's words")
    func everyReason() {
        var texts: Set<String> = []
        for language in Language.allCases {
            let cases = [BiometricPromptReason.text(.unlock, language: language), BiometricPromptReason.enrolment(language)]
                + StepUpAction.allCases.map { BiometricPromptReason.text(.stepUp, action: $0, language: language) }
            for text in cases {
                #expect(!text.contains("unlock") && !text.contains("step-up") && !text.contains("enrol"), "\(text)")
                #expect(text.hasPrefix(["nb": "Bekreft at det er deg", "nn": "Stadfest at det er deg", "en": "Confirm it is you"][language.rawValue]!))
            }
            texts.formUnion(cases)
        }
        // device.enrol's step-up is the enrolment's own prompt; every other purpose has its own words.
        #expect(BiometricPromptReason.text(.stepUp, action: .deviceEnrol, language: .en) == BiometricPromptReason.enrolment(.en))
        #expect(texts.count == Language.allCases.count * (2 + StepUpAction.allCases.count - 1), "each purpose its own words")
    }

    @Test("S12.2: offline, the unlock's prompt asks in the member's language why")
    func offlineUnlockPrompt() async throws {
        let asked = Asked()
        let key = SoftwareDeviceKey(storage: nil, biometrics: { reason in await asked.record(reason) })
        _ = try await key.create(prompt: .enrolment(.nb))
        // Nothing listens on port 9 of the loopback address: the challenge cannot be fetched.
        let client = PortvaktClient(configuration: PortvaktConfiguration(baseURL: URL(string: "http://127.0.0.1:9")!))
        let unlocker = DeviceUnlocker(client: client, key: key, deviceID: "device-1", language: .nb)
        #expect(await unlocker.unlock(into: TokenManager(storage: MemorySecureStorage(), refresher: client)) == .unlockSucceeded(offline: true))
        #expect(await asked.reasons == ["Bekreft at det er deg for å slå på innlogging med ansikt eller fingeravtrykk", "Bekreft at det er deg for å åpne appen"])
    }
}

actor Asked {
    private(set) var reasons: [String] = []
    func record(_ reason: String) -> BiometricFailure? {
        reasons.append(reason)
        return nil
    }
}
