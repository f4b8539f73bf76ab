// Recorded from Chromium 156's WebDriver virtual authenticator (CTAP2, internal, user verified)
// on http://localhost:18777 with RP ID `localhost` and attestation `none`.
// The challenges were the UTF-8 bytes of "registration-challenge-ALG-0123456789" and
// "assertion-challenge-ALG-0123456789".
struct RecordedCeremony {
    let name: String
    let credentialID: String
    let clientDataJSON: String
    let attestationObject: String
    let assertionClientDataJSON: String
    let authenticatorData: String
    let signature: String
    let userHandle: String
}

enum RecordedVectors {
    static let origin = "http://localhost:18777"
    static let all: [RecordedCeremony] = [
        RecordedCeremony(
            name: "es256", credentialID: "P_t4ozUplxP638JNDexJikOz9nGQVeLQxmjUZ5IpJFs",
            clientDataJSON: "eyJ0eXBlIjoid2ViYXV0aG4uY3JlYXRlIiwiY2hhbGxlbmdlIjoiY21WbmFYTjBjbUYwYVc5dUxXTm9ZV3hzWlc1blpTMWxjekkxTmkwd01USXpORFUyTnpnNSIsIm9yaWdpbiI6Imh0dHA6Ly9sb2NhbGhvc3Q6MTg3NzciLCJjcm9zc09yaWdpbiI6ZmFsc2V9",
            attestationObject: "o2NmbXRkbm9uZWdhdHRTdG10oGhhdXRoRGF0YVikSZYN5YgOjGh0NBcPZHZgW4_krrmihjLHmVzzuoMdl2NFAAAAAQECAwQFBgcIAQIDBAUGBwgAID_7eKM1KZcT-t_CTQ3sSYpDs_ZxkFXi0MZo1GeSKSRbpQECAyYgASFYICMVc7QcZklS5DT7qvuhMoRaLXDv6rwDfjVjDN7WuRCaIlgg_E8M9f8RKCW_uPiH5WNQBgfu-WoFfBS2RzmPYBpazIk",
            assertionClientDataJSON: "eyJ0eXBlIjoid2ViYXV0aG4uZ2V0IiwiY2hhbGxlbmdlIjoiWVhOelpYSjBhVzl1TFdOb1lXeHNaVzVuWlMxbGN6STFOaTB3TVRJek5EVTJOemc1Iiwib3JpZ2luIjoiaHR0cDovL2xvY2FsaG9zdDoxODc3NyIsImNyb3NzT3JpZ2luIjpmYWxzZX0",
            authenticatorData: "SZYN5YgOjGh0NBcPZHZgW4_krrmihjLHmVzzuoMdl2MFAAAAAg", signature: "MEYCIQC0_pDmsVCvH2d-k0CvolfLdIKHSo8Wd8b5l8SHYcqUAgIhAJ3sp8nbIcfRC43Nm_qvY5AN8cW-tF2GfV94mRRTCJ4n", userHandle: "dXNlci1lczI1Ng"
        ),
        RecordedCeremony(
            name: "eddsa", credentialID: "MG4e73Sl7PulAPVXoN3cEffKaBJ4V8imR2HMUpRawm4",
            clientDataJSON: "eyJ0eXBlIjoid2ViYXV0aG4uY3JlYXRlIiwiY2hhbGxlbmdlIjoiY21WbmFYTjBjbUYwYVc5dUxXTm9ZV3hzWlc1blpTMWxaR1J6WVMwd01USXpORFUyTnpnNSIsIm9yaWdpbiI6Imh0dHA6Ly9sb2NhbGhvc3Q6MTg3NzciLCJjcm9zc09yaWdpbiI6ZmFsc2UsIm90aGVyX2tleXNfY2FuX2JlX2FkZGVkX2hlcmUiOiJkbyBub3QgY29tcGFyZSBjbGllbnREYXRhSlNPTiBhZ2FpbnN0IGEgdGVtcGxhdGUuIFNlZSBodHRwczovL2dvby5nbC95YWJQZXgifQ",
            attestationObject: "o2NmbXRkbm9uZWdhdHRTdG10oGhhdXRoRGF0YViBSZYN5YgOjGh0NBcPZHZgW4_krrmihjLHmVzzuoMdl2NFAAAAAQECAwQFBgcIAQIDBAUGBwgAIDBuHu90pez7pQD1V6Dd3BH3ymgSeFfIpkdhzFKUWsJupAEBAycgBiFYIG9nV164VvuxwaRHi6Ll38QuNSbRentC_qeH9vDBwEVu",
            assertionClientDataJSON: "eyJ0eXBlIjoid2ViYXV0aG4uZ2V0IiwiY2hhbGxlbmdlIjoiWVhOelpYSjBhVzl1TFdOb1lXeHNaVzVuWlMxbFpHUnpZUzB3TVRJek5EVTJOemc1Iiwib3JpZ2luIjoiaHR0cDovL2xvY2FsaG9zdDoxODc3NyIsImNyb3NzT3JpZ2luIjpmYWxzZX0",
            authenticatorData: "SZYN5YgOjGh0NBcPZHZgW4_krrmihjLHmVzzuoMdl2MFAAAAAg", signature: "uH35bhxVEeSrCER-gp9k7uXRekdXwzu2w3lW0RvH0N3bJ6qTXxT7aZv0vYQPoRjmrLRUzoAsnFu20tEm68jzBQ", userHandle: "dXNlci1lZGRzYQ"
        ),
        RecordedCeremony(
            name: "rs256", credentialID: "hxIDEKi0EQ_qvBS-s1hpNn9A56A_iaSLE_Lx0_jSNCs",
            clientDataJSON: "eyJ0eXBlIjoid2ViYXV0aG4uY3JlYXRlIiwiY2hhbGxlbmdlIjoiY21WbmFYTjBjbUYwYVc5dUxXTm9ZV3hzWlc1blpTMXljekkxTmkwd01USXpORFUyTnpnNSIsIm9yaWdpbiI6Imh0dHA6Ly9sb2NhbGhvc3Q6MTg3NzciLCJjcm9zc09yaWdpbiI6ZmFsc2UsIm90aGVyX2tleXNfY2FuX2JlX2FkZGVkX2hlcmUiOiJkbyBub3QgY29tcGFyZSBjbGllbnREYXRhSlNPTiBhZ2FpbnN0IGEgdGVtcGxhdGUuIFNlZSBodHRwczovL2dvby5nbC95YWJQZXgifQ",
            attestationObject: "o2NmbXRkbm9uZWdhdHRTdG10oGhhdXRoRGF0YVkBZ0mWDeWIDoxodDQXD2R2YFuP5K65ooYyx5lc87qDHZdjRQAAAAEBAgMEBQYHCAECAwQFBgcIACCHEgMQqLQRD-q8FL6zWGk2f0DnoD-JpIsT8vHT-NI0K6QBAwM5AQAgWQEA6D6wMUm20tMqX58Lj3rc7n1apM08jbdmtuilOlAYvTk9uQhMBWYp4tJXl-WKDjaDx4ebkygsGqc_tFGklBt4UD7woF6Vm3xoDvURY7_ter7yGonFGhyv5_pZCy_XJ9MEegGwWzonTvhkcJJ6FH4gKdmGbZUfBKUH0fF5iC6USZhoOkSugUm2RwB1XDTPlMYDqj9s0Jt0GrJ5X7YNuVzI9swzStr3jy57ScAXPAIdMUEv_Y4KqORNlgyDFrsz6XT8MhCy50eijt9YJ4OrAMZLAEWTaAt4WGi8lWFGHjPIu3MOOiZOpchizuRFW8a96MPK7bO2arRJydaFDf6AqHZqlyFDAQAB",
            assertionClientDataJSON: "eyJ0eXBlIjoid2ViYXV0aG4uZ2V0IiwiY2hhbGxlbmdlIjoiWVhOelpYSjBhVzl1TFdOb1lXeHNaVzVuWlMxeWN6STFOaTB3TVRJek5EVTJOemc1Iiwib3JpZ2luIjoiaHR0cDovL2xvY2FsaG9zdDoxODc3NyIsImNyb3NzT3JpZ2luIjpmYWxzZSwib3RoZXJfa2V5c19jYW5fYmVfYWRkZWRfaGVyZSI6ImRvIG5vdCBjb21wYXJlIGNsaWVudERhdGFKU09OIGFnYWluc3QgYSB0ZW1wbGF0ZS4gU2VlIGh0dHBzOi8vZ29vLmdsL3lhYlBleCJ9",
            authenticatorData: "SZYN5YgOjGh0NBcPZHZgW4_krrmihjLHmVzzuoMdl2MFAAAAAg", signature: "AyFLZhlXlNDZqynFdEVW0i1RjdoWNL34kuL1NWSm0IXT56pFMh4PH6-Q2571paQqZ8SqYQXSwjQxdTjorg6iA5ubBh62atLnKSSXCbZ4p8uxLFGoGlyC67QDMpN_qWbX4-jyWwof0R-0-P8bH-SLCkVO5gqu18xO0a4GXyMCXjpdtxX84U9QNJjE3xYQ5iKx5hHcOyEk_sLldg5SwZny0GjkbupgQXLOS84QWAPOXYCOyU5bUd89m-H05h2RXvM_l0SwdCsejXRdLK-OXA-on_JvlgyPStkjWlMNMBFYSGyo6Wemvrxf2YWVRan4LoDGdSEiZCXcRShFtuydKmKfTQ", userHandle: "dXNlci1yczI1Ng"
        ),
    ]
}
