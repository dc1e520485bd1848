/// ECDSA over NIST P-256 (secp256r1, prime256v1) with SHA-256.
public enum P256 {}
