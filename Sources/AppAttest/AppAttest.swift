/// The AppAttest module. Its contents land with the issue that builds it.
public enum AppAttestModule {}
