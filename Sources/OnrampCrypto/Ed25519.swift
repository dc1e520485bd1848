/// Ed25519 signatures (RFC 8032, pure EdDSA).
public enum Ed25519 {}
