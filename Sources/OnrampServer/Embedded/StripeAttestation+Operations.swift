import HTTPServer
import OnrampServices
import OnrampWire

extension StripeAttestation {
    /// The OpenAPI operations of StripeCore's App Attest calls.
    enum Operations {
        /// The device key every call names.
        static let deviceKey: KeyValuePairs<String, APISchema> = [
            "app_id": .string(minLength: 1, maxLength: 255).described("The bundle id."),
            "device_id": .string(minLength: 1, maxLength: 128).described("identifierForVendor."),
            "key_id": .string(minLength: 1, maxLength: 64).described("The App Attest key id (base64)."),
        ]

        /// Issues a challenge.
        static let createAttestChallenge = APIOperation.stripe(
            "POST /v1/mobile_sdk_attestation/ios_challenge",
            "createAttestChallenge", "Issues an App Attest challenge to a device key (StripeAttest).", tag: "Link",
            auth: .anyKey,
            form: .object(deviceKey, required: ["app_id", "device_id", "key_id"]),
            response: .object(
                ["challenge": .string, "initial_attestation_required": .boolean],
                required: ["challenge", "initial_attestation_required"]))

        /// Attests a key.
        static let attestDeviceKey = APIOperation.stripe(
            "POST /v1/mobile_sdk_attestation/ios_attest",
            "attestDeviceKey", "Verifies a device key's App Attest attestation over its latest challenge.",
            tag: "Link", auth: .anyKey,
            form: .object(
                [
                    "app_id": .string(minLength: 1, maxLength: 255), "device_id": .string(minLength: 1, maxLength: 128),
                    "key_id": .string(minLength: 1, maxLength: 64),
                    "attestation_object": .string(minLength: 1, maxLength: 16_384).described("Standard base64."),
                ], required: ["app_id", "device_id", "key_id", "attestation_object"]),
            response: .object([:]))
    }
}
