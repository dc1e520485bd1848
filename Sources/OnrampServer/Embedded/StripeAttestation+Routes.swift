import HTTPServer
import OnrampServices
import OnrampWire

/// The attestation routes' handlers.
extension StripeAttestation {
    /// `POST /v1/mobile_sdk_attestation/ios_challenge` and `…/ios_attest`.
    func createAttestChallenge(_ _: HTTPRequest, _ caller: StripeCaller, _ body: JSONValue) throws -> JSONValue {
        try challenge(caller: caller, body: body)
    }

    func attestDeviceKey(_ _: HTTPRequest, _ caller: StripeCaller, _ body: JSONValue) throws -> JSONValue {
        try attest(caller: caller, body: body)
    }
}
