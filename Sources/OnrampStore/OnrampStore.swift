/// The OnrampStore module. Its contents land with the issue that builds it.
public enum OnrampStoreModule {}
